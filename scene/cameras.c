/* cameras.c — the camera rigs of rigs/cameras.lua and their placement (see cameras.h).
 *
 * Reading, by stage: the file (a list of 1 to 16 cameras) → each camera's name, kind and keys
 * (every camera is checked, wanted or not, so a bad file fails whichever camera is asked for)
 * → the wanted camera's fields, one reader per kind.
 * Placement: every 10 ms of the motion (SAMPLE_DT) the root body's heading (its velocity's
 * direction, Gaussian-smoothed over the follow camera's `smooth` seconds) and its station along
 * the track (unwrapped across the start line); a view at t interpolates those samples. */
#include "scene/cameras.h"

#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/luabox.h"
#include "sim/track.h"
#include "base/vec3.h"

#define SAMPLE_DT 0.01
#define MAX_CAMERAS 16

struct sc_camera {
  sc_cam_cfg cfg;                  /* an onboard eye moved into its body's frame */
  const sc_motion* m;              /* borrowed */
  int bidx;                        /* onboard: the body's index in the motion */
  long nsamp;
  double* samp;                    /* per SAMPLE_DT: heading unit x, y (smoothed), station (unwrapped) */
  double stand[SC_CAM_MAX_POINTS][3];   /* trackside: each stand's eye */
};

/* small vectors: base/vec3.h */

/*---- the camera file ----*/

static const char* const KEYS_COMMON[] = {"name", "kind", NULL};
static const char* const KEYS_FOLLOW[] = {"name", "kind", "distance", "height", "target_height", "fov", "smooth",
                                          "draw_behind", "draw_ahead", NULL};
static const char* const KEYS_TRACKSIDE[] = {"name", "kind", "stations", "spacing", "first", "offset", "side", "height",
                                             "size", "frame", "fov_min", "fov_max", "draw_behind", "draw_ahead", NULL};
static const char* const KEYS_ONBOARD[] = {"name", "kind", "body", "eye", "look", "fov", "draw_behind", "draw_ahead", NULL};

static char g_names[MAX_CAMERAS][32];   /* the names in the file last read (sc_camera_list) */

static void cameras_path(const char* path, char* out, size_t n) {
  if (path) snprintf(out, n, "%s", path);
  else snprintf(out, n, "%s/rigs/cameras.lua", luabox_project_root());
}

/* A number within [lo, hi] (inclusive) with a located error otherwise. */
static int num_in(lua_State* L, const lb_scope* sc, const char* f, int required, double dflt, double lo, double hi,
                  double* out, mt_err* e) {
  if (lb_num(L, -1, sc, f, 0, required, dflt, out, e)) return MT_EINPUT;
  if (!(*out >= lo && *out <= hi)) return lb_fail(sc, f, 0, e, "must be within [%g, %g], got %g", lo, hi, *out);
  return MT_OK;
}

static int vec3(lua_State* L, const lb_scope* sc, const char* f, const double dflt[3], double out[3], mt_err* e) {
  int pushed;
  if (lb_table(L, -1, sc, f, 0, 0, &pushed, e)) return MT_EINPUT;
  if (!pushed) {
    memcpy(out, dflt, sizeof(double) * 3);
    return MT_OK;
  }
  lb_scope vs = lb_enter(sc, f, 0, NULL);
  int rc = luaL_len(L, -1) != 3 ? lb_fail(sc, f, 0, e, "needs 3 numbers {x, y, z}") : MT_OK;
  for (int k = 0; k < 3 && !rc; k++) rc = lb_num(L, -1, &vs, NULL, k + 1, 1, 0, &out[k], e);
  lua_pop(L, 1);
  return rc;
}

/* A follow camera's fields (the camera's table on top of the stack); fov in degrees. */
static int read_follow(lua_State* L, const lb_scope* cs, sc_cam_cfg* c, double* fov, mt_err* e) {
  return num_in(L, cs, "distance", 0, 5.5, 0.5, 100, &c->distance, e) || num_in(L, cs, "height", 0, 1.9, -5, 100, &c->height, e) ||
         num_in(L, cs, "target_height", 0, 0.4, -5, 10, &c->target_height, e) || num_in(L, cs, "fov", 0, 50, 5, 150, fov, e) ||
         num_in(L, cs, "smooth", 0, 0.4, 0, 10, &c->smooth, e) || num_in(L, cs, "draw_behind", 0, 20, 0, 2000, &c->behind, e) ||
         num_in(L, cs, "draw_ahead", 0, 300, 1, 2000, &c->ahead, e);
}

