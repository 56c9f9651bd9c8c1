/* test_trim.c — the steady-state solver: the turn it finds is the one connected to upright
 * running (small slip angles, no jumps along a sweep), it is an equilibrium, it matches the
 * balance lean of a torus-tyred machine, and it says plainly when no steady turn exists. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/rider.h"
#include "sim/trim.h"
#include "sim/track.h"
#include "takes/run.h"
#include "takes/takefile.h"
#include "tests/unit/test.h"

#define D2R (MT_PI / 180)

static int trim_lean(vehicle* v, double speed, double lean_deg, trim_result* t, mt_err* e) {
  trim_spec s = {0};
  s.speed = speed;
  s.fix_roll = 1;
  s.roll = lean_deg * D2R;
  s.gear = -1;
  return trim_solve(v, &s, t, e);
}

MT_TEST(trim_15ms_50deg_steers_into_the_turn_with_small_slips) {
  /* Today's main found −18.7° of steer here with a 28° front slip angle: a saturated-tyre
   * solution, not the machine's steady turn. At 15 m/s on a ~25 m radius the kinematic steer
   * (wheelbase / radius, projected on the steering axis) dominates: the steer must be of the
   * turn's sign, of that size, and both slip angles small. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  trim_result t;
  int rc = trim_lean(v, 15, 50, &t, &e);
  veh_free(v);
  CHECK_MSG(rc == MT_OK, "%s", e.msg);
  double wheelbase = r->wheel[RIG_FRONT].centre[0] - r->wheel[RIG_REAR].centre[0];
  double kin = wheelbase / fabs(t.radius) * cos(t.roll);   /* steer about a near-vertical axis, leaned */
  rig_free(r);
  CHECK_MSG(t.steer_angle * t.yaw_rate > 0, "steer %.3f deg against the turn (yaw rate %.3f rad/s)",
            t.steer_angle / D2R, t.yaw_rate);
  CHECK_MSG(fabs(t.steer_angle) < 2 * kin, "steer %.3f deg, kinematic %.3f deg", t.steer_angle / D2R, kin / D2R);
  CHECK_MSG(fabs(t.alpha_front) < 3 * D2R && fabs(t.alpha_rear) < 3 * D2R, "slip angles front %.2f, rear %.2f deg",
            t.alpha_front / D2R, t.alpha_rear / D2R);
  CHECK_NEAR(t.roll / D2R, 50, 1e-6);
  CHECK_MSG(t.residual < 1e-5, "residual %g", t.residual);
}

MT_TEST(trim_lean_sweep_is_continuous_at_10_20_30_60_ms) {
  /* Leans 0..50° every 2.5° at four speeds: every point exists, the slip angles stay small and
   * steer angle and torque change smoothly (first and second differences bounded: no jump to
   * another branch of solutions). */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  const double speeds[] = {10, 20, 30, 60};
  double worst_d1 = 0, worst_d2 = 0, worst_t1 = 0, worst_t2 = 0;
  for (int i = 0; i < 4; i++) {
    double st[21], tq[21];
    for (int k = 0; k <= 20; k++) {
      trim_result t;
      if (trim_lean(v, speeds[i], 2.5 * k, &t, &e)) {
        veh_free(v);
        rig_free(r);
        CHECK_MSG(0, "%.0f m/s, %.1f deg: %s", speeds[i], 2.5 * k, e.msg);
      }
      if (fabs(t.alpha_front) > 3 * D2R || fabs(t.alpha_rear) > 3 * D2R) {
        veh_free(v);
        rig_free(r);
        CHECK_MSG(0, "%.0f m/s, %.1f deg: slip angles %.2f, %.2f deg", speeds[i], 2.5 * k, t.alpha_front / D2R,
                  t.alpha_rear / D2R);
      }
      st[k] = t.steer_angle / D2R;
      tq[k] = t.steer_torque;
      if (k >= 1) {
        worst_d1 = fmax(worst_d1, fabs(st[k] - st[k - 1]));
        worst_t1 = fmax(worst_t1, fabs(tq[k] - tq[k - 1]));
      }
      if (k >= 2) {
        worst_d2 = fmax(worst_d2, fabs(st[k] - 2 * st[k - 1] + st[k - 2]));
        worst_t2 = fmax(worst_t2, fabs(tq[k] - 2 * tq[k - 1] + tq[k - 2]));
      }
    }
  }
  veh_free(v);
  rig_free(r);
  /* measured: steer steps ≤ 0.25°, second differences ≤ 0.017°; torque steps ≤ 4.3 N·m, ≤ 1.23 N·m */
  CHECK_MSG(worst_d1 < 0.5, "steer angle jumps by %.3f deg between 2.5 deg steps", worst_d1);
  CHECK_MSG(worst_d2 < 0.05, "steer angle bends by %.3f deg (second difference)", worst_d2);
  CHECK_MSG(worst_t1 < 6, "steer torque jumps by %.2f N·m between 2.5 deg steps", worst_t1);
  CHECK_MSG(worst_t2 < 2, "steer torque bends by %.2f N·m (second difference)", worst_t2);
}

