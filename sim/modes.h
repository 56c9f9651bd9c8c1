/* modes.h — the named vibration modes of a rig over a steady-state series (module prefix md_).
 *
 * Contract. md_solve trims the vehicle (sim/trim.h, solved, not waited for) at one point of a
 * series — a speed with a lean or a lateral acceleration — and linearises one step about it
 * (lin_jacobian, sim/linear.h). Its eigenvalues λ (LAPACKE dgeev, right eigenvectors kept) give
 * the continuous roots s = ln(λ)/h; each mode gets the share of every *motion group* in its
 * velocity eigenvector: the frame's roll rate, yaw rate and sideslip velocity (heading axes,
 * from the free joint's world angular and linear velocity; the sideslip less speed × heading
 * change, so a heading drift is not read as sideways motion), steer, frame twist, fork bend,
 * rider (lean, hip shift, torso pitch) and all in-plane motion (forward, vertical, pitch, fork,
 * swingarm, wheel spins times the wheel centre's height; the crank, geared to the rear wheel, is
 * left out). Shares sum to 1 (magnitudes of m/s and rad/s, unscaled).
 *
 * md_name names the modes of a whole series at once (one point is a series of one):
 *   - by shape and frequency, every candidate gets a score for each name (the frequency weight is
 *     full within the band given and fades to zero a little outside it): weave (0.5–4.5 Hz, roll,
 *     yaw and sideslip with steer), wobble (5–15 Hz, steer dominant with little roll/yaw),
 *     chatter (18–50 Hz, fork bend with twist and steer), capsize (a slow real root, roll dominant);
 *   - the anchor of each name is its best-scoring candidate over the series; from there it is
 *     followed point to point by continuity: the candidate nearest to the root predicted from
 *     the last two points (a secant), in the complex plane, plus a penalty for a changed shape;
 *   - a mode takes one name at most (conflicts go to the better score); the rest are "other".
 * The names are labels for people, not physics: a name found nowhere in a series is absent.
 * No global state; deterministic. */
#ifndef MODES_H
#define MODES_H

#include "sim/linear.h"
#include "sim/trim.h"
#include "sim/vehicle.h"

enum { MD_WEAVE, MD_WOBBLE, MD_CAPSIZE, MD_CHATTER, MD_NNAMED, MD_OTHER = MD_NNAMED };
extern const char* const md_names[MD_NNAMED + 1];   /* "weave" ... "chatter", "other" */
/* The name's index, or −1. */
int md_name_index(const char* s);

enum { MD_G_ROLL, MD_G_YAW, MD_G_LAT, MD_G_STEER, MD_G_TWIST, MD_G_BEND, MD_G_RIDER, MD_G_INPLANE, MD_NG };
extern const char* const md_group_names[MD_NG];

#define MD_MAX_MODES 64

typedef struct md_mode {
  double re, im;          /* continuous root (1/s, rad/s), im >= 0: one of each conjugate pair */
  double hz, zeta;        /* |im|/2π; −re/|s| (negative: unstable) */
  double share[MD_NG];
  int name;               /* MD_WEAVE..MD_CHATTER or MD_OTHER */
  int col;                /* its eigenvector's column in the point's vectors (vr: re, vi: im) */
} md_mode;

typedef struct md_spec {
  double speed;           /* m/s */
  int turn;               /* 0: the lean below; 1: the lateral acceleration below */
  double lean;            /* deg, ISO roll (positive right) */
  double ay;              /* g, positive: a left turn (yaw rate = ay·g/speed) */
} md_spec;

typedef struct md_point {
  md_spec spec;
  int ok;                 /* trimmed and linearised */
  char why[256];          /* when !ok: the one-line reason */
  trim_result trim;
  double ay_g;            /* the trimmed lateral acceleration (speed × yaw rate / g) */
  int nmode;
  md_mode mode[MD_MAX_MODES];   /* sorted by frequency, real roots first by re; trivial ones
                                   (|s| < 1e-3: position, heading) left out */
  /* eigenvectors (tangent state, lin_size(v) each), only when md_solve is given keep_vectors */
  int n;
  double *vr, *vi;        /* n × nmode, column-major by mode: vr[c·n + i] */
  double* x0;             /* the trimmed state (veh_state_size) */
} md_point;