/* A trackside camera's list of stations, if given. */
static int read_stations(lua_State* L, const lb_scope* cs, sc_cam_cfg* c, mt_err* e) {
  int pushed, rc;
  if ((rc = lb_table(L, -1, cs, "stations", 0, 0, &pushed, e)) != MT_OK || !pushed) return rc;
  lb_scope ss = lb_enter(cs, "stations", 0, NULL);
  int m = (int)luaL_len(L, -1);
  if (m < 1 || m > SC_CAM_MAX_POINTS) rc = lb_fail(cs, "stations", 0, e, "needs 1 to %d stations, got %d", SC_CAM_MAX_POINTS, m);
  for (int j = 0; j < m && !rc; j++) {
    rc = lb_num(L, -1, &ss, NULL, j + 1, 1, 0, &c->station[j], e);
    if (!rc && !(c->station[j] >= 0)) rc = lb_fail(cs, "stations", 0, e, "station %d is negative (%g)", j + 1, c->station[j]);
  }
  c->npoint = rc ? 0 : m;
  lua_pop(L, 1);
  return rc;
}

/* A trackside camera's fields. */
static int read_trackside(lua_State* L, const lb_scope* cs, sc_cam_cfg* c, mt_err* e) {
  const char* side;
  int rc = num_in(L, cs, "spacing", 0, 150, 5, 1e5, &c->spacing, e) || num_in(L, cs, "first", 0, 0, 0, 1e5, &c->first, e) ||
           num_in(L, cs, "offset", 0, 6, 0, 200, &c->offset, e) || num_in(L, cs, "height", 0, 1.7, 0.1, 200, &c->cam_height, e) ||
           num_in(L, cs, "size", 0, 2.2, 0.1, 100, &c->size, e) || num_in(L, cs, "frame", 0, 0.3, 0.01, 1, &c->frame, e) ||
           num_in(L, cs, "fov_min", 0, 4, 0.5, 150, &c->fov_min, e) || num_in(L, cs, "fov_max", 0, 45, 0.5, 150, &c->fov_max, e) ||
           num_in(L, cs, "draw_behind", 0, 250, 0, 2000, &c->behind, e) || num_in(L, cs, "draw_ahead", 0, 250, 1, 2000, &c->ahead, e) ||
           lb_str(L, -1, cs, "side", 0, "outside", &side, e);
  if (!rc) {
    c->side = !strcmp(side, "outside") ? 0 : !strcmp(side, "left") ? 1 : !strcmp(side, "right") ? -1 : 2;
    if (c->side == 2) rc = lb_fail(cs, "side", 0, e, "expected outside, left or right, got '%s'", side);
  }
  if (!rc && c->fov_min > c->fov_max) rc = lb_fail(cs, "fov_min", 0, e, "is above fov_max (%g > %g)", c->fov_min, c->fov_max);
  c->fov_min *= MT_PI / 180, c->fov_max *= MT_PI / 180;
  if (!rc) rc = read_stations(L, cs, c, e);
  return rc;
}

/* An onboard camera's fields; fov in degrees; bodies (may be NULL): the names it may ride on. */
static int read_onboard(lua_State* L, const lb_scope* cs, sc_cam_cfg* c, double* fov, const char* const* bodies, int nb,
                        mt_err* e) {
  const char* body;
  static const double eye0[3] = {1.15, 0.30, 0.72}, look0[3] = {1, -0.06, -0.04};
  int rc = lb_str(L, -1, cs, "body", 0, "frame", &body, e) || vec3(L, cs, "eye", eye0, c->eye, e) ||
           vec3(L, cs, "look", look0, c->look, e) || num_in(L, cs, "fov", 0, 70, 5, 150, fov, e) ||
           num_in(L, cs, "draw_behind", 0, 5, 0, 2000, &c->behind, e) || num_in(L, cs, "draw_ahead", 0, 300, 1, 2000, &c->ahead, e);
  if (!rc) snprintf(c->body, sizeof c->body, "%s", body);
  if (!rc && !(norm3(c->look) > 0)) rc = lb_fail(cs, "look", 0, e, "must not be the zero vector");
  if (!rc && bodies) {
    int ok = 0;
    for (int b = 0; b < nb && !ok; b++) ok = !strcmp(bodies[b], body);
    if (!ok) rc = lb_fail(cs, "body", 0, e, "no body '%s' in this take (the frame is 'frame')", body);
  }
  return rc;
}

