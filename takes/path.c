/* path.c — rider's line and speed profile (see path.h). */
#include "takes/path.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include "base/angle.h"
#include "base/mt.h"

/* The road's vertical curvature is the change of grade over ±PATH_KV_HALF m (over ±10 m the
 * crest before Laguna's Corkscrew read too gentle: at 33 m/s both wheels' loads fell below 300 N
 * and the landing set off a 1.1–1.3 g lateral spike); over a crest the QSS profile keeps at least
 * 1 − PATH_CREST_LOAD of the weight on the tyres. */
#define PATH_KV_HALF 6.0
#define PATH_CREST_LOAD 0.5

static int idx(const path* p, int i) {
  if (i >= 0 && i < p->n) return i;   /* the common case, without the divisions */
  if (p->closed) return ((i % p->n) + p->n) % p->n;
  return i < 0 ? 0 : i >= p->n ? p->n - 1 : i;
}

/* Positions, headings and curvatures from the offsets. */
static void geometry(path* p, const path_road* rd) {
  for (int i = 0; i < p->n; i++) {
    double cx, cy, h;
    rd->centre(rd->self, p->s[i], &cx, &cy, &h);
    p->x[i] = cx - sin(h) * p->off[i];
    p->y[i] = cy + cos(h) * p->off[i];
  }
  for (int i = 0; i < p->n; i++) {
    int a = idx(p, i - 1), b = idx(p, i + 1);
    if (a == i) a = i, b = idx(p, i + 1);
    double dx = p->x[b] - p->x[a], dy = p->y[b] - p->y[a];
    p->hd[i] = atan2(dy, dx);
  }
  for (int i = 0; i < p->n; i++) {
    int a = idx(p, i - 1), b = idx(p, i + 1);
    double d1x = p->x[i] - p->x[a], d1y = p->y[i] - p->y[a];
    double d2x = p->x[b] - p->x[i], d2y = p->y[b] - p->y[i];
    double l1 = hypot(d1x, d1y), l2 = hypot(d2x, d2y);
    if (a == i || b == i || l1 < 1e-9 || l2 < 1e-9) {
      p->k[i] = 0;
      continue;
    }
    /* turning angle over the mean chord: curvature, positive = left */
    double turn = mt_wrap_angle(atan2(d2y, d2x) - atan2(d1y, d1x));
    p->k[i] = turn / (0.5 * (l1 + l2));
  }
}

/* Minimum-curvature line. For a line P(s) = C(s) + o(s)·N(s) offset from the centre line C
 * (curvature κc), to first order κ(s) = κc + o'' + κc²·o. Minimising Σ κ² over coarse samples
 * (every ~5 m) is then a quadratic programme in the offsets with box constraints (the track's
 * edges less a margin), solved by an active-set method with LAPACK's Cholesky solver on the free
 * offsets. (Minimising squared second differences of the positions instead would give the
 * *shortest* line, which cuts inside; racing lines minimise curvature so the speed can rise.)
 * The coarse offsets are then interpolated onto the path's samples. */
