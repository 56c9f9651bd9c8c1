/* take_sample.h — what `take channels` computes from a take, for every caller that must give the
 * same numbers and the same error lines (app/take_cmd.c, the library's api/mtk_take.c): a
 * channel named, a time range, and the resampling at a given rate.
 *
 * Contract: take_chan_find and take_step_range refuse with the CLI's one line (MT_EINPUT);
 * take_resample describes the rows `take channels --rate` writes — times q/rate for the integer
 * q from ceil(t0·rate) while q/rate ≤ t1 (t0, t1 the range's first and last step times), each
 * the linear interpolation v0 + w·(v1 − v0) between the range's steps i and i + 1 — so a caller
 * filling arrays and the CSV writer compute every value with the same operations. */
#ifndef TAKE_SAMPLE_H
#define TAKE_SAMPLE_H

#include "base/mt.h"
#include "takes/take_reader.h"

/* The index of channel name in the take's schema, or −1 with e set ("take channels: --channels:
 * no channel 'X' (nearest: Y; see mototake take info)"). */
int take_chan_find(const take_schema* s, const char* name, mt_err* e);

/* [*a, *b): the steps from `from` to `to` (s) within the take; who names the command in the
 * message ("take channels: --from F --to T is not a range within the take (0 .. D s)"). */
int take_step_range(const take_reader* r, const char* who, double from, double to, long* a, long* b, mt_err* e);

/* rate (Hz) against the take: > 0 and not above its recorded rate (the CLI's two lines; who as
 * above). rate_set 0: full rate, nothing to check. */
int take_rate_ok(const take_schema* s, const char* who, int rate_set, double rate, mt_err* e);

/* The resampled rows of the steps [a, a + n) at rate (> 0) with time step dt. */
typedef struct take_resample { long a, n, q0, rows; double dt, rate; } take_resample;
void take_resample_init(take_resample* rs, long a, long n, double dt, double rate);
/* Row j (0 ≤ j < rows): its time t, its left step i in the range (0 ≤ i, i + 1 < n unless n ≤ 1)
 * and weight w of step i + 1; u = the row's position in steps from a (for a progress bar). */
static inline void take_resample_row(const take_resample* rs, long j, double* t, long* i, double* w, double* u) {
  *t = (rs->q0 + j) / rs->rate;
  *u = *t / rs->dt - rs->a;
  long k = (long)__builtin_floor(*u);
  if (k >= rs->n - 1) k = rs->n - 2;
  if (k < 0) k = 0;
  *i = k;
  *w = rs->n > 1 ? *u - k : 0;
}

/* A resampled value between the range's steps i (v0) and i + 1 (v1) at weight w: the one
 * expression every caller uses, so the CSV, the .mat and the library agree bit for bit. */
static inline double take_resample_lerp(double v0, double v1, double w) { return v0 + w * (v1 - v0); }

#endif