/* Camera i (1-based) of the list on top of the stack: its name (kept in g_names), kind and keys
 * checked; when it is `want`, its fields into c and *found set. */
static int read_camera(lua_State* L, const lb_scope* top, int i, const char* want, sc_cam_cfg* c, const char* const* bodies,
                       int nb, int* found, mt_err* e) {
  static char lab[64];   /* the scope's label: "camera N" until the name is known */
  int pushed, rc;
  snprintf(lab, sizeof lab, "camera %d", i);
  if ((rc = lb_table(L, -1, top, NULL, i, 1, &pushed, e))) return rc;
  lb_scope cs = lb_enter(top, NULL, i, lab);
  const char *name, *kind;
  rc = lb_str(L, -1, &cs, "name", 1, NULL, &name, e);
  if (!rc && strlen(name) >= sizeof g_names[0]) rc = lb_fail(&cs, "name", 0, e, "longer than %zu characters", sizeof g_names[0] - 1);
  if (!rc) {
    snprintf(g_names[i - 1], sizeof g_names[i - 1], "%s", name);
    snprintf(lab, sizeof lab, "camera '%s'", name);
    for (int j = 0; j < i - 1 && !rc; j++)
      if (!strcmp(g_names[j], name)) rc = lb_fail(&cs, "name", 0, e, "defined twice");
  }
  if (!rc) rc = lb_str(L, -1, &cs, "kind", 1, NULL, &kind, e);
  int k = -1;
  if (!rc) {
    k = !strcmp(kind, "follow") ? SC_CAM_FOLLOW : !strcmp(kind, "trackside") ? SC_CAM_TRACKSIDE : !strcmp(kind, "onboard") ? SC_CAM_ONBOARD : -1;
    if (k < 0) rc = lb_fail(&cs, "kind", 0, e, "unknown kind '%s' (follow, trackside, onboard)", kind);
  }
  if (!rc)
    rc = lb_check_keys(L, -1, &cs, k == SC_CAM_FOLLOW ? KEYS_FOLLOW : k == SC_CAM_TRACKSIDE ? KEYS_TRACKSIDE : k == SC_CAM_ONBOARD ? KEYS_ONBOARD : KEYS_COMMON,
                       e);
  if (!rc && want && !strcmp(want, name)) {
    *found = 1;
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->kind = k;
    double fov = 0;
    if (k == SC_CAM_FOLLOW) rc = read_follow(L, &cs, c, &fov, e);
    else if (k == SC_CAM_TRACKSIDE) rc = read_trackside(L, &cs, c, e);
    else if (k == SC_CAM_ONBOARD) rc = read_onboard(L, &cs, c, &fov, bodies, nb, e);
    c->fov = fov * MT_PI / 180;
  }
  lua_pop(L, 1);
  return rc;
}

/* Read the file: every camera's name (into g_names, their count into *nnames when not NULL)
 * and camera `want` (may be NULL: only the names) into c. */
static int load_file(const char* path0, const char* want, sc_cam_cfg* c, const char* const* bodies, int nb, int* nnames,
                     mt_err* e) {
  char path[1024];
  cameras_path(path0, path, sizeof path);
  lua_State* L = luabox_new(NULL);
  char* src = NULL;
  int rc = MT_OK, found = 0, n = 0;
  if (luabox_run_file(L, path, 1, &src, e)) {
    rc = MT_EINPUT;
    goto done;
  }
  lb_scope top = {.file = path, .src = src};
  if (!lua_istable(L, -1)) {
    rc = mt_fail(e, MT_EINPUT, "%s: a camera file must return a list of cameras", path);
    goto done;
  }
  n = (int)luaL_len(L, -1);
  if (n < 1 || n > MAX_CAMERAS) {
    rc = mt_fail(e, MT_EINPUT, "%s: needs 1 to %d cameras, got %d", path, MAX_CAMERAS, n);
    goto done;
  }
  for (int i = 0; i < n && !rc; i++) rc = read_camera(L, &top, i + 1, want, c, bodies, nb, &found, e);
  if (!rc && want && !found) {
    char list[512] = "";
    for (int i = 0; i < n; i++) {
      size_t l = strlen(list);
      snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", g_names[i]);
    }
    rc = mt_fail(e, MT_EINPUT, "%s: no camera '%s' (cameras: %s)", path, want, list);
  }
done:
  if (nnames) *nnames = rc ? 0 : n;
  free(src);
  luabox_close(L);
  return rc ? (e->code ? e->code : MT_EINPUT) : MT_OK;
}

