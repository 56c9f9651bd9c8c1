/* trim.c — steady-state solver (see trim.h). */
#include "sim/trim.h"
#include "sim/vehicle_mj.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { U_DZ, U_PITCH, U_SLIP, U_TURN, U_STEER, U_FORK, U_SWING, U_TWIST, U_RIDER, U_HIP, U_TPITCH, U_WF, U_WR, U_WC, U_TAU, U_THR, NU };
_Static_assert((int)NU == (int)TRIM_NU, "trim.h's TRIM_NU is the number of unknowns");

int trim_broyden = 1;
int trim_skip_repeats = 1;
enum { R_AX, R_AY, R_AZ, R_WX, R_WY, R_WZ, R_STEER, R_FORK, R_SWING, R_TWIST, R_RIDER, R_HIP, R_TPITCH, R_WF, R_WR, R_WC, NR };

typedef struct ctx {
  vehicle* v;
  const trim_spec* s;
  double base_z;
  int evals;   /* evaluations so far (trim_result.evaluations) */
  int slipping;   /* 1: the clutch slips (solve_slipping): u[U_THR] is its engagement, the throttle shut */
} ctx;

static void quat_mul(const double a[4], const double b[4], double o[4]) {
  double t[4] = {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3], a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                 a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1], a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
  memcpy(o, t, sizeof t);
}

/* Put unknowns u into the vehicle's state and inputs; return the scaled residual in r. */
static void evaluate(ctx* c, const double* u, double* r) {
  vehicle* v = c->v;
  c->evals++;
  const rig* rg = v->rig;
  const trim_spec* s = c->s;
  mjData* d = v->d;
  double roll = s->fix_roll ? s->roll : u[U_TURN];
  double Om = s->fix_roll ? u[U_TURN] : s->yaw_rate;
  double psi = s->heading, th = u[U_PITCH], beta = u[U_SLIP];
  double qz[4] = {cos(psi / 2), 0, 0, sin(psi / 2)}, qx[4] = {cos(roll / 2), sin(roll / 2), 0, 0},
         qy[4] = {cos(th / 2), 0, sin(th / 2), 0}, q[4], q2[4];
  quat_mul(qz, qx, q2);
  quat_mul(q2, qy, q);
  int fq = v->qadr[rg->body[0].joint0], fd = v->dadr[rg->body[0].joint0];
  double R[9];
  mju_quat2Mat(R, q);
  const double* o = v->origin[0];
  double p[3];
  for (int i = 0; i < 3; i++) p[i] = R[3 * i] * o[0] + R[3 * i + 1] * o[1] + R[3 * i + 2] * o[2];
  d->qpos[fq] = s->x + p[0];
  d->qpos[fq + 1] = s->y + p[1];
  d->qpos[fq + 2] = s->z + p[2] + u[U_DZ];
  memcpy(d->qpos + fq + 3, q, sizeof q);
  double V = s->speed, ch = cos(psi + beta), sh = sin(psi + beta);
  d->qvel[fd] = V * ch;
  d->qvel[fd + 1] = V * sh;
  d->qvel[fd + 2] = 0;
  /* angular velocity (0, 0, Ω) in the world, expressed in the frame's local axes */
  double wl[3] = {R[6] * Om, R[7] * Om, R[8] * Om};
  memcpy(d->qvel + fd + 3, wl, sizeof wl);
  int js[7] = {rg->j_steer, rg->j_fork, rg->j_swingarm, rg->j_twist, rg->j_rider, rg->j_posture[RIG_POSTURE_HIP],
               rg->j_posture[RIG_POSTURE_PITCH]};
  int us[7] = {U_STEER, U_FORK, U_SWING, U_TWIST, U_RIDER, U_HIP, U_TPITCH};
  for (int k = 0; k < 7; k++)
    if (js[k] >= 0) {
      d->qpos[v->qadr[js[k]]] = u[us[k]];
      d->qvel[v->dadr[js[k]]] = 0;
    }
  d->qvel[v->dadr[rg->j_front_spin]] = u[U_WF];
  d->qvel[v->dadr[rg->j_rear_spin]] = u[U_WR];
  d->qvel[v->crank_d] = u[U_WC];
  v->in.steer_torque = u[U_TAU];
  if (c->slipping) {   /* the same one equation (the crank's balance), the clutch's unknown in the throttle's place */
    v->in.throttle = 0;
    v->in.clutch = u[U_THR];
  } else {
    v->in.throttle = u[U_THR];
  }
  v->steady_tyres = 1;
  veh_forward(v);
  v->steady_tyres = 0;
  /* centripetal acceleration of the frame origin: −Ω²·(horizontal distance to the centre) */
  double a_exp[3] = {0, 0, 0};
  if (fabs(Om) > 1e-12) {
    double rad = V / Om;   /* signed: centre to the left for Ω > 0 */
    double nx = -sh, ny = ch;   /* left normal of the velocity */
    /* p − c = −rad·n  →  a = −Ω²(p − c) = Ω²·rad·n */
    a_exp[0] = Om * Om * rad * nx;
    a_exp[1] = Om * Om * rad * ny;
  }
  const double* qa = d->qacc;
  /* Scale rotational residuals by a length so that all are accelerations in m/s². */
  r[R_AX] = qa[fd] - a_exp[0];
  r[R_AY] = qa[fd + 1] - a_exp[1];
  r[R_AZ] = qa[fd + 2];
  r[R_WX] = qa[fd + 3] * 0.5;
  r[R_WY] = qa[fd + 4] * 0.5;
  r[R_WZ] = qa[fd + 5] * 0.5;
  r[R_STEER] = rg->j_steer >= 0 ? qa[v->dadr[rg->j_steer]] * 0.1 : 0;
  r[R_FORK] = qa[v->dadr[rg->j_fork]];
  r[R_SWING] = qa[v->dadr[rg->j_swingarm]] * 0.5;
  r[R_TWIST] = rg->j_twist >= 0 ? qa[v->dadr[rg->j_twist]] * 0.1 : 0;
  r[R_RIDER] = rg->j_rider >= 0 ? qa[v->dadr[rg->j_rider]] * 0.1 : 0;
  r[R_HIP] = rg->j_posture[RIG_POSTURE_HIP] >= 0 ? qa[v->dadr[rg->j_posture[RIG_POSTURE_HIP]]] : 0;
  r[R_TPITCH] = rg->j_posture[RIG_POSTURE_PITCH] >= 0 ? qa[v->dadr[rg->j_posture[RIG_POSTURE_PITCH]]] * 0.1 : 0;
  r[R_WF] = qa[v->dadr[rg->j_front_spin]] * 0.3;
  r[R_WR] = qa[v->dadr[rg->j_rear_spin]] * 0.3;
  r[R_WC] = qa[v->crank_d] * 0.01;
  /* At rest the wheels' and the crank's spin do not matter; in neutral the crank is free. */
  if (s->speed <= 0.5) r[R_WF] = r[R_WR] = r[R_WC] = 0;
  if (v->in.gear == 0) r[R_WC] = 0;
}

