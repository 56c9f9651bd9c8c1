/* rider_trim.h — the rider's feed-forward: a small table of solved steady turns.
 *
 * Contract: rider_trims_build solves trim_solve (fixed roll) once per grid point (speed × lean)
 * on a scratch vehicle of the same rig on a flat road, at take start (each lean from the last
 * solved lean's trim: rider_trims_warm) — with posture parameters,
 * a second time with the rider in the posture (sim/posture.h) that turn's lateral acceleration
 * asks for, so the table holds the machine's lean with the rider hung off — and stores for each point
 * the path curvature of the steady turn and the steering torque that holds it. Cells where no
 * steady state is found are filled by linear extrapolation along the lean (marked not ok).
 * Lookups are bilinear and cheap (no allocation, no solving): the lean a steady turn of
 * curvature κ needs at speed V, and the bar torque that holds a lean φ at speed V. Both are
 * odd in the turn's direction (a symmetric machine). Deterministic: same rig, same table. */
#ifndef RIDER_TRIM_H
#define RIDER_TRIM_H

#include "base/mt.h"
#include "sim/posture.h"
#include "sim/rig.h"

enum { RIDER_TRIM_NV = 9, RIDER_TRIM_NL = 12 };

typedef struct rider_trims {
  int nv, nl;
  double v[RIDER_TRIM_NV];                         /* m/s, rising */
  double lean[RIDER_TRIM_NL];                      /* rad, rising from 0 */
  double kappa[RIDER_TRIM_NV][RIDER_TRIM_NL];      /* 1/m, |curvature| of the steady turn */
  double tau[RIDER_TRIM_NV][RIDER_TRIM_NL];        /* N·m, bar torque for a right lean (ISO roll > 0) */
  double steer[RIDER_TRIM_NV][RIDER_TRIM_NL];      /* rad, steer angle for a right lean */
  double yawr[RIDER_TRIM_NV][RIDER_TRIM_NL];       /* rad/s, yaw rate for a right lean (negative) */
  double vlat[RIDER_TRIM_NV][RIDER_TRIM_NL];       /* m/s, the frame origin's velocity across its heading
                                                      for a right lean (rider_lqr_measure) */
  int ok[RIDER_TRIM_NV][RIDER_TRIM_NL];            /* 1: solved; 0: extrapolated */
  int nsolved;
  int iterations;                                  /* the solver's Gauss–Newton iterations, all solves */
  long evaluations;                                /* its evaluations of the residual: the table's cost */
} rider_trims;

/* 1 (the default): each lean's trim starts from the last solved lean's at the same speed, and the
 * posture's second solve from the first (trim_spec.start); 0: every solve from upright, as before
 * (for the unit test comparing the two tables and the bench). */
extern int rider_trims_warm;
/* Build the table for rig r, the rider sitting centrally (pp NULL) or in the posture pp decides
 * for each steady turn (MT_OK; an error only if the scratch vehicle cannot be made). */
int rider_trims_build(const rig* r, const posture_params* pp, rider_trims* t, mt_err* e);
/* ISO roll (rad, positive right) of the steady turn of curvature kappa (1/m, positive left). */
double rider_trims_roll(const rider_trims* t, double speed, double kappa);
/* Steering torque (N·m, positive turns the front wheel left) that holds ISO roll `roll`. */
double rider_trims_torque(const rider_trims* t, double speed, double roll);
/* Steer angle (rad, positive left) of the steady turn at ISO roll `roll`. */
double rider_trims_steer(const rider_trims* t, double speed, double roll);

/* Yaw rate and lateral velocity (as rider_lqr_measure) of the steady turn at ISO roll `roll`. */
double rider_trims_yaw_rate(const rider_trims* t, double speed, double roll);
double rider_trims_vlat(const rider_trims* t, double speed, double roll);
/* The steady turn at lean `roll` (its yaw rate, lateral velocity and steer angle) and the torque
 * at lean `roll_t`, all at one speed: the four functions above, bit for bit, with the table's
 * speed cell found once (the LQR loop's reference, every step). */
void rider_trims_turn(const rider_trims* t, double speed, double roll, double roll_t, double* yaw_rate, double* vlat,
                      double* steer, double* torque);
/* rider_trims_roll at curvatures kappa − dk and kappa + dk (the same speed cell, found once). */
void rider_trims_roll_pair(const rider_trims* t, double speed, double kappa_lo, double kappa_hi, double* roll_lo,
                           double* roll_hi);

/* The table's speed cell at `speed` (issue 18: the rider's three look-ups of a step share it):
 * the *_in functions below with the cell of their speed are the functions above, bit for bit. */
typedef struct rider_trim_cell {
  int i;
  double u;
} rider_trim_cell;
void rider_trims_cell(const rider_trims* t, double speed, rider_trim_cell* c);
/* the cell at fmax(speed, vmin): *c_speed (the cell at speed) when that is speed itself, else
 * found into *scratch */
const rider_trim_cell* rider_trims_cell_at_least(const rider_trims* t, const rider_trim_cell* c_speed, double speed,
                                                 double vmin, rider_trim_cell* scratch);
double rider_trims_roll_in(const rider_trims* t, const rider_trim_cell* c, double speed, double kappa);
void rider_trims_turn_in(const rider_trims* t, const rider_trim_cell* c, double roll, double roll_t, double* yaw_rate,
                         double* vlat, double* steer, double* torque);
void rider_trims_roll_pair_in(const rider_trims* t, const rider_trim_cell* c, double speed, double kappa_lo,
                              double kappa_hi, double* roll_lo, double* roll_hi);

/* The tyres' peak friction at their nominal loads (Fz0): the largest |Fy|/Fz over slip angles
 * ±30° and cambers 0–60° (no longitudinal slip), and the largest |Fx|/Fz over slip ratios up to
 * 0.6 (upright, no side slip); the smaller of the two wheels each — from the Magic Formula of
 * the rig's tyres, grip scale included. */
void rider_tyre_peaks(const rig* r, double* mu_y, double* mu_x);

#endif
