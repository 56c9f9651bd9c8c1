/* test_fidelity.c — model fidelity (issue 10): every parameter settable, the cambered lateral
 * relaxation length, rolling resistance on the loaded radius, channels, closed throttle. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/vehicle_mj.h"
#include "sim/rig.h"
#include "sim/trim.h"
#include "takes/recorder.h"
#include "sim/linear.h"
#include "tests/unit/test.h"

static void sport_path(char* p, size_t n) { snprintf(p, n, "%s/rigs/sport1000.lua", mt_test_root()); }

/* Every parameter `rig info --params` lists can be --set (to its own value: the rig loads), and
 * those that come only from a preset or a default take effect when changed. */
MT_TEST(fid_every_listed_parameter_is_settable) {
  char path[4096];
  sport_path(path, sizeof path);
  mt_err e = {0};
  rig_params ps;
  rig* r = rig_load_params(path, NULL, 0, &ps, &e);
  CHECK_MSG(r, "%s", e.msg);
  CHECK(ps.n > 400);
  int unknown_units = 0;
  for (int i = 0; i < ps.n; i++) {
    unknown_units += strcmp(ps.p[i].unit, "?") == 0;
    char kv[200];
    snprintf(kv, sizeof kv, "%s=%.17g", ps.p[i].key, ps.p[i].value);
    const char* sets[1] = {kv};
    mt_err e2 = {0};
    rig* r2 = rig_load(path, sets, 1, &e2);
    CHECK_MSG(r2, "--set %s: %s", kv, e2.msg);
    rig_free(r2);
  }
  CHECK_MSG(unknown_units == 0, "%d parameters without a unit", unknown_units);
  rig_params_free(&ps);
  rig_free(r);
  /* preset-only and default-only values change the model */
  const char* sets[] = {"wheels.front.tyre.lambda_mzr=1", "wheels.rear.tyre.pDy1=1.1", "wheels.front.tyre.rolling=0.02",
                        "engine.gas_constant=290", "drivetrain.clutch.slip_speed=25"};
  r = rig_load(path, sets, 5, &e);
  CHECK_MSG(r, "%s", e.msg);
  CHECK(r->wheel[RIG_FRONT].tyre.lambda_mzr == 1);
  CHECK(r->wheel[RIG_REAR].tyre.pDy1 == 1.1);
  CHECK(r->wheel[RIG_FRONT].tyre.pDy1 == 1.3);   /* the other tyre keeps its preset */
  CHECK(r->wheel[RIG_FRONT].tyre.rolling == 0.02);
  CHECK(r->engine.gas_constant == 290);
  CHECK(r->drive.clutch_slip == 25);
  rig_free(r);
  /* a set that is still unknown after the presets is one error naming the key */
  const char* badset[] = {"wheels.front.tyre.lambda_mz=1"};
  CHECK(!rig_load(path, badset, 1, &e));
  CHECK(strstr(e.msg, "no such numeric parameter") && strstr(e.msg, "lambda_mzr"));
}

/*---- 2. lateral relaxation length with the cambered cornering stiffness ----*/

static int load_tyre(const char* wheel, tyre_params* p) {
  char path[4096];
  snprintf(path, sizeof path, "%s/rigs/tyres_sport.lua", mt_test_root());
  mt_err e = {0};
  return tyre_load_file(path, wheel, p, &e);
}

MT_TEST(fid_sigma_y_uses_cambered_cornering_stiffness) {
  /* Reference values: σy = Kyα(Fz, γ)·(c1 + c2·V + c3·V²) evaluated by tests/ref/sigma_y.py
   * straight from magic_formula_params.json (front: Fz 1100 N, V 30 m/s; rear: Fz 1600 N, V 50 m/s). */
  static const struct { const char* w; double fz, v, g, sy; } P[] = {
#include "tests/ref/sigma_y.inc"
  };
  for (size_t i = 0; i < sizeof P / sizeof P[0]; i++) {
    tyre_params p;
    CHECK(load_tyre(P[i].w, &p) == 0);
    double sy = tyre_sigma_y(&p, P[i].fz, P[i].g, P[i].v);
    CHECK_MSG(fabs(sy - P[i].sy) <= 1e-12 * P[i].sy, "%s Fz %g V %g γ %g: σy %.15g, reference %.15g", P[i].w, P[i].fz,
              P[i].v, P[i].g, sy, P[i].sy);
    /* and the relaxation the vehicle integrates uses it: σy·d(tan α')/dt = −Vsy − |Vx|·tan α' */
    tyre_contact_t c = {0};
    c.vx = P[i].v;
    c.vsy = -0.05 * P[i].v;
    c.camber = P[i].g;
    double dk, dta;
    tyre_relax_rates(&p, P[i].fz, &c, 0, 0.01, &dk, &dta);
    CHECK_NEAR(dta, (0.05 * P[i].v - P[i].v * 0.01) / P[i].sy, 1e-9 * fabs(dta));
  }
}