static double maxabs(const double* r, int n) {
  double m = 0;
  for (int i = 0; i < n; i++)
    if (fabs(r[i]) > m) m = fabs(r[i]);
  return m;
}

static int choose_gear(const rig* r, double speed, double min_rpm) {
  if (speed < 1) return 0;
  /* The highest gear that keeps the engine at or above min_rpm: a rider cruising with response,
   * and not one the rider would shift out of at once. Gear 1 if none reaches it. */
  double wr = speed / r->wheel[RIG_REAR].centre[2];
  int best = 1;
  for (int g = 1; g <= 6; g++) {
    double G = drive_gear_ratio(&r->drive, g);
    if (G <= 0) break;
    if (wr * G * 30 / MT_PI >= min_rpm) best = g;
  }
  return best;
}

/* The Jacobian of the residuals at u (whose residuals are r) by forward differences, over the na
 * active unknowns map[]: J[i·na + a] = ∂r_i/∂u_map[a]. Leaves the vehicle at the last perturbed
 * point (the caller evaluates again before it reads the vehicle). */
static void fd_jacobian(ctx* c, double* u, const double* r, const int* map, int na, double* J) {
  static const double h[NU] = {1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-4, 1e-4, 1e-3, 1e-4, 1e-6};
  for (int a = 0; a < na; a++) {
    int k = map[a];
    double save = u[k], r2[NR];
    u[k] = save + h[k];
    evaluate(c, u, r2);
    u[k] = save;
    for (int i = 0; i < NR; i++) J[i * na + a] = (r2[i] - r[i]) / h[k];
  }
}

/* Damped Gauss–Newton from u (updated in place). Returns the final max residual; *iters counts.
 * broyden = 1 (a solve from a nearby trim's unknowns, trim_spec.start): the finite-difference
 * Jacobian (one evaluation per unknown) is taken at the first iteration only and then updated by
 * Broyden's rank-one formula from each step's change of the residual (one evaluation a step);
 * when a step does not lower the residual, the Jacobian is taken afresh by finite differences
 * before giving up, so it ends no worse than the plain method. */
