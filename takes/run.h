/* run.h — riding a take script and recording it (`mototake run`).
 *
 * The runner owns one ride: it loads the script, the rig (with overrides) and the track,
 * starts from a solved steady state at the script's start, lets the virtual rider and the
 * script's open-loop inputs drive, evaluates the events, and hands every step to the take
 * writer. It never changes the model; only the vehicle's data and the rider's state move. */
#ifndef RUN_H
#define RUN_H

#include "base/mt.h"
#include "takes/corners.h"
#include "takes/practice.h"

typedef struct run_opts {
  const char* script;          /* take script path */
  const char* out;             /* take file to write */
  const char* const* sets;     /* extra --set overrides */
  int nset;
  int quiet;                   /* no progress bar */
  int store_chan;              /* the take stores every channel too (--store-channels; format 4 rebuilds them) */
  /* the race profile's corner speeds (takes/practice.h): CORNERS_MAX values in m/s, in the order of
   * the track's corner boards, ridden as they are (no practice); NULL: the script's rider.practice
   * learns them, or there are none */
  const double* corner_speed;
  int practice_lap;            /* this ride is a practice lap: it ends at a fall or off the tarmac, and
                                  after it measures only what practice reads (the corners' folds) */
} run_opts;

/* make bench only (tests/bench/bench_speed.c): while steps > 0, run_take's loop calls fn(data)
 * after every `steps` steps, between two steps; fn must not touch the take's vehicle (the bench
 * times another vehicle there, so that both see the same load). Its time counts in cpu_loop.
 * Default {0}: never. */
typedef struct run_blocks {
  long steps;
  void (*fn)(void* data);
  void* data;
} run_blocks;
extern run_blocks run_bench_blocks;
/* 1 (default): the controller computes the frame's yaw's cos and sin once a step, and both the
 * LQR rider's measurement and the loop's ax, ay read them; 0: each computes its own, as before
 * (branch loopC; for tests/unit/test_lazy.c, which compares the two). */
extern int run_yaw_cs_shared;

typedef struct run_result {
  long steps;
  double sim_time;             /* s simulated */
  double wall;                 /* s of wall-clock time */
  double cpu_loop;             /* s of CPU time of the loop's thread in the loop (make bench) */
  double cpu_writer;           /* s of CPU time of the take writer's thread, to the take's close (its own
                                * clock: other threads of the process, such as the bench's second lap,
                                * do not count; make bench) */
  int laps;
  double lap_time;             /* s of the first complete lap, 0 if none */
  int complete;
  char end_reason[256];
  double min_speed, max_speed, max_lean;
  double max_offset;           /* m, largest |offset| from the centre line */
  int left_track;              /* the frame left the road's tarmac */
  int off_track;               /* times both wheels went beyond the tarmac and kerb (takes/incident.h) */
  double off_time, off_station, off_offset;   /* the first time: s, m, m */
  int off_surface;             /* the front's surface then (sim/track_surface.h) */
  /* the speed profile's promise and what the ride did (g = 9.81 m/s²; with a rider on "auto"
   * speed; achieved values are low-passed with a 0.1 s time constant) */
  int has_plan;
  double mu_y, mu_x;           /* the tyres' peak friction at nominal load (rider_tyre_peaks) */
  double plan_ay, plan_brake, plan_drive;   /* g, the profile's peaks (tyres' force / mass) */
  double plan_time;            /* s, the profile's time over one lap of the line */
  double peak_ay, peak_brake, peak_drive;   /* g, achieved: the tyres' horizontal forces / mass */
  /* the race profile (rider.profile = "race"): the machine's own minimum lap on the line
   * (sim/lapsim.h, the tyres' whole grip) and its limits; figures of the whole take */
  int has_min;
  double min_lap;              /* s */
  double lean_limit;           /* rad, the lean at the tyres' lateral peak (lapsim_lean) */
  int has_turns;               /* the same minimum cornering within the machine's own steady turn
                                  (sim/lapsim.h lapsim_machine_turns) was measured: */
  double min_lap_turns;        /* s, that lap */
  double plan_over;            /* the plan's most lateral acceleration over what that turn holds there
                                  (1: no more), at */
  double plan_over_speed;      /* m/s, and */
  int plan_over_corner;        /* that corner (corner[], −1: none) */
  double max_lean_seated;      /* rad, the largest lean with the rider's posture taken back: |roll − posture_roll_offset|,
                                  the lean a rider sitting still would have needed for the same balance (lean_limit is
                                  for one sitting still); max_lean when the rider keeps still */
  double max_lean_seated_speed;   /* m/s where max_lean_seated was reached */
  int lean_fold;               /* 0, or TRIM_FOLD_FRONT / _REAR (sim/trim.h): the tyre that saturates at
                                  lean_fold_roll, the most lean a steady turn of the machine with its
                                  rider sitting still has at max_lean_seated_speed (the race profile) */
  double lean_fold_roll;       /* rad */
  double brake_limit;          /* g, the lesser of the tyres' longitudinal grip and the stoppie limit */
  double peak_brake_speed;     /* m/s where peak_brake was reached */
  int has_lift;                /* lift_limit measured (the race profile, sim/brake_lift.h) */
  double lift_limit;           /* g, the stoppie limit as the machine dives: the tyres' braking at which
                                  its rear lifts in a slow front-brake ramp on the flat, at peak_brake_speed */
  double wheelie_limit;        /* g, g·b/h */
  double peak_drive_speed;     /* m/s where peak_drive was reached */
  int has_front_lift;          /* front_lift measured (the race profile, sim/drive_lift.h): */
  double front_lift;           /* g, the wheelie limit as the machine squats: the tyres' drive at which
                                  its front lifts in a slow throttle ramp on the flat, at */
  double front_lift_speed;     /* m/s (peak_drive_speed, or above it when no ramp lifts that slowly) */
  double max_throttle, full_throttle_time;   /* the grip's largest opening; s at ≥ 0.99 */
  double max_rpm, limiter_time;              /* rpm; s at or past the rev limiter's fuel cut */
  int top_gear;
  int ups_cut, ups_short;      /* upshifts asked at or past the rev limiter's fuel cut, and short of it */
  double ups_cut_rpm[2], ups_short_rpm[2];   /* the least and the most rpm they were asked at */
  double short_lean;           /* rad: the race profile shifts short leaned past this (sim/shift.h) */
  int ncorner;                 /* the race profile: the flying lap's lean by corner (takes/corners.h) */
  run_corner corner[CORNERS_MAX];
  double rear_share_min;       /* the rear's least share of the load braking harder than 0.5 g (1: never) */
  double front_share_min;      /* the front's least share driving harder than 0.3 g (1: never) */
  /* the race profile's corner speeds ridden (takes/practice.h; has_corner_speed 0: none), and the
   * practice that learnt them: laps ridden, of them lapped, and the lap time of the one whose
   * speeds the take rides (0: none lapped) */
  int has_corner_speed;
  double corner_speed[CORNERS_MAX];
  int practice_laps, practice_lapped;
  double practice_lap_time;
  practice_try practice_log[PRACTICE_MAX_LAPS];
  double fell_time;            /* s when the machine went past 75° of lean, −1 if it did not */
  double slide_distance;       /* m the frame travelled over the road after that */
  /* work counts of the loop (issue 18): steps whose channels were sampled from the vehicle (all
   * when recording; in a dry run only those whose event conditions read such a channel), road
   * queries, and how many of them repeated the previous question (answered from memory) */
  long samples, road_queries, road_reused;
} run_result;

int run_take(const run_opts* o, run_result* res, mt_err* e);

#endif