/*---- 3. rolling resistance on the loaded radius ----*/

MT_TEST(fid_rolling_resistance_retards_by_rolling_times_weight) {
  /* Coasting straight in neutral with every damper, the engine and aero off: the only losses
   * are rolling resistance (and a negligible slip loss), so the energy the machine loses per
   * metre is the rolling-resistance force, which must be 0.015·W (36.9 N for 250.65 kg). */
  char path[4096];
  sport_path(path, sizeof path);
  mt_err e = {0};
  rig* r = rig_load(path, NULL, 0, &e);
  CHECK_MSG(r, "%s", e.msg);
  /* the straight-running steady state at 15 m/s, then the same state with every loss but the tyres' off */
  vehicle* v0 = veh_new(r, (road){0}, 0, &e);
  CHECK_MSG(v0, "%s", e.msg);
  trim_spec s = {0};
  s.speed = 15;
  s.fix_roll = 1;
  s.gear = -1;
  trim_result t;
  CHECK_MSG(trim_solve(v0, &s, &t, &e) == MT_OK, "%s", e.msg);
  double x[256];
  CHECK(veh_state_size(v0) <= 256);
  veh_get_state(v0, x);
  veh_free(v0);
  vehicle* v = veh_new(r, (road){0}, VEH_NO_DISSIPATION, &e);
  CHECK_MSG(v, "%s", e.msg);
  veh_set_state(v, x);
  v->in.gear = 0;
  v->in.clutch = 0;
  double E0 = veh_energy(v), dist = 0;
  for (int i = 0; i < 1000; i++) {
    CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
    dist += veh_speed(v) * r->timestep;
  }
  double F = (E0 - veh_energy(v)) / dist;
  double W = rig_total_mass(r, NULL) * MT_G;
  printf("    rolling-resistance force %.3f N, 0.015·W %.3f N\n", F, r->wheel[0].tyre.rolling * W);
  CHECK_REL(F, r->wheel[0].tyre.rolling * W, 0.01);
  veh_free(v);
  rig_free(r);
}

/*---- 7. channels ----*/

static double chan(const double* o, const char* name) {
  int i = rec_chan_index(name);
  return i >= 0 ? o[i] : NAN;
}

