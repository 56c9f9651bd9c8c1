/* contact.h — bodies other than the tyres touching the road: spheres fixed to bodies.
 *
 * Contract. A rig may declare contact spheres (`contacts = { {body = "frame", point = {x, y, z},
 * radius = r, mu = μ, k = …, c = …, name = "…"}, … }`, design frame, reference pose; docs/rig.md).
 * Each sphere that reaches below the road surface pushes back along the surface normal with a
 * penalty force  Fn = max(0, k·δ + c·min(1, δ/δ_d)·δ̇)  (δ the depth of the sphere's lowest point
 * below the surface plane under its centre; the damping grows in over δ_d = CONTACT_DAMP_DEPTH so
 * that a fast arrival makes no force step; never pulling), and slides with Coulomb friction regularised at
 * low speed:  Ft = −μ·Fn·v_t / √(|v_t|² + v_ε²)  (v_t the velocity of the touching point along the
 * surface, v_ε = CONTACT_V_EPS): full μ·Fn above a few v_ε, a stiff viscous drag near rest, no
 * state, so a step depends only on the vehicle's state (bit-exact replay holds).
 *
 * The surface is the road's (the same road_query as the tyres). Off the road's edge the road
 * query describes the nearest cross-section extended outward; contacts keep acting on that
 * extension with their own friction (the tyres there take the kerb's, grass's or gravel's grip,
 * sim/track_surface.h): a fallen machine that slides off the edge does not drop through the world.
 *
 * This module knows nothing of MuJoCo, of rigs or of Lua; it depends on the road alone. The
 * rig reader (sim/rig_read.c) fills a rig's contact_set from its file, each sphere's body as an
 * index into the rig's bodies; the vehicle (sim/vehicle.c, stage_contacts) gives each sphere's
 * centre, velocity and angular velocity and applies the force it returns. */
#ifndef CONTACT_H
#define CONTACT_H

#include "sim/road.h"

#define CONTACT_MAX 32
#define CONTACT_V_EPS 0.05       /* m/s: friction regularisation speed */
#define CONTACT_DAMP_DEPTH 0.005  /* m: depth over which the damping grows in */

typedef struct contact_point {
  char name[32];
  int body;            /* rig body index */
  double point[3];     /* sphere centre, design frame, reference pose */
  double radius;       /* m */
  double mu;           /* sliding friction coefficient against the road */
  double k;            /* N/m, normal penalty stiffness */
  double c;            /* N·s/m, normal penalty damping */
} contact_point;

typedef struct contact_set {
  contact_point p[CONTACT_MAX];
  int n;
} contact_set;

/* What one sphere does against the road in one evaluation. */
typedef struct contact_result {
  int touching;
  double depth;        /* m below the surface (> 0 touching) */
  double fn, ft;       /* N: normal force, friction force magnitude */
  double point[3];     /* the touching point (world) */
  double force[3];     /* total force on the body, world, applied at `point` */
} contact_result;

/* The force of sphere cp (centre c, centre velocity vc, body angular velocity w; world) on the
 * road rd (query NULL: the plane z = 0). hint: the road's hint, kept by the caller. */
void contact_eval(const contact_point* cp, const road* rd, const double c[3], const double vc[3], const double w[3],
                  int* hint, contact_result* out);

#endif
