/* slip.c — slip angles from a take: truth and telemetry estimate (see slip.h). */
#include "takes/slip.h"

#include "base/progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/angle.h"
#include "sim/track.h"
#include "sim/vehicle.h"
#include "takes/replay.h"
#include "takes/takefile.h"

#define D2R (MT_PI / 180)
#define R2D (180 / MT_PI)

void slip_opts_default(slip_opts* o) {
  o->steer_lo = 0.25;
  o->steer_hi = 2.0;
  o->ay_max = 1.5;
  o->r_min = 0.02;
  o->vx_min = 5;
  o->min_samples = 200;
  o->smooth = 0.2;
}

/* R·v with R = Rz(yaw)·Ry(pitch)·Rx(roll): the frame's orientation (pitch positive nose down,
 * roll positive right, yaw positive left), design axes to world. */
static void frame_rot(double yaw, double pitch, double roll, const double v[3], double o[3]) {
  double cr = cos(roll), sr = sin(roll), cp = cos(pitch), sp = sin(pitch), cy = cos(yaw), sy = sin(yaw);
  double y1 = cr * v[1] - sr * v[2], z1 = sr * v[1] + cr * v[2];
  double x2 = cp * v[0] + sp * z1, z2 = -sp * v[0] + cp * z1;
  o[0] = cy * x2 - sy * y1;
  o[1] = sy * x2 + cy * y1;
  o[2] = z2;
}

/* The heading (from +x, positive left) of the direction a wheel with spin axis `axle` rolls
 * on a road of normal n: axle × n, seen from above. */
static double rolling_heading(const double axle[3], const double n[3]) {
  double d0 = axle[1] * n[2] - axle[2] * n[1], d1 = axle[2] * n[0] - axle[0] * n[2];
  return atan2(d1, d0);
}

void slip_wheel_headings(double yaw, double pitch, double roll, double delta, double caster, const double n[3], double* psi_r,
                         double* delta_g) {
  /* the rear axle is the frame's y; the front one is y turned by delta about the steering axis
   * k = (−sin ε, 0, cos ε) (Rodrigues, k·y = 0: y·cos δ + (k × y)·sin δ) */
  const double y[3] = {0, 1, 0};
  double ce = cos(caster), se = sin(caster), cd = cos(delta), sd = sin(delta);
  double yf[3] = {-ce * sd, cd, -se * sd}, ar[3], af[3];
  frame_rot(yaw, pitch, roll, y, ar);
  frame_rot(yaw, pitch, roll, yf, af);
  *psi_r = rolling_heading(ar, n);
  *delta_g = mt_wrap_angle_lo(rolling_heading(af, n) - *psi_r);
}

double slip_ground_steer(double delta, double roll, double pitch, double caster) {
  const double z[3] = {0, 0, 1};
  double pr, dg;
  slip_wheel_headings(0, pitch, roll, delta, caster, z, &pr, &dg);
  return dg;
}

double slip_peak_alpha(const tyre_params* p, double fz, double kappa, double gamma, int sign) {
  if (!(fz > 0)) return NAN;
  /* sign·Fy over 0–30° in 0.25° steps; the optimum is where it first reaches 95 % of its
   * largest value there (motorcycle fits are flat-topped: the true maximum can lie at 15–30°,
   * long after more slip stopped paying) */
  enum { NS = 120 };   /* steps; f has one more for the last pair's second lane */
  const double step = 0.25 * D2R;
  double f[NS + 2], best = -INFINITY;
  if (p->model == TYRE_MODEL_ROLLING) {
    for (int i = 0; i <= NS; i++) {
      tyre_forces_t t;
      tyre_forces(p, fz, kappa, sign * i * step, gamma, &t);
      f[i] = sign * t.fy;
    }
  } else {
    /* what tyre_forces gives one slip angle at a time, bit for bit, in half the work: the
     * cornering stiffness (of fz and gamma alone) once, and two slip angles a call, one a lane
     * (sim/tyre.h tyre_forces_kya2). The HUD's slip gauges ask this for both tyres every frame. */
    double Kya = tyre_kya(p, fz, gamma);
    const tyre_params* pp[2] = {p, p};
    const double a[2] = {fz, fz}, k[2] = {kappa, kappa}, g[2] = {gamma, gamma}, ky[2] = {Kya, Kya};
    for (int i = 0; i <= NS; i += 2) {
      const double al[2] = {sign * i * step, sign * (i + 1) * step};
      tyre_forces_t t[2];
      tyre_forces_kya2(pp, a, k, al, g, ky, t);
      f[i] = sign * t[0].fy;
      f[i + 1] = sign * t[1].fy;
    }
  }
  for (int i = 0; i <= NS; i++)
    if (f[i] > best) best = f[i];
  double lim = f[0] + 0.95 * (best - f[0]);
  for (int i = 1; i <= NS; i++)
    if (f[i] >= lim) return (i - 1 + (lim - f[i - 1]) / (f[i] - f[i - 1])) * step;
  return 0;
}