static double gauss_newton(ctx* c, double* u, const int* active, int maxit, int* iters, int broyden) {
  double r[NR], J[NR * NU], Jk[NR * NU];   /* J: the solve's copy (dgelsd overwrites it); Jk: kept */
  evaluate(c, u, r);
  double res = maxabs(r, NR);
  int na = 0, map[NU];
  for (int k = 0; k < NU; k++)
    if (active[k]) map[na++] = k;
  int fresh = 0;   /* Jk is a finite-difference Jacobian at u (not a Broyden update) */
  for (int it = 0; it < maxit && res >= 1e-7; it++) {
    ++*iters;
    if (!broyden || it == 0) {
      fd_jacobian(c, u, r, map, na, Jk);
      fresh = 1;
    }
    memcpy(J, Jk, sizeof(double) * NR * (size_t)na);
    double rhs[NU];   /* NU == NR: a square system */
    for (int i = 0; i < NR; i++) rhs[i] = -r[i];
    double sv[NU];
    lapack_int rank;
    if (LAPACKE_dgelsd(LAPACK_ROW_MAJOR, NR, na, 1, J, na, rhs, 1, sv, 1e-12, &rank) != 0) break;
    /* damped step: halve until the residual falls */
    double lam = 1, unew[NU], rn = res, rnew[NR];
    int improved = 0;
    for (int ls = 0; ls < 12; ls++) {
      memcpy(unew, u, sizeof unew);
      for (int a = 0; a < na; a++) unew[map[a]] += lam * rhs[a];
      /* the engine clamps the throttle to [0, 1]: outside it the Jacobian would be zero */
      unew[U_THR] = mt_clamp(unew[U_THR], 0, 1.2);
      evaluate(c, unew, rnew);
      rn = maxabs(rnew, NR);
      if (rn < res) {
        improved = 1;
        break;
      }
      lam *= 0.5;
    }
    if (!improved) {
      if (broyden && !fresh) {   /* the updated Jacobian led nowhere: take it afresh at u */
        fd_jacobian(c, u, r, map, na, Jk);
        fresh = 1;
        continue;
      }
      break;
    }
    if (broyden) {   /* Jk += (Δr − Jk·Δu) Δuᵀ / (Δu·Δu), over the active unknowns */
      double du[NU], dd = 0;
      for (int a = 0; a < na; a++) {
        du[a] = unew[map[a]] - u[map[a]];
        dd += du[a] * du[a];
      }
      if (dd > 0)
        for (int i = 0; i < NR; i++) {
          double q = rnew[i] - r[i];
          for (int a = 0; a < na; a++) q -= Jk[i * na + a] * du[a];
          for (int a = 0; a < na; a++) Jk[i * na + a] += q * du[a] / dd;
        }
      fresh = 0;
    }
    memcpy(u, unew, sizeof unew);
    memcpy(r, rnew, sizeof r);
    res = rn;
  }
  evaluate(c, u, r);   /* leave the vehicle at u */
  if (getenv("MT_TRIM_DEBUG"))
    for (int i = 0; i < NR; i++) fprintf(stderr, "trim residual %d: %g (u %g)\n", i, r[i], u[i]);
  return maxabs(r, NR);
}

/* Why a point is not an acceptable trim (the vehicle holds the point, just evaluated). */
enum { CK_OK, CK_RESIDUAL, CK_SLIP, CK_LOAD, CK_THROTTLE, CK_STEER };

static int check_point(const vehicle* v, const double* u, double yaw_rate, double res, double max_slip, char* why,
                       size_t n) {
  const veh_wheel_out* wf = &v->out.wheel[RIG_FRONT];
  const veh_wheel_out* wr = &v->out.wheel[RIG_REAR];
  double d = 180 / MT_PI;
  if (fabs(wf->alpha) > max_slip || fabs(wr->alpha) > max_slip) {
    int front = fabs(wf->alpha) >= fabs(wr->alpha);
    snprintf(why, n, "the tyres saturate (%s slip angle %.1f deg, the limit is %.1f)", front ? "front" : "rear",
             d * (front ? wf->alpha : wr->alpha), d * max_slip);
    return CK_SLIP;
  }
  if (res > 1e-5) {
    snprintf(why, n, "the solver finds no steady turn (residual %.2g)", res);
    return CK_RESIDUAL;
  }
  double fz0 = 0.05 * MT_G * rig_total_mass(v->rig, NULL) / 2;
  if (!wf->contact || !wr->contact || wf->fz < fz0 || wr->fz < fz0) {
    int front = !wf->contact || wf->fz < wr->fz;
    snprintf(why, n, "the %s tyre unloads (%.0f N)", front ? "front" : "rear", front ? wf->fz : wr->fz);
    return CK_LOAD;
  }
  if (u[U_THR] > 1 + 1e-9) {
    snprintf(why, n, "the engine runs out of throttle (needs %.0f %% in gear %d)", 100 * u[U_THR], v->in.gear);
    return CK_THROTTLE;
  }
  /* A steady counter-steer is possible (the rear tyre slipping more than the front), but no
   * larger than the slip angles can make up for: the ground steer angle is the kinematic one
   * plus the difference of the slip angles. */
  double delta = u[U_STEER];
  /* a turn the steering can only hold by leaning on its lock stop (walking pace, a tight lean:
   * 2 m/s at 20 deg asked for 52.6 deg against a 28 deg lock, the stop's spring holding 835 N·m)
   * is not a steady state a rider rides */
  if (v->rig->j_steer >= 0 && v->rig->steer_lock > 0 && fabs(delta) > v->rig->steer_lock) {
    snprintf(why, n, "the steering would be past its lock (%.1f deg; the lock is %.1f deg)", d * fabs(delta), d * v->rig->steer_lock);
    return CK_STEER;
  }
  if (delta * yaw_rate < 0 && fabs(delta) > fabs(wf->alpha) + fabs(wr->alpha) + 0.5 / d) {
    snprintf(why, n, "the steer angle %.2f deg opposes the turn by more than the slip angles allow", d * delta);
    return CK_STEER;
  }
  why[0] = 0;
  return CK_OK;
}

