/* bench_vehicle.c — simulated seconds per wall second for sport1000, and the bare MuJoCo step
 * rate of the same compiled model (no callback), as a ratio: our overhead. */
#include <stdio.h>

#include "sim/luabox.h"
#include "sim/rider.h"
#include "sim/trim.h"
#include "tests/bench/bench.h"

static void ride(vehicle* v, void* data) {
  rider_params* p = data;
  static rider_state s;
  rider_target t = {0};
  t.speed = 30;
  t.roll_mode = 1;
  t.auto_gear = 1;
  rider_control(p, &s, v, &t, v->rig->timestep);
}

MT_BENCH(vehicle_straight) {
  char path[4096];
  snprintf(path, sizeof path, "%s/rigs/sport1000.lua", luabox_project_root());
  mt_err e = {0};
  rig* r = rig_load(path, NULL, 0, &e);
  if (!r) {
    printf("vehicle bench: %s\n", e.msg);
    return;
  }
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  trim_spec s = {0};
  s.speed = 30;
  s.fix_roll = 1;
  s.gear = -1;
  trim_result tr;
  trim_solve(v, &s, &tr, &e);
  rider_params p;
  rider_default_params(&p);
  v->control = ride;
  v->control_data = &p;
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
