/* test_posture.c — the rider's posture: the split upper body adds up to SEL 2004's, the posture
 * joints follow their set-points, hanging off changes the steady turn, the tuck changes drag,
 * and the posture module's decisions (hang-off side, tuck, sit-up, rate limits). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/posture.h"
#include "sim/trim.h"
#include "tests/unit/test.h"

/* Trim a steady left turn of radius R at speed V with the given posture set-points; roll in rad. */
static int steady_turn(vehicle* v, double V, double R, const double posture[RIG_NPOSTURE], trim_result* t, mt_err* e) {
  memcpy(v->in.posture, posture, sizeof v->in.posture);
  trim_spec s = {0};
  s.speed = V;
  s.yaw_rate = V / R;
  s.gear = -1;
  return trim_solve(v, &s, t, e);
}

MT_TEST(posture_hang_off_reduces_lean_in_steady_turn) {
  /* 20 m/s on a 100 m radius (the skidpad100 turn). Hanging off 0.18 m and 20° to the inside
   * moves the upper body's 33.68 kg inward: about 0.18·33.68 + 0.345·sin 20°·24.95 ≈ 9 kg·m, so
   * the whole machine's CG moves ~0.036 m inward; at h ≈ 0.55 m the machine needs ≈ 3.7° less
   * lean for the same turn (model-data.md §d estimates ~5° for 0.2 m of a whole 72 kg rider). */
  rig* r = mt_test_load_sport();
  CHECK(r);
  CHECK(r->j_posture[RIG_POSTURE_HIP] >= 0 && r->j_posture[RIG_POSTURE_PITCH] >= 0 && r->j_posture[RIG_POSTURE_LEAN] >= 0);
  mt_err e = {0};
  road flat = {0};
  vehicle* v = veh_new(r, flat, 0, &e);
  CHECK_MSG(v, "%s", e.msg);
  double neutral[RIG_NPOSTURE] = {0, 0, 0};
  double hang[RIG_NPOSTURE] = {-0.18, -20 * MT_PI / 180, 0};   /* left turn: inside is left (negative) */
  double wrong[RIG_NPOSTURE] = {0.18, 20 * MT_PI / 180, 0};    /* hanging off to the outside */
  trim_result t0, t1, t2;
  int rc0 = steady_turn(v, 20, 100, neutral, &t0, &e);
  int rc1 = rc0 ? rc0 : steady_turn(v, 20, 100, hang, &t1, &e);
  double hip = veh_q(v, r->j_posture[RIG_POSTURE_HIP]), lean = veh_q(v, r->j_posture[RIG_POSTURE_LEAN]);
  int rc2 = rc1 ? rc1 : steady_turn(v, 20, 100, wrong, &t2, &e);
  veh_free(v);
  rig_free(r);
  CHECK_MSG(rc0 == MT_OK && rc1 == MT_OK && rc2 == MT_OK, "%s", e.msg);
  /* the muscles hold the set-points in the steady turn (within 5 mm and 1°) */
  CHECK_MSG(fabs(hip + 0.18) < 0.005 && fabs(lean + 20 * MT_PI / 180) < MT_PI / 180, "hip %.4f m, torso lean %.2f deg", hip,
            lean * 180 / MT_PI);
  double d_in = (-t0.roll) - (-t1.roll), d_out = (-t2.roll) - (-t0.roll);   /* left turn: roll negative */
  fprintf(stderr, "info posture_hang_off: lean neutral %.2f deg, hanging off inside %.2f deg, outside %.2f deg\n",
          -t0.roll * 180 / MT_PI, -t1.roll * 180 / MT_PI, -t2.roll * 180 / MT_PI);
  CHECK_MSG(d_in > 2.5 * MT_PI / 180 && d_in < 6 * MT_PI / 180, "hanging off inside reduced the lean by %.2f deg (want 2.5–6)",
            d_in * 180 / MT_PI);
  CHECK_MSG(d_out > 2.5 * MT_PI / 180, "hanging off outside should add lean, added %.2f deg", d_out * 180 / MT_PI);
}