MT_TEST(trim_yaw_rate_sweep_is_continuous_to_1_05_g) {
  /* The takes' mode: the yaw rate (speed × the track's curvature) given, the lean solved. At 20
   * and 30 m/s, lateral accelerations from 0 to 1.05 g in 14 steps (up to ~54° of lean; the
   * steer angle then turns steeply toward the fold near 59°): the lean rises monotonically, the
   * steer angle has no jumps, the slip angles stay small. Main jumped to a 21° front slip angle
   * at 0.97 g. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  const double speeds[] = {20, 30};
  char msg[256] = "";
  for (int i = 0; i < 2 && !msg[0]; i++) {
    double lean[15], st[15];
    for (int k = 0; k <= 14 && !msg[0]; k++) {
      trim_spec s = {0};
      s.speed = speeds[i];
      s.yaw_rate = 0.075 * MT_G * k / speeds[i];
      s.gear = -1;
      trim_result t;
      if (trim_solve(v, &s, &t, &e)) {
        snprintf(msg, sizeof msg, "%s", e.msg);
        break;
      }
      lean[k] = -t.roll / D2R;
      st[k] = t.steer_angle / D2R;
      if (fabs(t.alpha_front) > 4 * D2R || fabs(t.alpha_rear) > 4 * D2R)
        snprintf(msg, sizeof msg, "%.0f m/s, %.3f g: slip angles %.2f, %.2f deg", speeds[i], 0.075 * k,
                 t.alpha_front / D2R, t.alpha_rear / D2R);
      else if (k >= 1 && !(lean[k] > lean[k - 1]))
        snprintf(msg, sizeof msg, "%.0f m/s: lean %.3f then %.3f deg", speeds[i], lean[k - 1], lean[k]);
      else if (k >= 2 && fabs(st[k] - 2 * st[k - 1] + st[k - 2]) > 0.05)
        snprintf(msg, sizeof msg, "%.0f m/s, %.3f g: steer %.3f, %.3f, %.3f deg", speeds[i], 0.075 * k, st[k - 2],
                 st[k - 1], st[k]);
    }
  }
  veh_free(v);
  rig_free(r);
  CHECK_MSG(!msg[0], "%s", msg);
}

MT_TEST(trim_is_an_equilibrium_for_0_2_s) {
  /* Hold the trim's inputs, no controller, and step 0.2 s: a steady state stays put (the
   * capsize and weave modes are slow or damped enough that a tiny residual does not grow far). */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  const double pts[][2] = {{10, 30}, {20, 50}, {30, 45}, {60, 20}};
  char msg[256] = "";
  for (int i = 0; i < 4 && !msg[0]; i++) {
    trim_result t;
    if (trim_lean(v, pts[i][0], pts[i][1], &t, &e)) {
      snprintf(msg, sizeof msg, "%.0f m/s %.0f deg: %s", pts[i][0], pts[i][1], e.msg);
      break;
    }
    double roll0 = t.roll, V0 = veh_speed(v), st0 = veh_q(v, r->j_steer);
    for (int k = 0; k < 200 && !msg[0]; k++)
      if (veh_step(v, &e)) snprintf(msg, sizeof msg, "%s", e.msg);
    double roll, pitch, yaw;
    veh_frame_euler(v, &roll, &pitch, &yaw);
    double dV = veh_speed(v) - V0, dr = (roll - roll0) / D2R, ds = (veh_q(v, r->j_steer) - st0) / D2R;
    /* measured: |drift| ≤ 5e-4 m/s, 2e-4 deg of lean, 1e-4 deg of steer */
    if (!msg[0] && (fabs(dV) > 0.005 || fabs(dr) > 0.002 || fabs(ds) > 0.001))
      snprintf(msg, sizeof msg, "%.0f m/s %.0f deg: after 0.2 s speed %+.4f m/s, lean %+.4f deg, steer %+.4f deg",
               pts[i][0], pts[i][1], dV, dr, ds);
  }
  veh_free(v);
  rig_free(r);
  CHECK_MSG(!msg[0], "%s", msg);
}

