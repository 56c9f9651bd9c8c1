/* locators.c — contact patch poses and locator checks (see locators.h). */
#include "exporters/locators.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/xform.h"
#include "base/vec3.h"

/* Unit quaternion of the rotation whose matrix has columns x, y, z (right-handed, orthonormal). */
static void quat_of_axes(const double x[3], const double y[3], const double z[3], double q[4]) {
  double tr = x[0] + y[1] + z[2];
  if (tr > 0) {
    double s = 2 * sqrt(1 + tr);
    q[0] = 0.25 * s, q[1] = (y[2] - z[1]) / s, q[2] = (z[0] - x[2]) / s, q[3] = (x[1] - y[0]) / s;
  } else if (x[0] > y[1] && x[0] > z[2]) {
    double s = 2 * sqrt(1 + x[0] - y[1] - z[2]);
    q[0] = (y[2] - z[1]) / s, q[1] = 0.25 * s, q[2] = (y[0] + x[1]) / s, q[3] = (z[0] + x[2]) / s;
  } else if (y[1] > z[2]) {
    double s = 2 * sqrt(1 + y[1] - x[0] - z[2]);
    q[0] = (z[0] - x[2]) / s, q[1] = (y[0] + x[1]) / s, q[2] = 0.25 * s, q[3] = (z[1] + y[2]) / s;
  } else {
    double s = 2 * sqrt(1 + z[2] - x[0] - y[1]);
    q[0] = (x[1] - y[0]) / s, q[1] = (z[0] + x[2]) / s, q[2] = (z[1] + y[2]) / s, q[3] = 0.25 * s;
  }
  ex_qnorm(q);
}

void ex_locator_contact(const ex_locator* l, const double ww[7], double out[7]) {
  static const double n[3] = {0, 0, 1};
  double c[3], w[3];
  ex_qrot(ww + 3, l->wheel_centre, c);
  for (int k = 0; k < 3; k++) c[k] += ww[k];
  ex_qrot(ww + 3, l->wheel_axis, w);
  unit3(w);
  double nw = dot3(n, w), d[3];
  for (int k = 0; k < 3; k++) d[k] = -n[k] + nw * w[k];
  unit3(d);
  for (int k = 0; k < 3; k++) out[k] = c[k] + (l->r0 - l->crown) * d[k] - l->crown * n[k];
  double x[3] = {w[1] * n[2] - w[2] * n[1], w[2] * n[0] - w[0] * n[2], w[0] * n[1] - w[1] * n[0]};
  unit3(x);
  double y[3] = {n[1] * x[2] - n[2] * x[1], n[2] * x[0] - n[0] * x[2], n[0] * x[1] - n[1] * x[0]};
  quat_of_axes(x, y, n, out + 3);
}

double* ex_locator_contact_track(const ex_motion* m, const ex_locator* l) {
  double* out = mt_alloc((size_t)m->nsteps * 7 * sizeof(double));
  for (long i = 0; i < m->nsteps; i++)
    ex_locator_contact(l, m->pose + 7 * ((size_t)i * (size_t)m->nbody + (size_t)l->wheel), out + 7 * i);
  return out;
}

const char* ex_locator_check(const ex_motion* m, const ex_locator* l) {
  if (!l->name || !l->name[0]) return "name";
  if (l->body < 0 || l->body >= m->nbody) return "body";
  if (l->wheel >= 0) {
    if (l->wheel >= m->nbody) return "wheel";
    if (!(l->r0 > l->crown && l->crown > 0 && mt_isfinite(l->r0))) return "r0";
    double a = sqrt(dot3(l->wheel_axis, l->wheel_axis));
    if (!(a > 0) || !mt_isfinite(a)) return "wheel_axis";
    for (int k = 0; k < 3; k++)
      if (!mt_isfinite(l->wheel_centre[k])) return "wheel_centre";
    /* the wheel's axis must not point along the road normal (a wheel lying flat) */
    return NULL;
  }
  for (int k = 0; k < 7; k++)
    if (!mt_isfinite(l->local[k])) return "local";
  double qn = sqrt(l->local[3] * l->local[3] + l->local[4] * l->local[4] + l->local[5] * l->local[5] + l->local[6] * l->local[6]);
  if (fabs(qn - 1) > 1e-6) return "local";
  if (l->nshape < 0 || (l->nshape > 0 && !l->shapes)) return "nshape";
  return NULL;
}
