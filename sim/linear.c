/* linear.c — numerical linearisation of the vehicle (see linear.h). */
#include "sim/linear.h"
#include "sim/vehicle_mj.h"

#include <complex.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int lin_size(const vehicle* v) { return 2 * v->m->nv + v->m->na; }

struct lin_keep {
  mjData* d;
  veh_out out;
  veh_input in;
  double act_dot[4], road_dz[2];
  double ext[VEH_MAX_MJBODY][6];
  int hint[2], ghint, chint[CONTACT_MAX];
};

lin_keep* lin_keep_save(const vehicle* v) {
  lin_keep* k = mt_alloc(sizeof *k);
  k->d = mj_makeData(v->m);
  mj_copyData(k->d, v->m, v->d);
  k->out = v->out;
  k->in = v->in;
  memcpy(k->act_dot, v->act_dot, sizeof k->act_dot);
  memcpy(k->road_dz, v->road_dz, sizeof k->road_dz);
  memcpy(k->ext, v->ext, sizeof k->ext);
  memcpy(k->hint, v->hint, sizeof k->hint);
  k->ghint = v->ground_hint;
  memcpy(k->chint, v->contact_hint, sizeof k->chint);
  return k;
}

void lin_keep_put(vehicle* v, lin_keep* k) {
  mj_copyData(v->d, v->m, k->d);
  v->out = k->out;
  v->in = k->in;
  memcpy(v->act_dot, k->act_dot, sizeof k->act_dot);
  memcpy(v->road_dz, k->road_dz, sizeof k->road_dz);
  memcpy(v->ext, k->ext, sizeof k->ext);
  memcpy(v->hint, k->hint, sizeof k->hint);
  v->ground_hint = k->ghint;
  memcpy(v->contact_hint, k->chint, sizeof k->chint);
  mj_deleteData(k->d);
  free(k);
}

/* x ⊕ dx: the state x0 moved by the tangent vector dx (into qpos/qvel/act of v). */
static void apply(vehicle* v, const double* x0, const double* dx) {
  const mjModel* m = v->m;
  veh_set_state(v, x0);
  mj_integratePos(m, v->d->qpos, dx, 1.0);
  for (int i = 0; i < m->nv; i++) v->d->qvel[i] += dx[m->nv + i];
  for (int i = 0; i < m->na; i++) v->d->act[i] += dx[2 * m->nv + i];
}

/* Tangent difference of v's state from the reference x (qpos part by differentiatePos). */
static void tangent(const vehicle* v, const double* xr, double* out) {
  const mjModel* m = v->m;
  mj_differentiatePos(m, out, 1.0, xr, v->d->qpos);
  for (int i = 0; i < m->nv; i++) out[m->nv + i] = v->d->qvel[i] - xr[m->nq + i];
  for (int i = 0; i < m->na; i++) out[2 * m->nv + i] = v->d->act[i] - xr[m->nq + m->nv + i];
}

int lin_jacobian(vehicle* v, double eps, double* A, mt_err* e) {
  const mjModel* m = v->m;
  int n = lin_size(v), ns = veh_state_size(v);
  if (!(eps > 0)) eps = 1e-6;
  double* x0 = malloc(sizeof(double) * (ns + 2 * n + ns));
  double *dx = x0 + ns, *col = dx + n, *xr = col + n;
  veh_get_state(v, x0);
  lin_keep* keep = lin_keep_save(v);
  double t0 = v->d->time;
  veh_input in0 = v->in;
  veh_control_fn ctl = v->control;
  v->control = NULL;
  int rc = MT_OK;
  /* the reference end state: one step from x0 */
  veh_set_state(v, x0);
  if ((rc = veh_step(v, e))) goto done;
  veh_get_state(v, xr);
  for (int j = 0; j < n && !rc; j++) {
    for (int s = 0; s < 2 && !rc; s++) {
      memset(dx, 0, sizeof(double) * n);
      dx[j] = s ? -eps : eps;
      apply(v, x0, dx);
      v->d->time = t0;
      v->in = in0;
      if ((rc = veh_step(v, e))) break;
      tangent(v, xr, s ? dx : col);   /* + in col, − in dx */
    }
    if (!rc)
      for (int i = 0; i < n; i++) A[i * n + j] = (col[i] - dx[i]) / (2 * eps);
  }
done:
  veh_set_state(v, x0);
  v->d->time = t0;
  v->in = in0;
  v->control = ctl;
  veh_forward(v);          /* derived quantities (xpos, v->out, ...) of x0 again ... */
  veh_set_state(v, x0);    /* ... and x0 bit for bit (mj_forward renormalises the quaternion) */
  lin_keep_put(v, keep);   /* ... and all the rest a step reads (lin_keep) */
  free(x0);
  (void)m;
  return rc;
}

