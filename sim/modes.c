/* modes.c — named vibration modes over a steady-state series (see modes.h). */
#include "sim/modes.h"

#include <complex.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "sim/linear.h"
#include "sim/vehicle_mj.h"

const char* const md_names[MD_NNAMED + 1] = {"weave", "wobble", "capsize", "chatter", "other"};
const char* const md_group_names[MD_NG] = {"roll", "yaw", "lateral", "steer", "twist", "bend", "rider", "in-plane"};

int md_name_index(const char* s) {
  for (int i = 0; i < MD_NNAMED; i++)
    if (!strcmp(s, md_names[i])) return i;
  return -1;
}

static int cmp_mode(const void* a, const void* b) {
  const md_mode *x = a, *y = b;
  if (x->hz != y->hz) return x->hz < y->hz ? -1 : 1;
  return x->re < y->re ? -1 : x->re > y->re;
}

/* Group magnitudes of a complex tangent vector's velocity block (vr + i·vi). */
static void shares(const vehicle* v, double speed, const double* vr, const double* vi, double sh[MD_NG]) {
  const rig* r = v->rig;
  const mjModel* m = v->m;
  int nv = m->nv;
  const double* R = v->d->xmat + 9 * v->bid[r->b_frame];
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  double h[3] = {cos(yaw), sin(yaw), 0}, l[3] = {-sin(yaw), cos(yaw), 0};
  double acc[MD_NG][2];
  memset(acc, 0, sizeof acc);
  int fd = v->dadr[r->body[0].joint0];
  for (int c = 0; c < 2; c++) {
    const double* x = (c ? vi : vr) + nv;   /* the velocity block */
    const double *lin = x + fd, *wl = x + fd + 3;
    double w[3];
    for (int i = 0; i < 3; i++) w[i] = R[3 * i] * wl[0] + R[3 * i + 1] * wl[1] + R[3 * i + 2] * wl[2];
    acc[MD_G_ROLL][c] = w[0] * h[0] + w[1] * h[1];
    acc[MD_G_YAW][c] = w[2];
    /* sideslip velocity: the lateral velocity in the *perturbed* heading axes, i.e. less the
     * speed times the heading change (else a slow heading drift reads as a large lateral speed) */
    const double* dq = (c ? vi : vr) + fd + 3;   /* rotation tangent (local axes) */
    double dyaw = R[6] * dq[0] + R[7] * dq[1] + R[8] * dq[2];
    acc[MD_G_LAT][c] = lin[0] * l[0] + lin[1] * l[1] - speed * dyaw;
    double pr = w[0] * l[0] + w[1] * l[1], vx = lin[0] * h[0] + lin[1] * h[1], vz = lin[2];
    double ip = pr * pr + vx * vx + vz * vz;
    for (int j = 0; j < r->njoint; j++) {
      if (r->joint[j].type == RIG_FREE) continue;
      double q = x[v->dadr[j]];
      if (j == r->j_steer) acc[MD_G_STEER][c] = q;
      else if (j == r->j_twist) acc[MD_G_TWIST][c] = q;
      else if (j == r->j_bend) acc[MD_G_BEND][c] = q;
      else if (j == r->j_rider || j == r->j_posture[RIG_POSTURE_HIP] || j == r->j_posture[RIG_POSTURE_LEAN] ||
               j == r->j_posture[RIG_POSTURE_PITCH])
        acc[MD_G_RIDER][c] = hypot(acc[MD_G_RIDER][c], q);
      else if (j == r->j_front_spin || j == r->j_rear_spin) {
        double rr = r->wheel[j == r->j_front_spin ? RIG_FRONT : RIG_REAR].centre[2];   /* about the rolling radius */
        ip += q * q * rr * rr;
      } else ip += q * q;
    }   /* the crank is left out: its rate is the rear wheel's times the gearing */
    acc[MD_G_INPLANE][c] = sqrt(ip);
  }
  double tot = 0;
  for (int g = 0; g < MD_NG; g++) tot += sh[g] = hypot(acc[g][0], acc[g][1]);
  for (int g = 0; g < MD_NG; g++) sh[g] = tot > 0 ? sh[g] / tot : 0;
}

void md_point_free(md_point* p) {
  free(p->vr);
  free(p->x0);
  p->vr = p->vi = p->x0 = NULL;
}

