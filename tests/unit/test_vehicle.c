/* test_vehicle.c — the multibody motorcycle: conservation, statics, determinism, failure. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/vehicle_mj.h"
#include "sim/trim.h"
#include "tests/unit/test.h"

static void cross(const double a[3], const double b[3], double o[3]) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}

MT_TEST(vehicle_energy_conserved_with_ideal_supports) {
  /* Tyres replaced by frictionless vertical springs, every damper off: only gravity and springs
   * act, so kinetic + potential energy must stay constant (symplectic Euler keeps the error
   * bounded, it does not drift). Dropped from 1 cm above equilibrium while rolling at 5 m/s. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, VEH_IDEAL_SUPPORTS | VEH_NO_DISSIPATION, &e);
  CHECK_MSG(v, "%s", e.msg);
  v->in.gear = 0;
  veh_place(v, 0, 0, 0.01, 0, 0, 5);
  double E0 = veh_energy(v), emax = 0;
  for (int i = 0; i < 10000; i++) {
    CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
    if (i % 10 == 0) {
      double dE = fabs(veh_energy(v) - E0);
      if (dE > emax) emax = dE;
    }
  }
  double zf = v->d->xpos[3 * v->bid[0] + 2];
  veh_free(v);
  rig_free(r);
  CHECK_MSG(emax / E0 < 1e-3, "energy drift %.3g J of %.1f J (%.4f %%)", emax, E0, 100 * emax / E0);
  CHECK(zf > 0.3 && zf < 0.8);   /* it bounced on its suspension, it did not fall through */
}

MT_TEST(vehicle_static_load_split_matches_cg) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  CHECK(v);
  trim_spec s = {0};
  s.fix_roll = 1;
  s.gear = 0;
  trim_result t;
  CHECK_MSG(trim_solve(v, &s, &t, &e) == MT_OK, "%s", e.msg);
  double W = rig_total_mass(r, NULL) * MT_G;
  CHECK_REL(t.fz_front + t.fz_rear, W, 1e-5);
  /* moment balance about the rear contact, with the centre of gravity of the trimmed pose */
  const double* cg = v->d->subtree_com + 3 * v->bid[0];
  double xr = v->out.wheel[RIG_REAR].point[0], xf = v->out.wheel[RIG_FRONT].point[0];
  double front_expected = W * (cg[0] - xr) / (xf - xr);
  CHECK_REL(t.fz_front, front_expected, 2e-3);
  CHECK(t.fz_front > 0.4 * W && t.fz_front < 0.55 * W);   /* a sports bike with rider: ~46–50 % front */
  veh_free(v);
  rig_free(r);
}

