/* take_bodies.h — a take's bodies and their visual shapes (scene layer; the ex_ prefix is the
 * exporter's, kept through the move).
 *
 * ex_take_bodies_build makes them from the take's schema (the body tree, in pose order) and
 * its rig rebuilt from the embedded source (takes/replay.h): each rig body's shapes moved into
 * the body's frame, and for the rear linkage's parts, which the rig gives no shapes, their bars
 * (scene/linkage.h). Shared by `mototake export` (exporters/) and the chase view
 * (render/chase.c), so both show the same machine. A body the rig does not know and that is
 * not a linkage part gets no shapes and origin (0, 0, 0). The result owns its arrays (names
 * and parents point into the schema, which must outlive it); ex_take_bodies_free frees them. */
#ifndef EX_TAKE_BODIES_H
#define EX_TAKE_BODIES_H

#include "scene/shapes.h"
#include "sim/rig.h"
#include "takes/takefile.h"

typedef struct ex_take_bodies {
  int nbody;              /* = the schema's body count, in the schema's (pose) order */
  ex_body* body;          /* names and parents from the schema; shapes point into `shapes` */
  ex_shape* shapes;
  int nshape;
  double (*origin)[3];    /* each body frame's origin in the rig's coordinates (x forward, y left,
                             z up, from the rear contact): the root's centre of mass, a child's
                             joint anchor; the linkage parts' pivots */
} ex_take_bodies;

/* Fill out for schema s and rig rg; free with ex_take_bodies_free. Never fails. */
void ex_take_bodies_build(const take_schema* s, const rig* rg, ex_take_bodies* out);
void ex_take_bodies_free(ex_take_bodies* b);
/* The origin in the rig's coordinates of the frame of the body of that name, as out->origin
 * above: the root's centre of mass, a child's joint anchor, a linkage part's pivot, else 0. */
void ex_take_body_origin(const rig* rg, const char* name, double origin[3]);

#endif