static void racing_line(path* p, const path_road* rd, const double* lo_f, const double* hi_f) {
  int m = (int)ceil(p->length / 5.0);
  if (!p->closed) m++;
  if (m < 8) return;
  if (m > 2000) m = 2000;
  double dsc = p->closed ? p->length / m : p->length / (m - 1);
  double *kc = mt_alloc(sizeof(double) * m), *lo = mt_alloc(sizeof(double) * m), *hi = mt_alloc(sizeof(double) * m);
  double *cx = mt_alloc(sizeof(double) * m), *cy = mt_alloc(sizeof(double) * m), *o = mt_alloc(sizeof(double) * m);
  for (int j = 0; j < m; j++) {
    double h;
    rd->centre(rd->self, j * dsc, &cx[j], &cy[j], &h);
    /* bounds from the fine samples nearest this station */
    int fi = (int)lround(j * dsc / p->ds);
    if (fi >= p->n) fi = p->closed ? fi % p->n : p->n - 1;
    lo[j] = lo_f[fi];
    hi[j] = hi_f[fi];
  }
  for (int j = 0; j < m; j++) {
    int a = j - 1, b = j + 1;
    if (p->closed) {
      a = (a + m) % m;
      b = b % m;
    } else if (a < 0 || b >= m) {
      kc[j] = 0;
      continue;
    }
    double ux = cx[j] - cx[a], uy = cy[j] - cy[a], vx = cx[b] - cx[j], vy = cy[b] - cy[j];
    double wx = cx[b] - cx[a], wy = cy[b] - cy[a];
    double den = sqrt((ux * ux + uy * uy) * (vx * vx + vy * vy) * (wx * wx + wy * wy));
    kc[j] = den > 0 ? 2 * (ux * vy - uy * vx) / den : 0;
  }
  /* A: κ = kc + A·o ; H = AᵀA + εI ; g0 = Aᵀkc */
  double* A = mt_alloc(sizeof(double) * m * m);
  double inv = 1 / (dsc * dsc);
  for (int j = 0; j < m; j++) {
    if (!p->closed && (j == 0 || j == m - 1)) continue;
    int a = (j - 1 + m) % m, b = (j + 1) % m;
    A[j * m + a] += inv;
    A[j * m + b] += inv;
    A[j * m + j] += -2 * inv + kc[j] * kc[j];
  }
  double* H = mt_alloc(sizeof(double) * m * m);
  double* g0 = mt_alloc(sizeof(double) * m);
  for (int r = 0; r < m; r++) {
    for (int c = 0; c < m; c++) {
      double sum = 0;
      /* A is banded: only rows within ±2 of both r and c contribute */
      for (int k = -2; k <= 2; k++) {
        int j = r + k;
        if (p->closed) j = (j + m) % m;
        else if (j < 0 || j >= m) continue;
        sum += A[j * m + r] * A[j * m + c];
      }
      H[r * m + c] = sum;
    }
    H[r * m + r] += 1e-9 * inv * inv;   /* keeps the free system definite */
    double sum = 0;
    for (int k = -1; k <= 1; k++) {
      int j = r + k;
      if (p->closed) j = (j + m) % m;
      else if (j < 0 || j >= m) continue;
      sum += A[j * m + r] * kc[j];
    }
    g0[r] = sum;
  }
  /* active set: state 0 free, −1 at lower bound, +1 at upper bound */
  int* st = mt_alloc(sizeof(int) * m);
  int* fr = mt_alloc(sizeof(int) * m);
  double* Hf = mt_alloc(sizeof(double) * m * m);
  double* rhs = mt_alloc(sizeof(double) * m);
  for (int it = 0; it < 60; it++) {
    int nf = 0;
    for (int j = 0; j < m; j++) {
      if (st[j] == 0) fr[nf++] = j;
      else o[j] = st[j] < 0 ? lo[j] : hi[j];
    }
    for (int a = 0; a < nf; a++) {
      double sum = -g0[fr[a]];
      for (int j = 0; j < m; j++)
        if (st[j] != 0) sum -= H[fr[a] * m + j] * o[j];
      rhs[a] = sum;
      for (int b = 0; b < nf; b++) Hf[a * nf + b] = H[fr[a] * m + fr[b]];
    }
    if (nf > 0 && LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', nf, 1, Hf, nf, rhs, 1) != 0) break;
    for (int a = 0; a < nf; a++) o[fr[a]] = rhs[a];
    int changed = 0;
    for (int j = 0; j < m; j++) {
      if (st[j] == 0 && o[j] < lo[j] - 1e-9) st[j] = -1, changed = 1;
      else if (st[j] == 0 && o[j] > hi[j] + 1e-9) st[j] = 1, changed = 1;
    }
    if (!changed) {
      /* release bounds whose gradient pulls inward */
      for (int j = 0; j < m; j++) {
        if (st[j] == 0) continue;
        double g = g0[j];
        for (int k = 0; k < m; k++) g += H[j * m + k] * o[k];
        if ((st[j] < 0 && g < -1e-12) || (st[j] > 0 && g > 1e-12)) st[j] = 0, changed = 1;
      }
    }
    if (!changed) break;
  }
  for (int j = 0; j < m; j++) o[j] = mt_clamp(o[j], lo[j], hi[j]);
  for (int i = 0; i < p->n; i++) {
    double f = p->s[i] / dsc;
    int j = (int)floor(f);
    double u = f - j;
    int j1 = j + 1;
    if (p->closed) {
      j %= m;
      j1 %= m;
    } else {
      if (j >= m - 1) j = m - 2;
      j1 = j + 1;
      u = f - j;
    }
    p->off[i] = mt_clamp(o[j] * (1 - u) + o[j1] * u, lo_f[i], hi_f[i]);
  }
  free(kc);
  free(lo);
  free(hi);
  free(cx);
  free(cy);
  free(o);
  free(A);
  free(H);
  free(g0);
  free(st);
  free(fr);
  free(Hf);
  free(rhs);
}

/* The chords path_locate projects onto, each once (issue 18: it computed the one it needed,
 * with a division, a square root and an atan2, at every step). */
static void path_chords(path* p) {
  p->seg = mt_alloc(sizeof(double) * PATH_SEG_N * p->n);
  for (int a = 0; a < p->n; a++) {
    int b = idx(p, a + 1);
    double* c = p->seg + PATH_SEG_N * a;
    double ex = p->x[b] - p->x[a], ey = p->y[b] - p->y[a], L2 = ex * ex + ey * ey, L = sqrt(L2);
    double hx = L > 0 ? ex / L : cos(p->hd[a]), hy = L > 0 ? ey / L : sin(p->hd[a]);
    c[PATH_SEG_EX] = ex;
    c[PATH_SEG_EY] = ey;
    c[PATH_SEG_L2] = L2;
    c[PATH_SEG_L] = L;
    c[PATH_SEG_HX] = hx;
    c[PATH_SEG_HY] = hy;
    c[PATH_SEG_HD] = atan2(hy, hx);
  }
}

path* path_build(const path_road* rd, int kind, double offset, double margin, double ds) {
  path* p = mt_alloc(sizeof *p);
  p->closed = rd->closed;
  p->length = rd->length;
  p->n = (int)ceil(rd->length / ds);
  if (!p->closed) p->n++;
  if (p->n < 3) p->n = 3;
  p->ds = p->closed ? rd->length / p->n : rd->length / (p->n - 1);
  double** arr[] = {&p->s, &p->off, &p->x, &p->y, &p->hd, &p->k, &p->v, &p->kv, &p->gr};
  for (size_t k = 0; k < MT_ARRAY_LEN(arr); k++) *arr[k] = mt_alloc(sizeof(double) * p->n);
  double* lo = mt_alloc(sizeof(double) * p->n);
  double* hi = mt_alloc(sizeof(double) * p->n);
  for (int i = 0; i < p->n; i++) {
    p->s[i] = i * p->ds;
    double wl, wr;
    rd->widths(rd->self, p->s[i], &wl, &wr);
    hi[i] = wl - margin;
    lo[i] = -(wr - margin);
    if (hi[i] < lo[i]) hi[i] = lo[i] = 0.5 * (hi[i] + lo[i]);
    p->off[i] = kind == PATH_OFFSET ? mt_clamp(offset, -wr, wl) : 0;
  }
  if (kind == PATH_RACING) racing_line(p, rd, lo, hi);
  free(lo);
  free(hi);
  geometry(p, rd);
  /* a light smoothing of the curvature: the sampled line's second differences are noisy */
  double* t = mt_alloc(sizeof(double) * p->n);
  for (int pass = 0; pass < 3; pass++) {
    for (int i = 0; i < p->n; i++) t[i] = 0.25 * p->k[idx(p, i - 1)] + 0.5 * p->k[i] + 0.25 * p->k[idx(p, i + 1)];
    memcpy(p->k, t, sizeof(double) * p->n);
  }
  free(t);
  for (int i = 0; i < p->n; i++) p->v[i] = 0;
  /* vertical curvature: the change of grade over ±PATH_KV_HALF m (the wheelbase and the
   * suspension smooth anything much shorter) */
  if (rd->grade) {
    double h = PATH_KV_HALF;
    for (int i = 0; i < p->n; i++) {
      double a = p->s[i] - h, b = p->s[i] + h;
      if (!p->closed) {
        a = fmax(a, 0);
        b = fmin(b, p->length);
      }
      double L = p->length;
      double sa = p->closed ? fmod(fmod(a, L) + L, L) : a, sb = p->closed ? fmod(fmod(b, L) + L, L) : b;
      p->kv[i] = b > a ? (rd->grade(rd->self, sb) - rd->grade(rd->self, sa)) / (b - a) : 0;
      p->gr[i] = rd->grade(rd->self, p->s[i]);
    }
  }
  path_chords(p);
  return p;
}

void path_free(path* p) {
  if (!p) return;
  free(p->s);
  free(p->off);
  free(p->x);
  free(p->y);
  free(p->hd);
  free(p->k);
  free(p->v);
  free(p->kv);
  free(p->gr);
  free(p->seg);
  free(p);
}

void path_speed_profile(path* p, double grip, double a_acc, double a_brake, double v_top) {
  for (int i = 0; i < p->n; i++) {
    double k = fabs(p->k[i]);
    p->v[i] = k > 1e-9 ? fmin(v_top, sqrt(grip * MT_G / k)) : v_top;
  }
  /* Forward (acceleration) and backward (braking) passes; twice round a closed path so the
   * limits carry across the start line. */
  int laps = p->closed ? 2 : 1;
  for (int l = 0; l < laps; l++)
    for (int j = 1; j <= p->n - (p->closed ? 0 : 1); j++) {
      int i = idx(p, j), a = idx(p, j - 1);
      p->v[i] = fmin(p->v[i], sqrt(p->v[a] * p->v[a] + 2 * a_acc * p->ds));
    }
  for (int l = 0; l < laps; l++)
    for (int j = p->n - 2 + (p->closed ? 1 : 0); j >= 0; j--) {
      int i = idx(p, j), b = idx(p, j + 1);
      p->v[i] = fmin(p->v[i], sqrt(p->v[b] * p->v[b] + 2 * a_brake * p->ds));
    }
}

void path_speed_profile_mu(path* p, double mu_y, double mu_x, double a_drive, double a_brake, double v_top,
                           path_plan* plan) {
  /* cornering limit: v²|κ| ≤ mu_y·(g + v²·kv)  →  v² ≤ mu_y·g / (|κ| − mu_y·kv) */
  for (int i = 0; i < p->n; i++) {
    double den = fabs(p->k[i]) - mu_y * fmin(p->kv[i], 0);   /* no credit for dips */
    /* over a crest keep at least a third of the weight on the tyres: v²·(−kv) ≤ (2/3)·g */
    double vc = p->kv[i] < 0 ? sqrt(2.0 / 3.0 * MT_G / -p->kv[i]) : v_top;
    p->v[i] = fmin(v_top, vc);
    if (den > 1e-9) p->v[i] = fmin(p->v[i], sqrt(mu_y * MT_G / den));
  }
  int laps = p->closed ? 2 : 1;
  /* the longitudinal acceleration left at station i when riding at speed v */
#define AVAIL(i, v, amax)                                                                      \
  ({                                                                                           \
    double n_ = mt_clamp(1 + (v) * (v) * p->kv[i] / MT_G, 0.05, 1), ay_ = (v) * (v) * fabs(p->k[i]); \
    double r_ = ay_ / (mu_y * n_ * MT_G), e_ = r_ < 1 ? sqrt(1 - r_ * r_) : 0;               \
    fmin(amax, mu_x * n_ * MT_G) * fmax(0.1, e_);                                              \
  })
  for (int l = 0; l < laps; l++)
    for (int j = 1; j <= p->n - (p->closed ? 0 : 1); j++) {
      int i = idx(p, j), a = idx(p, j - 1);
      double va = p->v[a];
      p->v[i] = fmin(p->v[i], sqrt(va * va + 2 * AVAIL(a, va, a_drive) * p->ds));
    }
  for (int l = 0; l < laps; l++)
    for (int j = p->n - 2 + (p->closed ? 1 : 0); j >= 0; j--) {
      int i = idx(p, j), b = idx(p, j + 1);
      double vb = p->v[b];
      p->v[i] = fmin(p->v[i], sqrt(vb * vb + 2 * AVAIL(b, vb, a_brake) * p->ds));
    }
#undef AVAIL
  if (plan) {
    memset(plan, 0, sizeof *plan);
    for (int j = 0; j < p->n - (p->closed ? 0 : 1); j++) {
      int i = idx(p, j), b = idx(p, j + 1);
      plan->ay_peak = fmax(plan->ay_peak, p->v[i] * p->v[i] * fabs(p->k[i]));
      double ax = (p->v[b] * p->v[b] - p->v[i] * p->v[i]) / (2 * p->ds);
      plan->drive_peak = fmax(plan->drive_peak, ax);
      plan->brake_peak = fmax(plan->brake_peak, -ax);
    }
  }
}

static inline double d2(const path* p, int i, double x, double y) {
  double dx = p->x[i] - x, dy = p->y[i] - y;
  return dx * dx + dy * dy;
}

void path_locate(const path* p, double x, double y, int* hint, path_where* out) {
  /* the nearest sample by squared distance: the same order as the distance's, without its root */
  int best = 0;
  double bd = INFINITY;
  if (*hint >= 0) {
    /* walk from the hint while the distance falls (the rider moves a little per step) */
    int i = *hint;
    double d = d2(p, i, x, y);
    for (int dir = -1; dir <= 1; dir += 2) {
      int j = i;
      double dj = d;
      for (int k = 0; k < p->n; k++) {
        int nj = idx(p, j + dir);
        if (nj == j) break;
        double dn = d2(p, nj, x, y);
        if (dn >= dj) break;
        j = nj;
        dj = dn;
      }
      if (dj < bd) {
        bd = dj;
        best = j;
      }
    }
    if (bd > 20 * 20) *hint = -1;   /* lost (farther than 20 m): search everywhere */
  }
  if (*hint < 0) {
    for (int i = 0; i < p->n; i++) {
      double d = d2(p, i, x, y);
      if (d < bd) {
        bd = d;
        best = i;
      }
    }
  }
  *hint = best;
  /* project onto the segment to the better neighbour for a continuous station (the chords'
   * constants from path_chords: the same values, computed once) */
  int a = best, b = idx(p, best + 1);
  const double* c = p->seg + PATH_SEG_N * a;
  double u = c[PATH_SEG_L2] > 0 ? ((x - p->x[a]) * c[PATH_SEG_EX] + (y - p->y[a]) * c[PATH_SEG_EY]) / c[PATH_SEG_L2] : 0;
  if (u < 0 && (p->closed || a > 0)) {
    b = a;
    a = idx(p, best - 1);
    c = p->seg + PATH_SEG_N * a;
    u = c[PATH_SEG_L2] > 0 ? ((x - p->x[a]) * c[PATH_SEG_EX] + (y - p->y[a]) * c[PATH_SEG_EY]) / c[PATH_SEG_L2] : 0;
  }
  u = mt_clamp(u, 0, 1);
  double px = p->x[a] + u * c[PATH_SEG_EX], py = p->y[a] + u * c[PATH_SEG_EY];
  double sa = p->s[a], sb = (b == 0 && p->closed) ? p->length : p->s[b];
  out->s = sa + u * (sb - sa);
  if (p->closed && out->s >= p->length) out->s -= p->length;
  out->offset_error = (x - px) * -c[PATH_SEG_HY] + (y - py) * c[PATH_SEG_HX];
  out->heading = c[PATH_SEG_HD];
  out->index = a;
}

/* s on a closed path of length L, brought into [0, L): fmod(s, L), plus L when negative.
 * Without the fmod where it is exact arithmetic: fmod(s, L) is s for 0 ≤ s < L and for
 * −L < s < 0 (then s + L follows as before), and s − L for L ≤ s < 2L (exact: Sterbenz). */
static double wrap_station(double s, double L) {
  if (s >= 0 && s < L) return s;
  if (s >= L && s < 2 * L) return s - L;
  if (s < 0 && s > -L) return s + L;
  s = fmod(s, L);
  if (s < 0) s += L;
  return s;
}

static double sample(const path* p, const double* arr, double s) {
  if (p->closed) s = wrap_station(s, p->length);
  else s = mt_clamp(s, 0, p->length);
  double f = s / p->ds;
  int i = f >= 0 ? (int)f : (int)floor(f);   /* (int) truncates: the floor of f ≥ 0 */
  double u = f - i;
  return arr[idx(p, i)] * (1 - u) + arr[idx(p, i + 1)] * u;
}

double path_curvature(const path* p, double s) { return sample(p, p->k, s); }
double path_speed(const path* p, double s) { return sample(p, p->v, s); }

double path_curvature_mean(const path* p, double s, double half) {
  double acc = 0;
  for (int k = -PATH_MEAN_N; k <= PATH_MEAN_N; k++) acc += sample(p, p->k, s + half * k / PATH_MEAN_N);
  return acc / (2 * PATH_MEAN_N + 1);
}

double path_ay_ahead(const path* p, double s, double speed, double preview) {
  double best = 0;
  for (int i = 0; i <= 4; i++) {
    double k = sample(p, p->k, s + speed * preview * i / 4);
    if (fabs(k) > fabs(best)) best = k;
  }
  return speed * speed * best;
}
double path_offset(const path* p, double s) { return sample(p, p->off, s); }

void path_point(const path* p, double s, double* x, double* y) {
  *x = sample(p, p->x, s);
  *y = sample(p, p->y, s);
}

double path_heading(const path* p, double s) {
  double x0, y0, x1, y1;
  path_point(p, s - 0.5, &x0, &y0);
  path_point(p, s + 0.5, &x1, &y1);
  return atan2(y1 - y0, x1 - x0);
}

/* the longitudinal force per mass left at station i riding at v (friction ellipse, load factor) */
static double long_avail(const path* p, int i, double v, double amax) {
  double n = mt_clamp(1 + v * v * p->kv[i] / MT_G, 0.05, 1), ay = v * v * fabs(p->k[i]);
  double r = ay / (p->mu_y * n * MT_G), e = r < 1 ? sqrt(1 - r * r) : 0;
  return fmin(amax, p->mu_x * n * MT_G) * fmax(0.1, e);
}

void path_speed_profile_qss(path* p, const path_limits* lim, path_plan* plan) {
  p->has_limits = 1;
  p->mu_y = lim->mu_y;
  p->mu_x = lim->mu_x;
  p->a_drive = lim->a_drive;
  p->a_brake = lim->a_brake;
  p->drag = lim->drag;
  for (int i = 0; i < p->n; i++) {
    double den = fabs(p->k[i]) - lim->mu_y * fmin(p->kv[i], 0);
    double vc = p->kv[i] < 0 ? sqrt(PATH_CREST_LOAD * MT_G / -p->kv[i]) : lim->v_top;
    p->v[i] = fmin(lim->v_top, vc);
    if (den > 1e-9) p->v[i] = fmin(p->v[i], sqrt(lim->mu_y * MT_G / den));
  }
  int laps = p->closed ? 2 : 1;
  /* forward: a_x = tractive/m − drag·v², tractive within the ellipse, the caps and the engine */
  for (int l = 0; l < laps; l++)
    for (int j = 1; j <= p->n - (p->closed ? 0 : 1); j++) {
      int i = idx(p, j), a = idx(p, j - 1);
      double va = p->v[a], f = long_avail(p, a, va, lim->a_drive);
      if (lim->engine) f = fmin(f, lim->engine(lim->engine_self, va));
      double ax = f - lim->drag * va * va - MT_G * p->gr[a];
      double v2 = va * va + 2 * ax * p->ds;
      p->v[i] = fmin(p->v[i], sqrt(fmax(v2, 0)));
    }
  /* backward: −a_x = braking/m + drag·v² */
  for (int l = 0; l < laps; l++)
    for (int j = p->n - 2 + (p->closed ? 1 : 0); j >= 0; j--) {
      int i = idx(p, j), b = idx(p, j + 1);
      double vb = p->v[b];
      double dec = long_avail(p, b, vb, lim->a_brake) + lim->drag * vb * vb + MT_G * p->gr[b];
      p->v[i] = fmin(p->v[i], sqrt(vb * vb + 2 * dec * p->ds));
    }
  if (plan) {
    memset(plan, 0, sizeof *plan);
    for (int j = 0; j < p->n - (p->closed ? 0 : 1); j++) {
      int i = idx(p, j), b = idx(p, j + 1);
      plan->ay_peak = fmax(plan->ay_peak, p->v[i] * p->v[i] * fabs(p->k[i]));
      double vm = 0.5 * (p->v[i] + p->v[b]);
      double fx = (p->v[b] * p->v[b] - p->v[i] * p->v[i]) / (2 * p->ds) + lim->drag * vm * vm + MT_G * p->gr[i];
      plan->drive_peak = fmax(plan->drive_peak, fx);
      plan->brake_peak = fmax(plan->brake_peak, -fx);
    }
  }
}

void path_long_limits(const path* p, double s, double v, double* drive, double* brake) {
  if (!p->has_limits) {
    *drive = *brake = INFINITY;
    return;
  }
  if (p->closed) s = wrap_station(s, p->length);
  else s = mt_clamp(s, 0, p->length);
  double f = s / p->ds;
  long r;
  if (f >= 0 && f < 1e9) {   /* lround without the call: half away from zero (f − ⌊f⌋ is exact) */
    r = (long)f;
    if (f - (double)r >= 0.5) r++;
  } else
    r = lround(f);
  int i = idx(p, (int)r);
  /* long_avail for both caps: the ellipse's share is the same, computed once */
  double n = mt_clamp(1 + v * v * p->kv[i] / MT_G, 0.05, 1), ay = v * v * fabs(p->k[i]);
  double q = ay / (p->mu_y * n * MT_G), e = fmax(0.1, q < 1 ? sqrt(1 - q * q) : 0), mx = p->mu_x * n * MT_G;
  *drive = fmin(p->a_drive, mx) * e;
  *brake = fmin(p->a_brake, mx) * e;
}

double path_grade(const path* p, double s) { return sample(p, p->gr, s); }

double path_accel(const path* p, double s) {
  double h = 1.0, v0 = path_speed(p, s - h), v1 = path_speed(p, s + h);
  return (v1 * v1 - v0 * v0) / (4 * h);
}

double path_time(const path* p) {
  double t = 0;
  for (int j = 0; j < p->n - (p->closed ? 0 : 1); j++) {
    int i = idx(p, j), b = idx(p, j + 1);
    double vm = 0.5 * (p->v[i] + p->v[b]);
    t += vm > 0.1 ? p->ds / vm : 0;
  }
  return t;
}
