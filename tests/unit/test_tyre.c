/* test_tyre.c — the Magic Formula as coded, the torus contact, signs, relaxation, grip. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/tyre.h"
#include "sim/vmath.h"
#include "tests/unit/test.h"

static int load(const char* wheel, tyre_params* p) {
  mt_err e = {0};
  int rc = tyre_load_file("tyres_sport", wheel, p, &e);
  if (rc) fprintf(stderr, "%s\n", e.msg);
  return rc;
}

MT_TEST(tyre_slope_at_origin_is_BCD) {
  const char* wheels[] = {"front", "rear"};
  for (int w = 0; w < 2; w++) {
    tyre_params p;
    CHECK(load(wheels[w], &p) == 0);
    double loads[] = {600, 1100, 1600, 2400};
    for (int k = 0; k < 4; k++) {
      tyre_forces_t f0, f1;
      double h = 1e-7;
      tyre_forces(&p, loads[k], h, 0, 0, &f1);
      tyre_forces(&p, loads[k], -h, 0, 0, &f0);
      CHECK_REL((f1.fx - f0.fx) / (2 * h), f1.kxk, 1e-5);      /* K = B·C·D of the formula */
      tyre_forces(&p, loads[k], 0, h, 0, &f1);
      tyre_forces(&p, loads[k], 0, -h, 0, &f0);
      CHECK_REL((f1.fy - f0.fy) / (2 * h), f1.kya, 1e-5);
    }
  }
}

MT_TEST(tyre_peak_equals_D) {
  tyre_params p;
  CHECK(load("rear", &p) == 0);
  double loads[] = {800, 1600, 2400};
  for (int k = 0; k < 3; k++) {
    double best = 0, worst = 0;
    tyre_forces_t f;
    for (double kap = -1; kap <= 1; kap += 1e-4) {
      tyre_forces(&p, loads[k], kap, 0, 0, &f);
      if (f.fx > best) best = f.fx;
      if (f.fx < worst) worst = f.fx;
    }
    /* Cx > 1: the sine reaches 1, the peak is Dx on both sides (Ex shapes, it does not scale) */
    CHECK_REL(best, f.dx, 1e-6);
    CHECK_REL(-worst, f.dx, 1e-6);
    /* Cy < 1: the lateral curve rises to Dy·sin(Cy·π/2) as α → 90° */
    double sup = 0;
    for (double a = 0; a < 1.57; a += 1e-3) {
      tyre_forces(&p, loads[k], 0, a, 0, &f);
      if (f.fy > sup) sup = f.fy;
    }
    CHECK(sup <= f.dy * sin(p.pCy1 * MT_PI / 2) * (1 + 1e-9));
    CHECK(sup > 0.98 * f.dy * sin(p.pCy1 * MT_PI / 2));
  }
}

MT_TEST(tyre_fy_odd_in_alpha_at_zero_camber) {
  tyre_params p;
  CHECK(load("front", &p) == 0);
  for (double a = 0.001; a < 0.5; a += 0.0371) {
    tyre_forces_t fp, fm;
    tyre_forces(&p, 1300, 0, a, 0, &fp);
    tyre_forces(&p, 1300, 0, -a, 0, &fm);
    CHECK_NEAR(fp.fy, -fm.fy, 1e-9 * fabs(fp.fy));
    CHECK_NEAR(fp.mz, -fm.mz, 1e-9 * fabs(fp.mz) + 1e-12);
    if (a < 0.15) CHECK(fp.mz < 0);   /* self-aligning below the peak: a positive slip angle turns the wheel back */
  }
  /* with camber the symmetry is broken by the camber thrust: at α = 0 it pushes to the lean side */
  tyre_forces_t f;
  tyre_forces(&p, 1300, 0, 0, 0.4, &f);
  CHECK(f.fy > 100);
  tyre_forces(&p, 1300, 0, 0, -0.4, &f);
  CHECK(f.fy < -100);
}

MT_TEST(tyre_combined_never_exceeds_pure_peak) {
  tyre_params p;
  CHECK(load("front", &p) == 0);
  for (double fz = 500; fz <= 2500; fz += 500)
    for (double kap = -0.6; kap <= 0.6; kap += 0.02)
      for (double a = -0.5; a <= 0.5; a += 0.02) {
        tyre_forces_t f, fx, fy;
        tyre_forces(&p, fz, kap, a, 0, &f);
        tyre_forces(&p, fz, kap, 0, 0, &fx);
        tyre_forces(&p, fz, 0, a, 0, &fy);
        CHECK(fabs(f.fx) <= f.dx * (1 + 1e-12));
        CHECK(fabs(f.fy) <= f.dy * (1 + 1e-12));
        CHECK(fabs(f.fx) <= fabs(fx.fx) + 1e-9);   /* slip angle only takes away */
        CHECK(fabs(f.fy) <= fabs(fy.fy) + 1e-9);   /* slip ratio only takes away */
      }
}