int slip_side(const slip_data* d, long i, int rear) {
  int v = d->fy_side[i], sr = v >= 1 ? 1 : -1, sf = v - 2 * sr;
  return rear ? sr : sf;
}

static int chan(const take_schema* s, const char* name) {
  for (int i = 0; i < s->nchan; i++)
    if (!strcmp(s->chan_names[i], name)) return i;
  return -1;
}

static int seg_of(const track* tk, double st) {
  int n = track_nsegments(tk);
  double L = track_length(tk);
  if (track_closed(tk) && L > 0) st = fmod(fmod(st, L) + L, L);
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    int m = (lo + hi + 1) / 2;
    if (track_segment_start(tk, m) <= st) lo = m;
    else hi = m - 1;
  }
  return lo;
}

void slip_free(slip_data* d) {
  double** arr[] = {&d->t, &d->station, &d->speed, &d->ay, &d->vx, &d->vy, &d->r, &d->steer, &d->delta_g,
                    &d->alpha_f, &d->alpha_r, &d->peak_f, &d->peak_r, &d->est_f, &d->est_r, &d->p, &d->lean};
  for (size_t i = 0; i < MT_ARRAY_LEN(arr); i++) {
    free(*arr[i]);
    *arr[i] = NULL;
  }
  free(d->seg);
  free(d->contact);
  free(d->used);
  free(d->fy_side);
  d->fy_side = NULL;
  free(d->segs);
  d->seg = NULL;
  d->contact = d->used = NULL;
  d->segs = NULL;
}

/* The CG and the tyre contacts at state x: a and b along the heading. */
static void rig_ab(vehicle* v, const double* x, double* a, double* b, double* hcg, double* mass) {
  veh_set_state(v, x);
  veh_forward(v);
  double cg[3];
  veh_com(v, cg);
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  double h[2] = {cos(yaw), sin(yaw)};
  const double *pf = v->out.wheel[RIG_FRONT].point, *pr = v->out.wheel[RIG_REAR].point;
  *a = (pf[0] - cg[0]) * h[0] + (pf[1] - cg[1]) * h[1];
  *b = (cg[0] - pr[0]) * h[0] + (cg[1] - pr[1]) * h[1];
  *hcg = (cg[2] - 0.5 * (pf[2] + pr[2])) / cos(roll);
  *mass = veh_mass_summed(v);
}

/* The channels slip_load reads, by name. */
static const char* LOAD_NAMES[] = {"time", "station", "speed", "com_ay", "yaw_rate", "steer_angle", "lean", "pitch",
                                   "heading", "front_slip_angle", "rear_slip_angle", "front_load", "rear_load",
                                   "front_slip_ratio", "rear_slip_ratio", "front_camber", "rear_camber",
                                   "front_contact", "rear_contact", "roll_rate", "offset", "front_fy", "rear_fy"};
enum { C_T, C_ST, C_V, C_AY, C_R, C_D, C_LEAN, C_PITCH, C_HEAD, C_AF, C_AR, C_FZF, C_FZR, C_KF, C_KR, C_GF, C_GR,
       C_CF, C_CR, C_P, C_OFF, C_FYF, C_FYR, C_N };

