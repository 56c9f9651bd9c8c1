/* brake_lift.c — the stoppie limit as the machine has it on its springs (see brake_lift.h). */
#include "sim/brake_lift.h"

#include <math.h>
#include <string.h>

#include "sim/trim.h"
#include "sim/vehicle.h"

/* The ramp from the trimmed state: one step at a time, each step's forces (v->out, evaluated at
 * the instant the step starts from) read against the speed and pitch of that same instant. */
static int ramp(vehicle* v, double pitch0, brake_lift* out, mt_err* e) {
  double dt = v->rig->timestep, m = veh_mass(v);
  long n = (long)ceil(1.0 / BRAKE_LIFT_RATE / dt);
  for (long i = 0; i <= n; i++) {
    double lever = fmin(1.0, i * dt * BRAKE_LIFT_RATE), V = veh_speed(v), roll, pitch, yaw;
    if (V < BRAKE_LIFT_MIN_SPEED) break;
    veh_frame_euler(v, &roll, &pitch, &yaw);
    v->in.front_brake = lever;
    int rc = veh_step(v, e);
    if (rc) return rc;
    const veh_wheel_out* w = v->out.wheel;
    if (!w[RIG_REAR].contact || w[RIG_REAR].fz <= 0) {
      out->lifted = 1;
      out->decel = -(w[RIG_FRONT].fx + w[RIG_REAR].fx) / m;
      out->decel_total = out->decel + v->out.aero_drag / m;
      out->speed = V;
      out->pitch = pitch - pitch0;
      out->lever = lever;
      double c[3];
      veh_com(v, c);   /* of the last evaluation, as v->out */
      out->lead = w[RIG_FRONT].point[0] - c[0];   /* trimmed heading 0: forward is +x */
      out->height = c[2] - w[RIG_FRONT].point[2];
      return MT_OK;
    }
  }
  return MT_OK;
}

int brake_lift_measure(const rig* r, double v0, brake_lift* out, mt_err* e) {
  memset(out, 0, sizeof *out);
  vehicle* v = veh_new(r, (road){0}, 0, e);
  if (!v) return e->code ? e->code : MT_EINTERNAL;
  trim_spec s = {0};
  s.speed = v0;
  s.fix_roll = 1;
  s.gear = -1;
  trim_result tr;
  int rc = trim_solve(v, &s, &tr, e);
  if (rc == MT_OK) {
    v->in.throttle = 0;
    v->in.clutch = 0;
    v->in.front_brake = v->in.rear_brake = 0;
    double roll, pitch0, yaw;
    veh_forward(v);
    veh_frame_euler(v, &roll, &pitch0, &yaw);
    rc = ramp(v, pitch0, out, e);
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
