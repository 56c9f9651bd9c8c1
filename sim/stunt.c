/* stunt.c — wheelie and stoppie balance loops (see stunt.h). */
#include "sim/stunt.h"

#include <math.h>
#include <string.h>

#define D2R (MT_PI / 180)

void stunt_default_params(stunt_params* p) {
  p->w_kp = 4.0;
  p->w_ki = 8.0;
  p->w_kd = 2.0;
  p->w_brake = 6.0;
  p->s_kp = 6.0;
  p->s_ki = 6.0;
  p->s_kd = 1.5;
  p->s_squeeze = 3.0;
  p->s_kappa_max = 0.12;
  p->s_min_speed = 9.0;
  p->land_rate = 20 * D2R;
}

int stunt_kind(const char* name) {
  if (!strcmp(name, "none")) return STUNT_NONE;
  if (!strcmp(name, "wheelie")) return STUNT_WHEELIE;
  if (!strcmp(name, "stoppie")) return STUNT_STOPPIE;
  return -1;
}

const char* stunt_name(int kind) {
  return kind == STUNT_WHEELIE ? "wheelie" : kind == STUNT_STOPPIE ? "stoppie" : "none";
}

double stunt_default_pitch(int kind) {
  return kind == STUNT_WHEELIE ? -20 * D2R : kind == STUNT_STOPPIE ? 8 * D2R : 0;
}

int stunt_start(stunt_state* s, int kind, double pitch, mt_err* e) {
  memset(s, 0, sizeof *s);
  if (kind == STUNT_NONE) return MT_OK;
  if (kind == STUNT_WHEELIE && !(pitch < 0 && pitch > -60 * D2R))
    return mt_fail(e, MT_EINPUT, "a wheelie needs a nose-up pitch set-point within (-60, 0) degrees (ISO: nose down positive), got %g",
                   pitch / D2R);
  if (kind == STUNT_STOPPIE && !(pitch > 0 && pitch < 45 * D2R))
    return mt_fail(e, MT_EINPUT, "a stoppie needs a nose-down pitch set-point within (0, 45) degrees (ISO: nose down positive), got %g",
                   pitch / D2R);
  s->kind = kind;
  s->set = pitch;
  return MT_OK;
}

void stunt_stop(stunt_state* s) {
  if (s->kind != STUNT_NONE) s->phase = 2;
}

int stunt_control(const stunt_params* p, stunt_state* s, vehicle* v, double dt) {
  if (s->kind == STUNT_NONE) return 0;
  const rig* r = v->rig;
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  /* pitch rate: the frame's angular velocity about its own left axis (a positive rotation about
   * +y takes the nose down, the ISO sign of pitch) */
  double R[9], w[6];
  veh_body_rotation(v, r->b_frame, R);
  veh_body_twist(v, r->b_frame, w);
  double rate = w[0] * R[1] + w[1] * R[4] + w[2] * R[7];
  int front_down = v->out.wheel[RIG_FRONT].contact, rear_down = v->out.wheel[RIG_REAR].contact;
  if (s->phase == 2) {
    /* landing: the set-point walks back to level (a touch past it, so the wheel does come down) */
    double target = s->kind == STUNT_WHEELIE ? 2 * D2R : -2 * D2R;
    double step = p->land_rate * dt;
    s->set += mt_clamp(target - s->set, -step, step);
    if ((s->kind == STUNT_WHEELIE && front_down) || (s->kind == STUNT_STOPPIE && rear_down)) {
      memset(s, 0, sizeof *s);
      return 0;
    }
  }
  if (s->kind == STUNT_WHEELIE) {
    double err = pitch - s->set;   /* > 0: the nose is lower than wanted → more throttle */
    double thr, rb = 0;
    if (s->phase == 0) {
      thr = 1;
      if (pitch < 0.5 * s->set) {
        s->phase = 1;
        s->integ = 0.15;   /* from full throttle to a light hold */
      }
    } else {
      s->integ = mt_clamp(s->integ + p->w_ki * err * dt, 0, 1);
      thr = s->integ + p->w_kp * err + p->w_kd * rate;
      double over = s->set - 10 * D2R - pitch;   /* > 0: far too high */
      if (over > 0) {
        thr = 0;
        rb = p->w_brake * over;
      }
    }
    s->out = mt_clamp(thr, 0, 1);
    v->in.throttle = s->out;
    v->in.front_brake = 0;
    v->in.rear_brake = mt_clamp(rb, 0, 1);
    return 1;
  }
  /* stoppie */
  if (s->phase < 2 && veh_speed(v) < p->s_min_speed) s->phase = 2;
  double err = s->set - pitch;   /* > 0: the nose is not down enough → more lever */
  double lever;
  if (s->phase == 0) {
    lever = s->out + p->s_squeeze * dt;
    if (pitch > 0.5 * s->set) {
      s->phase = 1;
      s->integ = lever;
    }
  } else {
    s->integ = mt_clamp(s->integ + p->s_ki * err * dt, 0, 1);
    lever = s->integ + p->s_kp * err - p->s_kd * rate;
  }
  /* the rider's feel for a skid: ease off when the front slip passes kappa_max */
  double kf = -v->out.wheel[RIG_FRONT].kappa_r;
  if (kf > p->s_kappa_max) {
    lever = fmin(lever, s->out - p->s_squeeze * dt);
    s->integ = fmin(s->integ, lever);
  }
  s->out = mt_clamp(lever, 0, 1);
  v->in.throttle = 0;
  v->in.front_brake = s->out;
  v->in.rear_brake = 0;
  return 1;
}
