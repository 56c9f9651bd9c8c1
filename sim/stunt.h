/* stunt.h — the rider's balance loops for wheelies and stoppies.
 *
 * Contract. A stunt owns the throttle and both brakes while it runs (the speed controller's
 * values are overwritten); steering, clutch and gear stay the rider's. It balances the frame's
 * pitch (ISO: positive nose down, docs/conventions.md) at a set-point:
 *   wheelie  set-point < 0: full throttle until the nose is half way up, then throttle =
 *            PID(pitch error) with pitch-rate damping; beyond set-point − 10° the rider shuts the
 *            throttle and covers the rear brake (as riders do to drop the front).
 *   stoppie  set-point > 0: the front lever is squeezed at a fixed rate until the nose is half
 *            way down, then lever = PID(pitch error) with pitch-rate damping, eased when the front
 *            tyre's slip passes the rider's feel for a skid (kappa_max). Below min_speed the
 *            rider lets the rear down.
 * Ending (stunt_stop, or the stoppie's speed floor) is a landing: the set-point returns toward
 * level at land_rate until the lifted wheel touches, then the stunt lets go (kind STUNT_NONE).
 * The state is plain numbers, reset by stunt_start: the same ride gives the same decisions.
 * One call per step, no allocation. */
#ifndef STUNT_H
#define STUNT_H

#include "sim/vehicle.h"

enum { STUNT_NONE, STUNT_WHEELIE, STUNT_STOPPIE };

typedef struct stunt_params {
  double w_kp, w_ki, w_kd;   /* wheelie: throttle per rad, per rad·s, per rad/s of pitch error/rate */
  double w_brake;            /* rear brake per rad of nose-up beyond set-point − 10° */
  double s_kp, s_ki, s_kd;   /* stoppie: front lever per rad, per rad·s, per rad/s */
  double s_squeeze;          /* lever per second while lifting the rear */
  double s_kappa_max;        /* front slip ratio the rider feels as a skid (magnitude) */
  double s_min_speed;        /* m/s: below it the stoppie ends */
  double land_rate;          /* rad/s: set-point's return toward level when landing */
} stunt_params;

typedef struct stunt_state {
  int kind;                  /* STUNT_* */
  int phase;                 /* 0 lifting, 1 balancing, 2 landing */
  double set;                /* rad, the set-point now (moves while landing) */
  double integ;              /* integral term (throttle or lever units) */
  double out;                /* last throttle (wheelie) or lever (stoppie) */
} stunt_state;

void stunt_default_params(stunt_params* p);
/* STUNT_* for "wheelie", "stoppie", "none"; −1 if unknown. And back. */
int stunt_kind(const char* name);
const char* stunt_name(int kind);
/* Default set-point of a stunt (rad, ISO): −20° wheelie, +8° stoppie. */
double stunt_default_pitch(int kind);
/* Start a stunt at set-point pitch (rad, ISO). MT_EINPUT if the sign does not suit the stunt
 * (a wheelie needs a nose-up, negative, set-point). STUNT_NONE resets the state. */
int stunt_start(stunt_state* s, int kind, double pitch, mt_err* e);
/* Ask the running stunt to land (no effect when none runs). */
void stunt_stop(stunt_state* s);
/* One decision from the vehicle's current kinematics: writes v->in.throttle, front_brake and
 * rear_brake while a stunt runs. Returns 1 if it owned the inputs this step. */
int stunt_control(const stunt_params* p, stunt_state* s, vehicle* v, double dt);

#endif
