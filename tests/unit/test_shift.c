/* test_shift.c — gear changes (sim/shift.c) and their measures (takes/shiftrep.c): the band-pass
 * against a direct DFT and a synthetic signal, the over-rev guard, and shifts ridden on the
 * straight and leaned on the sweeper, each measured from the recorded take. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/vehicle_mj.h"
#include "sim/engine.h"
#include "sim/rig.h"
#include "sim/rider.h"
#include "sim/shift.h"
#include "sim/trim.h"
#include "takes/run.h"
#include "takes/shiftrep.h"
#include "tests/unit/test.h"

MT_TEST(shift_band_pass_keeps_only_the_band_any_length) {
  /* 12 s at 1 kHz (n = 12000, not a power of two): 2 Hz + 8 Hz + 20 Hz sines, all on FFT bins.
   * The 6-12 Hz band-pass must return the 8 Hz sine alone, to rounding. */
  long n = 12000;
  double dt = 0.001;
  double* x = malloc(sizeof(double) * n * 2);
  double* y = x + n;
  for (long i = 0; i < n; i++) {
    double t = i * dt;
    x[i] = 3 + 2 * sin(2 * MT_PI * 2 * t) + 0.7 * sin(2 * MT_PI * 8 * t + 0.3) + 1.5 * cos(2 * MT_PI * 20 * t);
  }
  band_pass(x, n, dt, 6, 12, y);
  double err = 0;
  for (long i = 0; i < n; i++) err = fmax(err, fabs(y[i] - 0.7 * sin(2 * MT_PI * 8 * i * dt + 0.3)));
  /* window RMS of a sine of amplitude A over whole periods is A/√2 */
  double rms[64];
  long st[64];
  long k = band_windows(y, n, dt, rms, st);
  free(x);
  CHECK_MSG(err < 1e-9, "band-passed signal differs from the 8 Hz sine by %.3g", err);
  CHECK_MSG(k == 22, "%ld windows of 1 s every 0.5 s in 12 s, wanted 22", k);
  CHECK_MSG(fabs(rms[5] - 0.7 / sqrt(2)) < 1e-9, "window RMS %.12f, wanted %.12f", rms[5], 0.7 / sqrt(2));
}

MT_TEST(shift_band_pass_of_a_prime_length_matches_a_direct_dft) {
  /* n = 997 (prime: the chirp-z path), dt 0.01: filter by a direct O(n²) DFT and compare. */
  long n = 997;
  double dt = 0.01, lo = 6, hi = 12;
  double* x = malloc(sizeof(double) * n * 4);
  double *y = x + n, *re = y + n, *im = re + n;
  unsigned s = 12345;
  double mean = 0;
  for (long i = 0; i < n; i++) {
    s = s * 1103515245u + 12345u;
    x[i] = (double)(s >> 8) / (1u << 24) - 0.5;
    mean += x[i] / n;
  }
  for (long k = 0; k < n; k++) {
    re[k] = im[k] = 0;
    for (long j = 0; j < n; j++) {
      double a = -2 * MT_PI * (double)((long long)j * k % n) / n;
      re[k] += (x[j] - mean) * cos(a);
      im[k] += (x[j] - mean) * sin(a);
    }
    double f = (k <= n / 2 ? k : n - k) / (n * dt);
    if (f < lo || f > hi) re[k] = im[k] = 0;
  }
  band_pass(x, n, dt, lo, hi, y);
  double err = 0, big = 0;
  for (long j = 0; j < n; j++) {
    double v = 0;
    for (long k = 0; k < n; k++) {
      double a = 2 * MT_PI * (double)((long long)j * k % n) / n;
      v += re[k] * cos(a) - im[k] * sin(a);
    }
    v /= n;
    err = fmax(err, fabs(v - y[j]));
    big = fmax(big, fabs(v));
  }
  free(x);
  CHECK_MSG(big > 0.01, "the band holds almost nothing (%.3g): the test signal is wrong", big);
  CHECK_MSG(err < 1e-10, "FFT band-pass differs from the direct DFT by %.3g", err);
}

/* The sport1000 at rest on no road, for the shift rules alone (NULL if it cannot be built). */
static vehicle* sport_at_rest(rig** r) {
  mt_err e = {0};
  *r = mt_test_load_sport();
  return *r ? veh_new(*r, (road){0}, 0, &e) : NULL;
}

