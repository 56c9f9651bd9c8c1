/* test_drivetrain.c — ratios, the chain's tangent geometry and force, anti-squat, clutch and
 * brakes, and located input errors. */
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/drivetrain.h"
#include "sim/powertrain.h"
#include "tests/unit/test.h"

static double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double norm(const double* a) { return sqrt(dot(a, a)); }
static void cross(const double* a, const double* b, double* c) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static int shipped(drive_params* p) {
  char path[4200];
  snprintf(path, sizeof path, "%s/rigs/engine_gsxr1000.lua", mt_test_root());
  powertrain pt;
  mt_err e = {0};
  if (powertrain_load(path, &pt, &e) || !pt.has_drive) {
    fprintf(stderr, "%s\n", e.msg);
    return -1;
  }
  *p = pt.drive;
  return 0;
}

MT_TEST(drive_gear_ratios_product) {
  drive_params p;
  CHECK(shipped(&p) == 0);
  CHECK(p.ngears == 6);
  /* pitch radius p/(2 sin(π/N)), 5/8" pitch */
  CHECK_REL(p.r_output, 0.015875 / (2 * sin(MT_PI / 17)), 1e-15);
  CHECK_REL(p.r_rear, 0.015875 / (2 * sin(MT_PI / 44)), 1e-15);
  CHECK_NEAR(p.r_output * 1e3, 43.197, 5e-4);
  CHECK_NEAR(p.r_rear * 1e3, 111.264, 5e-4);
  const double box[] = {0, 2.562, 2.052, 1.714, 1.500, 1.360, 1.269};
  for (int g = 1; g <= 6; g++) {
    CHECK_REL(drive_box_ratio(&p, g), 1.553 * box[g], 1e-15);
    CHECK_REL(drive_gear_ratio(&p, g), 1.553 * box[g] * p.r_rear / p.r_output, 1e-15);
  }
  CHECK(drive_gear_ratio(&p, 0) == 0 && drive_gear_ratio(&p, 7) == 0 && drive_gear_ratio(&p, -1) == 0);
  /* the pitch-radius ratio differs from the teeth ratio 44/17 by the polygon effect, < 0.5 % */
  CHECK(fabs(drive_chain_ratio(&p) / (44.0 / 17.0) - 1) < 5e-3);
  /* top gear: 1.553 × 1.269 × 2.5757 */
  CHECK_NEAR(drive_gear_ratio(&p, 6), 5.0760, 1e-3);
}

/* A chain plane that is not a coordinate plane: normal n, centres in the plane through o. */
static void frame(double n[3], double rear[3], double out[3], double L, double ang) {
  double nn[3] = {0.2, 1.0, -0.3}, l = norm(nn);
  for (int i = 0; i < 3; i++) n[i] = nn[i] / l;
  double a[3] = {1, 0, 0}, b[3], c[3];
  cross(n, a, b);                      /* b ⟂ n */
  double lb = norm(b);
  for (int i = 0; i < 3; i++) b[i] /= lb;
  cross(b, n, c);                      /* c ⟂ n, b */
  double o[3] = {0.3, -0.1, 0.5};
  for (int i = 0; i < 3; i++) {
    rear[i] = o[i];
    out[i] = o[i] + L * (cos(ang) * c[i] + sin(ang) * b[i]);
  }
}

