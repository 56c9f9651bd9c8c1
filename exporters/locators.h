/* locators.h — the poses of locators (motion.h's ex_locator): empties and named parts fixed to a
 * body, and tyre contact patches, which move against the body carrying the wheel.
 *
 * Contact patch (a torus tyre on a level road, the tyre model's geometry, docs/tyre.md): the
 * tyre is the torus of major radius r0 − crown and tube radius crown about the wheel's spin
 * axis w through its centre c. On a road of upward normal n = +z, the point of the torus lowest
 * along n is p = c + (r0 − crown)·d − crown·n, with d the unit projection of −n onto the wheel
 * plane (d = −n + (n·w)w, normalised). The patch frame is x forward (w × n, normalised), y = n × x,
 * z = n: level whatever the lean, so a skid mark or a ground shadow parented to it stays flat.
 * On a sloped or banked road the point is the torus's lowest point, not the road's contact. */
#ifndef EX_LOCATORS_H
#define EX_LOCATORS_H

#include "exporters/motion.h"

/* World pose (x y z qw qx qy qz) of contact locator l given its wheel body's world pose. */
void ex_locator_contact(const ex_locator* l, const double wheel_world[7], double out[7]);
/* World pose of tyre locator l (l->tyre, exporters/tyres.h) given its wheel body's world pose: at
 * the torus's centre, local y along the wheel's axis, local x forward (axis × the road's normal),
 * not spinning; moved up the wheel plane by the rigid torus's depth below the road function
 * (l->road; none: not moved), which *sink gets (m, > 0: sunk; may be NULL). hint: the road
 * query's, carried from call to call (start at −1). */
void ex_tyre_pose(const ex_locator* l, const double wheel_world[7], int* hint, double out[7], double* sink);
/* The world poses of contact or tyre locator l at every step of m: nsteps × 7, malloc'd (caller frees). */
double* ex_locator_contact_track(const ex_motion* m, const ex_locator* l);
/* Check a locator's fields against motion m: NULL if valid, else the offending field's name. */
const char* ex_locator_check(const ex_motion* m, const ex_locator* l);

#endif