MT_TEST(tyre_grip_scales_the_peaks) {
  tyre_params p;
  CHECK(load("rear", &p) == 0);
  tyre_params wet = p;
  wet.grip = 0.6;
  double best = 0, bestw = 0;
  for (double kap = 0; kap <= 1; kap += 1e-4) {
    tyre_forces_t f, fw;
    tyre_forces(&p, 1600, kap, 0, 0, &f);
    tyre_forces(&wet, 1600, kap, 0, 0, &fw);
    best = fmax(best, f.fx);
    bestw = fmax(bestw, fw.fx);
  }
  CHECK_REL(bestw, 0.6 * best, 1e-6);
  /* the slip stiffness does not change with grip: the curve's shape at the origin is the tyre's */
  tyre_forces_t f, fw;
  tyre_forces(&p, 1600, 1e-6, 0, 0, &f);
  tyre_forces(&wet, 1600, 1e-6, 0, 0, &fw);
  CHECK_REL(fw.fx, f.fx, 1e-6);
}

/* An inclined plane z = gx·x + gy·y, everywhere on the road. */
typedef struct plane { double gx, gy; } plane;
static int plane_query(const void* self, double x, double y, int hint, road_point* o) {
  const plane* p = self;
  (void)hint;
  o->on_road = 1;
  o->z = p->gx * x + p->gy * y;
  double n = sqrt(1 + p->gx * p->gx + p->gy * p->gy);
  o->n[0] = -p->gx / n;
  o->n[1] = -p->gy / n;
  o->n[2] = 1 / n;
  o->segment = 0;
  o->hint = 0;
  return 0;
}

MT_TEST(tyre_contact_geometry_known_poses) {
  tyre_params p;
  CHECK(load("front", &p) == 0);
  double r = p.r0 - p.crown, rho = p.crown, zero[3] = {0, 0, 0};
  tyre_contact_t c;
  int hint = -1;
  /* upright on flat ground, centre at R0: contact straight below, no penetration */
  plane flat = {0, 0};
  road rf = {&flat, plane_query};
  double c0[3] = {2, 3, p.r0}, a0[3] = {0, 1, 0};
  tyre_contact(&p, &rf, c0, a0, zero, zero, &hint, &c);
  CHECK_NEAR(c.point[0], 2, 1e-12);
  CHECK_NEAR(c.point[1], 3, 1e-12);
  CHECK_NEAR(c.point[2], 0, 1e-12);
  CHECK_NEAR(c.pen, 0, 1e-12);
  CHECK_NEAR(c.camber, 0, 1e-12);
  /* leaned 45° to the left: the contact is under the crown's centre, r·sin φ to the right of
   * the centre; the centre stands r·cos φ + ρ above it */
  double ph = MT_PI / 4, s = sin(ph), co = cos(ph);
  double c1[3] = {0, r * s, r * co + rho}, a1[3] = {0, co, -s};
  tyre_contact(&p, &rf, c1, a1, zero, zero, &hint, &c);
  CHECK_NEAR(c.point[0], 0, 1e-12);
  CHECK_NEAR(c.point[1], 0, 1e-12);
  CHECK_NEAR(c.point[2], 0, 1e-12);
  CHECK_NEAR(c.pen, 0, 1e-12);
  CHECK_NEAR(c.camber, ph, 1e-12);
  /* upright on a 10 % bank rising to the left: the road normal leans right, so relative to the
   * road the wheel is cambered to the left by atan(0.1) */
  plane bank = {0, 0.1};
  road rb = {&bank, plane_query};
  double nb = sqrt(1.01);
  double c2[3] = {0, 0, 0.5}, nn[3] = {0, -0.1 / nb, 1 / nb};
  tyre_contact(&p, &rb, c2, a0, zero, zero, &hint, &c);
  CHECK_NEAR(c.camber, atan(0.1), 1e-12);
  double expect[3] = {0 - rho * nn[0], 0 - rho * nn[1], 0.5 - r - rho * nn[2]};
  for (int i = 0; i < 3; i++) CHECK_NEAR(c.point[i], expect[i], 1e-12);
  /* penetration: depth below the plane through the road point under the centre (z = 0 there) */
  CHECK_NEAR(c.pen, -(expect[0] * nn[0] + expect[1] * nn[1] + expect[2] * nn[2]), 1e-12);
  /* upright on a 6 % climb: the longitudinal direction follows the slope */
  plane climb = {0.06, 0};
  road rc = {&climb, plane_query};
  tyre_contact(&p, &rc, c2, a0, zero, zero, &hint, &c);
  double ng = sqrt(1 + 0.0036);
  CHECK_NEAR(c.l[0], 1 / ng, 1e-12);
  CHECK_NEAR(c.l[2], 0.06 / ng, 1e-12);
  CHECK_NEAR(c.camber, 0, 1e-12);
}

