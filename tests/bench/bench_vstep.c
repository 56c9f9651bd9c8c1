/* bench_vstep.c — `bin/mt_bench vstep` (issue 18, the vehicle step): the vehicle step through
 * mj_step1/mj_step2 and through the staged step (sim/vstep.h), and the bare mj_step of the same
 * model, interleaved in blocks so that all three see the same spells of the shared machine's load.
 * The vehicle is `bin/mt_bench speed`'s: sport1000 trimmed at 30 m/s on a flat road with the bench
 * rider; the bare step starts each block from the staged vehicle's state, without callbacks, as
 * in `mt_bench speed`. CPU time of the thread; MT_BENCH_VSTEP_BLOCKS blocks (default 200) of 2000
 * steps each; medians (and minima) of the blocks. Printed, never asserted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/luabox.h"
#include "sim/rider.h"
#include "sim/trim.h"
#include "sim/vehicle.h"
#include "sim/vstep.h"
#include "tests/bench/bench.h"
#include "tests/bench/bench_flat.h"

typedef struct vs_rider { rider_params rp; rider_state rs; } vs_rider;

static void vs_ride(vehicle* v, void* data) {
  vs_rider* c = data;
  rider_target t = {0};
  t.speed = 30;
  t.roll_mode = 1;
  t.auto_gear = 1;
  rider_control(&c->rp, &c->rs, v, &t, v->rig->timestep);
}

static double vs_cpu(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int vs_cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static vehicle* vs_make(const rig* r, int staged, vs_rider* c, mt_err* e) {
  int was = vstep_enabled;
  vstep_enabled = staged;
  vehicle* v = veh_new(r, (road){0}, 0, e);
  vstep_enabled = was;
  if (!v) return NULL;
  trim_spec s = {0};
  s.speed = 30;
  s.fix_roll = 1;
  s.gear = -1;
  trim_result tr;
  if (trim_solve(v, &s, &tr, e)) {
    veh_free(v);
    return NULL;
  }
  rider_default_params(&c->rp);
  memset(&c->rs, 0, sizeof c->rs);
  v->control = vs_ride;
  v->control_data = c;
  return v;
}

MT_BENCH(vstep) {
  const char* env = getenv("MT_BENCH_VSTEP_BLOCKS");
  int R = env ? atoi(env) : 200;
  if (R < 3 || R > 100000) R = 200;
  const int B = 2000;
  char path[4096];
  snprintf(path, sizeof path, "%s/rigs/sport1000.lua", luabox_project_root());
  mt_err e = {0};
  rig* r = rig_load(path, NULL, 0, &e);
  vs_rider c0, c1;
  vehicle *v0 = r ? vs_make(r, 0, &c0, &e) : NULL, *v1 = v0 ? vs_make(r, 1, &c1, &e) : NULL;
  if (!v1) {
    printf("vstep bench: %s\n", e.msg);
    return;
  }
  double* t = malloc(sizeof(double) * 5 * (size_t)R);
  double *t0 = t, *t1 = t + R, *tb = t + 2 * R, *q0 = t + 3 * R, *q1 = t + 4 * R;
  mjData* d2 = mj_makeData(v1->m);
  for (int k = 0; k < R; k++) {
    double a = vs_cpu();
    for (int i = 0; i < B; i++) veh_step(v0, &e);
    t0[k] = (vs_cpu() - a) / B;
    a = vs_cpu();
    for (int i = 0; i < B; i++) veh_step(v1, &e);
    t1[k] = (vs_cpu() - a) / B;
    tb[k] = bench_bare_block(v1, d2, B) / B;
    q0[k] = t0[k] / tb[k];
    q1[k] = t1[k] / tb[k];
  }
  /* The ratio depends on the machine's state: on the 2-core VM of 2026-11-28 the bare step ran at
   * 3.5-3.9 us in some blocks and 5.2-5.6 us in most, and the staged step's ratio was 1.29x in
   * the fast blocks against 1.24x in the slow ones (docs/speed.md). So it is also given over the
   * fifth of the blocks where the bare step ran fastest, with their bare times, so that a run
   * shows whether it saw the fast state. Pairs (bare time, staged ratio). */
  double* fq = malloc(sizeof(double) * 2 * (size_t)R);
  for (int k = 0; k < R; k++) {
    fq[2 * k] = tb[k];
    fq[2 * k + 1] = q1[k];
  }
  qsort(fq, R, 2 * sizeof(double), vs_cmp);   /* by the bare step's time (the pair's first member) */
  int nf = R / 5 > 0 ? R / 5 : 1;
  double* qf = malloc(sizeof(double) * (size_t)nf);
  for (int k = 0; k < nf; k++) qf[k] = fq[2 * k + 1];
  qsort(qf, nf, sizeof(double), vs_cmp);
  double q_fast = qf[nf / 2], tb_lo = fq[0], tb_hi = fq[2 * (nf - 1)];
  free(qf);
  free(fq);
  for (int s = 0; s < 5; s++) qsort(t + s * R, R, sizeof(double), vs_cmp);
  printf("vstep: %d blocks of %d steps, interleaved; us per step, median (min): vehicle step through mj_step1/mj_step2 %.3f (%.3f), "
         "staged %.3f (%.3f); bare mj_step %.3f (%.3f)\n",
         R, B, 1e6 * t0[R / 2], 1e6 * t0[0], 1e6 * t1[R / 2], 1e6 * t1[0], 1e6 * tb[R / 2], 1e6 * tb[0]);
  printf("vstep: against the bare step (median of the blocks' ratios): mj_step1/mj_step2 %.3fx, staged %.3fx (aim <= 1.3x); "
         "staged / mj_step1/mj_step2 %.3f (medians)\n",
         q0[R / 2], q1[R / 2], t1[R / 2] / t0[R / 2]);
  printf("vstep: staged against the bare step in the fifth of the blocks where the bare step ran fastest (%d blocks, the "
         "bare step %.3f-%.3f us a step there): %.3fx (median)\n",
         nf, 1e6 * tb_lo, 1e6 * tb_hi, q_fast);
  mj_deleteData(d2);
  free(t);
  veh_free(v0);
  veh_free(v1);
  rig_free(r);
}