MT_TEST(trim_low_speed_lean_matches_the_balance_lean_with_tyre_width) {
  /* Published statics of a steady turn (Cossalter, Motorcycle Dynamics §4.1): the line through
   * the contacts and the centre of mass leans by φe = atan(V²κ/g); torus tyres of crown radius ρ
   * move the contacts inward, so the machine leans further, sin(φ − φe)(h − ρ) = ρ sin φe. At low
   * speed (gyroscopic moments negligible) the trim must agree within 3 % using the CoM height h
   * and the load-weighted crown of the two tyres (measured: +0.2 to +2.2 %); without the tyre
   * width the lean is 16–19 % more than atan(V²κ/g). */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  double com[3];
  rig_total_mass(r, com);
  const double V[] = {6, 8, 10}, R[] = {100, 30, 15};
  char msg[256] = "";
  for (int i = 0; i < 3 && !msg[0]; i++)
    for (int j = 0; j < 3 && !msg[0]; j++) {
      trim_spec s = {0};
      s.speed = V[i];
      s.yaw_rate = V[i] / R[j];   /* left turn */
      s.gear = -1;
      trim_result t;
      if (trim_solve(v, &s, &t, &e)) {
        snprintf(msg, sizeof msg, "%s", e.msg);
        break;
      }
      double rho = (t.fz_front * r->wheel[RIG_FRONT].tyre.crown + t.fz_rear * r->wheel[RIG_REAR].tyre.crown) /
                   (t.fz_front + t.fz_rear);
      double lean = -t.roll, want = -rider_balance_roll(V[i], 1 / R[j], com[2], rho);
      double bare = atan(V[i] * V[i] / R[j] / MT_G);
      if (fabs(lean / want - 1) > 0.03 || fabs(lean / bare - 1) < 0.10)
        snprintf(msg, sizeof msg, "%.0f m/s, R %.0f m: trim lean %.3f deg, balance %.3f deg (%+.1f %%), without tyre width %.3f",
                 V[i], R[j], lean / D2R, want / D2R, 100 * (lean / want - 1), bare / D2R);
    }
  veh_free(v);
  rig_free(r);
  CHECK_MSG(!msg[0], "%s", msg);
}

