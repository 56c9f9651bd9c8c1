/* shift.h — gear changes as a modern superbike makes them: quickshifter up, auto-blipper down.
 *
 * Contract: the shift module owns the gear, the clutch engagement and the ignition cut of a
 * vehicle while a shift is under way, and may raise (never lower) the throttle for a blip.
 * It keeps its state in a shift_state (plain data: zero it at the start of a ride and every
 * run is deterministic); its parameters are the model (const). It allocates nothing and calls
 * no Lua: call shift_auto (the rider's shift rule) and/or shift_request, then shift_update,
 * once per control step.
 *
 * Upshift (quickshifter): the new gear is selected and the ignition is cut (veh_input
 * ignition_cut = 1) for the table time (cut_long at or below cut_rpm_lo, cut_short at or
 * above cut_rpm_hi, linear between), and longer while the engine has not yet fallen to the new
 * gear's speed (at most cut_max). Meanwhile the clutch carries no more torque than it carried
 * before the shift (at least drive_floor), so the crank's inertia cannot kick the bike forward.
 * Downshift (auto-blipper): refused if the new gear would turn the engine faster than max_rpm.
 * Otherwise the new gear is selected with the drive taken up (clutch engagement 0, the dogs
 * unloaded), the throttle is opened to at least blip_throttle until the engine reaches the
 * rev-match target (rear wheel speed × new total ratio; at the start rpm × new/old ratio)
 * less match_rpm, or blip_max_time passes; any speed still unmatched is then taken up by the
 * clutch limited to back_torque (a slipper clutch), at most sync_max.
 * Both end the same way: the clutch torque cap rises to full over engage_time. See
 * docs/drivetrain.md "Gear changes" for every value and its source. */
#ifndef SHIFT_H
#define SHIFT_H

#include "sim/vehicle.h"

typedef struct shift_params {
  double up_rpm;          /* shift up above this engine speed */
  double short_lean;      /* rad: leaned further than this the rider shifts up above up_rpm_leaned
                           * instead (0: up_rpm at any lean) */
  double up_rpm_leaned;   /* shift up above this engine speed when leaned past short_lean */
  double down_rpm;        /* shift down below this engine speed */
  double max_rpm;         /* a downshift never lands the engine above this */
  double interval;        /* s, least time from the end of one shift to the next */
  double cut_long, cut_short;     /* s, quickshifter ignition cut at low / high rpm */
  double cut_rpm_lo, cut_rpm_hi;  /* rpm where the cut time starts / ends shortening */
  double cut_max;         /* s, the cut never lasts longer, revs matched or not */
  double drive_floor;     /* N·m at the crank, least clutch torque cap during an upshift */
  double blip_throttle;   /* throttle floor of the blip */
  double blip_max_time;   /* s, the blip's timeout */
  double match_rpm;       /* revs within this of the new gear's count as matched */
  double back_torque;     /* N·m at the crank, slipper limit while the downshift syncs */
  double sync_max;        /* s, the slipper phase's timeout */
  double engage_time;     /* s, the clutch torque cap rises to full over this */
  double cut_ramp;        /* s, the ignition comes back over this once the revs match */
  double grip_return;     /* s, the held grip moves back to the rider's demand over this */
} shift_params;

enum { SHIFT_IDLE, SHIFT_UP_CUT, SHIFT_UP_RAMP, SHIFT_DOWN_BLIP, SHIFT_DOWN_SLIP, SHIFT_ENGAGE };

typedef struct shift_state {
  int phase;              /* SHIFT_* */
  int from, to;           /* gears of the shift under way */
  double t;               /* s in the current phase */
  double since;           /* s since the last shift ended (large at the start) */
  double cut_time;        /* s, this upshift's table cut time */
  double cap;             /* N·m, clutch torque cap of the current phase */
  double cap0;            /* N·m, cap when the engage phase began */
  double target_rpm;      /* rev-match target of the shift under way */
  double throttle0;       /* the grip position when an upshift began: held through it */
  double cut0;            /* ignition cut when the revs matched: the share that keeps the drive at cap */
  int ups, downs, blocked;/* counts: upshifts, downshifts, downshift requests refused (over-rev) */
} shift_state;

void shift_default_params(shift_params* p);
/* The rpm the engine would turn in gear g at the rear wheel's current spin (0 in neutral). */
double shift_gear_rpm(const vehicle* v, int g);
/* Start a shift to gear `to` now (±1 from the current gear). Returns 1 if started, 0 if
 * refused: a shift is under way, no such gear, or a downshift that would over-rev. */
int shift_request(const shift_params* p, shift_state* s, vehicle* v, int to);
/* The rider's rule: up above up_rpm (above up_rpm_leaned when the frame's lean, `lean` rad,
 * is past short_lean), down below down_rpm, 1st from neutral when moving off; never within
 * `interval` of the last shift. Calls shift_request. */
void shift_auto(const shift_params* p, shift_state* s, vehicle* v, int want_drive, double lean);
/* Advance the choreography by dt: writes v->in gear, clutch, ignition_cut, and raises
 * v->in.throttle during a blip. With no shift under way: clutch 1, no cut. */
void shift_update(const shift_params* p, shift_state* s, vehicle* v, double dt);

#endif
