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
 * rest). The tyres use their instantaneous slips; afterwards the relaxed slips are set equal.
 *
 * A turn is reached by continuation: the straight-running trim at the same speed first, then
 * the lean (or yaw rate) is stepped toward the target, each step starting from the last
 * solution extrapolated (a secant predictor), the step halved when a point fails and grown
 * when it succeeds. Every accepted point must pass the checks: residual below 1e-5, both tyres
 * loaded, both slip angles below max_slip, the throttle within 0..1, and a steer angle that
 * does not oppose the turn by more than the tyres' slip angles can explain. So the solution
 * found is the one connected to upright running (not a spurious one with a saturated front
 * tyre), and when none exists the error says how far the continuation got and what stopped it
 * (the tyres saturate, a tyre unloads, the engine runs out of throttle).
 *
 * Walking pace in a low gear: where the locked crank would turn inside the idle governor's range,
 * a shut throttle still drives harder than the drag and no throttle holds the speed. There the
 * trim shuts the throttle and solves for the clutch's engagement instead (the same number of
 * unknowns and equations): the clutch slips, the governor holds the crank, and the slipping
 * clutch's torque balances the drag (trim_result.clutch_slipping). Nowhere else is anything
 * solved differently. */
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
  double max_slip;       /* rad, the largest |slip angle| a trim may have; 0: TRIM_MAX_SLIP */
  double min_rpm;        /* gear choice (gear −1): the highest gear at or above this engine
                            speed; 0: TRIM_MIN_RPM */
  const double* start;   /* NULL: solved from upright (a continuation in lean); else the unknowns
                            (trim_result.u) of a trim at a nearby point, same speed and gear: the
                            solve starts there, at the target itself, and falls back to the
                            continuation from upright when that finds no acceptable point */
} trim_spec;

enum { TRIM_NU = 16 };   /* the solver's unknowns (sim/trim.c), for trim_spec.start */
/* 1 (the default): a solve from trim_spec.start updates its Jacobian by Broyden's formula after
 * the first iteration (one evaluation a step instead of one per unknown); 0: finite differences
 * at every iteration (the unit tests compare the two). */
extern int trim_broyden;
/* 1 (the default): after a failed continuation step the step is halved until it names another
 * point (a halved step clipped to the target repeats the failed attempt, and fails the same way);
 * 0: every halving is tried, repeats included (the unit tests compare the two). */
extern int trim_skip_repeats;

#define TRIM_MAX_SLIP (6.0 * MT_PI / 180)   /* about the peak of lateral grip (seed 001) */
#define TRIM_MIN_RPM 5500.0                  /* above the rider's downshift point (5000) */

typedef struct trim_result {
  int converged;
  int iterations;        /* Gauss–Newton iterations, all continuation steps together */
  int evaluations;       /* of the residual (each a forward pass of the vehicle): the solve's cost */
  int steps;             /* continuation steps accepted (0: solved directly) */
  int warm;              /* 1: solved from trim_spec.start */
  double residual;       /* max scaled residual at the end (m/s²-like) */
  double roll, pitch, yaw_rate, radius, sideslip;
  double steer_angle, steer_torque, throttle;
  int gear;
  double rpm;
  /* The clutch: engaged (clutch 1, locked but for the regularised law's small slip) except at
   * walking pace in a low gear, where the idle governor drives harder than a shut throttle holds
   * and the trim slips the clutch instead (clutch_slipping 1, throttle 0, clutch the engagement
   * that passes the drag's torque). clutch_slip_rpm: the crank's speed less the gearbox input's. */
  double clutch;
  int clutch_slipping;
  double clutch_slip_rpm;
  double fork_sag, shock_sag, wheel_travel_rear;   /* from full extension (m) */
  double fz_front, fz_rear;
  double alpha_front, alpha_rear, kappa_front, kappa_rear;  /* steady tyre slips (rad, ratio) */
  double u[TRIM_NU];     /* the unknowns solved: a start for a nearby trim (trim_spec.start) */
  /* On MT_EINPUT from a continuation in lean: TRIM_FOLD_FRONT or TRIM_FOLD_REAR when it ended at a
   * fold (the most lean a steady turn can have) with that tyre's slip angle growing fastest, roll
   * then that most lean; 0 for any other end (the engine out of throttle, no fold). */
  int fold;
} trim_result;

enum { TRIM_FOLD_FRONT = 1, TRIM_FOLD_REAR = 2 };

/* The most lean a steady turn of v's rig has at speed (m/s), upright start, gear chosen: a trim
 * asked for TRIM_FOLD_ASK of lean ends at the fold. Returns TRIM_FOLD_FRONT or _REAR, *roll the
 * fold's lean (rad, positive); 0 when the turn ends otherwise (throttle, no fold, or it trims).
 * Leaves v at the last point reached, as trim_solve. */
#define TRIM_FOLD_ASK (70 * MT_PI / 180)
int trim_lean_fold(vehicle* v, double speed, double* roll);
/* The same, and *ay (NULL: not wanted) the fold's lateral acceleration, speed × |yaw rate| (m/s²):
 * the most a steady turn of the machine holds at that speed, the air's lift and drag in it. */
int trim_turn_limit(vehicle* v, double speed, double* roll, double* ay);
/* A scratch vehicle of rig r on a flat road, in its upright steady state at speed (gear chosen:
 * the highest at or above min_rpm, 0 for TRIM_MIN_RPM), tr the trim: the start of the ridden
 * limits (sim/brake_lift.h, sim/drive_lift.h). NULL with e set (the trim's one line) when it
 * cannot be made or trimmed. The caller frees it (veh_free). */
vehicle* trim_upright_scratch(const rig* r, double speed, double min_rpm, trim_result* tr, mt_err* e);

/* Solve, leave the vehicle in the trimmed state and its inputs set. MT_OK, or MT_EINPUT with
 * one line saying what limits it when no steady state exists, e.g. "trim: no steady turn at
 * 20.00 m/s and 50.0 deg of lean: the tyres saturate beyond 47.3 deg (rear slip angle 6.0 deg)".
 * On failure out holds the last point the continuation reached (converged = 0). */
int trim_solve(vehicle* v, const trim_spec* s, trim_result* out, mt_err* e);

/*---- what `mototake trim` checks and writes (sim/trim_report.c), shared with libmototake ----*/

/* The command's ranges, with its messages: speed 0 .. 120 m/s, lean ±65 deg, gear −1 .. 6. */
int trim_check_args(double speed, double lean_deg, long gear, mt_err* e);
/* One point as `trim --json` prints it (one line, no newline) into buf; the text's length
 * (truncated at n − 1 like snprintf; 1024 bytes always suffice). A slipping clutch adds
 * clutch_slipping, clutch_engagement and clutch_slip_rpm. */
int trim_json(double speed, const trim_result* t, char* buf, size_t n);
/* One line (no newline) saying that the clutch slips and by how much, when it does (the length
 * written, as snprintf); 0 and buf untouched when it does not. 160 bytes suffice. */
int trim_clutch_note(const trim_result* t, char* buf, size_t n);

#endif