MT_TEST(fid_channels_speed_com_acceleration_body_axes) {
  char path[4096];
  sport_path(path, sizeof path);
  mt_err e = {0};
  rig* r = rig_load(path, NULL, 0, &e);
  CHECK_MSG(r, "%s", e.msg);
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  CHECK_MSG(v, "%s", e.msg);
  double o[512];
  CHECK(rec_nchan() <= 512);
  rec_context ctx = {0};
  /* running backwards (a spin): ground speed positive, forward speed negative */
  veh_place(v, 0, 0, 0, 0, 0, -5);
  veh_forward(v);
  rec_sample(v, &ctx, o);
  CHECK_NEAR(chan(o, "speed"), 5, 1e-9);
  CHECK_NEAR(chan(o, "forward_speed"), -5, 1e-9);
  /* a steady 30° turn at 30 m/s: the centre of mass accelerates by ω·V toward the centre, and
   * not at all along or across the road's normal */
  trim_spec s = {0};
  s.speed = 30;
  s.fix_roll = 1;
  s.roll = 30 * MT_PI / 180;
  s.gear = -1;
  trim_result t;
  CHECK_MSG(trim_solve(v, &s, &t, &e) == MT_OK, "%s", e.msg);
  veh_forward(v);
  rec_sample(v, &ctx, o);
  double ay = t.yaw_rate * chan(o, "forward_speed");
  printf("    steady turn: com_ay %.4f (ω·V %.4f), com_ax %.2e, com_az %.2e m/s²\n", chan(o, "com_ay"), ay,
         chan(o, "com_ax"), chan(o, "com_az"));
  CHECK_REL(chan(o, "com_ay"), ay, 0.01);
  /* exactly: every point of the machine circles the same centre at the yaw rate ω, so the
   * centre of mass accelerates by −ω²·(c − centre); the centre from the frame's velocity */
  {
    const mjData* d = v->d;
    int fb = v->bid[r->b_frame], fd = v->dadr[r->body[0].joint0];
    double w = t.yaw_rate, vx = d->qvel[fd], vy = d->qvel[fd + 1];
    const double* pf = d->xpos + 3 * fb;   /* the free joint's velocity is that of the body origin */
    double cx = pf[0] - vy / w, cy = pf[1] + vx / w;
    const double* pc = d->subtree_com + 3 * fb;
    double axw = -w * w * (pc[0] - cx), ayw = -w * w * (pc[1] - cy);
    double yaw = atan2(d->xmat[9 * fb + 3], d->xmat[9 * fb]);
    double ex = axw * cos(yaw) + ayw * sin(yaw), ey = -axw * sin(yaw) + ayw * cos(yaw);
    printf("    kinematic centre-of-mass acceleration: ax %.5f, ay %.5f\n", ex, ey);
    CHECK_NEAR(chan(o, "com_ax"), ex, 2e-3);
    CHECK_NEAR(chan(o, "com_ay"), ey, 2e-3);
  }
  CHECK(fabs(chan(o, "com_az")) < 0.01);
  /* reactions: the same vectors in another basis; the rear axle's load lies near the wheel
   * plane in a steady turn (small across the swingarm), not near the world's vertical */
  const char* ax[] = {"fx", "fy", "fz"};
  const char* jn[] = {"steer_joint", "swingarm_joint", "front_axle", "rear_axle", "rider_joint"};
  for (int q = 0; q < 5; q++) {
    double nw = 0, nb = 0;
    for (int i = 0; i < 3; i++) {
      char a[64], b[64];
      snprintf(a, sizeof a, "%s_%s", jn[q], ax[i]);
      snprintf(b, sizeof b, "%s_body_%s", jn[q], ax[i]);
      nw += chan(o, a) * chan(o, a);
      nb += chan(o, b) * chan(o, b);
    }
    CHECK_REL(sqrt(nb), sqrt(nw), 1e-9);
  }
  printf("    rear axle: world fy/fz %.3f, swingarm axes fy/fz %.3f\n", chan(o, "rear_axle_fy") / chan(o, "rear_axle_fz"),
         chan(o, "rear_axle_body_fy") / chan(o, "rear_axle_body_fz"));
  CHECK(fabs(chan(o, "rear_axle_fy")) > 0.3 * fabs(chan(o, "rear_axle_fz")));
  CHECK(fabs(chan(o, "rear_axle_body_fy")) < 0.1 * fabs(chan(o, "rear_axle_body_fz")));
  veh_free(v);
  rig_free(r);
}

/*---- 4. closed throttle ----*/

