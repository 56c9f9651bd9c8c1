/* test_slip.c — the slip-angle telemetry (takes/slip.h): the wheels' headings on the road, the
 * tyre's grip optimum, and the a, b estimator on a synthetic steady turn with known answers. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/csv.h"
#include "sim/rig.h"
#include "takes/slip.h"
#include "tests/unit/test.h"

#define D2R (MT_PI / 180)

MT_TEST(slip_ground_steer_upright_is_the_caster_projection) {
  /* upright and level, a wheel steered by δ about an axis tilted back by ε rolls at
   * tan Δ = cos ε · tan δ (the axis's horizontal component turns the wheel less) */
  for (double d = -30; d <= 30; d += 7.5) {
    double e = 24 * D2R, dd = d * D2R;
    CHECK_NEAR(slip_ground_steer(dd, 0, 0, e), atan(cos(e) * tan(dd)), 1e-12);
  }
  /* no caster: the steer angle itself */
  CHECK_NEAR(slip_ground_steer(0.2, 0, 0, 0), 0.2, 1e-12);
}

MT_TEST(slip_ground_steer_leaned_grows_as_one_over_cos_lean) {
  /* small steer, leaned: Δ ≈ δ·cos ε / cos φ (Cossalter's kinematic steer angle); at 45° of lean
   * the ground steer is 1.41 times the upright one */
  double e = 24 * D2R, d = 0.5 * D2R;
  for (double phi = -50; phi <= 50; phi += 10) {
    double want = d * cos(e) / cos(phi * D2R);
    CHECK_REL(slip_ground_steer(d, phi * D2R, 0, e), want, 0.02);
  }
  /* the exact form: its departure from the approximation is odd in the lean for a given steer
   * (the caster's share of the steer tilts the wheel toward or away from the lean) */
  double l = slip_ground_steer(d, 0.7, 0, e), r = slip_ground_steer(d, -0.7, 0, e);
  CHECK(fabs(l - r) > 1e-6);
  CHECK_NEAR(0.5 * (l + r), d * cos(e) / cos(0.7), 2e-3 * d);
}

MT_TEST(slip_rear_heading_on_a_pitched_leaned_frame) {
  /* the rear wheel rolls along the frame's yaw unless the frame is pitched and leaned at once:
   * then its ground heading is off by −atan(sin θ · tan φ) (level road) */
  const double z[3] = {0, 0, 1};
  double pr, dg;
  slip_wheel_headings(0.3, 0, 0.6, 0, 0.42, z, &pr, &dg);
  CHECK_NEAR(pr, 0.3, 1e-12);
  CHECK_NEAR(dg, 0, 1e-12);
  slip_wheel_headings(0.3, 0.05, 0, 0, 0.42, z, &pr, &dg);
  CHECK_NEAR(pr, 0.3, 1e-12);
  slip_wheel_headings(0.3, 0.05, 0.6, 0, 0.42, z, &pr, &dg);
  CHECK_NEAR(pr, 0.3 - atan(sin(0.05) * tan(0.6)), 1e-12);
  /* on a road climbing along the heading at the frame's own pitch the offset is gone: the wheel
   * rolls along the road's line of greatest slope */
  double th = 0.1, n[3] = {-sin(th), 0, cos(th)};   /* climbing toward +x: the normal leans back */
  slip_wheel_headings(0, -th, 0.6, 0, 0.42, n, &pr, &dg);
  CHECK_NEAR(pr, 0, 1e-12);
}

