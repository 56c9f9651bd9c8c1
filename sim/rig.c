/* rig.c — what a loaded rig answers (see rig.h): names to indices, the spring laws, the drag
 * area, the total mass, and the shock linkage solved exactly. Reading and checking a rig file is
 * sim/rig_read.c; the Lua state, --set and the parameter list are sim/rig_load.c and
 * sim/rig_set.c. Nothing here allocates or fails except as rig.h says. */
#include "sim/rig.h"
#include "base/vec3.h"

#include <math.h>
#include <string.h>

/*---- small vector helpers ----*/

/*---- spring laws ----*/

double rig_sd_spring(const rig_sd* s, double x) {
  double f;
  if (s->ntab >= 2) {
    int i = 0;
    while (i < s->ntab - 2 && x > s->tab_x[i + 1]) i++;
    double u = (x - s->tab_x[i]) / (s->tab_x[i + 1] - s->tab_x[i]);
    f = s->tab_f[i] + u * (s->tab_f[i + 1] - s->tab_f[i]);   /* linear, extrapolated at the ends */
  } else {
    f = s->preload + s->k * (x - s->x_min);
  }
  int stops = s->x_min != 0 || s->x_max != 0;
  if (stops) {
    /* Below full extension the top-out stop pushes back against the preloaded spring; beyond
     * full compression the bump stop adds to it. Continuous everywhere (a jump would make the
     * force field non-conservative in discrete time). */
    if (x < s->x_min) f += s->k_stop * (x - s->x_min);
    else if (x > s->x_max) f += s->k_stop * (x - s->x_max);
  }
  return f;
}

double rig_sd_force(const rig_sd* s, double x, double xd) {
  double c = xd > 0 ? s->c_comp : s->c_reb;
  return rig_sd_spring(s, x) + c * xd;
}

double rig_sd_energy(const rig_sd* s, double x) {
  /* Integrate the spring from 0 to x with Simpson's rule on a fine grid: exact for the piecewise
   * linear laws up to the kinks, which we split at. */
  double pts[RIG_TAB + 4];
  int np = 0;
  pts[np++] = 0;
  double kinks[RIG_TAB + 2];
  int nk = 0;
  if (s->x_min != 0 || s->x_max != 0) {
    kinks[nk++] = s->x_min;
    kinks[nk++] = s->x_max;
  }
  for (int i = 0; i < s->ntab; i++) kinks[nk++] = s->tab_x[i];
  double lo = x < 0 ? x : 0, hi = x < 0 ? 0 : x;
  for (int i = 0; i < nk; i++)
    if (kinks[i] > lo && kinks[i] < hi) pts[np++] = kinks[i];
  pts[np++] = x;
  /* sort */
  for (int i = 0; i < np; i++)
    for (int j = i + 1; j < np; j++)
      if ((x >= 0 && pts[j] < pts[i]) || (x < 0 && pts[j] > pts[i])) {
        double t = pts[i];
        pts[i] = pts[j];
        pts[j] = t;
      }
  double E = 0;
  for (int i = 0; i + 1 < np; i++) {
    double a = pts[i], b = pts[i + 1], m = 0.5 * (a + b);
    E += (b - a) / 6 * (rig_sd_spring(s, a) + 4 * rig_sd_spring(s, m) + rig_sd_spring(s, b));
  }
  return E;   /* work done compressing from the reference pose to x */
}

/*---- linkage ----*/

/* Rotate point p about the y axis through c by angle a (positive: +z toward +x... see rig.h):
 * x' = x cos a + z sin a, z' = −x sin a + z cos a (a right-handed rotation about +y). */
static void rot_y_cs(const double c[3], const double p[3], double ca, double sa, double out[3]) {
  double x = p[0] - c[0], z = p[2] - c[2];
  out[0] = c[0] + x * ca + z * sa;
  out[1] = p[1];
  out[2] = c[2] - x * sa + z * ca;
}
static void rot_y(const double c[3], const double p[3], double a, double out[3]) { rot_y_cs(c, p, cos(a), sin(a), out); }