/* What slip_load holds while it reads: the take, its channels' columns, the rebuilt machine. */
typedef struct slip_src {
  take_reader* r;
  const take_schema* s;
  long N;             /* steps */
  int ci[C_N];        /* column of each LOAD_NAMES channel */
  rig* rg;
  track* tk;
  vehicle* v;
} slip_src;

/* A finished take of at least 2 steps with every channel needed, its machine rebuilt from the
 * embedded sources with the take's state size. */
static int src_open(slip_src* S, const char* path, mt_err* e) {
  const char* why;
  int rc = MT_OK;
  take_reader* r = S->r;
  const take_schema* s = S->s = take_schema_of(r);
  if (!take_complete(r, &why)) rc = mt_fail(e, MT_EINPUT, "%s: the take is incomplete (%s); slip reads finished takes", path, why);
  long N = S->N = take_nsteps(r);
  if (!rc && N < 2) rc = mt_fail(e, MT_EINPUT, "%s: the take holds %ld steps; slip needs at least 2", path, N);
  for (int i = 0; i < C_N && !rc; i++)
    if ((S->ci[i] = chan(s, LOAD_NAMES[i])) < 0)
      rc = mt_fail(e, MT_EINPUT, "%s: the take has no channel '%s' (recorded by an older mototake?)", path, LOAD_NAMES[i]);
  if (!rc && (rc = replay_rebuild(r, 1, &S->rg, &S->tk, e))) {
    char m[sizeof e->msg];
    snprintf(m, sizeof m, "%s", e->msg);
    snprintf(e->msg, sizeof e->msg, "%s: rebuilding the machine: %s", path, m);
  }
  if (!rc && !(S->v = veh_new(S->rg, track_road(S->tk), 0, e))) rc = MT_EINPUT;
  if (!rc && veh_state_size(S->v) != s->nstate)
    rc = mt_fail(e, MT_EINPUT, "%s: the take's state has %d values, the rebuilt machine %d", path, s->nstate, veh_state_size(S->v));
  return rc;
}

/* The sampling (every stride steps, at most 100 Hz) and the per-sample arrays. */
static void alloc_samples(slip_data* d, const slip_src* S) {
  snprintf(d->track, sizeof d->track, "%s", track_name(S->tk));
  d->stride = (int)fmax(1, lround(0.01 / S->s->timestep));
  d->dt = d->stride * S->s->timestep;
  d->n = (S->N + d->stride - 1) / d->stride;
  double** arr[] = {&d->t, &d->station, &d->speed, &d->ay, &d->vx, &d->vy, &d->r, &d->steer, &d->delta_g,
                    &d->alpha_f, &d->alpha_r, &d->peak_f, &d->peak_r, &d->est_f, &d->est_r, &d->p, &d->lean};
  for (size_t i = 0; i < MT_ARRAY_LEN(arr); i++) *arr[i] = mt_alloc(sizeof(double) * d->n);
  d->seg = mt_alloc(sizeof(int) * d->n);
  d->contact = mt_alloc(d->n);
  d->used = mt_alloc(d->n);
  d->fy_side = mt_alloc(d->n);
  const double* ax = S->rg->joint[S->rg->j_steer].axis;
  d->caster = S->rg->j_steer >= 0 ? atan2(-ax[0], ax[2]) : 0;
}

/* Sample k from the channels c and the state x of one step: the CG's velocity in the rear
 * wheel's ground axes (the machine's kinematics at x), the recorded channels, the optimum. */
