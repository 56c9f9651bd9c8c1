/* brake_lift.c — the stoppie limit as the machine has it on its springs (see brake_lift.h). */
#include "sim/brake_lift.h"

#include <math.h>
#include <string.h>

#include "sim/lift_ramp.h"
#include "sim/trim.h"
#include "sim/vehicle.h"

int brake_lift_measure(const rig* r, double v0, brake_lift* out, mt_err* e) {
  memset(out, 0, sizeof *out);
  trim_result tr;
  vehicle* v = trim_upright_scratch(r, v0, 0, &tr, e);
  if (!v) return e->code;
  v->in.throttle = 0;
  v->in.clutch = 0;
  v->in.front_brake = v->in.rear_brake = 0;
  lift_ramp_out lr;
  int rc = lift_ramp_ride(v, RIG_REAR, &v->in.front_brake, 0, BRAKE_LIFT_RATE, BRAKE_LIFT_MIN_SPEED, 0, &lr, e);
  if (!rc && lr.lifted) {
    double m = veh_mass(v);
    out->lifted = 1;
    out->decel = -lr.fx / m;
    out->decel_total = out->decel + lr.drag / m;
    out->speed = lr.speed;
    out->pitch = lr.pitch;
    out->lever = lr.input;
    out->lead = lr.other[0] - lr.com[0];   /* trimmed heading 0: forward is +x */
    out->height = lr.com[2] - lr.other[2];
  }
  veh_free(v);
  return rc;
}

int brake_lift_at_speed(const rig* r, double V, brake_lift* out, mt_err* e) {
  double v0 = V + 15;
  for (int k = 0; k < BRAKE_LIFT_TRIES; k++) {
    int rc = brake_lift_measure(r, v0, out, e);
    if (rc || !out->lifted || fabs(out->speed - V) <= BRAKE_LIFT_SPEED_TOL) return rc;
    v0 += V - out->speed;
  }
  return MT_OK;
}
