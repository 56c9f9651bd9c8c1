/* test_path.c — the rider's line and speed profile on analytic roads. */
#include <math.h>

#include "takes/path.h"
#include "tests/unit/test.h"

/* A closed circle of radius 100 m, anticlockwise (left turn), half widths 6 m. */
static void circ_centre(const void* self, double s, double* x, double* y, double* h) {
  (void)self;
  double R = 100, a = s / R;
  *x = R * sin(a);
  *y = R * (1 - cos(a));
  *h = a;
}
static void widths6(const void* self, double s, double* l, double* r) {
  (void)self;
  (void)s;
  *l = 6;
  *r = 6;
}
/* A straight 500 m strip. */
static void line_centre(const void* self, double s, double* x, double* y, double* h) {
  (void)self;
  *x = s;
  *y = 0;
  *h = 0;
}

MT_TEST(path_circle_curvature_and_speed) {
  path_road rd = {NULL, 2 * M_PI * 100, 1, circ_centre, widths6, NULL};
  path* p = path_build(&rd, PATH_CENTRE, 0, 1, 2.0);
  CHECK(p);
  for (int i = 0; i < p->n; i += 17) CHECK_REL(p->k[i], 1.0 / 100, 1e-3);
  path_speed_profile(p, 0.9, 5, 8, 80);
  CHECK_REL(path_speed(p, 123.0), sqrt(0.9 * 9.80665 * 100), 2e-3);
  path_free(p);
}

MT_TEST(path_offset_line_and_locate) {
  path_road rd = {NULL, 2 * M_PI * 100, 1, circ_centre, widths6, NULL};
  path* p = path_build(&rd, PATH_OFFSET, 2.0, 0, 2.0);
  /* 2 m left of the centre of a left turn: radius 98 m */
  CHECK_REL(p->k[10], 1.0 / 98, 2e-3);
  int hint = -1;
  path_where w;
  /* a point at station 50 m, 3 m left of the centre line: 1 m left of the offset line */
  double a = 50.0 / 100, R = 100 - 3;
  path_locate(p, R * sin(a), 100 - R * cos(a), &hint, &w);
  CHECK_NEAR(w.offset_error, 1.0, 5e-3);   /* chords of 2 m on a 98 m radius: 5 mm sagitta */
  CHECK_NEAR(w.s * 98.0 / 100.0, 50 * 98.0 / 100.0, 0.5);
  path_free(p);
}

MT_TEST(path_racing_line_hugs_the_outside_of_a_constant_turn) {
  /* On a ring, the least-curvature line is the largest circle: the outer (right) edge. */
  path_road rd = {NULL, 2 * M_PI * 100, 1, circ_centre, widths6, NULL};
  path* p = path_build(&rd, PATH_RACING, 0, 1.0, 2.0);
  for (int i = 0; i < p->n; i += 23) CHECK_NEAR(p->off[i], -5.0, 1e-6);
  path_free(p);
  /* and on a straight it stays straight */
  path_road st = {NULL, 500, 0, line_centre, widths6, NULL};
  p = path_build(&st, PATH_RACING, 0, 1.0, 2.0);
  for (int i = 0; i < p->n; i += 11) CHECK_NEAR(p->k[i], 0, 1e-9);
  path_free(p);
}

MT_TEST(path_speed_profile_respects_braking) {
  /* straight strip ending at the path's end: no curvature, so the profile is the top speed;
   * and a braking limit from a slow point downstream: v² ≤ v_slow² + 2·a·d */
  path_road st = {NULL, 500, 0, line_centre, widths6, NULL};
  path* p = path_build(&st, PATH_CENTRE, 0, 1.0, 1.0);
  path_speed_profile(p, 1.0, 4, 8, 60);
  CHECK_NEAR(path_speed(p, 250), 60, 1e-9);
  p->k[400] = 1.0 / 20;     /* a tight bend at 400 m */
  path_speed_profile(p, 1.0, 4, 8, 60);
  double vs = sqrt(9.80665 * 20);
  CHECK_NEAR(path_speed(p, 400), vs, 1e-9);
  CHECK_NEAR(path_speed(p, 350), sqrt(vs * vs + 2 * 8 * 50), 1e-6);
  CHECK_NEAR(path_speed(p, 420), sqrt(vs * vs + 2 * 4 * 20), 1e-6);
  path_free(p);
}

/* A straight 500 m strip climbing at 5 % (grade dz/ds = 0.05). */
static double grade5(const void* self, double s) {
  (void)self;
  (void)s;
  return 0.05;
}
static double engine_3(const void* self, double v) {
  (void)self;
  return v < 30 ? 3.0 : 90.0 / v;   /* constant force, then constant power */
}

