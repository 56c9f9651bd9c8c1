/* rider_trim.c — the rider's table of steady turns (see rider_trim.h). */
#include "sim/rider_trim.h"

#include <math.h>
#include <string.h>

#include "sim/rider_lqr.h"
#include "sim/trim.h"
#include "sim/tyre.h"
#include "sim/vehicle.h"

int rider_trims_warm = 1;

static const double grid_v[RIDER_TRIM_NV] = {6, 9, 13, 18, 24, 31, 40, 52, 68};

int rider_trims_build(const rig* r, const posture_params* pp, rider_trims* t, mt_err* e) {
  memset(t, 0, sizeof *t);
  t->nv = RIDER_TRIM_NV;
  t->nl = RIDER_TRIM_NL;
  for (int i = 0; i < t->nv; i++) t->v[i] = grid_v[i];
  for (int j = 0; j < t->nl; j++) t->lean[j] = j * 5.0 * MT_PI / 180;
  vehicle* v = veh_new(r, (road){0}, 0, e);
  if (!v) return e->code ? e->code : MT_EINTERNAL;
  for (int i = 0; i < t->nv; i++) {
    t->ok[i][0] = 1;   /* upright: straight on, no torque */
    /* Each lean is solved from the last accepted lean's trim at this speed (trim_spec.start:
     * 5 degrees away, a few Gauss–Newton iterations), the rider central from the rider central
     * and the rider in posture from the rider in posture (the first lean's from its own trim
     * with the rider central); trim_solve falls back to its continuation from upright when a
     * start leads nowhere acceptable. Solved each from upright, the table cost a Laguna lap's
     * run more than its ride (docs/speed.md). */
    double last[TRIM_NU], last_post[TRIM_NU];   /* the last accepted lean's trims: rider central, in posture */
    int have_last = 0, have_post = 0;
    for (int j = 1; j < t->nl; j++) {
      trim_spec s = {0};
      s.speed = t->v[i];
      s.fix_roll = 1;
      s.roll = t->lean[j];
      s.gear = -1;
      s.start = have_last && rider_trims_warm ? last : NULL;
      trim_result tr;
      double u_first[TRIM_NU];   /* this lean's trim with the rider central */
      mt_err e2 = {0};
      for (int k = 0; k < RIG_NPOSTURE; k++) v->in.posture[k] = 0;
      int ok = trim_solve(v, &s, &tr, &e2) == MT_OK && fabs(tr.yaw_rate) > 0;
      t->iterations += tr.iterations;
      t->evaluations += tr.evaluations;
      if (ok && pp) {   /* again, with the rider where this turn's lateral acceleration puts them */
        posture_situation x = {t->v[i], t->v[i] * tr.yaw_rate, 0};
        posture_targets(pp, &x, v->in.posture);
        int moved = 0;
        for (int k = 0; k < RIG_NPOSTURE; k++) moved |= v->in.posture[k] != 0;
        memcpy(u_first, tr.u, sizeof u_first);
        s.start = !rider_trims_warm ? NULL : have_post ? last_post : u_first;
        if (moved) {
          ok = trim_solve(v, &s, &tr, &e2) == MT_OK && fabs(tr.yaw_rate) > 0;
          t->iterations += tr.iterations;
          t->evaluations += tr.evaluations;
        }
      }
      /* A steady turn found far off the trend of the two solved leans below (torque off the
       * straight line through them by more than 10 N·m, or no more curvature than the lean
       * below) is another branch of the solution (seen near the tyres' limit): left out, and
       * filled below like a failed solve. */
      int a = -1, b = -1;
      for (int k = j - 1; k >= 1 && b < 0; k--)
        if (t->ok[i][k]) {
          if (a < 0) a = k;
          else b = k;
        }
      if (ok && a >= 1 && b >= 1) {
        double lin = t->tau[i][a] + (t->tau[i][a] - t->tau[i][b]) * (j - a) / (double)(a - b);
        if (fabs(tr.steer_torque - lin) > 10 || fabs(tr.yaw_rate) / t->v[i] <= t->kappa[i][a]) ok = 0;
      }
      if (ok) {
        memcpy(last, pp ? u_first : tr.u, sizeof last);
        have_last = 1;
        if (pp) {
          memcpy(last_post, tr.u, sizeof last_post);
          have_post = 1;
        }
        t->kappa[i][j] = fabs(tr.yaw_rate) / t->v[i];
        t->tau[i][j] = tr.steer_torque;
        t->steer[i][j] = tr.steer_angle;
        double x[RIDER_LQR_NK];
        rider_lqr_measure(v, x);
        t->yawr[i][j] = x[LQR_YAW_RATE];
        t->vlat[i][j] = x[LQR_VLAT];
        t->ok[i][j] = 1;
        t->nsolved++;
      }
    }
    /* fill the gaps along the lean: interpolate between solved points, extrapolate beyond */
    for (int j = 1; j < t->nl; j++) {
      if (t->ok[i][j]) continue;
      int a = -1, b = -1;
      for (int k = j - 1; k >= 0 && a < 0; k--)
        if (t->ok[i][k]) a = k;
      for (int k = j + 1; k < t->nl && b < 0; k++)
        if (t->ok[i][k]) b = k;
      if (b < 0) {   /* beyond the last solved lean: continue the last two solved points' slope */
        b = a;
        for (int k = a - 1; k >= 0 && b == a; k--)
          if (t->ok[i][k]) a = k;
      }
      if (a < 0 || b < 0 || a == b) {   /* nothing to lean on: the gravity balance, no torque */
        t->kappa[i][j] = MT_G * tan(t->lean[j]) / (t->v[i] * t->v[i]);
        t->tau[i][j] = 0;
        t->steer[i][j] = 0;
        t->yawr[i][j] = -MT_G * tan(t->lean[j]) / t->v[i];
        t->vlat[i][j] = 0;
        continue;
      }
      double u = (t->lean[j] - t->lean[a]) / (t->lean[b] - t->lean[a]);
      t->kappa[i][j] = t->kappa[i][a] + u * (t->kappa[i][b] - t->kappa[i][a]);
      t->tau[i][j] = t->tau[i][a] + u * (t->tau[i][b] - t->tau[i][a]);
      t->steer[i][j] = t->steer[i][a] + u * (t->steer[i][b] - t->steer[i][a]);
      t->yawr[i][j] = t->yawr[i][a] + u * (t->yawr[i][b] - t->yawr[i][a]);
      t->vlat[i][j] = t->vlat[i][a] + u * (t->vlat[i][b] - t->vlat[i][a]);
    }
    /* curvature must rise with lean for the inverse lookup */
    for (int j = 1; j < t->nl; j++)
      if (t->kappa[i][j] <= t->kappa[i][j - 1]) t->kappa[i][j] = t->kappa[i][j - 1] * 1.0001 + 1e-9;
  }
  veh_free(v);
  return MT_OK;
}

