/* controls.h — the hand controls' coefficients of a rig (module prefix controls_): how the ride
 * window's rubber band (takes/ride.h, docs/ride.md) turns pixels into bar torque, throttle and
 * brakes. Read from the rig's optional `controls = { ... }` table; every field has a default,
 * is listed by `rig info` and can be changed with --set controls.FIELD=VALUE.
 *
 * Steering sensitivity (N·m of bar torque per pixel of the band's horizontal length), after the
 * Slipstream manual §2, with V the speed (m/s) and θ the roll angle (rad):
 *   sens_sum = 0 (default): (sens_const + sens_speed·V) · (1 + sens_lean·3|θ|/π)
 *   sens_sum = 1 (as printed in the manual): sens_const + sens_speed·V + (1 + sens_lean·3|θ|/π)
 * docs/ride.md "Steering sensitivity" gives the measurements behind the default.
 *
 * Throttle and brake follow a power curve of the band's length (takes/ride.h ride_band_map):
 * the engine's torque saturates by a third of the throttle's travel (docs/ride.md "Throttle and
 * brake"), so a linear band put nearly all of it into its first 60 px. */
#ifndef CONTROLS_H
#define CONTROLS_H

#include <lua.h>
#include "base/luabox.h"
#include "base/mt.h"

typedef struct rig_controls {
  double sens_const;    /* N·m/px */
  double sens_speed;    /* N·m/px per m/s */
  double sens_lean;     /* 1, per 3|θ|/π */
  double sens_sum;      /* 0: the product form; 1: the sum as printed */
  double throttle_px;   /* px of the band upwards for full throttle */
  double brake_px;      /* px downwards for full front brake */
  double throttle_curve;   /* exponent p: throttle = (band / throttle_px)^p (1: linear) */
  double brake_curve;      /* exponent p: front lever = (band / brake_px)^p */
  double rear_brake;    /* rear lever = this × front lever (0..1) */
  double max_torque;    /* N·m, the most the hands put on the bars */
  double assist_lean;   /* rad of asked-for lean per px of the band with --assist */
  double pad_torque;    /* N·m of bar torque at a game controller's full stick */
} rig_controls;

void controls_default(rig_controls* c);
/* Read the optional `controls` table of the rig table at the top of the stack (stack unchanged;
 * with top->fill the defaults are written back so --set can reach them). MT_EINPUT naming the field. */
int controls_read(lua_State* L, const lb_scope* top, rig_controls* c, mt_err* e);
/* N·m per pixel at speed V (m/s) and roll θ (rad). */
double controls_sensitivity(const rig_controls* c, double V, double roll);

#endif
