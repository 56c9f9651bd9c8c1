/* lift_ramp.h — one wheel's load ridden down to nothing by an input raised slowly: the ramp that
 * sim/brake_lift.h (the front lever; the rear lifts) and sim/drive_lift.h (the throttle; the front
 * lifts) share.
 *
 * Contract: v is a scratch vehicle in a steady state with its inputs as the caller wants them;
 * lift_ramp_ride evaluates it (veh_forward), takes its pitch, then raises *input (one of v->in's
 * fields) from `from` at `rate` a second, capped at 1, one step at a time. Each step's forces
 * (v->out, evaluated at the instant the step starts from) are read against the speed and pitch
 * of that same instant. It ends at the first step whose `wheel` (RIG_FRONT or RIG_REAR) carries
 * no load (out->lifted 1), or with lifted 0 after the step at 1, when the speed falls below
 * min_speed (0: never) or when the engine reaches stop_rpm (0: never). Returns MT_OK or
 * veh_step's error. Deterministic. */
#ifndef LIFT_RAMP_H
#define LIFT_RAMP_H

#include "base/mt.h"

struct vehicle;   /* sim/vehicle.h */

typedef struct lift_ramp_out {
  int lifted;       /* 1: the wheel's load reached zero */
  double fx;        /* N: both tyres' longitudinal force at that step (front + rear) */
  double drag;      /* N: the air's drag there */
  double speed;     /* m/s there */
  double pitch;     /* rad: the frame's ISO pitch (nose down positive) there less the start's */
  double input;     /* the input there */
  double com[3];    /* m: the whole machine's CoM, of that evaluation */
  double other[3];  /* m: the contact point of the wheel that kept its load */
} lift_ramp_out;

int lift_ramp_ride(struct vehicle* v, int wheel, double* input, double from, double rate, double min_speed,
                   double stop_rpm, lift_ramp_out* out, mt_err* e);

#endif
