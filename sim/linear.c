/* linear.c — numerical linearisation of the vehicle (see linear.h). */
#include "sim/linear.h"
#include "sim/vehicle_mj.h"

#include <complex.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int lin_size(const vehicle* v) { return 2 * v->m->nv + v->m->na; }

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
  free(x0);
  (void)m;
  return rc;
}

static int cmp_mode(const void* a, const void* b) {
  const lin_mode *x = a, *y = b;
  if (x->freq_hz != y->freq_hz) return x->freq_hz < y->freq_hz ? -1 : 1;
  return x->re < y->re ? -1 : x->re > y->re;
}

int lin_modes(vehicle* v, double eps, lin_mode* modes, int max, mt_err* e) {
  int n = lin_size(v);
  double* A = malloc(sizeof(double) * (size_t)n * (4 * n + 2));
  double *wr = A + n * n, *wi = wr + n, *vr = wi + n;
  int k = -1;
  if (lin_jacobian(v, eps, A, e)) goto done;
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
