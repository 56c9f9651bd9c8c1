/* test_vmath.c — sim/vmath.h's invariants: lanes independent, exp(±0) = 1, within a few ulp of libm. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sim/vmath.h"
#include "tests/unit/test.h"

typedef struct vfn { const char* name; v2d (*v)(v2d); double (*s)(double); double lo, hi; } vfn;
static v2d v_atan(v2d x) { return vm_atan(x); }
static v2d v_sin(v2d x) { return vm_sin(x); }
static v2d v_cos(v2d x) { return vm_cos(x); }
static v2d v_exp(v2d x) { return vm_exp(x); }
static v2d v_asin(v2d x) { return vm_asin(x); }
static v2d v_tanh(v2d x) { return vm_tanh(x); }
static v2d v_sqrt(v2d x) { return vm_sqrt(x); }
/* the ranges the tyre code calls them on, and beyond */
static const vfn FNS[] = {
    {"atan", v_atan, atan, -1e3, 1e3}, {"sin", v_sin, sin, -40, 40},   {"cos", v_cos, cos, -40, 40},
    {"exp", v_exp, exp, -30, 30},      {"asin", v_asin, asin, -1, 1}, {"tanh", v_tanh, tanh, -30, 30},
    {"sqrt", v_sqrt, sqrt, 0, 1e4},
};

static uint64_t bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
/* distance in units in the last place between two finite doubles of the same sign */
static double ulps(double a, double b) {
  if (a == b) return 0;
  if ((a < 0) != (b < 0)) return fabs(a - b) / nextafter(0, 1);
  uint64_t x = bits(fabs(a)), y = bits(fabs(b));
  return (double)(x > y ? x - y : y - x);
}
static unsigned seed = 7;
static double rnd(double lo, double hi) {
  seed = seed * 1103515245u + 12345u;
  return lo + (hi - lo) * ((seed >> 8) / 16777216.0);
}

MT_TEST(vmath_lanes_are_independent) {
  const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-310, -1e300, 1.0};
  for (size_t f = 0; f < sizeof FNS / sizeof FNS[0]; f++)
    for (int i = 0; i < 20000; i++) {
      double x = rnd(FNS[f].lo, FNS[f].hi), y = i % 10 == 0 ? special[i / 10 % 8] : rnd(FNS[f].lo, FNS[f].hi);
      v2d xy = FNS[f].v((v2d){x, y}), xx = FNS[f].v((v2d){x, x}), yy = FNS[f].v((v2d){y, y});
      CHECK_MSG(bits(xy[0]) == bits(xx[0]), "%s(%.17g) beside %.17g", FNS[f].name, x, y);
      CHECK_MSG(bits(xy[1]) == bits(yy[1]) || (isnan(xy[1]) && isnan(yy[1])), "%s(%.17g) beside %.17g", FNS[f].name,
                y, x);
      CHECK(bits(xx[0]) == bits(xx[1]));
    }
}

MT_TEST(vmath_exp_of_zero_is_one) {
  v2d e = vm_exp((v2d){0.0, -0.0});
  CHECK(e[0] == 1 && e[1] == 1);
}

MT_TEST(vmath_within_a_few_ulp_of_libm) {
  for (size_t f = 0; f < sizeof FNS / sizeof FNS[0]; f++) {
    double worst = 0, at = 0;
    long differ = 0, n = 200000;
    for (long i = 0; i < n; i++) {
      double x = rnd(FNS[f].lo, FNS[f].hi);
      if (i % 4 == 0) x *= 1e-3;   /* near zero too */
      double v = FNS[f].v((v2d){x, x})[0], s = FNS[f].s(x), u = ulps(v, s);
      differ += u != 0;
      if (u > worst) worst = u, at = x;
    }
    fprintf(stderr, "    %-5s %s: differs from libm at %.1f %% of %ld points, at most %g ulp (at %.6g)\n", FNS[f].name,
            VM_LIBMVEC ? "libmvec" : "libm per lane", 100.0 * differ / n, n, worst, at);
    CHECK_MSG(worst <= 4, "%s: %g ulp from libm at %.17g", FNS[f].name, worst, at);
    if (!strcmp(FNS[f].name, "sqrt")) CHECK(differ == 0);   /* IEEE: correctly rounded both ways */
  }
}

MT_TEST(vmath_sign_and_abs_per_lane) {
  const double x[] = {2.5, -3, 0.0, -0.0, NAN, -INFINITY, 1e-320, -1e-320};
  const double sg[] = {1, -1, 0, 0, 0, -1, 1, -1};
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++) {
      v2d s = vm_sgn((v2d){x[i], x[j]}), a = vm_fabs((v2d){x[i], x[j]});
      CHECK(s[0] == sg[i] && s[1] == sg[j]);
      CHECK(bits(s[0]) != bits(-0.0) && bits(s[1]) != bits(-0.0));   /* +0, as tyre.c's sgn returned */
      CHECK(bits(a[0]) == bits(fabs(x[i])) || isnan(x[i]));
      CHECK(bits(a[1]) == bits(fabs(x[j])) || isnan(x[j]));
    }
}