/*---- trim_solve's stages, in the order it runs them ----*/

/* One solve's working state, shared by the stages. */
typedef struct solve {
  vehicle* v;
  const trim_spec* s;  /* the target */
  trim_spec cur;       /* the point being solved: the continuation moves its lean or yaw rate */
  ctx c;               /* the residual's context: c.s is &cur (the target itself for a warm start) */
  double u[NU];        /* the unknowns */
  double u0[NU];       /* seed's first guess (solve_slipping starts again from it) */
  int active[NU];      /* which of them are solved */
  int iters;           /* Gauss–Newton iterations, all solves together */
  double max_slip;     /* rad, the largest slip angle an accepted point may have */
  double target_lean;  /* deg (the yaw-rate mode's from the balance): the continuation's step sizes */
  int moving;          /* above 0.5 m/s; at rest only the in-plane balance is solved */
  int continuation;    /* the lean (or yaw rate) is reached in steps from upright */
} solve;

/* The inputs held, the first guess of the unknowns, which of them are solved, and whether the
 * target is reached by continuation (then cur starts upright). */
static void seed(vehicle* v, const trim_spec* s, solve* q) {
  memset(q, 0, sizeof *q);
  const rig* rg = v->rig;
  q->v = v;
  q->s = s;
  q->cur = *s;
  q->c = (ctx){v, &q->cur, 0, 0, 0};
  q->max_slip = s->max_slip > 0 ? s->max_slip : TRIM_MAX_SLIP;
  v->in.gear = s->gear >= 0 ? s->gear : choose_gear(rg, s->speed, s->min_rpm > 0 ? s->min_rpm : TRIM_MIN_RPM);
  v->in.clutch = 1;
  v->in.front_brake = v->in.rear_brake = 0;
  v->in.rider_lean_torque = 0;
  double* u = q->u;
  double rr = rg->wheel[RIG_REAR].centre[2], rf = rg->wheel[RIG_FRONT].centre[2];
  u[U_WF] = s->speed / rf;
  u[U_WR] = s->speed / rr;
  double G = v->in.gear > 0 ? drive_gear_ratio(&rg->drive, v->in.gear) : 0;
  u[U_WC] = G > 0 ? u[U_WR] * G : rg->engine.idle_speed;
  u[U_THR] = s->speed > 1 ? 0.05 : 0;
  /* What is solved: at rest, only the in-plane static balance. */
  int* active = q->active;
  for (int k = 0; k < NU; k++) active[k] = 1;
  q->moving = s->speed > 0.5;
  if (!q->moving) active[U_SLIP] = active[U_TURN] = active[U_WF] = active[U_WR] = active[U_WC] = active[U_TAU] = active[U_THR] = 0;
  if (v->in.gear == 0) active[U_THR] = 0;
  if (rg->j_twist < 0) active[U_TWIST] = 0;
  if (rg->j_rider < 0) active[U_RIDER] = 0;
  if (rg->j_posture[RIG_POSTURE_HIP] < 0) active[U_HIP] = 0;
  if (rg->j_posture[RIG_POSTURE_PITCH] < 0) active[U_TPITCH] = 0;
  /* posture joints start at their set-points (the spring's zero), then settle */
  if (rg->j_posture[RIG_POSTURE_HIP] >= 0) u[U_HIP] = v->in.posture[RIG_POSTURE_HIP];
  if (rg->j_posture[RIG_POSTURE_PITCH] >= 0) u[U_TPITCH] = v->in.posture[RIG_POSTURE_PITCH];
  if (rg->j_rider >= 0 && rg->joint[rg->j_rider].target == RIG_POSTURE_LEAN) u[U_RIDER] = v->in.posture[RIG_POSTURE_LEAN];
  /* The target, as a lean in degrees for the step sizes (the yaw-rate mode's from the balance). */
  double d2r = MT_PI / 180;
  q->target_lean = s->fix_roll ? fabs(s->roll) / d2r : (q->moving ? atan(s->speed * fabs(s->yaw_rate) / MT_G) / d2r : 0);
  q->continuation = q->moving && q->target_lean > 0;
  if (q->continuation) {
    q->cur.roll = 0;
    q->cur.yaw_rate = 0;
  }
  if (s->fix_roll) u[U_TURN] = q->moving && !q->continuation ? -MT_G * tan(s->roll) / s->speed : 0;
  else u[U_TURN] = 0;
  memcpy(q->u0, u, sizeof q->u0);
}

