/* bench_flat.c — the benches' reference machine (bench_flat.h). */
#include "tests/bench/bench.h"
#include "tests/bench/bench_flat.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/luabox.h"
#include "sim/trim.h"

static void bench_ride(vehicle* v, void* data) {
  bench_rider* br = data;
  rider_target t = {0};
  t.speed = 30;
  t.roll_mode = 1;
  t.auto_gear = 1;
  rider_control(&br->p, &br->s, v, &t, v->rig->timestep);
}

vehicle* bench_flat_vehicle(rig** rp, bench_rider* br, const char* who) {
  char path[4096];
  snprintf(path, sizeof path, "%s/rigs/sport1000.lua", luabox_project_root());
  mt_err e = {0};
  rig* r = rig_load(path, NULL, 0, &e);
  if (!r) {
    printf("%s: %s\n", who, e.msg);
    return NULL;
  }
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  trim_spec s = {0};
  s.speed = 30;
  s.fix_roll = 1;
  s.gear = -1;
  trim_result tr;
  trim_solve(v, &s, &tr, &e);
  rider_default_params(&br->p);
  memset(&br->s, 0, sizeof br->s);
  v->control = bench_ride;
  v->control_data = br;
  *rp = r;
  return v;
}


double bench_bare_block(const vehicle* v, mjData* d, int n) {
  mjfGeneric cb = mjcb_control;
  mjfAct ad = mjcb_act_dyn;
  mjcb_control = NULL;
  mjcb_act_dyn = NULL;
  mj_resetData(v->m, d);
  memcpy(d->qpos, v->d->qpos, sizeof(double) * v->m->nq);
  memcpy(d->qvel, v->d->qvel, sizeof(double) * v->m->nv);
  double t0 = bench_cpu();
  for (int i = 0; i < n; i++) mj_step(v->m, d);
  double spent = bench_cpu() - t0;
  mjcb_control = cb;
  mjcb_act_dyn = ad;
  return spent;
}