/*---- the closed loop's one-step map ----*/

/* Everything a step reads besides the state and the controller: put back after each step. */
typedef struct step_ctx {
  double t0;
  veh_input in0;
  int hint[2], ghint, chint[CONTACT_MAX];
} step_ctx;

static void ctx_save(const vehicle* v, step_ctx* c) {
  c->t0 = v->d->time;
  c->in0 = v->in;
  memcpy(c->hint, v->hint, sizeof c->hint);
  c->ghint = v->ground_hint;
  memcpy(c->chint, v->contact_hint, sizeof c->chint);
}

static void ctx_put(vehicle* v, const step_ctx* c) {
  v->d->time = c->t0;
  v->in = c->in0;
  memcpy(v->hint, c->hint, sizeof c->hint);
  v->ground_hint = c->ghint;
  memcpy(v->contact_hint, c->chint, sizeof c->chint);
}

/* One closed-loop step from x0 ⊕ dx[0..n) with the controller's states at c0 + dx[n..): the
 * machine evaluated there first (the kinematics and contacts the controller reads: in a ride
 * they are the last step's, one step older), then veh_step. Its limits into *lim. */
static int loop_step(vehicle* v, const lin_loop* L, const step_ctx* cx, const double* x0, const double* c0,
                     const double* dx, double* cs, unsigned* lim, mt_err* e) {
  int n = lin_size(v);
  apply(v, x0, dx);
  ctx_put(v, cx);
  L->restore(L->data);
  for (int k = 0; k < L->nc; k++) cs[k] = c0[k] + dx[n + k];
  L->set(L->data, cs);
  veh_forward(v);
  int rc = veh_step(v, e);
  *lim = L->limits(L->data);
  return rc;
}

/* Column j of the closed loop's step map by ±eps; col/out: the + and − ends (tangent, then the
 * controller's states). */
static int loop_column(vehicle* v, const lin_loop* L, const step_ctx* cx, const double* x0, const double* c0,
                       const double* xr, const double* cr, unsigned lim0, int j, double eps, double* dx, double* col,
                       double* cs, mt_err* e) {
  int n = lin_size(v), N = n + L->nc, rc = MT_OK;
  for (int sg = 0; sg < 2 && !rc; sg++) {
    double* out = sg ? dx + N : col;
    memset(dx, 0, sizeof(double) * N);
    dx[j] = sg ? -eps : eps;
    unsigned lim;
    if ((rc = loop_step(v, L, cx, x0, c0, dx, cs, &lim, e))) break;
    if (lim != lim0)
      rc = mt_fail(e, MT_EINPUT, "linearise: closed loop: a perturbation switches the rider's %s %s (the loop is not "
                   "smooth here: linearise open loop, or where the rider is clear of its limits)",
                   L->limit_name(lim ^ lim0), (lim & ~lim0) ? "on" : "off");
    tangent(v, xr, out);
    L->get(L->data, out + n);
    for (int k = 0; k < L->nc; k++) out[n + k] -= cr[k];
  }
  return rc;
}

int lin_jacobian_loop(vehicle* v, const lin_loop* L, double eps, double* A, mt_err* e) {
  if (!v->control) return mt_fail(e, MT_EINPUT, "linearise: closed loop: the machine has no controller (no rider)");
  int n = lin_size(v), ns = veh_state_size(v), N = n + L->nc;
  if (!(eps > 0)) eps = 1e-6;
  double* x0 = malloc(sizeof(double) * (2 * ns + 3 * N + 3 * L->nc + 1));
  double *xr = x0 + ns, *dx = xr + ns, *col = dx + 2 * N, *c0 = col + N, *cr = c0 + L->nc, *cs = cr + L->nc;
  veh_get_state(v, x0);
  lin_keep* keep = lin_keep_save(v);
  step_ctx cx;
  ctx_save(v, &cx);
  L->save(L->data);
  L->get(L->data, c0);
  /* the reference: one step from the operating point, clear of every limit */
  unsigned lim0;
  memset(dx, 0, sizeof(double) * N);
  int rc = loop_step(v, L, &cx, x0, c0, dx, cs, &lim0, e);
  if (!rc && lim0)
    rc = mt_fail(e, MT_EINPUT, "linearise: closed loop: the rider's %s is at its limit here (a saturated loop has "
                 "no gain: linearise open loop, or where the rider is clear of its limits)", L->limit_name(lim0));
  veh_get_state(v, xr);
  L->get(L->data, cr);
  for (int j = 0; j < N && !rc; j++) {
    rc = loop_column(v, L, &cx, x0, c0, xr, cr, lim0, j, eps, dx, col, cs, e);
    for (int i = 0; i < N && !rc; i++) A[(size_t)i * N + j] = (col[i] - dx[N + i]) / (2 * eps);
  }
  veh_set_state(v, x0);
  ctx_put(v, &cx);
  L->restore(L->data);
  veh_forward(v);          /* derived quantities (xpos, v->out, ...) of x0 again ... */
  veh_set_state(v, x0);    /* ... and x0 bit for bit (mj_forward renormalises the quaternion) */
  lin_keep_put(v, keep);   /* ... and all the rest a step reads (lin_keep) */
  free(x0);
  return rc;
}