/* From a nearby trim's unknowns (a table of trims, solved lean after lean): Gauss–Newton at the
 * target itself, kept (out->warm, no continuation) when it reaches a point the continuation
 * would accept there; else the continuation from upright follows, as without a start. */
static void solve_warm(solve* q, trim_result* out) {
  const trim_spec* s = q->s;
  double uw[NU];
  memcpy(uw, s->start, sizeof uw);
  uw[U_THR] = mt_clamp(uw[U_THR], 0, 1.2);
  q->c.s = s;   /* the target itself (cur is at upright for the continuation) */
  double rw = gauss_newton(&q->c, uw, q->active, 60, &q->iters, trim_broyden);
  char why[200];
  if (check_point(q->v, uw, s->fix_roll ? uw[U_TURN] : s->yaw_rate, rw, q->max_slip, why, sizeof why) == CK_OK) {
    memcpy(q->u, uw, sizeof q->u);
    out->warm = 1;
    q->continuation = 0;
  }
  q->c.s = &q->cur;
}

/* The clutch's slip at unknowns u (rad/s): the crank's speed less the gearbox input's, the rear
 * wheel's times the overall ratio (steady, so the swingarm does not move the chain); 0 in neutral. */
static double clutch_slip(const vehicle* v, const double* u) {
  return v->in.gear > 0 ? u[U_WC] - drive_gear_ratio(&v->rig->drive, v->in.gear) * u[U_WR] : 0;
}

/* Walking pace in a low gear: with the clutch locked the crank turns below the idle governor's
 * range, where the governor opens the throttle plate on its own and the engine drives harder than
 * the drag at a shut throttle, so no throttle holds the speed (the first solve ends at throttle 0).
 * A rider slips the clutch there. Solve again from the seed with the throttle shut and the clutch's
 * engagement as the unknown in the throttle's slot: the crank settles where the governor's torque
 * equals what the slipping clutch passes (C·e·tanh(slip/ω_s), smooth, so the linearisation sees
 * the slip and not a locked clutch), and that torque through the gearbox balances the drag and the
 * rolling resistance. Accepted when the residual is below 1e-5, the engagement within (0, 1] and
 * the crank faster than the gearbox (a driving slip); else the vehicle goes back to the throttle
 * (q->c.slipping 0, the clutch engaged) and the caller tries solve_above_floor. Returns 1 when
 * accepted (q->u and *res then hold the slipping point). */
static int solve_slipping(solve* q, double* res) {
  const vehicle* v = q->v;
  double u[NU];
  memcpy(u, q->u0, sizeof u);
  u[U_WC] = v->rig->engine.idle_speed;   /* where the governor holds the crank */
  u[U_THR] = 0.01;                       /* engagement: a light touch (the drag is small here) */
  q->c.slipping = 1;
  int iters = q->iters;
  double r = gauss_newton(&q->c, u, q->active, 60, &iters, 0);
  if (r < 1e-5 && u[U_THR] > 0 && u[U_THR] <= 1 && clutch_slip(v, u) > 0) {
    memcpy(q->u, u, sizeof u);
    q->iters = iters;
    *res = r;
    return 1;
  }
  q->c.slipping = 0;
  q->v->in.clutch = 1;
  q->iters = iters;
  return 0;
}

/* Just above the governor's range the throttle that holds the speed is barely above the governor's
 * floor (a few ten-thousandths), and below the floor the throttle does nothing (the plate is the
 * larger of the two): a Gauss–Newton step that overshoots to a shut throttle finds a flat
 * residual there and stops. Start again from the seed with the throttle at twice the floor at the
 * locked crank's speed. Returns the better residual; q->u keeps the better point. */
static double solve_above_floor(solve* q, double res) {
  double u[NU];
  memcpy(u, q->u0, sizeof u);
  u[U_THR] = 2 * engine_idle_floor(&q->v->rig->engine, u[U_WC]);
  double r = gauss_newton(&q->c, u, q->active, 60, &q->iters, 0);
  if (r >= res) return res;
  memcpy(q->u, u, sizeof u);
  return r;
}

