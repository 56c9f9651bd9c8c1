/* brake_lift.h — the stoppie limit as the machine has it on its springs (issue 31 item 4).
 *
 * g·(p − b)/h (sim/lapsim.h's a_stoppie) is where a RIGID machine's rear wheel lifts under
 * braking. A machine on springs dives as it brakes: the fork compresses, the rear extends, the
 * frame pitches nose down and the centre of mass moves toward the front contact, so the rear
 * lifts at a smaller deceleration. brake_lift_measure finds that deceleration by riding it.
 *
 * The ride: a scratch vehicle of the rig on a flat road (the rig is not changed), trimmed
 * upright at v0; then the clutch out, the throttle shut, nothing on the bars but the trim's
 * steady torque, and the front lever raised from nothing at BRAKE_LIFT_RATE a second (slowly
 * against the pitch mode, so the dive keeps up with the deceleration: a quasi-steady ramp).
 * It ends at the first step whose rear load is zero (the ramp is sim/lift_ramp.h's, which
 * sim/drive_lift.h rides for the wheelie limit).
 *
 * Contract: MT_OK with out->lifted = 1 and the figures of that step; out->lifted = 0 when the
 * lever reached full or the speed fell below BRAKE_LIFT_MIN_SPEED first (a front that slides
 * before the rear lifts: then the grip, not the stoppie, is the lesser limit); MT_EINPUT with
 * the trim's one line when v0 has no upright steady state. Deterministic: the same rig and v0
 * give the same bits. */
#ifndef BRAKE_LIFT_H
#define BRAKE_LIFT_H

#include "base/mt.h"
#include "sim/rig.h"

#define BRAKE_LIFT_RATE 0.25       /* front lever per second */
#define BRAKE_LIFT_MIN_SPEED 5.0   /* m/s */

typedef struct brake_lift {
  int lifted;          /* 1: the rear's load reached zero */
  double decel;        /* m/s²: the tyres' braking force over the machine's mass at that step (the
                          air's drag not in it, as the race summary's achieved braking) */
  double decel_total;  /* m/s²: with the air's drag */
  double speed;        /* m/s at that step */
  double pitch;        /* rad, the frame's nose-down pitch there less the trim's */
  double lever;        /* the front lever there */
  double lead, height; /* m: the whole machine's CoM behind the front contact and above it, there
                          (p − b and h of the rigid formula, as the machine has dived) */
} brake_lift;

int brake_lift_measure(const rig* r, double v0, brake_lift* out, mt_err* e);

/* The same limit where the rear lifts AT speed V (the air's lift, ahead of the CoM, unloads the
 * rear more the faster): ramps from v0 = V + 15 m/s, each next v0 moved by what the last ramp's
 * lift speed missed V by, until it is within BRAKE_LIFT_SPEED_TOL (at most BRAKE_LIFT_TRIES
 * ramps; out is the last). Errors as brake_lift_measure. */
#define BRAKE_LIFT_SPEED_TOL 0.2   /* m/s */
#define BRAKE_LIFT_TRIES 5
int brake_lift_at_speed(const rig* r, double V, brake_lift* out, mt_err* e);

#endif
