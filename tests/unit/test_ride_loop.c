/* test_ride_loop.c — the ride loop's shortcuts (issue 18) give the answers of the computations
 * they replace, bit for bit: path_locate's chords computed once, the station wrap without fmod,
 * path_long_limits' shared ellipse, the trim table read with one speed cell, and the rider's
 * decision from the frame the caller measured (rider_control_at). Each reference below is the
 * code the loop ran before, written out here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/posture.h"
#include "sim/rider.h"
#include "sim/rider_lqr.h"
#include "sim/rider_lqr_ref.h"
#include "sim/rider_trim.h"
#include "sim/trim.h"
#include "takes/path.h"
#include "tests/unit/test.h"

static int same(double a, double b) { return !memcmp(&a, &b, sizeof a); }

/* a closed wavy loop (curvature changes sign) and an open straight-then-bend strip */
static void wavy_centre(const void* self, double s, double* x, double* y, double* h) {
  (void)self;
  double R = 150, a = s / R, r = R + 12 * sin(5 * a);
  *x = r * cos(a);
  *y = r * sin(a);
  *h = atan2(*y - (R + 12 * sin(5 * (a - 1e-6))) * sin(a - 1e-6), *x - (R + 12 * sin(5 * (a - 1e-6))) * cos(a - 1e-6));
}
static void open_centre(const void* self, double s, double* x, double* y, double* h) {
  (void)self;
  if (s < 200) {
    *x = s, *y = 0, *h = 0;
  } else {
    double a = (s - 200) / 80;
    *x = 200 + 80 * sin(a), *y = 80 * (1 - cos(a)), *h = a;
  }
}
static void widths7(const void* self, double s, double* l, double* r) {
  (void)self;
  (void)s;
  *l = *r = 7;
}

static int ref_idx(const path* p, int i) {
  if (p->closed) return ((i % p->n) + p->n) % p->n;
  return i < 0 ? 0 : i >= p->n ? p->n - 1 : i;
}

/* path_locate as it was: the chord's constants computed at every call (the nearest sample by its
 * squared distance, as path_locate has compared them since hypot's root went: the same order up to
 * rounding) */
static double ref_d2(const path* p, int i, double x, double y) {
  double dx = p->x[i] - x, dy = p->y[i] - y;
  return dx * dx + dy * dy;
}

static void ref_locate(const path* p, double x, double y, int* hint, path_where* out) {
  int best = 0;
  double bd = INFINITY;
  if (*hint >= 0) {
    int i = *hint;
    double d = ref_d2(p, i, x, y);
    for (int dir = -1; dir <= 1; dir += 2) {
      int j = i;
      double dj = d;
      for (int k = 0; k < p->n; k++) {
        int nj = ref_idx(p, j + dir);
        if (nj == j) break;
        double dn = ref_d2(p, nj, x, y);
        if (dn >= dj) break;
        j = nj;
        dj = dn;
      }
      if (dj < bd) bd = dj, best = j;
    }
    if (bd > 400) *hint = -1;
  }
  if (*hint < 0)
    for (int i = 0; i < p->n; i++) {
      double d = ref_d2(p, i, x, y);
      if (d < bd) bd = d, best = i;
    }
  *hint = best;
  int a = best, b = ref_idx(p, best + 1);
  double ex = p->x[b] - p->x[a], ey = p->y[b] - p->y[a], L2 = ex * ex + ey * ey;
  double u = L2 > 0 ? ((x - p->x[a]) * ex + (y - p->y[a]) * ey) / L2 : 0;
  if (u < 0 && (p->closed || a > 0)) {
    b = a;
    a = ref_idx(p, best - 1);
    ex = p->x[b] - p->x[a];
    ey = p->y[b] - p->y[a];
    L2 = ex * ex + ey * ey;
    u = L2 > 0 ? ((x - p->x[a]) * ex + (y - p->y[a]) * ey) / L2 : 0;
  }
  u = mt_clamp(u, 0, 1);
  double px = p->x[a] + u * ex, py = p->y[a] + u * ey, L = sqrt(L2);
  double sa = p->s[a], sb = (b == 0 && p->closed) ? p->length : p->s[b];
  out->s = sa + u * (sb - sa);
  if (p->closed && out->s >= p->length) out->s -= p->length;
  double hx = L > 0 ? ex / L : cos(p->hd[a]), hy = L > 0 ? ey / L : sin(p->hd[a]);
  out->offset_error = (x - px) * -hy + (y - py) * hx;
  out->heading = atan2(hy, hx);
  out->index = a;
}

