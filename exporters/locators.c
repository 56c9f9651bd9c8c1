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

/* How far the rigid torus (centre c, unit axis w, major radius rmaj, tube crown) reaches below
 * the road at its point lowest along the road's normal (m, > 0: sunk), as the tyre model measures
 * its penetration (sim/tyre.c), but against the road function at that point rather than the
 * plane under the centre: d gets the unit direction in the wheel plane from the centre towards
 * that point, n the road's normal there. Three rounds: the point moves by millimetres. */
static double torus_sink(const road* rd, const double c[3], const double w[3], double rmaj, double crown, int* hint,
                         double d[3], double n[3]) {
  road_point rp;
  if (rd->query(rd->self, c[0], c[1], *hint, &rp)) return 0;
  double p[3];
  for (int it = 0; it < 3; it++) {
    memcpy(n, rp.n, sizeof rp.n);
    double nw = dot3(n, w);
    for (int k = 0; k < 3; k++) d[k] = -n[k] + nw * w[k];
    unit3(d);
    for (int k = 0; k < 3; k++) p[k] = c[k] + rmaj * d[k] - crown * n[k];
    *hint = rp.hint;
    if (rd->query(rd->self, p[0], p[1], *hint, &rp)) return 0;
  }
  *hint = rp.hint;
  return (rp.z - p[2]) * rp.n[2];
}

void ex_tyre_pose(const ex_locator* l, const double ww[7], int* hint, double out[7], double* sink) {
  double c[3], w[3], d[3], n[3] = {0, 0, 1};
  ex_qrot(ww + 3, l->wheel_centre, c);
  for (int k = 0; k < 3; k++) c[k] += ww[k];
  ex_qrot(ww + 3, l->wheel_axis, w);
  unit3(w);
  double s = l->road ? torus_sink(l->road, c, w, l->r0 - l->crown, l->crown, hint, d, n) : 0;
  /* sunk: the tyre is moved up its own wheel plane (away from d) until it touches the road; the
   * move along d lifts the lowest point by −d·n per metre (cos camber), bounded away from 0.
   * Floating (the wheel in the air) it stays where the wheel is. */
  double lift = s > 0 ? fmin(s, l->crown) / fmax(0.2, -dot3(d, n)) : 0;
  for (int k = 0; k < 3; k++) out[k] = c[k] - lift * d[k];
  if (sink) *sink = s;
  double x[3] = {w[1] * n[2] - w[2] * n[1], w[2] * n[0] - w[0] * n[2], w[0] * n[1] - w[1] * n[0]};
  if (!(sqrt(dot3(x, x)) > 1e-9)) x[0] = 1, x[1] = x[2] = 0;   /* a wheel lying flat: any x across w */
  unit3(x);
  double z[3] = {x[1] * w[2] - x[2] * w[1], x[2] * w[0] - x[0] * w[2], x[0] * w[1] - x[1] * w[0]};
  unit3(z);
  double y[3] = {z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]};
  quat_of_axes(x, y, z, out + 3);
}

double* ex_locator_contact_track(const ex_motion* m, const ex_locator* l) {
  double* out = mt_alloc((size_t)m->nsteps * 7 * sizeof(double));
  int hint = -1;
  for (long i = 0; i < m->nsteps; i++) {
    const double* ww = m->pose + 7 * ((size_t)i * (size_t)m->nbody + (size_t)l->wheel);
    if (l->tyre) ex_tyre_pose(l, ww, &hint, out + 7 * i, NULL);
    else ex_locator_contact(l, ww, out + 7 * i);
  }
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