MT_TEST(tyre_slip_signs_oppose_sliding) {
  tyre_params p;
  CHECK(load("rear", &p) == 0);
  plane flat = {0, 0};
  road rf = {&flat, plane_query};
  int hint = -1;
  double c[3] = {0, 0, p.r0 - 0.01}, a[3] = {0, 1, 0};
  tyre_contact_t k;
  /* moving forward at 20 m/s and sliding to the right at 1 m/s, rolling freely */
  double v[3] = {20, -1, 0}, w[3] = {0, 20 / (p.r0 - 0.01), 0};
  tyre_contact(&p, &rf, c, a, v, w, &hint, &k);
  CHECK(k.alpha > 0);
  tyre_forces_t f;
  tyre_forces(&p, 1500, 0, k.alpha, 0, &f);
  CHECK(f.fy > 0);   /* pushes left, against the slide */
  /* spinning faster than rolling: driving slip, forward force */
  double w2[3] = {0, 1.1 * 20 / (p.r0 - 0.01), 0}, v2[3] = {20, 0, 0};
  tyre_contact(&p, &rf, c, a, v2, w2, &hint, &k);
  CHECK(k.kappa > 0.05);
  tyre_forces(&p, 1500, k.kappa, 0, 0, &f);
  CHECK(f.fx > 0);
  /* the load: never negative, zero in the air */
  CHECK(tyre_load(&p, -0.01, -5) == 0);
  CHECK(tyre_load(&p, 0.001, -100) == 0);
  CHECK_NEAR(tyre_load(&p, 0.01, 0), p.k * 0.01, 1e-9);
}

MT_TEST(tyre_relaxation_is_first_order_with_sigma_over_v) {
  tyre_params p;
  CHECK(load("front", &p) == 0);
  tyre_contact_t c = {0};
  c.vx = 25;
  c.vsy = -25 * 0.05;    /* a steady slip: tan α = 0.05 */
  c.vsx = 0;
  double fz = 1100, sig = tyre_sigma_y(&p, fz, c.camber, c.vx), tau = sig / c.vx;
  double ta = 0, kr = 0, dt = tau / 2000;
  for (int i = 0; i < 2000; i++) {
    double dk, dta;
    tyre_relax_rates(&p, fz, &c, kr, ta, &dk, &dta);
    ta += dta * dt;
    kr += dk * dt;
  }
  CHECK_NEAR(ta, 0.05 * (1 - exp(-1)), 2e-5);   /* after one time constant */
  CHECK(sig > 0.1 && sig < 0.4);                 /* Evangelou: ~0.2 m for this tyre */
}

/* The Magic Formula as Sharp, Evangelou & Limebeer (2004) write it, one force after the other
 * and each chain of calls nested (tyre_forces_kya2 groups its calls by their depth in the chains
 * and evaluates two tyres side by side). With vmath.h's functions (one lane beside itself) it is
 * the same expressions and the same operations, so tyre_forces_kya must give the same bits; only
 * a NaN's sign may differ (IEEE 754 leaves it open, and the compiler's choice of operand order
 * for a product of two NaNs decides it). With libm's functions it is the formula as tyre.c
 * evaluated it before the pairs, which must agree to a few ulp. */
typedef struct mathfns { double (*atan)(double), (*sin)(double), (*cos)(double), (*exp)(double); } mathfns;
static double l_atan(double x) { return vm_atan((v2d){x, x})[0]; }
static double l_sin(double x) { return vm_sin((v2d){x, x})[0]; }
static double l_cos(double x) { return vm_cos((v2d){x, x})[0]; }
static double l_exp(double x) { return vm_exp((v2d){x, x})[0]; }
static const mathfns VMATH = {l_atan, l_sin, l_cos, l_exp}, LIBM = {atan, sin, cos, exp};

