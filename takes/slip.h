/* slip.h — tyre slip angles from a take: the truth the take recorded, and the estimate a
 * sim-racing telemetry tool makes from motion channels alone (module prefix slip_).
 *
 * Contract: the data flow is one way, take → analysis. slip_load reads a finished take (its
 * channels and states, at most 100 samples per second) and rebuilds its machine from the
 * embedded sources only to measure what telemetry would give: the velocity of the whole
 * machine's centre of mass (rider included) in the heading axes (x forward, y left), and the
 * rig's true CG distances a (to the front contact) and b (to the rear one) at the take's start.
 * Nothing is written to the take. Angles in degrees, lengths in metres, SI otherwise.
 *
 * The estimate (docs/slip.md), our axes, r positive anticlockwise seen from above:
 *   α_f = Δ − (v_y + a·r)/v_x,   α_r = (b·r − v_y)/v_x,
 * Δ the steer angle in the ground plane (the front wheel's rolling direction on the road relative
 * to the rear's, from steer δ, caster ε, lean φ and pitch θ; ≈ δ·cos ε / cos φ), v_x, v_y in the
 * rear wheel's axes seen from above, and v_y that of the ground line under the CG (the CG's
 * less its roll about that line, −p·h·cos φ).
 * a and b come from low-lateral-acceleration samples, where slip angles are nearly zero:
 * b = v_y/r, a = (Δ·v_x − v_y)/r, median after rejecting outliers (3 scaled MADs). */
#ifndef SLIP_H
#define SLIP_H

#include "base/mt.h"
#include "sim/tyre.h"

/* Which samples may estimate a and b. */
typedef struct slip_opts {
  double steer_lo, steer_hi;   /* deg, |Δ| within (0.25, 2) */
  double ay_max;               /* m/s², |a_y| below (1.5) */
  double r_min;                /* rad/s, |r| above (0.02) */
  double vx_min;               /* m/s (5) */
  int min_samples;             /* fewer usable samples: refused (200: 2 s at 100 Hz) */
  double smooth;               /* s, centred moving average of the motion channels (0.2) */
} slip_opts;

void slip_opts_default(slip_opts* o);

typedef struct slip_seg {
  int seg;                      /* track segment index */
  double s0, s1;                /* its stations */
  double curvature;             /* 1/m at its middle, positive left */
  double time;                  /* s spent in it */
  double max_f, max_r;          /* max |α| true, deg */
  double mean_diff;             /* mean α_f − α_r, deg (positive: the front slips more) */
  double max_ay;                /* max |a_y|, m/s² */
  double beyond_f, beyond_r;    /* s beyond the tyre's optimum */
} slip_seg;

typedef struct slip_data {
  long n;                       /* samples */
  double dt;                    /* s between samples */
  int stride;                   /* take steps per sample */
  /* per sample */
  double *t, *station, *speed, *ay;
  double *vx, *vy, *r;          /* CG velocity, the rear wheel's ground axes (m/s); yaw rate (rad/s) */
  double *p, *lean;             /* roll rate (rad/s, positive rolling right), lean (rad, ISO roll) */
  double *steer, *delta_g;      /* steer angle about the steering axis, and in the ground plane (deg) */
  double *alpha_f, *alpha_r;    /* true (the tyre model's relaxed slip angle), deg */
  double *peak_f, *peak_r;      /* the tyre model's optimum α at that load, camber and slip ratio on the side
                                   the tyre pushes to (slip_side), as a magnitude, deg */
  double *est_f, *est_r;        /* estimate with the estimated a, b (NaN before slip_estimate) */
  int *seg;                     /* track segment */
  unsigned char* contact;       /* both tyres on the road */
  unsigned char* used;          /* sample used for a and b */
  signed char* fy_side;         /* the sides the tyres push to: use slip_side */
  /* the rig, at the take's start */
  double rig_a, rig_b;          /* m, CG to the front and rear contact along the heading */
  double rig_h;                 /* m, CG height above the road along the machine's plane */
  double mass;                  /* kg, machine and rider */
  int roll_correction;          /* use the ground line's lateral velocity (v_y + p·h·cos φ): 1 by default */
  int plain;                    /* slip_load's plain */
  double caster;                /* rad, of the steering axis in the design pose */
  /* the estimate */
  int has_est;
  double a, b;                  /* m: intercepts at zero lateral acceleration */
  double a_median, b_median;    /* m: the note's estimate (slip taken as zero), for comparison */
  int ncand, nused;             /* candidate samples, kept after outlier rejection */
  /* summaries over the take */
  double beyond_f, beyond_r;    /* s with |α| beyond the optimum */
  slip_seg* segs;
  int nsegs;                    /* segments visited */
  char track[64];
} slip_data;

/* Read the take at path. MT_EINPUT with one line naming the file and what is wrong. plain: as a
 * car's telemetry tool would (the frame's yaw axes, the CG's own lateral velocity, the steer
 * projected on a level road without pitch, and a, b as the medians with the slip taken as zero).
 * quiet: no progress bar on stderr (else one over the steps read, base/progress.h). */
int slip_load(const char* path, int plain, int quiet, slip_data* d, mt_err* e);
/* Estimate a and b and fill est_f/est_r. MT_EINPUT (and has_est 0) when fewer than
 * o->min_samples usable samples exist; the message says what was looked for. */
int slip_estimate(slip_data* d, const slip_opts* o, mt_err* e);
/* The estimate with given a and b (m): fills est_f/est_r, sets a, b and has_est. */
void slip_apply(slip_data* d, double a, double b, const slip_opts* o);
void slip_free(slip_data* d);
/* +1 when the front (rear = 0) or rear tyre of sample i pushes left (Fy ≥ 0), else −1. A tyre is
 * beyond its optimum when side·α > peak. */
int slip_side(const slip_data* d, long i, int rear);

/* The wheels on the road: the heading psi_r (rad, from +x, positive left) of the direction the
 * rear wheel rolls on a road of unit normal n (world), seen from above, and the front wheel's
 * relative to it, delta_g: the steer angle in the ground plane. The frame's yaw, pitch (positive
 * nose down) and roll (ISO: positive right), steer delta about a steering axis tilted back by
 * caster; all rad. Exact for rigid wheels (frame twist and fork bending left out). */
void slip_wheel_headings(double yaw, double pitch, double roll, double delta, double caster, const double n[3], double* psi_r,
                         double* delta_g);
/* The same Δ on a level road: ≈ δ·cos ε / cos φ for small δ. */
double slip_ground_steer(double delta, double roll, double pitch, double caster);
/* The grip optimum (rad, ≥ 0) in the direction `sign` (+1: positive α, Fy to the left) at load
 * fz, slip ratio kappa, camber gamma: the slip angle at which sign·Fy has risen to 95 % of the
 * way from its value at α = 0 to its largest over 0–30° (the Magic Formula fits of motorcycle
 * tyres are flat-topped; more slip past this buys at most 5 % more force). */
double slip_peak_alpha(const tyre_params* p, double fz, double kappa, double gamma, int sign);

/* Error statistics of the estimate against the truth over samples in the linear region
 * (|a_y| ≤ ay_max, both tyres touching, |true α| ≤ alpha_max deg): RMS and max |error| (deg). */
void slip_est_error(const slip_data* d, double ay_max, double alpha_max, double* rms_f, double* max_f, double* rms_r,
                    double* max_r, long* n);

#endif
