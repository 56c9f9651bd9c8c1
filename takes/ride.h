/* ride.h — a take ridden by hand (module prefix ride_): the hand controller and the ride session.
 *
 * Contract. The hands are driven only by ride events (a pointer press, move, gear button, a game
 * controller's axis, a restart), each applied at a simulation step. ride_control turns the
 * hands' state into the vehicle's inputs inside the physics step (the vehicle's control
 * callback, from that step's kinematics): Slipstream's rubber band (manual §2) — the band from
 * the anchor (where the middle button was pressed) to the pointer; up is throttle, down is brake,
 * each through a response curve (ride_band_map); its horizontal length × controls_sensitivity(V, θ)
 * is bar torque. One convention, as riders say it: pointer right pushes the right grip (positive
 * steer torque, docs/conventions.md: the front wheel turns left for a moment) and the machine
 * leans right (positive roll); with assist a > 0 the torque is (1 − a)·hand + a·the virtual
 * rider's roll loop holding the lean the band asks for, right for pointer right
 * (controls.assist_lean rad per px; sim/rider.h with its trim table, sim/rider_trim.h, solved
 * when the ride starts), so any assist leans the same way.
 * Gears through sim/shift.h (quickshifter and blipper). Everything is plain data: the same
 * events at the same steps from the same state give the same inputs, bit for bit, with or
 * without a window; nothing allocates per step and no Lua runs.
 *
 * A ride take holds a source of kind "ride" (JSON: format, assist, start, the inputs before the
 * first step) and every event as a take event of kind "input" (JSON {"t": TYPE, "a": A, "b": B} at its
 * step). ride_replay_* re-rides such a take without a window for `mototake take verify` (a cut of
 * one, missing the events before it, is verified by its recorded inputs as every take). */
#ifndef RIDE_H
#define RIDE_H

#include "sim/rider.h"
#include "sim/rider_trim.h"
#include "sim/shift.h"
#include "sim/track.h"
#include "sim/vehicle.h"
#include "takes/incident.h"
#include "takes/recorder.h"
#include "takes/takefile.h"

enum {
  RIDE_EV_GRAB = 1,   /* middle button at pixel (a, b): hands on with the anchor there, or off if on */
  RIDE_EV_MOVE,       /* the pointer at pixel (a, b) */
  RIDE_EV_SHIFT,      /* a = −1 down, +1 up */
  RIDE_EV_AXIS,       /* game controller: a = RIDE_AXIS_*, b = value (steer −1..1, levers 0..1) */
  RIDE_EV_RESTART,    /* back to the start's steady state (the last trim) */
  RIDE_EV_RECOVER,    /* the start's steady state moved to station a on the centre line (back on the track) */
  RIDE_EV_N
};
enum { RIDE_AXIS_STEER, RIDE_AXIS_THROTTLE, RIDE_AXIS_BRAKE, RIDE_NAXIS };
/* The band's mapping, recorded as the ride source's "format" so a take re-rides with the mapping
 * it was ridden with: 1 (takes before issue 34): pointer right gave negative torque (a push on
 * the LEFT grip) and the levers were linear in the band; 2: the convention above and the curves. */
enum { RIDE_FORMAT_LINEAR = 1, RIDE_FORMAT = 2 };
extern const char* const ride_event_names[RIDE_EV_N];

typedef struct ride_event {
  long step;
  int type;
  double a, b;
} ride_event;

/* The hands and everything else the controller carries from step to step. */
typedef struct ride_hands {
  int on;                     /* hands on the controls (the band is live) */
  double ax, ay, px, py;      /* anchor and pointer, px (y down, as on the screen) */
  double axis[RIDE_NAXIS];    /* game controller */
  int shift_req;              /* −1, 0, +1: a gear button waiting for the next step */
  rider_state rs;             /* the assist's roll loop */
  shift_state ss;
  /* the last step's mapping, for the window's read-out */
  double torque, throttle, brake, sens;
} ride_hands;

typedef struct ride_ctl {
  const rig* rg;
  int format;                 /* the band's mapping: RIDE_FORMAT, or a replayed take's */
  double assist;              /* 0..1 */
  rider_params rp;
  rider_trims trims;          /* the assist's feed-forward table (assist > 0) */
  ride_hands h;
  const double* x0;           /* the start's state (restart) */
  const track* tk;            /* the track, and the start's station on its centre line (recover) */
  double s0;
  double* xr;                 /* scratch: x0 moved (recover), veh_state_size values */
  double in0[32];             /* the inputs before the first step (rec_input_values order) */
  int nin0;
} ride_ctl;

