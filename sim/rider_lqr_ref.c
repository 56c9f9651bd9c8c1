/* rider_lqr_ref.c — the LQR steer loop's reference (see rider_lqr_ref.h). */
#include "sim/rider_lqr_ref.h"

#include <math.h>

double rider_lqr_ref(const rider_trims* t, double V, double target, double roll, double max_roll, int own_lean,
                     double xref[RIDER_LQR_NK]) {
  rider_trim_cell c;
  rider_trims_cell(t, V, &c);
  return rider_lqr_ref_in(t, &c, target, roll, max_roll, own_lean, xref);
}

double rider_lqr_ref_in(const rider_trims* t, const rider_trim_cell* c, double target, double roll, double max_roll,
                        int own_lean, double xref[RIDER_LQR_NK]) {
  double pt = mt_clamp(target, -max_roll, max_roll);
  double ps = own_lean ? mt_clamp(roll, -max_roll, max_roll) : pt;   /* the steady turn the rates refer to */
  xref[LQR_ROLL] = pt;
  xref[LQR_ROLL_RATE] = 0;
  xref[LQR_STEER_RATE] = 0;
  double tau;   /* the table's turn at ps and torque at pt, one speed cell (rider_trims_turn) */
  rider_trims_turn_in(t, c, ps, pt, &xref[LQR_YAW_RATE], &xref[LQR_VLAT], &xref[LQR_STEER], &tau);
  return tau;
}

/* the rider's torque when the machine sits in the steady turn at lean phi and phi_t is asked for */
static double rider_tau(const rider_lqr* l, const rider_trims* t, double V, double phi, double phi_t, double max_roll,
                        int own_lean) {
  double K[RIDER_LQR_NK], xr[RIDER_LQR_NK], x[RIDER_LQR_NK] = {0};
  rider_lqr_gains(l, V, K);
  double tau = rider_lqr_ref(t, V, phi_t, phi, max_roll, own_lean, xr);
  x[LQR_ROLL] = phi;
  x[LQR_YAW_RATE] = rider_trims_yaw_rate(t, V, phi);
  x[LQR_VLAT] = rider_trims_vlat(t, V, phi);
  x[LQR_STEER] = rider_trims_steer(t, V, phi);
  for (int k = 0; k < RIDER_LQR_NK; k++) tau -= K[k] * (x[k] - xr[k]);
  return tau;
}

double rider_lqr_ref_stiffness(const rider_lqr* l, const rider_trims* t, double V, double phi, double max_roll,
                               int own_lean, double h) {
  double up = rider_trims_torque(t, V, phi + h) - rider_tau(l, t, V, phi + h, phi, max_roll, own_lean);
  double dn = rider_trims_torque(t, V, phi - h) - rider_tau(l, t, V, phi - h, phi, max_roll, own_lean);
  return (up - dn) / (2 * h);
}