MT_TEST(posture_split_rider_adds_up_to_sel_upper_body) {
  /* SEL 2004 (../shared/data/sharp_motorcycle.json): upper body 33.68 kg at p10 = (0.415, 0, 1.14)
   * with inertia {1.428, 1.347, 0.916} and x–z product −0.443 about p10. The two rider bodies
   * must add up to exactly that, and the whole machine's mass and CG must be SEL's: frame
   * 165.13 kg at p8, steering 9.99 at p3, lower fork 7.25 at p5, wheels 11.9 at p6 and 14.7 at
   * p7, swingarm 8.0 at p14. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  int bp = rig_body_index(r, "rider_pelvis"), bt = rig_body_index(r, "rider_torso");
  CHECK(bp >= 0 && bt >= 0 && r->body[bt].parent == bp && r->body[bp].parent == r->b_frame);
  const rig_body *P = &r->body[bp], *T = &r->body[bt];
  double m = P->mass + T->mass, c[3], I[6] = {0};
  for (int k = 0; k < 3; k++) c[k] = (P->mass * P->com[k] + T->mass * T->com[k]) / m;
  const rig_body* B[2] = {P, T};
  for (int i = 0; i < 2; i++) {
    double d[3] = {B[i]->com[0] - 0.415, B[i]->com[1], B[i]->com[2] - 1.14}, mi = B[i]->mass;
    I[0] += B[i]->inertia[0] + mi * (d[1] * d[1] + d[2] * d[2]);
    I[1] += B[i]->inertia[1] + mi * (d[0] * d[0] + d[2] * d[2]);
    I[2] += B[i]->inertia[2] + mi * (d[0] * d[0] + d[1] * d[1]);
    I[3] += B[i]->inertia[3] + mi * d[0] * d[1];
    I[4] += B[i]->inertia[4] + mi * d[0] * d[2];
    I[5] += B[i]->inertia[5] + mi * d[1] * d[2];
  }
  CHECK_NEAR(m, 33.68, 1e-9);
  CHECK_NEAR(c[0], 0.415, 1e-9);
  CHECK_NEAR(c[1], 0, 1e-12);
  CHECK_NEAR(c[2], 1.14, 1e-9);
  CHECK_NEAR(I[0], 1.428, 1e-9);
  CHECK_NEAR(I[1], 1.347, 1e-9);
  CHECK_NEAR(I[2], 0.916, 1e-9);
  CHECK_NEAR(I[3], 0, 1e-12);
  CHECK_NEAR(I[4], -0.443, 1e-9);
  CHECK_NEAR(I[5], 0, 1e-12);
  {
    const rig_joint* jp = &r->joint[r->j_posture[RIG_POSTURE_PITCH]];
    double dx = T->com[0] - jp->anchor[0], dz = T->com[2] - jp->anchor[2];
    fprintf(stderr, "info posture_split: pelvis %.2f kg at (%.4f, %.4f), torso %.2f kg at (%.4f, %.4f), torso Iyy about p9 %.3f kg m^2\n",
            P->mass, P->com[0], P->com[2], T->mass, T->com[0], T->com[2], T->inertia[1] + T->mass * (dx * dx + dz * dz));
  }
  /* the lower trunk's share is Dempster's abdomen over abdomen + thorax + head + arms */
  CHECK_NEAR(P->mass, 33.68 * 0.139 / 0.536, 1e-9);
  double com[3];
  double M = rig_total_mass(r, com);
  double sel_m[7] = {165.13, 33.68, 9.99, 7.25, 11.9, 8.0, 14.7};
  double sel_x[7] = {0.6779, 0.415, 1.164, 1.365, 1.410, 0.196, 0.0}, sel_z[7] = {0.4724, 1.14, 0.770, 0.324, 0.282, 0.3113, 0.297};
  double ms = 0, xs = 0, zs = 0;
  for (int i = 0; i < 7; i++) {
    ms += sel_m[i];
    xs += sel_m[i] * sel_x[i];
    zs += sel_m[i] * sel_z[i];
  }
  rig_free(r);
  CHECK_NEAR(M, ms, 1e-9);
  CHECK_NEAR(com[0], xs / ms, 1e-3);   /* within 1 mm (exact up to round-off) */
  CHECK_NEAR(com[2], zs / ms, 1e-3);
  CHECK_NEAR(com[0], xs / ms, 1e-12);
  CHECK_NEAR(com[2], zs / ms, 1e-12);
}