/* the interpolation as it was: fmod and floor */
static double ref_sample(const path* p, const double* arr, double s) {
  if (p->closed) {
    s = fmod(s, p->length);
    if (s < 0) s += p->length;
  } else
    s = mt_clamp(s, 0, p->length);
  double f = s / p->ds;
  int i = (int)floor(f);
  double u = f - i;
  return arr[ref_idx(p, i)] * (1 - u) + arr[ref_idx(p, i + 1)] * u;
}

static double ref_long_avail(const path* p, int i, double v, double amax) {
  double n = mt_clamp(1 + v * v * p->kv[i] / MT_G, 0.05, 1), ay = v * v * fabs(p->k[i]);
  double r = ay / (p->mu_y * n * MT_G), e = r < 1 ? sqrt(1 - r * r) : 0;
  return fmin(amax, p->mu_x * n * MT_G) * fmax(0.1, e);
}

static void ref_long_limits(const path* p, double s, double v, double* drive, double* brake) {
  if (p->closed) {
    s = fmod(s, p->length);
    if (s < 0) s += p->length;
  } else
    s = mt_clamp(s, 0, p->length);
  int i = ref_idx(p, (int)lround(s / p->ds));
  *drive = ref_long_avail(p, i, v, p->a_drive);
  *brake = ref_long_avail(p, i, v, p->a_brake);
}

static double curv_of(const void* p, double s) { return path_curvature(p, s); }