MT_TEST(shift_downshift_that_would_over_rev_is_refused) {
  rig* r;
  vehicle* v = sport_at_rest(&r);
  CHECK(v);
  shift_params p;
  shift_default_params(&p);
  shift_state s;
  memset(&s, 0, sizeof s);
  v->in.gear = 2;
  /* 2->1 multiplies the engine speed by 10.248/8.208 = 1.2485: from 11 000 rpm that is 13 734 */
  v->out.engine_rpm = 11000;
  int ok1 = shift_request(&p, &s, v, 1);
  int gear1 = v->in.gear, blocked = s.blocked;
  v->out.engine_rpm = 9000;   /* 11 237 rpm after: allowed */
  int ok2 = shift_request(&p, &s, v, 1);
  double target = s.target_rpm;
  int gear2 = v->in.gear;
  veh_free(v);
  rig_free(r);
  CHECK_MSG(!ok1 && gear1 == 2 && blocked == 1, "11000 rpm 2->1: started %d, gear %d, blocked %d", ok1, gear1, blocked);
  CHECK_MSG(ok2 && gear2 == 1, "9000 rpm 2->1: started %d, gear %d", ok2, gear2);
  CHECK_MSG(fabs(target - 9000 * 10.248 / 8.208) < 5, "rev-match target %.1f rpm, wanted %.1f", target, 9000 * 10.248 / 8.208);
}

/* The rider's rule with a short shift when leaned (the race profile's, takes/run.c): upright the
 * upshift waits for up_rpm, leaned past short_lean it comes at up_rpm_leaned; either side of the
 * lean, and the lean's sign does not matter; short_lean 0 is up_rpm at any lean. */
MT_TEST(shift_auto_shifts_short_only_leaned_past_short_lean) {
  rig* r;
  vehicle* v = sport_at_rest(&r);
  CHECK(v);
  shift_params p;
  shift_default_params(&p);
  p.up_rpm = 13500;
  p.up_rpm_leaned = 13300;
  p.short_lean = 7.5 * MT_PI / 180;
  double lean[5] = {0, 7 * MT_PI / 180, 8 * MT_PI / 180, -8 * MT_PI / 180, 8 * MT_PI / 180};
  double rpm[5] = {13400, 13400, 13400, 13400, 13250};
  int want[5] = {3, 3, 4, 4, 3};
  int got[6];
  for (int k = 0; k < 6; k++) {
    shift_state s;
    memset(&s, 0, sizeof s);
    s.since = 10;
    v->in.gear = 3;
    v->out.engine_rpm = k < 5 ? rpm[k] : 13400;
    if (k == 5) p.short_lean = 0;   /* off: 13 400 rpm at 8 deg waits for 13 500 */
    shift_auto(&p, &s, v, 1, k < 5 ? lean[k] : 8 * MT_PI / 180);
    got[k] = v->in.gear;
  }
  veh_free(v);
  rig_free(r);
  for (int k = 0; k < 5; k++)
    CHECK_MSG(got[k] == want[k], "3rd at %.0f rpm and %.1f deg of lean: gear %d after, wanted %d", rpm[k], lean[k] * 180 / MT_PI,
              got[k], want[k]);
  CHECK_MSG(got[5] == 3, "short_lean 0, 13400 rpm at 8 deg: gear %d after, wanted 3", got[5]);
}

/* Ride a script into a take in the scratch folder and measure its gear changes. */
static int ride_and_measure(const char* script, const char* name, shift_event* ev, int max, mt_err* e) {
  char out[4096];
  snprintf(out, sizeof out, "%s/%s.take", mt_test_tmpdir(), name);
  run_opts o = {0};
  o.script = script;
  o.out = out;
  o.quiet = 1;
  run_result res;
  if (run_take(&o, &res, e)) return -1;
  take_reader* r = take_open(out, e);
  if (!r) return -1;
  int n = shiftrep_take(r, ev, max, 1, e);
  take_close(r);
  return n;
}

