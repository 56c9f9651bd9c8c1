/* take_sample.c — the channel look-up, range and resampling of `take channels` (take_sample.h). */
#include "takes/take_sample.h"

#include <math.h>
#include <string.h>

int take_chan_find(const take_schema* s, const char* name, mt_err* e) {
  for (int i = s->nchan - 1; i >= 0; i--)   /* the last of equal names, as the CLI always took */
    if (strcmp(s->chan_names[i], name) == 0) return i;
  int best = 0;
  for (int i = 1; i < s->nchan; i++)
    if (mt_edit_distance(name, s->chan_names[i]) < mt_edit_distance(name, s->chan_names[best])) best = i;
  mt_fail(e, MT_EINPUT, "take channels: --channels: no channel '%s' (nearest: %s; see mototake take info)", name,
          s->nchan ? s->chan_names[best] : "none");
  return -1;
}

int take_step_range(const take_reader* r, const char* who, double from, double to, long* a, long* b, mt_err* e) {
  double dt = take_schema_of(r)->timestep, dur = take_nsteps(r) * dt;
  if (!(from >= 0) || !(to <= dur + 1e-9) || !(from < to))   /* NaN fails too */
    return mt_fail(e, MT_EINPUT, "%s: --from %g --to %g is not a range within the take (0 .. %.3f s)", who, from, to, dur);
  *a = (long)llround(from / dt);
  *b = (long)llround(to / dt);
  if (*b > take_nsteps(r)) *b = take_nsteps(r);
  return MT_OK;
}

int take_rate_ok(const take_schema* s, const char* who, int rate_set, double rate, mt_err* e) {
  if (!rate_set) return MT_OK;
  if (!(rate > 0)) return mt_fail(e, MT_EINPUT, "%s: --rate must be > 0", who);
  /* Resampling above the recorded rate adds no information, only rows (1e6 Hz meant gigabytes). */
  if (rate * s->timestep > 1 + 1e-9)
    return mt_fail(e, MT_EINPUT, "%s: --rate: %g Hz is above the take's recorded rate of %g Hz", who, rate, 1 / s->timestep);
  return MT_OK;
}

void take_resample_init(take_resample* rs, long a, long n, double dt, double rate) {
  double t0 = a * dt, t1 = (a + n - 1) * dt;
  *rs = (take_resample){.a = a, .n = n, .dt = dt, .rate = rate, .q0 = (long)ceil(t0 * rate - 1e-9)};
  while ((rs->q0 + rs->rows) / rate <= t1 + 1e-12) rs->rows++;   /* the CLI's stopping test, row by row */
}
