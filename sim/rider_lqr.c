/* rider_lqr.c — LQR steer-torque gains on the linearised machine (see rider_lqr.h). */
#include "sim/rider_lqr.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/linear.h"
#include "sim/trim.h"
#include "sim/vehicle.h"

static const double grid_v[RIDER_LQR_NV] = {15, 20, 25, 30, 35, 40, 45, 50, 55, 62};

void rider_lqr_default_weights(rider_lqr_weights* w) {
  w->roll = 1 / (0.02 * 0.02);
  w->roll_rate = 1 / (0.1 * 0.1);
  w->steer = 1 / (0.01 * 0.01);
  w->steer_rate = 1 / (0.2 * 0.2);
  w->tau_max = 30;
}

static int ends_with(const char* s, const char* tail) {
  size_t a = strlen(s), b = strlen(tail);
  return a >= b && !strcmp(s + a - b, tail);
}

static lapack_logical lhp(const double* re, const double* im) {
  (void)im;
  return *re < 0;
}

/* largest real part of M's eigenvalues; *zmin: smallest damping ratio of its oscillatory roots
 * (|im| > 0.5 rad/s) */
static double max_re(const double* M, int n, double* zmin) {
  double* a = malloc(sizeof(double) * n * n);
  double* wr = malloc(sizeof(double) * n);
  double* wi = malloc(sizeof(double) * n);
  memcpy(a, M, sizeof(double) * n * n);
  double mx = NAN;
  if (LAPACKE_dgeev(LAPACK_ROW_MAJOR, 'N', 'N', n, a, n, wr, wi, NULL, n, NULL, n) == 0) {
    mx = -INFINITY;
    double z = INFINITY;
    for (int i = 0; i < n; i++) {
      mx = fmax(mx, wr[i]);
      if (fabs(wi[i]) > 0.5) z = fmin(z, -wr[i] / hypot(wr[i], wi[i]));
    }
    if (zmin) *zmin = z;
  }
  free(a);
  free(wr);
  free(wi);
  return mx;
}

/* CARE AᵀX + XA − XBR⁻¹BᵀX + Q = 0 (single input, Q diagonal): K = R⁻¹BᵀX into K[n]. */
static int care(int n, const double* A, const double* B, const double* q, double r, double* K) {
  int N = 2 * n, rc = -1;
  double* H = calloc((size_t)N * N, sizeof(double));
  double* U = malloc(sizeof(double) * N * N);
  double* wr = malloc(sizeof(double) * N);
  double* wi = malloc(sizeof(double) * N);
  double* U11t = malloc(sizeof(double) * n * n);
  double* U21t = malloc(sizeof(double) * n * n);
  lapack_int* piv = malloc(sizeof(lapack_int) * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      H[i * N + j] = A[i * n + j];
      H[i * N + n + j] = -B[i] * B[j] / r;
      H[(n + i) * N + n + j] = -A[j * n + i];
    }
  for (int i = 0; i < n; i++) H[(n + i) * N + i] = -q[i];
  lapack_int sdim = 0;
  if (LAPACKE_dgees(LAPACK_ROW_MAJOR, 'V', 'S', lhp, N, H, N, &sdim, wr, wi, U, N) != 0 || sdim != n) goto done;
  /* X = U21·U11⁻¹  ⇔  U11ᵀ·X = U21ᵀ (X symmetric) */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      U11t[j * n + i] = U[i * N + j];
      U21t[j * n + i] = U[(n + i) * N + j];
    }
  if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, n, n, U11t, n, piv, U21t, n) != 0) goto done;
  for (int j = 0; j < n; j++) {
    double s = 0;
    for (int i = 0; i < n; i++) s += B[i] * 0.5 * (U21t[i * n + j] + U21t[j * n + i]);
    K[j] = s / r;
  }
  rc = 0;
done:
  free(H);
  free(U);
  free(wr);
  free(wi);
  free(U11t);
  free(U21t);
  free(piv);
  return rc;
}