MT_TEST(drive_chain_force_from_torque) {
  drive_params p;
  CHECK(shipped(&p) == 0);
  double n[3], rc[3], oc[3];
  frame(n, rc, oc, 0.62, 0.3);
  const double torques[] = {250, -180, 1e-3};
  for (int k = 0; k < 3; k++) {
    double T = torques[k];
    drive_chain_t ch;
    CHECK(drive_chain(&p, oc, rc, n, T, &ch) == 0);
    CHECK(ch.upper == (T > 0));
    CHECK_REL(ch.tension, fabs(T) / p.r_rear, 1e-15);
    CHECK_REL(norm(ch.force_rear), fabs(T) / p.r_rear, 1e-14);
    CHECK_NEAR(norm(ch.dir), 1, 1e-15);
    double a[3], b[3];
    for (int i = 0; i < 3; i++) {
      a[i] = ch.rear_point[i] - rc[i];
      b[i] = ch.out_point[i] - oc[i];
    }
    /* tangent points on the pitch circles, the run perpendicular to both radii */
    CHECK_REL(norm(a), p.r_rear, 1e-14);
    CHECK_REL(norm(b), p.r_output, 1e-14);
    CHECK_NEAR(dot(a, ch.dir) / norm(a), 0, 1e-12);
    CHECK_NEAR(dot(b, ch.dir) / norm(b), 0, 1e-12);
    /* the run joins the two tangent points */
    double run[3];
    for (int i = 0; i < 3; i++) run[i] = ch.out_point[i] - ch.rear_point[i];
    CHECK_NEAR(dot(run, ch.dir), norm(run), 1e-14);
    CHECK_NEAR(dot(run, n), 0, 1e-14);
    /* the torque on the rear sprocket about n is exactly the one asked for */
    double m[3];
    cross(a, ch.force_rear, m);
    CHECK_NEAR(dot(m, n), T, 1e-12 * fabs(T) + 1e-15);
    /* reaction equal and opposite, on the same line: no net moment from the pair */
    for (int i = 0; i < 3; i++) CHECK(ch.force_out[i] == -ch.force_rear[i]);
    double m1[3], m2[3];
    cross(ch.rear_point, ch.force_rear, m1);
    cross(ch.out_point, ch.force_out, m2);
    for (int i = 0; i < 3; i++) CHECK_NEAR(m1[i] + m2[i], 0, 1e-12 * fabs(T) / p.r_rear);
    /* the output sprocket feels −T·r_out/r_rear */
    cross(b, ch.force_out, m);
    CHECK_NEAR(dot(m, n), ch.torque_out, 1e-12 * fabs(T));
    CHECK_REL(ch.torque_out, -T * p.r_output / p.r_rear, 1e-15);
    /* upper run: the tangent points lie on the u×n side of the centre line */
    double u[3], side[3];
    for (int i = 0; i < 3; i++) u[i] = oc[i] - rc[i];
    cross(u, n, side);
    CHECK((dot(a, side) > 0) == (T > 0));
    CHECK((dot(b, side) > 0) == (T > 0));
  }
}

MT_TEST(drive_chain_upright_bike_branches) {
  /* Body frame x forward, y left, z up: drive (+T about +y) is carried by the top run and
   * pulls the rear sprocket forward; engine braking by the bottom run, pulling it forward too
   * but from below, so the torque reverses. */
  drive_params p;
  CHECK(shipped(&p) == 0);
  double y[3] = {0, 1, 0}, rc[3] = {0, 0, 0.297}, oc[3] = {0.615, 0, 0.365};
  drive_chain_t up, lo;
  CHECK(drive_chain(&p, oc, rc, y, 200, &up) == 0 && drive_chain(&p, oc, rc, y, -200, &lo) == 0);
  CHECK(up.upper && !lo.upper);
  CHECK(up.rear_point[2] > rc[2] + 0.9 * p.r_rear && lo.rear_point[2] < rc[2] - 0.9 * p.r_rear);
  CHECK(up.force_rear[0] > 0 && lo.force_rear[0] > 0);
}

MT_TEST(drive_chain_equal_radii_parallel) {
  drive_params p = {0};
  p.r_rear = p.r_output = 0.08;
  double n[3], rc[3], oc[3];
  frame(n, rc, oc, 0.5, 1.1);
  double u[3];
  for (int i = 0; i < 3; i++) u[i] = (oc[i] - rc[i]) / 0.5;
  for (int up = 0; up < 2; up++) {
    drive_chain_t ch;
    CHECK(drive_chain_geometry(&p, oc, rc, n, up, &ch) == 0);
    double c[3];
    cross(ch.dir, u, c);
    CHECK_NEAR(norm(c), 0, 1e-15);
    CHECK_NEAR(ch.length, 0.5, 1e-15);
    CHECK(ch.tension == 0);
  }
  /* unequal radii: the tangent length is √(L² − (R1 − R2)²) */
  p.r_rear = 0.11;
  drive_chain_t ch;
  CHECK(drive_chain_geometry(&p, oc, rc, n, 1, &ch) == 0);
  CHECK_REL(ch.length, sqrt(0.25 - 0.03 * 0.03), 1e-14);
}