MT_TEST(ride_loop_path_shortcuts_match_the_direct_computations) {
  path_road roads[2] = {{NULL, 2 * M_PI * 150, 1, wavy_centre, widths7, NULL},
                        {NULL, 200 + 80 * M_PI, 0, open_centre, widths7, NULL}};
  long located = 0, sampled = 0, limits = 0, rehinted = 0, aheads = 0;
  for (int q = 0; q < 2; q++) {
    path* p = path_build(&roads[q], PATH_RACING, 0, 1.0, 2.0);
    CHECK(p && p->seg);
    path_limits lim = {1.0, 1.1, 6.0, 9.0, 4e-4, 60, NULL, NULL};
    path_speed_profile_qss(p, &lim, NULL);
    /* a rider's positions: along the line, up to 9 m either side, forwards and (hint kept) back */
    int hint = -1, rhint = -1;
    for (int k = -400; k <= 3 * p->n; k++) {
      double s = k * 0.37 * p->ds, x, y, off = 9 * sin(0.013 * k);
      path_point(p, s, &x, &y);
      double h = path_heading(p, s);
      x -= sin(h) * off;
      y += cos(h) * off;
      path_where w, rw;
      path_locate(p, x, y, &hint, &w);
      ref_locate(p, x, y, &rhint, &rw);
      CHECK(same(w.s, rw.s) && same(w.offset_error, rw.offset_error) && same(w.heading, rw.heading));
      CHECK(w.index == rw.index && hint == rhint);
      located++;
      if (k % 97 == 0) hint = rhint = -1, rehinted++;   /* a full search now and then */
    }
    /* stations on the line, beyond its ends and laps away, the exact edges among them */
    double L = p->length, edge[] = {0, -0.0, L, -L, 2 * L, -2 * L, nextafter(L, 0), nextafter(2 * L, 0), nextafter(-L, 0), 1e-300};
    for (int k = -3000; k < 3000 + (int)(sizeof edge / sizeof edge[0]); k++) {
      double s = k < 3000 ? k * 0.731 * p->ds - 0.5 * L : edge[k - 3000];
      for (int a = 0; a < 4; a++) {
        const double* arr = a == 0 ? p->k : a == 1 ? p->v : a == 2 ? p->off : p->gr;
        double got = a == 0 ? path_curvature(p, s) : a == 1 ? path_speed(p, s) : a == 2 ? path_offset(p, s) : path_grade(p, s);
        CHECK(same(got, ref_sample(p, arr, s)));
        sampled++;
      }
      /* the posture's look-ahead in one call against posture_ay_ahead over path_curvature */
      for (double v = 0; v < 70; v += 9.7)
        for (int q2 = 0; q2 < 3; q2++) {
          double pre = q2 == 0 ? 0.0 : q2 == 1 ? 0.6 : 1.7;
          CHECK(same(path_ay_ahead(p, s, v, pre), posture_ay_ahead(curv_of, p, s, v, pre)));
          aheads++;
        }
      for (double v = 3; v < 70; v += 13.3) {
        double d, b, rd, rb;
        path_long_limits(p, s, v, &d, &b);
        ref_long_limits(p, s, v, &rd, &rb);
        CHECK(same(d, rd) && same(b, rb));
        limits++;
      }
    }
    if (q == 0) {   /* curvatures of equal magnitude and both signs, and −0: the first of the largest wins */
      double* k0 = malloc(sizeof(double) * p->n);
      memcpy(k0, p->k, sizeof(double) * p->n);
      for (int i = 0; i < p->n; i++) p->k[i] = i % 3 == 0 ? 0.01 : i % 3 == 1 ? -0.01 : -0.0;
      for (int j = -50; j < 400; j++)
        for (double v = 0; v < 40; v += 3.3) {
          double s = j * 0.5 * p->ds, pre = 0.25 * p->ds * (j % 5) / fmax(v, 1);
          CHECK(same(path_ay_ahead(p, s, v, pre), posture_ay_ahead(curv_of, p, s, v, pre)));
          aheads++;
        }
      memcpy(p->k, k0, sizeof(double) * p->n);
      free(k0);
    }
    path_free(p);
  }
  fprintf(stderr, "  %ld locations (%ld full searches), %ld samples, %ld limits, %ld look-aheads: all bit for bit\n",
          located, rehinted, sampled, limits, aheads);
}

/* The trim table's combined reads against the single ones, and the rider's decision from the
 * caller's measured frame against the one that measures it, on a trimmed machine in a turn. */
typedef struct twin {
  rider_params p;
  rider_state s;
  rider_target t;
  int at;   /* 1: rider_control_at with the frame measured here; 2: and its yaw's cos and sin too (the
             * LQR measurement's, as the ridden loop gives them: branch loopC) */
} twin;

static void twin_control(vehicle* v, void* data) {
  twin* w = data;
  if (w->at) {
    double roll, pitch, yaw;
    veh_frame_euler(v, &roll, &pitch, &yaw);
    double cs[2] = {cos(yaw), sin(yaw)};
    rider_frame f = {roll, yaw, veh_speed(v), w->at == 2 ? cs : NULL};
    rider_control_at(&w->p, &w->s, v, &w->t, v->rig->timestep, &f);
  } else
    rider_control(&w->p, &w->s, v, &w->t, v->rig->timestep);
}