MT_TEST(posture_joints_follow_their_set_points) {
  /* Static machine on the flat: moving each set-point moves its joint there (the muscle holds
   * against gravity within its stiffness: 30 rad/s natural frequency), within 0.3 s. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  road flat = {0};
  vehicle* v = veh_new(r, flat, 0, &e);
  CHECK_MSG(v, "%s", e.msg);
  trim_spec s = {0};
  s.gear = 0;
  int rc = trim_solve(v, &s, &(trim_result){0}, &e);
  double sp[RIG_NPOSTURE] = {0.10, 10 * MT_PI / 180, 25 * MT_PI / 180};
  memcpy(v->in.posture, sp, sizeof sp);
  int ok = rc == MT_OK;
  for (int i = 0; i < 300 && ok; i++) ok = veh_step(v, &e) == MT_OK;
  double q[RIG_NPOSTURE];
  for (int k = 0; k < RIG_NPOSTURE; k++) q[k] = veh_q(v, r->j_posture[k]);
  veh_free(v);
  rig_free(r);
  CHECK_MSG(ok, "%s", e.msg);
  CHECK_NEAR(q[RIG_POSTURE_HIP], 0.10, 0.005);
  CHECK_NEAR(q[RIG_POSTURE_LEAN], 10 * MT_PI / 180, 1.0 * MT_PI / 180);
  CHECK_NEAR(q[RIG_POSTURE_PITCH], 25 * MT_PI / 180, 1.0 * MT_PI / 180);
}

MT_TEST(posture_tuck_lowers_drag_and_sitting_up_raises_it) {
  /* rigs/sport1000.lua: Cd·A 0.312 m² neutral, 0.30 tucked (30° forward), 0.38 sat up (10° back).
   * Straight running at 40 m/s: the drag force is ½ρ·CdA·V² at each posture's settled pitch. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  CHECK(r->aero.has_posture);
  CHECK_NEAR(rig_cd_area(&r->aero, 0), 0.312, 1e-12);
  CHECK_NEAR(rig_cd_area(&r->aero, 30 * MT_PI / 180), 0.30, 1e-12);
  CHECK_NEAR(rig_cd_area(&r->aero, 60 * MT_PI / 180), 0.30, 1e-12);
  CHECK_NEAR(rig_cd_area(&r->aero, 15 * MT_PI / 180), 0.306, 1e-12);
  CHECK_NEAR(rig_cd_area(&r->aero, -10 * MT_PI / 180), 0.38, 1e-12);
  mt_err e = {0};
  road flat = {0};
  vehicle* v = veh_new(r, flat, 0, &e);
  CHECK_MSG(v, "%s", e.msg);
  rig_aero aero = r->aero;
  double pitch[3] = {0, 30 * MT_PI / 180, -10 * MT_PI / 180}, drag[3], tp[3];
  int rc = MT_OK;
  for (int k = 0; k < 3 && !rc; k++) {
    memset(v->in.posture, 0, sizeof v->in.posture);
    v->in.posture[RIG_POSTURE_PITCH] = pitch[k];
    trim_spec s = {0};
    s.speed = 40;
    s.gear = -1;
    rc = trim_solve(v, &s, &(trim_result){0}, &e);
    drag[k] = v->out.aero_drag;
    tp[k] = veh_q(v, r->j_posture[RIG_POSTURE_PITCH]);
  }
  veh_free(v);
  rig_free(r);
  CHECK_MSG(rc == MT_OK, "%s", e.msg);
  /* ½·1.2·V² with V the centre of pressure's speed ≈ 40 m/s: 960·CdA(settled pitch) */
  for (int k = 0; k < 3; k++) {
    double cda = drag[k] / (0.5 * 1.2 * 40 * 40);
    CHECK_MSG(fabs(cda - rig_cd_area(&aero, tp[k])) < 0.002,
              "posture %d: drag %.1f N is CdA %.4f at torso pitch %.2f deg", k, drag[k], cda, tp[k] * 180 / MT_PI);
  }
  fprintf(stderr, "info posture_drag at 40 m/s: neutral %.0f N (pitch %.2f deg), tucked %.0f N (%.2f deg), sat up %.0f N (%.2f deg)\n",
          drag[0], tp[0] * 180 / MT_PI, drag[1], tp[1] * 180 / MT_PI, drag[2], tp[2] * 180 / MT_PI);
  CHECK_MSG(drag[1] < drag[0] && drag[2] > drag[0], "drag tucked %.1f, neutral %.1f, sat up %.1f N", drag[1], drag[0], drag[2]);
}