/* Whether the first solve failed because the idle governor drives harder than a shut throttle holds. */
static int governor_bound(const solve* q, double res) {
  return res >= 1e-5 && q->moving && q->v->in.gear > 0 && q->u[U_THR] <= 1e-9;
}

/* The first point: the warm start's, or solved at cur (upright when a continuation follows, else
 * the target); on the idle governor's limit, with the clutch slipping (solve_slipping). MT_OK, or
 * the one line saying why no steady state exists there. */
static int solve_first(solve* q, trim_result* out, mt_err* e) {
  const trim_spec* s = q->s;
  const vehicle* v = q->v;
  const rig* rg = v->rig;
  const double* u = q->u;
  double res;
  if (out->warm) {
    q->cur.roll = s->roll;
    q->cur.yaw_rate = s->yaw_rate;
    res = 0;
  } else {
    res = gauss_newton(&q->c, q->u, q->active, 60, &q->iters, 0);
  }
  int governed = governor_bound(q, res);
  double wc_locked = u[U_WC];   /* the first solve's crank speed, for the message */
  if (governed && !solve_slipping(q, &res)) res = solve_above_floor(q, res);
  governed = governed && governor_bound(q, res);
  out->iterations = q->iters;
  out->evaluations = q->c.evals;
  out->residual = res;
  int moving = q->moving;
  if (governed && !q->c.slipping)
    return mt_fail(e, MT_EINPUT,
                   "trim: no steady state at %.2f m/s in gear %d: the engine (%.0f rpm) drives harder than a closed "
                   "throttle can hold (idle governor), and no slipping clutch holds it either",
                   s->speed, v->in.gear, wc_locked * 30 / MT_PI);
  if (res >= 1e-5 && moving && v->in.gear > 0 && u[U_THR] >= 1)
    return mt_fail(e, MT_EINPUT, "trim: %.2f m/s needs more than full throttle in gear %d (%.0f rpm%s)", s->speed,
                   v->in.gear, u[U_WC] * 30 / MT_PI,
                   rg->engine.rev_limit > 0 && u[U_WC] >= rg->engine.rev_limit ? ", on the rev limiter" : "");
  if (res >= 1e-5 && moving && v->in.gear == 0)
    return mt_fail(e, MT_EINPUT, "trim: no steady state at %.2f m/s in neutral: nothing drives against the drag", s->speed);
  if (res >= 1e-5)
    return mt_fail(e, MT_EINPUT, "trim: no steady state found at %.2f m/s (residual %.2g after %d iterations)", s->speed,
                   res, q->iters);
  if (u[U_THR] > 1.0 + 1e-9)
    return mt_fail(e, MT_EINPUT, "trim: %.2f m/s needs %.0f %% throttle in gear %d (more than the engine has)", s->speed,
                   100 * u[U_THR], v->in.gear);
  return MT_OK;
}

/* The continuation's progress: p runs from 0 (upright) to 1 (the target); steps in degrees of
 * lean, 0.05 to 10. */
typedef struct walk {
  double p, pp, dp, dp_min, dp_max;
  double u_prev[NU];   /* the unknowns at pp: the secant predictor's other point */
  int have_prev;
  char why[200];       /* why the last attempt was refused (check_point) */
  /* slip angles (deg) of the last two accepted points and their leans: to say which tyre
   * saturates when the continuation reaches a fold (the most lean a steady turn can have) */
  double af[2], ar[2], ln[2];
  double fail_thr, fail_rpm;   /* throttle and engine speed (rpm) of the last refused attempt */
} walk;

/* An accepted point ut at pn: the predictor's points move on, the step grows. */
static void accept_step(solve* q, walk* w, const double* ut, double pn, trim_result* out) {
  double d2r = MT_PI / 180;
  double rl, pt, yw;
  veh_frame_euler(q->v, &rl, &pt, &yw);
  w->af[0] = w->af[1], w->ar[0] = w->ar[1], w->ln[0] = w->ln[1];
  w->af[1] = fabs(q->v->out.wheel[RIG_FRONT].alpha) / d2r, w->ar[1] = fabs(q->v->out.wheel[RIG_REAR].alpha) / d2r;
  w->ln[1] = fabs(rl) / d2r;
  memcpy(w->u_prev, q->u, sizeof q->u);
  memcpy(q->u, ut, sizeof q->u);
  w->pp = w->p;
  w->p = pn;
  w->have_prev = 1;
  out->steps++;
  w->dp = fmin(w->dp * 1.5, w->dp_max);
}

/* The step fell below its least size: leave the vehicle at the last good point, and say how far
 * the continuation got and why (ck: the last attempt's refusal). Returns MT_EINPUT. */