int rider_lqr_build(const rig* r, const rider_lqr_weights* w, rider_lqr* out, mt_err* e) {
  memset(out, 0, sizeof *out);
  out->nv = RIDER_LQR_NV;
  for (int i = 0; i < out->nv; i++) out->v[i] = grid_v[i];
  vehicle* v = veh_new(r, (road){0}, 0, e);
  if (!v) return e->code ? e->code : MT_EINTERNAL;
  char steer_q[120], steer_qd[120], spin[3][120];
  snprintf(steer_q, sizeof steer_q, "q.%s", r->joint[r->j_steer].name);
  snprintf(steer_qd, sizeof steer_qd, "qd.%s", r->joint[r->j_steer].name);
  snprintf(spin[0], sizeof spin[0], "q.%s", r->j_front_spin >= 0 ? r->joint[r->j_front_spin].name : "-");
  snprintf(spin[1], sizeof spin[1], "q.%s", r->j_rear_spin >= 0 ? r->joint[r->j_rear_spin].name : "-");
  for (int i = 0; i < out->nv; i++) {
    trim_spec s = {0};
    s.speed = out->v[i];
    s.fix_roll = 1;
    s.gear = -1;
    trim_result tr;
    mt_err e2 = {0};
    if (trim_solve(v, &s, &tr, &e2) != MT_OK) continue;
    lin_spec sp = {0};
    lin_spec_add(&sp, LIN_INPUT, "steer_torque", 0);
    lin_model lm;
    if (lin_abcd(v, &sp, &lm, &e2) != MT_OK) {
      lin_spec_clear(&sp);
      continue;
    }
    lin_spec_clear(&sp);
    int n = lm.n, *keep = malloc(sizeof(int) * n), nk = 0;
    /* The frame's lateral velocity is a world coordinate: vy = v_lat + V·ψ (heading 0, small ψ),
     * and the tyres see v_lat. In (…, ψ, v_lat, …) the heading ψ is cyclic (flat road):
     * A ← T⁻¹·A·T with T = I + V·e_vy·e_ψᵀ, then ψ is left out with x and y. */
    int iy = -1, iz = -1;
    for (int j = 0; j < n; j++) {
      if (!strncmp(lm.x[j].name, "qd.", 3) && ends_with(lm.x[j].name, ".vy")) iy = j;
      if (!strncmp(lm.x[j].name, "q.", 2) && ends_with(lm.x[j].name, ".rz")) iz = j;
    }
    if (iy >= 0 && iz >= 0) {
      double V = out->v[i];
      for (int a = 0; a < n; a++) lm.A[a * n + iz] += V * lm.A[a * n + iy];   /* A·T */
      for (int b = 0; b < n; b++) lm.A[iy * n + b] -= V * lm.A[iz * n + b];   /* T⁻¹·(A·T) */
      lm.B[iy * lm.r] -= V * lm.B[iz * lm.r];
    }
    int meas[RIDER_LQR_NK];
    for (int k = 0; k < RIDER_LQR_NK; k++) meas[k] = -1;
    for (int j = 0; j < n; j++) {
      const char* nm = lm.x[j].name;
      /* the pure integrators: position on the road, heading, spin angles (wheels, crank) */
      if (!strncmp(nm, "q.", 2) && (ends_with(nm, ".x") || ends_with(nm, ".y") || ends_with(nm, ".rz"))) continue;
      if (!strcmp(nm, spin[0]) || !strcmp(nm, spin[1])) continue;
      if (!strncmp(nm, "q.", 2) && strstr(nm, "crank")) continue;
      int slot = -1;
      if (!strncmp(nm, "q.", 2) && ends_with(nm, ".rx")) slot = LQR_ROLL;
      else if (!strncmp(nm, "qd.", 3) && ends_with(nm, ".wx")) slot = LQR_ROLL_RATE;
      else if (!strncmp(nm, "qd.", 3) && ends_with(nm, ".wz")) slot = LQR_YAW_RATE;
      else if (!strncmp(nm, "qd.", 3) && ends_with(nm, ".vy")) slot = LQR_VLAT;
      else if (!strcmp(nm, steer_q)) slot = LQR_STEER;
      else if (!strcmp(nm, steer_qd)) slot = LQR_STEER_RATE;
      if (slot >= 0) meas[slot] = nk;
      keep[nk++] = j;
    }
    if (iz >= 0)   /* ψ must be cyclic for the states kept */
      for (int a = 0; a < nk; a++) out->heading_leak[i] = fmax(out->heading_leak[i], fabs(lm.A[keep[a] * n + iz]));
    int okm = 1;
    for (int k = 0; k < RIDER_LQR_NK; k++) okm &= meas[k] >= 0;
    double* Ar = malloc(sizeof(double) * nk * nk);
    double* Br = malloc(sizeof(double) * nk);
    double* q = calloc(nk, sizeof(double));
    double* Kr = calloc(nk, sizeof(double));
    double* Acl = malloc(sizeof(double) * nk * nk);
    for (int a = 0; a < nk; a++) {
      Br[a] = lm.B[keep[a] * lm.r];
      for (int b = 0; b < nk; b++) Ar[a * nk + b] = lm.A[keep[a] * n + keep[b]];
    }
    if (okm) {
      q[meas[LQR_ROLL]] = w->roll;
      q[meas[LQR_ROLL_RATE]] = w->roll_rate;
      q[meas[LQR_STEER]] = w->steer;
      q[meas[LQR_STEER_RATE]] = w->steer_rate;
    }
    /* every other state a tiny weight, so the Riccati solution is unique */
    for (int a = 0; a < nk; a++) q[a] += 1e-6;
    out->nstate[i] = nk;
    out->open_max_re[i] = max_re(Ar, nk, &out->open_zeta[i]);
    if (okm && care(nk, Ar, Br, q, 1 / (w->tau_max * w->tau_max), Kr) == 0) {
      for (int a = 0; a < nk; a++)
        for (int b = 0; b < nk; b++) Acl[a * nk + b] = Ar[a * nk + b] - Br[a] * Kr[b];
      out->full_max_re[i] = max_re(Acl, nk, &out->full_zeta[i]);
      for (int k = 0; k < RIDER_LQR_NK; k++) out->K[i][k] = Kr[meas[k]];
      memcpy(Acl, Ar, sizeof(double) * nk * nk);
      for (int a = 0; a < nk; a++)
        for (int k = 0; k < RIDER_LQR_NK; k++) Acl[a * nk + meas[k]] -= Br[a] * out->K[i][k];
      out->six_max_re[i] = max_re(Acl, nk, &out->six_zeta[i]);
      /* only roll, roll rate, steer, steer rate */
      memcpy(Acl, Ar, sizeof(double) * nk * nk);
      static const int four[4] = {LQR_ROLL, LQR_ROLL_RATE, LQR_STEER, LQR_STEER_RATE};
      for (int a = 0; a < nk; a++)
        for (int k = 0; k < 4; k++) Acl[a * nk + meas[four[k]]] -= Br[a] * out->K[i][four[k]];
      out->four_max_re[i] = max_re(Acl, nk, &out->four_zeta[i]);
      out->ok[i] = 1;
    }
    free(keep);
    free(Ar);
    free(Br);
    free(q);
    free(Kr);
    free(Acl);
    lin_model_free(&lm);
  }
  veh_free(v);
  return MT_OK;
}

