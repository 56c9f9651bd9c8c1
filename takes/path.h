/* path.h — the line a virtual rider follows, and the speed it rides it at.
 *
 * A path is the track's centre line, a constant offset from it, or a racing line, sampled
 * every ds metres of station as (x, y, heading, curvature, speed). The racing line is the
 * minimum-curvature line within the track's edges (less a margin): minimise the sum of squared
 * discrete curvature over the lateral offsets by projected gradient descent — the classic
 * "elastic band". The speed profile keeps lateral acceleration within grip·g on the path's
 * curvature and is then limited by acceleration and braking (forward and backward passes). */
#ifndef PATH_H
#define PATH_H

/* What the path needs to know about the road (the runner binds it to a track). */
typedef struct path_road {
  const void* self;
  double length;
  int closed;
  /* centre-line point at station s: x, y, heading (rad); half widths at s */
  void (*centre)(const void* self, double s, double* x, double* y, double* heading);
  void (*widths)(const void* self, double s, double* left, double* right);
  /* optional (NULL: level): the road's grade dz/ds at s, for the vertical curvature */
  double (*grade)(const void* self, double s);
} path_road;

typedef struct path {
  int n;
  double ds;
  int closed;
  double length;
  double *s, *off, *x, *y, *hd, *k, *v;
  double* kv;            /* 1/m, vertical curvature of the road (d²z/ds²; negative over a crest) */
  double* gr;            /* the road's grade dz/ds (positive uphill) */
  /* per sample i, the chord to the next sample, for path_locate (computed once in path_build;
   * the same expressions path_locate evaluated every step): PATH_SEG_N doubles each */
  double* seg;
  /* the limits of the last path_speed_profile_qss (has_limits 0 before one) */
  int has_limits;
  double mu_y, mu_x, a_drive, a_brake, drag;
} path;

enum { PATH_CENTRE, PATH_OFFSET, PATH_RACING };
/* p->seg + PATH_SEG_N·i: the chord from sample i to the next (ex, ey), its squared length and
 * length, its unit direction (hx, hy; the sample's heading's cos and sin for a zero chord), and
 * that direction's heading atan2(hy, hx) */
enum { PATH_SEG_EX, PATH_SEG_EY, PATH_SEG_L2, PATH_SEG_L, PATH_SEG_HX, PATH_SEG_HY, PATH_SEG_HD, PATH_SEG_N };

/* Build the line (kind, offset for PATH_OFFSET, margin to the edges for PATH_RACING). */
path* path_build(const path_road* rd, int kind, double offset, double margin, double ds);
void path_free(path* p);
/* Speed profile: lateral grip (fraction of g), accel and braking limits (m/s²), top speed. */
void path_speed_profile(path* p, double grip, double a_acc, double a_brake, double v_top);

/* Grip-true speed profile (quasi-steady): the lateral acceleration v²|κ| stays within
 * mu_y·n·g and the longitudinal within the friction ellipse a_x ≤ a_max·√(1 − (a_y/(mu_y·n·g))²)
 * (never less than 10 % of a_max, so the profile cannot stall), where n = 1 + v²·kv/g is the
 * load factor over crests (no credit taken for dips); drive further capped by a_drive (engine, wheelie), braking
 * by mu_x·n·g and a_brake (stoppie). mu_y, mu_x: the usable friction (rider's grip × the tyres'
 * peak). Results in p->v; the planned peaks are returned when the pointers are non-NULL. */
typedef struct path_plan {
  double ay_peak;        /* m/s², largest v²|κ| of the profile */
  double brake_peak;     /* m/s², largest deceleration */
  double drive_peak;     /* m/s², largest acceleration */
} path_plan;
void path_speed_profile_mu(path* p, double mu_y, double mu_x, double a_drive, double a_brake, double v_top,
                           path_plan* plan);

/* QSS speed profile at the machine's limits, in terms of the tyres' force (the road's grip in
 * use): as path_speed_profile_mu, but the longitudinal limits apply to the tyres' force over
 * the mass, a_x + drag·v² + g·grade (the air's drag and an uphill help braking and eat drive, a
 * downhill the other way round), and drive is further
 * capped by the engine at full throttle in the gear the rider is in at that speed (engine(v),
 * m/s², NULL: none). a_drive and a_brake cap the tyres' force too (wheelie, stoppie, the
 * rider's caution). The planned peaks are the tyres' force: a_y, a_x + drag·v² + g·grade ≥ 0
 * (drive), −(a_x + drag·v² + g·grade) ≥ 0 (braking). The limits are kept in p for path_long_limits. */
typedef struct path_limits {
  double mu_y, mu_x;     /* usable friction: the rider's grip × the tyres' peak */
  double a_drive;        /* m/s², cap on the tractive force / mass */
  double a_brake;        /* m/s², cap on the braking force / mass */
  double drag;           /* 1/m: aerodynamic drag force / (mass·v²) */
  double v_top;          /* m/s */
  double (*engine)(const void* self, double v);   /* m/s²: full-throttle tractive force / mass */
  const void* engine_self;
} path_limits;
void path_speed_profile_qss(path* p, const path_limits* lim, path_plan* plan);
/* Riding at speed v at station s: the most tractive and braking force per mass (m/s², ≥ 0) the
 * profile's limits allow there (friction ellipse at v²|κ|, load factor, caps; not the engine). */
void path_long_limits(const path* p, double s, double v, double* drive, double* brake);
/* The road's grade dz/ds at station s (0 on a level road). */
double path_grade(const path* p, double s);
/* The profile's planned acceleration dv/dt (m/s²) at station s. */
double path_accel(const path* p, double s);
/* The profile's lap time (s) over the whole path (∑ ds / v). */
double path_time(const path* p);

/* Where (x, y) is relative to the path, searching near *hint (sample index, −1 = everywhere). */
typedef struct path_where {
  double s;              /* station of the nearest point */
  double offset_error;   /* signed distance, positive = left of the path */
  double heading;        /* path heading there */
  int index;
} path_where;
void path_locate(const path* p, double x, double y, int* hint, path_where* out);
/* Interpolated curvature, speed and offset at station s (wrapping on closed paths). */
double path_curvature(const path* p, double s);
/* The curvature of largest magnitude (the first such) among path_curvature at s + speed·preview·i/4,
 * i = 0..4, times speed²: sim/posture.h posture_ay_ahead with path_curvature, bit for bit, in one
 * call (issue 18; tests/unit/test_ride_loop.c holds it to posture_ay_ahead). */
double path_ay_ahead(const path* p, double s, double speed, double preview);
double path_speed(const path* p, double s);
/* The mean of path_curvature at 2·PATH_MEAN_N + 1 stations evenly from s − half to s + half (m):
 * the curvature the rider's lean follows (rider.preview_span: the racing line's curvature wiggles
 * over a few metres, which no lean can follow), and the race profile's plan rides the same. */
#define PATH_MEAN_N 4
double path_curvature_mean(const path* p, double s, double half);
double path_offset(const path* p, double s);
/* Interpolated point and heading of the line at station s. */
void path_point(const path* p, double s, double* x, double* y);
double path_heading(const path* p, double s);

#endif