int sc_camera_load(const char* path, const char* name, const char* const* bodies, int nb, sc_cam_cfg* c, mt_err* e) {
  return load_file(path, name, c, bodies, nb, NULL, e);
}

int sc_camera_list(const char** names, int max, mt_err* e) {
  int n = 0;
  if (load_file(NULL, NULL, NULL, NULL, 0, &n, e)) return -1;
  for (int i = 0; i < n && i < max; i++) names[i] = g_names[i];
  return n < max ? n : max;
}

int sc_camera_names(const char** names, int max) {
  mt_err e = {0};
  int n = sc_camera_list(names, max, &e);
  return n < 0 ? 0 : n;
}

/*---- placement: set-up ----*/

/* Per-sample smoothed heading and station, from the root body's poses. */
static void build_samples(sc_camera* cam) {
  const sc_motion* m = cam->m;
  double T = (m->nsteps - 1) * m->dt;
  cam->nsamp = (long)floor(T / SAMPLE_DT + 1e-9) + 1;
  cam->samp = mt_alloc(sizeof(double) * 3 * cam->nsamp);
  double* raw = mt_alloc(sizeof(double) * 2 * cam->nsamp);
  long w = (long)fmax(1, floor(0.02 / m->dt + 0.5));
  int hint = -1;
  double prev = 0;
  for (long k = 0; k < cam->nsamp; k++) {
    long j = (long)floor(k * SAMPLE_DT / m->dt + 0.5);
    if (j > m->nsteps - 1) j = m->nsteps - 1;
    long j0 = j - w < 0 ? 0 : j - w, j1 = j + w > m->nsteps - 1 ? m->nsteps - 1 : j + w;
    const float* P0 = m->pose + (j0 * m->nb + m->root) * 7;
    const float* P1 = m->pose + (j1 * m->nb + m->root) * 7;
    const float* P = m->pose + (j * m->nb + m->root) * 7;
    double vx = 0, vy = 0;
    if (j1 > j0) vx = ((double)P1[0] - P0[0]) / ((j1 - j0) * m->dt), vy = ((double)P1[1] - P0[1]) / ((j1 - j0) * m->dt);
    double q[4] = {P[3], P[4], P[5], P[6]}, R[9];
    sc_quat_mat(q, R);
    double yx = R[0], yy = R[3], yn = hypot(yx, yy);
    if (yn > 1e-9) yx /= yn, yy /= yn;
    /* the velocity's direction at speed; the frame's heading (0.5 m/s worth) when nearly still */
    raw[2 * k] = vx + 0.5 * yx;
    raw[2 * k + 1] = vy + 0.5 * yy;
    double st = 0;
    if (m->tk) {
      road_point rp;
      track_query(m->tk, P[0], P[1], hint, &rp);
      hint = rp.hint;
      st = rp.s;
      if (k > 0 && m->closed) {   /* unwrap across the start line */
        while (st - prev > 0.5 * m->tlen) st -= m->tlen;
        while (st - prev < -0.5 * m->tlen) st += m->tlen;
      }
      prev = st;
    }
    cam->samp[3 * k + 2] = st;
  }
  double sig = cam->cfg.kind == SC_CAM_FOLLOW ? cam->cfg.smooth / SAMPLE_DT : 0;
  long half = (long)ceil(3 * sig);
  for (long k = 0; k < cam->nsamp; k++) {
    double hx = 0, hy = 0;
    if (half < 1) {
      hx = raw[2 * k], hy = raw[2 * k + 1];
    } else {
      for (long i = k - half; i <= k + half; i++) {
        if (i < 0 || i >= cam->nsamp) continue;
        double wt = exp(-0.5 * (double)((i - k) * (i - k)) / (sig * sig));
        hx += wt * raw[2 * i], hy += wt * raw[2 * i + 1];
      }
    }
    double n = hypot(hx, hy);
    if (!(n > 1e-12)) hx = 1, hy = 0, n = 1;
    cam->samp[3 * k] = hx / n;
    cam->samp[3 * k + 1] = hy / n;
  }
  free(raw);
}