static void speed_cell(const rider_trims* t, double V, int* i, double* u) {
  if (V <= t->v[0]) {
    *i = 0;
    *u = 0;
    return;
  }
  if (V >= t->v[t->nv - 1]) {
    *i = t->nv - 2;
    *u = 1;
    return;
  }
  int k = 0;
  while (k < t->nv - 2 && V > t->v[k + 1]) k++;
  *i = k;
  *u = (V - t->v[k]) / (t->v[k + 1] - t->v[k]);
}

static double roll_in_cell(const rider_trims* t, int i, double u, double V, double kappa);

double rider_trims_roll(const rider_trims* t, double V, double kappa) {
  int i;
  double u;
  speed_cell(t, V, &i, &u);
  return roll_in_cell(t, i, u, V, kappa);
}

void rider_trims_cell(const rider_trims* t, double V, rider_trim_cell* c) { speed_cell(t, V, &c->i, &c->u); }

const rider_trim_cell* rider_trims_cell_at_least(const rider_trims* t, const rider_trim_cell* c_speed, double V,
                                                 double vmin, rider_trim_cell* scratch) {
  double Vs = fmax(V, vmin);
  if (Vs == V) return c_speed;   /* equal and not zero (vmin > 0 in use): the same bits, the same cell */
  rider_trims_cell(t, Vs, scratch);
  return scratch;
}

double rider_trims_roll_in(const rider_trims* t, const rider_trim_cell* c, double V, double kappa) {
  return roll_in_cell(t, c->i, c->u, V, kappa);
}

void rider_trims_roll_pair_in(const rider_trims* t, const rider_trim_cell* c, double V, double kappa_lo,
                              double kappa_hi, double* roll_lo, double* roll_hi) {
  *roll_lo = roll_in_cell(t, c->i, c->u, V, kappa_lo);
  *roll_hi = roll_in_cell(t, c->i, c->u, V, kappa_hi);
}

void rider_trims_roll_pair(const rider_trims* t, double V, double kappa_lo, double kappa_hi, double* roll_lo,
                           double* roll_hi) {
  int i;
  double u;
  speed_cell(t, V, &i, &u);
  *roll_lo = roll_in_cell(t, i, u, V, kappa_lo);
  *roll_hi = roll_in_cell(t, i, u, V, kappa_hi);
}

