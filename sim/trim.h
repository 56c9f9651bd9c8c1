/* trim.h — the steady state of a vehicle, found by solving, not by waiting.
 *
 * Unknowns: the frame's height and pitch, the sideslip and yaw rate of the turn (or the roll,
 * when the yaw rate is fixed by a track's curvature), steer, fork, swingarm, frame twist,
 * rider lean, hip shift and torso pitch coordinates (the posture joints settle about the
 * set-points in v->in.posture, which the trim keeps), both wheels' and the crank's spin rates, the steering torque and the
 * throttle. Equations: in a steady turn every joint's acceleration is zero, the frame's
 * angular acceleration is zero and its linear acceleration is the centripetal one. Solved by
 * damped Gauss–Newton with a finite-difference Jacobian through MuJoCo's forward dynamics and
 * LAPACK's least-squares solver (which also copes with the directions that do not matter at
 * rest). The tyres use their instantaneous slips; afterwards the relaxed slips are set equal. */
#ifndef TRIM_H
#define TRIM_H

#include "sim/vehicle.h"

typedef struct trim_spec {
  double speed;          /* m/s, of the frame's centre of mass */
  double roll;           /* rad, ISO (positive right), used when fix_roll */
  int fix_roll;          /* 1: roll given, yaw rate solved; 0: yaw rate given, roll solved */
  double yaw_rate;       /* rad/s, used when !fix_roll (positive = left turn) */
  int gear;              /* −1: choose; 0 neutral; 1..6 */
  double x, y, z, heading;  /* where (rear contact of the reference pose) and which way */
} trim_spec;

typedef struct trim_result {
  int converged;
  int iterations;
  double residual;       /* max scaled residual at the end */
  double roll, pitch, yaw_rate, radius, sideslip;
  double steer_angle, steer_torque, throttle;
  int gear;
  double rpm;
  double fork_sag, shock_sag, wheel_travel_rear;   /* from full extension (m) */
  double fz_front, fz_rear;
} trim_result;

/* Solve, leave the vehicle in the trimmed state and its inputs set. MT_OK, or MT_EINPUT with
 * a message when no steady state exists (e.g. the speed needs more than full throttle). */
int trim_solve(vehicle* v, const trim_spec* s, trim_result* out, mt_err* e);

#endif