MT_TEST(ride_loop_rider_decision_from_the_measured_frame_is_the_same) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  static rider_trims tr;
  static rider_lqr lq;
  posture_params pp;
  posture_default_params(&pp, r);
  CHECK_MSG(rider_trims_build(r, &pp, &tr, &e) == MT_OK, "%s", e.msg);
  rider_lqr_weights lw;
  rider_lqr_default_weights(&lw);
  CHECK_MSG(rider_lqr_build(r, &lw, &lq, &e) == MT_OK, "%s", e.msg);
  /* the table's reads: one speed cell for all, the same values */
  long reads = 0;
  for (double V = 2; V < 75; V += 3.7)
    for (double phi = -1.2; phi <= 1.2; phi += 0.0913) {
      double yr, vl, st, tq, lo, hi, phi_t = 0.7 * phi - 0.05;
      rider_trims_turn(&tr, V, phi, phi_t, &yr, &vl, &st, &tq);
      CHECK(same(yr, rider_trims_yaw_rate(&tr, V, phi)) && same(vl, rider_trims_vlat(&tr, V, phi)));
      CHECK(same(st, rider_trims_steer(&tr, V, phi)) && same(tq, rider_trims_torque(&tr, V, phi_t)));
      double k = 0.03 * phi, dk = 1e-4 + 0.05 * fabs(k);
      rider_trims_roll_pair(&tr, V, fabs(k) - dk, fabs(k) + dk, &lo, &hi);
      CHECK(same(lo, rider_trims_roll(&tr, V, fabs(k) - dk)) && same(hi, rider_trims_roll(&tr, V, fabs(k) + dk)));
      /* the same reads from one speed cell found by the caller (rider_control_at's three look-ups) */
      rider_trim_cell c;
      rider_trims_cell(&tr, V, &c);
      double yr2, vl2, st2, tq2, lo2, hi2, xr[RIDER_LQR_NK], xr2[RIDER_LQR_NK];
      rider_trims_turn_in(&tr, &c, phi, phi_t, &yr2, &vl2, &st2, &tq2);
      CHECK(same(yr2, yr) && same(vl2, vl) && same(st2, st) && same(tq2, tq));
      rider_trims_roll_pair_in(&tr, &c, V, fabs(k) - dk, fabs(k) + dk, &lo2, &hi2);
      CHECK(same(lo2, lo) && same(hi2, hi));
      CHECK(same(rider_trims_roll_in(&tr, &c, V, k), rider_trims_roll(&tr, V, k)));
      CHECK(same(rider_lqr_ref_in(&tr, &c, phi_t, phi, 0.9, 1, xr2), rider_lqr_ref(&tr, V, phi_t, phi, 0.9, 1, xr)));
      CHECK(memcmp(xr, xr2, sizeof xr) == 0);
      reads++;
    }
  /* the heading gain's cell at max(V, 3): the caller's when that is V, else its own */
  double vs[] = {-1, -0.0, 0, 1, 2.5, nextafter(3, 0), 3, nextafter(3, 4), 3.5, 7, 30, 80, NAN, INFINITY};
  for (int q = 0; q < (int)(sizeof vs / sizeof vs[0]); q++) {
    rider_trim_cell c, scratch, want;
    rider_trims_cell(&tr, vs[q], &c);
    rider_trims_cell(&tr, fmax(vs[q], 3), &want);
    const rider_trim_cell* got = rider_trims_cell_at_least(&tr, &c, vs[q], 3, &scratch);
    CHECK(got->i == want.i && same(got->u, want.u));
    reads++;
  }
  /* three loops (LQR, gain-scheduled, no table), each ridden 3 s by three twins from one trim */
  int loops = 0;
  for (int mode = 0; mode < 3; mode++) {
    vehicle* v[3];
    twin w[3];
    trim_spec s = {0};
    s.speed = 27;
    s.fix_roll = 1;
    s.roll = -0.45;
    s.gear = -1;
    trim_result res;
    for (int k = 0; k < 3; k++) {
      v[k] = veh_new(r, (road){0}, 0, &e);
      CHECK(v[k]);
      CHECK_MSG(trim_solve(v[k], &s, &res, &e) == MT_OK, "%s", e.msg);
      memset(&w[k], 0, sizeof w[k]);
      rider_default_params(&w[k].p);
      w[k].p.trims = mode < 2 ? &tr : NULL;
      w[k].p.lqr = mode == 0 ? &lq : NULL;
      w[k].t.speed = 29;
      w[k].t.curvature = res.yaw_rate / 27;
      w[k].t.offset_error = 0.4;
      w[k].t.heading_error = -0.02;
      w[k].t.auto_gear = 1;
      w[k].s.steer_int = res.steer_torque;
      w[k].s.roll_ref = res.roll;
      w[k].at = k;
      v[k]->control = twin_control;
      v[k]->control_data = &w[k];
    }
    int nx = veh_state_size(v[0]), differ = 0;
    double xa[512], xb[512];
    CHECK(nx <= 512);
    for (int i = 0; i < 3000 && !differ; i++) {
      for (int k = 0; k < 3; k++) CHECK_MSG(veh_step(v[k], &e) == MT_OK, "%s", e.msg);
      veh_get_state(v[0], xa);
      for (int k = 1; k < 3 && !differ; k++) {
        veh_get_state(v[k], xb);
        differ = memcmp(xa, xb, sizeof(double) * nx) || memcmp(&v[0]->in, &v[k]->in, sizeof v[0]->in) ||
                 memcmp(&w[0].s, &w[k].s, sizeof w[0].s);
        if (differ) fprintf(stderr, "  loop %d: twin %d parts at step %d\n", mode, k, i);
      }
    }
    CHECK(!differ);
    /* and the ride did something: the rider leant, steered and used the throttle */
    double roll, pitch, yaw;
    veh_frame_euler(v[0], &roll, &pitch, &yaw);
    CHECK_MSG(fabs(roll) > 0.05 && v[0]->in.steer_torque != 0, "loop %d: roll %.3f, torque %.3f", mode, roll,
              v[0]->in.steer_torque);
    loops++;
    for (int k = 0; k < 3; k++) veh_free(v[k]);
  }
  fprintf(stderr, "  %ld table reads and %d loops x 3000 steps: bit for bit\n", reads, loops);
  rig_free(r);
}

