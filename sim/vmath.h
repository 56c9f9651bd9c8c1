/* vmath.h — two doubles at once (v2d) and libm's functions on both.
 *
 * The vehicle has two tyres whose Magic Formulas are the same expressions with other numbers;
 * evaluated side by side, lane 0 the front and lane 1 the rear, every libm call serves both.
 * On x86-64 with glibc 2.35 or later the calls go to glibc's libmvec (the x86-64 vector ABI's
 * two-lane SSE functions, _ZGVbN2v_*), which evaluates both lanes in about the time libm takes
 * for one (docs/speed.md, "The two tyres in one pass"); elsewhere each lane goes through libm.
 *
 * Invariants the callers rely on (tests/unit/test_vmath.c checks them):
 *   - lane i's result depends on lane i's argument only, so a value computed beside another is
 *     the same, bit for bit, as the same value computed beside itself (tyre.c's single-tyre
 *     functions are the pair with both lanes the same tyre);
 *   - exp(±0) is exactly 1 (tyre.c's zero shortcuts skip it);
 *   - the results are within a few ulp of libm's (libmvec is not correctly rounded; libm's
 *     scalar functions are not always either). They are not libm's bits: a take recorded by a
 *     build that called libm once per tyre replays here as another build's (docs/takefile.md).
 *
 * The arithmetic operators (+ − × ÷) on v2d are IEEE per lane, as on doubles; comparisons give
 * v2di masks (all ones or zero per lane). */
#ifndef MT_VMATH_H
#define MT_VMATH_H

#include <math.h>

typedef double v2d __attribute__((vector_size(16)));
typedef long long v2di __attribute__((vector_size(16)));

/* -DVM_NO_LIBMVEC builds the libm path on x86-64 too (the Makefile still links libmvec, unused) */
#if !defined(VM_NO_LIBMVEC) && defined(__x86_64__) && defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
#define VM_LIBMVEC 1
#include <emmintrin.h>
/* glibc's libmvec, x86-64 vector ABI, SSE variant ('b'), two lanes ('N2'), one vector argument ('v') */
__m128d _ZGVbN2v_atan(__m128d);
__m128d _ZGVbN2v_sin(__m128d);
__m128d _ZGVbN2v_cos(__m128d);
__m128d _ZGVbN2v_exp(__m128d);
__m128d _ZGVbN2v_asin(__m128d);
__m128d _ZGVbN2v_tanh(__m128d);
static inline v2d vm_atan(v2d x) { return (v2d)_ZGVbN2v_atan((__m128d)x); }
static inline v2d vm_sin(v2d x) { return (v2d)_ZGVbN2v_sin((__m128d)x); }
static inline v2d vm_cos(v2d x) { return (v2d)_ZGVbN2v_cos((__m128d)x); }
static inline v2d vm_exp(v2d x) { return (v2d)_ZGVbN2v_exp((__m128d)x); }
static inline v2d vm_asin(v2d x) { return (v2d)_ZGVbN2v_asin((__m128d)x); }
static inline v2d vm_tanh(v2d x) { return (v2d)_ZGVbN2v_tanh((__m128d)x); }
static inline v2d vm_sqrt(v2d x) { return (v2d)_mm_sqrt_pd((__m128d)x); }
#else
#define VM_LIBMVEC 0
static inline v2d vm_atan(v2d x) { return (v2d){atan(x[0]), atan(x[1])}; }
static inline v2d vm_sin(v2d x) { return (v2d){sin(x[0]), sin(x[1])}; }
static inline v2d vm_cos(v2d x) { return (v2d){cos(x[0]), cos(x[1])}; }
static inline v2d vm_exp(v2d x) { return (v2d){exp(x[0]), exp(x[1])}; }
static inline v2d vm_asin(v2d x) { return (v2d){asin(x[0]), asin(x[1])}; }
static inline v2d vm_tanh(v2d x) { return (v2d){tanh(x[0]), tanh(x[1])}; }
static inline v2d vm_sqrt(v2d x) { return (v2d){sqrt(x[0]), sqrt(x[1])}; }
#endif

static inline v2d vm_set(double a, double b) { return (v2d){a, b}; }
/* a where m is all ones, 0 (+0) where m is zero */
static inline v2d vm_and(v2di m, v2d a) { return (v2d)(m & (v2di)a); }
/* 1, −1 or 0 (also for NaN) per lane, as tyre.c's sgn */
static inline v2d vm_sgn(v2d x) {
  const v2d one = {1, 1}, z = {0, 0};
  return vm_and(x > z, one) - vm_and(x < z, one);
}
static inline v2d vm_fabs(v2d x) {
  const v2d sign = {-0.0, -0.0};
  return (v2d)(~(v2di)sign & (v2di)x);
}

#endif
