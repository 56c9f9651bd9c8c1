/* practice.c — the racer's practice (see practice.h). */
#include "takes/practice.h"

#include <math.h>
#include <string.h>

#include "base/mt.h"

void practice_init(practice* p, int n) {
  memset(p, 0, sizeof *p);
  p->n = n < 0 ? 0 : n > CORNERS_MAX ? CORNERS_MAX : n;
  for (int i = 0; i < CORNERS_MAX; i++) p->slope[i] = PRACTICE_SLOPE;
  p->trying = -1;
}

double practice_shortfall(const run_corner* c) { return c->fold ? (c->seated - c->fold_roll) * 180 / MT_PI : 0; }

/* Whether corner i of the last lap that lapped asks for a change, and how far from the aim it is. */
static int wants(const practice* p, int i, double* dist) {
  const run_corner* c = &p->last[i];
  if (p->done[i] || !c->fold || !(c->speed >= PRACTICE_FAST) || !(c->plan_over >= 1)) return 0;
  double d = practice_shortfall(c);
  if (!((d < -PRACTICE_SHORT && p->speed[i] < PRACTICE_SPEED_MAX) || (d > PRACTICE_OVER && p->speed[i] > 0))) return 0;
  *dist = fabs(PRACTICE_AIM - d);
  return 1;
}

/* The lap that lapped: its speeds are kept, and the changed corner's slope measured. */
static void keep(practice* p, const run_corner* c) {
  int i = p->trying;
  if (i >= 0 && p->has_last && p->next[i] != p->speed[i]) {
    double s = (practice_shortfall(&c[i]) - practice_shortfall(&p->last[i])) / (p->next[i] - p->speed[i]);
    if (s > 0) p->slope[i] = mt_clamp(s, 0.15, 2.0);   /* a lap leaning less for more speed keeps the last */
    if (p->next[i] >= PRACTICE_DEAF_SPAN && (practice_shortfall(&c[i]) - p->base[i]) / p->next[i] < PRACTICE_SLOPE_MIN)
      p->done[i] = 1;   /* it does not answer */
  }
  if (!p->has_last)
    for (int k = 0; k < p->n; k++) p->base[k] = practice_shortfall(&c[k]);
  memcpy(p->speed, p->next, sizeof p->speed);
  memcpy(p->last, c, (size_t)p->n * sizeof *c);
  p->has_last = 1;
  p->lapped++;
}

int practice_after(practice* p, int lapped, const run_corner* c, int n) {
  if (p->laps < PRACTICE_MAX_LAPS) {
    int i = p->trying;
    p->log[p->laps] = (practice_try){i, i >= 0 ? p->next[i] : 0, lapped && n == p->n, lapped && n == p->n && i >= 0 ? practice_shortfall(&c[i]) : 0};
  }
  p->laps++;
  if (lapped && n == p->n) keep(p, c);
  else if (p->trying >= 0 && ++p->fails[p->trying] >= PRACTICE_FAILS) p->done[p->trying] = 1;
  memcpy(p->next, p->speed, sizeof p->next);
  p->trying = -1;
  if (!p->has_last) return 0;   /* the plan's own lap did not lap: nothing to learn from */
  int best = -1;
  double far = 0, d;
  for (int i = 0; i < p->n; i++)
    if (wants(p, i, &d) && d > far) far = d, best = i;
  if (best < 0) return 0;
  double step = (PRACTICE_AIM - practice_shortfall(&p->last[best])) / p->slope[best];
  step = copysign(mt_clamp(fabs(step), PRACTICE_STEP_MIN, PRACTICE_STEP_MAX), step);
  if (step > 0) step += PRACTICE_RETRY * p->fails[best];
  p->next[best] = mt_clamp(p->speed[best] + step, 0, PRACTICE_SPEED_MAX);
  p->trying = best;
  return 1;
}
