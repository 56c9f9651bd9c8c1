/* rscene.c — a take opened for drawing (see rscene.h). */
#include "render/rscene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/linkage.h"
#include "scene/rider_points.h"
#include "scene/skel_take.h"
#include "takes/replay.h"

const char* const rs_chan_names[RC_N] = {
    "speed",        "gear",         "rpm",      "throttle", "front_brake",  "rear_brake",   "lean",
    "steer_torque", "fork_travel",  "shock_travel", "front_fx", "front_fy", "front_load", "rear_fx",
    "rear_fy",      "rear_load",    "front_slip_angle", "rear_slip_angle", "front_camber", "rear_camber",
    "station",      "offset",       "heading",  "hip_shift", "torso_lean", "distance"};

void rs_rotate(const double q[4], const double v[3], double out[3]) {
  /* v' = v + 2w(u×v) + 2u×(u×v), u = (x, y, z) */
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  out[0] = v[0] + w * tx + (y * tz - z * ty);
  out[1] = v[1] + w * ty + (z * tx - x * tz);
  out[2] = v[2] + w * tz + (x * ty - y * tx);
}

void rs_pose_point(const double pose[7], const double local[3], double out[3]) {
  double r[3];
  rs_rotate(pose + 3, local, r);
  for (int i = 0; i < 3; i++) out[i] = pose[i] + r[i];
}

static rig_shape shape_local(const rig_shape* s, const double o[3]) {
  rig_shape x = *s;
  for (int i = 0; i < 3; i++) {
    x.a[i] = s->a[i] - o[i];
    if (s->type == RIG_CYLINDER || s->type == RIG_CAPSULE) x.b[i] = s->b[i] - o[i];
  }
  return x;
}

/* The linkage parts are massless bodies without rig shapes: their bars (scene/linkage.h), as
 * capsules in their frames; part −1 (not a linkage part) adds none. */
static void linkage_shapes(const rig* rg, int part, rs_body* b) {
  sc_bar bar[SC_LINK_MAX_BARS];
  double origin[3];
  int n = sc_link_bars(&rg->linkage, part, bar, origin);
  for (int k = 0; k < n; k++) b->shape[b->nshape++] = sc_bar_rig(&bar[k]);
}

/* rs_open, by stage. */

/* The take must be complete and hold two steps or more. */
static int check_take(rs_take* k, const char* path, mt_err* e) {
  const char* reason = NULL;
  if (!take_complete(k->r, &reason))
    return mt_fail(e, MT_EINPUT, "%s: incomplete take (%s): render a cut of its good part (mototake take cut)", path,
                   reason ? reason : "no end status");
  k->s = take_schema_of(k->r);
  k->nsteps = take_nsteps(k->r);
  k->dt = k->s->timestep;
  if (k->nsteps < 2) return mt_fail(e, MT_EINPUT, "%s: take has %ld step(s): nothing to render", path, k->nsteps);
  k->duration = (k->nsteps - 1) * k->dt;
  return MT_OK;
}

/* Every body's shapes in its own frame and its wheel; the root (the last body without a parent). */
static void build_bodies(rs_take* k) {
  k->nb = k->s->nbody;
  k->body = mt_alloc(sizeof(rs_body) * k->nb);
  for (int i = 0; i < k->nb; i++) {
    rs_body* b = &k->body[i];
    b->name = k->s->body_names[i];
    b->wheel = -1;
    if (!k->s->body_parents[i][0]) k->root = i;
    int rb = rig_body_index(k->rg, b->name);
    if (rb >= 0) {
      const rig_body* rbd = &k->rg->body[rb];
      const double* o3 = rbd->parent < 0 ? rbd->com : k->rg->joint[rbd->joint0].anchor;
      for (int q = 0; q < rbd->nshape && q < RS_MAX_SHAPES; q++)
        if (!k->sk || !sc_rider_shape(k->rg, rb, q)) b->shape[b->nshape++] = shape_local(&rbd->shape[q], o3);
      for (int w = 0; w < 2; w++)
        if (k->rg->wheel[w].body == rb) b->wheel = w;
    } else {
      linkage_shapes(k->rg, sc_link_part(b->name), b);   /* none for another body */
    }
  }
}

