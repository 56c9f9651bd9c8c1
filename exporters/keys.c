/* keys.c — keys at exact frame times, spin sub-keys and error-bounded reduction.
 *
 * A file's rotation keys are interpolated along the SHORTEST arc (glTF LINEAR is slerp;
 * Blender keys quaternion components linearly and renormalises). A wheel at 200 rad/s turns
 * 6.7 rad between 30 fps frames: keyed once per frame it would be shown turning 0.4 rad
 * BACKWARDS. So the true path is measured at full rate — the cumulative local rotation angle
 * A(t), a path length, which is at least the net rotation between any two of its points — and
 * every frame interval whose travel exceeds spin_limit is cut where A has covered equal
 * parts. Each key-to-key rotation is then at most spin_limit (default 90°, half the 180° at
 * which the short way flips), and the sub-keys sit at fractional frame times, which glTF and
 * Blender's importer keep.
 *
 * Reduction is Douglas–Peucker on the keys: the error of a dropped key is measured against
 * interpolation between the segment's end keys, under both slerp and normalised lerp, so
 * the bound holds for every dropped key in either kind of consumer. */
#include "exporters/keys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/xform.h"
#include "base/mt.h"

static const double* step_pose(const ex_track* tr, long i) { return tr->pose + i * tr->stride; }

void ex_track_pose(const ex_track* tr, double t, double pose[7]) {
  double x = t / tr->dt;
  long i = (long)floor(x);
  if (i < 0) i = 0;
  if (i > tr->nsteps - 2) i = tr->nsteps - 2;
  double u = mt_clamp(x - (double)i, 0, 1);
  const double* a = step_pose(tr, i);
  const double* b = step_pose(tr, i + 1);
  for (int k = 0; k < 3; k++) pose[k] = a[k] + u * (b[k] - a[k]);
  ex_qslerp(a + 3, b + 3, u, pose + 3);
}

/* Local pose at full-rate step i (exact samples, no interpolation). */
static void local_step(const ex_track* node, const ex_track* parent, long i, double out[7]) {
  if (!parent) {
    memcpy(out, step_pose(node, i), 7 * sizeof(double));
    ex_qnorm(out + 3);
  } else {
    ex_pose_local(step_pose(parent, i), step_pose(node, i), out);
  }
}

/* Local pose of node at time t: interpolated between the LOCAL poses of the neighbouring
 * steps (position linearly, rotation by slerp). Interpolating local rather than world poses
 * keeps a child's motion relative to its parent exact when it is uniform — a wheel spinning
 * on its axle — however its parents move. */
static void local_at(const ex_track* node, const ex_track* parent, double t, double out[7]) {
  double x = t / node->dt;
  long i = (long)floor(x);
  if (i < 0) i = 0;
  if (i > node->nsteps - 2) i = node->nsteps - 2;
  double u = mt_clamp(x - (double)i, 0, 1), a[7], b[7];
  local_step(node, parent, i, a);
  local_step(node, parent, i + 1, b);
  for (int k = 0; k < 3; k++) out[k] = a[k] + u * (b[k] - a[k]);
  ex_qslerp(a + 3, b + 3, u, out + 3);
}

/* The cumulative rotation angle A over steps i0..i0+n-1, as a function of time. */
typedef struct travel { const double* a; long i0, n; double dt; } travel;

static double travel_at(const travel* tv, double t) {
  double x = t / tv->dt - (double)tv->i0;
  long j = (long)floor(x);
  if (j < 0) j = 0;
  if (j > tv->n - 2) j = tv->n - 2;
  double u = mt_clamp(x - (double)j, 0, 1);
  return tv->a[j] + u * (tv->a[j + 1] - tv->a[j]);
}

/* The time in [t0, t1] at which A reaches a (A is non-decreasing; *j is a search cursor). */
static double travel_time(const travel* tv, double a, long* j, double t0, double t1) {
  while (*j < tv->n - 2 && tv->a[*j + 1] < a) (*j)++;
  double d = tv->a[*j + 1] - tv->a[*j];
  double u = d > 0 ? mt_clamp((a - tv->a[*j]) / d, 0, 1) : 0;
  return mt_clamp(((double)(tv->i0 + *j) + u) * tv->dt, t0, t1);
}

