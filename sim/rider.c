/* rider.c — the virtual rider (see rider.h). */
#include "sim/rider.h"
#include "sim/rider_lqr.h"
#include "sim/rider_lqr_ref.h"
#include "sim/rider_speed.h"
#include "sim/rider_trim.h"

#include <math.h>

void rider_default_params(rider_params* p) {
  p->trims = NULL;
  p->lqr = NULL;
  p->kt_roll = 250;
  p->kt_roll_rate = 50;
  p->kt_roll_rate_hi = -50;
  p->v_rate_lo = 33;
  p->v_rate_hi = 48;
  p->v_fast_lo = 56;
  p->v_fast_hi = 60;
  p->kt_roll_rate_fast = -100;
  p->k_steer_fast = 0.5;
  p->k_steer = 1200;
  p->kt_steer_rate = 10;
  p->n_roll = 1;
  p->n_steer = 0.5;
  p->w_heading = 1.0;
  p->v_head_lo = 40;
  p->v_head_hi = 45;
  p->tau_head = 0.2;
  p->w_lateral = 0.5;
  p->w_int = 0.15;
  p->max_int = 0.2;   /* rad: the memo's chatter turn (216 km/h, 53 deg) starts at 0.15 (rider_start_slip); 0.1 bound it */
  p->max_roll_rate = 1.2;
  p->k_roll = 120;
  p->k_roll_rate = 25;
  p->ki_roll = 300;
  p->k_steer_rate = 5;   /* the hands' passive damping on the bars: with the fork's bending compliance (issue 10)
                            the wobble is unstable at 36-90 km/h, as in the BikeSim memo; 2 could not hold it */
  p->k_offset = 0.04;
  p->k_heading = 0.8;
  p->max_roll = 1.05;
  p->drive = NULL;
  p->ka_speed = 1.0;
  p->ki_a = 0.1;
  p->w_force = 5.0;
  p->limit_margin = 0.97;
  p->jerk = 40;
  p->k_speed = 0.15;
  p->ki_speed = 0.03;
  p->k_brake = 0.25;
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

/* rad of lean per rad of heading error: the table's slope dφ/dκ over V, times w_heading */
static double heading_gain_in(const rider_params* p, const rider_trim_cell* cv, double V, double curvature) {
  rider_trim_cell scratch;   /* the table's cell at Vs: cv's when Vs is V (rider_trims_cell_at_least) */
  const rider_trim_cell* cs = rider_trims_cell_at_least(p->trims, cv, V, 3, &scratch);
  double Vs = fmax(V, 3), dk = 1e-4 + 0.05 * fabs(curvature), lo, hi;
  rider_trims_roll_pair_in(p->trims, cs, Vs, fabs(curvature) - dk, fabs(curvature) + dk, &lo, &hi);
  double dphi_dk = fabs(hi - lo) / (2 * dk);
  return p->w_heading * dphi_dk / Vs;
}

static double heading_gain(const rider_params* p, double V, double curvature) {
  rider_trim_cell cv;
  rider_trims_cell(p->trims, V, &cv);
  return heading_gain_in(p, &cv, V, curvature);
}

void rider_start_slip(const rider_params* p, rider_state* s, double speed, double curvature, double slip) {
  /* heading error = yaw error = course error − slip: the term kh·(−slip) is undone by I = kh·slip */
  if (p->trims) s->lat_int = mt_clamp(heading_gain(p, speed, curvature) * slip, -p->max_int, p->max_int);
}

/* roll rate from the frame's angular velocity: world x-axis-of-heading component (the loops
 * that read it ask; the LQR loop measures its own, rider_lqr_measure) */
static double frame_roll_rate(vehicle* v, double yaw) {
  double wl[6];
  veh_body_twist(v, v->rig->b_frame, wl);   /* first 3: angular, world */
  double hx = cos(yaw), hy = sin(yaw);
  return wl[0] * hx + wl[1] * hy;
}

/* The speed on a profile with a drive table: the profile's acceleration fed forward through the
 * engine and brake maps, within the profile's drive and braking limits. Returns the limits hit. */
static unsigned speed_by_maps(const rider_params* p, rider_state* s, vehicle* v, const rider_target* t, double verr,
                              double dt) {
  unsigned lim = 0;
  const struct rider_drive* d = p->drive;
  s->speed_int = mt_clamp(s->speed_int + verr * dt, -10, 10);
  if (fabs(s->speed_int) >= 10) lim |= RIDER_LIM_SPEED_INT;
  double a = t->accel + p->ka_speed * verr + p->ki_a * s->speed_int;
  double F = d->mass * (a + MT_G * t->grade) + v->out.aero_drag;
  double Flo = -p->limit_margin * d->mass * t->brake_limit, Fhi = p->limit_margin * d->mass * t->drive_limit;
  if (F < Flo || F > Fhi) lim |= RIDER_LIM_FORCE;
  F = mt_clamp(F, Flo, Fhi);
  /* a rider squeezes the lever and rolls the throttle on: the force changes at a finite rate */
  double jd = p->jerk * d->mass * dt;
  if (fabs(F - s->f_cmd) > jd) lim |= RIDER_LIM_JERK;
  F = s->f_cmd = mt_clamp(F, s->f_cmd - jd, s->f_cmd + jd);
  s->f_lag += dt / 0.08 * (F - s->f_lag);
  double w = v->out.engine_rpm * MT_PI / 30;
  int g = v->in.gear;
  /* the maps' error, learnt from the tyres' measured force while no shift is under way */
  double Fm = v->out.wheel[0].fx + v->out.wheel[1].fx;
  if (s->shift.phase == SHIFT_IDLE && v->out.wheel[0].contact && v->out.wheel[1].contact)
    s->force_corr = mt_clamp(s->force_corr + p->w_force * (s->f_lag - Fm) * dt, -0.2 * d->mass * MT_G, 0.2 * d->mass * MT_G);
  else lim |= RIDER_LIM_FORCE_CORR;   /* the learning paused: a switch in its law */
  if (fabs(s->force_corr) >= 0.2 * d->mass * MT_G) lim |= RIDER_LIM_FORCE_CORR;
  /* the engine or the brakes also speed up or slow down the wheels and the crank */
  /* a downshift takes the drive up (sim/shift.h): until it ends the engine brakes only with
   * what the clutch carries (last step's torque, the crank's inertia included), and the
   * brakes make up the rest — counting the closed throttle's full overrun and the crank's
   * inertia there left a 0.2 g hole in the braking that came back with the clutch */
  int down = s->shift.phase != SHIFT_IDLE && s->shift.to < s->shift.from && g >= 1 && g <= d->ngears;
  F += rider_drive_rot_mass(d, !down && v->in.clutch > 0.5 ? g : 0) * (F - v->out.aero_drag - d->mass * MT_G * t->grade) / d->mass +
       s->force_corr;
  double F0 = g >= 1 && g <= d->ngears ? rider_drive_torque(d, w, 0) * d->ratio[g] / d->r_rear : 0;
  if (down) F0 = v->out.clutch_torque * d->ratio[g] / d->r_rear;
  if (F >= F0) {   /* the throttle gives it (F0 < 0: the engine's own braking when shut) */
    v->in.throttle = rider_drive_throttle(d, w, g, F);
    v->in.front_brake = v->in.rear_brake = 0;
    if (v->in.throttle <= 0 || v->in.throttle >= 1) lim |= RIDER_LIM_THROTTLE;
  } else {
    lim |= RIDER_LIM_BRAKE;   /* the law switches from the throttle's map to the brakes' */
    v->in.throttle = 0;
    rider_drive_brakes(d, F0 - F, &v->in.front_brake, &v->in.rear_brake);
    if (s->speed_int > 0) s->speed_int = 0;
  }
  return lim;
}

/* The speed without: PI throttle, proportional brakes when too fast. Returns the limits hit. */
static unsigned speed_by_pi(const rider_params* p, rider_state* s, vehicle* v, double verr, double dt) {
  unsigned lim = 0;
  s->speed_int = mt_clamp(s->speed_int + verr * dt, -20, 20);
  if (fabs(s->speed_int) >= 20) lim |= RIDER_LIM_SPEED_INT;
  double thr = p->k_speed * verr + p->ki_speed * s->speed_int;
  if (thr <= 0 || thr >= 1) lim |= RIDER_LIM_THROTTLE;
  if (verr < -0.5) lim |= RIDER_LIM_BRAKE;
  v->in.throttle = mt_clamp(thr, 0, 1);
  double brake = verr < -0.5 ? p->k_brake * (-verr - 0.5) : 0;
  v->in.front_brake = mt_clamp(brake, 0, 0.6);
  v->in.rear_brake = mt_clamp(0.5 * brake, 0, 0.4);
  if (brake > 0) s->speed_int = fmin(s->speed_int, 0);
  return lim;
}

void rider_control(const rider_params* p, rider_state* s, vehicle* v, const rider_target* t, double dt) {
  rider_control_at(p, s, v, t, dt, NULL);
}

void rider_control_at(const rider_params* p, rider_state* s, vehicle* v, const rider_target* t, double dt,
                      const rider_frame* f) {
  const rig* r = v->rig;
  double roll, pitch, yaw, V;
  if (f) {
    roll = f->roll;
    yaw = f->yaw;
    V = f->speed;
  } else {
    veh_frame_euler(v, &roll, &pitch, &yaw);
    V = veh_speed(v);
  }
  double omega = veh_qd(v, r->j_steer);
  double tau;
  unsigned lim = 0;   /* the limits this decision hits (a closed-loop linearisation reads them) */
  if (p->trims && !t->roll_mode) {
    /* outer loop around the trim: heading and lateral errors, the only integrator here */
    rider_trim_cell cv;   /* the table's speed cell at V, found once for the step's look-ups (issue 18) */
    rider_trims_cell(p->trims, V, &cv);
    double ff = rider_trims_roll_in(p->trims, &cv, V, t->curvature);
    /* loop gains from the table's own lean-to-curvature slope (the gravity balance would say
     * dκ/dφ = g/(V²·cos²φ); the tyres' crowns and slip make it flatter near the limit):
     * heading rate ψ̇ = V·κ, so a lean gain kh = w_heading/(V·dκ/dφ) crosses over at w_heading */
    double Vs = fmax(V, 3), kh = heading_gain_in(p, &cv, V, t->curvature), ky = kh * p->w_lateral / Vs;
    s->lat_int = mt_clamp(s->lat_int + p->w_int * ky * t->offset_error * dt, -p->max_int, p->max_int);
    if (fabs(s->lat_int) >= p->max_int) lim |= RIDER_LIM_LAT_INT;
    /* (the table's leans already hold the rider's posture for each turn: no roll_offset here) */
    /* The heading error carries the weave's yaw (2-3 Hz at 45-60 m/s), and kh grows with V (about
     * V/g rad of lean per rad): fed straight into the lean target it sustained a weave limit cycle
     * on straights from 48 m/s (bar torque +-60 N·m, lean +-2.5 deg, with either steer loop). A
     * rider does not chase heading wiggles that fast: above v_head_lo the loop acts on the error
     * low-passed with tau_head (0.2 s: a third of the gain at 2.3 Hz, 11 deg of lag at the 1 rad/s
     * crossover); below v_head_lo the error is used as it is, bit for bit. */
    double eh = t->heading_error;
    if (!s->head_f_set) {
      s->head_f = eh;
      s->head_f_set = 1;
    } else
      s->head_f += dt / p->tau_head * (eh - s->head_f);
    if (V > p->v_head_lo) {
      double w = V >= p->v_head_hi ? 1 : (V - p->v_head_lo) / (p->v_head_hi - p->v_head_lo);
      eh += w * (s->head_f - eh);
    }
    double target = ff + kh * eh + ky * t->offset_error + s->lat_int;
    if (fabs(target) > p->max_roll) lim |= RIDER_LIM_ROLL;
    target = mt_clamp(target, -p->max_roll, p->max_roll);
    /* a rider rolls in at a finite rate: the asked-for lean moves at most max_roll_rate */
    double step = p->max_roll_rate * dt;
    if (fabs(target - s->roll_ref) > step) lim |= RIDER_LIM_ROLL_RATE;
    target = s->roll_ref = mt_clamp(target, s->roll_ref - step, s->roll_ref + step);
    if (p->lqr) {
      double x[RIDER_LQR_NK], K[RIDER_LQR_NK];
      double xr[RIDER_LQR_NK];
      if (f && f->yaw_cs) rider_lqr_measure_cs(v, roll, f->yaw_cs[0], f->yaw_cs[1], x);
      else rider_lqr_measure_at(v, roll, yaw, x);
      rider_lqr_gains(p->lqr, V, K);
      /* roll about the asked-for lean, the turn's rates and steer about the machine's own steady
       * turn (sim/rider_lqr_ref.h: about the target's, the loop lost its stiffness near the limit) */
      tau = rider_lqr_ref_in(p->trims, &cv, target, roll, p->max_roll, 1, xr);
      for (int k = 0; k < RIDER_LQR_NK; k++) tau -= K[k] * (x[k] - xr[k]);
    } else {
      /* inner loop: feed-forward torque of that lean plus gains that rise with speed */
      double vr = mt_clamp(V, 8, 60) / 20;
      double kr = p->kt_roll * pow(vr, -p->n_roll), ks = p->k_steer * pow(vr, p->n_steer);
      /* roll-rate feedback: damping at low speed; at high speed reversed, which damps the weave */
      double u = mt_clamp((V - p->v_rate_lo) / (p->v_rate_hi - p->v_rate_lo), 0, 1);
      double kp = p->kt_roll_rate + u * (p->kt_roll_rate_hi - p->kt_roll_rate);
      /* and above v_fast_lo more of it, with a softer steer: the 48 m/s gains let the weave grow
       * in the memo's chatter turn (216 km/h, 53 deg; below v_fast_lo bit for bit as before) */
      double uf = mt_clamp((V - p->v_fast_lo) / (p->v_fast_hi - p->v_fast_lo), 0, 1);
      kp += uf * (p->kt_roll_rate_fast - p->kt_roll_rate_hi);
      ks *= 1 + uf * (p->k_steer_fast - 1);
      double delta = veh_q(v, r->j_steer), roll_rate = frame_roll_rate(v, yaw);
      tau = rider_trims_torque(p->trims, V, target) + kr * (target - roll) - kp * roll_rate -
            ks * (delta - rider_trims_steer(p->trims, V, target)) - p->kt_steer_rate * omega;
    }
  } else if (p->trims) {
    double target = mt_clamp(t->roll, -p->max_roll, p->max_roll);
    double kr = p->kt_roll, kp = p->kt_roll_rate;
    double delta = veh_q(v, r->j_steer), roll_rate = frame_roll_rate(v, yaw);
    tau = rider_trims_torque(p->trims, V, target) + kr * (target - roll) - kp * roll_rate - p->k_steer * (delta - rider_trims_steer(p->trims, V, target)) - p->kt_steer_rate * omega;
  } else {
    /* legacy loops (no trim table): pure lean balance, PI on roll, gains softened with speed */
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
    double err = target - roll, roll_rate = frame_roll_rate(v, yaw);
    double sch = V > 20 ? pow(20 / V, 1.5) : 1;
    s->steer_int = mt_clamp(s->steer_int + sch * p->ki_roll * err * dt, -p->max_torque, p->max_torque);
    if (fabs(s->steer_int) >= p->max_torque) lim |= RIDER_LIM_STEER_INT;
    tau = sch * (p->k_roll * err - p->k_roll_rate * roll_rate) - p->k_steer_rate * omega + s->steer_int;
  }
  if (fabs(tau) > p->max_torque) lim |= RIDER_LIM_TORQUE;
  v->in.steer_torque = mt_clamp(tau, -p->max_torque, p->max_torque);
  /* speed */
  double verr = t->speed - V;
  lim |= p->drive && t->has_accel ? speed_by_maps(p, s, v, t, verr, dt) : speed_by_pi(p, s, v, verr, dt);
  /* gears: the shift rule and the quickshifter/blipper choreography are sim/shift.c's */
  if (t->auto_gear) shift_auto(&p->shift, &s->shift, v, t->speed > 0, roll);
  shift_update(&p->shift, &s->shift, v, dt);
  if (s->shift.phase != SHIFT_IDLE) lim |= RIDER_LIM_SHIFT;
  s->limits = lim;
}