/* The hands' part of the mapping, from the band (dx right, dy up, px; 0 with hands off), the
 * controller's axes and the sensitivity sens (N·m/px) to bar torque (N·m, before the assist and
 * clamped to ±max_torque), throttle and front lever (0..1). Format 2: torque = +sens·dx +
 * pad_torque·stick; throttle = (dy / throttle_px)^throttle_curve and front lever =
 * (−dy / brake_px)^brake_curve, each 1 from its full length on, or the controller's trigger if
 * that is more (triggers are linear). Format 1: torque = −sens·dx − pad_torque·stick, levers
 * linear. Pure: the unit tests check it at given pixels. */
typedef struct ride_band {
  double torque, throttle, brake;
} ride_band;
ride_band ride_band_map(const rig_controls* k, int format, double sens, double dx, double dy, const double axis[RIDE_NAXIS]);

/* MT_OK, or the trim table's failure (assist > 0). The mapping: RIDE_FORMAT. */
int ride_ctl_init(ride_ctl* c, const rig* rg, double assist, mt_err* e);
/* Hands off, controller state zeroed (the start and every restart). */
void ride_ctl_reset(ride_ctl* c);
/* Apply an event (before its step). A restart sets v's state to x0 and its inputs to in0; a
 * recover does the same with x0 turned and moved from the start's station s0 to station a on the
 * centre line (veh_state_moved: the same upright motion at the start's speed, heading along the
 * track there; the height follows the centre line). */
void ride_apply(ride_ctl* c, vehicle* v, const ride_event* ev);
/* Station st on track tk: wrapped into [0, length) on a closed track, clamped to it on an open one. */
double ride_station(const track* tk, double st);
/* The vehicle's control callback (data = ride_ctl*). */
void ride_control(vehicle* v, void* data);
/* The event as the take stores it / read back (MT_EINPUT naming the field). */
void ride_event_json(const ride_event* ev, char* out, size_t n);
int ride_event_parse(const char* json, long step, ride_event* ev, mt_err* e);

/*---- a ride session: rig, track, start, recording ----*/
typedef struct ride_opts {
  const char* rig, *track;    /* names or paths */
  double station, speed;      /* start: m along the track, m/s */
  int gear;                   /* −1: the trim's choice */
  const char* const* sets;
  int nset;
  double assist;
} ride_opts;

typedef struct ride_session {
  rig* rg;
  track* tk;
  vehicle* v;
  take_writer* w;
  ride_ctl ctl;
  double* x0;
  double* buf;                /* state, poses, channels, inputs of one step */
  double *xs, *poses, *ch, *inp;
  rec_context ctx;
  long step;                  /* steps recorded */
  long start_step;            /* the step of the last (re)start */
  int road_hint;
  double prev_s, L, start_station;
  int fell;                   /* past 75° of lean: stepping stops until a restart or the end */
  incident inc;               /* off track, the last point on track (takes/incident.h) */
  int nfell, nrecover;        /* falls and restarts on the track so far, for the end's summary */
  double first_fell_t;        /* s */
  char end[128];
  ride_opts opts;
} ride_session;

/* Load the rig (with the sets) and the track, solve the start's steady state (upright at the
 * speed, at the station on the centre line); nothing is written yet. */
int ride_open(ride_session* s, const ride_opts* o, mt_err* e);
/* Start recording into the take `out` (the output rule of base/outfile.h). */
int ride_record(ride_session* s, const char* out, mt_err* e);
/* A complete two-step take of the machine standing still in its start state, at path: what the
 * take-based views (render/) open to draw the live ride. */
int ride_write_still(ride_session* s, const char* path, mt_err* e);
/* Record and apply an event at the current step. */
int ride_event_at(ride_session* s, int type, double a, double b, mt_err* e);
/* One physics step, recorded. */
int ride_step(ride_session* s, mt_err* e);
/* Close the take: complete (with the reason) unless rc says the ride failed. */
int ride_close(ride_session* s, const char* reason, mt_err* e);

/*---- verify: re-ride a take from its events ----*/
typedef struct ride_replay {
  ride_ctl ctl;
  ride_event* ev;
  int nev, next;
  double *x0, *xr;
} ride_replay;
/* 1 when the take is a ride take; then rr is set up for vehicle v on track tk (x0: the take's
 * state row 0). */
int ride_replay_open(ride_replay* rr, take_reader* r, const rig* rg, const track* tk, const double* x0, vehicle* v,
                     mt_err* e);
/* Apply the events of step i (before veh_step). */
void ride_replay_before(ride_replay* rr, vehicle* v, long i);
void ride_replay_close(ride_replay* rr);

#endif