static void mf_chain_by_chain(const mathfns* fn, const tyre_params* p, double fz, double kappa, double alpha,
                              double gamma, double Kya, tyre_forces_t* o) {
#define atan fn->atan
#define sin fn->sin
#define cos fn->cos
#define exp fn->exp
  double sk = kappa > 0 ? 1 : kappa < 0 ? -1 : 0, sal = alpha > 0 ? 1 : alpha < 0 ? -1 : 0;
  double Fz0 = p->Fz0, dfz = (fz - Fz0) / Fz0, g2 = gamma * gamma, lm = p->grip;
  double Dx = lm * (p->pDx1 + p->pDx2 * dfz) * fz;
  double Ex = (p->pEx1 + p->pEx2 * dfz + p->pEx3 * dfz * dfz) * (1 - p->pEx4 * sk);
  double Kxk = fz * (p->pKx1 + p->pKx2 * dfz) * exp(p->pKx3 * dfz);
  double Bx = Kxk / (p->pCx1 * Dx);
  double bk = Bx * kappa;
  double Fx0 = Dx * sin(p->pCx1 * atan(bk - Ex * (bk - atan(bk))));
  double Dy0 = lm * fz * p->pDy1 * exp(p->pDy2 * dfz);
  double Dy = Dy0 / (1 + p->pDy3 * g2);
  double Ey = p->pEy1 + p->pEy2 * g2 + p->pEy4 * gamma * sal;
  double By = Kya / (p->pCy1 * Dy);
  double Kyg = (p->pKy6 + p->pKy7 * dfz) * fz;
  double Bg = Kyg / (p->pCy2 * Dy);
  double ba = By * alpha, bg = Bg * gamma;
  double Fy0 = Dy * sin(p->pCy1 * atan(ba - Ey * (ba - atan(ba))) + p->pCy2 * atan(bg - p->pEy5 * (bg - atan(bg))));
  double rbk = p->rBx2 * kappa;
  double Bxa = p->rBx1 / sqrt(1 + rbk * rbk);
  double Fx = cos(p->rCx1 * atan(Bxa * alpha)) * Fx0;
  double rba = p->rBy2 * (alpha - p->rBy3);
  double Byk = p->rBy1 / sqrt(1 + rba * rba);
  double Gyk = cos(p->rCy1 * atan(Byk * kappa));
  double Fy = Gyk * Fy0;
  double Kya0 = p->pKy1 * Fz0 * sin(p->pKy2 * atan(fz / (p->pKy3 * Fz0)));
  double By0 = Kya0 / (p->pCy1 * Dy0);
  double b0 = By0 * alpha;
  double Fy00 = Dy0 * sin(p->pCy1 * atan(b0 - p->pEy1 * (b0 - atan(b0))));
  double FyMz = Gyk * Fy00;
  double SHr = (p->qHz3 + p->qHz4 * dfz) * gamma;
  double ag = fabs(gamma);
  double Bt = (p->qBz1 + p->qBz2 * dfz) * (1 + p->qBz5 * ag + p->qBz6 * g2);
  double Dt = lm * fz * (p->r0 / Fz0) * (p->qDz1 + p->qDz2 * dfz) * (1 + p->qDz3 * ag + p->qDz4 * g2);
  double Et = (p->qEz1 + p->qEz2 * dfz + p->qEz3 * dfz * dfz) * (1 + p->qEz5 * gamma * (2 / MT_PI) * atan(Bt * p->qCz1 * alpha));
  double Br = p->qBz9 + p->qBz10 * By0 * p->pCy1;
  double sa = sqrt(1 + alpha * alpha);
  double Dr = lm * fz * p->r0 * ((p->qDz8 + p->qDz9 * dfz) * gamma + (p->qDz10 + p->qDz11 * dfz) * gamma * ag) / sa;
  double rr = Kya0 > 0 ? Kxk * kappa / Kya0 : 0;
  double at = sqrt(alpha * alpha + rr * rr) * (alpha > 0 ? 1 : alpha < 0 ? -1 : 0);
  double as = alpha + SHr;
  double ar = sqrt(as * as + rr * rr) * (as > 0 ? 1 : as < 0 ? -1 : 0);
  double bt = Bt * at;
  double trail = Dt * cos(p->qCz1 * atan(bt - Et * (bt - atan(bt)))) / sa;
  double brar = Br * ar;
  double Mzr = p->lambda_mzr * Dr / sqrt(1 + brar * brar);
  *o = (tyre_forces_t){Fx, Fy, -(trail * FyMz - Mzr), Fx0, Fy0, trail, Mzr, Kxk, Kya, Dx, Dy};
#undef atan
#undef sin
#undef cos
#undef exp
}

