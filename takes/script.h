/* script.h — take scripts: what a scripted ride does, read from a sandboxed Lua file.
 *
 * A take script returns a table:
 *   rig = "sport1000", track = "laguna_seca", overrides = { ["rear_shock.k"] = 60000 },
 *   start = { station = 0, offset = 0, speed = 30, gear = 3, lean = 0 },
 *   duration = 120,                        -- s, the most a take lasts
 *   rider = { line = "racing" | "centre" | <offset in m>, preview = 0.6,
 *             speed = 30 | "auto" | { by = "station"|"time", points = {{s, v}, ...} },
 *             grip = 0.9, auto_gear = true, steer = "gains" | "lqr",  -- inner loop (sim/rider.h, rider_lqr.h)
 *             preview_span = 0,            -- s: the previewed curvature averaged over ±span around it
 *             lateral = 0.5,               -- rad/s: the path loop's lateral crossover (rider_params.w_lateral)
 *             stunt = "wheelie" | "stoppie", pitch = -20,  -- a balance loop (sim/stunt.h) from the start
 *             posture = true }             -- false: the rider keeps a neutral posture
 *   -- or rider = false for open-loop only
 *   inputs = { { at = 2.0, steer_torque = 40, hold = 0.05 },     -- open-loop, added to the rider's
 *              { at = 3.0, throttle = 1, ramp = 0.5 }, { at = 5, gear = 2 },
 *              { at = 6, front_brake = 1, ramp = 0.2, hold = 2 } },
 *   events = { { when = function(c) return c.speed > 50 end, mark = "fast" },
 *              { when = function(c) return c.lap == 1 end, stop = "lap done" },
 *              { at = 10, set = { ["rider.speed"] = 20, ["input.front_brake"] = 0.3 } },
 *              { at = 1, set = { ["rider.stunt"] = "wheelie", ["rider.pitch"] = -20 } } },
 *   events_rate = 100,                     -- Hz: `when` conditions evaluated every 10 ms (default: every step)
 *   -- an event's own `every = 0.05` (s) overrides it for that condition; `at` events: every step
 * Conditions see a read-only table of the current channels (c.time, c.speed, c.station, c.lean,
 * ...). Each event fires once. The script's Lua state stays alive for the conditions; everything
 * a take needs for replay is recorded, so replays never run the script again. */
#ifndef SCRIPT_H
#define SCRIPT_H

#include <lua.h>
#include "sim/linear.h"
#include "base/mt.h"

#define SCRIPT_MAX_INPUTS 64
#define SCRIPT_MAX_EVENTS 64
#define SCRIPT_MAX_SETS 32
#define SCRIPT_MAX_POINTS 256

enum { SCRIPT_LINE_CENTRE, SCRIPT_LINE_RACING, SCRIPT_LINE_OFFSET };
enum { SCRIPT_SPEED_CONST, SCRIPT_SPEED_AUTO, SCRIPT_SPEED_STATION, SCRIPT_SPEED_TIME };
enum { IN_STEER, IN_THROTTLE, IN_FRONT_BRAKE, IN_REAR_BRAKE, IN_CLUTCH, IN_GEAR, IN_RIDER_LEAN, IN_NKIND };

typedef struct script_input {
  int kind;            /* IN_* */
  double at;           /* s */
  double value;        /* target value (N·m for torques, 0..1 for levers, gear number) */
  double ramp;         /* s to reach it linearly (0 = step) */
  double hold;         /* s to hold before returning to the rider's own value (0 = keep) */
} script_input;

typedef struct script_event {
  int when_ref;        /* Lua registry ref of the condition function, or LUA_NOREF */
  double at;           /* time condition when no function (s), or −1 */
  char mark[128];      /* action: mark with this label ("" = none) */
  char stop[128];      /* action: end the take with this reason ("" = none) */
  int nset;            /* action: set parameters/targets ("rider.speed" = 20, ...) */
  char set_key[SCRIPT_MAX_SETS][64];
  double set_val[SCRIPT_MAX_SETS];
  int linearise;       /* action: linearise here (sim/linear.h; takes/run_linear.c writes the M-file) */
  char lin_name[64];   /* the files' name (linearise = "name"), "" = numbered after the take */
  int lin_closed;      /* linearise = { loop = "closed" }: the machine with the rider's controller
                          (sim/linear.h lin_abcd_loop); 0: the open loop (the default) */
  lin_spec* lin;       /* action: choose states/inputs/outputs from here on (NULL: none) */
  int lin_line;        /* source line of that `linear` table */
  int line;            /* source line, for messages */
  double every;        /* s: this condition's own evaluation period (`every`), 0: the script's */
  int every_line;      /* source line of `every` */
  long every_steps;    /* the period in steps (script_events_resolve); 0 or 1: every step */
  /* The condition in C (script_next_event; issue 18): when its source is exactly
   * `function(P) return P.NAME OP NUMBER end` on one line, with NAME a channel, it is channel
   * fast_k compared with fast_val by fast_op (SCRIPT_OP_*); fast_op 0: evaluated in Lua. */
  int fast_op;
  int fast_k;
  double fast_val;
} script_event;

enum { SCRIPT_OP_NONE, SCRIPT_OP_LT, SCRIPT_OP_LE, SCRIPT_OP_GT, SCRIPT_OP_GE, SCRIPT_OP_EQ, SCRIPT_OP_NE };