void rider_lqr_measure(vehicle* v, double x[RIDER_LQR_NK]) {
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  rider_lqr_measure_at(v, roll, yaw, x);
}

void rider_lqr_measure_at(vehicle* v, double roll, double yaw, double x[RIDER_LQR_NK]) {
  rider_lqr_measure_cs(v, roll, cos(yaw), sin(yaw), x);
}

void rider_lqr_measure_cs(vehicle* v, double roll, double hx, double hy, double x[RIDER_LQR_NK]) {
  const rig* r = v->rig;
  double w[6];
  veh_body_twist(v, r->b_frame, w);   /* angular, linear; world axes */
  x[LQR_ROLL] = roll;
  x[LQR_ROLL_RATE] = w[0] * hx + w[1] * hy;
  x[LQR_YAW_RATE] = w[2];
  x[LQR_VLAT] = -w[3] * hy + w[4] * hx;
  x[LQR_STEER] = veh_q(v, r->j_steer);
  x[LQR_STEER_RATE] = veh_qd(v, r->j_steer);
}

void rider_lqr_gains(const rider_lqr* l, double V, double K[RIDER_LQR_NK]) {
  int i = 0;
  double u = 0;
  if (V <= l->v[0]) i = 0, u = 0;
  else if (V >= l->v[l->nv - 1]) i = l->nv - 2, u = 1;
  else {
    while (i < l->nv - 2 && V > l->v[i + 1]) i++;
    u = (V - l->v[i]) / (l->v[i + 1] - l->v[i]);
  }
  for (int k = 0; k < RIDER_LQR_NK; k++) K[k] = (1 - u) * l->K[i][k] + u * l->K[i + 1][k];
}
