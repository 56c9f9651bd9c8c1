/* test_lapsim.c — the QSS lap simulation (sim/lapsim.h) against closed forms: a circle at the
 * lateral limit, a straight's power-limited top speed, acceleration at the wheelie limit and
 * braking at the stoppie limit, and the sport1000's own limits from its rig. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/lapsim.h"
#include "sim/rig.h"
#include "sim/trim.h"
#include "sim/vehicle.h"
#include "tests/unit/test.h"

/* A plain machine: no lift, no rotating mass, every limit far away unless a test sets it. */
static void plain(lapsim_machine* m) {
  memset(m, 0, sizeof *m);
  m->mass = 250;
  m->b = 0.65, m->p = 1.4, m->h = 0.55;
  m->mu_y = 1.2, m->mu_x = 1.3;
  m->a_wheelie = m->a_stoppie = 1e3;
  m->v_rev = 1e3;
  for (int j = 0; j < LAPSIM_NV; j++) m->f_drive[j] = 1e7;
}

enum { NS = 20000 };
static double K[NS], V[NS];

/* A closed circle of radius R at the lateral limit: every sample at √(μy·g·R), the lap 2πR / v. */
MT_TEST(lapsim_circle_closed_form) {
  lapsim_machine m;
  plain(&m);
  double R = 50, L = 2 * M_PI * R;
  int n = 1000;
  for (int i = 0; i < n; i++) K[i] = 1 / R;
  lapsim_line ln = {n, 1, L / n, K, NULL, NULL, NULL};
  lapsim_result res;
  CHECK(lapsim_run(&m, &ln, 1, V, &res) == MT_OK);
  double v = sqrt(m.mu_y * MT_G * R);
  CHECK_REL(res.time, L / v, 1e-9);
  CHECK_REL(res.ay_peak, m.mu_y * MT_G, 1e-9);
  /* at 80 % grip, the speed by √0.8 */
  CHECK(lapsim_run(&m, &ln, 0.8, V, &res) == MT_OK);
  CHECK_REL(res.time, L / (v * sqrt(0.8)), 1e-9);
}

/* A line off the centre line is timed along its own length (lapsim_line.dl): a road whose centre
 * is a circle of 50 m, ridden on a circle of 55 m (5 m wide of the centre, the same 1000
 * centre-line samples): the lap is 2π·55 m at √(μy·g·55), not 2π·50 m at that speed. */
static double DL[NS];
MT_TEST(lapsim_timed_along_the_line_not_the_centre) {
  lapsim_machine m;
  plain(&m);
  double Rc = 50, Rl = 55;
  int n = 1000;
  for (int i = 0; i < n; i++) K[i] = 1 / Rl, DL[i] = 2 * M_PI * Rl / n;
  lapsim_line ln = {n, 1, 2 * M_PI * Rc / n, K, NULL, NULL, DL};
  lapsim_result res;
  CHECK(lapsim_run(&m, &ln, 1, V, &res) == MT_OK);
  double v = sqrt(m.mu_y * MT_G * Rl);
  CHECK_REL(res.time, 2 * M_PI * Rl / v, 1e-9);
}

/* A long straight at constant power P: the top speed where P = drag force · v, v = (P/(m·c))^⅓. */
MT_TEST(lapsim_straight_power_limited_top_speed) {
  lapsim_machine m;
  plain(&m);
  double P = 100e3;
  m.drag = 0.5 * 1.2 * 0.3 / m.mass;
  for (int j = 0; j < LAPSIM_NV; j++) m.f_drive[j] = P / fmax(LAPSIM_VMAX * j / (LAPSIM_NV - 1), 1);
  int n = NS;
  for (int i = 0; i < n; i++) K[i] = 0;
  K[0] = 1;   /* a standing start: the first sample's cornering limit is √(μy·g·1 m) */
  lapsim_line ln = {n, 0, 2.0, K, NULL, NULL, NULL};
  lapsim_result res;
  CHECK(lapsim_run(&m, &ln, 1, V, &res) == MT_OK);
  double vt = cbrt(P / (m.mass * m.drag));
  CHECK(res.v_max <= vt * (1 + 1e-6));      /* approached from below, never passed */
  CHECK_REL(res.v_max, vt, 2e-3);           /* 40 km of straight: within 0.2 % */
}