MT_TEST(path_qss_profile_drag_grade_and_engine) {
  /* Forward from a slow bend and backward into another, on a 5 % climb with drag: the profile
   * integrates dv²/ds = 2·(f − c·v² − g·grade) with f the engine (3 m/s² below 30 m/s) and
   * −2·(b + c·v² + g·grade) when braking (b = 6 m/s²); uphill helps the brakes and eats drive.
   * The planned peaks are the tyres' force: drive 3 m/s², braking 6 m/s², no lateral. */
  path_road st = {NULL, 500, 0, line_centre, widths6, grade5};
  path* p = path_build(&st, PATH_CENTRE, 0, 1.0, 1.0);
  p->k[100] = 1.0 / 20;     /* slow bends at 100 m and 450 m */
  p->k[450] = 1.0 / 20;
  double c = 0.5 * 1.2 * 0.3 / 250;
  path_limits lim = {1.0, 1.0, 100, 6, c, 80, engine_3, NULL};
  path_plan plan;
  path_speed_profile_qss(p, &lim, &plan);
  double g = 9.80665, vs = sqrt(g * 20);
  CHECK_NEAR(path_speed(p, 100), vs, 1e-9);
  /* forward Euler on v² over 1 m steps, as the profile does; in the bend itself the friction
   * ellipse leaves its floor, 10 % of μ_x·g */
  double v2 = vs * vs + 2 * (0.1 * g - c * vs * vs - g * 0.05);
  for (int i = 101; i < 160; i++) v2 += 2 * (3.0 - c * v2 - g * 0.05);
  CHECK_NEAR(path_speed(p, 160), sqrt(v2), 1e-9);
  /* backward from the bend at 450 m: braking 6 m/s² plus drag plus the climb */
  v2 = vs * vs + 2 * (0.6 + c * vs * vs + g * 0.05);
  for (int i = 449; i > 420; i--) v2 += 2 * (6.0 + c * v2 + g * 0.05);
  CHECK_NEAR(path_speed(p, 420), sqrt(v2), 1e-9);
  CHECK_NEAR(plan.drive_peak, 3.0, 0.02);
  CHECK_NEAR(plan.brake_peak, 6.0, 0.02);
  CHECK_NEAR(plan.ay_peak, g, 1e-6);
  double drive, brake;
  path_long_limits(p, 250, 20, &drive, &brake);   /* straight: no lateral, the caps */
  CHECK_NEAR(drive, 1.0 * g, 1e-9);
  CHECK_NEAR(brake, 6, 1e-9);
  path_long_limits(p, 100, vs * sqrt(0.6), &drive, &brake);   /* at 60 % of the bend's grip: ellipse 0.8 */
  CHECK_NEAR(brake, 6 * 0.8, 1e-9);
  CHECK_NEAR(path_grade(p, 250), 0.05, 1e-12);
  path_free(p);
}

MT_TEST(path_curvature_mean_is_the_mean_over_the_span) {
  /* a circle's curvature is its own mean; on a strip with a curvature written in, the mean over
   * ±half is the plain mean of the 2·PATH_MEAN_N + 1 samples: a linear ramp's value at
   * the centre, a one-sample spike's share, and the line's own value with half 0 */
  path_road rd = {NULL, 2 * M_PI * 100, 1, circ_centre, widths6, NULL};
  path* p = path_build(&rd, PATH_CENTRE, 0, 1, 2.0);
  CHECK_REL(path_curvature_mean(p, 150.0, 30.0), path_curvature(p, 150.0), 1e-9);
  path_free(p);
  path_road st = {NULL, 500, 0, line_centre, widths6, NULL};
  p = path_build(&st, PATH_CENTRE, 0, 1.0, 1.0);
  for (int i = 0; i < p->n; i++) p->k[i] = 1e-4 * p->s[i];   /* a ramp: 0.01 1/m at 100 m */
  CHECK_NEAR(path_curvature_mean(p, 100.0, 20.0), 0.01, 1e-12);
  CHECK_NEAR(path_curvature_mean(p, 100.0, 0.0), path_curvature(p, 100.0), 1e-15);
  for (int i = 0; i < p->n; i++) p->k[i] = 0;
  p->k[200] = 0.09;   /* a spike at 200 m: the mean over ±4 m (1 m apart) has it once in 9 */
  CHECK_NEAR(path_curvature_mean(p, 200.0, 4.0), 0.01, 1e-12);
  path_free(p);
}