/* The trackside stands: the file's stations, or every `spacing` m from `first`; each stand
 * `offset` beyond the road's edge on its side (outside: away from the curve's centre). */
static void build_stands(sc_camera* cam) {
  sc_cam_cfg* c = &cam->cfg;
  const sc_motion* m = cam->m;
  if (!c->npoint) {
    double L = m->tk ? m->tlen : 0;
    for (double st = c->first; c->npoint < SC_CAM_MAX_POINTS && (c->npoint == 0 || st < L - 1e-9 || (!m->closed && st <= L));
         st += c->spacing)
      c->station[c->npoint++] = st;
  }
  for (int i = 0; i < c->npoint; i++) {
    double st = c->station[i], p[3] = {0, 0, 0}, h;
    if (m->tk) {
      if (st > m->tlen) st = m->closed ? fmod(st, m->tlen) : m->tlen;
      double wl, wr, k = track_curvature(m->tk, st);
      track_widths(m->tk, st, &wl, &wr);
      int side = c->side ? c->side : (k > 1e-4 ? -1 : 1);   /* outside of a left turn is the right */
      track_eval(m->tk, st, side > 0 ? wl + c->offset : -(wr + c->offset), p, &h);
    }
    cam->stand[i][0] = p[0], cam->stand[i][1] = p[1], cam->stand[i][2] = p[2] + c->cam_height;
  }
}

/* What depends on the camera (cam->cfg freshly loaded): an onboard eye in its body's frame, the
 * smoothed heading samples, the trackside stands. */
static void setup(sc_camera* cam) {
  const sc_motion* m = cam->m;
  cam->bidx = 0;
  if (cam->cfg.kind == SC_CAM_ONBOARD && m->origin) {   /* the eye and look direction in the body's frame */
    for (int b = 0; b < m->nb; b++)
      if (!strcmp(m->names[b], cam->cfg.body)) {
        for (int k = 0; k < 3; k++) cam->cfg.eye[k] -= m->origin[b][k];
        cam->bidx = b;
      }
  }
  free(cam->samp);
  cam->samp = NULL;
  build_samples(cam);
  if (cam->cfg.kind == SC_CAM_TRACKSIDE) build_stands(cam);
}

sc_camera* sc_camera_new(const sc_cam_cfg* c, const sc_motion* m) {
  sc_camera* cam = mt_alloc(sizeof *cam);
  cam->cfg = *c;
  cam->m = m;
  setup(cam);
  return cam;
}

void sc_camera_free(sc_camera* cam) {
  if (!cam) return;
  free(cam->samp);
  free(cam);
}

int sc_camera_switch(sc_camera* cam, const char* name, mt_err* e) {
  sc_cam_cfg c;
  if (sc_camera_load(NULL, name, (const char* const*)cam->m->names, cam->m->nb, &c, e)) return e->code;
  cam->cfg = c;
  setup(cam);
  return MT_OK;
}

void sc_camera_set_live(sc_camera* cam, double hx, double hy, double station) {
  double n = hypot(hx, hy);
  if (!(n > 1e-12)) hx = 1, hy = 0, n = 1;
  for (long k = 0; k < cam->nsamp; k++) {
    cam->samp[3 * k] = hx / n;
    cam->samp[3 * k + 1] = hy / n;
    cam->samp[3 * k + 2] = station;
  }
}

/*---- placement: the view at t ----*/

