/* rig_draw.h — orthographic drawing of a rig's visual shapes in any pose (module prefix rd_),
 * shared by `rig draw` (the side elevation in the reference pose) and the renderer's side and
 * rear views (the same shapes moved by a take's poses).
 *
 * A view is an orthographic projection: a world point P goes to the pixel
 *   (ox + s·(P − c)·u,  oy − s·(P − c)·v)
 * with u (screen right) and v (screen up) orthonormal; the viewer looks along −(u × v).
 *
 * Contract: the functions only draw onto the caller's Cairo context (rd_project only computes);
 * the rig and its shapes are the caller's and are not changed; nothing fails, nothing is kept. */
#ifndef RIG_DRAW_H
#define RIG_DRAW_H

#include <cairo.h>
#include "sim/rig.h"

typedef struct rd_view {
  double s, ox, oy;
  double c[3], u[3], v[3];
} rd_view;

/* The side elevation of `rig draw`: x to the right, z up, pixel = (ox + s·x, oy − s·z). */
rd_view rd_side_view(double s, double ox, double oy);
void rd_project(const rd_view* v, const double p[3], double* x, double* y);
/* Draw shape sh (given in a body's frame) with that body at pose (x y z qw qx qy qz; NULL = identity):
 * filled with the shape's colour at opacity `fill`, outlined darker. Boxes are drawn as the hull
 * of their projected corners, capsules and cylinders as screen capsules, spheres as circles,
 * tori as elliptical rings (a wheel seen at any angle). spokes > 0 adds that many spokes to a
 * torus (so a turning wheel shows its rotation). */
void rd_draw_shape(cairo_t* cr, const rd_view* v, const rig_shape* sh, const double* pose, double fill, int spokes);
/* rd_draw_shape with the fill not antialiased (the outline as the context says): its edge lies
 * under the outline, which hides the steps, and it costs half; and the outline (and spokes)
 * opaque, pre-blended with the fill over bg, the view's background colour: a third cheaper
 * (the side and rear views; rig_draw.c outline_source). */
void rd_draw_shape_aliased(cairo_t* cr, const rd_view* v, const rig_shape* sh, const double* pose, double fill, int spokes,
                           const double bg[3]);
/* The side elevation of `rig draw` on a W×H canvas (white already), the rig in its reference
 * pose: ground, bodies, shock linkage, joints and their in-plane axes, contact spheres, centres
 * of mass and body names, main dimensions (wheelbase, a, b, trail, rake, CG height), a 0.5 m
 * scale bar, title and key. Fits x ∈ [−0.45, 1.85] m, z ∈ [−0.2, 1.6] m. */
void rd_draw_elevation(cairo_t* cr, const rig* r, int W, int H);

#endif