MT_TEST(fid_closed_throttle_overrun_is_plausible) {
  char path[4096];
  sport_path(path, sizeof path);
  mt_err e = {0};
  rig* r = rig_load(path, NULL, 0, &e);
  CHECK_MSG(r, "%s", e.msg);
  const engine_params* p = &r->engine;
  engine_out o;
  /* On overrun (throttle shut, 3000–12 000 rpm): a manifold pressure of 15–25 kPa, as real
   * overrun vacuum (docs/engine.md), no fuel, and engine braking of 2–3 bar total mean effective
   * pressure at 9500 rpm (16–24 N·m for 999 cm³). */
  for (double rpm = 3000; rpm <= 12000; rpm += 500) {
    engine_eval(p, rpm * MT_PI / 30, 0, &o);
    CHECK_MSG(o.pm >= 15e3 && o.pm <= 25e3, "%.0f rpm: pm %.0f Pa", rpm, o.pm);
    CHECK_MSG(o.mdot_fuel == 0 && o.torque_indicated == 0, "%.0f rpm: fuel %g kg/s", rpm, o.mdot_fuel);
    CHECK_MSG(o.torque_brake < 0, "%.0f rpm: torque %g", rpm, o.torque_brake);
    /* the flows balance: the implied open area passes what the cylinders take */
    CHECK_REL(o.mdot_throttle, engine_cylinder_flow(p, o.omega, o.pm), 1e-12);
  }
  engine_eval(p, 9500 * MT_PI / 30, 0, &o);
  printf("    9500 rpm shut: pm %.2f kPa, brake torque %.2f N·m (%.2f bar)\n", o.pm / 1e3, o.torque_brake,
         -o.torque_brake * 4 * MT_PI / p->displacement / 1e5);
  CHECK(o.torque_brake < -16 && o.torque_brake > -24);
  /* idle untouched: the governor still balances the free engine at 1200 rpm */
  engine_eval(p, 1200 * MT_PI / 30, 0, &o);
  CHECK(o.overrun == 0);
  CHECK_NEAR(o.torque_brake, 0, 1e-6);
  /* continuous through the fade (1650–2200 rpm): no step in torque between 1-rpm neighbours */
  double prev = NAN;
  for (double rpm = 1500; rpm <= 2400; rpm += 1) {
    engine_eval(p, rpm * MT_PI / 30, 0, &o);
    if (!isnan(prev)) CHECK_MSG(fabs(o.torque_brake - prev) < 0.05, "%.0f rpm: step %g N·m", rpm, o.torque_brake - prev);
    prev = o.torque_brake;
  }
  /* the rider's throttle ends the overrun: 5 % at 9500 rpm burns fuel again */
  engine_eval(p, 9500 * MT_PI / 30, 0.05, &o);
  CHECK(o.overrun == 0 && o.mdot_fuel > 0);
  rig_free(r);
}

/*---- 6. the residual (camber twisting) moment's sign chain ----*/

MT_TEST(fid_residual_moment_sign_chain) {
  tyre_params p;
  CHECK(load_tyre("front", &p) == 0);
  p.lambda_mzr = 1;
  tyre_forces_t f;
  /* slip alone: Fy to the left, the moment self-aligning (turns the nose right, negative) */
  tyre_forces(&p, 1100, 0, 0.02, 0, &f);
  CHECK(f.fy > 0 && f.mz < 0 && f.mzr == 0);
  CHECK_NEAR(f.mz, -f.trail * f.fy, 1e-9);
  /* camber alone (leaning left): thrust to the left and a twisting moment toward the lean,
   * equal to the formula's residual moment with its sign turned into our axes */
  tyre_forces(&p, 1100, 0, 0, 0.1, &f);
  CHECK(f.fy > 0 && f.mzr > 0);
  CHECK_NEAR(f.mz, f.mzr, 1e-9);
  /* its size at small camber: Fz·R0·qDz8·γ (the coefficient docs/tyre.md discusses) */
  CHECK_REL(f.mzr, 1100 * p.r0 * (p.qDz8 * 0.1 + p.qDz10 * 0.01), 1e-4);   /* cos(atan(Br·SHr)) ≈ 1 */
  /* mirror symmetry: leaning right reverses both */
  tyre_forces_t g;
  tyre_forces(&p, 1100, 0, 0, -0.1, &g);
  CHECK_NEAR(g.mz, -f.mz, 1e-9);
  CHECK_NEAR(g.fy, -f.fy, 1e-9);
}

/*---- the linearisation (sim/linear.c) ----*/

static vehicle* trimmed(rig** rp, const char* const* sets, int nset, double speed, double lean_deg) {
  char path[4096];
  sport_path(path, sizeof path);
  mt_err e = {0};
  *rp = rig_load(path, sets, nset, &e);
  if (!*rp) return NULL;
  vehicle* v = veh_new(*rp, (road){0}, 0, &e);
  if (!v) return NULL;
  trim_spec s = {0};
  s.speed = speed;
  s.fix_roll = 1;
  s.roll = lean_deg * MT_PI / 180;
  s.gear = -1;
  trim_result t;
  if (trim_solve(v, &s, &t, &e)) {
    veh_free(v);
    return NULL;
  }
  return v;
}