/* The rider's skeleton when the rig and the take's bodies have what it needs. */
static void rider_skeleton(rs_take* k) {
  sk_skeleton sk;
  if (sk_build(k->rg, &sk)) return;
  for (int b = 0; b < SK_NBODY; b++) {
    k->skb[b] = -1;
    for (int i = 0; i < k->s->nbody; i++)
      if (!strcmp(k->s->body_names[i], sk_body_names[b])) k->skb[b] = i;
    if (k->skb[b] < 0) return;
  }
  k->sk = mt_alloc(sizeof sk);
  *k->sk = sk;
  k->road_hint = -1;
}

/* The channels the views use (rs_chan_names), −1 where the take lacks one. */
static void find_channels(rs_take* k) {
  for (int c = 0; c < RC_N; c++) {
    k->ch[c] = -1;
    for (int j = 0; j < k->s->nchan; j++)
      if (!strcmp(k->s->chan_names[j], rs_chan_names[c])) k->ch[c] = j;
  }
}

/* The timeline's channels: plot, or what the take has of RS_DEFAULT_PLOT. */
static int choose_plot(rs_take* k, const char* path, const char* plot, mt_err* e) {
  char pl[512];
  snprintf(pl, sizeof pl, "%s", plot ? plot : RS_DEFAULT_PLOT);
  for (char *save = NULL, *tok = strtok_r(pl, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    int j = -1;
    for (int q = 0; q < k->s->nchan && j < 0; q++)
      if (!strcmp(k->s->chan_names[q], tok)) j = q;
    if (j < 0 && !plot) continue;   /* the default list: what this take has of it */
    if (j < 0) return mt_fail(e, MT_EINPUT, "--plot: %s has no channel '%s' (mototake take info lists them)", path, tok);
    if (k->nplot == RS_MAX_PLOT) return mt_fail(e, MT_EINPUT, "--plot: at most %d channels", RS_MAX_PLOT);
    k->plot_ch[k->nplot++] = j;
  }
  k->hs = RH_N + k->nplot;
  return MT_OK;
}

/* The 50 Hz history, one step at a time, and the timeline channels' ranges. */
static int read_history(rs_take* k, mt_err* e) {
  int nc = k->s->nchan, np = 7 * k->nb;
  long every = (long)llround(1.0 / (RS_HIST_HZ * k->dt));
  if (every < 1) every = 1;
  k->nhist = (int)((k->nsteps - 1) / every) + 1;
  k->hist = mt_alloc(sizeof(double) * k->hs * k->nhist);
  double* cbuf = mt_alloc(sizeof(double) * nc);
  double* pbuf = mt_alloc(sizeof(double) * np);
  int rc = MT_OK;
  for (int i = 0; i < k->nhist && !rc; i++) {
    long step = i * every;
    rc = take_read(k->r, TAKE_CHAN, step, 1, cbuf, e) || take_read(k->r, TAKE_POSE, step, 1, pbuf, e);
    if (rc) break;
    double* h = k->hist + (size_t)k->hs * i;
    h[RH_T] = step * k->dt;
    h[RH_X] = pbuf[7 * k->root];
    h[RH_Y] = pbuf[7 * k->root + 1];
#define CH(c) (k->ch[c] >= 0 ? cbuf[k->ch[c]] : 0)
    h[RH_SPEED] = CH(RC_SPEED);
    const double* q = pbuf + 7 * k->root + 3;
    h[RH_LEAN] = atan2(2 * (q[0] * q[1] + q[2] * q[3]), 1 - 2 * (q[1] * q[1] + q[2] * q[2]));
    h[RH_DIST] = CH(RC_DIST);
#undef CH
    for (int q = 0; q < k->nplot; q++) {
      double v = cbuf[k->plot_ch[q]];
      h[RH_N + q] = v;
      if (i == 0 || v < k->plot_lo[q]) k->plot_lo[q] = v;
      if (i == 0 || v > k->plot_hi[q]) k->plot_hi[q] = v;
    }
  }
  for (int q = 0; q < k->nplot; q++) {   /* a little room above and below; a constant gets ±1 */
    double lo = k->plot_lo[q], hi = k->plot_hi[q], pad = hi > lo ? 0.05 * (hi - lo) : 1;
    k->plot_lo[q] = lo - pad;
    k->plot_hi[q] = hi + pad;
  }
  free(cbuf);
  free(pbuf);
  return rc ? MT_EINPUT : MT_OK;
}

/* The road's elevation range, for the plan's colours. */
static void road_range(rs_take* k) {
  k->zmin = INFINITY;
  k->zmax = -INFINITY;
  double L = track_length(k->tk);
  for (double s = 0; s <= L; s += 5) {
    double p[3], hd;
    track_eval(k->tk, s, 0, p, &hd);
    k->zmin = fmin(k->zmin, p[2]);
    k->zmax = fmax(k->zmax, p[2]);
  }
}

int rs_open(rs_take* k, const char* path, const char* plot, mt_err* e) {
  memset(k, 0, sizeof *k);
  snprintf(k->path, sizeof k->path, "%s", path);
  k->r = take_open(path, e);
  if (!k->r) return e->code ? e->code : MT_EINPUT;
  int rc = check_take(k, path, e);
  if (!rc && replay_rebuild(k->r, 0, &k->rg, &k->tk, e)) rc = e->code ? e->code : MT_EINPUT;
  if (!rc) {
    rider_skeleton(k);
    build_bodies(k);
    find_channels(k);
    rc = choose_plot(k, path, plot, e);
  }
  if (!rc) rc = read_history(k, e);
  if (rc) {
    rs_close(k);
    return rc;
  }
  road_range(k);
  k->buf = mt_alloc(sizeof(double) * 2 * (7 * k->nb + k->s->nchan));
  return MT_OK;
}

void rs_close(rs_take* k) {
  if (k->r) take_close(k->r);
  if (k->rg) rig_free(k->rg);
  if (k->tk) track_free(k->tk);
  free(k->body);
  free(k->hist);
  free(k->buf);
  free(k->sk);
  memset(k, 0, sizeof *k);
}

void rs_state_init(const rs_take* k, rs_state* st) {
  memset(st, 0, sizeof *st);
  st->pose = mt_alloc(sizeof(double) * 7 * k->nb);
  st->chan = mt_alloc(sizeof(double) * (k->s->nchan + 1));
  if (k->sk) st->skp = mt_alloc(sizeof *st->skp);
}

void rs_state_free(rs_state* st) {
  free(st->pose);
  free(st->chan);
  free(st->skp);
  memset(st, 0, sizeof *st);
}

/*---- the rider's skeleton at a state ----*/

static double road_under(void* ctx, double x, double y, double n[3]) {
  rs_take* k = ctx;
  road_point rp;
  if (!k->tk || track_query(k->tk, x, y, k->road_hint, &rp)) {
    n[0] = n[1] = 0, n[2] = 1;
    return 0;
  }
  k->road_hint = rp.hint;
  memcpy(n, rp.n, sizeof rp.n);
  return rp.z;
}

/* History sample i's x, y (clamped to the history). */
static const double* hist_row(const rs_take* k, long i) {
  if (i < 0) i = 0;
  if (i > k->nhist - 1) i = k->nhist - 1;
  return k->hist + (size_t)k->hs * i;
}

/* The release blend at st->t from the history's speed and lean (sk_release_step's inputs). */
static void release_at(const rs_take* k, double t, sk_release* rel) {
  double h = 1.0 / RS_HIST_HZ;
  long i1 = (long)floor(t / h + 1e-9), i0 = i1 - (long)ceil(2 * SK_RELEASE_S / h);
  sk_frame_in in;
  memset(&in, 0, sizeof in);
  memset(rel, 0, sizeof *rel);
  for (long i = i0 < 0 ? 0 : i0; i <= i1; i++) {
    const double* r = hist_row(k, i);
    in.body[SK_BODY_FRAME][3] = cos(0.5 * r[RH_LEAN]), in.body[SK_BODY_FRAME][4] = sin(0.5 * r[RH_LEAN]);
    in.speed = r[RH_SPEED];
    sk_release_step(rel, k->sk, &in, i == (i0 < 0 ? 0 : i0) ? 0 : h);
  }
}

/* The skeleton at st: the look point 1.5 s on in the history and the release blend over it,
 * or for a live state (no history of its own) SK_LIVE_LOOK m along the heading (hx, hy), riding
 * (no foot down) and released only by the lean, at once. */
static void rider_pose(rs_take* k, rs_state* st, int live, double hx, double hy) {
  sk_frame_in in;
  memset(&in, 0, sizeof in);
  for (int b = 0; b < SK_NBODY; b++) memcpy(in.body[b], st->pose + 7 * k->skb[b], sizeof in.body[b]);
  in.road = road_under, in.road_ctx = k;
  double n[3];
  if (live) {
    in.look[0] = in.body[SK_BODY_FRAME][0] + SK_LIVE_LOOK * hx, in.look[1] = in.body[SK_BODY_FRAME][1] + SK_LIVE_LOOK * hy;
    in.speed = INFINITY;
    sk_release_step(&in.rel, k->sk, &in, 0);
  } else {
    double f = (st->t + SK_LOOK_AHEAD) * RS_HIST_HZ;
    long i = (long)floor(f);
    const double *a = hist_row(k, i), *b = hist_row(k, i + 1);
    double u = i + 1 < k->nhist ? f - i : 0;
    in.look[0] = a[RH_X] + u * (b[RH_X] - a[RH_X]), in.look[1] = a[RH_Y] + u * (b[RH_Y] - a[RH_Y]);
    in.speed = rs_ch(k, st, RC_SPEED, 0);
    release_at(k, st->t, &in.rel);
  }
  in.look[2] = road_under(k, in.look[0], in.look[1], n);
  sk_pose(k->sk, &in, st->skp);
}

void rs_rider_live(rs_take* k, rs_state* st, double hx, double hy) {
  if (k->sk && st->skp) rider_pose(k, st, 1, hx, hy);
}

int rs_at(rs_take* k, double t, rs_state* st, mt_err* e) {
  t = mt_clamp(t, 0, k->duration);
  double x = t / k->dt;
  long i0 = (long)floor(x + 1e-9);
  if (i0 > k->nsteps - 2) i0 = k->nsteps - 2;
  double f = mt_clamp(x - i0, 0, 1);
  int np = 7 * k->nb, nc = k->s->nchan;
  double *p = k->buf, *c = k->buf + 2 * np;
  if (take_read(k->r, TAKE_POSE, i0, 2, p, e) || take_read(k->r, TAKE_CHAN, i0, 2, c, e)) return MT_EINPUT;
  for (int b = 0; b < k->nb; b++) {
    const double *a = p + 7 * b, *q = p + np + 7 * b;
    double* o = st->pose + 7 * b;
    for (int j = 0; j < 3; j++) o[j] = a[j] + f * (q[j] - a[j]);
    double d = a[3] * q[3] + a[4] * q[4] + a[5] * q[5] + a[6] * q[6], sg = d < 0 ? -1 : 1, n = 0;
    for (int j = 3; j < 7; j++) {
      o[j] = a[j] + f * (sg * q[j] - a[j]);
      n += o[j] * o[j];
    }
    n = n > 0 ? 1 / sqrt(n) : 1;
    for (int j = 3; j < 7; j++) o[j] *= n;
  }
  for (int j = 0; j < nc; j++) st->chan[j] = c[j] + f * (c[nc + j] - c[j]);
  if (k->ch[RC_GEAR] >= 0) st->chan[k->ch[RC_GEAR]] = c[k->ch[RC_GEAR]];
  st->t = t;
  if (k->sk && st->skp) rider_pose(k, st, 0, 0, 0);
  return MT_OK;
}

double rs_ch(const rs_take* k, const rs_state* st, int rc, double dflt) {
  return k->ch[rc] >= 0 ? st->chan[k->ch[rc]] : dflt;
}
