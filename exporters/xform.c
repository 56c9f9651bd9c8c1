/* xform.c — quaternion and pose arithmetic for the exporter (see xform.h).
 *
 * The axis change is the rotation C = Rx(-90°). A node's local transform in the file is
 * C·T·C⁻¹ (its translation and quaternion vector part rotated by C) and every vertex is C·v:
 * the whole tree is conjugated, so an importer that undoes y-up per node (Blender's glTF
 * importer does) recovers the original z-up transforms exactly, not merely the geometry. */
#include "exporters/xform.h"

#include <math.h>

void ex_qmul(const double a[4], const double b[4], double r[4]) {
  double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  r[0] = w, r[1] = x, r[2] = y, r[3] = z;
}

void ex_qconj(const double q[4], double r[4]) {
  r[0] = q[0], r[1] = -q[1], r[2] = -q[2], r[3] = -q[3];
}

double ex_qnorm(double q[4]) {
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n > 0)
    for (int i = 0; i < 4; i++) q[i] /= n;
  return n;
}

void ex_qrot(const double q[4], const double v[3], double r[3]) {
  /* v' = v + 2w (u×v) + 2 u×(u×v), u the vector part: fewer operations than two products */
  const double* u = q + 1;
  double t[3] = {2 * (u[1] * v[2] - u[2] * v[1]), 2 * (u[2] * v[0] - u[0] * v[2]),
                 2 * (u[0] * v[1] - u[1] * v[0])};
  double x = v[0] + q[0] * t[0] + (u[1] * t[2] - u[2] * t[1]);
  double y = v[1] + q[0] * t[1] + (u[2] * t[0] - u[0] * t[2]);
  double z = v[2] + q[0] * t[2] + (u[0] * t[1] - u[1] * t[0]);
  r[0] = x, r[1] = y, r[2] = z;
}

void ex_qaxis(const double axis[3], double angle, double q[4]) {
  double n = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  double s = sin(0.5 * angle) / n;
  q[0] = cos(0.5 * angle), q[1] = axis[0] * s, q[2] = axis[1] * s, q[3] = axis[2] * s;
}

double ex_qangle(const double a[4], const double b[4]) {
  /* angle of a* ⊗ b from atan2 of its vector and scalar parts: accurate near 0 and π,
   * where acos(dot) loses half the digits */
  double ac[4], d[4];
  ex_qconj(a, ac);
  ex_qmul(ac, b, d);
  double s = sqrt(d[1] * d[1] + d[2] * d[2] + d[3] * d[3]);
  return 2 * atan2(s, fabs(d[0]));
}

void ex_qslerp(const double a[4], const double b[4], double u, double r[4]) {
  double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  double sb = 1;
  if (dot < 0) dot = -dot, sb = -1;   /* the shortest arc: q and -q are the same rotation */
  double ka, kb;
  if (dot > 0.9999) {                 /* nearly equal: linear is exact to rounding */
    ka = 1 - u, kb = u;
  } else {
    double th = acos(dot), s = sin(th);
    ka = sin((1 - u) * th) / s, kb = sin(u * th) / s;
  }
  for (int i = 0; i < 4; i++) r[i] = ka * a[i] + sb * kb * b[i];
  ex_qnorm(r);
}

void ex_qnlerp(const double a[4], const double b[4], double u, double r[4]) {
  double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  double sb = dot < 0 ? -1 : 1;
  for (int i = 0; i < 4; i++) r[i] = (1 - u) * a[i] + sb * u * b[i];
  ex_qnorm(r);
}

void ex_pose_local(const double parent[7], const double world[7], double local[7]) {
  double pc[4], d[3] = {world[0] - parent[0], world[1] - parent[1], world[2] - parent[2]};
  ex_qconj(parent + 3, pc);
  ex_qrot(pc, d, local);
  ex_qmul(pc, world + 3, local + 3);
  ex_qnorm(local + 3);
}

void ex_pose_compose(const double parent[7], const double local[7], double world[7]) {
  double r[3];
  ex_qrot(parent + 3, local, r);
  double q[4];
  ex_qmul(parent + 3, local + 3, q);
  ex_qnorm(q);
  for (int i = 0; i < 3; i++) world[i] = parent[i] + r[i];
  for (int i = 0; i < 4; i++) world[3 + i] = q[i];
}

void ex_yup_vec(double v[3]) {
  double y = v[1];
  v[1] = v[2];
  v[2] = -y;
}

void ex_yup_quat(double q[4]) { ex_yup_vec(q + 1); }

/* Trace form, branching on the largest diagonal term (no loss of precision near 180°). */
void ex_mat_quat(const double x[3], const double y[3], const double z[3], double q[4]) {
  double R[3][3] = {{x[0], y[0], z[0]}, {x[1], y[1], z[1]}, {x[2], y[2], z[2]}};
  double tr = R[0][0] + R[1][1] + R[2][2];
  if (tr > 0) {
    double s = 2 * sqrt(1 + tr);
    q[0] = 0.25 * s, q[1] = (R[2][1] - R[1][2]) / s, q[2] = (R[0][2] - R[2][0]) / s, q[3] = (R[1][0] - R[0][1]) / s;
  } else if (R[0][0] > R[1][1] && R[0][0] > R[2][2]) {
    double s = 2 * sqrt(1 + R[0][0] - R[1][1] - R[2][2]);
    q[0] = (R[2][1] - R[1][2]) / s, q[1] = 0.25 * s, q[2] = (R[0][1] + R[1][0]) / s, q[3] = (R[0][2] + R[2][0]) / s;
  } else if (R[1][1] > R[2][2]) {
    double s = 2 * sqrt(1 + R[1][1] - R[0][0] - R[2][2]);
    q[0] = (R[0][2] - R[2][0]) / s, q[1] = (R[0][1] + R[1][0]) / s, q[2] = 0.25 * s, q[3] = (R[1][2] + R[2][1]) / s;
  } else {
    double s = 2 * sqrt(1 + R[2][2] - R[0][0] - R[1][1]);
    q[0] = (R[1][0] - R[0][1]) / s, q[1] = (R[0][2] + R[2][0]) / s, q[2] = (R[1][2] + R[2][1]) / s, q[3] = 0.25 * s;
  }
  ex_qnorm(q);
}