MT_TEST(slip_optimum_is_where_the_lateral_force_stops_paying) {
  rig* rg = mt_test_load_sport();
  CHECK(rg);
  const tyre_params* rear = &rg->wheel[RIG_REAR].tyre;
  double fz = rear->Fz0, a0 = slip_peak_alpha(rear, fz, 0, 0, 1);
  /* upright at its nominal load the rear tyre's optimum lies at 5–12° (9.9° measured: the
   * Evangelou fit is flatter than the sim-racing note's "about 6°" for car tyres) */
  CHECK_MSG(a0 > 5 * D2R && a0 < 12 * D2R, "rear optimum %.2f deg", a0 / D2R);
  /* symmetric without camber */
  CHECK_NEAR(slip_peak_alpha(rear, fz, 0, 0, -1), a0, 1e-9);
  /* leaned 40° the wheel's camber thrust already does most of the work on that side: less slip
   * is left to use there, more on the other */
  double push = slip_peak_alpha(rear, fz, 0, 40 * D2R, 1), other = slip_peak_alpha(rear, fz, 0, 40 * D2R, -1);
  CHECK_MSG(push < a0 && other > a0, "push %.2f, other %.2f, upright %.2f deg", push / D2R, other / D2R, a0 / D2R);
  /* at the optimum the force is 95 % of the way up, and a degree past it it has gained < 5 % */
  tyre_forces_t f0, f1, f2;
  tyre_forces(rear, fz, 0, 0, 0, &f0);
  tyre_forces(rear, fz, 0, a0, 0, &f1);
  tyre_forces(rear, fz, 0, a0 + D2R, 0, &f2);
  CHECK(f1.fy > 0.9 * f2.fy && f2.fy - f1.fy < 0.05 * f1.fy);
  CHECK(isnan(slip_peak_alpha(rear, 0, 0, 0, 1)));
  rig_free(rg);
}

/* slip_peak_alpha as it was first written, one slip angle a tyre_forces call. */
static double peak_alpha_one_at_a_time(const tyre_params* p, double fz, double kappa, double gamma, int sign) {
  if (!(fz > 0)) return NAN;
  double f[121], best = -INFINITY, step = 0.25 * D2R;
  for (int i = 0; i <= 120; i++) {
    tyre_forces_t t;
    tyre_forces(p, fz, kappa, sign * i * step, gamma, &t);
    f[i] = sign * t.fy;
    if (f[i] > best) best = f[i];
  }
  double lim = f[0] + 0.95 * (best - f[0]);
  for (int i = 1; i <= 120; i++)
    if (f[i] >= lim) return (i - 1 + (lim - f[i - 1]) / (f[i] - f[i - 1])) * step;
  return 0;
}

/* Two slip angles a call and the cornering stiffness once give the very bits of one angle at a
 * time: both tyres, loads from 150 N to 4 kN, camber ±55°, slip ratio ±0.15, both sides. */
MT_TEST(slip_peak_alpha_paired_is_one_at_a_time_bit_for_bit) {
  rig* rg = mt_test_load_sport();
  CHECK(rg);
  if (!rg) return;
  int n = 0, same = 0, told = 0;
  for (int w = 0; w < 2; w++)
    for (double fz = 150; fz <= 4000; fz *= 1.37)
      for (double g = -55; g <= 55; g += 11)
        for (double kap = -0.15; kap <= 0.151; kap += 0.075)
          for (int sign = -1; sign <= 1; sign += 2) {
            const tyre_params* p = &rg->wheel[w].tyre;
            double a = slip_peak_alpha(p, fz, kap, g * D2R, sign), b = peak_alpha_one_at_a_time(p, fz, kap, g * D2R, sign);
            n++;
            same += memcmp(&a, &b, sizeof a) == 0;
            if (memcmp(&a, &b, sizeof a) && !told++)   /* the first one only */
              CHECK_MSG(0, "wheel %d fz %.0f camber %.0f kappa %.3f sign %d: %.17g against %.17g", w, fz, g, kap, sign, a, b);
          }
  CHECK_MSG(n > 1000 && same == n, "%d of %d the same", same, n);
  rig_free(rg);
}

/* A steady turn on a 100 m circle, speed rising from 6 to 14 m/s, with slip angles that grow in
 * proportion to the lateral acceleration (the linear region): what telemetry would record. */
