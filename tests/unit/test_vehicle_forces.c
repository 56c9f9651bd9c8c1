/* test_vehicle_forces.c — the vehicle's Cartesian forces become generalized forces correctly:
 * vehicle.c sums them per body (v->ext, at each centre of mass) and maps them onto the dofs in
 * one pass over the tree (ext_to_qfrc), instead of one mj_applyFT per force. The frame's free
 * joint carries only Cartesian forces (tyres, chain, aero), so its six generalized forces must
 * equal MuJoCo's own mj_applyFT of the same per-body wrenches. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/vehicle_mj.h"
#include "sim/trim.h"
#include "tests/unit/test.h"

MT_TEST(vehicle_generalized_forces_match_mj_applyft) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  CHECK_MSG(v, "%s", e.msg);
  /* a leaned, driven, braked machine: tyre forces with slip and camber, chain pull, aero */
  trim_spec s = {0};
  s.speed = 30;
  s.fix_roll = 1;
  s.gear = -1;
  trim_result t;
  CHECK_MSG(trim_solve(v, &s, &t, &e) == MT_OK, "%s", e.msg);
  v->in.throttle = 0.6;
  v->in.front_brake = 0.2;
  double worst = 0, scale = 0;
  for (int step = 0; step < 200; step++) {
    CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
    if (step % 50) continue;
    veh_forward(v);
    const mjModel* m = v->m;
    mjData* d = v->d;
    double q[64] = {0};
    CHECK(m->nv <= 64);
    for (int b = 1; b < m->nbody && b < VEH_MAX_MJBODY; b++)
      mj_applyFT(m, d, v->ext[b], v->ext[b] + 3, d->xipos + 3 * b, b, q);
    int fd = v->dadr[r->body[0].joint0];
    for (int i = 0; i < 6; i++) {
      worst = fmax(worst, fabs(d->qfrc_applied[fd + i] - q[fd + i]));
      scale = fmax(scale, fabs(q[fd + i]));
    }
  }
  printf("    free joint: largest difference %.3g against largest generalized force %.1f\n", worst, scale);
  CHECK(scale > 1000);   /* the tyres carry the weight: the comparison is not of zeros */
  CHECK(worst < 1e-9 * scale);
  veh_free(v);
  rig_free(r);
}
