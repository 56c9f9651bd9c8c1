/* shift.c — quickshifter, auto-blipper and slipper-limited engagement (see shift.h). */
#include "sim/shift.h"

#include <math.h>

void shift_default_params(shift_params* p) {
  p->up_rpm = 9500;        /* the torque peak (117.5 N·m): the cautious rider short-shifts */
  p->short_lean = 0;       /* at any lean */
  p->up_rpm_leaned = 9500;
  p->down_rpm = 5000;      /* 90 N·m there; the next gear down lands at ≤ 6243 rpm */
  p->max_rpm = 12500;      /* 1000 rpm below the rev limiter's fuel cut (13 500) */
  p->interval = 0.4;
  p->cut_long = 0.080;     /* hobby quickshifter firmware default, all rpm bins */
  p->cut_short = 0.050;    /* Triumph Daytona 675 factory unit */
  p->cut_rpm_lo = 8000;
  p->cut_rpm_hi = 12000;
  p->cut_max = 0.300;      /* a clutchless roll-off shift takes about 300 ms */
  p->drive_floor = 20;
  p->blip_throttle = 0.20; /* ride-by-wire blip limit in the MoTeC/Geartronics report */
  p->blip_max_time = 0.150;/* upper end of the 60–150 ms estimate */
  p->match_rpm = 50;
  p->back_torque = 20;     /* N·m at the crank: 1.2× the 16.9 N·m closed-throttle overrun at 9500 rpm */
  p->sync_max = 1.0;
  p->engage_time = 0.060;
  p->cut_ramp = 0.040;
  p->grip_return = 0.300;
}

double shift_gear_rpm(const vehicle* v, int g) {
  double G = drive_gear_ratio(&v->rig->drive, g);
  return v->out.wheel[RIG_REAR].spin * G * 30 / MT_PI;
}

int shift_request(const shift_params* p, shift_state* s, vehicle* v, int to) {
  const drive_params* d = &v->rig->drive;
  int from = v->in.gear;
  if (s->phase != SHIFT_IDLE || to < 0 || to > d->ngears || (to != from + 1 && to != from - 1)) return 0;
  double rpm = v->out.engine_rpm;
  s->from = from;
  s->to = to;
  s->t = 0;
  if (to == from + 1 && from > 0) {
    /* quickshifter: cut time from the table, clutch capped at the torque it carried */
    double u = mt_clamp((rpm - p->cut_rpm_lo) / (p->cut_rpm_hi - p->cut_rpm_lo), 0, 1);
    s->cut_time = p->cut_long + u * (p->cut_short - p->cut_long);
    s->cap = fmax(fabs(v->out.clutch_torque), p->drive_floor);
    s->throttle0 = v->in.throttle;
    s->target_rpm = rpm * drive_gear_ratio(d, to) / drive_gear_ratio(d, from);
    s->phase = SHIFT_UP_CUT;
    s->ups++;
  } else if (to == from - 1 && to > 0) {
    s->target_rpm = rpm * drive_gear_ratio(d, to) / drive_gear_ratio(d, from);
    if (s->target_rpm > p->max_rpm) {
      s->blocked++;
      return 0;
    }
    s->cap = 0;
    s->phase = SHIFT_DOWN_BLIP;
    s->downs++;
  } else {
    /* into or out of neutral: no choreography */
    v->in.gear = to;
    s->since = 0;
    return 1;
  }
  v->in.gear = to;
  return 1;
}

void shift_auto(const shift_params* p, shift_state* s, vehicle* v, int want_drive, double lean) {
  if (s->phase != SHIFT_IDLE || s->since < p->interval) return;
  double rpm = v->out.engine_rpm;
  int g = v->in.gear;
  double up = p->short_lean > 0 && fabs(lean) > p->short_lean ? p->up_rpm_leaned : p->up_rpm;
  if (g > 0 && g < v->rig->drive.ngears && rpm > up) shift_request(p, s, v, g + 1);
  else if (g > 1 && rpm < p->down_rpm) shift_request(p, s, v, g - 1);
  else if (g == 0 && want_drive) shift_request(p, s, v, 1);
}