static void sample_one(slip_data* d, const slip_src* S, int plain, const double* c, const double* x, long k) {
  vehicle* v = S->v;
  const int* ci = S->ci;
  const tyre_params *tf = &S->rg->wheel[RIG_FRONT].tyre, *tr = &S->rg->wheel[RIG_REAR].tyre;
  veh_set_state(v, x);
  double vel[3];
  veh_com_velocity(v, vel);   /* the whole machine's CG */
  /* the wheels' rolling directions on the road under them (its normal from the track), seen
   * from above: the rear's is the axes' x, the front's is Δ from it */
  double nrm[3], psi, dg;
  track_normal(S->tk, c[ci[C_ST]], c[ci[C_OFF]], nrm);
  slip_wheel_headings(c[ci[C_HEAD]] * D2R, c[ci[C_PITCH]] * D2R, c[ci[C_LEAN]] * D2R, c[ci[C_D]] * D2R, d->caster, nrm, &psi,
                      &dg);
  if (plain) {   /* a car's telemetry: the body's yaw axes, the steer projected on a level road, no pitch */
    psi = c[ci[C_HEAD]] * D2R;
    dg = slip_ground_steer(c[ci[C_D]] * D2R, c[ci[C_LEAN]] * D2R, 0, d->caster);
  }
  double hx = cos(psi), hy = sin(psi);
  d->t[k] = c[ci[C_T]];
  d->station[k] = c[ci[C_ST]];
  d->speed[k] = c[ci[C_V]];
  d->ay[k] = c[ci[C_AY]];
  d->vx[k] = vel[0] * hx + vel[1] * hy;
  d->vy[k] = -vel[0] * hy + vel[1] * hx;
  d->r[k] = c[ci[C_R]] * D2R;
  d->p[k] = c[ci[C_P]] * D2R;
  d->lean[k] = c[ci[C_LEAN]] * D2R;
  d->steer[k] = c[ci[C_D]];
  d->delta_g[k] = dg * R2D;
  d->alpha_f[k] = c[ci[C_AF]];
  d->alpha_r[k] = c[ci[C_AR]];
  d->contact[k] = c[ci[C_CF]] > 0.5 && c[ci[C_CR]] > 0.5;
  double gf = c[ci[C_GF]] * D2R, gr = c[ci[C_GR]] * D2R;
  /* the optimum on the side the tyre pushes to (the sign of its lateral force) */
  int sf = c[ci[C_FYF]] >= 0 ? 1 : -1, sr = c[ci[C_FYR]] >= 0 ? 1 : -1;
  d->fy_side[k] = (signed char)(sf + 2 * sr);
  d->peak_f[k] = slip_peak_alpha(tf, c[ci[C_FZF]], c[ci[C_KF]], gf, sf) * R2D;
  d->peak_r[k] = slip_peak_alpha(tr, c[ci[C_FZR]], c[ci[C_KR]], gr, sr) * R2D;
  d->est_f[k] = d->est_r[k] = NAN;
  d->seg[k] = seg_of(S->tk, d->station[k]);
}

/* The take read in chunks of 2000 steps, every stride-th step sampled; the rig's a, b, CG height
 * and mass at the first step. d->n becomes the samples taken. */
static int read_samples(slip_data* d, const slip_src* S, int plain, int quiet, mt_err* e) {
  const take_schema* s = S->s;
  const long CH = 2000, N = S->N;
  double* ch = mt_alloc(sizeof(double) * s->nchan * CH);
  double* xs = mt_alloc(sizeof(double) * s->nstate * CH);
  long k = 0;
  int rc = MT_OK;
  fprog bar;   /* the steps read and sampled: the command's time (base/progress.h) */
  fprog_start_work(&bar, N, "slip", !quiet);
  for (long a0 = 0; a0 < N && !rc; a0 += CH) {
    long m = N - a0 < CH ? N - a0 : CH;
    if ((rc = take_read(S->r, TAKE_CHAN, a0, m, ch, e)) || (rc = take_read(S->r, TAKE_STATE, a0, m, xs, e))) break;
    if (a0 == 0) rig_ab(S->v, xs, &d->rig_a, &d->rig_b, &d->rig_h, &d->mass);
    for (long i = (d->stride - a0 % d->stride) % d->stride; i < m; i += d->stride, k++)
      sample_one(d, S, plain, ch + i * s->nchan, xs + i * s->nstate, k);
    fprog_tick(&bar, a0 + m);
  }
  fprog_end(&bar);
  if (!rc) d->n = k;
  free(ch);
  free(xs);
  return rc;
}

