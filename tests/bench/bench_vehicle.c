/* bench_vehicle.c — simulated seconds per wall second for sport1000, and the bare MuJoCo step
 * rate of the same compiled model from the same state (no callback), as a ratio: our overhead. */
#include <stdio.h>
#include <stdlib.h>

#include "sim/vehicle_mj.h"
#include "tests/bench/bench.h"
#include "tests/bench/bench_flat.h"

/* Interleaved in blocks of 2000 steps, as `mt_bench speed` and `vstep` time it (one after the
 * other, this line once read 1.29x where the interleaved one read 1.23x in the same make bench):
 * each block of the vehicle, then the bare step from the vehicle's state at that moment. */
MT_BENCH(vehicle_straight) {
  mt_err e = {0};
  rig* r = NULL;
  bench_rider br;
  vehicle* v = bench_flat_vehicle(&r, &br, "vehicle bench");
  if (!v) return;
  enum { NB = 20, BS = 2000 };
  mjData* d2 = mj_makeData(v->m);
  double tv = 0, tb = 0, ratio[NB];
  int nb = 0;
  for (int k = 0; k < NB; k++) {
    double t0 = bench_cpu();
    int ok = 1;
    for (int i = 0; i < BS && ok; i++) ok = veh_step(v, &e) == 0;
    double a = bench_cpu() - t0;
    if (!ok) {
      printf("vehicle bench: %s\n", e.msg);
      break;
    }
    double b = bench_bare_block(v, d2, BS);
    tv += a;
    tb += b;
    if (b > 0) ratio[nb++] = a / b;
  }
  mj_deleteData(d2);
  if (nb > 0) {
    qsort(ratio, (size_t)nb, sizeof ratio[0], bench_cmp_double);
    double n = (double)nb * BS, sim = n * r->timestep;
    printf("sport1000 straight %.0f Hz: %.0f steps/s CPU, %.0fx real time (bare MuJoCo step %.0f steps/s; ours costs "
           "%.2fx, the median of %d interleaved blocks' ratios)\n",
           1 / r->timestep, n / tv, sim / tv, n / tb, ratio[nb / 2], nb);
  }
  veh_free(v);
  rig_free(r);
}