typedef struct take_script {
  char* path;
  char* source;
  char rig[256], track[256];
  char** overrides;    /* "key=value" strings */
  int noverride;
  double duration;
  double start_station, start_offset, start_speed, start_lean;
  int start_gear;      /* −1: automatic */
  int has_rider;
  int line_kind;
  double line_offset, preview, grip, top_speed, margin;
  int speed_kind;
  double speed_const;
  int npoints;
  double pt_x[SCRIPT_MAX_POINTS], pt_v[SCRIPT_MAX_POINTS];
  int auto_gear;
  double preview_span;    /* s: curvature averaged over preview ± span (0: the point ahead) */
  double lateral;         /* rad/s: rider.lateral, the path loop's lateral crossover (rider_params.w_lateral) */
  int steer_lqr;          /* rider.steer = "lqr": the LQR inner loop (sim/rider_lqr.h); "gains" (default) */
  int race_line;          /* the source line of rider.profile (the runner's refusal of an open track) */
  int stunt;           /* STUNT_* the rider starts with (sim/stunt.h) */
  double stunt_pitch;  /* rad, ISO; NAN: the stunt's default */
  int race;            /* rider.profile = "race": the speed profile at the machine's limits (takes/run.c
                        * stage_plan: no caution caps, no top speed, shifts at the rev limit) */
  int practice;        /* rider.practice: dry laps before the take that learn the fast corners' speeds
                        * (the race profile; takes/practice.h); 0: none */
  int posture;         /* the rider moves (hang-off, tuck, sit-up: sim/posture.h); rider.posture = false: still */
  script_input input[SCRIPT_MAX_INPUTS];
  int ninput;
  script_event event[SCRIPT_MAX_EVENTS];
  int nevent;
  double events_rate;     /* Hz: `when` conditions are evaluated at this rate (events_rate), 0: every step */
  int events_rate_line;   /* its source line */
  /* The linear analysis (the memo's LINEAR_SV, LINEAR_CONTROL, LINEAR_OUTPUT): the script's
   *   linear = { states = {"q.steer", {"qd.steer", 0.002}}, inputs = {"road_front", "road_rear"},
   *              outputs = {"steer_angle"} }
   * (names and optional perturbations, sim/linear.h), which an event's own `linear` replaces. */
  lin_spec lin;
  int lin_line;
  lua_State* L;        /* alive while the take runs: event conditions */
  /* the channel view the conditions read (script_next_event): this step's values, names */
  const double* chan_values;
  const char* const* chan_names;
  int chan_n;
  /* channels sampled on demand (script_channel_source), NULL: all of `values` is always current */
  const unsigned char* chan_lazy;
  void (*chan_fill)(void* data);
  void* chan_fill_data;
  /* 1: every `when` condition is compiled to C (script_event.fast_op), so no script code runs
   * while the take runs and nothing can change the channel view (rawset, setmetatable): the C
   * comparisons then are what the Lua functions would return. Decided at the first
   * script_next_event (when the channel names are known); 0 with any condition left in Lua. */
  int when_fast;
  int when_compiled;   /* that decision is made */
} take_script;

/* 0: never compile `when` conditions to C (tests compare both ways); default 1. */
extern int script_when_fast_enabled;
/* The source line of a `when` condition (len bytes, no newline) read as
 * `function(P) return P.NAME OP NUMBER end` (script_next_event's C conditions): 1 and NAME, the
 * SCRIPT_OP_* and the literal's value as Lua reads it, or 0 when the line is anything else. */
int script_when_match(lua_State* L, const char* line, size_t len, char name[64], int* op, double* val);

/* Load and check a take script (extra_sets: --set overrides from the command line, appended). */
take_script* script_load(const char* path, mt_err* e);
/* The same from source text (replays and tests). */
take_script* script_load_text(const char* name, const char* text, mt_err* e);
void script_free(take_script* s);

/* The input kind named (steer_torque, throttle, ...), −1 if none. */
int script_input_kind(const char* name);
/* Target speed of the rider at station s / time t. */
double script_target_speed(const take_script* s, double station, double t);
/* The open-loop overlay: for each input kind, whether an input is active at time t and its value. */
void script_inputs_at(const take_script* s, double t, const double rider_value[IN_NKIND], double out[IN_NKIND]);

/* The conditions' evaluation periods in whole steps of dt (s), from events_rate and each event's
 * `every`: the period rounded to the nearest whole number of steps (1 ms steps: 300 Hz is every
 * 3 steps). A period shorter than one step is an error naming the script's line and field. Until
 * this is called every condition is evaluated every step. */
int script_events_resolve(take_script* s, double dt, mt_err* e);

/* Evaluate event conditions on the channels names[k] = values[k] (names: the same array, in the
 * same order, every call of a take). step counts the take's steps from 0 (time step·dt): a `when`
 * condition with a period of n steps (script_events_resolve) is evaluated only when step is a
 * multiple of n, so it fires up to n − 1 steps after it became true, and a condition true for
 * fewer than n steps can be missed; `at` events are checked every step. A condition's argument is
 * a read-only view: c.name looks the value up in `values` when read (nothing is copied per step),
 * pairs(c) lists every channel, assigning to it is an error. Returns the index of the first event that fires now (and marks it
 * fired), or −1; −2 on a script error (in e). */
int script_next_event(take_script* s, long step, const char* const* names, const double* values, int n, double t,
                      unsigned char* fired, mt_err* e);

/* Channels made current on demand (issue 18: a dry run samples the vehicle only when a condition
 * reads a channel that needs it). From now on, before a condition reads channel k (c.name or
 * pairs(c)) with lazy[k] set, fill(data) is called; it must make values[k] of this step current
 * and may be called several times a step (it then does nothing). lazy has the channel count's
 * entries and stays valid while the script runs. fill NULL: every value is current (the default). */
void script_channel_source(take_script* s, const unsigned char* lazy, void (*fill)(void* data), void* data);

#endif