/* Acceleration at the wheelie limit out of a hairpin: v² = v0² + 2·a_w·(s − ds); braking at the
 * stoppie limit into one: v² = v_end² + 2·a_s·(L − ds − s) (the tyres could do more: μx·g above
 * both). The hairpins are one sample each, ridden at the lateral limit, where the friction
 * ellipse leaves no longitudinal grip: hence the one sample's step without a change of speed. */
MT_TEST(lapsim_wheelie_and_stoppie_limits) {
  lapsim_machine m;
  plain(&m);
  m.mu_x = 3;
  m.a_wheelie = 0.9 * MT_G;
  m.a_stoppie = 1.1 * MT_G;
  int n = 501;
  double ds = 1.0, Rh = 1.0;
  for (int i = 0; i < n; i++) K[i] = 0;
  K[0] = K[n - 1] = 1 / Rh;
  lapsim_line ln = {n, 0, ds, K, NULL, NULL, NULL};
  lapsim_result res;
  CHECK(lapsim_run(&m, &ln, 1, V, &res) == MT_OK);
  double v0 = sqrt(m.mu_y * MT_G * Rh);
  double s1 = 100, s2 = 400;   /* on the way up, on the way down (the peak is near the middle) */
  CHECK_REL(V[(int)s1], sqrt(v0 * v0 + 2 * m.a_wheelie * (s1 - ds)), 1e-9);
  CHECK_REL(V[(int)s2], sqrt(v0 * v0 + 2 * m.a_stoppie * ((n - 2) * ds - s2)), 1e-9);
  CHECK_REL(res.brake_peak, m.a_stoppie, 1e-9);
  CHECK_REL(res.drive_peak, m.a_wheelie, 1e-9);
}

/* The sport1000's machine from its rig: the wheelie and stoppie limits from rig_total_mass's
 * CoM and the wheel centres, the lean limit from the crown geometry, the top speed's gear. */
MT_TEST(lapsim_sport1000_machine) {
  rig* r = mt_test_load_sport();
  CHECK(r != NULL);
  lapsim_machine* m = malloc(sizeof *m);
  lapsim_machine_from_rig(r, m);
  double com[3];
  double mass = rig_total_mass(r, com), p = r->wheel[RIG_FRONT].centre[0] - r->wheel[RIG_REAR].centre[0];
  CHECK_REL(m->mass, mass, 1e-12);
  CHECK_REL(m->a_wheelie, MT_G * (com[0] - r->wheel[RIG_REAR].centre[0]) / com[2], 1e-12);
  CHECK_REL(m->a_stoppie, MT_G * (p - com[0] + r->wheel[RIG_REAR].centre[0]) / com[2], 1e-12);
  /* the engine's force falls to nothing past the top gear's rev limit, and is positive below */
  CHECK(m->f_drive[LAPSIM_NV / 2] > 0);
  CHECK(m->v_rev > 50 && m->v_rev < LAPSIM_VMAX);
  /* the crown: a tyre of no crown leans atan(a_y/g); a crowned one leans further */
  CHECK_NEAR(lapsim_lean(MT_G, m->h, 0), M_PI / 4, 1e-12);
  CHECK(lapsim_lean(MT_G, m->h, m->crown) > M_PI / 4 + 0.01);
  free(m);
  rig_free(r);
}

/* Each wheel on its own load: upright, the front alone brakes at d = μx·g·b/(p − μx·h) (its load
 * grows with d); in a turn at half the lateral limit, with grip to spare along, the rear's lateral
 * share on what braking leaves it caps braking at ((p − b)/h)·(g − a_y/μy), and the front's
 * under drive caps drive at (b/h)·(g − a_y/μy). */
