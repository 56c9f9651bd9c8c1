/* drive_lift.c — the wheelie limit as the machine has it on its springs (see drive_lift.h). */
#include "sim/drive_lift.h"

#include <math.h>
#include <string.h>

#include "sim/lift_ramp.h"
#include "sim/trim.h"
#include "sim/vehicle.h"

int drive_lift_measure(const rig* r, double v0, drive_lift* out, mt_err* e) {
  memset(out, 0, sizeof *out);
  trim_result tr;
  vehicle* v = trim_upright_scratch(r, v0, DRIVE_LIFT_MIN_RPM_SHARE * r->engine.rev_limit * 30 / MT_PI, &tr, e);
  if (!v) return e->code;
  out->gear = tr.gear;
  lift_ramp_out lr;
  int rc = lift_ramp_ride(v, RIG_FRONT, &v->in.throttle, tr.throttle, DRIVE_LIFT_RATE, 0, r->engine.rev_limit * 30 / MT_PI,
                          &lr, e);   /* on the limiter first: the engine is the lesser limit */
  if (!rc && lr.lifted) {
    out->lifted = 1;
    out->accel = lr.fx / veh_mass(v);
    out->speed = lr.speed;
    out->pitch = -lr.pitch;   /* nose up positive */
    out->throttle = lr.input;
    out->lead = lr.com[0] - lr.other[0];   /* trimmed heading 0: forward is +x */
    out->height = lr.com[2] - lr.other[2];
  }
  veh_free(v);
  return rc;
}

int drive_lift_at_speed(const rig* r, double V, drive_lift* out, mt_err* e) {
  /* the lift's speed rises with the start's (it is never below it), but not in proportion: a
   * slow start's ramp runs longer. Bisection on the start between DRIVE_LIFT_MIN_V0 and V. */
  double lo = DRIVE_LIFT_MIN_V0, hi = fmax(V, lo);
  int rc = drive_lift_measure(r, lo, out, e);
  if (rc || !out->lifted || out->speed >= V - DRIVE_LIFT_SPEED_TOL) return rc;   /* it lifts at V or beyond from the lowest start */
  for (int k = 0; k < DRIVE_LIFT_TRIES; k++) {
    double v0 = 0.5 * (lo + hi);
    if ((rc = drive_lift_measure(r, v0, out, e))) return rc;
    if (out->lifted && fabs(out->speed - V) <= DRIVE_LIFT_SPEED_TOL) return MT_OK;
    if (out->lifted && out->speed < V) lo = v0;
    else hi = v0;   /* past V, or the engine's limit before the lift */
  }
  return MT_OK;
}