/* a straight until s = 25 m, then a left-hand bend of 50 m radius */
static double bend_at_25m(const void* path, double s) {
  (void)path;
  return s >= 25 ? 0.02 : 0;
}

MT_TEST(posture_module_hangs_off_inside_tucks_and_sits_up) {
  posture_params p;
  posture_default_params(&p, NULL);
  double t[RIG_NPOSTURE];
  /* a right turn asked at 6 m/s² (ay < 0): hips and torso to the right (positive), full */
  posture_targets(&p, &(posture_situation){20, -6, 0}, t);
  CHECK_NEAR(t[RIG_POSTURE_HIP], p.hip_max, 1e-12);
  CHECK_NEAR(t[RIG_POSTURE_LEAN], p.lean_max, 1e-12);
  /* a left turn: to the left */
  posture_targets(&p, &(posture_situation){20, 6, 0}, t);
  CHECK_NEAR(t[RIG_POSTURE_HIP], -p.hip_max, 1e-12);
  /* a gentle sweeper below ay_start: no hang-off */
  posture_targets(&p, &(posture_situation){20, 0.9 * p.ay_start, 0}, t);
  CHECK_NEAR(t[RIG_POSTURE_HIP], 0, 0);
  /* a straight at speed: full tuck, no hang-off; slow: none */
  posture_targets(&p, &(posture_situation){p.tuck_v1 + 1, 0, 0}, t);
  CHECK_NEAR(t[RIG_POSTURE_PITCH], p.tuck_pitch, 1e-12);
  posture_targets(&p, &(posture_situation){p.tuck_v0 - 1, 0, 0}, t);
  CHECK_NEAR(t[RIG_POSTURE_PITCH], 0, 0);
  /* braking at speed: sits up */
  posture_targets(&p, &(posture_situation){p.tuck_v1 + 1, 0, p.brake_full}, t);
  CHECK_NEAR(t[RIG_POSTURE_PITCH], p.brake_pitch, 1e-12);
  /* the set-points move no faster than the rate limits, and settle on the target */
  posture_state s;
  posture_reset(&s);
  double out[RIG_NPOSTURE], prev = 0, maxrate = 0;
  for (int i = 0; i < 3000; i++) {
    posture_update(&p, &s, &(posture_situation){20, -6, 0}, 0.001, out);
    maxrate = fmax(maxrate, (out[RIG_POSTURE_HIP] - prev) / 0.001);
    prev = out[RIG_POSTURE_HIP];
  }
  CHECK_MSG(maxrate <= p.rate[RIG_POSTURE_HIP] + 1e-9, "hip moved at %.3f m/s, limit %.3f", maxrate, p.rate[RIG_POSTURE_HIP]);
  CHECK_NEAR(out[RIG_POSTURE_HIP], p.hip_max, 1e-6);
  /* starting before the turn: the curvature up to `preview` seconds ahead counts */
  CHECK_NEAR(posture_ay_ahead(bend_at_25m, NULL, 0, 20, 1.0), 0, 0);      /* looks at 0…20 m: straight */
  CHECK_NEAR(posture_ay_ahead(bend_at_25m, NULL, 10, 20, 1.0), 8, 1e-12); /* looks at 10…30 m: V²κ = 400·0.02 */
  CHECK_NEAR(posture_ay_ahead(bend_at_25m, NULL, 30, 20, 0), 8, 1e-12);
}