MT_TEST(shift_straight_up_1_to_4_and_down_4_to_1_keeps_wheels_down_and_tyres_gripping) {
  /* takes/shifts.lua. On the old locked-clutch instant shifts every upshift lifted the front
   * wheel (0 N) with a 0.7-1.2 g jump in ax and 9.7-13.3 kN of chain force; every downshift
   * locked the rear toward slip -0.09 .. -0.17 with 11-16.6 kN, and no downshift rev-matched. */
  char script[4096];
  snprintf(script, sizeof script, "%s/takes/shifts.lua", mt_test_root());
  shift_event ev[32];
  mt_err e = {0};
  int n = ride_and_measure(script, "shifts", ev, 32, &e);
  CHECK_MSG(n >= 0, "%s", e.msg);
  const int want[6][2] = {{1, 2}, {2, 3}, {3, 4}, {4, 3}, {3, 2}, {2, 1}};
  CHECK_MSG(n == 6, "%d gear changes, wanted 6", n);
  for (int i = 0; i < n; i++) {
    const shift_event* x = &ev[i];
    CHECK_MSG(x->from == want[i][0] && x->to == want[i][1], "shift %d: %d->%d", i, x->from, x->to);
    CHECK_MSG(x->front_load_min > 100, "%.3f s %d->%d: front load fell to %.0f N", x->t, x->from, x->to, x->front_load_min);
    CHECK_MSG(x->rear_slip_min > -0.05, "%.3f s %d->%d: rear slip ratio %.3f", x->t, x->from, x->to, x->rear_slip_min);
    CHECK_MSG(x->chain_max < 6000, "%.3f s %d->%d: chain force %.0f N", x->t, x->from, x->to, x->chain_max);
    CHECK_MSG(x->ax_jump < 0.3, "%.3f s %d->%d: ax jumps %.2f g within 50 ms", x->t, x->from, x->to, x->ax_jump);
    /* the engine never goes past its revs before the shift or the rev-match target */
    CHECK_MSG(x->rpm_max < fmax(x->rpm_before, x->target_rpm) + 100, "%.3f s %d->%d: %.0f rpm (before %.0f, target %.0f)", x->t,
              x->from, x->to, x->rpm_max, x->rpm_before, x->target_rpm);
    /* the choreography ends with the engine at the new gear's speed */
    CHECK_MSG(fabs(x->rpm_end - x->match_end) < 150, "%.3f s %d->%d: ends at %.0f rpm, the gear asks %.0f", x->t, x->from, x->to,
              x->rpm_end, x->match_end);
    if (x->to > x->from) {
      /* quickshifter: at least the table's 50-80 ms cut, at most cut_max (0.3 s) */
      CHECK_MSG(x->duration >= 0.05 && x->duration <= 0.34, "%.3f s upshift lasted %.0f ms", x->t, 1000 * x->duration);
    } else {
      /* blipper: the revs reach the target (rpm x new/old ratio, less what the braking took
       * during the blip) within its 150 ms timeout plus the 60 ms engagement */
      CHECK_MSG(x->rpm_end > 0.96 * x->target_rpm && x->rpm_end < 1.01 * x->target_rpm, "%.3f s blip reached %.0f rpm of %.0f",
                x->t, x->rpm_end, x->target_rpm);
      CHECK_MSG(x->duration <= 0.21, "%.3f s downshift lasted %.0f ms", x->t, 1000 * x->duration);
    }
  }
}

MT_TEST(shift_leaned_on_the_sweeper_does_not_excite_the_wobble_band) {
  /* tests/data/shifts_sweeper.lua: 1->2->3 accelerating (14.5 and 22.1 deg of lean), 3->2->1 slowing (12.9 and 6.8 deg).
   * The old instant shifts raised the 6-12 Hz steer RMS from 0.14 to 1.00 deg in the 0.5 s
   * after each upshift. */
  char script[4096];
  snprintf(script, sizeof script, "%s/tests/data/shifts_sweeper.lua", mt_test_root());
  shift_event ev[32];
  mt_err e = {0};
  int n = ride_and_measure(script, "sweeper", ev, 32, &e);
  CHECK_MSG(n >= 0, "%s", e.msg);
  CHECK_MSG(n == 4, "%d gear changes, wanted 4 (1->2->3->2->1)", n);
  for (int i = 0; i < n; i++) {
    const shift_event* x = &ev[i];
    CHECK_MSG(x->band_after < x->band_before + 0.05, "%.3f s %d->%d: 6-12 Hz steer RMS %.3f deg before, %.3f after", x->t, x->from,
              x->to, x->band_before, x->band_after);
    CHECK_MSG(x->front_load_min > 100 && x->rear_slip_min > -0.05, "%.3f s %d->%d: front %.0f N, rear slip %.3f", x->t, x->from,
              x->to, x->front_load_min, x->rear_slip_min);
  }
}

