/* test_lapsim.c — the QSS lap simulation (sim/lapsim.h) against closed forms: a circle at the
 * lateral limit, a straight's power-limited top speed, acceleration at the wheelie limit and
 * braking at the stoppie limit, and the sport1000's own limits from its rig. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/lapsim.h"
#include "sim/rig.h"
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
