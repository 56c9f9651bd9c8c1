/* lift_ramp.c — one wheel's load ridden down to nothing (see lift_ramp.h). */
#include "sim/lift_ramp.h"

#include <math.h>
#include <string.h>

#include "sim/vehicle.h"

int lift_ramp_ride(vehicle* v, int wheel, double* input, double from, double rate, double min_speed, double stop_rpm,
                   lift_ramp_out* out, mt_err* e) {
  memset(out, 0, sizeof *out);
  double dt = v->rig->timestep, roll, pitch0, yaw;
  veh_forward(v);
  veh_frame_euler(v, &roll, &pitch0, &yaw);
  long n = (long)ceil((1 - from) / rate / dt);
  for (long i = 0; i <= n; i++) {
    double u = fmin(1.0, from + i * dt * rate), V = veh_speed(v), pitch;
    if (V < min_speed) break;
    veh_frame_euler(v, &roll, &pitch, &yaw);
    *input = u;
    int rc = veh_step(v, e);
    if (rc) return rc;
    if (stop_rpm > 0 && v->out.engine_rpm >= stop_rpm) break;
    const veh_wheel_out* w = v->out.wheel;
    if (!w[wheel].contact || w[wheel].fz <= 0) {
      out->lifted = 1;
      out->fx = w[RIG_FRONT].fx + w[RIG_REAR].fx;
      out->drag = v->out.aero_drag;
      out->speed = V;
      out->pitch = pitch - pitch0;
      out->input = u;
      veh_com(v, out->com);   /* of the last evaluation, as v->out */
      memcpy(out->other, w[wheel == RIG_FRONT ? RIG_REAR : RIG_FRONT].point, sizeof out->other);
      return MT_OK;
    }
  }
  return MT_OK;
}
