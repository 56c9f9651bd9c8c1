/* contact.c — contact spheres against the road (see contact.h). */
#include "sim/contact.h"

#include <math.h>
#include <string.h>

#include "base/vec3.h"

void contact_eval(const contact_point* cp, const road* rd, const double c[3], const double vc[3], const double w[3],
                  int* hint, contact_result* o) {
  memset(o, 0, sizeof *o);
  road_point rp = {1, 0, {0, 0, 1}, 0, 0, -1, -1, 0, 0, 0};
  if (rd && rd->query) rd->query(rd->self, c[0], c[1], hint ? *hint : -1, &rp);
  if (hint) *hint = rp.hint;
  /* the surface plane through the road point under the centre, normal n: height of the centre above it */
  double h = (c[2] - rp.z) * rp.n[2];
  double depth = cp->radius - h;
  if (!(depth > 0)) return;
  /* lowest point of the sphere, and its velocity (centre velocity + ω × r) */
  const double* n = rp.n;
  double r[3] = {-cp->radius * n[0], -cp->radius * n[1], -cp->radius * n[2]};
  double v[3] = {vc[0] + w[1] * r[2] - w[2] * r[1], vc[1] + w[2] * r[0] - w[0] * r[2], vc[2] + w[0] * r[1] - w[1] * r[0]};
  double vn = dot3(v, n);
  /* damping grows in over the first CONTACT_DAMP_DEPTH of depth (Hunt–Crossley-like): no force
   * step at touch-down, however fast the sphere arrives */
  double fn = cp->k * depth - cp->c * fmin(1, depth / CONTACT_DAMP_DEPTH) * vn;   /* δ̇ = −vn */
  if (!(fn > 0)) return;
  double vt[3] = {v[0] - vn * n[0], v[1] - vn * n[1], v[2] - vn * n[2]};
  double s = sqrt(dot3(vt, vt) + CONTACT_V_EPS * CONTACT_V_EPS);
  double g = cp->mu * fn / s;   /* |Ft| = μ·Fn·|vt| / s */
  o->touching = 1;
  o->depth = depth;
  o->fn = fn;
  o->ft = g * sqrt(dot3(vt, vt));
  for (int i = 0; i < 3; i++) {
    o->point[i] = c[i] + r[i];
    o->force[i] = fn * n[i] - g * vt[i];
  }
}