static double roll_in_cell(const rider_trims* t, int i, double u, double V, double kappa) {
  double k = fabs(kappa);
  /* Curvatures scale as 1/V² at a fixed lean (gravity balance): interpolate κ·V² across speed. */
  double vi = t->v[i], vj = t->v[i + 1], V2 = V > 1 ? V * V : 1;
#define KAP(j) (((1 - u) * t->kappa[i][j] * vi * vi + u * t->kappa[i + 1][j] * vj * vj) / V2)
  int j = 1;
  while (j < t->nl - 1 && KAP(j) < k) j++;   /* beyond the table: continue the last segment */
  double prev = KAP(j - 1), cur = KAP(j);
#undef KAP
  double phi = t->lean[j - 1] + (k - prev) / (cur - prev) * (t->lean[j] - t->lean[j - 1]);
  return kappa > 0 ? -phi : phi;   /* a left turn leans left: negative ISO roll */
}

/* the lean cell of `roll`: column j and the weight w within it */
static void lean_cell(const rider_trims* t, double roll, int* j, double* w) {
  double phi = fabs(roll), f = phi / (t->lean[1] - t->lean[0]);
  if (!(f >= 0)) f = 0;   /* NaN: no lean */
  *j = (int)floor(f);
  if (*j > t->nl - 2) *j = t->nl - 2;
  *w = f - *j;   /* > 1 beyond the table: linear extrapolation */
}

static double in_cells(double (*tab)[RIDER_TRIM_NL], int i, double u, int j, double w, double roll) {
  double a = tab[i][j] + w * (tab[i][j + 1] - tab[i][j]);
  double b = tab[i + 1][j] + w * (tab[i + 1][j + 1] - tab[i + 1][j]);
  double val = (1 - u) * a + u * b;
  return roll >= 0 ? val : -val;
}

static double lookup(const rider_trims* t, double (*tab)[RIDER_TRIM_NL], double V, double roll) {
  int i, j;
  double u, w;
  speed_cell(t, V, &i, &u);
  lean_cell(t, roll, &j, &w);
  return in_cells(tab, i, u, j, w, roll);
}

void rider_trims_turn(const rider_trims* t, double V, double roll, double roll_t, double* yaw_rate, double* vlat,
                      double* steer, double* torque) {
  rider_trim_cell c;
  rider_trims_cell(t, V, &c);
  rider_trims_turn_in(t, &c, roll, roll_t, yaw_rate, vlat, steer, torque);
}

void rider_trims_turn_in(const rider_trims* t, const rider_trim_cell* c, double roll, double roll_t, double* yaw_rate,
                         double* vlat, double* steer, double* torque) {
  int i = c->i, j;
  double u = c->u, w;
  lean_cell(t, roll, &j, &w);
  *yaw_rate = in_cells((double (*)[RIDER_TRIM_NL])t->yawr, i, u, j, w, roll);
  *vlat = in_cells((double (*)[RIDER_TRIM_NL])t->vlat, i, u, j, w, roll);
  *steer = in_cells((double (*)[RIDER_TRIM_NL])t->steer, i, u, j, w, roll);
  lean_cell(t, roll_t, &j, &w);
  *torque = in_cells((double (*)[RIDER_TRIM_NL])t->tau, i, u, j, w, roll_t);
}

double rider_trims_torque(const rider_trims* t, double V, double roll) { return lookup(t, (double (*)[RIDER_TRIM_NL])t->tau, V, roll); }
double rider_trims_steer(const rider_trims* t, double V, double roll) { return lookup(t, (double (*)[RIDER_TRIM_NL])t->steer, V, roll); }

double rider_trims_yaw_rate(const rider_trims* t, double V, double roll) { return lookup(t, (double (*)[RIDER_TRIM_NL])t->yawr, V, roll); }
double rider_trims_vlat(const rider_trims* t, double V, double roll) { return lookup(t, (double (*)[RIDER_TRIM_NL])t->vlat, V, roll); }

void rider_tyre_peaks(const rig* r, double* mu_y, double* mu_x) {
  *mu_y = *mu_x = INFINITY;
  for (int w = 0; w < 2; w++) {
    const tyre_params* tp = &r->wheel[w].tyre;
    double fz = tp->Fz0, my = 0, mx = 0;
    tyre_forces_t f;
    /* lateral: slip angles ±30° (0.1° steps) at cambers 0..60° (a leaning tyre turns mostly
     * by camber, which brings the force to its peak factor sooner) */
    for (int c = 0; c <= 12; c++)
      for (int k = -300; k <= 300; k++) {
        tyre_forces(tp, fz, 0, k * 0.1 * MT_PI / 180, c * 5.0 * MT_PI / 180, &f);
        my = fmax(my, fabs(f.fy) / fz);
      }
    for (int k = 1; k <= 600; k++) {   /* longitudinal: slip ratios up to 0.6 */
      tyre_forces(tp, fz, k * 0.001, 0, 0, &f);
      mx = fmax(mx, fabs(f.fx) / fz);
    }
    *mu_y = fmin(*mu_y, my);
    *mu_x = fmin(*mu_x, mx);
  }
}