MT_TEST(fid_linear_jacobian_restores_state_and_predicts_a_step) {
  /* the rear damper made symmetric: at a steady state its rate sits exactly on the bump/rebound
   * kink, where a one-sided perturbation and the central difference differ at first order */
  static const char* sym[] = {"rear_shock.c_reb=9600"};
  rig* r;
  vehicle* v = trimmed(&r, sym, 1, 30, 20);
  CHECK(v);
  int n = lin_size(v), ns = veh_state_size(v);
  CHECK(n == 2 * v->m->nv + v->m->na && n < 64);
  double x0[80], x1[80], A[64 * 64], t0 = v->d->time;
  veh_get_state(v, x0);
  mt_err e = {0};
  CHECK_MSG(lin_jacobian(v, 1e-6, A, &e) == MT_OK, "%s", e.msg);
  veh_get_state(v, x1);
  CHECK(memcmp(x0, x1, sizeof(double) * ns) == 0 && v->d->time == t0);   /* restored bit for bit */
  /* a small perturbation in every tangent direction at once (the rotation included):
   * one step moves it as A says, to second order */
  double dx[64], ref[80], pert[80], dq[64];
  for (int i = 0; i < n; i++) dx[i] = 1e-6 * sin(1.0 + 3.7 * i);
  CHECK(veh_step(v, &e) == MT_OK);
  veh_get_state(v, ref);
  veh_set_state(v, x0);
  v->d->time = t0;
  mj_integratePos(v->m, v->d->qpos, dx, 1.0);
  for (int i = 0; i < v->m->nv; i++) v->d->qvel[i] += dx[v->m->nv + i];
  for (int i = 0; i < v->m->na; i++) v->d->act[i] += dx[2 * v->m->nv + i];
  CHECK(veh_step(v, &e) == MT_OK);
  veh_get_state(v, pert);
  mj_differentiatePos(v->m, dq, 1.0, ref, pert);
  double err = 0, mag = 0;
  for (int i = 0; i < n; i++) {
    double got = i < v->m->nv ? dq[i] : pert[v->m->nq + i - v->m->nv] - ref[v->m->nq + i - v->m->nv];
    double want = 0;
    for (int j = 0; j < n; j++) want += A[i * n + j] * dx[j];
    err = fmax(err, fabs(got - want));
    mag = fmax(mag, fabs(want));
  }
  printf("    one-step prediction: max error %.3g of max change %.3g\n", err, mag);
  CHECK(err < 1e-3 * mag);
  veh_free(v);
  rig_free(r);
}

/*---- 1. chatter ----*/

/* The front-assembly mode: the one above 15 Hz whose largest share among steer, twist and bend
 * is the bend's. */
static int chatter_mode(vehicle* v, const rig* r, lin_mode* out) {
  lin_mode md[64];
  mt_err e = {0};
  int k = lin_modes(v, 1e-6, md, 64, &e), best = -1;
  for (int i = 0; i < k; i++) {
    double b = md[i].share[r->j_bend], s = md[i].share[r->j_steer], t = md[i].share[r->j_twist];
    if (md[i].freq_hz > 15 && b > s && b > t && b > 0.3 && (best < 0 || b > md[best].share[r->j_bend])) best = i;
  }
  if (best >= 0) *out = md[best];
  return best >= 0;
}

MT_TEST(fid_chatter_mode_softened_frame_25Hz_stock_damped) {
  /* the memo's chatter test: 216 km/h, about 53° of lean; the softening of takes/chatter.lua */
  static const char* soft[] = {"bodies.steering.joints.twist.spring.k=10000", "bodies.steering.joints.twist.spring.c=20",
                               "bodies.fork_bend.joint.spring.k=10000", "bodies.fork_bend.joint.spring.c=5",
                               "bodies.steering.joints.steer.spring.c=2"};
  rig* r;
  lin_mode m;
  vehicle* v = trimmed(&r, soft, 5, 60, 53);
  CHECK(v && r->j_bend >= 0);
  CHECK(chatter_mode(v, r, &m));
  printf("    soft frame: %.2f Hz, ζ %.3f (steer %.2f, twist %.2f, bend %.2f)\n", m.freq_hz, m.damping,
         m.share[r->j_steer], m.share[r->j_twist], m.share[r->j_bend]);
  CHECK(m.freq_hz > 20 && m.freq_hz < 30);
  CHECK(m.damping > 0 && m.damping < 0.1);
  CHECK(m.share[r->j_steer] > 0.1 && m.share[r->j_twist] > 0.1);   /* steer, twist and bend together */
  veh_free(v);
  rig_free(r);
  v = trimmed(&r, NULL, 0, 60, 53);
  CHECK(v);
  CHECK(chatter_mode(v, r, &m));
  printf("    stock frame: %.2f Hz, ζ %.3f\n", m.freq_hz, m.damping);
  CHECK(m.freq_hz > 35 && m.damping > 0.1);
  veh_free(v);
  rig_free(r);
}

