/* drive_lift.h — the wheelie limit as the machine has it on its springs (issue 31 item 4).
 *
 * g·b/h (sim/lapsim.h's a_wheelie) is where a RIGID machine's front wheel lifts under drive. A
 * machine on springs squats and pitches nose up as it drives, the air's lift acts ahead of its
 * centre of mass, and the front lifts at another acceleration. drive_lift_measure finds it by
 * riding it, as sim/brake_lift.h finds the stoppie limit.
 *
 * The ride: a scratch vehicle of the rig on a flat road (the rig is not changed), trimmed
 * upright at v0 in the highest gear whose engine turns at DRIVE_LIFT_MIN_RPM_SHARE of the rev
 * limit or more (a gear a racer drives out of a corner in); then nothing on the bars but the
 * trim's steady torque and the throttle raised from the trim's at DRIVE_LIFT_RATE a second. It
 * ends at the first step whose front load is zero.
 *
 * Contract: MT_OK with out->lifted = 1 and the figures of that step; out->lifted = 0 when the
 * throttle reached full or the engine its rev limit first (then the engine, not the wheelie, is
 * the lesser limit at that speed); MT_EINPUT with the trim's one line when v0 has no upright
 * steady state. Deterministic: the same rig and v0 give the same bits. */
#ifndef DRIVE_LIFT_H
#define DRIVE_LIFT_H

#include "base/mt.h"
#include "sim/rig.h"

#define DRIVE_LIFT_RATE 0.25            /* throttle per second */
#define DRIVE_LIFT_MIN_RPM_SHARE 0.6    /* the gear: the highest at or above this share of the rev limit */

typedef struct drive_lift {
  int lifted;          /* 1: the front's load reached zero */
  double accel;        /* m/s²: the tyres' driving force over the machine's mass at that step (the
                          air's drag not taken off, as the race summary's achieved drive) */
  double speed;        /* m/s at that step */
  int gear;            /* the gear ridden */
  double pitch;        /* rad, the frame's nose-up pitch there less the trim's */
  double throttle;     /* the throttle there */
  double lead, height; /* m: the whole machine's CoM ahead of the rear contact and above it, there
                          (b and h of the rigid formula, as the machine has squatted) */
} drive_lift;

int drive_lift_measure(const rig* r, double v0, drive_lift* out, mt_err* e);

/* The same limit where the front lifts AT speed V: the ramp's start bisected between
 * DRIVE_LIFT_MIN_V0 and V (the lift's speed rises with the start's) until the lift's speed is
 * within DRIVE_LIFT_SPEED_TOL of V (at most DRIVE_LIFT_TRIES ramps after the first; out is the
 * last). From the lowest start lifting at V or beyond, or not at all, that ramp is out. Errors as
 * drive_lift_measure. */
#define DRIVE_LIFT_SPEED_TOL 0.2   /* m/s */
#define DRIVE_LIFT_TRIES 12
#define DRIVE_LIFT_MIN_V0 5.0      /* m/s */
int drive_lift_at_speed(const rig* r, double V, drive_lift* out, mt_err* e);

#endif