MT_TEST(vehicle_sag_matches_springs_through_linkage) {
  /* Static balance of the swingarm + rear wheel about the pivot must equal the shock force
   * (from its spring law at the trimmed compression) times the linkage's dL/dθ; and the fork's
   * spring force must balance the front wheel's load along the slide axis. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  CHECK(v);
  trim_spec s = {0};
  s.fix_roll = 1;
  s.gear = 0;
  trim_result t;
  CHECK(trim_solve(v, &s, &t, &e) == MT_OK);
  mjData* d = v->d;
  /* rear: moments about the swingarm pivot axis (world), of tyre force and weights */
  int js = r->j_swingarm;
  int body_sw = v->bid[r->b_swingarm], body_rw = v->bid[r->wheel[RIG_REAR].body];
  const double* piv = d->xanchor + 3 * v->m->jnt_bodyid[0] * 0;   /* placeholder, replaced below */
  (void)piv;
  int jid = mj_name2id(v->m, mjOBJ_JOINT, "swingarm");
  const double* P = d->xanchor + 3 * jid;
  const double* ax = d->xaxis + 3 * jid;
  double M = 0, arm[3], mom[3];
  const veh_wheel_out* wr = &v->out.wheel[RIG_REAR];
  for (int i = 0; i < 3; i++) arm[i] = wr->point[i] - P[i];
  cross(arm, wr->force, mom);
  M += mom[0] * ax[0] + mom[1] * ax[1] + mom[2] * ax[2];
  int bodies[2] = {body_sw, body_rw};
  for (int k = 0; k < 2; k++) {
    double g[3] = {0, 0, -v->m->body_mass[bodies[k]] * MT_G};
    for (int i = 0; i < 3; i++) arm[i] = d->xipos[3 * bodies[k] + i] - P[i];
    cross(arm, g, mom);
    M += mom[0] * ax[0] + mom[1] * ax[1] + mom[2] * ax[2];
  }
  rig_link_pose lp;
  CHECK(rig_linkage_solve(r, veh_q(v, js), &lp) == 0);
  double x = r->linkage.shock_length0 - lp.shock_length;
  double Fs = rig_sd_spring(&r->linkage.shock, x);
  /* the shock's generalized force Fs·dL/dθ balances the external moment M */
  CHECK_NEAR(Fs * lp.dlength_dtheta + M, 0, 1e-3 * fabs(M));
  CHECK(x > r->linkage.shock.x_min);   /* sagged into its travel: compressed from full extension */
  /* front: forces along the fork's slide axis on lower fork + wheel */
  int jf = mj_name2id(v->m, mjOBJ_JOINT, "fork");
  const double* fa = d->xaxis + 3 * jf;
  const veh_wheel_out* wf = &v->out.wheel[RIG_FRONT];
  double Fa = wf->force[0] * fa[0] + wf->force[1] * fa[1] + wf->force[2] * fa[2];
  /* every body carried by the fork's slide: the sliders and all that hangs from them */
  for (int b = 0; b < r->nbody; b++) {
    int a = b;
    while (a >= 0 && a != r->b_fork) a = r->body[a].parent;
    if (a == r->b_fork) Fa += -v->m->body_mass[v->bid[b]] * MT_G * fa[2];
  }
  const rig_joint* fj = &r->joint[r->j_fork];
  double Fspring = rig_sd_spring(&fj->sd, veh_q(v, r->j_fork));
  CHECK_NEAR(Fa, Fspring, 1e-3 * Fspring);
  veh_free(v);
  rig_free(r);
}

static int run_once(double* out, int n) {
  rig* r = mt_test_load_sport();
  if (!r) return -1;
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  trim_spec s = {0};
  s.speed = 20;
  s.fix_roll = 1;
  s.gear = -1;
  trim_result t;
  if (trim_solve(v, &s, &t, &e)) return -1;
  for (int i = 0; i < 2000; i++) {
    v->in.steer_torque = 5 * sin(i * 0.003);
    v->in.throttle = 0.2 + 0.1 * sin(i * 0.001);
    if (veh_step(v, &e)) return -1;
  }
  if (veh_state_size(v) > n) return -1;
  veh_get_state(v, out);
  int k = veh_state_size(v);
  veh_free(v);
  rig_free(r);
  return k;
}

MT_TEST(vehicle_two_runs_bit_identical) {
  double a[128], b[128];
  int na = run_once(a, 128), nb = run_once(b, 128);
  CHECK(na > 0 && na == nb);
  CHECK(memcmp(a, b, sizeof(double) * na) == 0);
}

MT_TEST(vehicle_nan_stops_with_named_quantity) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  veh_place(v, 0, 0, 0, 0, 0, 10);
  v->in.steer_torque = NAN;   /* a bad input poisons the accelerations */
  int rc = MT_OK;
  for (int i = 0; i < 10 && rc == MT_OK; i++) rc = veh_step(v, &e);
  veh_free(v);
  rig_free(r);
  CHECK(rc == MT_EINTERNAL);
  CHECK_MSG(strstr(e.msg, "t = ") && (strstr(e.msg, "joint '") || strstr(e.msg, "bad acceleration")), "%s", e.msg);
}