static int same_bits_or_both_nan(double a, double b) {
  return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

MT_TEST(tyre_forces_are_the_formula_chain_by_chain) {
  const char* wheels[] = {"front", "rear"};
  long cases = 0, finite = 0;
  int was = tyre_zero_shortcuts;
  for (int w = 0; w < 2; w++) {
    tyre_params p;
    CHECK(load(wheels[w], &p) == 0);
    for (int sc = 0; sc < 2; sc++) {
      tyre_zero_shortcuts = sc;   /* the shipped sets' pDy2 = pDy3 = 0 either way: the same value */
      const double loads[] = {0.5, 1, 1.5, 300, 1100, 1600, 2400, 5000, 1e7, INFINITY};   /* fz > 0: the formula's domain */
      for (int a = 0; a < 10; a++)
        for (int k = -12; k <= 12; k++)
          for (int s = -12; s <= 12; s++)
            for (int g = -6; g <= 6; g++) {
              double kap = k == -12 ? -0.0 : k == 12 ? NAN : k * 0.021 + k * k * k * 1e-4;
              double alp = s == -12 ? -0.0 : s == 12 ? INFINITY : s * 0.037 - s * s * s * 2e-4;
              double gam = g * 0.17, fz = loads[a];
              double kya = tyre_kya(&p, fz > 1 ? fz : 1, gam) * (1 + 0.01 * (k % 3));
              tyre_forces_t got, want;
              tyre_forces_kya(&p, fz, kap, alp, gam, kya, &got);
              mf_chain_by_chain(&VMATH, &p, fz, kap, alp, gam, kya, &want);
              const double *x = &got.fx, *y = &want.fx;
              int fin = 1;
              for (int i = 0; i < (int)(sizeof got / sizeof(double)); i++) {
                if (!same_bits_or_both_nan(x[i], y[i])) {
                  fprintf(stderr, "  %s fz %g kappa %g alpha %g gamma %g: field %d %.17g against %.17g\n", wheels[w], fz,
                          kap, alp, gam, i, x[i], y[i]);
                  tyre_zero_shortcuts = was;
                  CHECK(!"tyre_forces_kya differs from the formula chain by chain");
                }
                fin &= isfinite(x[i]) != 0;
              }
              cases++;
              finite += fin;
            }
    }
  }
  tyre_zero_shortcuts = was;
  CHECK(cases == 2L * 2 * 10 * 25 * 25 * 13);
  CHECK(finite > cases / 2);   /* the grid is mostly the physical range, not NaN against NaN */
}

/* The pairs (tyre.h): each lane is what the single-tyre function gives for its arguments, bit
 * for bit, whatever the other lane holds (the vehicle evaluates front and rear side by side; the
 * trims, plots and slip analysis one at a time). */
MT_TEST(tyre_pairs_are_the_single_tyre_lane_by_lane) {
  tyre_params f, r;
  CHECK(load("front", &f) == 0);
  CHECK(load("rear", &r) == 0);
  const tyre_params* pp[2] = {&f, &r};
  long n = 0;
  unsigned u = 12345;
#define RND() ((u = u * 1103515245u + 12345u), (double)(u >> 8) / 16777216.0)
  for (int i = 0; i < 20000; i++) {
    double fz[2], k[2], a[2], g[2], ky[2];
    for (int l = 0; l < 2; l++) {
      fz[l] = 1.0001 + 6000 * RND() * RND();
      k[l] = (RND() - 0.5) * (i % 7 == 0 ? 4 : 0.3);
      a[l] = (RND() - 0.5) * (i % 5 == 0 ? 3 : 0.4);
      g[l] = (RND() - 0.5) * 1.6;
    }
    if (i % 11 == 0) a[1] = NAN;   /* a bad lane leaves the other alone */
    if (i % 13 == 0) fz[0] = INFINITY;
    tyre_kya2(pp, fz, g, ky);
    for (int l = 0; l < 2; l++) {
      double one = tyre_kya(pp[l], fz[l], g[l]);
      CHECK(same_bits_or_both_nan(ky[l], one));
    }
    tyre_forces_t two[2], one;
    tyre_forces_kya2(pp, fz, k, a, g, ky, two);
    for (int l = 0; l < 2; l++) {
      tyre_forces_kya(pp[l], fz[l], k[l], a[l], g[l], ky[l], &one);
      const double *x = &two[l].fx, *y = &one.fx;
      for (int j = 0; j < (int)(sizeof one / sizeof(double)); j++)
        if (!same_bits_or_both_nan(x[j], y[j])) {
          fprintf(stderr, "  lane %d, case %d: field %d %.17g against %.17g alone\n", l, i, j, x[j], y[j]);
          CHECK(!"a pair's lane differs from the tyre alone");
        }
      n++;
    }
  }
#undef RND
  CHECK(n == 40000);
}

MT_TEST(tyre_contact_pair_is_the_single_contact_lane_by_lane) {
  tyre_params f, r;
  CHECK(load("front", &f) == 0);
  CHECK(load("rear", &r) == 0);
  const tyre_params* pp[2] = {&f, &r};
  const road* rd[2] = {NULL, NULL};   /* the flat road z = 0 */
  for (int i = 0; i < 2000; i++) {
    double c[2][3], a[2][3], vc[2][3], w[2][3];
    for (int l = 0; l < 2; l++) {
      double lean = (i % 41 - 20) * 0.04 + l * 0.3, h = pp[l]->r0 * cos(lean) - 0.004 * (i % 3);
      c[l][0] = i * 0.01;
      c[l][1] = l;
      c[l][2] = i % 17 == 0 && l == 0 ? 0.01 : h;   /* now and then a wheel lying flat on the road */
      a[l][0] = 0;
      a[l][1] = i % 17 == 0 && l == 0 ? 0 : cos(lean);
      a[l][2] = i % 17 == 0 && l == 0 ? 1 : sin(lean);
      vc[l][0] = 20 + i * 0.001;
      vc[l][1] = (i % 9 - 4) * 0.3;
      vc[l][2] = 0;
      w[l][0] = 0;
      w[l][1] = vc[l][0] / pp[l]->r0 * (1 + 0.01 * l);
      w[l][2] = 0.1 * l;
    }
    tyre_contact_t two[2], one;
    int hint[2] = {-1, -1}, h1 = -1;
    tyre_contact2(pp, rd, (const double(*)[3])c, (const double(*)[3])a, (const double(*)[3])vc,
                  (const double(*)[3])w, hint, two);
    for (int l = 0; l < 2; l++) {
      tyre_contact(pp[l], NULL, c[l], a[l], vc[l], w[l], &h1, &one);
      CHECK(memcmp(&two[l], &one, sizeof one) == 0);
    }
  }
}

/* The pairs' functions are libmvec's, not libm's (vmath.h): the formula agrees with the one
 * evaluated through libm to a few units in the last place of the forces (not bit for bit). */
MT_TEST(tyre_forces_agree_with_the_libm_formula) {
  const char* wheels[] = {"front", "rear"};
  double worst = 0;
  for (int w = 0; w < 2; w++) {
    tyre_params p;
    CHECK(load(wheels[w], &p) == 0);
    for (int a = 0; a < 6; a++)
      for (int k = -20; k <= 20; k++)
        for (int s = -20; s <= 20; s++)
          for (int g = -6; g <= 6; g++) {
            double fz = 300 + 900 * a, kap = k * 0.012, alp = s * 0.02, gam = g * 0.15;
            double kya = tyre_kya(&p, fz, gam);
            tyre_forces_t got, want;
            tyre_forces_kya(&p, fz, kap, alp, gam, kya, &got);
            mf_chain_by_chain(&LIBM, &p, fz, kap, alp, gam, kya, &want);
            /* each force against the tyre's scale: its peak factor (N) and the peak times the radius (N·m) */
            double fx = fabs(got.fx - want.fx) / want.dx, fy = fabs(got.fy - want.fy) / want.dy;
            double mz = fabs(got.mz - want.mz) / (want.dy * p.r0);
            double e = fmax(fx, fmax(fy, mz));
            if (e > worst) worst = e;
          }
  }
  fprintf(stderr, "    largest difference from the libm formula: %.2g of the peak force\n", worst);
  CHECK(worst < 1e-13);
  CHECK(VM_LIBMVEC == 0 || worst > 0);   /* libmvec is in use: not libm's bits */
}