int md_solve(vehicle* v, md_point* p, double eps, int keep_vectors, mt_err* e) {
  return md_solve_loop(v, p, eps, keep_vectors, NULL, NULL, e);
}

int md_solve_loop(vehicle* v, md_point* p, double eps, int keep_vectors, md_loop_start start, void* data, mt_err* e) {
  const md_spec* sp = &p->spec;
  trim_spec s = {0};
  s.speed = sp->speed;
  s.gear = -1;
  if (sp->turn) {
    s.fix_roll = 0;
    s.yaw_rate = sp->ay * MT_G / sp->speed;
  } else {
    s.fix_roll = 1;
    s.roll = sp->lean * MT_PI / 180;
  }
  p->ok = 0;
  p->nmode = 0;
  p->why[0] = 0;
  mt_err te = {0};
  if (trim_solve(v, &s, &p->trim, &te)) {
    snprintf(p->why, sizeof p->why, "%s", te.msg);
    mt_fail(e, MT_EINPUT, "%s", te.msg);
    return MT_EINPUT;
  }
  p->ay_g = sp->speed * p->trim.yaw_rate / MT_G;
  /* the open loop's n states, or the closed loop's N: the controller's appended after them */
  int n = lin_size(v), N = n;
  lin_loop L;
  if (start) {
    start(data, v, &p->trim, &L);
    N = n + L.nc;
  }
  double* A = mt_alloc(sizeof(double) * (size_t)N * (2 * N + 2));
  double *wr = A + (size_t)N * N, *wi = wr + N, *V = wi + N;
  int rc = start ? lin_jacobian_loop(v, &L, eps, A, e) : lin_jacobian(v, eps, A, e);
  if (!rc && LAPACKE_dgeev(LAPACK_ROW_MAJOR, 'N', 'V', N, A, N, wr, wi, NULL, N, V, N) != 0) {
    mt_fail(e, MT_EINTERNAL, "modes: the eigenvalue solve failed at %.2f m/s", sp->speed);
    rc = MT_EINTERNAL;
  }
  if (rc) {
    snprintf(p->why, sizeof p->why, "%s", e->msg);
    free(A);
    return rc;
  }
  /* lin_jacobian left v at the trimmed state with its derived quantities (xmat) */
  double h = v->rig->timestep;
  double* col = mt_alloc(sizeof(double) * 2 * n);
  if (keep_vectors) {
    p->n = n;
    p->vr = mt_alloc(sizeof(double) * 2 * (size_t)n * MD_MAX_MODES);
    p->vi = p->vr + (size_t)n * MD_MAX_MODES;
    p->x0 = mt_alloc(sizeof(double) * veh_state_size(v));
    veh_get_state(v, p->x0);
  }
  int k = 0;
  for (int i = 0; i < N && k < MD_MAX_MODES; i++) {
    if (wi[i] < 0) continue;
    double complex lam = wr[i] + I * wi[i];
    if (cabs(lam) < 1e-300) continue;
    double complex sc = clog(lam) / h;
    if (cabs(sc) < 1e-3) continue;
    md_mode* md = &p->mode[k];
    memset(md, 0, sizeof *md);
    md->re = creal(sc);
    md->im = fabs(cimag(sc));
    md->hz = md->im / (2 * MT_PI);
    md->zeta = -md->re / cabs(sc);
    md->name = MD_OTHER;
    double *cr = col, *ci = col + n;
    for (int q = 0; q < n; q++) {   /* the machine's part of the vector (shares, animation) */
      cr[q] = V[q * N + i];
      ci[q] = wi[i] > 0 ? V[q * N + i + 1] : 0;
    }
    shares(v, sp->speed, cr, ci, md->share);
    md->col = k;
    if (keep_vectors) {
      memcpy(p->vr + (size_t)k * n, cr, sizeof(double) * n);
      memcpy(p->vi + (size_t)k * n, ci, sizeof(double) * n);
    }
    k++;
  }
  p->nmode = k;
  /* sort, carrying the column index (vectors stay where they are) */
  qsort(p->mode, k, sizeof *p->mode, cmp_mode);
  p->ok = 1;
  free(col);
  free(A);
  return MT_OK;
}