static int give_up(solve* q, walk* w, int ck, trim_result* out, mt_err* e) {
  const trim_spec* s = q->s;
  vehicle* v = q->v;
  const rig* rg = v->rig;
  const double* u = q->u;
  double d2r = MT_PI / 180, r[NR], p = w->p;
  char* why = w->why;
  q->cur.roll = p * s->roll;
  q->cur.yaw_rate = p * s->yaw_rate;
  evaluate(&q->c, u, r);
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  out->iterations = q->iters;
  out->evaluations = q->c.evals;
  out->residual = maxabs(r, NR);
  out->roll = roll;
  out->steer_angle = u[U_STEER];
  out->yaw_rate = s->fix_roll ? u[U_TURN] : q->cur.yaw_rate;
  if (ck == CK_RESIDUAL && w->fail_thr >= 1 && !q->c.slipping) {   /* slipping, the slot is the clutch's */
    snprintf(why, sizeof w->why, "the engine runs out of throttle (full throttle in gear %d is not enough%s)", v->in.gear,
             rg->engine.rev_limit > 0 && w->fail_rpm >= rg->engine.rev_limit * 30 / MT_PI ? ": on the rev limiter" : "");
  } else if (ck == CK_RESIDUAL && out->steps >= 2 && w->ln[1] > w->ln[0]) {
    /* no solution nearby: a fold. Name the tyre whose slip angle grows fastest, if one
     * does (more than half a degree per degree of lean). */
    double gf = (w->af[1] - w->af[0]) / (w->ln[1] - w->ln[0]), gr = (w->ar[1] - w->ar[0]) / (w->ln[1] - w->ln[0]);
    int front = gf > gr;
    if (fmax(gf, gr) > 0.5) {
      out->fold = front ? TRIM_FOLD_FRONT : TRIM_FOLD_REAR;
      snprintf(why, sizeof w->why, "the %s tyre saturates (slip angle %.1f deg, growing %.2f deg per deg of lean)",
               front ? "front" : "rear", front ? w->af[1] : w->ar[1], front ? gf : gr);
    }
  }
  if (s->fix_roll)
    return mt_fail(e, MT_EINPUT, "trim: no steady turn at %.2f m/s and %.1f deg of lean: %s beyond %.1f deg",
                   s->speed, s->roll / d2r, why, fabs(roll) / d2r);
  return mt_fail(e, MT_EINPUT,
                 "trim: no steady turn at %.2f m/s on a %.1f m radius (about %.0f deg of lean): %s beyond %.1f deg "
                 "of lean, %.1f m radius",
                 s->speed, fabs(s->speed / s->yaw_rate), q->target_lean, why, fabs(roll) / d2r,
                 p > 0 ? fabs(s->speed / (p * s->yaw_rate)) : INFINITY);
}

/* From upright to the target in steps of lean (or yaw rate), each started from the last two
 * solutions extrapolated, halved on a refused point, grown on an accepted one. */
static int continue_to_target(solve* q, trim_result* out, mt_err* e) {
  const trim_spec* s = q->s;
  double* u = q->u;
  walk w = {0};
  w.dp = fmin(1, 5 / q->target_lean);
  w.dp_min = 0.05 / q->target_lean;
  w.dp_max = 10 / q->target_lean;
  memcpy(w.u_prev, u, sizeof q->u);
  while (w.p < 1) {
    double p = w.p, pn = fmin(1, p + w.dp), ut[NU];
    for (int k = 0; k < NU; k++) ut[k] = w.have_prev ? u[k] + (pn - p) / (p - w.pp) * (u[k] - w.u_prev[k]) : u[k];
    ut[U_THR] = mt_clamp(ut[U_THR], 0, 1.2);
    q->cur.roll = pn * s->roll;
    q->cur.yaw_rate = pn * s->yaw_rate;
    double rn = gauss_newton(&q->c, ut, q->active, 30, &q->iters, 0);
    double om = s->fix_roll ? ut[U_TURN] : q->cur.yaw_rate;
    int ck = check_point(q->v, ut, om, rn, q->max_slip, w.why, sizeof w.why);
    if (ck == CK_OK) {
      accept_step(q, &w, ut, pn, out);
      continue;
    }
    w.fail_thr = ut[U_THR];
    w.fail_rpm = ut[U_WC] * 30 / MT_PI;
    /* Halved, the step may still reach past the target and be clipped to the same point pn:
     * that attempt would be this one again (the same predictor from the same u, u_prev, p,
     * pp and pn, and every evaluation sets the whole state from u; only a road whose answers
     * depend on the query's hint, as where a track crosses itself, could tell the two
     * apart), and fail again. Halve on until the step names another point: the same
     * attempts as halving once a failure, less the repeats (the rider's table with posture:
     * 14 834 evaluations instead of 16 208, the same trims bit for bit). */
    do
      w.dp *= 0.5;
    while (trim_skip_repeats && w.dp >= w.dp_min && fmin(1, p + w.dp) == pn);
    if (w.dp < w.dp_min) return give_up(q, &w, ck, out, e);
  }
  q->cur.roll = s->roll;
  q->cur.yaw_rate = s->yaw_rate;
  return MT_OK;
}