/* Number of pieces a frame interval is cut into so that each travels <= limit. */
static long pieces(double travel, double limit) {
  long n = (long)ceil(travel / limit - 1e-9);
  return n < 1 ? 1 : n;
}

long ex_keys_sample(const ex_track* node, const ex_track* parent, double from, double to,
                    double fps, double spin_limit, ex_keys* out) {
  memset(out, 0, sizeof *out);
  long K = (long)floor((to - from) * fps + 1e-9);
  if (K < 0) K = 0;
  double dt = node->dt;
  long i0 = (long)floor(from / dt), i1 = (long)ceil(to / dt);
  if (i0 < 0) i0 = 0;
  if (i1 > node->nsteps - 1) i1 = node->nsteps - 1;
  if (i0 > i1 - 1) i0 = i1 - 1;
  long ns = i1 - i0 + 1;
  double* a = mt_alloc((size_t)ns * sizeof *a);
  double prev[7], cur[7];
  local_step(node, parent, i0, prev);
  for (long j = 1; j < ns; j++) {
    local_step(node, parent, i0 + j, cur);
    a[j] = a[j - 1] + ex_qangle(prev + 3, cur + 3);
    memcpy(prev, cur, sizeof cur);
  }
  travel tv = {a, i0, ns, dt};

  /* first pass: count keys */
  long n = K + 1;
  for (long k = 0; k < K; k++) {
    double ta = from + (double)k / fps, tb = from + (double)(k + 1) / fps;
    n += pieces(travel_at(&tv, tb) - travel_at(&tv, ta), spin_limit) - 1;
  }
  out->t = mt_alloc((size_t)n * sizeof(double));
  out->p = mt_alloc((size_t)n * 3 * sizeof(double));
  out->q = mt_alloc((size_t)n * 4 * sizeof(double));
  out->frames = K + 1;

  /* second pass: times, then poses */
  long m = 0, cursor = 0;
  for (long k = 0; k <= K; k++) {
    double ta = from + (double)k / fps;
    out->t[m++] = ta;
    if (k == K) break;
    double tb = from + (double)(k + 1) / fps;
    double aa = travel_at(&tv, ta), ab = travel_at(&tv, tb);
    long np = pieces(ab - aa, spin_limit);
    for (long j = 1; j < np; j++)
      out->t[m++] = travel_time(&tv, aa + (ab - aa) * (double)j / (double)np, &cursor, ta, tb);
  }
  out->n = m;
  for (long i = 0; i < m; i++) {
    double pose[7];
    local_at(node, parent, out->t[i], pose);
    out->t[i] -= from;
    memcpy(out->p + 3 * i, pose, 3 * sizeof(double));
    double* q = out->q + 4 * i;
    memcpy(q, pose + 3, 4 * sizeof(double));
    if (i > 0) {   /* sign continuity: consumers interpolate components between neighbours */
      const double* qp = q - 4;
      if (qp[0] * q[0] + qp[1] * q[1] + qp[2] * q[2] + qp[3] * q[3] < 0)
        for (int c = 0; c < 4; c++) q[c] = -q[c];
    }
  }
  free(a);
  return m - (K + 1);
}

