/* rider_points.h — where a rider touches the machine: the grips, the footpegs and the seat, in the
 * rig's coordinates (x forward from the rear contact, y left, z up, m; the reference pose). One
 * definition shared by the exporters' locators (exporters/dress.c) and the rider's skeleton
 * (scene/skeleton.h), so a hand posed on a grip sits on the grip's locator.
 *
 *   - grips: on the steering body, the ends of its widest box (the clip-on bar), 6 cm in from
 *     each end, at the box's centre height and fore-aft position;
 *   - footpegs: on the frame; the rig has none, so they are fixed here (SC_FOOTPEG_*), behind and
 *     above the swing-arm pivot as on a sports bike;
 *   - seat: on the frame, the top of the frame's highest box under the rider_pelvis body's first
 *     joint anchor (in the symmetry plane, at that anchor's x).
 * A rig without the body a point needs lacks that point (its have_ flag is 0). Never fails. */
#ifndef SC_RIDER_POINTS_H
#define SC_RIDER_POINTS_H

#include "sim/rig.h"

#define SC_FOOTPEG_X 0.47
#define SC_FOOTPEG_Y 0.17
#define SC_FOOTPEG_Z 0.40

typedef struct sc_rider_points {
  int have_grip, have_peg, have_seat;
  double grip[2][3];      /* [0] left (y > 0), [1] right; on the body named "steering" */
  double peg[2][3];       /* [0] left, [1] right; on the body named "frame" */
  double seat[3];         /* on "frame" */
} sc_rider_points;

void sc_rider_points_get(const rig* rg, sc_rider_points* out);

/* Is shape s of rig body rb one of the rider's primitives, which a view drawing the rider's
 * skeleton (scene/skeleton.h) leaves out: every shape of rider_pelvis and rider_torso, and the
 * frame's capsules in the rider's colour (rider_pelvis's first shape's: sport1000's legs)? */
int sc_rider_shape(const rig* rg, int rb, int s);

#endif
