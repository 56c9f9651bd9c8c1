/* xform.h — rigid transforms for the exporter: unit quaternions (w x y z, Hamilton product,
 * active rotation v' = q v q*), poses (position + quaternion), interpolation, and the z-up →
 * y-up axis change. Small, exact formulas; every function is total on unit inputs. */
#ifndef EX_XFORM_H
#define EX_XFORM_H

/* Quaternion product r = a ⊗ b (apply b, then a). r may alias a or b. */
void ex_qmul(const double a[4], const double b[4], double r[4]);
/* Conjugate (inverse of a unit quaternion). */
void ex_qconj(const double q[4], double r[4]);
/* Normalise in place; returns the norm before normalising. */
double ex_qnorm(double q[4]);
/* The unit quaternion (w x y z) of the rotation whose matrix has columns x, y, z (orthonormal). */
void ex_mat_quat(const double x[3], const double y[3], const double z[3], double q[4]);
/* Rotate v by q: r = q v q*. r may alias v. */
void ex_qrot(const double q[4], const double v[3], double r[3]);
/* Unit quaternion for a rotation by angle (rad) about axis (need not be unit, not zero). */
void ex_qaxis(const double axis[3], double angle, double q[4]);
/* Angle of the rotation from a to b, in [0, π], sign-insensitive (q and -q are one rotation). */
double ex_qangle(const double a[4], const double b[4]);
/* Shortest-arc spherical interpolation from a (u = 0) to b (u = 1). */
void ex_qslerp(const double a[4], const double b[4], double u, double r[4]);
/* Normalised componentwise interpolation, shortest arc (what a consumer that keys quaternion
 * components linearly shows between keys, e.g. Blender's fcurves). */
void ex_qnlerp(const double a[4], const double b[4], double u, double r[4]);
/* Local pose of a child from world poses: p = R(qp)ᵀ (pw - pp), q = qp* ⊗ qw.
 * Poses are x y z qw qx qy qz. */
void ex_pose_local(const double parent[7], const double world[7], double local[7]);
/* Compose: world = parent ∘ local. */
void ex_pose_compose(const double parent[7], const double local[7], double world[7]);
/* z-up → y-up: (x, y, z) → (x, z, -y); a quaternion's vector part likewise. In place. */
void ex_yup_vec(double v[3]);
void ex_yup_quat(double q[4]);

#endif
