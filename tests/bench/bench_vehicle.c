/* bench_vehicle.c — simulated seconds per wall second for sport1000, and the bare MuJoCo step
 * rate of the same compiled model (no callback), as a ratio: our overhead. */
#include <stdio.h>

#include "tests/bench/bench.h"
#include "tests/bench/bench_flat.h"

MT_BENCH(vehicle_straight) {
  mt_err e = {0};
  rig* r = NULL;
  bench_rider br;
  vehicle* v = bench_flat_vehicle(&r, &br, "vehicle bench");
  if (!v) return;
  int n = 20000;
  double t0 = bench_now();
  for (int i = 0; i < n; i++)
    if (veh_step(v, &e)) break;
  double dt = bench_now() - t0;
  double sim = n * r->timestep;
  /* bare MuJoCo: the same model and state, no callback */
  mjcb_control = NULL;
  mjcb_act_dyn = NULL;
  mjData* d2 = mj_makeData(v->m);
  mj_resetData(v->m, d2);
  double t1 = bench_now();
  for (int i = 0; i < n; i++) mj_step(v->m, d2);
  double dt2 = bench_now() - t1;
  mj_deleteData(d2);
  printf("sport1000 straight %.0f Hz: %.0f steps/s, %.0fx real time (bare MuJoCo step %.0f steps/s; ours costs %.2fx)\n",
         1 / r->timestep, n / dt, sim / dt, n / dt2, dt / dt2);
  veh_free(v);
  rig_free(r);
}
