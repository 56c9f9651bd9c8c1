/* stunt_replay.h — the rider's stunt loop of a run take, re-derived for `take verify`.
 *
 * Contract. A take recorded by `run` stores, in its context stream, the stunt the rider's
 * balance loop (sim/stunt.h) was running after each step: set at the start by the script's
 * `rider.stunt`, changed by the script's `rider.stunt` and `rider.pitch` events, and ended
 * inside the loop itself when the lifted wheel touches down. Verify replays the recorded inputs,
 * so none of that runs unless this module runs it: stunt_replay_open reads the stunt the script
 * starts with (the take's own "script" source) and the events that set the stunt or its pitch
 * (take events of kind "set", at their steps), and puts the loop in the vehicle's control
 * callback, where takes/run.c runs it, on the same kinematics. The loop's decision (throttle and
 * brakes) is overwritten at once by the step's recorded inputs, which are what the step uses: the
 * loop is only followed, never obeyed. After each step, stunt_replay_kind is the re-derived stunt
 * (STUNT_*) to compare with the recorded one; stunt_replay_after then applies that step's events,
 * as the runner does after sampling.
 *
 * What cannot be re-derived is said, not guessed: a take cut from another (meta cut_from) starts
 * with no stunt only when its first row records none; one cut during a stunt has lost the loop's
 * state (its integrator and phase) and is reported unknown (known = 0). A take without a script
 * (a ride) has no stunt: on = 0. No allocation per step. */
#ifndef STUNT_REPLAY_H
#define STUNT_REPLAY_H

#include "sim/stunt.h"
#include "sim/vehicle.h"
#include "takes/takefile.h"

typedef struct stunt_event { long step; int pitch; double value; } stunt_event;   /* pitch: rider.pitch (rad), else rider.stunt (STUNT_*) */

typedef struct stunt_replay {
  int on;                  /* the take has a script: the stunt channel is re-derived */
  int known;               /* 0: a cut that starts during a stunt (see above) */
  int has_rider;           /* the loop runs only with the virtual rider (takes/run.c) */
  stunt_params sp;
  stunt_state st;
  double pitch;            /* rad, the set-point asked for; NAN: the stunt's default */
  stunt_event* ev;
  int nev, next;
  const double* in;        /* the step's recorded inputs, re-applied after the loop decides */
  int ninput;
  double dt;
} stunt_replay;

/* Read the take's script and events. MT_OK (on = 0 when the take has no script), or MT_EINPUT when
 * the script or an event does not read back, naming the take. first_stunt: row 0's recorded stunt. */
int stunt_replay_open(stunt_replay* s, take_reader* r, const char* path, double first_stunt, double dt, mt_err* e);
/* Install the loop as v's control callback; in: the buffer the step's recorded inputs are read into. */
void stunt_replay_attach(stunt_replay* s, vehicle* v, const double* in, int ninput);
/* The stunt after the step just taken (STUNT_*). */
int stunt_replay_kind(const stunt_replay* s);
/* Apply the events recorded at step i (after sampling it). MT_EINPUT if one is refused. */
int stunt_replay_after(stunt_replay* s, long i, mt_err* e);
void stunt_replay_free(stunt_replay* s);

#endif