MT_TEST(trim_says_what_limits_the_turn) {
  /* Past the lean where the rear tyre saturates there is no steady turn: one line naming how
   * far the continuation got and why. The same in the yaw-rate mode: 28 m/s on a 50 m circle
   * (1.6 g) is beyond this machine; today's main "found" a trim there and blew up at t = 0. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  trim_result t;
  int rc = trim_lean(v, 20, 62, &t, &e);
  char m1[512];
  snprintf(m1, sizeof m1, "%s", e.msg);
  int fold1 = t.fold;   /* the fold and its lean, as the line says them (takes/run.c's race summary reads these) */
  double roll1 = fabs(t.roll) * 180 / MT_PI;
  mt_err e2 = {0};
  trim_spec s = {0};
  s.speed = 28;
  s.yaw_rate = 28.0 / 50;
  s.gear = -1;
  int rc2 = trim_solve(v, &s, &t, &e2);
  veh_free(v);
  rig_free(r);
  CHECK_MSG(rc == MT_EINPUT, "20 m/s at 62 deg trimmed (rc %d)", rc);
  CHECK_MSG(strstr(m1, "no steady turn at 20.00 m/s and 62.0 deg of lean: the rear tyre saturates"), "%s", m1);
  double reached = 0;
  const char* b = strstr(m1, " beyond ");
  CHECK_MSG(b && sscanf(b, " beyond %lf", &reached) == 1 && reached > 55 && reached < 62, "%s", m1);
  CHECK_MSG(fold1 == TRIM_FOLD_REAR, "fold %d for: %s", fold1, m1);
  CHECK_NEAR(roll1, reached, 0.05);
  /* trim_lean_fold (the race summary's and lapsim's) finds the same fold from its own ask */
  rig* r2 = mt_test_load_sport();
  CHECK(r2);
  vehicle* v2 = veh_new(r2, (road){0}, 0, &e);
  double roll2 = 0;
  int fold2 = v2 ? trim_lean_fold(v2, 20, &roll2) : 0;
  veh_free(v2);
  rig_free(r2);
  CHECK_MSG(fold2 == TRIM_FOLD_REAR, "trim_lean_fold gave %d", fold2);
  CHECK_NEAR(roll2 * 180 / MT_PI, reached, 0.05);
  CHECK_MSG(rc2 == MT_EINPUT, "28 m/s on a 50 m radius trimmed (rc %d)", rc2);
  CHECK_MSG(strstr(e2.msg, "no steady turn at 28.00 m/s on a 50.0 m radius"), "%s", e2.msg);
}

MT_TEST(trim_chooses_a_gear_above_the_downshift_point) {
  /* 70 km/h (the wobble take): second gear would idle along below the rider's 5000 rpm
   * downshift point, so the trim picks first. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  trim_result t;
  int rc = trim_lean(v, 70 / 3.6, 0, &t, &e);
  veh_free(v);
  rig_free(r);
  CHECK_MSG(rc == MT_OK, "%s", e.msg);
  CHECK_MSG(t.rpm >= TRIM_MIN_RPM && t.gear == 1, "gear %d at %.0f rpm", t.gear, t.rpm);
}

static int write_file(const char* path, const char* text) {
  FILE* f = fopen(path, "w");
  if (!f) return -1;
  fputs(text, f);
  return fclose(f);
}

/* A shipped take script with its duration replaced (the part before its pulse or spike). */
static int shipped_until(const char* name, const char* old_duration, double duration, char* out, size_t n) {
  char src[512];
  snprintf(src, sizeof src, "%s/takes/%s.lua", mt_test_root(), name);
  FILE* f = fopen(src, "r");
  if (!f) return -1;
  static char text[16384];
  size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[len] = 0;
  char* at = strstr(text, old_duration);
  if (!at) return -1;
  char repl[64], buf[16384];
  snprintf(repl, sizeof repl, "duration = %g", duration);
  snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - text), text, repl, at + strlen(old_duration));
  snprintf(out, n, "%s/%s_part.lua", mt_test_tmpdir(), name);
  return write_file(out, buf);
}

/* Ride script into a take; range (min, max) of each named channel over the whole take, and
 * its value at the first step. */
typedef struct chan_range { const char* name; double first, lo, hi; } chan_range;