MT_TEST(drive_chain_degenerate) {
  drive_params p = {0};
  p.r_rear = 0.11;
  p.r_output = 0.04;
  double y[3] = {0, 1, 0}, z[3] = {0, 0, 0}, a[3] = {0, 0, 0.3}, b[3] = {0.05, 0, 0.3};
  drive_chain_t ch;
  CHECK(drive_chain(&p, b, a, y, 100, &ch) == -1);   /* small circle inside the big one */
  CHECK(drive_chain(&p, a, a, y, 100, &ch) == -1);   /* same centre */
  double far[3] = {0.6, 0, 0.3};
  CHECK(drive_chain(&p, far, a, z, 100, &ch) == -1); /* no plane */
  CHECK(drive_chain(&p, far, a, y, 100, &ch) == 0);
}

MT_TEST(drive_anti_squat_known_geometry) {
  /* Equal sprockets r = 0.05 with centres at the same height 0.3: the upper run is z = 0.35.
   * Swingarm from the axle (0, 0.3) to the pivot (0.5, 0.35) meets it at the pivot itself,
   * so the squat line from the contact (0, 0) has slope 0.35/0.5 = 0.7. With h = 0.6 and
   * wheelbase 1.4: ratio 0.7/(0.6/1.4) = 1.6333… */
  drive_params p = {0};
  p.r_rear = p.r_output = 0.05;
  double c[2] = {0, 0}, ax[2] = {0, 0.3}, pv[2] = {0.5, 0.35}, os[2] = {0.6, 0.3};
  drive_squat sq;
  double r = drive_anti_squat(&p, c, ax, pv, os, 0.6, 1.4, &sq);
  CHECK_NEAR(sq.point[0], 0.5, 1e-14);
  CHECK_NEAR(sq.point[1], 0.35, 1e-14);
  CHECK_NEAR(r, 0.7 / (0.6 / 1.4), 1e-13);
  CHECK_NEAR(sq.angle, atan(0.7), 1e-14);
  CHECK(!sq.parallel);
  /* swingarm parallel to the chain run: C at infinity, squat line parallel to both */
  double pv2[2] = {0.5, 0.3};
  p.r_output = 0.05;
  r = drive_anti_squat(&p, c, ax, pv2, os, 0.6, 1.4, &sq);
  CHECK(sq.parallel);
  CHECK_NEAR(r, 0, 1e-15);
  /* a higher output sprocket tilts the run down to the rear: less anti-squat */
  double hi[2] = {0.6, 0.36};
  CHECK(drive_anti_squat(&p, c, ax, pv, hi, 0.6, 1.4, NULL) < 1.6333);
}

MT_TEST(drive_anti_squat_shipped_pose) {
  /* The shipped sprockets at the SEL 2004 pose (pivot p11, centre of mass 0.545 m with the
   * rider, wheelbase 1.41 m) give the 1.10 quoted in docs/drivetrain.md. */
  drive_params p;
  CHECK(shipped(&p) == 0);
  double c[2] = {0, 0}, ax[2] = {p.rear_sprocket[0], p.rear_sprocket[2]}, pv[2] = {0.549, 0.3608};
  double os[2] = {p.output_sprocket[0], p.output_sprocket[2]};
  double r = drive_anti_squat(&p, c, ax, pv, os, 0.5452, 1.41, NULL);
  CHECK_MSG(fabs(r - 1.10) < 0.01, "anti-squat %.4f", r);
}

MT_TEST(drive_brake_opposes_and_saturates) {
  drive_params p;
  CHECK(shipped(&p) == 0);
  for (int w = 0; w < 2; w++) {
    double cap = w == DRIVE_FRONT ? p.brake_front : p.brake_rear;
    CHECK(cap > 0);
    double prev = INFINITY;
    for (double om = -100; om <= 100; om += 0.25) {
      double t = drive_brake_torque(&p, w, 0.7, om);
      CHECK(t * om <= 0);                         /* opposes spin */
      CHECK(fabs(t) <= 0.7 * cap);                /* never beyond capacity × input */
      CHECK(t <= prev);                           /* monotone: smooth through zero */
      prev = t;
    }
    CHECK(drive_brake_torque(&p, w, 0.7, 0) == 0);
    CHECK_REL(drive_brake_torque(&p, w, 0.7, 100), -0.7 * cap, 1e-12);   /* saturated */
    CHECK(drive_brake_torque(&p, w, 2.0, 50) == drive_brake_torque(&p, w, 1.0, 50));
    CHECK(drive_brake_torque(&p, w, -1, 50) == 0);
    CHECK(drive_brake_torque(&p, w, 0.5, -3) == -drive_brake_torque(&p, w, 0.5, 3));
  }
}

