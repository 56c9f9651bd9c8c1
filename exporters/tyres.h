/* tyres.h — each tyre drawn apart from its spinning wheel, so that it can touch the road.
 *
 * The tyre model (sim/tyre.c) lets the rigid torus sink into the road by the tyre's radial
 * deflection (8–9 mm median on a Laguna lap); drawn as it is, the tyre sinks through the road.
 * Here each wheel's torus leaves the wheel body (which keeps its rim, hub and spokes, and so its
 * spin) for a locator "front_tyre" / "rear_tyre" on the wheel's carrier (fork_bend, swingarm):
 * at the wheel's centre, turned with the wheel's axis but not spinning (a torus looks the same
 * at any spin), and moved up its own wheel plane by the depth the rigid torus reaches below the
 * road function (exporters/locators.h, ex_tyre_pose), so that it touches the road in every frame.
 * The deflection shows as the tyre riding that much higher on its rim at the bottom (a contact
 * patch offset; the torus is not flattened); the Blender add-on puts the tyre back round its
 * axle locator and flattens the patch onto the road (blender/mototake_io/tyres.py). */
#ifndef EX_TYRES_H
#define EX_TYRES_H

#include "exporters/dress.h"
#include "sim/road.h"

typedef struct ex_tyres {
  ex_shape shape[2];   /* the tyres' tori, in their locators' frames (held here for d's locators) */
} ex_tyres;

/* Split the tori of the wheels that d's contact locators name off their wheel bodies into tyre
 * locators touching road rd (NULL: not moved). t must outlive d's use. */
void ex_tyres_split(ex_dress* d, const road* rd, ex_tyres* t);

#endif
