/* dress.h — what `mototake export` adds to a take's machine for people, in the exported file only
 * (the physics and the chase view never see it):
 *   - wheels that show their spin: a rim, a hub and five spokes, one of them red, inside every
 *     torus tyre;
 *   - a tank, a fairing (nose and side panels) and a screen on the frame;
 *   - the rider as separate named parts — rider_head, rider_arm_left/right (on rider_torso),
 *     rider_leg_left/right (on rider_pelvis) — so they follow the posture bodies; the torso keeps
 *     the chest, the pelvis the hips; the rig's own helmet, arms and legs shapes are replaced;
 *   - locators (empties): loc_steer_axis (on the steering body, at the steer joint's anchor, local
 *     z up the steering axis), loc_grip_left/right (steering: the clip-on bar's ends, 6 cm in),
 *     loc_footpeg_left/right (frame), loc_seat (frame: the seat's top under the hip joint),
 *     loc_front_axle / loc_rear_axle (on the bodies carrying the wheels, not spinning) and
 *     loc_contact_front/rear (animated tyre contact patches, exporters/locators.h).
 * Every point comes from the rig (joint anchors and axes, wheel centres and tyre radii, shapes),
 * the grips, footpegs and seat through scene/rider_points.h (shared with the rider's skeleton),
 * except those the rig has no data for, given here in the rig's coordinates: the rider's
 * shoulders, elbows and knees, and the bodywork. A rig without a body or joint a rule
 * needs simply lacks that item. */
#ifndef EX_DRESS_H
#define EX_DRESS_H

#include "exporters/motion.h"
#include "scene/take_bodies.h"
#include "sim/rig.h"

#define EX_DRESS_MAX_LOC 24

typedef struct ex_dress {
  ex_body* body;                 /* tb's bodies (same order, names, parents), dressed shapes */
  ex_shape* shapes;
  int nshape;
  ex_locator loc[EX_DRESS_MAX_LOC];
  int nloc;
} ex_dress;

/* Dress take bodies tb of rig rg; free with ex_dress_free. Never fails. */
void ex_dress_build(const ex_take_bodies* tb, const rig* rg, ex_dress* out);
void ex_dress_free(ex_dress* d);

#endif