MT_TEST(drive_clutch_capacity) {
  drive_params p;
  CHECK(shipped(&p) == 0);
  for (double e = 0; e <= 1; e += 0.25)
    for (double s = -500; s <= 500; s += 0.5) {
      double t = drive_clutch_torque(&p, e, s);
      CHECK(fabs(t) <= p.clutch_capacity * e);
      CHECK(t * s >= 0);                        /* drags the faster side down */
    }
  CHECK_REL(drive_clutch_torque(&p, 1, 1e3), p.clutch_capacity, 1e-12);
  CHECK(drive_clutch_torque(&p, 0, 100) == 0);
  /* slope at lock: capacity/slip_speed (the regularisation's stiffness) */
  CHECK_REL(drive_clutch_torque(&p, 1, 1e-6) / 1e-6, p.clutch_capacity / p.clutch_slip, 1e-9);
  /* implicit stick: below capacity it cancels the slip in one explicit step exactly */
  double J = 0.04, h = 1e-3, s = 0.5, a = 200;
  double t = drive_clutch_lock_torque(&p, 1, s, a, J, h);
  CHECK(fabs(t) < p.clutch_capacity);
  CHECK_NEAR(s + h * (a - t / J), 0, 1e-12);
  /* beyond capacity it slips at capacity */
  CHECK(drive_clutch_lock_torque(&p, 1, 50, 0, J, h) == p.clutch_capacity);
  CHECK(drive_clutch_lock_torque(&p, 0.5, -50, 0, J, h) == -0.5 * p.clutch_capacity);
  CHECK(drive_clutch_lock_torque(&p, 0, 50, 0, J, h) == 0);
}

/*---- input errors ----*/

static const char* GOOD =
    "return { drivetrain = {\n"
    "  primary = 1.553,\n"                                          /* 2 */
    "  gears = {2.562, 2.052, 1.714, 1.500, 1.360, 1.269},\n"      /* 3 */
    "  chain = {\n"                                                 /* 4 */
    "    pitch = units.inch(5/8), teeth_output = 17, teeth_rear = 44,\n"   /* 5 */
    "    output_sprocket = {0.615, 0, 0.365},\n"                   /* 6 */
    "    rear_sprocket = {0, 0, 0.297},\n"                         /* 7 */
    "  },\n"
    "  clutch = { capacity = 180 },\n"                              /* 9 */
    "  brakes = { front = 1600, rear = 600 },\n"                   /* 10 */
    "} }\n";

static int read_src(const char* src, drive_params* p, mt_err* e) {
  lua_State* L = luabox_new(NULL);
  int rc = luabox_run(L, src, strlen(src), "drv.lua", 1, e);
  if (!rc) {
    lb_scope top = {.file = "drv.lua", .src = src};
    int pushed;
    rc = lb_table(L, -1, &top, "drivetrain", 0, 1, &pushed, e);
    if (!rc) {
      lb_scope ds = lb_enter(&top, "drivetrain", 0, "drivetrain");
      rc = drive_params_read(L, -1, &ds, p, e);
    }
  }
  luabox_close(L);
  return rc;
}

static void variant(char* out, size_t n, const char* from, const char* to) {
  const char* at = strstr(GOOD, from);
  snprintf(out, n, "%.*s%s%s", (int)(at - GOOD), GOOD, to, at + strlen(from));
}