/* Trim v at p->spec, linearise, fill p (p->spec set by the caller). eps: the perturbation
 * (0: 1e-6). keep_vectors: also store the eigenvectors and the state (free with md_point_free).
 * MT_OK; MT_EINPUT when the point cannot be trimmed (p->why says why, p->ok = 0); MT_EINTERNAL
 * when the linearisation fails. */
int md_solve(vehicle* v, md_point* p, double eps, int keep_vectors, mt_err* e);
void md_point_free(md_point* p);
/* md_solve with a controller in the loop (`modes --loop closed`): after the trim, start(data, v,
 * &p->trim, &L) hands the vehicle to the controller (v->control) and describes it (sim/linear.h
 * lin_loop); the modes are the closed loop's (lin_jacobian_loop: the controller's states
 * appended, its limits refused), the shares and vectors the machine's part of each mode. The
 * controller stays on v (the caller takes it off). start NULL: md_solve. */
typedef void (*md_loop_start)(void* data, vehicle* v, const trim_result* tr, lin_loop* L);
int md_solve_loop(vehicle* v, md_point* p, double eps, int keep_vectors, md_loop_start start, void* data, mt_err* e);
/* Name the modes of the npts points (the ok ones) of a series, in place. */
void md_name(md_point* pts, int npts);
/* The mode named `name` at p, or NULL. */
const md_mode* md_find(const md_point* p, int name);

/* Parse "FROM:TO:STEP" (or one number) into at most max values (FROM, FROM+STEP, ..., TO
 * inclusive within STEP/1000); returns the count, or −1 with e naming `what` (bad syntax, a
 * step of the wrong sign or zero, more than max points). */
int md_parse_range(const char* s, const char* what, double* out, int max, mt_err* e);

/*---- one point as `mototake modes RIG --speed V` lists it (sim/modes_point.c) ----
 * Shared by the command and libmototake (api/mtk_sim.c), so both give the same roots and names. */

/* The ranges a point must lie in, with the command's messages: a speed of v (in the unit given,
 * uf m/s each, named uname) within 0.5 .. 120 m/s; a lean (deg) within ±65 or, turn, a lateral
 * acceleration (g) within ±2.5. MT_OK or MT_EINPUT. */
int md_check_speed(double v, double uf, const char* uname, mt_err* e);
int md_check_lateral(int turn, double l, mt_err* e);

enum { MD_NJOINT_SHARE = 6 };   /* steer, twist, bend, rider, fork, swingarm */
extern const char* const md_joint_share_names[MD_NJOINT_SHARE];

/* One listed mode of a point: a root of lin_modes_loop's step map (not the named analysis's:
 * the two are the same Jacobian, equal to rounding), matched to its name in p. */
typedef struct md_row {
  int name;               /* MD_WEAVE..MD_CHATTER, or MD_OTHER (also when matched is 0) */
  int matched;            /* found among p's modes: roll and yaw below are p's group shares */
  double re, im, hz, zeta;
  double joint[MD_NJOINT_SHARE];   /* the joints' shares of the mode's velocities (0: no such joint) */
  double roll, yaw;
} md_row;

/* The modes of the trimmed point p (md_solve_loop then md_name done, v still at its trim) that
 * the command lists: up to fmax Hz, real roots from −50 1/s up, zeros (|re| < 1e-4) left out.
 * L: the closed loop's controller, or NULL. Returns the count (at most max), or −1 with e. */
int md_point_rows(vehicle* v, const lin_loop* L, const md_point* p, double fmax, md_row* rows, int max, mt_err* e);

/* The default selection of the point's continuous model (`modes --abcd`, libmototake): every
 * state; the rider's inputs steer_torque, rider_lean_torque, throttle, front_brake, rear_brake;
 * the outputs speed, lean, roll_rate, yaw_rate, steer_angle, steer_rate. s starts empty. */
void md_abcd_default(lin_spec* s);

#endif
