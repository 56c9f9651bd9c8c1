/* vec3.h — the small 3-vector helpers every layer uses (double[3], no types of its own).
 *
 * One copy for the whole program: these were written out as statics in eight files; the
 * expressions here are those copies', term for term, so that moving a caller onto this header
 * changes no bit of its results (tests/house_sums.sh compares every product before and after).
 *
 * Contract:
 *   - dot3(a, b)     a[0]*b[0] + a[1]*b[1] + a[2]*b[2], summed left to right;
 *   - norm3(a)       sqrt(dot3(a, a));
 *   - dist3(a, b)    norm3(a − b);
 *   - cross3(a,b,o)  o = a × b; o may be a or b (all three terms are computed before any store);
 *   - unit3(a)       a /= norm3(a) in place, left unchanged when the norm is 0 or NaN.
 * No allocation, no errors: NaN and infinity pass through as IEEE arithmetic makes them.
 * The order of the operations is part of the contract (bit-identical takes and exports): a
 * change here changes recorded takes, so check it with tests/house_sums.sh. */
#ifndef MT_VEC3_H
#define MT_VEC3_H

#include <math.h>

static inline double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static inline double norm3(const double a[3]) { return sqrt(dot3(a, a)); }

static inline double dist3(const double a[3], const double b[3]) {
  double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return norm3(d);
}

static inline void cross3(const double a[3], const double b[3], double o[3]) {
  double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
  o[0] = x, o[1] = y, o[2] = z;
}

static inline void unit3(double a[3]) {
  double n = norm3(a);
  if (n > 0) a[0] /= n, a[1] /= n, a[2] /= n;
}

#endif
