/* takefile.h — the take file: one SQLite database holding a whole ride (docs/takefile.md).
 *
 * A take is self-contained: program version, platform and timestep; the full source text of
 * the rig (and every module it required), the track and the script, and the overrides; and at
 * every step the simulator's state, the inputs and the channels; every body's pose is read
 * as a stream too, but from format 3 it is not stored: take_read rebuilds it from the state
 * and the embedded rig (takes/takepose.h). The streams are stored in compressed chunks of one
 * second: per column, the second difference of each value's bits, the bytes shuffled into
 * planes, compressed with Zstandard (deflate in format 1) — smooth motion becomes long runs of
 * equal bytes. Every chunk carries the CRC-32 of its raw bytes, checked on every read.
 *
 * Crash safety: a new file is written in place (an existing one is replaced by rename at the
 * end, sim/outfile.h); the chunks commit in transactions of up to 16 (handed to the writer
 * thread together, and at least once a second of the run's time) with the step count in the
 * status row, so a killed run leaves a readable take, marked incomplete, missing at most what it
 * simulated in its last second. Encoding and committing run on a writer thread, so the
 * simulation pays only for a copy.
 *
 * Reading: a take is untrusted input. take_open checks the schema, the metadata and every
 * count and index against each other (and refuses with one line naming file and field) before
 * anything is sized from them; SQLite runs with defensive settings and a work budget. The
 * metadata every command relies on is validated there once, for all of them: the overrides
 * parse (a JSON list of "key=value" strings), and the embedded rig, rebuilt with them, loads and
 * steps with exactly meta timestep (the step the run recorded with); a take that passes is one
 * every reader can replay as recorded. */
#ifndef TAKEFILE_H
#define TAKEFILE_H

#include "sim/mt.h"

#define TAKE_FORMAT_VERSION 5   /* 5: the state's integrated values stored as what the step does not predict (codec 6,
                                   meta state_rates); 4: a context stream instead of channel chunks (channels rebuilt from the state,
                                   inputs and context, takes/takechan.h; stored only on request); 3: no pose chunks
                                   (rebuilt from the state, takes/takepose.h); 2: Zstandard chunks (codecs 4, 5);
                                   formats 1 to 3 are still read */
#define TAKE_CHUNK_STEPS 1000

/* TAKE_CTX: the runner's context channels (recorder.h REC_NCTX: time, station, offset, distance,
 * lap, ax, ay, stunt), stored from format 4; for older takes take_read takes them from the
 * stored channels. */
enum { TAKE_STATE, TAKE_INPUT, TAKE_POSE, TAKE_CHAN, TAKE_CTX, TAKE_NSTREAM };

typedef struct take_schema {
  double timestep;
  int nstate;
  int ninput;
  const char** input_names;
  const char** input_units;
  int nbody;
  const char** body_names;
  const char** body_parents;   /* "" for the root */
  int nchan;
  const char** chan_names;
  const char** chan_units;
  int store_chan;   /* writing: also store the channel stream (format 4 rebuilds it otherwise) */
  /* state_rate[i] = j (or −1; NULL: none): the step sets state value i to x_i + timestep·x_j
   * (sim/vehicle.h veh_state_rates). From format 5 such a value is stored as the bits in which it
   * differs from that prediction (codec 6, docs/takefile.md): zero at every step but a chunk's
   * first, so a chunk costs about a quarter less to compress and write. Any table is lossless;
   * a wrong one only compresses worse. Readers give it back as the take recorded it. */
  const int* state_rate;
} take_schema;

typedef struct take_source {
  const char* kind;   /* "script", "rig", "module", "track" */
  const char* name;
  const char* text;
} take_source;

/*---- writing ----*/
typedef struct take_writer take_writer;
take_writer* take_writer_open(const char* path, const take_schema* s, const take_source* src, int nsrc,
                              const char* overrides_json, mt_err* e);
int take_writer_meta(take_writer* w, const char* key, const char* value, mt_err* e);
/* One step: state[nstate], input[ninput], ctx[REC_NCTX] (recorder.h: the context channels of
 * the step, time first), and chans[nchan] — read only when the schema asked to store channels
 * (store_chan), else it may be NULL: format 4 rebuilds channels from the rest (takes/takechan.h).
 * Poses are never stored (format 3 on: rebuilt from the state). */
int take_writer_step(take_writer* w, const double* state, const double* input, const double* ctx,
                     const double* chans, mt_err* e);
int take_writer_event(take_writer* w, long step, const char* kind, const char* json, mt_err* e);
/* Flush, record the end status, close. complete = 0 marks the take incomplete (with reason).
 * The output rule (sim/outfile.h): a take is created in place when nothing is at the path, else
 * under a temporary that take_writer_close renames over the old take. */
