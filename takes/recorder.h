/* recorder.h — the take's view of the channels: the context the runner knows without reading
 * the vehicle, and the context row a take stores. The sampling itself is sim/recsample.h (which
 * this header includes: rec_sample, the channel, input and body tables, rec_context).
 *
 * Contract: each function writes only the places it names and reads nothing else; the context
 * channels' places in the channel table are fixed (a unit test holds them to the names). */
#ifndef RECORDER_H
#define RECORDER_H

#include "sim/recsample.h"

/* The channels the runner knows without reading the vehicle (issue 18: dry runs sample the rest
 * only when an event condition reads one): time, station, offset, distance, lap, ax, ay, stunt.
 * rec_context_mask sets mask[k] = 1 for those, 0 for the rest (mask has rec_nchan() entries);
 * rec_sample_context writes exactly the values rec_sample writes there (time: t, the instant the
 * sample describes) and leaves the other channels untouched. */
void rec_context_mask(unsigned char* mask);
void rec_sample_context(const rec_context* c, double t, double* chans);

/* The context row a take stores (format 4, issue 18): those same REC_NCTX channels, in the
 * order rec_ctx_channel gives their places in rec_channels(). With the state and the inputs
 * they determine every other channel of the step (takes/takechan.h rebuilds them). */
#define REC_NCTX 8
int rec_ctx_channel(int k);                                      /* k < REC_NCTX → channel index */
void rec_ctx_values(const rec_context* c, double t, double* ctx);   /* the runner's context → row */
void rec_ctx_gather(const double* chans, double* ctx);               /* a sampled channel row → row */
void rec_ctx_scatter(const double* ctx, double* chans);              /* row → its channels (others untouched) */

#endif
