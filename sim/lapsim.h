/* lapsim.h — the machine's own minimum lap time on a given line: a quasi-steady-state (QSS) lap
 * simulation from the rig's parameters alone (issue 31 item 4).
 *
 * Why in sim/: it is physics of the machine (its mass, geometry, tyres, engine, gearbox and air),
 * with no rider, script or take in it; the line it runs on comes in as plain arrays, so the
 * layers above (takes/ builds the racing line, app/ prints) call down into it.
 *
 * The model (each sample i of the line, ds apart, closed lines wrap):
 *   - cornering: v²|κ| ≤ μy·n·g, n = 1 + v²·kv/g − lift/(m·g) the load factor (vertical
 *     curvature kv < 0 over a crest, the air's lift), and n ≥ LAPSIM_CREST_LOAD over crests; the
 *     lean is the roll that balances it on the rear tyre's crown (rider_balance_roll's geometry);
 *     with the machine's own cornering limit (lapsim_machine_turns) μy is at each speed the
 *     lesser of the tyres' peak and the friction the machine's steady turn reaches there;
 *   - each wheel has its own friction ellipse (μx along, μy across) on its own load, the
 *     load moving between the wheels with the tyres' longitudinal force (CoM height h over the
 *     wheelbase p); the lateral force is shared as a steady turn shares it (front b/p, rear
 *     (p − b)/p); the drive is all on the rear, the braking all on the front;
 *   - forward pass (drive): tractive force / m ≤ the least of the rear's ellipse, the front's
 *     lateral share on the load the drive leaves it ((b/h)·(n·g − a_y/μy): the wheelie limit
 *     g·b/h upright), and the engine at full throttle in the best gear that keeps the crank at
 *     or below the rev limit; the air's drag and the grade eat it; the rotating parts (wheels,
 *     and the crank through the gear) add to the mass;
 *   - backward pass (braking): braking force / m ≤ the lesser of the front's ellipse and the
 *     rear's lateral share on the load the braking leaves it (((p − b)/h)·(n·g − a_y/μy): the
 *     stoppie limit g·(p − b)/h upright); drag and an uphill help. (A point-mass friction
 *     ellipse lets a motorcycle brake at 0.85 g at 1 g of lateral acceleration; in the race
 *     profile's rides on that model the nearly unloaded rear slid out braking into turn 2.)
 *   - v² steps by 2·a·ds (explicit in v²), twice round a closed line so the limits carry across
 *     the start; the time is Σ ds / mean(v) over each interval.
 * Left out (each makes the real machine slower or faster by little on a circuit): the road's
 * superelevation (the line carries none), the rider's hanging off (the lean is the machine's
 * with the rider sitting still), drag's height above the CoM, gear-change time, tyre load
 * sensitivity of μ. Deterministic; lapsim_run allocates nothing. */
#ifndef LAPSIM_H
#define LAPSIM_H

#include "base/mt.h"
#include "sim/rig.h"

/* The least share of the weight kept on the tyres over a crest: the rule of the rider's cautious
 * profile (takes/path.c keeps 1 − PATH_CREST_LOAD), so that the minimum is of a lap ridden on the
 * ground (a machine that goes light over a crest cannot steer). A rule of riding, not of the
 * machine, and the only one here; on Laguna's racing line it costs 0.036 s (1:33.117 without). */
#define LAPSIM_CREST_LOAD 0.5
enum { LAPSIM_NV = 481 };                 /* drive table: 0 .. LAPSIM_VMAX in equal steps */
/* The machine's own cornering limit (lapsim_machine_turns): speeds LAPSIM_TURN_V0, + LAPSIM_TURN_DV, ... */
enum { LAPSIM_NT = 13 };
#define LAPSIM_TURN_V0 10.0
#define LAPSIM_TURN_DV 5.0
#define LAPSIM_VMAX 120.0                 /* m/s, top of the table (held beyond) */

typedef struct lapsim_machine {
  double mass;                            /* kg, machine and rider (rig_total_mass) */
  double b, p, h;                         /* m: CoM ahead of the rear contact, wheelbase, CoM height */
  double mu_y, mu_x;                      /* the tyres' peak friction, lateral (any camber) and longitudinal */
  double crown;                           /* m, the rear tyre's crown radius */
  double drag;                            /* 1/m: drag force / (mass·v²) (the tucked rider's Cd·A) */
  double lift;                            /* 1/m: lift force / (mass·v²) */
  double m_wheels;                        /* kg: the wheels' spin inertia as mass at the road */
  double a_wheelie, a_stoppie;            /* m/s²: g·b/h, g·(p − b)/h */
  double f_drive[LAPSIM_NV];              /* N at the rear contact, full throttle, best gear ≤ rev limit */
  double m_crank[LAPSIM_NV];              /* kg: the crank's inertia at the road in that gear */
  double rpm[LAPSIM_NV];                  /* engine rpm in that gear */
  int gear[LAPSIM_NV];                    /* that gear (0: beyond the top gear's rev limit) */
  double v_rev;                           /* m/s: the top gear at the rev limit */
  /* Optional (lapsim_machine_turns; nturn 0: none, cornering at μy as above): the steady turn's
   * most lateral acceleration at each speed of the grid, as the lateral friction it amounts to on
   * the flat, mu_turn[k] = a_y,fold / (g·(1 − v²·lift/g)). */
  int nturn;
  double turn_ay[LAPSIM_NT];              /* m/s², the fold's speed × yaw rate (0: no fold found there) */
  double mu_turn[LAPSIM_NT];              /* its lateral friction, the gaps filled from the neighbours */
  double turn_roll[LAPSIM_NT];            /* rad, the fold's lean, the rider sitting still (0: no fold there) */
  int turn_tyre[LAPSIM_NT];               /* the tyre that saturates there: TRIM_FOLD_FRONT or _REAR (sim/trim.h) */
} lapsim_machine;