static long find_segment(const ex_keys* k, double t) {
  long lo = 0, hi = k->n - 1;   /* invariant: t[lo] <= t < t[hi] */
  while (hi - lo > 1) {
    long mid = (lo + hi) / 2;
    if (k->t[mid] <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

void ex_keys_eval(const ex_keys* k, double t, double pose[7]) {
  if (k->n == 1 || t <= k->t[0] || t >= k->t[k->n - 1]) {
    long i = (k->n == 1 || t <= k->t[0]) ? 0 : k->n - 1;
    memcpy(pose, k->p + 3 * i, 3 * sizeof(double));
    memcpy(pose + 3, k->q + 4 * i, 4 * sizeof(double));
    return;
  }
  long a = find_segment(k, t);
  double u = (t - k->t[a]) / (k->t[a + 1] - k->t[a]);
  for (int c = 0; c < 3; c++) pose[c] = k->p[3 * a + c] + u * (k->p[3 * a + 3 + c] - k->p[3 * a + c]);
  ex_qslerp(k->q + 4 * a, k->q + 4 * a + 4, u, pose + 3);
}

void ex_keys_error(const ex_keys* k, long a, long b, long i, double* ep, double* ea) {
  double u = (k->t[i] - k->t[a]) / (k->t[b] - k->t[a]);
  double d2 = 0;
  for (int c = 0; c < 3; c++) {
    double p = k->p[3 * a + c] + u * (k->p[3 * b + c] - k->p[3 * a + c]);
    d2 += (p - k->p[3 * i + c]) * (p - k->p[3 * i + c]);
  }
  *ep = sqrt(d2);
  double qs[4], qn[4];
  ex_qslerp(k->q + 4 * a, k->q + 4 * b, u, qs);
  ex_qnlerp(k->q + 4 * a, k->q + 4 * b, u, qn);
  double es = ex_qangle(qs, k->q + 4 * i), en = ex_qangle(qn, k->q + 4 * i);
  *ea = es > en ? es : en;
}

long ex_keys_reduce(ex_keys* k, double tol_pos, double tol_ang, double spin_limit,
                    double* max_pos, double* max_ang) {
  double mp = 0, ma = 0;
  if (max_pos) *max_pos = 0;
  if (max_ang) *max_ang = 0;
  if (k->n <= 2) return k->n;
  /* a bound of 0 means "exact": keep it meaningful in floating point */
  double tp = tol_pos > 1e-12 ? tol_pos : 1e-12, ta = tol_ang > 1e-12 ? tol_ang : 1e-12;
  long n = k->n;
  char* keep = mt_alloc((size_t)n);
  double* spin = mt_alloc((size_t)n * sizeof(double));   /* prefix sums of key-to-key angles */
  for (long i = 1; i < n; i++) spin[i] = spin[i - 1] + ex_qangle(k->q + 4 * (i - 1), k->q + 4 * i);
  long* stack = mt_alloc((size_t)2 * n * sizeof(long));
  long sp = 0;
  keep[0] = keep[n - 1] = 1;
  stack[sp++] = 0, stack[sp++] = n - 1;
  while (sp > 0) {
    long b = stack[--sp], a = stack[--sp];
    if (b - a < 2) continue;
    double worst = -1, wp = 0, wa = 0;
    long wi = a + 1;
    for (long i = a + 1; i < b; i++) {
      double ep, ea;
      ex_keys_error(k, a, b, i, &ep, &ea);
      double e = fmax(ep / tp, ea / ta);
      if (e > worst) worst = e, wi = i;
      wp = fmax(wp, ep), wa = fmax(wa, ea);
    }
    int spin_ok = spin[b] - spin[a] <= spin_limit * (1 + 1e-9);
    if (worst <= 1 && spin_ok) {   /* every key inside is reproduced: drop them all */
      mp = fmax(mp, wp), ma = fmax(ma, wa);
      continue;
    }
    if (worst <= 1) {              /* accurate, but too much turn for one segment: halve it */
      double half = 0.5 * (spin[a] + spin[b]);
      wi = a + 1;
      while (wi < b - 1 && spin[wi] < half) wi++;
    }
    keep[wi] = 1;
    stack[sp++] = a, stack[sp++] = wi;
    stack[sp++] = wi, stack[sp++] = b;
  }
  long m = 0;
  for (long i = 0; i < n; i++) {
    if (!keep[i]) continue;
    k->t[m] = k->t[i];
    memmove(k->p + 3 * m, k->p + 3 * i, 3 * sizeof(double));
    memmove(k->q + 4 * m, k->q + 4 * i, 4 * sizeof(double));
    m++;
  }
  k->n = m;
  free(keep);
  free(spin);
  free(stack);
  if (max_pos) *max_pos = mp;
  if (max_ang) *max_ang = ma;
  return m;
}

void ex_keys_free(ex_keys* k) {
  free(k->t);
  free(k->p);
  free(k->q);
  memset(k, 0, sizeof *k);
}