/* The LQR rider's measurement from the yaw's cos and sin given (rider_lqr_measure_cs, branch
 * loopC) against the one that computes them (rider_lqr_measure_at), bit for bit: a machine in a
 * trimmed turn stepped 200 times, each step measured at 40 yaws — ±0, ±π/2, ±π and their
 * neighbours, tiny, huge (slow argument reduction), ±∞, NaN, and a spread over ±40 rad. */
MT_TEST(ride_loop_lqr_measurement_from_given_cos_sin_is_the_same) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  CHECK_MSG(v, "%s", e.msg);
  trim_spec s = {0};
  s.speed = 24;
  s.fix_roll = 1;
  s.roll = 0.6;
  s.gear = -1;
  trim_result res;
  CHECK_MSG(trim_solve(v, &s, &res, &e) == MT_OK, "%s", e.msg);
  double yaws[40] = {0, -0.0, M_PI_2, -M_PI_2, M_PI, -M_PI, nextafter(M_PI, 4), nextafter(-M_PI, -4), 1e-300, -5e-324,
                     1e22, -1e300, 1e9 + 0.5, INFINITY, -INFINITY, NAN};
  for (int k = 16; k < 40; k++) yaws[k] = -40 + 80.0 * (k - 16) / 23 + 1e-3 * k;
  long n = 0;
  for (int i = 0; i < 200; i++) {
    CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
    for (int k = 0; k < 40; k++) {
      double a[RIDER_LQR_NK], b[RIDER_LQR_NK], roll = 0.01 * i - 0.7;
      rider_lqr_measure_at(v, roll, yaws[k], a);
      rider_lqr_measure_cs(v, roll, cos(yaws[k]), sin(yaws[k]), b);
      CHECK_MSG(!memcmp(a, b, sizeof a), "step %d, yaw %.17g", i, yaws[k]);
      n++;
    }
  }
  veh_free(v);
  rig_free(r);
  CHECK(n == 8000);
}