const md_mode* md_find(const md_point* p, int name) {
  if (!p->ok) return NULL;
  for (int i = 0; i < p->nmode; i++)
    if (p->mode[i].name == name) return &p->mode[i];
  return NULL;
}

int md_parse_range(const char* s, const char* what, double* out, int max, mt_err* e) {
  char buf[128];
  double a[3];
  int na = 0;
  if (!s || strlen(s) >= sizeof buf) {
    mt_fail(e, MT_EINPUT, "%s: expected a number or FROM:TO:STEP", what);
    return -1;
  }
  snprintf(buf, sizeof buf, "%s", s);
  char* save = NULL;
  for (char* t = strtok_r(buf, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
    if (na == 3 || cli_parse_double(t, &a[na])) {
      mt_fail(e, MT_EINPUT, "%s: '%s' is not a number or FROM:TO:STEP", what, s);
      return -1;
    }
    na++;
  }
  if (na == 1 && !strchr(s, ':')) {
    if (max < 1) goto toomany;
    out[0] = a[0];
    return 1;
  }
  if (na != 3 || strstr(s, "::") || s[0] == ':' || s[strlen(s) - 1] == ':') {
    mt_fail(e, MT_EINPUT, "%s: '%s' is not a number or FROM:TO:STEP", what, s);
    return -1;
  }
  if (a[2] == 0 || (a[1] - a[0]) * a[2] < 0) {
    mt_fail(e, MT_EINPUT, "%s: '%s': the step must be nonzero and lead from %g to %g", what, s, a[0], a[1]);
    return -1;
  }
  double nf = floor((a[1] - a[0]) / a[2] + 1e-3) + 1;
  if (nf > max) goto toomany;
  int n = (int)nf;
  for (int i = 0; i < n; i++) out[i] = a[0] + i * a[2];
  return n;
toomany:
  mt_fail(e, MT_EINPUT, "%s: '%s' gives more than %d points", what, s, max);
  return -1;
}

/*---- naming ----*/

/* A smooth band weight: 0 below a, rising to 1 at b, 1 up to c, falling to 0 at d. */
static double band(double x, double a, double b, double c, double d) {
  if (x <= a || x >= d) return 0;
  if (x < b) return (x - a) / (b - a);
  if (x > c) return (d - x) / (d - c);
  return 1;
}

/* How much mode m looks like `name` by its shape and frequency alone, 0..1. */
static double score(const md_mode* m, int name) {
  const double* s = m->share;
  double rollyaw = s[MD_G_ROLL] + s[MD_G_YAW] + s[MD_G_LAT], fr = s[MD_G_TWIST] + s[MD_G_BEND];
  double lat = 1 - s[MD_G_INPLANE];
  switch (name) {
  case MD_WEAVE:   /* roll and yaw, with steer; a low-frequency oscillation */
    if (m->im <= 0) return 0;
    return band(m->hz, 0.15, 0.5, 4.5, 7) * fmin(1, rollyaw / 0.35) * fmin(1, s[MD_G_STEER] / 0.1) * lat;
  case MD_WOBBLE:  /* the front assembly about the steering axis, the frame nearly still */
    if (m->im <= 0) return 0;
    return band(m->hz, 3, 5, 15, 22) * fmin(1, s[MD_G_STEER] / 0.35) * (1 - fmin(1, rollyaw / 0.4)) *
           (s[MD_G_STEER] >= s[MD_G_RIDER] ? 1 : 0.3) * lat;
  case MD_CHATTER: /* the fork twisting and bending with steer, fast */
    if (m->im <= 0) return 0;
    return band(m->hz, 12, 18, 50, 70) * fmin(1, fr / 0.5) * fmin(1, s[MD_G_BEND] / 0.3) * fmin(1, s[MD_G_STEER] / 0.1) * lat;
  case MD_CAPSIZE: /* a slow real root: the machine falling over (or righting itself) */
    if (m->im > 0) return 0;
    return band(m->re, -6, -3, 3, 6) * fmin(1, s[MD_G_ROLL] / 0.3) * lat;
  }
  return 0;
}

/* Between two modes of the same score (the score saturates at 1 for a mode of the right shape,
 * so two of them tie up to rounding noise): the weave is the less damped of them (docs/vehicle.md,
 * "Modes of sport1000"), the wobble the one with the larger steer share, the others the less
 * damped. Returns whether a beats b. */
static int tie_better(const md_mode* a, const md_mode* b, int name) {
  if (name == MD_WOBBLE && a->share[MD_G_STEER] != b->share[MD_G_STEER]) return a->share[MD_G_STEER] > b->share[MD_G_STEER];
  return a->zeta < b->zeta;
}
#define MD_SCORE_TIE 1e-6   /* scores closer than this are a tie */

/* Distance of a candidate from the predicted root and the last shape. */
static double track_cost(const md_mode* c, double pre, double pim, const md_mode* last) {
  double d = hypot(c->re - pre, c->im - pim) / (hypot(last->re, last->im) + 5);
  double ds = 0;
  for (int g = 0; g < MD_NG; g++) ds += fabs(c->share[g] - last->share[g]);
  return d + 0.5 * ds;
}

void md_name(md_point* pts, int npts) {
  for (int i = 0; i < npts; i++)
    for (int k = 0; k < pts[i].nmode; k++) pts[i].mode[k].name = MD_OTHER;
  /* the chosen mode of each name at each point (−1: none), its score for conflicts */
  int* pick = mt_alloc(sizeof(int) * (size_t)npts * MD_NNAMED);
  double* conf = mt_alloc(sizeof(double) * (size_t)npts * MD_NNAMED);
  for (int nm = 0; nm < MD_NNAMED; nm++) {
    int ai = -1, ak = -1;
    double best = 0.25;   /* the least score that may anchor a name */
    for (int i = 0; i < npts; i++) {
      pick[i * MD_NNAMED + nm] = -1;
      conf[i * MD_NNAMED + nm] = 0;
      if (!pts[i].ok) continue;
      for (int k = 0; k < pts[i].nmode; k++) {
        double sc = score(&pts[i].mode[k], nm);
        int wins = ai < 0 ? sc > best
                          : sc > best + MD_SCORE_TIE ||
                                (sc > best - MD_SCORE_TIE && tie_better(&pts[i].mode[k], &pts[ai].mode[ak], nm));
        if (wins) best = fmax(best, sc), ai = i, ak = k;
      }
    }
    if (ai < 0) continue;
    pick[ai * MD_NNAMED + nm] = ak;
    conf[ai * MD_NNAMED + nm] = best;
    /* follow it both ways from the anchor */
    for (int dir = -1; dir <= 1; dir += 2) {
      int prev = ai, prev2 = -1;
      for (int i = ai + dir; i >= 0 && i < npts; i += dir) {
        if (!pts[i].ok) continue;
        const md_mode* l = &pts[prev].mode[pick[prev * MD_NNAMED + nm]];
        double pre = l->re, pim = l->im;
        if (prev2 >= 0) {
          const md_mode* l2 = &pts[prev2].mode[pick[prev2 * MD_NNAMED + nm]];
          pre = 2 * l->re - l2->re;
          pim = fmax(0, 2 * l->im - l2->im);
        }
        int bk = -1;
        double bc = 1e300;
        for (int k = 0; k < pts[i].nmode; k++) {
          const md_mode* c = &pts[i].mode[k];
          if ((c->im > 0) != (l->im > 0) && score(c, nm) < 0.05) continue;   /* a pair that splits keeps its kind */
          double tc = track_cost(c, pre, pim, l);
          if (tc < bc) bc = tc, bk = k;
        }
        if (bk < 0 || bc > 0.6 || score(&pts[i].mode[bk], nm) < 0.02) break;   /* lost: the name ends here */
        pick[i * MD_NNAMED + nm] = bk;
        conf[i * MD_NNAMED + nm] = score(&pts[i].mode[bk], nm) + 1 - bc;
        prev2 = prev;
        prev = i;
      }
    }
  }
  /* write the names; a mode claimed twice goes to the more confident name */
  for (int i = 0; i < npts; i++)
    for (int nm = 0; nm < MD_NNAMED; nm++) {
      int k = pick[i * MD_NNAMED + nm];
      if (k < 0) continue;
      int other = -1;
      for (int o = 0; o < MD_NNAMED; o++)
        if (o != nm && pick[i * MD_NNAMED + o] == k) other = o;
      if (other >= 0 && conf[i * MD_NNAMED + other] > conf[i * MD_NNAMED + nm]) continue;
      pts[i].mode[k].name = nm;
    }
  free(pick);
  free(conf);
}