/* The solution: the relaxed tyre slips set to the steady ones, the vehicle left there, out filled. */
static void store_result(solve* q, trim_result* out) {
  vehicle* v = q->v;
  const trim_spec* s = q->s;
  const rig* rg = v->rig;
  const double* u = q->u;
  double r[NR];
  evaluate(&q->c, u, r);
  double res = maxabs(r, NR);
  out->converged = 1;
  out->iterations = q->iters;
  out->evaluations = q->c.evals;
  out->residual = res;
  /* The relaxed tyre slips start equal to the steady ones. */
  for (int w = 0; w < 2; w++) {
    v->d->act[2 * w] = v->out.wheel[w].kappa;
    v->d->act[2 * w + 1] = v->out.wheel[w].alpha;
  }
  veh_forward(v);
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  out->roll = roll;
  out->pitch = pitch;
  out->yaw_rate = s->fix_roll ? u[U_TURN] : s->yaw_rate;
  out->radius = fabs(out->yaw_rate) > 1e-9 ? s->speed / out->yaw_rate : INFINITY;
  out->sideslip = u[U_SLIP];
  out->steer_angle = u[U_STEER];
  out->steer_torque = u[U_TAU];
  out->throttle = q->c.slipping ? 0 : u[U_THR];
  out->clutch = q->c.slipping ? u[U_THR] : 1;
  out->clutch_slipping = q->c.slipping;
  out->clutch_slip_rpm = clutch_slip(v, u) * 30 / MT_PI;
  out->gear = v->in.gear;
  out->rpm = u[U_WC] * 30 / MT_PI;
  const rig_joint* fk = &rg->joint[rg->j_fork];
  out->fork_sag = fk->sign * veh_q(v, rg->j_fork) - fk->sd.x_min;
  out->shock_sag = v->out.shock_travel - rg->linkage.shock.x_min;
  out->wheel_travel_rear = 0;
  out->fz_front = v->out.wheel[RIG_FRONT].fz;
  out->fz_rear = v->out.wheel[RIG_REAR].fz;
  out->alpha_front = v->out.wheel[RIG_FRONT].alpha;
  out->alpha_rear = v->out.wheel[RIG_REAR].alpha;
  out->kappa_front = v->out.wheel[RIG_FRONT].kappa;
  out->kappa_rear = v->out.wheel[RIG_REAR].kappa;
  memcpy(out->u, u, sizeof out->u);
  out->evaluations = q->c.evals;
}

int trim_solve(vehicle* v, const trim_spec* s, trim_result* out, mt_err* e) {
  memset(out, 0, sizeof *out);
  solve q;
  seed(v, s, &q);
  if (s->start && q.continuation) solve_warm(&q, out);
  int rc = solve_first(&q, out, e);
  if (!rc && q.continuation) rc = continue_to_target(&q, out, e);
  if (rc) return rc;
  store_result(&q, out);
  return MT_OK;
}

int trim_turn_limit(vehicle* v, double speed, double* roll, double* ay) {
  trim_spec ts = {0};
  ts.speed = speed;
  ts.fix_roll = 1;
  ts.roll = TRIM_FOLD_ASK;
  ts.gear = -1;
  trim_result tr;
  mt_err e = {0};
  if (trim_solve(v, &ts, &tr, &e) != MT_EINPUT || !tr.fold) return 0;
  *roll = fabs(tr.roll);
  if (ay) *ay = speed * fabs(tr.yaw_rate);   /* the last steady turn the continuation accepted */
  return tr.fold;
}

int trim_lean_fold(vehicle* v, double speed, double* roll) { return trim_turn_limit(v, speed, roll, NULL); }

vehicle* trim_upright_scratch(const rig* r, double speed, double min_rpm, trim_result* tr, mt_err* e) {
  vehicle* v = veh_new(r, (road){0}, 0, e);
  if (!v) {
    if (!e->code) mt_fail(e, MT_EINTERNAL, "trim: cannot make a scratch vehicle");
    return NULL;
  }
  trim_spec s = {0};
  s.speed = speed;
  s.fix_roll = 1;
  s.gear = -1;
  s.min_rpm = min_rpm;
  if (trim_solve(v, &s, tr, e) != MT_OK) {
    veh_free(v);
    return NULL;
  }
  return v;
}