/* Sample values (heading x, y; station) at t, linearly interpolated. */
static void sample_at(const sc_camera* cam, double t, double out[3]) {
  double u = sc_motion_clamp(cam->m, t) / SAMPLE_DT;
  long k = (long)floor(u);
  if (k >= cam->nsamp - 1) k = cam->nsamp - 1, u = k;
  long k2 = k + 1 < cam->nsamp ? k + 1 : k;
  double a = u - k;
  for (int i = 0; i < 3; i++) out[i] = (1 - a) * cam->samp[3 * k + i] + a * cam->samp[3 * k2 + i];
  double n = hypot(out[0], out[1]);
  if (n > 1e-12) out[0] /= n, out[1] /= n;
  else out[0] = cam->samp[3 * k], out[1] = cam->samp[3 * k + 1];
}

/* The active trackside stand: the one nearest the machine along the track. */
static int stand_at(const sc_camera* cam, double st) {
  const sc_motion* m = cam->m;
  int best = 0;
  double bd = INFINITY;
  for (int i = 0; i < cam->cfg.npoint; i++) {
    double d = fabs(st - cam->cfg.station[i]);
    if (m->closed && m->tlen > 0) {
      d = fmod(d, m->tlen);
      if (d > 0.5 * m->tlen) d = m->tlen - d;
    }
    if (d < bd) bd = d, best = i;
  }
  return best;
}

static void look_at(sc_view* v, const double eye[3], const double target[3], const double up[3]) {
  memcpy(v->eye, eye, sizeof v->eye);
  for (int k = 0; k < 3; k++) v->f[k] = target[k] - eye[k];
  if (!(norm3(v->f) > 1e-9)) v->f[0] = 1, v->f[1] = v->f[2] = 0;
  unit3(v->f);
  cross3(v->f, up, v->r);
  if (!(norm3(v->r) > 1e-9)) {   /* looking straight up or down: any right will do */
    double alt[3] = {1, 0, 0};
    cross3(v->f, alt, v->r);
  }
  unit3(v->r);
  cross3(v->f, v->r, v->d);
}

void sc_camera_view_at(const sc_camera* cam, double t, sc_view* v) {
  const sc_motion* m = cam->m;
  t = sc_motion_clamp(m, t);
  const sc_cam_cfg* c = &cam->cfg;
  double p[3], R[9], smp[3];
  static const double zup[3] = {0, 0, 1};
  sc_motion_pose_at(m, m->root, t, p, R);
  sample_at(cam, t, smp);
  if (c->kind == SC_CAM_FOLLOW) {
    double target[3] = {p[0], p[1], p[2] + c->target_height};
    double eye[3] = {p[0] - c->distance * smp[0], p[1] - c->distance * smp[1], p[2] + c->height};
    look_at(v, eye, target, zup);
    v->fov = c->fov;
  } else if (c->kind == SC_CAM_TRACKSIDE) {
    const double* eye = cam->stand[stand_at(cam, smp[2])];
    double target[3] = {p[0], p[1], p[2] + 0.3};
    double dist = hypot(hypot(target[0] - eye[0], target[1] - eye[1]), target[2] - eye[2]);
    double fov = 2 * atan(c->size / (2 * c->frame * fmax(dist, 0.1)));
    v->fov = fmin(fmax(fov, c->fov_min), c->fov_max);
    look_at(v, eye, target, zup);
  } else {
    double bp[3], BR[9];
    sc_motion_pose_at(m, cam->bidx, t, bp, BR);
    double eye[3], f[3], up[3];
    for (int i = 0; i < 3; i++) {
      eye[i] = bp[i] + BR[3 * i] * c->eye[0] + BR[3 * i + 1] * c->eye[1] + BR[3 * i + 2] * c->eye[2];
      f[i] = BR[3 * i] * c->look[0] + BR[3 * i + 1] * c->look[1] + BR[3 * i + 2] * c->look[2];
      up[i] = BR[3 * i + 2];   /* the body's z: the camera leans with the machine */
    }
    double target[3] = {eye[0] + f[0], eye[1] + f[1], eye[2] + f[2]};
    look_at(v, eye, target, up);
    v->fov = c->fov;
  }
}

void sc_camera_road(const sc_camera* cam, double t, double* at, double* behind, double* ahead) {
  double smp[3];
  sample_at(cam, t, smp);
  *at = smp[2];
  if (cam->cfg.kind == SC_CAM_TRACKSIDE) *at = cam->cfg.station[stand_at(cam, smp[2])];
  *behind = cam->cfg.behind;
  *ahead = cam->cfg.ahead;
}
