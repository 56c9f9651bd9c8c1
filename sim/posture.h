/* posture.h — the rider's posture decisions: where the hips go on the seat, how far the torso
 * leans into the turn, how low it tucks — from the riding situation.
 *
 * The posture freedoms themselves are physics (rigs/sport1000.lua: the rider_pelvis slides on
 * `hip_shift` and leans on `rider_lean`, the rider_torso pitches on `torso_pitch`; each joint's
 * spring-damper is a muscle pulling toward a set-point in veh_input.posture). This module only
 * decides the set-points, as a rider does:
 *   - hang-off: hips and torso toward the inside of the turn, in proportion to the lateral
 *     acceleration the path asks for over the next `preview` seconds, so it starts before
 *     turn-in;
 *   - tuck: torso forward on a straight at speed;
 *   - sit up: torso back under braking (it also raises the drag area, rig_cd_area).
 * Every set-point moves through a rate limit and a first-order smoothing: no jumps.
 *
 * Contract: no heap, no Lua, no globals; posture_update is a pure function of its arguments and
 * the state, so the same ride gives bit-identical set-points (takes record them as inputs; a
 * replay never calls this). Zero the state (posture_reset) at the start of a ride: the rider
 * starts neutral. Signs as RIG_POSTURE_*: hip shift (m) and torso lean (rad) positive to the
 * right (a right turn leans the machine positive, ISO), torso pitch (rad) positive forward. */
#ifndef POSTURE_H
#define POSTURE_H

#include "sim/rig.h"

typedef struct posture_params {
  /* from the rig (posture_default_params): what the set-points move */
  double m_hip;              /* kg moved by the hip shift (the hip joint's subtree) */
  double mz_lean;            /* kg·m: first moment of the lean joint's subtree about its axis height */
  double mass, cg_height;    /* the whole machine's, reference pose */
  double hip_max;            /* m, hips' full shift toward the inside */
  double lean_max;           /* rad, torso lean toward the inside (relative to the frame) at full hang-off */
  double ay_start, ay_full;  /* m/s²: hang-off begins above ay_start, full at ay_full (asked lateral acceleration) */
  double tuck_pitch;         /* rad forward at full tuck */
  double tuck_v0, tuck_v1;   /* m/s: the tuck grows from nothing at tuck_v0 to full at tuck_v1 */
  double brake_pitch;        /* rad, sitting up under braking (negative: back) */
  double brake_full;         /* front-brake lever at which the rider is fully sat up (linear from 0) */
  double rate[RIG_NPOSTURE]; /* set-point rate limits: m/s, rad/s, rad/s */
  double tau;                /* s, first-order smoothing after the rate limit */
  double preview;            /* s of path looked ahead for the curvature */
} posture_params;

typedef struct posture_state {
  double limited[RIG_NPOSTURE];   /* rate-limited set-points */
  double out[RIG_NPOSTURE];       /* smoothed: what goes to veh_input.posture */
} posture_state;

typedef struct posture_situation {
  double speed;              /* m/s */
  double ay_ahead;           /* m/s², lateral acceleration the path asks over the preview (+: left turn) */
  double brake;              /* front-brake lever, 0..1 */
} posture_situation;

/* Defaults for a rider on rig r (r may be NULL: no roll offsets). */
void posture_default_params(posture_params* p, const rig* r);
/* The change of frame roll (rad, ISO) a steady turn needs for these set-points: hanging off to
 * the right (positive) moves the CG right, so the frame leans less right: −atan(Δy_cg / h). */
double posture_roll_offset(const posture_params* p, const double setpoint[RIG_NPOSTURE]);
void posture_reset(posture_state* s);
/* Start already in the posture this situation asks for (no rate limit): a take that starts in a
 * steady turn starts hung off, and its trim is solved with the rider there. */
void posture_start(const posture_params* p, posture_state* s, const posture_situation* x, double out[RIG_NPOSTURE]);
/* The targets for this situation, before rate limiting (for tests and docs). */
void posture_targets(const posture_params* p, const posture_situation* x, double tgt[RIG_NPOSTURE]);
/* One decision: move the state toward the targets by dt; out = the set-points to apply. */
void posture_update(const posture_params* p, posture_state* s, const posture_situation* x, double dt,
                    double out[RIG_NPOSTURE]);
/* Lateral acceleration asked ahead: V²·κ at the one of five stations s, s + V·T/4, …, s + V·T
 * (T = preview) where |κ| is largest, signed (+: left). curvature(path, s) gives κ (1/m). */
double posture_ay_ahead(double (*curvature)(const void* path, double s), const void* path, double s, double speed,
                        double preview);

#endif
