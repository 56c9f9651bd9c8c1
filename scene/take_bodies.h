/* take_bodies.h — a take's bodies and their visual shapes, built from the take's schema (the
 * body tree) and its rig rebuilt from the embedded source: the rig's shapes moved into each
 * body's frame, and drawn stand-ins for the rear linkage parts the rig has no shapes for
 * (bell crank, pull rod, shock body and rod). Shared by `mototake export` (exporters/) and the
 * chase view (render/chase.c), so both draw the same machine. */
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

#endif