typedef struct root { double re, im; } root;
static int cmp_root(const void* a, const void* b) {
  const root *x = a, *y = b;
  if (x->im != y->im) return x->im < y->im ? -1 : 1;
  return x->re < y->re ? -1 : x->re > y->re;
}

int lin_step_roots(const double* A, int n, double h, double* re, double* im, mt_err* e) {
  double* W = malloc(sizeof(double) * ((size_t)n * n + 2 * n));
  double *wr = W + (size_t)n * n, *wi = wr + n;
  memcpy(W, A, sizeof(double) * (size_t)n * n);
  int k = -1;
  if (LAPACKE_dgeev(LAPACK_ROW_MAJOR, 'N', 'N', n, W, n, wr, wi, NULL, n, NULL, n) != 0) {
    mt_fail(e, MT_EINTERNAL, "linearise: the eigenvalue solve of the step map failed");
  } else {
    root* r = (root*)W;   /* n roots fit in the n×n block (n ≥ 2) */
    k = 0;
    for (int i = 0; i < n; i++) {
      double complex lam = wr[i] + I * wi[i];
      if (wi[i] < 0 || cabs(lam) < 1e-300) continue;
      double complex s = clog(lam) / h;
      r[k++] = (root){creal(s), fabs(cimag(s))};
    }
    qsort(r, k, sizeof *r, cmp_root);
    for (int i = 0; i < k; i++) re[i] = r[i].re, im[i] = r[i].im;
  }
  free(W);
  return k;
}

static int cmp_mode(const void* a, const void* b) {
  const lin_mode *x = a, *y = b;
  if (x->freq_hz != y->freq_hz) return x->freq_hz < y->freq_hz ? -1 : 1;
  return x->re < y->re ? -1 : x->re > y->re;
}

int lin_modes(vehicle* v, double eps, lin_mode* modes, int max, mt_err* e) {
  return lin_modes_loop(v, NULL, eps, modes, max, e);
}

int lin_modes_loop(vehicle* v, const lin_loop* L, double eps, lin_mode* modes, int max, mt_err* e) {
  /* n: the size of the step map (the closed loop's controller states after the machine's); the
   * joints' rows are the machine's, the same in both */
  int n = lin_size(v) + (L ? L->nc : 0);
  double* A = malloc(sizeof(double) * (size_t)n * (4 * n + 2));
  double *wr = A + n * n, *wi = wr + n, *vr = wi + n;
  int k = -1;
  if (L ? lin_jacobian_loop(v, L, eps, A, e) : lin_jacobian(v, eps, A, e)) goto done;
  if (LAPACKE_dgeev(LAPACK_ROW_MAJOR, 'N', 'V', n, A, n, wr, wi, NULL, n, vr, n) != 0) {
    mt_fail(e, MT_EINTERNAL, "lin_modes: the eigenvalue solve failed");
    goto done;
  }
  const rig* r = v->rig;
  double h = r->timestep;
  k = 0;
  for (int i = 0; i < n && k < max; i++) {
    if (wi[i] < 0) continue;                     /* one of each conjugate pair */
    double complex lam = wr[i] + I * wi[i];
    if (cabs(lam) < 1e-300) continue;
    double complex s = clog(lam) / h;
    lin_mode* md = &modes[k++];
    memset(md, 0, sizeof *md);
    md->re = creal(s);
    md->im = fabs(cimag(s));
    md->freq_hz = md->im / (2 * MT_PI);
    double mag = cabs(s);
    md->damping = mag > 0 ? -md->re / mag : 0;
    /* joint shares of the velocity block: eigenvector column i (and i+1 for a pair) */
    double tot = 0;
    for (int j = 0; j < r->njoint; j++) {
      if (r->joint[j].type == RIG_FREE) continue;
      int row = v->m->nv + v->dadr[j];
      double re = vr[row * n + i], im = wi[i] > 0 ? vr[row * n + i + 1] : 0;
      md->share[j] = hypot(re, im);
      tot += md->share[j];
    }
    if (tot > 0)
      for (int j = 0; j < r->njoint; j++) md->share[j] /= tot;
  }
  qsort(modes, k, sizeof *modes, cmp_mode);
done:
  free(A);
  return k;
}