static int ride_and_measure(const char* script, chan_range* ch, int nch, char* msg, size_t n) {
  char take[512];
  snprintf(take, sizeof take, "%s.take", script);
  run_opts o = {.script = script, .out = take, .quiet = 1};
  run_result res;
  mt_err e = {0};
  if (run_take(&o, &res, &e)) return snprintf(msg, n, "%s", e.msg), -1;
  take_reader* tr = take_open(take, &e);
  if (!tr) return snprintf(msg, n, "%s", e.msg), -1;
  const take_schema* sc = take_schema_of(tr);
  long ns = take_nsteps(tr);
  int nc = sc->nchan;
  double* buf = mt_alloc(sizeof(double) * nc * ns);
  int rc = take_read(tr, TAKE_CHAN, 0, ns, buf, &e);
  for (int k = 0; k < nch && !rc; k++) {
    int col = -1;
    for (int c = 0; c < nc; c++)
      if (strcmp(sc->chan_names[c], ch[k].name) == 0) col = c;
    if (col < 0) {
      rc = -1;
      snprintf(msg, n, "no channel %s", ch[k].name);
      break;
    }
    ch[k].first = ch[k].lo = ch[k].hi = buf[col];
    for (long i = 0; i < ns; i++) {
      ch[k].lo = fmin(ch[k].lo, buf[i * nc + col]);
      ch[k].hi = fmax(ch[k].hi, buf[i * nc + col]);
    }
  }
  if (rc > 0) snprintf(msg, n, "%s", e.msg);
  free(buf);
  take_close(tr);
  return rc;
}

MT_TEST(trim_take_without_rider_holds_the_trim_inputs) {
  /* rider = false: the trim's steer torque and throttle are the open-loop baseline, so a take
   * started in a 25° turn at 25 m/s keeps its speed and lean for 0.5 s with nothing scripted. */
  char path[512], msg[512] = "";
  snprintf(path, sizeof path, "%s/open_loop.lua", mt_test_tmpdir());
  CHECK(write_file(path, "return { rig = \"sport1000\", track = \"skidpad100\", rider = false,\n"
                         "  start = { station = 0, speed = 25, lean = 25 }, duration = 0.5 }\n") == 0);
  chan_range ch[] = {{"speed", 0, 0, 0}, {"lean", 0, 0, 0}, {"steer_torque", 0, 0, 0}, {"throttle", 0, 0, 0}};
  CHECK_MSG(ride_and_measure(path, ch, 4, msg, sizeof msg) == 0, "%s", msg);
  CHECK_MSG(ch[2].first > 10 && ch[3].first > 0.01, "started with %.3f N·m, throttle %.4f", ch[2].first, ch[3].first);
  CHECK_MSG(ch[0].hi - ch[0].lo < 0.02, "speed %.4f..%.4f m/s", ch[0].lo, ch[0].hi);
  CHECK_MSG(ch[1].hi - ch[1].lo < 0.2 && fabs(ch[1].first - 25) < 1e-3, "lean %.3f..%.3f deg", ch[1].lo, ch[1].hi);
}

MT_TEST(trim_weave_take_keeps_its_speed_before_the_pulse) {
  /* The weave take (200 km/h, rider) lost 0.7 m/s before its 2 s pulse when the throttle
   * started at 0: the rider now starts at the trim's throttle. */
  char path[512], msg[512] = "";
  CHECK(shipped_until("weave", "duration = 8", 1.99, path, sizeof path) == 0);
  chan_range ch[] = {{"speed", 0, 0, 0}, {"gear", 0, 0, 0}};
  CHECK_MSG(ride_and_measure(path, ch, 2, msg, sizeof msg) == 0, "%s", msg);
  CHECK_MSG(ch[0].hi - ch[0].lo < 0.1, "speed %.3f..%.3f m/s", ch[0].lo, ch[0].hi);
  CHECK_MSG(ch[1].lo == ch[1].hi, "gear %g..%g", ch[1].lo, ch[1].hi);
}

