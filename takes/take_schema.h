/* take_schema.h — what a take holds, as the writer is given it and the reader gives it back: the
 * format version, the streams, the columns of each (take_schema) and the embedded sources
 * (take_source). Plain types and constants; no functions. The file itself: takes/takefile.h. */
#ifndef TAKE_SCHEMA_H
#define TAKE_SCHEMA_H

#define TAKE_FORMAT_VERSION 5   /* 5: the state's integrated values stored as what the step does not predict (codec 6,
                                   meta state_rates); 4: a context stream instead of channel chunks (channels rebuilt from the state,
                                   inputs and context, takes/takechan.h; stored only on request); 3: no pose chunks
                                   (rebuilt from the state, takes/takepose.h); 2: Zstandard chunks (codecs 4, 5);
                                   formats 1 to 3 are still read */
#define TAKE_CHUNK_STEPS 1000

/* TAKE_CTX: the runner's context channels (recorder.h REC_NCTX: time, station, offset, distance,
 * lap, ax, ay, stunt), stored from format 4; for older takes the reader takes them from the
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

#endif