MT_TEST(shift_ignition_cut_removes_combustion_torque_only) {
  /* At 9500 rpm and full throttle the engine gives 117.49 N·m; cutting the ignition must leave
   * exactly the losses: −(pumping + friction) of the same operating point (engine_eval). */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  CHECK(v);
  veh_place(v, 0, 0, 0, 0, 0, 30);
  double w = 9500 * MT_PI / 30;
  v->d->qvel[v->crank_d] = w;
  v->in.throttle = 1;
  v->in.gear = 3;
  veh_forward(v);
  double t_on = v->out.engine_torque;
  v->in.ignition_cut = 1;
  veh_forward(v);
  double t_off = v->out.engine_torque;
  v->in.ignition_cut = 0.5;
  veh_forward(v);
  double t_half = v->out.engine_torque;
  engine_out eo;
  engine_eval(&r->engine, w, 1, &eo);
  veh_free(v);
  rig_free(r);
  CHECK_MSG(fabs(t_on - eo.torque_brake) < 1e-9 && fabs(t_on - 117.494) < 0.01, "firing: %.4f N·m, engine_eval %.4f", t_on,
            eo.torque_brake);
  CHECK_MSG(fabs(t_off + eo.torque_pumping + eo.torque_friction) < 1e-9, "cut: %.4f N·m, wanted −(%.4f + %.4f)", t_off,
            eo.torque_pumping, eo.torque_friction);
  CHECK_MSG(fabs(t_half - (eo.torque_brake - 0.5 * eo.torque_indicated)) < 1e-9, "half cut: %.4f N·m", t_half);
}

typedef struct slipper_run {
  rider_params p;
  rider_state s;
  rider_target t;
  long step, slip_steps;
  double max_tc, min_rear_slip;
} slipper_run;

static void slipper_control(vehicle* v, void* data) {
  slipper_run* k = data;
  if (k->step == 500) shift_request(&k->p.shift, &k->s.shift, v, v->in.gear - 1);
  rider_control(&k->p, &k->s, v, &k->t, v->rig->timestep);
  if (k->s.shift.phase == SHIFT_DOWN_SLIP) {
    k->slip_steps++;
    k->max_tc = fmax(k->max_tc, fabs(v->out.clutch_torque));
  }
  if (k->step > 500) k->min_rear_slip = fmin(k->min_rear_slip, v->out.wheel[RIG_REAR].kappa_r);
  k->step++;
}

MT_TEST(shift_unblipped_downshift_slips_at_the_back_torque_limit) {
  /* 2->1 at 20 m/s on the flat with no blip (blip_throttle 0): the engine must be pulled up
   * from about 5000 to 6250 rpm by the clutch alone. The slipper caps that at back_torque
   * (20 N·m at the crank) until the speeds meet; an instant locked shift pulled with up to the
   * clutch's 180 N·m and locked the rear toward slip -0.17. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  CHECK(v);
  trim_spec ts = {0};
  ts.speed = 20;
  ts.fix_roll = 1;
  ts.gear = 2;
  trim_result tr;
  CHECK_MSG(trim_solve(v, &ts, &tr, &e) == MT_OK, "%s", e.msg);
  slipper_run k;
  memset(&k, 0, sizeof k);
  rider_default_params(&k.p);
  k.p.shift.blip_throttle = 0;
  k.s.steer_int = tr.steer_torque;
  k.t.speed = 20;
  k.t.roll_mode = 1;
  v->control = slipper_control;
  v->control_data = &k;
  double rpm0 = 0;
  for (int i = 0; i < 2000; i++) {
    if (i == 500) rpm0 = v->out.engine_rpm;
    CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
  }
  double rpm = v->out.engine_rpm, match = shift_gear_rpm(v, 1);
  int gear = v->in.gear, phase = k.s.shift.phase;
  veh_free(v);
  rig_free(r);
  CHECK_MSG(gear == 1 && phase == SHIFT_IDLE, "gear %d, shift phase %d", gear, phase);
  CHECK_MSG(rpm0 > 4500 && rpm0 < 5500, "started at %.0f rpm", rpm0);
  CHECK_MSG(k.slip_steps > 20, "the slipper phase lasted %ld steps", k.slip_steps);
  CHECK_MSG(k.max_tc < 20.5, "clutch torque reached %.1f N·m while slipping", k.max_tc);
  CHECK_MSG(k.min_rear_slip > -0.05, "rear slip ratio %.3f", k.min_rear_slip);
  CHECK_MSG(fabs(rpm - match) < 50, "ends at %.0f rpm, 1st asks %.0f", rpm, match);
}