static void synthetic(slip_data* d, long n, double a, double b, double kf, double kr) {
  memset(d, 0, sizeof *d);
  d->n = n;
  d->dt = 0.01;
  double** arr[] = {&d->t, &d->station, &d->speed, &d->ay, &d->vx, &d->vy, &d->r, &d->steer, &d->delta_g,
                    &d->alpha_f, &d->alpha_r, &d->peak_f, &d->peak_r, &d->est_f, &d->est_r, &d->p, &d->lean};
  for (size_t i = 0; i < sizeof arr / sizeof arr[0]; i++) *arr[i] = mt_alloc(sizeof(double) * n);
  d->seg = mt_alloc(sizeof(int) * n);
  d->contact = mt_alloc(n);
  d->used = mt_alloc(n);
  d->fy_side = mt_alloc(n);
  for (long i = 0; i < n; i++) {
    double v = 6 + 8.0 * i / (n - 1), R = 100, r = v / R, ay = v * r;
    double af = kf * ay, ar = kr * ay;   /* rad */
    d->t[i] = i * d->dt;
    d->vx[i] = d->speed[i] = v;
    d->r[i] = r;
    d->ay[i] = ay;
    d->vy[i] = b * r - ar * v;                       /* α_r = (b·r − v_y)/v_x */
    d->delta_g[i] = ((d->vy[i] + a * r) / v + af) / D2R;   /* α_f = Δ − (v_y + a·r)/v_x */
    d->alpha_f[i] = af / D2R;
    d->alpha_r[i] = ar / D2R;
    d->contact[i] = 1;
    d->est_f[i] = d->est_r[i] = NAN;
  }
}

MT_TEST(slip_estimate_recovers_a_and_b_where_zero_slip_does_not) {
  /* rear slip 0.14° at 0.06 g (as the sport1000 on the skidpad measures), front a third of it */
  slip_data d;
  double a = 0.76, b = 0.66, kr = 0.0024 / 0.58 * 1, kf = kr / 3;
  synthetic(&d, 4000, a, b, kf, kr);
  slip_opts o;
  slip_opts_default(&o);
  o.ay_max = 2.0;
  mt_err e = {0};
  CHECK_MSG(slip_estimate(&d, &o, &e) == MT_OK, "%s", e.msg);
  CHECK(d.has_est && d.ncand >= o.min_samples);
  CHECK_REL(d.a, a, 0.005);
  CHECK_REL(d.b, b, 0.005);
  /* the note's median (slip taken as zero) is off by α_r·R ≈ several tenths of a metre */
  CHECK_MSG(fabs(d.b_median - b) > 0.1, "median b %.3f", d.b_median);
  /* with a and b right the estimate is the truth (the smoothing averages a smooth ramp) */
  double rf, mf, rr, mr;
  long nl;
  slip_est_error(&d, 100, 30, &rf, &mf, &rr, &mr, &nl);
  CHECK(nl == d.n);
  CHECK_MSG(mf < 0.01 && mr < 0.01, "max errors %.4f %.4f deg", mf, mr);
  slip_free(&d);
}

MT_TEST(slip_estimate_refuses_without_low_acceleration_data) {
  slip_data d;
  synthetic(&d, 1000, 0.76, 0.66, 0.001, 0.003);
  slip_opts o;
  slip_opts_default(&o);
  o.ay_max = 0.3;   /* the turn starts at 6²/100 = 0.36 m/s²: nothing qualifies */
  mt_err e = {0};
  CHECK(slip_estimate(&d, &o, &e) == MT_EINPUT);
  CHECK(!d.has_est && d.ncand == 0);
  CHECK(strstr(e.msg, "no usable low-acceleration data: 0 samples") != NULL);
  CHECK(isnan(d.est_f[0]));
  slip_free(&d);
}

MT_TEST(csv_next_reads_back_what_csv_field_writes) {
  /* take channels --channels parses its list as one RFC 4180 record: every name the CSV writer
   * quotes can be asked for by the same text */
  const char* names[] = {"speed", "a,b", "say \"hi\"", "two\nlines", "cr\r", "", "\"", ",,"};
  char rec[512] = "", f[64], out[64];
  size_t k = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    csv_quote(f, sizeof f, names[i]);
    k += (size_t)snprintf(rec + k, sizeof rec - k, "%s%s", i ? "," : "", f);
  }
  const char* p = rec;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    CHECK(csv_next(&p, out, sizeof out) == 1);
    CHECK_MSG(strcmp(out, names[i]) == 0, "field %zu: '%s', wanted '%s'", i, out, names[i]);
  }
  CHECK(csv_next(&p, out, sizeof out) == 0);
  const char* bad1 = "\"open";
  const char* bad2 = "\"x\"y,z";
  CHECK(csv_next(&bad1, out, sizeof out) == -1);
  CHECK(csv_next(&bad2, out, sizeof out) == -1);
  const char* lng = "abcdefgh";
  CHECK(csv_next(&lng, out, 4) == 1 && strcmp(out, "abc") == 0 && *lng == 0);
}