int rig_linkage_solve(const rig* r, double theta, rig_link_pose* out) {
  const rig_linkage* k = &r->linkage;
  const double* piv = r->joint[k->swingarm_joint].anchor;
  double q[3], ct = cos(theta), st = sin(theta);         /* once for the rod end and the axle */
  rot_y_cs(piv, k->arm_rod, ct, st, q);                  /* pull-rod end on the swingarm */
  /* The crank end p20 lies on the circle about p19 of radius crank_arm and on the circle about
   * q of radius rod_length: intersect the two circles in the x–z plane. */
  double dx = q[0] - k->pivot[0], dz = q[2] - k->pivot[2];
  double d = sqrt(dx * dx + dz * dz);
  double r1 = k->crank_arm, r2 = k->rod_length;
  if (d > r1 + r2 || d < fabs(r1 - r2) || d < 1e-12) return -1;
  double a = (r1 * r1 - r2 * r2 + d * d) / (2 * d);
  double h2 = r1 * r1 - a * a;
  double h = sqrt(h2 > 0 ? h2 : 0);
  double ux = dx / d, uz = dz / d;
  double bx = k->pivot[0] + a * ux, bz = k->pivot[2] + a * uz;
  /* Two solutions; keep the one on the same side of the line p19→q as in the reference pose,
   * which is the branch the real linkage stays on. */
  double ref_side;
  {
    double q0[3];
    memcpy(q0, k->arm_rod, sizeof q0);
    double ex = q0[0] - k->pivot[0], ez = q0[2] - k->pivot[2];
    double fx = k->crank_rod[0] - k->pivot[0], fz = k->crank_rod[2] - k->pivot[2];
    ref_side = ex * fz - ez * fx >= 0 ? 1 : -1;
  }
  /* perpendicular (−uz, ux); side of p = sign(cross(u, p − pivot)) */
  double p1x = bx - h * uz, p1z = bz + h * ux;
  double s1 = dx * (p1z - k->pivot[2]) - dz * (p1x - k->pivot[0]);
  double px, pz;
  if ((s1 >= 0 ? 1 : -1) == ref_side) {
    px = p1x;
    pz = p1z;
  } else {
    px = bx + h * uz;
    pz = bz - h * ux;
  }
  /* crank angle: rotation about +y taking the reference crank_rod arm to the solved point */
  double ax0 = k->crank_rod[0] - k->pivot[0], az0 = k->crank_rod[2] - k->pivot[2];
  double ax1 = px - k->pivot[0], az1 = pz - k->pivot[2];
  /* with x' = x cos + z sin, z' = −x sin + z cos: angle = atan2(z0·x1 − x0·z1, x0·x1 + z0·z1) */
  double phi = atan2(az0 * ax1 - ax0 * az1, ax0 * ax1 + az0 * az1);
  out->crank_angle = phi;
  out->rod_end_crank[0] = px;
  out->rod_end_crank[1] = 0;
  out->rod_end_crank[2] = pz;
  memcpy(out->rod_end_arm, q, sizeof q);
  rot_y(k->pivot, k->crank_shock, phi, out->shock_bottom);
  memcpy(out->shock_top, k->frame_shock, sizeof out->shock_top);
  out->shock_length = dist3(out->shock_top, out->shock_bottom);
  /* Motion ratio by implicit differentiation of |p20(φ) − q(θ)|² = L²:
   * dφ/dθ = (w·dq/dθ) / (w·dp20/dφ), w = p20 − q; a rotation's rate is (z, −x) of the arm. */
  double wx = px - q[0], wz = pz - q[2];
  double dq_x = q[2] - piv[2], dq_z = -(q[0] - piv[0]);
  double dp_x = pz - k->pivot[2], dp_z = -(px - k->pivot[0]);
  double den = wx * dp_x + wz * dp_z;
  double dphi = fabs(den) > 1e-15 ? (wx * dq_x + wz * dq_z) / den : 0;
  double sb[3];
  memcpy(sb, out->shock_bottom, sizeof sb);
  double ds_x = (sb[2] - k->pivot[2]) * dphi, ds_z = -(sb[0] - k->pivot[0]) * dphi;
  double lx = sb[0] - out->shock_top[0], lz = sb[2] - out->shock_top[2];
  out->dlength_dtheta = (lx * ds_x + lz * ds_z) / out->shock_length;
  /* wheel vertical rate: the rear axle's z speed per unit θ */
  const double* axle = r->wheel[RIG_REAR].centre;
  double wheel_dz = -((rot_y_cs(piv, axle, ct, st, sb), sb[0]) - piv[0]);
  out->motion_ratio = fabs(out->dlength_dtheta) > 1e-12 ? wheel_dz / -out->dlength_dtheta : 0;
  return 0;
}

int rig_body_index(const rig* r, const char* name) {
  for (int i = 0; i < r->nbody; i++)
    if (strcmp(r->body[i].name, name) == 0) return i;
  return -1;
}

int rig_joint_index(const rig* r, const char* name) {
  for (int i = 0; i < r->njoint; i++)
    if (strcmp(r->joint[i].name, name) == 0) return i;
  return -1;
}

const char* const rig_posture_names[RIG_NPOSTURE] = {"hip_shift", "torso_lean", "torso_pitch"};

double rig_cd_area(const rig_aero* a, double pitch) {
  if (!a->has_posture) return a->cd_area;
  if (pitch >= 0) {
    double u = fmin(pitch / a->pitch_tucked, 1);
    return a->cd_area + u * (a->cd_tucked - a->cd_area);
  }
  double u = fmin(pitch / a->pitch_upright, 1);
  return a->cd_area + u * (a->cd_upright - a->cd_area);
}

double rig_total_mass(const rig* r, double com[3]) {
  double m = 0, c[3] = {0, 0, 0};
  for (int i = 0; i < r->nbody; i++) {
    m += r->body[i].mass;
    for (int k = 0; k < 3; k++) c[k] += r->body[i].mass * r->body[i].com[k];
  }
  if (com)
    for (int k = 0; k < 3; k++) com[k] = c[k] / m;
  return m;
}