/*---- 8. capsize ----*/

/* The capsize root: the real root, steer-dominated, nearest zero (the invariances' exact zeros
 * — position and heading — excluded). */
static int capsize_root(vehicle* v, const rig* r, double* re) {
  lin_mode md[64];
  mt_err e = {0};
  int k = lin_modes(v, 1e-6, md, 64, &e), found = 0;
  for (int i = 0; i < k; i++)
    if (md[i].freq_hz == 0 && fabs(md[i].re) > 1e-3 && fabs(md[i].re) < 20 && md[i].share[r->j_steer] > 0.5 &&
        (!found || fabs(md[i].re) < fabs(*re))) {
      *re = md[i].re;
      found = 1;
    }
  return found;
}

MT_TEST(fid_capsize_root_follows_steady_steer_torque) {
  /* A real root passes through zero exactly where a steady turn needs no steering torque, so
   * the capsize root's sign is opposite to the sign of the steady bar torque at a small right
   * lean. docs/vehicle.md: the camber twisting moment (λMr) decides it in this model. */
  const char* lam[2][2] = {{"wheels.front.tyre.lambda_mzr=0", "wheels.rear.tyre.lambda_mzr=0"},
                           {"wheels.front.tyre.lambda_mzr=0.5", "wheels.rear.tyre.lambda_mzr=0.5"}};
  for (int l = 0; l < 2; l++)
    for (double V = 20; V <= 50; V += 30) {
      rig* r;
      vehicle* v = trimmed(&r, lam[l], 2, V, 0);
      CHECK(v);
      double re = 0;
      CHECK(capsize_root(v, r, &re));
      veh_free(v);
      rig_free(r);
      /* steady bar torque at 5° of right lean */
      char path[4096];
      sport_path(path, sizeof path);
      mt_err e = {0};
      r = rig_load(path, lam[l], 2, &e);
      v = veh_new(r, (road){0}, 0, &e);
      trim_spec s = {0};
      s.speed = V;
      s.fix_roll = 1;
      s.roll = 5 * MT_PI / 180;
      s.gear = -1;
      trim_result t;
      CHECK_MSG(trim_solve(v, &s, &t, &e) == MT_OK, "%s", e.msg);
      printf("    %s, %.0f m/s: capsize root %+.3f 1/s, steady torque at 5° %+.3f N·m\n", lam[l][0] + 18, V, re,
             t.steer_torque);
      CHECK(re * t.steer_torque < 0);
      if (l == 1) CHECK(re < 0);   /* shipped λMr = 0.5: stable */
      veh_free(v);
      rig_free(r);
    }
}

MT_TEST(fid_trim_places_the_fork_bend_at_its_static_equilibrium) {
  /* the trim does not solve fork_bend; the vehicle places it while the trim evaluates, so the
   * trimmed turn is an equilibrium with the fork statically bent */
  rig* r;
  vehicle* v = trimmed(&r, NULL, 0, 10, 30);
  CHECK(v);
  double b0 = veh_q(v, r->j_bend), roll0, roll, pitch, yaw;
  veh_frame_euler(v, &roll0, &pitch, &yaw);
  mt_err e = {0};
  for (int i = 0; i < 200; i++) CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
  veh_frame_euler(v, &roll, &pitch, &yaw);
  double db = veh_q(v, r->j_bend) - b0, dr = (roll - roll0) * 180 / MT_PI;
  printf("    10 m/s, 30°: static bend %.6f rad; after 0.2 s the bend moved %.1e rad, the lean %.5f deg\n", b0, db, dr);
  CHECK(fabs(b0) > 1e-4);                      /* a real static deflection, not zero */
  CHECK(fabs(db) < 1e-5 && fabs(dr) < 0.002);  /* with the bend left at zero: 0.045 deg */
  veh_free(v);
  rig_free(r);
}
