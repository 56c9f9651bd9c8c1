/* trim_report.c — the trim command's argument checks and its JSON line (trim.h). */
#include <math.h>
#include <stdio.h>

#include "sim/trim.h"

int trim_check_args(double speed, double lean_deg, long gear, mt_err* e) {
  if (!(speed >= 0 && speed <= 120)) return mt_fail(e, MT_EINPUT, "trim: --speed: %g is outside [0, 120]", speed);
  if (!(lean_deg >= -65 && lean_deg <= 65)) return mt_fail(e, MT_EINPUT, "trim: --lean: %g is outside [-65, 65]", lean_deg);
  if (gear < -1 || gear > 6) return mt_fail(e, MT_EINPUT, "trim: --gear: %ld is outside [-1, 6]", gear);
  return MT_OK;
}

int trim_clutch_note(const trim_result* t, char* buf, size_t n) {
  if (!t->clutch_slipping) return 0;
  return snprintf(buf, n,
                  "the clutch slips: engagement %.4f, slip %.0f rpm (throttle shut, the idle governor holds the crank "
                  "at %.0f rpm)",
                  t->clutch, t->clutch_slip_rpm, t->rpm);
}

int trim_json(double speed, const trim_result* t, char* buf, size_t n) {
  double d = 180 / MT_PI;
  /* the clutch's keys only where it slips: every other point's line stays as it was */
  char clutch[128] = "";
  if (t->clutch_slipping)
    snprintf(clutch, sizeof clutch, ",\"clutch_slipping\":true,\"clutch_engagement\":%.6g,\"clutch_slip_rpm\":%.6g",
             t->clutch, t->clutch_slip_rpm);
  return snprintf(buf, n,
                  "{\"speed_mps\":%.6g,\"lean_deg\":%.6g,\"radius_m\":%.6g,\"yaw_rate_radps\":%.6g,\"sideslip_rad\":%.6g,"
                  "\"pitch_rad\":%.6g,\"steer_angle_rad\":%.6g,\"steer_torque_Nm\":%.6g,\"throttle\":%.6g,\"gear\":%d,"
                  "\"rpm\":%.6g,\"fork_sag_m\":%.6g,\"shock_sag_m\":%.6g,\"fz_front_N\":%.6g,\"fz_rear_N\":%.6g,"
                  "\"slip_angle_front_deg\":%.6g,\"slip_angle_rear_deg\":%.6g,\"slip_ratio_front\":%.6g,"
                  "\"slip_ratio_rear\":%.6g%s,\"iterations\":%d,\"continuation_steps\":%d,\"residual\":%.3g}",
                  speed, t->roll * d, isfinite(t->radius) ? t->radius : 0, t->yaw_rate, t->sideslip, t->pitch,
                  t->steer_angle, t->steer_torque, t->throttle, t->gear, t->rpm, t->fork_sag, t->shock_sag, t->fz_front,
                  t->fz_rear, t->alpha_front * d, t->alpha_rear * d, t->kappa_front, t->kappa_rear, clutch, t->iterations, t->steps,
                  t->residual);
}