/* Fill m from rig r (reference pose: mass, CoM, wheelbase from the wheel centres; tyres' peaks as
 * sim/rider_trim.h rider_tyre_peaks; engine_eval at full throttle up to engine.rev_limit through
 * every gear). Nothing hand-typed. */
void lapsim_machine_from_rig(const rig* r, lapsim_machine* m);
/* The machine's own cornering limit into m: at each speed of the grid the most lateral
 * acceleration a steady turn of rig r holds, the rider sitting still, on a flat road (sim/trim.h
 * trim_turn_limit: the continuation in lean ends where a tyre saturates; the air's lift and drag,
 * the tyres' camber and the drive the rear carries are in it, which the point mass's μy·n·g
 * leaves out). With it, lapsim_run corners within the lesser of μy and that friction, and the
 * tyre that saturates in that turn has it as its friction ellipse's lateral axis (the other
 * keeps μy). A trim per speed, about 0.3 s in all. Returns MT_OK,
 * or the scratch vehicle's error (m->nturn 0: no fold was found at any speed). */
int lapsim_machine_turns(const rig* r, lapsim_machine* m, mt_err* e);

/* The most lateral acceleration (m/s²) lapsim_run corners with at speed v (m/s) on the road's
 * vertical curvature kv (1/m): grip × the lateral friction there (μy, or with the machine's own
 * cornering limit the lesser of μy and its steady turn's) × g × the load factor (≥ 0). */
double lapsim_lateral_hold(const lapsim_machine* m, double v, double kv, double grip);

/* The line: n samples ds apart along the road's centre line, curvature κ (1/m of the line,
 * either sign), vertical curvature kv (1/m, the road's d²z/ds²) and grade dz/ds (NULL: level);
 * dl[i] the line's own length from sample i to the next (NULL: ds, the line is the centre
 * line). A line off the centre (a racing line runs wide in slow corners) is longer or shorter
 * than ds per sample: the speed changes over dl, and the lap's time is summed along dl. */
typedef struct lapsim_line {
  int n, closed;
  double ds;
  const double *k, *kv, *gr;
  const double* dl;
} lapsim_line;

typedef struct lapsim_result {
  double time;                            /* s, one lap of the line (closed) or its length (open) */
  double v_min, v_max;                    /* m/s */
  double ay_peak;                         /* m/s², largest v²|κ| */
  double drive_peak, brake_peak;          /* m/s², largest tractive / braking force over the mass */
  double lean_max, lean_limit;            /* rad: largest lean on the lap, the lean at μy·g on the flat */
  double brake_limit;                     /* m/s²: min(μx·g, stoppie) upright, no lift */
  double rpm_max;                         /* engine rpm at the lap's top speed */
  int gear_top;                           /* the gear at the lap's top speed */
} lapsim_result;

/* The minimum-time speed profile with the tyres' friction at `grip` × their peak (1 = the tyres'
 * limit; the wheelie and stoppie limits are geometry and stay whole) into v[n] (the
 * caller's) and res. Returns MT_OK, or MT_EINPUT when v is NULL, n < 2, ds ≤ 0 or grip ≤ 0. */
int lapsim_run(const lapsim_machine* m, const lapsim_line* ln, double grip, double* v, lapsim_result* res);

/* The tyres' most drive and braking force / mass (m/s², ≥ 0) at lateral acceleration ay (m/s²)
 * on load factor n, with the tyres' friction at grip × their peak (the model above, without
 * the engine): what lapsim_run's passes use, for a rider riding its profile. */
void lapsim_long_limits(const lapsim_machine* m, double ay, double n, double grip, double* drive, double* brake);
/* The same at speed v (m/s) as lapsim_run's passes take them: with the machine's own cornering
 * limit (m->nturn > 0) the tyre that saturates in its steady turn has the turn's friction across
 * (the other μy); without it, lapsim_long_limits. */
void lapsim_long_limits_at(const lapsim_machine* m, double v, double ay, double n, double grip, double* drive,
                           double* brake);

/* The roll (rad, ≥ 0) that balances lateral acceleration ay (m/s²) on a tyre of crown radius
 * crown with the CoM at height h: tan φe = ay/g, sin(φ − φe)·(h − ρ) = ρ·sin φe. */
double lapsim_lean(double ay, double h, double crown);

#endif