/* The summaries: time beyond the optimum over the take and per segment visited, with the
 * largest slip angles, lateral acceleration and the mean front − rear difference. */
static void summarise_segments(slip_data* d, const track* tk) {
  int nseg = track_nsegments(tk);
  slip_seg* all = mt_alloc(sizeof(slip_seg) * nseg);
  double* ndiff = mt_alloc(sizeof(double) * nseg);
  for (int g = 0; g < nseg; g++) {
    all[g].seg = g;
    all[g].s0 = track_segment_start(tk, g);
    all[g].s1 = g + 1 < nseg ? track_segment_start(tk, g + 1) : track_length(tk);
    all[g].curvature = track_curvature(tk, 0.5 * (all[g].s0 + all[g].s1));
  }
  for (long i = 0; i < d->n; i++) {
    slip_seg* g = &all[d->seg[i]];
    int bf = d->contact[i] && slip_side(d, i, 0) * d->alpha_f[i] > d->peak_f[i];
    int br = d->contact[i] && slip_side(d, i, 1) * d->alpha_r[i] > d->peak_r[i];
    d->beyond_f += bf * d->dt;
    d->beyond_r += br * d->dt;
    g->time += d->dt;
    g->beyond_f += bf * d->dt;
    g->beyond_r += br * d->dt;
    g->max_f = fmax(g->max_f, fabs(d->alpha_f[i]));
    g->max_r = fmax(g->max_r, fabs(d->alpha_r[i]));
    g->max_ay = fmax(g->max_ay, fabs(d->ay[i]));
    g->mean_diff += d->alpha_f[i] - d->alpha_r[i];
    ndiff[d->seg[i]] += 1;
  }
  d->segs = mt_alloc(sizeof(slip_seg) * nseg);
  for (int g = 0; g < nseg; g++)
    if (ndiff[g] > 0) {
      all[g].mean_diff /= ndiff[g];
      d->segs[d->nsegs++] = all[g];
    }
  free(all);
  free(ndiff);
}

int slip_load(const char* path, int plain, int quiet, slip_data* d, mt_err* e) {
  memset(d, 0, sizeof *d);
  d->plain = plain;
  d->roll_correction = !plain;
  slip_src S;
  memset(&S, 0, sizeof S);
  if (!(S.r = take_open(path, e))) return MT_EINPUT;
  int rc = src_open(&S, path, e);
  if (!rc) {
    alloc_samples(d, &S);
    rc = read_samples(d, &S, plain, quiet, e);
  }
  if (!rc) summarise_segments(d, S.tk);
  if (S.v) veh_free(S.v);
  if (S.rg) rig_free(S.rg);
  if (S.tk) track_free(S.tk);
  take_close(S.r);
  if (rc) slip_free(d);
  return rc;
}

static int cmp_dbl(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(double* x, int n) {
  qsort(x, (size_t)n, sizeof *x, cmp_dbl);
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* Centred moving average of x over 2h + 1 samples (fewer at the ends) into y. */
static void smooth(const double* x, double* y, long n, int h) {
  double acc = 0;
  long lo = 0, hi = -1;
  for (long i = 0; i < n; i++) {
    long a = i - h < 0 ? 0 : i - h, b = i + h >= n ? n - 1 : i + h;
    while (hi < b) acc += x[++hi];
    while (lo < a) acc -= x[lo++];
    y[i] = acc / (double)(hi - lo + 1);
  }
}

/* Robust line y = c0 + c1·x: least squares, then drop points more than 3 scaled MADs of the
 * residuals off the line, twice. keep[] marks the points kept; returns how many. */
static int robust_line(const double* x, const double* y, int n, unsigned char* keep, double* c0, double* c1, double* tmp) {
  for (int i = 0; i < n; i++) keep[i] = 1;
  int m = n;
  for (int it = 0; it < 3; it++) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    m = 0;
    for (int i = 0; i < n; i++)
      if (keep[i]) sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i], m++;
    double den = m * sxx - sx * sx;
    *c1 = fabs(den) > 1e-12 * (m * sxx + 1) ? (m * sxy - sx * sy) / den : 0;
    *c0 = (sy - *c1 * sx) / m;
    if (it == 2) break;
    int k = 0;
    for (int i = 0; i < n; i++) tmp[k++] = fabs(y[i] - *c0 - *c1 * x[i]);
    double mad = 1.4826 * median(tmp, k);
    for (int i = 0; i < n; i++) keep[i] = fabs(y[i] - *c0 - *c1 * x[i]) <= 3 * mad + 1e-12;
  }
  return m;
}