MT_TEST(lapsim_per_wheel_limits) {
  lapsim_machine m;
  plain(&m);
  double drive, brake, a = m.p - m.b;
  m.mu_x = 1.0;
  lapsim_long_limits(&m, 0, 1, 1, &drive, &brake);
  CHECK_REL(brake, m.mu_x * MT_G * m.b / (m.p - m.mu_x * m.h), 1e-12);
  CHECK_REL(drive, m.mu_x * MT_G * a / (m.p - m.mu_x * m.h), 1e-12);   /* the rear alone drives */
  m.mu_x = 3;
  double ay = 0.5 * m.mu_y * MT_G;
  lapsim_long_limits(&m, ay, 1, 1, &drive, &brake);
  CHECK_REL(brake, a / m.h * (MT_G - ay / m.mu_y), 1e-12);
  CHECK_REL(drive, m.b / m.h * (MT_G - ay / m.mu_y), 1e-12);
  /* at the lateral limit neither wheel has anything left for the other way */
  lapsim_long_limits(&m, m.mu_y * MT_G, 1, 1, &drive, &brake);
  CHECK_NEAR(brake, 0, 1e-9);
  CHECK_NEAR(drive, 0, 1e-9);
}

/* The machine's own cornering limit (lapsim_machine_turns): a friction that falls with speed,
 * μ(v) = μ0 − c·(v − V0) on the turn grid, on a closed circle of radius R with no lift: the
 * speed solves v²/R = μ(v)·g, v = (−c·g·R + √((c·g·R)² + 4·g·R·(μ0 + c·V0)))/2. Where the turn
 * holds more than the tyres' peak, the peak rules (the point mass's lap, unchanged). */
MT_TEST(lapsim_circle_within_the_machines_steady_turn) {
  lapsim_machine m;
  plain(&m);
  double mu0 = 1.1, c = 0.005, R = 100, L = 2 * M_PI * R;
  m.nturn = LAPSIM_NT;
  for (int k = 0; k < LAPSIM_NT; k++) {
    m.mu_turn[k] = mu0 - c * k * LAPSIM_TURN_DV;
    m.turn_tyre[k] = TRIM_FOLD_REAR;
  }
  int n = 1000;
  for (int i = 0; i < n; i++) K[i] = 1 / R;
  lapsim_line ln = {n, 1, L / n, K, NULL, NULL, NULL};
  lapsim_result res;
  CHECK(lapsim_run(&m, &ln, 1, V, &res) == MT_OK);
  double gR = MT_G * R, v = (-c * gR + sqrt(c * gR * c * gR + 4 * gR * (mu0 + c * LAPSIM_TURN_V0))) / 2;
  CHECK(v > LAPSIM_TURN_V0 && v < LAPSIM_TURN_V0 + (LAPSIM_NT - 1) * LAPSIM_TURN_DV);   /* on the grid */
  CHECK_REL(res.time, L / v, 1e-9);
  for (int k = 0; k < LAPSIM_NT; k++) m.mu_turn[k] = 1.5;   /* above μy 1.2: the tyres' peak rules */
  CHECK(lapsim_run(&m, &ln, 1, V, &res) == MT_OK);
  CHECK_REL(res.time, L / sqrt(m.mu_y * MT_G * R), 1e-9);
}

/* The sport1000's steady turn against the point mass: at every speed of the grid (36-252 km/h)
 * the continuation ends at a fold of the rear tyre, holding less than μy·g·(1 − v²·lift/g) (the
 * tyre's peak is over all cambers; at the fold's 56-59 deg the rear also carries the drive against
 * the air) but more than 80 % of it, and less the faster from 15 m/s (the air's lift and drag). The
 * fold's a_y is a steady turn's: one 0.3 deg short of the fold trims, within 2 % below it. */
