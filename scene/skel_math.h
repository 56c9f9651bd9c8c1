/* skel_math.h — the rotations the skeleton needs (scene/skeleton.c, scene/skel_pose.c only):
 * 3×3 rotation matrices, row-major, columns = a frame's axes in world (as sc_quat_mat gives), and
 * unit quaternions w x y z. Small and inline; no state. */
#ifndef SK_MATH_H
#define SK_MATH_H

#include <math.h>
#include <string.h>

#include "base/vec3.h"

/* o = M v */
static inline void skm_mv(const double M[9], const double v[3], double o[3]) {
  double r[3];
  for (int i = 0; i < 3; i++) r[i] = M[3 * i] * v[0] + M[3 * i + 1] * v[1] + M[3 * i + 2] * v[2];
  memcpy(o, r, sizeof r);
}
/* o = Mᵀ v */
static inline void skm_mtv(const double M[9], const double v[3], double o[3]) {
  double r[3];
  for (int i = 0; i < 3; i++) r[i] = M[i] * v[0] + M[3 + i] * v[1] + M[6 + i] * v[2];
  memcpy(o, r, sizeof r);
}
/* O = A B */
static inline void skm_mm(const double A[9], const double B[9], double O[9]) {
  double r[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) r[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
  memcpy(O, r, sizeof r);
}
/* O = Aᵀ B */
static inline void skm_mtv_m(const double A[9], const double B[9], double O[9]) {
  double r[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) r[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
  memcpy(O, r, sizeof r);
}
/* The frame with columns x, y, z. */
static inline void skm_cols(const double x[3], const double y[3], const double z[3], double M[9]) {
  for (int i = 0; i < 3; i++) M[3 * i] = x[i], M[3 * i + 1] = y[i], M[3 * i + 2] = z[i];
}
static inline void skm_col(const double M[9], int j, double c[3]) {
  for (int i = 0; i < 3; i++) c[i] = M[3 * i + j];
}
/* A bone frame: y along dir, z the part of zref ⟂ dir (both need not be unit; zref not ∥ dir),
 * x = y × z. */
static inline void skm_bone_frame(const double dir[3], const double zref[3], double M[9]) {
  double y[3] = {dir[0], dir[1], dir[2]}, z[3], x[3];
  unit3(y);
  double d = dot3(zref, y);
  for (int k = 0; k < 3; k++) z[k] = zref[k] - d * y[k];
  unit3(z);
  cross3(y, z, x);
  skm_cols(x, y, z, M);
}
/* Rotation by angle a about unit axis u. */
static inline void skm_axis(const double u[3], double a, double M[9]) {
  double c = cos(a), s = sin(a), t = 1 - c;
  double R[9] = {t * u[0] * u[0] + c,        t * u[0] * u[1] - s * u[2], t * u[0] * u[2] + s * u[1],
                 t * u[0] * u[1] + s * u[2], t * u[1] * u[1] + c,        t * u[1] * u[2] - s * u[0],
                 t * u[0] * u[2] - s * u[1], t * u[1] * u[2] + s * u[0], t * u[2] * u[2] + c};
  memcpy(M, R, sizeof R);
}
static inline void skm_quat_mat(const double q[4], double R[9]) {
  double w = q[0], x = q[1], y = q[2], z = q[3], n = w * w + x * x + y * y + z * z;
  double s = n > 0 ? 2 / n : 0;
  R[0] = 1 - s * (y * y + z * z), R[1] = s * (x * y - w * z), R[2] = s * (x * z + w * y);
  R[3] = s * (x * y + w * z), R[4] = 1 - s * (x * x + z * z), R[5] = s * (y * z - w * x);
  R[6] = s * (x * z - w * y), R[7] = s * (y * z + w * x), R[8] = 1 - s * (x * x + y * y);
}
/* The unit quaternion of rotation R (Shepperd's method: the largest of w, x, y, z first, for
 * accuracy), w ≥ 0. */
static inline void skm_mat_quat(const double R[9], double q[4]) {
  double tr = R[0] + R[4] + R[8];
  if (tr > 0) {
    double s = 2 * sqrt(1 + tr);
    q[0] = 0.25 * s, q[1] = (R[7] - R[5]) / s, q[2] = (R[2] - R[6]) / s, q[3] = (R[3] - R[1]) / s;
  } else if (R[0] > R[4] && R[0] > R[8]) {
    double s = 2 * sqrt(1 + R[0] - R[4] - R[8]);
    q[0] = (R[7] - R[5]) / s, q[1] = 0.25 * s, q[2] = (R[1] + R[3]) / s, q[3] = (R[2] + R[6]) / s;
  } else if (R[4] > R[8]) {
    double s = 2 * sqrt(1 + R[4] - R[0] - R[8]);
    q[0] = (R[2] - R[6]) / s, q[1] = (R[1] + R[3]) / s, q[2] = 0.25 * s, q[3] = (R[5] + R[7]) / s;
  } else {
    double s = 2 * sqrt(1 + R[8] - R[0] - R[4]);
    q[0] = (R[3] - R[1]) / s, q[1] = (R[2] + R[6]) / s, q[2] = (R[5] + R[7]) / s, q[3] = 0.25 * s;
  }
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]), sg = q[0] < 0 ? -1 : 1;
  for (int k = 0; k < 4; k++) q[k] *= sg / n;
}
/* The rotation a fraction t of the way from A to B (slerp of their quaternions, shorter arc). */
static inline void skm_slerp(const double A[9], const double B[9], double t, double O[9]) {
  double a[4], b[4], q[4];
  skm_mat_quat(A, a), skm_mat_quat(B, b);
  double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (d < 0) {
    d = -d;
    for (int k = 0; k < 4; k++) b[k] = -b[k];
  }
  double wa = 1 - t, wb = t;
  if (d < 0.9995) {
    double th = acos(d), s = sin(th);
    wa = sin((1 - t) * th) / s, wb = sin(t * th) / s;
  }
  for (int k = 0; k < 4; k++) q[k] = wa * a[k] + wb * b[k];
  skm_quat_mat(q, O);   /* normalises */
}

#endif