/* The lateral velocity of the ground line under the CG: the CG's, less what rolling about
 * the ground line adds (−p·h·cos φ, h the CG's height along the machine's plane), smoothed. */
static void ground_vy(const slip_data* d, double* out, long n, int h) {
  double* t = mt_alloc(sizeof(double) * (size_t)(n + 1));
  for (long i = 0; i < n; i++) t[i] = d->vy[i] + (d->roll_correction ? d->p[i] * d->rig_h * cos(d->lean[i]) : 0);
  smooth(t, out, n, h);
  free(t);
}

void slip_apply(slip_data* d, double a, double b, const slip_opts* o) {
  long N = d->n;
  double* w = mt_alloc(sizeof(double) * (size_t)(N + 1) * 4);
  double *vx = w, *vy = w + N, *r = w + 2 * N, *dg = w + 3 * N;
  int h = (int)lround(0.5 * o->smooth / d->dt);
  smooth(d->vx, vx, N, h);
  ground_vy(d, vy, N, h);
  smooth(d->r, r, N, h);
  smooth(d->delta_g, dg, N, h);
  d->a = a;
  d->b = b;
  d->has_est = 1;
  for (long i = 0; i < N; i++) {
    d->est_f[i] = d->est_r[i] = NAN;
    if (vx[i] < o->vx_min) continue;
    d->est_f[i] = dg[i] - (vy[i] + a * r[i]) / vx[i] * R2D;
    d->est_r[i] = (b * r[i] - vy[i]) / vx[i] * R2D;
  }
  free(w);
}

