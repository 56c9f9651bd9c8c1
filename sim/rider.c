/* rider.c — the virtual rider (see rider.h). */
#include "sim/rider.h"

#include <math.h>

void rider_default_params(rider_params* p) {
  p->k_roll = 120;
  p->k_roll_rate = 25;
  p->ki_roll = 300;
  p->k_steer_rate = 5;   /* the hands' passive damping on the bars: with the fork's bending compliance (issue 10)
                            the wobble is unstable at 36-90 km/h, as in the BikeSim memo; 2 could not hold it */
  p->k_offset = 0.04;
  p->k_heading = 0.8;
  p->max_roll = 0.95;
  p->k_speed = 0.15;
  p->ki_speed = 0.05;
  p->k_brake = 0.15;
  shift_default_params(&p->shift);
  p->max_torque = 120;
}

double rider_balance_roll(double speed, double curvature, double h, double crown) {
  /* Effective lean of the line contact → CG balances gravity and centripetal force:
   * tan(φe) = V²κ/g. The tyre's crown moves the contact inward by ρ·sin φ, so the machine leans
   * further: sin(φ − φe)·(h − ρ) = ρ·sin φe (for a torus tyre of crown radius ρ, CG at h). */
  double phie = atan(speed * speed * curvature / MT_G);
  double d = h - crown > 1e-6 ? crown * sin(phie) / (h - crown) : 0;
  double phi = phie + asin(mt_clamp(d, -1, 1));
  return -phi;   /* ISO roll: a left turn (κ > 0) needs a lean to the left (negative roll) */
}

void rider_control(const rider_params* p, rider_state* s, vehicle* v, const rider_target* t, double dt) {
  const rig* r = v->rig;
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  double V = veh_speed(v);
  /* roll rate from the frame's angular velocity: world x-axis-of-heading component */
  const double* R = v->d->xmat + 9 * v->bid[r->b_frame];
  double wl[6];
  mj_objectVelocity(v->m, v->d, mjOBJ_BODY, v->bid[r->b_frame], wl, 0);   /* first 3: angular, world */
  double hx = cos(yaw), hy = sin(yaw);
  double roll_rate = wl[0] * hx + wl[1] * hy;
  (void)R;
  /* outer loop: target roll */
  double target;
  if (t->roll_mode) {
    target = t->roll;
  } else {
    double ff = rider_balance_roll(V > 0 ? V : 0, t->curvature, 0.55, r->wheel[RIG_REAR].tyre.crown);
    /* Left of the path (positive offset) or pointing left of it: lean right (positive roll). */
    target = ff + p->k_offset * t->offset_error + p->k_heading * t->heading_error + t->roll_offset;
  }
  target = mt_clamp(target, -p->max_roll, p->max_roll);
  /* inner loop: more right lean wanted → steer left (positive torque) to counter-steer */
  double err = target - roll;
  /* The machine answers the bars more strongly as speed rises (gyroscopic and tyre forces grow):
   * a rider's hands soften with speed. Gains are scheduled as (20 m/s / V)^1.5 above 20 m/s. */
  double sch = V > 20 ? pow(20 / V, 1.5) : 1;
  s->steer_int = mt_clamp(s->steer_int + sch * p->ki_roll * err * dt, -p->max_torque, p->max_torque);
  double tau = sch * (p->k_roll * err - p->k_roll_rate * roll_rate) - p->k_steer_rate * veh_qd(v, r->j_steer) + s->steer_int;
  v->in.steer_torque = mt_clamp(tau, -p->max_torque, p->max_torque);
  /* speed */
  double verr = t->speed - V;
  s->speed_int = mt_clamp(s->speed_int + verr * dt, -20, 20);
  double thr = p->k_speed * verr + p->ki_speed * s->speed_int;
  v->in.throttle = mt_clamp(thr, 0, 1);
  double brake = verr < -0.5 ? p->k_brake * (-verr - 0.5) : 0;
  v->in.front_brake = mt_clamp(brake, 0, 0.6);
  v->in.rear_brake = mt_clamp(0.5 * brake, 0, 0.4);
  if (brake > 0) s->speed_int = fmin(s->speed_int, 0);
  /* gears: the shift rule and the quickshifter/blipper choreography are sim/shift.c's */
  if (t->auto_gear) shift_auto(&p->shift, &s->shift, v, t->speed > 0);
  shift_update(&p->shift, &s->shift, v, dt);
}
