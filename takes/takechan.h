/* takechan.h — a take's channels rebuilt from its state, input and context streams (take format
 * 4, issue 18).
 *
 * Every channel of a step is a function of the state at its start, the inputs applied over it
 * and the runner's context (time, station, offset, distance, lap, ax, ay, stunt): the recording
 * loop samples them after veh_step from exactly those (takes/recorder.h rec_sample_instant). So
 * from format 4 the writer stores the context instead of the 121 channels, and a reader rebuilds
 * the machine on its road from the take's embedded sources and overrides (replay_rebuild, as
 * `take verify` does), puts the step's state and inputs in, evaluates one step (forces,
 * accelerations) and samples. With the build that recorded the take the result is bit for bit
 * what the recording loop would have stored, float32 included (tests/unit/test_takechan.c); a
 * later build gives its own evaluation of the recorded states (docs/takefile.md).
 *
 * Contract: takechan_new fails (MT_EINPUT, one line) when the machine cannot be rebuilt or does
 * not match the take's schema (state size, channel names); takechan_fill writes nchan values,
 * each rounded to float32 as a stored channel is, and never allocates. Reading steps in order
 * carries the road look-ups' hints from step to step as the recording loop did; a jump restarts
 * them (the same answers: a look-up is a pure function of the point, the hint only speeds it).
 * Not thread-safe (one per reader). */
#ifndef TAKECHAN_H
#define TAKECHAN_H

#include "takes/take_reader.h"

typedef struct takechan takechan;

takechan* takechan_new(const take_reader* r, mt_err* e);
/* The channels (rec_channels() order) of step `step`: state[nstate] at its start, input[ninput]
 * (older takes have fewer: the rest are 0), ctx[REC_NCTX]. MT_EINPUT when the machine cannot
 * evaluate the recorded state (a damaged or forged take: the step blows up), naming the step. */
int takechan_fill(takechan* p, long step, const double* state, const double* input, const double* ctx, double* out, mt_err* e);
void takechan_free(takechan* p);

#endif