int take_writer_close(take_writer* w, int complete, const char* reason, mt_err* e);
/* When the writer thread ends (in take_writer_close or _discard), it stores its own CPU time
 * (s, CLOCK_THREAD_CPUTIME_ID) at *out: what recording cost beside the simulation's thread
 * (takes/run.c run_result.cpu_writer). */
void take_writer_cpu_to(take_writer* w, double* out);
/* Close and remove what this writer created (an old take at the path is kept). */
void take_writer_discard(take_writer* w);
/* 1 when the take is written at its path itself (nothing was there), 0 under a temporary. */
int take_writer_in_place(const take_writer* w);

/*---- reading ----*/
typedef struct take_reader take_reader;
typedef struct take_event { long step; char kind[32]; char* json; } take_event;

take_reader* take_open(const char* path, mt_err* e);
void take_close(take_reader* r);
const take_schema* take_schema_of(const take_reader* r);
long take_nsteps(const take_reader* r);
int take_complete(const take_reader* r, const char** reason);
/* Metadata value for key, NULL if absent. */
const char* take_meta(const take_reader* r, const char* key);
/* Sources: count, and the i-th kind, name, text. */
int take_nsources(const take_reader* r);
void take_source_at(const take_reader* r, int i, const char** kind, const char** name, const char** text);
const char* take_overrides(const take_reader* r);
/* The overrides as take_open parsed them (meta overrides, a JSON list of "key=value" strings;
 * absent: none): their count, and *sets (owned by the reader) the strings in order. */
int take_override_sets(const take_reader* r, const char* const** sets);
int take_nevents(const take_reader* r);
const take_event* take_event_at(const take_reader* r, int i);
/* Read nsteps steps from step0 of a stream into out (row-major: step × columns). */
int take_read(take_reader* r, int stream, long step0, long nsteps, double* out, mt_err* e);
int take_ncols(const take_reader* r, int stream);
/* 1 when the take holds chunks of the stream; 0 when readers rebuild it (poses from format 3,
 * channels from format 4 unless stored on request) or derive it (the context before format 4). */
int take_stored(const take_reader* r, int stream);
/* 1 when a run was still recording the take as it was opened (it holds the writer's lock). */
int take_live(const take_reader* r);
/* Chunks per stream (every stream has the same). */
long take_nchunks(const take_reader* r);
/* Decode every chunk of every stream (header, inflate, CRC-32) and run PRAGMA quick_check:
 * MT_OK only when all of the take's data is readable and intact. */
int take_check_all(take_reader* r, mt_err* e);
/* The take's content key: SHA-256 (64 lowercase hex digits and a NUL into hex[65]) of its own
 * checksums and everything take_open read, in an unambiguous order: every chunk's stream,
 * number, first step, steps, columns, codec, raw size, stored CRC-32 and data length (the data
 * itself is not read: a fraction of a verify's cost), then the metadata, the columns, the status,
 * the sources and the events. Two files with the same checksums and records have the same key
 * wherever they are (a copy keeps it); a rewrite in place that changes any of them changes it.
 * Bytes flipped inside a chunk's data that keep its length and stored CRC keep the key too
 * (they fail the CRC check on every read). MT_OK, or MT_EINPUT naming the take. */
int take_content_key(take_reader* r, char hex[65], mt_err* e);
/* Write a new take with the steps [step0, step0 + n) of r (a cut); events shifted. */
int take_write_cut(take_reader* r, long step0, long n, const char* path, const char* note, mt_err* e);

/* Format 5's prediction of a rated state value (take_schema.state_rate): prev + h·rate in two
 * IEEE roundings, never fused, as MuJoCo integrates it. */
double take_rate_predict(double prev, double h, double rate);
/* The writer's shortcut for a block of a rated value's residuals that are all zero (1, the
 * default); 0 takes the general transform, byte for byte the same chunks (unit tests). */
extern int take_zero_blocks;
/* The writer's transform of two neighbouring float64 columns at once (1, the default); 0 takes
 * them one at a time, byte for byte the same chunks (unit tests). */
extern int take_wide;

/* The chunk codec alone (docs/takefile.md "Chunks"), for tests and the fuzzer: encode ncols
 * columns of n values (column-major) with codec 0, 2 or 3 (malloc'd blob, NULL for a bad
 * shape); decode into out[ncols·n], 0 on success, −1 when the blob does not inflate to exactly
 * the size the shape implies. *crc gets the CRC-32 of the raw stored-precision values. */
unsigned char* take_chunk_encode(const double* raw, int ncols, long n, int codec, size_t* len, unsigned long* crc);
int take_chunk_decode(const void* blob, size_t len, int codec, int ncols, long n, double* out, unsigned long* crc);

#endif