static void engage(shift_state* s, double cap) {
  s->phase = SHIFT_ENGAGE;
  s->t = 0;
  s->cap0 = cap;
}

/* Engagement that makes the regularised clutch (T = C·e·tanh(slip/ω_s)) carry `cap` at this
 * slip: the cap holds until the speeds actually meet instead of fading with the slip. */
static double engagement_for(const drive_params* d, double cap, double slip_rpm) {
  double x = tanh(fabs(slip_rpm) * MT_PI / 30 / d->clutch_slip);
  return x > 1e-3 ? mt_clamp(cap / (d->clutch_capacity * x), 0, 1) : 1;
}

void shift_update(const shift_params* p, shift_state* s, vehicle* v, double dt) {
  const drive_params* d = &v->rig->drive;
  double rpm = v->out.engine_rpm;
  double match = s->phase != SHIFT_IDLE ? shift_gear_rpm(v, s->to) : 0;   /* the new gear's engine speed */
  double e = 1, cut = 0;
  s->t += dt;
  switch (s->phase) {
  case SHIFT_UP_CUT:
    /* cut at least the table time, longer while the engine is above the new gear's speed */
    if (s->t >= s->cut_time && rpm - match <= p->match_rpm) {
      s->phase = SHIFT_UP_RAMP;   /* revs matched: the clutch locks with nothing left to slip */
      s->t = 0;
    } else if (s->t >= p->cut_max) {
      engage(s, s->cap);
    } else {
      cut = 1;
      e = engagement_for(d, s->cap, rpm - match);
      v->in.throttle = fmin(v->in.throttle, s->throttle0);   /* the rider's hand stays still */
    }
    if (s->phase == SHIFT_UP_RAMP) {
      /* start the ignition back at the cut that keeps the engine's torque at the clutch's cap,
       * so locking the clutch changes nothing at the wheel; then fade the cut out */
      engine_out eo;
      engine_eval(&v->rig->engine, rpm * MT_PI / 30, fmin(v->in.throttle, s->throttle0), &eo);
      s->cut0 = eo.torque_indicated > 1e-9 ? mt_clamp((eo.torque_brake - s->cap) / eo.torque_indicated, 0, 1) : 0;
    }
    break;
  case SHIFT_DOWN_BLIP:
    s->target_rpm = match;
    if (rpm >= match - p->match_rpm) engage(s, 0);
    else if (s->t >= p->blip_max_time) {
      s->phase = SHIFT_DOWN_SLIP;
      s->t = 0;
      s->cap = p->back_torque;
      e = engagement_for(d, s->cap, rpm - match);
    } else {
      e = 0;
      v->in.throttle = fmax(v->in.throttle, p->blip_throttle);
    }
    break;
  case SHIFT_DOWN_SLIP:
    if (fabs(rpm - match) <= p->match_rpm || s->t >= p->sync_max) engage(s, s->cap);
    else e = engagement_for(d, s->cap, rpm - match);
    break;
  default:
    break;
  }
  switch (s->phase) {
  case SHIFT_UP_RAMP:
    /* the ignition comes back over cut_ramp, the clutch locked, the grip still held */
    cut = s->cut0 * (1 - fmin(s->t / p->cut_ramp, 1));
    v->in.throttle = s->throttle0 + (v->in.throttle - s->throttle0) * fmin(s->t / p->grip_return, 1);
    if (s->t >= fmax(p->cut_ramp, p->grip_return)) {
      s->phase = SHIFT_IDLE;
      s->since = 0;
    }
    break;
  case SHIFT_ENGAGE: {
    double cap = s->cap0 + (d->clutch_capacity - s->cap0) * fmin(s->t / p->engage_time, 1);
    e = cap / d->clutch_capacity;
    if (s->t >= p->engage_time) {
      s->phase = SHIFT_IDLE;
      s->since = 0;
    }
    break;
  }
  case SHIFT_IDLE:
    s->since += dt;
    break;
  default:
    break;
  }
  v->in.clutch = mt_clamp(e, 0, 1);
  v->in.ignition_cut = cut;
}
