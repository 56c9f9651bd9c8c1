/* take_writer.h — writing a take (docs/takefile.md, "Writing", "Crash safety", "One writer").
 *
 * Contract:
 *  - One writer per take. take_writer_open refuses (MT_EINPUT, one line) when another run is
 *    writing the path: a take written in place holds its writer's flock, a temporary names its
 *    process. The output rule (base/outfile.h): a new take is created at its path, with its header
 *    committed before the first step (a killed run leaves a readable take, marked incomplete);
 *    an existing take is replaced only by take_writer_close, by rename, so it stays whole and
 *    readable until the new one is complete. take_writer_discard removes what the writer made.
 *  - The simulation's thread only copies a step into a row buffer (take_writer_step); a writer
 *    thread encodes and commits the chunks (takes/take_codec.h), in transactions of up to 16
 *    chunks handed over together, and at least once a second of the run's time, with the step
 *    count in the status row: a killed run loses at most its last second.
 *  - Journal rules (takes/takejournal.h): every transaction first rewrites the take's random
 *    application_id, so page 1 is the first record of any journal it leaves; before a new take
 *    is renamed over an old one, the old one's journal is rolled back when it is provably the old
 *    take's own, and removed in any case.
 *  - Errors: a failure on the writer thread is reported by the next take_writer_step that hands
 *    over, or by take_writer_close (MT_EINTERNAL naming the take). meta and events never fail
 *    when queued; they are written with the next transaction. */
#ifndef TAKE_WRITER_H
#define TAKE_WRITER_H

#include "base/mt.h"
#include "takes/take_reader.h"
#include "takes/take_schema.h"

typedef struct take_writer take_writer;
/* The words of take_writer_open's refusal when another run is writing the path ("PATH: " before
 * them): a caller that would rather wait for that run (render --lesson) finds them in the message. */
#define TAKE_WRITER_BUSY "another mototake run is writing this take"
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
 * The output rule (base/outfile.h): a take is created in place when nothing is at the path, else
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

/* Write a new take with the steps [step0, step0 + n) of r (a cut): its sources, overrides,
 * metadata (with cut_from = note), the stored state, inputs and context, and the events of those
 * steps, shifted. Nothing half-cut is left on failure; an old file at path is kept. */
int take_write_cut(take_reader* r, long step0, long n, const char* path, const char* note, mt_err* e);

#endif