int slip_estimate(slip_data* d, const slip_opts* o, mt_err* e) {
  d->has_est = 0;
  long N = d->n;
  double* w = mt_alloc(sizeof(double) * (size_t)(N + 1) * 11);
  double *vx = w, *vy = w + N, *r = w + 2 * N, *dg = w + 3 * N, *ay = w + 4 * N;
  double *ea = w + 5 * N, *eb = w + 6 * N, *ex = w + 7 * N, *tmp = w + 8 * N, *t2 = w + 9 * N;
  unsigned char* ka = mt_alloc((size_t)N + 1);
  unsigned char* kb = mt_alloc((size_t)N + 1);
  long* idx = mt_alloc(sizeof(long) * (size_t)(N + 1));
  /* telemetry is read through a short centred average (the frame's vibration is in its yaw rate) */
  int h = (int)lround(0.5 * o->smooth / d->dt);
  smooth(d->vx, vx, N, h);
  ground_vy(d, vy, N, h);
  smooth(d->r, r, N, h);
  smooth(d->delta_g, dg, N, h);
  smooth(d->ay, ay, N, h);
  int n = 0;
  for (long i = 0; i < N; i++) {
    d->used[i] = 0;
    double ad = fabs(dg[i]);
    if (!d->contact[i] || ad < o->steer_lo || ad > o->steer_hi || fabs(ay[i]) > o->ay_max || fabs(r[i]) < o->r_min ||
        vx[i] < o->vx_min || dg[i] * r[i] <= 0)
      continue;
    eb[n] = vy[i] / r[i];
    ea[n] = (dg[i] * D2R * vx[i] - vy[i]) / r[i];
    ex[n] = ay[i] * vx[i] / r[i];   /* = v_x² in a steady turn: the slip angles grow with it */
    idx[n++] = i;
  }
  d->ncand = n;
  int rc = MT_OK;
  if (n < o->min_samples) {
    rc = mt_fail(e, MT_EINPUT,
                 "no usable low-acceleration data: %d samples with ground-plane steer %g-%g deg, |a_y| < %g m/s^2, "
                 "|r| > %g rad/s and v_x > %g m/s (need %d)",
                 n, o->steer_lo, o->steer_hi, o->ay_max, o->r_min, o->vx_min, o->min_samples);
  } else {
    /* the note's estimate: slip angles taken as zero, the median after dropping outliers
     * (more than 3 scaled MADs from the median) */
    double mm[2];
    double* v2[2] = {ea, eb};
    for (int q = 0; q < 2; q++) {
      memcpy(tmp, v2[q], sizeof(double) * n);
      double med = median(tmp, n);
      for (int i = 0; i < n; i++) tmp[i] = fabs(v2[q][i] - med);
      double mad = 1.4826 * median(tmp, n);
      int k = 0;
      for (int i = 0; i < n; i++)
        if (fabs(v2[q][i] - med) <= 3 * mad + 1e-12) t2[k++] = v2[q][i];
      mm[q] = median(t2, k);
    }
    d->a_median = mm[0];
    d->b_median = mm[1];
    /* the slip angles are not zero at low a_y but proportional to it: â = a + C_f·X,
     * b̂ = b − C_r·X with X = a_y·v_x/r; the intercepts at X = 0 are a and b */
    double c1a, c1b;
    int na = robust_line(ex, ea, n, ka, &d->a, &c1a, tmp);
    int nb = robust_line(ex, eb, n, kb, &d->b, &c1b, tmp);
    d->nused = na < nb ? na : nb;
    for (int i = 0; i < n; i++) d->used[idx[i]] = ka[i] && kb[i];
    if (d->plain) {   /* the note's method as it stands */
      d->a = d->a_median;
      d->b = d->b_median;
    }
    /* a + b is the wheelbase, which every telemetry user knows from the spec sheet: an estimate
     * that misses it by more than 15 % comes from samples that do not hold the small-slip
     * assumptions (transients, too few gentle turns), and is refused rather than shown */
    double L = d->rig_a + d->rig_b;
    if (!(d->a > 0) || !(d->b > 0))
      rc = mt_fail(e, MT_EINPUT, "no consistent estimate: the low-acceleration samples give a = %.3f m, b = %.3f m", d->a, d->b);
    else if (!d->plain && L > 0 && fabs(d->a + d->b - L) > 0.15 * L)   /* --plain: the note's method shown as it is */
      rc = mt_fail(e, MT_EINPUT,
                   "no consistent estimate: the %d low-acceleration samples give a + b = %.3f m against the wheelbase "
                   "%.3f m; take a and b from a steadier take (--ab A,B)",
                   n, d->a + d->b, L);
    else
      slip_apply(d, d->a, d->b, o);
  }
  free(w);
  free(ka);
  free(kb);
  free(idx);
  return rc;
}

void slip_est_error(const slip_data* d, double ay_max, double alpha_max, double* rms_f, double* max_f, double* rms_r,
                    double* max_r, long* n) {
  double sf = 0, sr = 0;
  *max_f = *max_r = 0;
  *n = 0;
  for (long i = 0; i < d->n; i++) {
    if (!d->contact[i] || !isfinite(d->est_f[i]) || fabs(d->ay[i]) > ay_max || fabs(d->alpha_f[i]) > alpha_max ||
        fabs(d->alpha_r[i]) > alpha_max)
      continue;
    double ef = d->est_f[i] - d->alpha_f[i], er = d->est_r[i] - d->alpha_r[i];
    sf += ef * ef;
    sr += er * er;
    *max_f = fmax(*max_f, fabs(ef));
    *max_r = fmax(*max_r, fabs(er));
    (*n)++;
  }
  *rms_f = *n ? sqrt(sf / *n) : NAN;
  *rms_r = *n ? sqrt(sr / *n) : NAN;
}
