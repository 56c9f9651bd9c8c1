/* controls.c — the rig's hand-control coefficients (see controls.h). */
#include "sim/controls.h"

#include <lauxlib.h>
#include <math.h>

void controls_default(rig_controls* c) {
  c->sens_const = 0.0005;
  c->sens_speed = 0.004;
  c->sens_lean = 1.35;
  c->sens_sum = 0;
  c->throttle_px = 200;
  c->brake_px = 200;
  c->throttle_curve = 2;
  c->brake_curve = 2;
  c->rear_brake = 0.3;
  c->max_torque = 150;
  c->assist_lean = 0.004;
  c->pad_torque = 30;
}

int controls_read(lua_State* L, const lb_scope* top, rig_controls* c, mt_err* e) {
  controls_default(c);
  int pushed;
  if (lb_table(L, -1, top, "controls", 0, 0, &pushed, e)) return MT_EINPUT;
  if (!pushed) {
    if (!top->fill) return MT_OK;
    lua_newtable(L);   /* the first pass: an empty table to receive the defaults */
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "controls");
  }
  lb_scope s = lb_enter(top, "controls", 0, "controls");
  static const char* const known[] = {"sens_const", "sens_speed", "sens_lean", "sens_sum", "throttle_px", "brake_px",
                                      "throttle_curve", "brake_curve", "rear_brake", "max_torque", "assist_lean", "pad_torque", NULL};
  int rc = lb_check_keys(L, -1, &s, known, e) || lb_num(L, -1, &s, "sens_const", 0, 0, c->sens_const, &c->sens_const, e) ||
           lb_num(L, -1, &s, "sens_speed", 0, 0, c->sens_speed, &c->sens_speed, e) ||
           lb_num(L, -1, &s, "sens_lean", 0, 0, c->sens_lean, &c->sens_lean, e) ||
           lb_num(L, -1, &s, "sens_sum", 0, 0, c->sens_sum, &c->sens_sum, e) ||
           lb_num(L, -1, &s, "throttle_px", 0, 0, c->throttle_px, &c->throttle_px, e) ||
           lb_num(L, -1, &s, "brake_px", 0, 0, c->brake_px, &c->brake_px, e) ||
           lb_num(L, -1, &s, "throttle_curve", 0, 0, c->throttle_curve, &c->throttle_curve, e) ||
           lb_num(L, -1, &s, "brake_curve", 0, 0, c->brake_curve, &c->brake_curve, e) ||
           lb_num(L, -1, &s, "rear_brake", 0, 0, c->rear_brake, &c->rear_brake, e) ||
           lb_num(L, -1, &s, "max_torque", 0, 0, c->max_torque, &c->max_torque, e) ||
           lb_num(L, -1, &s, "assist_lean", 0, 0, c->assist_lean, &c->assist_lean, e) ||
           lb_num(L, -1, &s, "pad_torque", 0, 0, c->pad_torque, &c->pad_torque, e);
  if (!rc && !(c->sens_sum == 0 || c->sens_sum == 1))
    rc = lb_fail(&s, "sens_sum", 0, e, "must be 0 (product form) or 1 (sum as printed), got %g", c->sens_sum);
  if (!rc && (c->sens_const < 0 || c->sens_speed < 0 || c->sens_lean < 0))
    rc = lb_fail(&s, "sens_const", 0, e, "sens_const, sens_speed and sens_lean must be >= 0");
  if (!rc && !(c->throttle_px >= 1 && c->brake_px >= 1))
    rc = lb_fail(&s, "throttle_px", 0, e, "throttle_px and brake_px must be >= 1 px");
  if (!rc && !(c->throttle_curve >= 1 && c->throttle_curve <= 5))
    rc = lb_fail(&s, "throttle_curve", 0, e, "must be within [1, 5] (1: linear), got %g", c->throttle_curve);
  if (!rc && !(c->brake_curve >= 1 && c->brake_curve <= 5))
    rc = lb_fail(&s, "brake_curve", 0, e, "must be within [1, 5] (1: linear), got %g", c->brake_curve);
  if (!rc && !(c->rear_brake >= 0 && c->rear_brake <= 1))
    rc = lb_fail(&s, "rear_brake", 0, e, "must be within [0, 1], got %g", c->rear_brake);
  if (!rc && !(c->max_torque > 0 && c->max_torque <= 1000))
    rc = lb_fail(&s, "max_torque", 0, e, "must be within (0, 1000] N·m, got %g", c->max_torque);
  if (!rc && !(c->assist_lean > 0 && c->assist_lean < 0.1))
    rc = lb_fail(&s, "assist_lean", 0, e, "must be within (0, 0.1) rad/px, got %g", c->assist_lean);
  if (!rc && !(c->pad_torque >= 0 && c->pad_torque <= 1000))
    rc = lb_fail(&s, "pad_torque", 0, e, "must be within [0, 1000] N·m, got %g", c->pad_torque);
  lua_pop(L, 1);
  return rc ? MT_EINPUT : MT_OK;
}

double controls_sensitivity(const rig_controls* c, double V, double roll) {
  double lean = 1 + c->sens_lean * 3 * fabs(roll) / MT_PI;
  double base = c->sens_const + c->sens_speed * fabs(V);
  return c->sens_sum != 0 ? base + lean : base * lean;
}
