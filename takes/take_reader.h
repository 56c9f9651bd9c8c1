/* take_reader.h — reading a take's file (docs/takefile.md, "Reading an untrusted take").
 *
 * A take is untrusted input. take_reader_open checks the schema, the metadata and every count
 * and index against each other (and refuses with one line naming file and field, MT_EINPUT)
 * before anything is sized from them; SQLite runs with defensive settings and a work budget. The
 * metadata every command relies on is validated there once, for all of them: the format version,
 * the time step (a step a rig can have), the overrides (a JSON list of "key=value" strings), the
 * state's rate table, the columns, the chunk index, the status, the sources and the events.
 *
 * The reader never builds a simulator: it serves what the file stores (take_read_stored). The
 * check that the embedded rig steps with meta timestep and the streams rebuilt from the state
 * (poses, format 3 on; channels, format 4 on) are the replay layer's, on top of this one:
 * commands open and read takes through take_open and take_read (takes/take_replay.h).
 *
 * Ownership: every string and record a reader hands out is its own, valid until take_close.
 * A reader is not thread-safe (it caches one decoded chunk per stream). */
#ifndef TAKE_READER_H
#define TAKE_READER_H

#include "base/mt.h"
#include "takes/take_schema.h"

typedef struct take_reader take_reader;
typedef struct take_event { long step; char kind[32]; char* json; } take_event;

take_reader* take_reader_open(const char* path, mt_err* e);
/* Closes the file and frees everything the reader handed out, and what is attached to it. */
void take_close(take_reader* r);
/* The path it was opened with (for messages). */
const char* take_path(const take_reader* r);
const take_schema* take_schema_of(const take_reader* r);
long take_nsteps(const take_reader* r);
int take_complete(const take_reader* r, const char** reason);
/* Metadata value for key, NULL if absent. */
const char* take_meta(const take_reader* r, const char* key);
/* Every metadata row: count, and the i-th key and value (in the file's order). */
int take_nmeta(const take_reader* r);
void take_meta_at(const take_reader* r, int i, const char** key, const char** value);
/* Sources: count, and the i-th kind, name, text. */
int take_nsources(const take_reader* r);
void take_source_at(const take_reader* r, int i, const char** kind, const char** name, const char** text);
const char* take_overrides(const take_reader* r);
/* The overrides as take_open parsed them (meta overrides, a JSON list of "key=value" strings;
 * absent: none): their count, and *sets (owned by the reader) the strings in order. */
int take_override_sets(const take_reader* r, const char* const** sets);
int take_nevents(const take_reader* r);
const take_event* take_event_at(const take_reader* r, int i);
/* MT_OK when [step0, step0 + nsteps) lies inside the take, else MT_EINPUT naming it. */
int take_steps_ok(const take_reader* r, long step0, long nsteps, mt_err* e);
/* Read nsteps steps from step0 of a stored stream into out (row-major: step × columns): every
 * stream take_stored says the file holds, and the context of takes before format 4 (taken from
 * their stored channels). A stream the take does not store (poses from format 3, channels from
 * format 4 unless stored) is MT_EINTERNAL: take_read (takes/take_replay.h) rebuilds those. */
int take_read_stored(take_reader* r, int stream, long step0, long nsteps, double* out, mt_err* e);
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

/* One slot for the layer above (the replay layer keeps its rebuilt machines there): the reader
 * never looks inside; take_close (or a second take_attach) calls free_fn(p). */
void take_attach(take_reader* r, void* p, void (*free_fn)(void*));
void* take_attached(const take_reader* r);

/* The `-journal` beside the take at path brought to rest before SQLite opens it (takejournal.h):
 * the take's own is left for SQLite to roll back (hot) or removed (not hot) under an exclusive
 * lock; a foreign one is refused (MT_EINPUT, one line) and left in place. The writer calls it
 * before it renames a new take over an old one. */
int take_journal_recover(const char* path, mt_err* e);

#endif