MT_TEST(trim_wobble_take_keeps_its_gear_before_the_spike) {
  /* The wobble take (70 km/h) started in second gear below the rider's downshift point and
   * shifted to first at 0.4 s, before its 2 s spike. */
  char path[512], msg[512] = "";
  CHECK(shipped_until("wobble", "duration = 6", 1.99, path, sizeof path) == 0);
  chan_range ch[] = {{"speed", 0, 0, 0}, {"gear", 0, 0, 0}};
  CHECK_MSG(ride_and_measure(path, ch, 2, msg, sizeof msg) == 0, "%s", msg);
  CHECK_MSG(ch[1].lo == ch[1].hi, "gear %g..%g", ch[1].lo, ch[1].hi);
  CHECK_MSG(ch[0].hi - ch[0].lo < 0.1, "speed %.3f..%.3f m/s", ch[0].lo, ch[0].hi);
}

MT_TEST(trim_skidpad50_at_the_limit_starts_clean) {
  /* 24 m/s on the 50 m skidpad (58° of lean with the rider neutral, near the most this machine
   * can hold; about 54° with the rider hung off as the posture module starts it) starts from
   * its trim and rides on; 28 m/s has no steady turn and says so instead of blowing up. */
  char path[512], msg[512] = "";
  snprintf(path, sizeof path, "%s/skid24.lua", mt_test_tmpdir());
  CHECK(write_file(path, "return { rig = \"sport1000\", track = \"skidpad50\", duration = 1,\n"
                         "  start = { station = 10, speed = 24 }, rider = { line = \"centre\", speed = 24 } }\n") == 0);
  chan_range ch[] = {{"lean", 0, 0, 0}, {"speed", 0, 0, 0}, {"front_slip_angle", 0, 0, 0}};
  CHECK_MSG(ride_and_measure(path, ch, 3, msg, sizeof msg) == 0, "%s", msg);
  CHECK_MSG(ch[0].first < -52 && fabs(ch[2].first) < 3, "started at %.2f deg of lean, front slip %.2f deg", ch[0].first,
            ch[2].first);
  CHECK_MSG(ch[1].hi - ch[1].lo < 1.0, "speed %.3f..%.3f m/s", ch[1].lo, ch[1].hi);
  snprintf(path, sizeof path, "%s/skid28.lua", mt_test_tmpdir());
  CHECK(write_file(path, "return { rig = \"sport1000\", track = \"skidpad50\", duration = 1,\n"
                         "  start = { station = 10, speed = 28 }, rider = { line = \"centre\", speed = 28 } }\n") == 0);
  run_opts o = {.script = path, .quiet = 1};
  run_result res;
  mt_err e = {0};
  int rc = run_take(&o, &res, &e);
  CHECK_MSG(rc == MT_EINPUT && strstr(e.msg, "no steady turn at 28.00 m/s on a 50.0 m radius"), "rc %d: %s", rc, e.msg);
}

MT_TEST(trim_chatter_take_starts_from_the_upright_branch) {
  /* The chatter take (60 m/s on the 400 m sweeper, ~53° of lean) started from a spurious trim
   * with a 23.5° front slip angle on main. */
  char path[512], msg[512] = "";
  CHECK(shipped_until("chatter", "duration = 5", 0.05, path, sizeof path) == 0);
  chan_range ch[] = {{"lean", 0, 0, 0}, {"front_slip_angle", 0, 0, 0}, {"rear_slip_angle", 0, 0, 0}};
  CHECK_MSG(ride_and_measure(path, ch, 3, msg, sizeof msg) == 0, "%s", msg);
  CHECK_MSG(ch[0].first < -50 && ch[0].first > -56, "started at %.2f deg of lean", ch[0].first);
  CHECK_MSG(fabs(ch[1].first) < 3 && fabs(ch[2].first) < 3, "slip angles at the start: front %.2f, rear %.2f deg",
            ch[1].first, ch[2].first);
}