MT_TEST(lapsim_sport1000_steady_turn_limit) {
  rig* r = mt_test_load_sport();
  CHECK(r != NULL);
  lapsim_machine* m = malloc(sizeof *m);
  lapsim_machine_from_rig(r, m);
  mt_err e = {0};
  CHECK(lapsim_machine_turns(r, m, &e) == MT_OK);
  CHECK(m->nturn == LAPSIM_NT);
  for (int k = 0; k < LAPSIM_NT; k++) {
    double Vk = LAPSIM_TURN_V0 + k * LAPSIM_TURN_DV, pm = m->mu_y * MT_G * (1 - Vk * Vk * m->lift / MT_G);
    CHECK_MSG(m->turn_ay[k] > 0 && m->turn_tyre[k] == TRIM_FOLD_REAR, "%.0f m/s: a_y %g, tyre %d", Vk, m->turn_ay[k],
              m->turn_tyre[k]);
    CHECK_MSG(m->turn_ay[k] < pm && m->turn_ay[k] > 0.8 * pm, "%.0f m/s: the turn holds %.3f g, the point mass %.3f g", Vk,
              m->turn_ay[k] / MT_G, pm / MT_G);
    if (Vk > 15) CHECK_MSG(m->turn_ay[k] < m->turn_ay[k - 1], "%.0f m/s: %.3f g, not below %.3f g", Vk, m->turn_ay[k] / MT_G,
                           m->turn_ay[k - 1] / MT_G);
  }
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  CHECK(v != NULL);
  double roll = 0;
  CHECK(trim_lean_fold(v, 25, &roll) == TRIM_FOLD_REAR);
  trim_spec ts = {0};
  ts.speed = 25, ts.fix_roll = 1, ts.roll = roll - 0.3 * M_PI / 180, ts.gear = -1;
  trim_result tr;
  CHECK(trim_solve(v, &ts, &tr, &e) == MT_OK);
  double ay = 25 * fabs(tr.yaw_rate), fold_ay = m->turn_ay[3];   /* the grid's 25 m/s */
  CHECK_MSG(ay < fold_ay && ay > 0.98 * fold_ay, "0.3 deg short of the fold: %.4f g, the fold %.4f g", ay / MT_G, fold_ay / MT_G);
  veh_free(v);
  free(m);
  rig_free(r);
}

/* With the machine's own cornering limit the tyre that saturates in its steady turn has the
 * turn's friction across, the other the tyres' peak: the rear (the sport1000's fold) at the
 * turn's limit μt·g, unloaded by braking, leaves nothing to brake with (the point mass, μy
 * across, still brakes there). At half of μt·g the rear's lateral share caps braking at
 * ((p − b)/h)·(g − a_y/μt) and the front's caps drive at (b/h)·(g − a_y/μy); were the front the
 * saturating one, the two swap. */
MT_TEST(lapsim_saturating_tyre_takes_the_turns_friction) {
  lapsim_machine m;
  plain(&m);
  m.mu_x = 3;
  double mut = 1.0, drive, brake, a = m.p - m.b;
  m.nturn = LAPSIM_NT;
  for (int k = 0; k < LAPSIM_NT; k++) m.mu_turn[k] = mut, m.turn_tyre[k] = TRIM_FOLD_REAR;
  lapsim_long_limits_at(&m, 30, mut * MT_G, 1, 1, &drive, &brake);
  CHECK_NEAR(brake, 0, 1e-9);
  lapsim_long_limits(&m, mut * MT_G, 1, 1, &drive, &brake);
  CHECK(brake > 0.1 * MT_G);
  double ay = 0.5 * mut * MT_G;
  lapsim_long_limits_at(&m, 30, ay, 1, 1, &drive, &brake);
  CHECK_REL(brake, a / m.h * (MT_G - ay / mut), 1e-12);
  CHECK_REL(drive, m.b / m.h * (MT_G - ay / m.mu_y), 1e-12);
  for (int k = 0; k < LAPSIM_NT; k++) m.turn_tyre[k] = TRIM_FOLD_FRONT;
  lapsim_long_limits_at(&m, 30, ay, 1, 1, &drive, &brake);
  CHECK_REL(brake, a / m.h * (MT_G - ay / m.mu_y), 1e-12);
  CHECK_REL(drive, m.b / m.h * (MT_G - ay / mut), 1e-12);
  double d2, b2;
  lapsim_long_limits(&m, ay, 1, 1, &d2, &b2);
  for (int k = 0; k < LAPSIM_NT; k++) m.mu_turn[k] = 1.5;   /* a turn above the tyres' peak: the peak */
  lapsim_long_limits_at(&m, 30, ay, 1, 1, &drive, &brake);
  CHECK(drive == d2 && brake == b2);
  m.nturn = 0;   /* no turn table: the point mass's, as lapsim_long_limits */
  lapsim_long_limits_at(&m, 30, ay, 1, 1, &drive, &brake);
  CHECK(drive == d2 && brake == b2);
}