MT_TEST(drive_params_read_errors_located) {
  drive_params p;
  mt_err e = {0};
  CHECK_MSG(read_src(GOOD, &p, &e) == MT_OK, "%s", e.msg);
  CHECK(p.ngears == 6 && p.teeth_rear == 44 && p.clutch_slip == 10);
  struct { const char* from; const char* to; const char* want; } cases[] = {
    {"1.714", "-1.714", "drv.lua:3: drivetrain: field 'gears': element 3: gear ratio must be > 0"},
    {"1.714", "0", "drv.lua:3: drivetrain: field 'gears': element 3: gear ratio must be > 0"},
    {"1.360", "1.6", "drv.lua:3: drivetrain: field 'gears': element 5: gear ratios must fall"},
    {"1.714", "'x'", "drv.lua:3: drivetrain: field 'gears': element 3: expected a number, got string"},
    {"1.553", "'one'", "drv.lua:2: drivetrain: field 'primary': expected a number"},
    {"1.553", "0/0", "drv.lua:2: drivetrain: field 'primary': must be finite"},
    {"pitch = units.inch(5/8), ", "", "drv.lua:4: drivetrain: chain: field 'pitch': missing"},
    {"teeth_rear = 44", "teeth_rear = 44.5", "drv.lua:5: drivetrain: chain: field 'teeth_rear': must be a whole number"},
    {"{0.615, 0, 0.365}", "{0.615, 0.1, 0.365}", "drv.lua:6: drivetrain: chain: field 'output_sprocket': y must be 0"},
    {"{0.615, 0, 0.365}", "{0.1, 0, 0.3}", "drv.lua:6: drivetrain: chain: field 'output_sprocket': sprockets overlap"},
    {"{0, 0, 0.297}", "{0, 0}", "drv.lua:7: drivetrain: chain: field 'rear_sprocket': expected 3 numbers, got 2"},
    {"capacity = 180", "capacity = -5", "drv.lua:9: drivetrain: clutch: field 'capacity': must be > 0"},
    {"rear = 600", "rear = 600, raer = 1", "drv.lua:10: drivetrain: brakes: field 'raer': unknown field"},
    {"  clutch = { capacity = 180 },\n", "", "drivetrain: field 'clutch': missing"},
  };
  for (size_t i = 0; i < MT_ARRAY_LEN(cases); i++) {
    char src[2048];
    variant(src, sizeof src, cases[i].from, cases[i].to);
    mt_err_clear(&e);
    CHECK_MSG(read_src(src, &p, &e) == MT_EINPUT, "case %zu accepted", i);
    CHECK_MSG(strstr(e.msg, cases[i].want) != NULL, "case %zu: '%s' lacks '%s'", i, e.msg, cases[i].want);
  }
  /* radii may be given directly instead of teeth and pitch */
  char src[2048];
  variant(src, sizeof src, "pitch = units.inch(5/8), teeth_output = 17, teeth_rear = 44,",
          "radius_output = 0.043, radius_rear = 0.111,");
  mt_err_clear(&e);
  CHECK_MSG(read_src(src, &p, &e) == MT_OK, "%s", e.msg);
  CHECK(p.r_output == 0.043 && p.r_rear == 0.111 && p.teeth_output == 0);
}

MT_TEST(drive_brake_torque_off_is_the_tanh_formula_bit_for_bit) {
  /* brakes off skip the tanh: the same signed zero (or NaN) as −cap·unit(input)·tanh(ω/slip) */
  drive_params p;
  memset(&p, 0, sizeof p);
  p.brake_front = 1200;
  p.brake_rear = 0;
  p.brake_slip = 0.5;
  const double ins[] = {0, -0.0, -1, 0.3, 1, NAN};
  const double oms[] = {0, -0.0, 1e-300, -1e-300, 95, -95, 1e6, INFINITY, -INFINITY, NAN};
  int zeros = 0;
  for (int w = 0; w < 2; w++)
    for (size_t i = 0; i < sizeof ins / sizeof ins[0]; i++)
      for (size_t j = 0; j < sizeof oms / sizeof oms[0]; j++) {
        double cap = w == DRIVE_FRONT ? p.brake_front : p.brake_rear;
        double u = isnan(ins[i]) ? 0 : ins[i] < 0 ? 0 : ins[i] > 1 ? 1 : ins[i];
        double want = -cap * u * tanh(oms[j] / p.brake_slip), got = drive_brake_torque(&p, w, ins[i], oms[j]);
        CHECK_MSG(memcmp(&want, &got, sizeof want) == 0 || (isnan(want) && isnan(got)),
                  "wheel %d input %g omega %g: %g (sign %d) against %g (sign %d)", w, ins[i], oms[j], got,
                  signbit(got) != 0, want, signbit(want) != 0);
        zeros += want == 0;
      }
  CHECK(zeros > 40);
}
