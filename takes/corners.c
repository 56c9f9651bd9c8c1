/* corners.c — a lap's lean corner by corner (see corners.h). */
#include "takes/corners.h"

#include <math.h>
#include <string.h>

#include "sim/track.h"
#include "sim/trim.h"

int corners_init(run_corner* c, int max, const track* t) {
  const track_dress* d = track_dressing(t);
  int n = d ? d->ncorner : 0;
  if (n > max) n = max;
  for (int i = 0; i < n; i++) {
    memset(&c[i], 0, sizeof c[i]);
    memcpy(c[i].name, d->corner[i].name, sizeof c[i].name);
    c[i].name[sizeof c[i].name - 1] = 0;
    c[i].at = d->corner[i].at;
  }
  return n;
}

int corners_at(const run_corner* c, int n, double s) {
  int best = -1, last = -1;
  for (int i = 0; i < n; i++) {
    if (c[i].at <= s && (best < 0 || c[i].at > c[best].at)) best = i;
    if (last < 0 || c[i].at > c[last].at) last = i;
  }
  return best >= 0 ? best : last;
}

void corners_count(run_corner* c, int n, double s, double lean, double seated, double speed) {
  int i = corners_at(c, n, s);
  if (i < 0) return;
  c[i].lean = fmax(c[i].lean, fabs(lean));
  if (fabs(seated) > c[i].seated) {
    c[i].seated = fabs(seated);
    c[i].speed = speed;
  }
}

void corners_folds(run_corner* c, int n, vehicle* v) {
  for (int i = 0; i < n; i++)
    if (c[i].speed > 0) c[i].fold = trim_lean_fold(v, c[i].speed, &c[i].fold_roll);
}
