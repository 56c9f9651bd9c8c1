/* chase.c — the chase view (see chase.h) and the camera rigs of rigs/cameras.lua.
 *
 * Frame pipeline, all in double precision, no allocation per frame:
 *  1. the camera at t (follow: behind the machine along its smoothed heading; trackside: the
 *     point nearest the machine's station, panning and zooming; onboard: fixed to a body);
 *  2. ground colour, then the sky as the half-plane above the true horizon (the image line where
 *     rays are horizontal), with a gradient;
 *  3. the road: cross-sections every 0.75–12 m (finer near the camera) over the camera's draw
 *     range, each pair of sections giving a verge, kerb, asphalt, edge lines and dash strip, all
 *     of that pair drawn together, pairs far to near;
 *  4. the machine: every body's vertices posed (lerp + slerp between steps), faces culled when
 *     facing away, shaded flat (Lambert, fixed sun), clipped in camera space to the near plane
 *     and a guard band (so a face crossing the camera never projects through infinity), sorted
 *     far to near and filled. Each projected face grows 0.35 px about its centre so that
 *     antialiased neighbours leave no background-coloured seams. */
#include "render/chase.h"

#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/shapes.h"
#include "scene/take_bodies.h"
#include "sim/luabox.h"
#include "sim/rig.h"
#include "sim/track.h"
#include "takes/replay.h"

/*---- cameras ----*/

enum { CAM_FOLLOW, CAM_TRACKSIDE, CAM_ONBOARD };
#define CAM_MAX_POINTS 256

typedef struct cam_cfg {
  char name[32];
  int kind;
  double fov;                      /* rad (follow, onboard) */
  double distance, height, target_height, smooth;   /* follow */
  double spacing, first, offset, cam_height, frame, size, fov_min, fov_max;   /* trackside */
  int side;                        /* trackside: 0 outside, 1 left, -1 right */
  int npoint;
  double station[CAM_MAX_POINTS];
  char body[64];                   /* onboard */
  int bidx;                        /* onboard: the body's index in the take */
  double eye[3], look[3];
  double behind, ahead;            /* road drawn over [station − behind, station + ahead] */
} cam_cfg;

/*---- the scene ----*/

typedef struct face {
  int nv, v[4];
  double n[3];      /* body-frame unit normal */
  float rgba[4];
} face;

typedef struct dface {   /* a face ready to fill */
  double depth;
  int seq, np, p0;
  float rgba[4];
  int grow;
} dface;

#define SAMPLE_DT 0.01
#define MAX_SECTIONS 1024
#define SEC_OFFS 12
#define VERGE 10.0        /* grass beyond the kerb zone (m) */
#define KERB_W 1.0        /* kerb width beyond the road edge (m) */
#define KERB_LEN 2.0      /* length of one red or white kerb block (m) */
#define KERB_K (1.0 / 250) /* kerbs where the curve's radius is under 250 m, on its inside */

struct chase_scene {
  int nb, root;
  const char** names;        /* body names (owned copies) */
  int nvert, nface;
  double* vert;              /* body-frame vertices */
  int* vbody;
  face* face;
  long nsteps;
  double dt;
  float* pose;               /* nsteps × nb × 7 */
  long nsamp;
  double* samp;              /* per SAMPLE_DT: heading unit x, y (smoothed), station (unwrapped) */
  track* tk;
  double tlen;
  int closed;
  double (*origin)[3];       /* each body frame's origin in the rig's coordinates (a take's scene) */
  cam_cfg cam;
  double cam_eye[CAM_MAX_POINTS][3];   /* trackside points */
  int layers;
  int only;                  /* draw only this body (−1: all) */
  /* per-frame work space */
  double* wpose;             /* nb × 12: position and rotation matrix */
  double* cvert;             /* camera coordinates per vertex */
  dface* dl;
  int ndl, dcap;
  double* pts;               /* projected points, 2 each */
  int npts, pcap;
  int* order;
  double* sec;               /* MAX_SECTIONS × (1 + 3·SEC_OFFS) */
};

static const double SUN[3] = {0.40, 0.30, 0.866};   /* unit: towards the sun, 60° high in the north-east */
#define GROW 0.35        /* px each face grows by (see fill_list) */
#define AMBIENT 0.42
#define DIFFUSE 0.58

/*---- small vector helpers ----*/
static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void cross3(const double a[3], const double b[3], double r[3]) {
  double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
  r[0] = x, r[1] = y, r[2] = z;
}
static double norm3(const double a[3]) { return sqrt(dot3(a, a)); }
static void unit3(double a[3]) {
  double n = norm3(a);
  if (n > 0) a[0] /= n, a[1] /= n, a[2] /= n;
}

static void quat_mat(const double q[4], double R[9]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
}

static void slerp(const double a[4], const double b0[4], double u, double out[4]) {
  double b[4] = {b0[0], b0[1], b0[2], b0[3]};
  double c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (c < 0) c = -c, b[0] = -b[0], b[1] = -b[1], b[2] = -b[2], b[3] = -b[3];
  double ka = 1 - u, kb = u;
  if (c < 0.9995) {
    double th = acos(c), s = sin(th);
    ka = sin((1 - u) * th) / s;
    kb = sin(u * th) / s;
  }
  double n = 0;
  for (int k = 0; k < 4; k++) out[k] = ka * a[k] + kb * b[k], n += out[k] * out[k];
  n = sqrt(n);
  for (int k = 0; k < 4; k++) out[k] /= n;
}

/* Pose of body b at time t: position p, rotation R (row-major). */
static void pose_at(const chase_scene* s, int b, double t, double p[3], double R[9]) {
  double tt = t / s->dt;
  if (!(tt > 0)) tt = 0;
  long i = (long)floor(tt);
  double u = tt - i;
  if (i >= s->nsteps - 1) i = s->nsteps - 1, u = 0;
  const float* A = s->pose + (i * s->nb + b) * 7;
  const float* B = i + 1 < s->nsteps ? A + s->nb * 7 : A;
  double qa[4] = {A[3], A[4], A[5], A[6]}, qb[4] = {B[3], B[4], B[5], B[6]}, q[4];
  for (int k = 0; k < 3; k++) p[k] = A[k] + u * ((double)B[k] - A[k]);
  slerp(qa, qb, u, q);
  quat_mat(q, R);
}

/*---- the camera file ----*/

static const char* const KEYS_COMMON[] = {"name", "kind", NULL};
static const char* const KEYS_FOLLOW[] = {"name", "kind", "distance", "height", "target_height", "fov", "smooth",
                                          "draw_behind", "draw_ahead", NULL};
static const char* const KEYS_TRACKSIDE[] = {"name", "kind", "stations", "spacing", "first", "offset", "side", "height",
                                             "size", "frame", "fov_min", "fov_max", "draw_behind", "draw_ahead", NULL};
static const char* const KEYS_ONBOARD[] = {"name", "kind", "body", "eye", "look", "fov", "draw_behind", "draw_ahead", NULL};

static char g_names[16][32];

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

/* Read camera `want` (or, want NULL, only the names) from the file. nb/names: the take's bodies
 * for checking an onboard camera's body (may be 0/NULL). */
static int load_cameras(const char* path0, const char* want, cam_cfg* c, int nb, const char** bnames, int* nnames,
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
  if (n < 1 || n > 16) {
    rc = mt_fail(e, MT_EINPUT, "%s: needs 1 to 16 cameras, got %d", path, n);
    goto done;
  }
  for (int i = 0; i < n && !rc; i++) {
    static char lab[64];
    int pushed;
    snprintf(lab, sizeof lab, "camera %d", i + 1);
    if ((rc = lb_table(L, -1, &top, NULL, i + 1, 1, &pushed, e))) break;
    lb_scope cs = lb_enter(&top, NULL, i + 1, lab);
    const char *name, *kind;
    rc = lb_str(L, -1, &cs, "name", 1, NULL, &name, e);
    if (!rc && strlen(name) >= sizeof g_names[0]) rc = lb_fail(&cs, "name", 0, e, "longer than %zu characters", sizeof g_names[0] - 1);
    if (!rc) {
      snprintf(g_names[i], sizeof g_names[i], "%s", name);
      snprintf(lab, sizeof lab, "camera '%s'", name);
      for (int j = 0; j < i && !rc; j++)
        if (!strcmp(g_names[j], name)) rc = lb_fail(&cs, "name", 0, e, "defined twice");
    }
    if (!rc) rc = lb_str(L, -1, &cs, "kind", 1, NULL, &kind, e);
    int k = -1;
    if (!rc) {
      k = !strcmp(kind, "follow") ? CAM_FOLLOW : !strcmp(kind, "trackside") ? CAM_TRACKSIDE : !strcmp(kind, "onboard") ? CAM_ONBOARD : -1;
      if (k < 0) rc = lb_fail(&cs, "kind", 0, e, "unknown kind '%s' (follow, trackside, onboard)", kind);
    }
    if (!rc) rc = lb_check_keys(L, -1, &cs, k == CAM_FOLLOW ? KEYS_FOLLOW : k == CAM_TRACKSIDE ? KEYS_TRACKSIDE : k == CAM_ONBOARD ? KEYS_ONBOARD : KEYS_COMMON, e);
    if (!rc && want && !strcmp(want, name)) {
      found = 1;
      memset(c, 0, sizeof *c);
      snprintf(c->name, sizeof c->name, "%s", name);
      c->kind = k;
      double fov = 0;
      if (k == CAM_FOLLOW) {
        rc = num_in(L, &cs, "distance", 0, 5.5, 0.5, 100, &c->distance, e) || num_in(L, &cs, "height", 0, 1.9, -5, 100, &c->height, e) ||
             num_in(L, &cs, "target_height", 0, 0.4, -5, 10, &c->target_height, e) || num_in(L, &cs, "fov", 0, 50, 5, 150, &fov, e) ||
             num_in(L, &cs, "smooth", 0, 0.4, 0, 10, &c->smooth, e) || num_in(L, &cs, "draw_behind", 0, 20, 0, 2000, &c->behind, e) ||
             num_in(L, &cs, "draw_ahead", 0, 300, 1, 2000, &c->ahead, e);
      } else if (k == CAM_TRACKSIDE) {
        const char* side;
        rc = num_in(L, &cs, "spacing", 0, 150, 5, 1e5, &c->spacing, e) || num_in(L, &cs, "first", 0, 0, 0, 1e5, &c->first, e) ||
             num_in(L, &cs, "offset", 0, 6, 0, 200, &c->offset, e) || num_in(L, &cs, "height", 0, 1.7, 0.1, 200, &c->cam_height, e) ||
             num_in(L, &cs, "size", 0, 2.2, 0.1, 100, &c->size, e) || num_in(L, &cs, "frame", 0, 0.3, 0.01, 1, &c->frame, e) ||
             num_in(L, &cs, "fov_min", 0, 4, 0.5, 150, &c->fov_min, e) || num_in(L, &cs, "fov_max", 0, 45, 0.5, 150, &c->fov_max, e) ||
             num_in(L, &cs, "draw_behind", 0, 250, 0, 2000, &c->behind, e) || num_in(L, &cs, "draw_ahead", 0, 250, 1, 2000, &c->ahead, e) ||
             lb_str(L, -1, &cs, "side", 0, "outside", &side, e);
        if (!rc) {
          c->side = !strcmp(side, "outside") ? 0 : !strcmp(side, "left") ? 1 : !strcmp(side, "right") ? -1 : 2;
          if (c->side == 2) rc = lb_fail(&cs, "side", 0, e, "expected outside, left or right, got '%s'", side);
        }
        if (!rc && c->fov_min > c->fov_max) rc = lb_fail(&cs, "fov_min", 0, e, "is above fov_max (%g > %g)", c->fov_min, c->fov_max);
        c->fov_min *= MT_PI / 180, c->fov_max *= MT_PI / 180;
        if (!rc && (rc = lb_table(L, -1, &cs, "stations", 0, 0, &pushed, e)) == MT_OK && pushed) {
          lb_scope ss = lb_enter(&cs, "stations", 0, NULL);
          int m = (int)luaL_len(L, -1);
          if (m < 1 || m > CAM_MAX_POINTS) rc = lb_fail(&cs, "stations", 0, e, "needs 1 to %d stations, got %d", CAM_MAX_POINTS, m);
          for (int j = 0; j < m && !rc; j++) {
            rc = lb_num(L, -1, &ss, NULL, j + 1, 1, 0, &c->station[j], e);
            if (!rc && !(c->station[j] >= 0)) rc = lb_fail(&cs, "stations", 0, e, "station %d is negative (%g)", j + 1, c->station[j]);
          }
          c->npoint = rc ? 0 : m;
          lua_pop(L, 1);
        }
      } else if (k == CAM_ONBOARD) {
        const char* body;
        static const double eye0[3] = {0.70, 0, 1.18}, look0[3] = {1, 0, -0.12};
        rc = lb_str(L, -1, &cs, "body", 0, "frame", &body, e) || vec3(L, &cs, "eye", eye0, c->eye, e) ||
             vec3(L, &cs, "look", look0, c->look, e) || num_in(L, &cs, "fov", 0, 70, 5, 150, &fov, e) ||
             num_in(L, &cs, "draw_behind", 0, 5, 0, 2000, &c->behind, e) || num_in(L, &cs, "draw_ahead", 0, 300, 1, 2000, &c->ahead, e);
        if (!rc) snprintf(c->body, sizeof c->body, "%s", body);
        if (!rc && !(norm3(c->look) > 0)) rc = lb_fail(&cs, "look", 0, e, "must not be the zero vector");
        if (!rc && bnames) {
          int ok = 0;
          for (int b = 0; b < nb && !ok; b++) ok = !strcmp(bnames[b], body);
          if (!ok) rc = lb_fail(&cs, "body", 0, e, "no body '%s' in this take (the frame is 'frame')", body);
        }
      }
      c->fov = fov * MT_PI / 180;
    }
    lua_pop(L, 1);
  }
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
  return rc;
}

/* The names point into static storage, rewritten (with the same names) whenever the file is read:
 * call from one thread at a time. */
int chase_camera_list(const char** names, int max, mt_err* e) {
  int n = 0;
  if (load_cameras(NULL, NULL, NULL, 0, NULL, &n, e)) return -1;
  for (int i = 0; i < n && i < max; i++) names[i] = g_names[i];
  return n < max ? n : max;
}

int chase_camera_names(const char** names, int max) {
  mt_err e = {0};
  int n = chase_camera_list(names, max, &e);
  return n < 0 ? 0 : n;
}

/*---- building ----*/

/* Faces of shape sh of body b: its triangles, with each pair that shares an edge (as the sweep
 * and the boxes emit them) merged into one quad — half the fills for the same picture. */
static void add_shape(chase_scene* s, int b, const ex_shape* sh, int* vcap, int* fcap) {
  static const ex_tess T = {24, 8, 12, 3};
  ex_mesh m = {0};
  ex_mesh_add_shape_tess(&m, sh, &T);
  if (s->nvert + m.nvert > *vcap) {
    while (s->nvert + m.nvert > *vcap) *vcap = *vcap ? 2 * *vcap : 1024;
    s->vert = mt_realloc(s->vert, sizeof(double) * 3 * *vcap);
    s->vbody = mt_realloc(s->vbody, sizeof(int) * *vcap);
  }
  if (s->nface + m.ntri > *fcap) {
    while (s->nface + m.ntri > *fcap) *fcap = *fcap ? 2 * *fcap : 1024;
    s->face = mt_realloc(s->face, sizeof(face) * *fcap);
  }
  int base = s->nvert;
  for (int i = 0; i < m.nvert; i++) {
    for (int k = 0; k < 3; k++) s->vert[3 * (base + i) + k] = m.pos[3 * i + k];
    s->vbody[base + i] = b;
  }
  s->nvert += m.nvert;
  for (int t = 0; t < m.ntri; t++) {
    const unsigned* A = m.idx + 3 * t;
    face f = {.nv = 3, .v = {base + (int)A[0], base + (int)A[1], base + (int)A[2], 0}};
    if (t + 1 < m.ntri) {
      const unsigned* B = m.idx + 3 * t + 3;
      /* A = (a, b, c) and B = (a, c, d): the quad a b c d */
      for (int r = 0; r < 3 && f.nv == 3; r++) {
        unsigned a = A[r], bb = A[(r + 1) % 3], c = A[(r + 2) % 3];
        for (int q = 0; q < 3; q++)
          if (B[q] == a && B[(q + 1) % 3] == c && B[(q + 2) % 3] != bb) {
            f.nv = 4;
            f.v[0] = base + (int)a, f.v[1] = base + (int)bb, f.v[2] = base + (int)c, f.v[3] = base + (int)B[(q + 2) % 3];
            t++;
            break;
          }
      }
    }
    /* Newell's normal: robust for slightly non-planar quads */
    double n[3] = {0, 0, 0};
    for (int i = 0; i < f.nv; i++) {
      const double *p = s->vert + 3 * f.v[i], *q = s->vert + 3 * f.v[(i + 1) % f.nv];
      n[0] += (p[1] - q[1]) * (p[2] + q[2]);
      n[1] += (p[2] - q[2]) * (p[0] + q[0]);
      n[2] += (p[0] - q[0]) * (p[1] + q[1]);
    }
    if (!(norm3(n) > 1e-18)) continue;   /* degenerate */
    unit3(n);
    memcpy(f.n, n, sizeof n);
    for (int k = 0; k < 4; k++) f.rgba[k] = (float)sh->rgba[k];
    s->face[s->nface++] = f;
  }
  ex_mesh_free(&m);
}

static void build_geometry(chase_scene* s, const ex_body* bodies, int nb) {
  int vcap = 0, fcap = 0;
  for (int b = 0; b < nb; b++)
    for (int k = 0; k < bodies[b].nshape; k++) add_shape(s, b, &bodies[b].shapes[k], &vcap, &fcap);
}

static void alloc_work(chase_scene* s) {
  s->wpose = mt_alloc(sizeof(double) * 12 * s->nb);
  s->cvert = mt_alloc(sizeof(double) * 3 * (s->nvert + 1));
  s->sec = mt_alloc(sizeof(double) * MAX_SECTIONS * (1 + 3 * SEC_OFFS));
  s->layers = CHASE_ALL;
  s->only = -1;
}

/* Grow the draw list to hold n more faces of up to 13 points each. */
static void reserve_dl(chase_scene* s, int n) {
  if (s->ndl + n > s->dcap) {
    while (s->ndl + n > s->dcap) s->dcap = s->dcap ? 2 * s->dcap : 4096;
    s->dl = mt_realloc(s->dl, sizeof(dface) * s->dcap);
    s->order = mt_realloc(s->order, sizeof(int) * s->dcap);
  }
  if (s->npts + 13 * n > s->pcap) {
    while (s->npts + 13 * n > s->pcap) s->pcap = s->pcap ? 2 * s->pcap : 65536;
    s->pts = mt_realloc(s->pts, sizeof(double) * 2 * s->pcap);
  }
}

/* Per-sample smoothed heading and station, from the root body's poses. */
static void build_samples(chase_scene* s) {
  double T = (s->nsteps - 1) * s->dt;
  s->nsamp = (long)floor(T / SAMPLE_DT + 1e-9) + 1;
  s->samp = mt_alloc(sizeof(double) * 3 * s->nsamp);
  double* raw = mt_alloc(sizeof(double) * 2 * s->nsamp);
  long m = (long)fmax(1, floor(0.02 / s->dt + 0.5));
  int hint = -1;
  double prev = 0;
  for (long k = 0; k < s->nsamp; k++) {
    long j = (long)floor(k * SAMPLE_DT / s->dt + 0.5);
    if (j > s->nsteps - 1) j = s->nsteps - 1;
    long j0 = j - m < 0 ? 0 : j - m, j1 = j + m > s->nsteps - 1 ? s->nsteps - 1 : j + m;
    const float* P0 = s->pose + (j0 * s->nb + s->root) * 7;
    const float* P1 = s->pose + (j1 * s->nb + s->root) * 7;
    const float* P = s->pose + (j * s->nb + s->root) * 7;
    double vx = 0, vy = 0;
    if (j1 > j0) vx = ((double)P1[0] - P0[0]) / ((j1 - j0) * s->dt), vy = ((double)P1[1] - P0[1]) / ((j1 - j0) * s->dt);
    double q[4] = {P[3], P[4], P[5], P[6]}, R[9];
    quat_mat(q, R);
    double yx = R[0], yy = R[3], yn = hypot(yx, yy);
    if (yn > 1e-9) yx /= yn, yy /= yn;
    /* the velocity's direction at speed; the frame's heading (0.5 m/s worth) when nearly still */
    raw[2 * k] = vx + 0.5 * yx;
    raw[2 * k + 1] = vy + 0.5 * yy;
    double st = 0;
    if (s->tk) {
      road_point rp;
      track_query(s->tk, P[0], P[1], hint, &rp);
      hint = rp.hint;
      st = rp.s;
      if (k > 0 && s->closed) {   /* unwrap across the start line */
        while (st - prev > 0.5 * s->tlen) st -= s->tlen;
        while (st - prev < -0.5 * s->tlen) st += s->tlen;
      }
      prev = st;
    }
    s->samp[3 * k + 2] = st;
  }
  double sig = s->cam.kind == CAM_FOLLOW ? s->cam.smooth / SAMPLE_DT : 0;
  long half = (long)ceil(3 * sig);
  for (long k = 0; k < s->nsamp; k++) {
    double hx = 0, hy = 0;
    if (half < 1) {
      hx = raw[2 * k], hy = raw[2 * k + 1];
    } else {
      for (long i = k - half; i <= k + half; i++) {
        if (i < 0 || i >= s->nsamp) continue;
        double w = exp(-0.5 * (double)((i - k) * (i - k)) / (sig * sig));
        hx += w * raw[2 * i], hy += w * raw[2 * i + 1];
      }
    }
    double n = hypot(hx, hy);
    if (!(n > 1e-12)) hx = 1, hy = 0, n = 1;
    s->samp[3 * k] = hx / n;
    s->samp[3 * k + 1] = hy / n;
  }
  free(raw);
}

static void build_trackside(chase_scene* s) {
  cam_cfg* c = &s->cam;
  if (!c->npoint) {
    double L = s->tk ? s->tlen : 0;
    for (double st = c->first; c->npoint < CAM_MAX_POINTS && (c->npoint == 0 || st < L - 1e-9 || (!s->closed && st <= L));
         st += c->spacing)
      c->station[c->npoint++] = st;
  }
  for (int i = 0; i < c->npoint; i++) {
    double st = c->station[i], p[3] = {0, 0, 0}, h;
    if (s->tk) {
      if (st > s->tlen) st = s->closed ? fmod(st, s->tlen) : s->tlen;
      double wl, wr, k = track_curvature(s->tk, st);
      track_widths(s->tk, st, &wl, &wr);
      int side = c->side ? c->side : (k > 1e-4 ? -1 : 1);   /* outside of a left turn is the right */
      track_eval(s->tk, st, side > 0 ? wl + c->offset : -(wr + c->offset), p, &h);
    }
    s->cam_eye[i][0] = p[0], s->cam_eye[i][1] = p[1], s->cam_eye[i][2] = p[2] + c->cam_height;
  }
}

static chase_scene* scene_alloc(int nb) {
  chase_scene* s = mt_alloc(sizeof *s);
  memset(s, 0, sizeof *s);
  s->nb = nb;
  s->names = mt_alloc(sizeof(char*) * nb);
  return s;
}

static long g_decodes;   /* takes' poses decoded into scenes (chase_scene_decodes) */

/* What depends on the camera (s->cam freshly loaded): an onboard eye in its body's frame, the
 * smoothed heading samples, the trackside points. */
static void camera_setup(chase_scene* s) {
  if (s->cam.kind == CAM_ONBOARD && s->origin) {   /* the eye and look direction in the body's frame */
    for (int b = 0; b < s->nb; b++)
      if (!strcmp(s->names[b], s->cam.body)) {
        for (int k = 0; k < 3; k++) s->cam.eye[k] -= s->origin[b][k];
        s->cam.bidx = b;
      }
  }
  free(s->samp);
  s->samp = NULL;
  build_samples(s);
  if (s->cam.kind == CAM_TRACKSIDE) build_trackside(s);
}

long chase_scene_decodes(void) { return g_decodes; }

int chase_scene_set_camera(chase_scene* s, const char* camera, mt_err* e) {
  if (!s->origin) return mt_fail(e, MT_EINPUT, "chase: only a take's scene can change its camera");
  cam_cfg c;
  if (load_cameras(NULL, camera ? camera : "chase", &c, s->nb, s->names, NULL, e)) return e->code;
  s->cam = c;
  camera_setup(s);
  return MT_OK;
}

static chase_scene* scene_from_take(take_reader* r, const double* poses, const char* cameras_file, const char* camera,
                                    mt_err* e) {
  if (!camera) camera = "chase";
  const take_schema* sc = take_schema_of(r);
  long n = take_nsteps(r);
  if (n < 2) {
    mt_fail(e, MT_EINPUT, "chase: the take has %ld steps (needs at least 2)", n);
    return NULL;
  }
  chase_scene* s = scene_alloc(sc->nbody);
  s->root = -1;
  for (int b = 0; b < sc->nbody; b++) {
    s->names[b] = mt_strdup(sc->body_names[b]);
    if (s->root < 0 && !sc->body_parents[b][0]) s->root = b;
  }
  if (s->root < 0) s->root = 0;
  if (load_cameras(cameras_file, camera, &s->cam, sc->nbody, sc->body_names, NULL, e)) goto fail;
  rig* rg = NULL;
  if (replay_rebuild(r, 1, &rg, &s->tk, e)) goto fail;   /* with the overrides: the bodies as ridden */
  ex_take_bodies tb;
  ex_take_bodies_build(sc, rg, &tb);
  build_geometry(s, tb.body, tb.nbody);
  s->origin = mt_alloc(sizeof *s->origin * (size_t)s->nb);
  for (int b = 0; b < s->nb; b++)
    for (int k = 0; k < 3; k++) s->origin[b][k] = b < tb.nbody ? tb.origin[b][k] : 0;
  ex_take_bodies_free(&tb);
  rig_free(rg);
  if (s->tk) {
    s->tlen = track_length(s->tk), s->closed = track_closed(s->tk);
  }
  /* poses, in single precision (a 150 s lap of 12 bodies: 50 MB) */
  s->nsteps = n;
  s->dt = sc->timestep;
  s->pose = mt_alloc(sizeof(float) * 7 * s->nb * n);
  if (poses) {   /* the caller's decoded poses: the same numbers take_read gives */
    for (long k = 0; k < 7 * s->nb * n; k++) s->pose[k] = (float)poses[k];
    camera_setup(s);
    alloc_work(s);
    return s;
  }
  double* buf = mt_alloc(sizeof(double) * 7 * s->nb * TAKE_CHUNK_STEPS);
  for (long i = 0; i < n; i += TAKE_CHUNK_STEPS) {
    long m = n - i < TAKE_CHUNK_STEPS ? n - i : TAKE_CHUNK_STEPS;
    if (take_read(r, TAKE_POSE, i, m, buf, e)) {
      free(buf);
      goto fail;
    }
    for (long k = 0; k < 7 * s->nb * m; k++) s->pose[7 * s->nb * i + k] = (float)buf[k];
  }
  free(buf);
  g_decodes++;
  camera_setup(s);
  alloc_work(s);
  return s;
fail:
  chase_scene_free(s);
  return NULL;
}

chase_scene* chase_scene_new_from(take_reader* r, const char* cameras_file, const char* camera, mt_err* e) {
  return scene_from_take(r, NULL, cameras_file, camera, e);
}

chase_scene* chase_scene_new(take_reader* r, const char* camera, mt_err* e) { return scene_from_take(r, NULL, NULL, camera, e); }

chase_scene* chase_scene_new_poses(take_reader* r, const double* poses, const char* camera, mt_err* e) {
  return scene_from_take(r, poses, NULL, camera, e);
}

chase_scene* chase_scene_new_bodies(const ex_body* bodies, int nbody, const double* poses, long nsteps, double dt, mt_err* e) {
  if (nbody < 1 || nsteps < 1 || !(dt > 0)) {
    mt_fail(e, MT_EINPUT, "chase: a scene needs bodies, poses and dt > 0");
    return NULL;
  }
  chase_scene* s = scene_alloc(nbody);
  for (int b = 0; b < nbody; b++) s->names[b] = mt_strdup(bodies[b].name ? bodies[b].name : "");
  build_geometry(s, bodies, nbody);
  s->nsteps = nsteps;
  s->dt = dt;
  s->pose = mt_alloc(sizeof(float) * 7 * nbody * nsteps);
  for (long k = 0; k < 7 * nbody * nsteps; k++) s->pose[k] = (float)poses[k];
  s->cam.kind = CAM_FOLLOW;
  s->cam.distance = 4.5, s->cam.height = 1.6, s->cam.fov = 50 * MT_PI / 180, s->cam.ahead = 300, s->cam.behind = 20;
  build_samples(s);
  alloc_work(s);
  return s;
}

void chase_scene_free(chase_scene* s) {
  if (!s) return;
  for (int b = 0; b < s->nb; b++) free((char*)s->names[b]);
  free(s->names);
  free(s->vert);
  free(s->vbody);
  free(s->face);
  free(s->pose);
  free(s->samp);
  free(s->origin);
  track_free(s->tk);
  free(s->wpose);
  free(s->cvert);
  free(s->dl);
  free(s->pts);
  free(s->order);
  free(s->sec);
  free(s);
}

void chase_set_layers(chase_scene* s, int layers) { s->layers = layers; }

void chase_scene_set_live(chase_scene* s, const double* pose, double hx, double hy, double station) {
  for (long i = 0; i < s->nsteps; i++)
    for (int k = 0; k < 7 * s->nb; k++) s->pose[7 * s->nb * i + k] = (float)pose[k];
  double n = hypot(hx, hy);
  if (!(n > 1e-12)) hx = 1, hy = 0, n = 1;
  for (long k = 0; k < s->nsamp; k++) {
    s->samp[3 * k] = hx / n;
    s->samp[3 * k + 1] = hy / n;
    s->samp[3 * k + 2] = station;
  }
}

int chase_set_only_body(chase_scene* s, const char* name) {
  s->only = -1;
  if (!name) return 0;
  for (int b = 0; b < s->nb; b++)
    if (!strcmp(s->names[b], name)) s->only = b;
  return s->only >= 0 ? 0 : -1;
}

/*---- camera at t ----*/

static double clamp_t(const chase_scene* s, double t) {
  double T = (s->nsteps - 1) * s->dt;
  return t < 0 ? 0 : t > T ? T : t;
}

/* Sample values (heading x, y; station) at t, linearly interpolated. */
static void sample_at(const chase_scene* s, double t, double out[3]) {
  double u = clamp_t(s, t) / SAMPLE_DT;
  long k = (long)floor(u);
  if (k >= s->nsamp - 1) k = s->nsamp - 1, u = k;
  long k2 = k + 1 < s->nsamp ? k + 1 : k;
  double a = u - k;
  for (int i = 0; i < 3; i++) out[i] = (1 - a) * s->samp[3 * k + i] + a * s->samp[3 * k2 + i];
  double n = hypot(out[0], out[1]);
  if (n > 1e-12) out[0] /= n, out[1] /= n;
  else out[0] = s->samp[3 * k], out[1] = s->samp[3 * k + 1];
}

void chase_root_at(const chase_scene* s, double t, double p[3]) {
  double R[9];
  pose_at(s, s->root, clamp_t(s, t), p, R);
}

static void look_at(chase_view* v, const double eye[3], const double target[3], const double up[3]) {
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

/* The active trackside point: the one nearest the machine along the track. */
static int trackside_point(const chase_scene* s, double st) {
  int best = 0;
  double bd = INFINITY;
  for (int i = 0; i < s->cam.npoint; i++) {
    double d = fabs(st - s->cam.station[i]);
    if (s->closed && s->tlen > 0) {
      d = fmod(d, s->tlen);
      if (d > 0.5 * s->tlen) d = s->tlen - d;
    }
    if (d < bd) bd = d, best = i;
  }
  return best;
}

void chase_view_at(const chase_scene* s, double t, chase_view* v) {
  t = clamp_t(s, t);
  const cam_cfg* c = &s->cam;
  double p[3], R[9], smp[3];
  static const double zup[3] = {0, 0, 1};
  pose_at(s, s->root, t, p, R);
  sample_at(s, t, smp);
  if (c->kind == CAM_FOLLOW) {
    double target[3] = {p[0], p[1], p[2] + c->target_height};
    double eye[3] = {p[0] - c->distance * smp[0], p[1] - c->distance * smp[1], p[2] + c->height};
    look_at(v, eye, target, zup);
    v->fov = c->fov;
  } else if (c->kind == CAM_TRACKSIDE) {
    const double* eye = s->cam_eye[trackside_point(s, smp[2])];
    double target[3] = {p[0], p[1], p[2] + 0.3};
    double dist = hypot(hypot(target[0] - eye[0], target[1] - eye[1]), target[2] - eye[2]);
    double fov = 2 * atan(c->size / (2 * c->frame * fmax(dist, 0.1)));
    v->fov = fmin(fmax(fov, c->fov_min), c->fov_max);
    look_at(v, eye, target, zup);
  } else {
    double bp[3], BR[9];
    pose_at(s, c->bidx, t, bp, BR);
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

static void to_cam(const chase_view* v, const double p[3], double c[3]) {
  double q[3] = {p[0] - v->eye[0], p[1] - v->eye[1], p[2] - v->eye[2]};
  c[0] = dot3(v->r, q), c[1] = dot3(v->d, q), c[2] = dot3(v->f, q);
}

int chase_project(const chase_view* v, double w, double h, const double p[3], double px[2]) {
  double c[3];
  to_cam(v, p, c);
  if (!(c[2] >= CHASE_NEAR)) return 0;
  double F = 0.5 * h / tan(0.5 * v->fov);
  px[0] = 0.5 * w + F * c[0] / c[2];
  px[1] = 0.5 * h + F * c[1] / c[2];
  return 1;
}

/*---- clipping ----*/

/* Sutherland–Hodgman against the plane a·x + b·y + c·z + d ≥ 0. */
static int clip_plane(const double* in, int n, double a, double b, double c, double d, double* out) {
  int m = 0;
  for (int i = 0; i < n; i++) {
    const double *P = in + 3 * i, *Q = in + 3 * ((i + 1) % n);
    double dp = a * P[0] + b * P[1] + c * P[2] + d, dq = a * Q[0] + b * Q[1] + c * Q[2] + d;
    if (dp >= 0) memcpy(out + 3 * m++, P, sizeof(double) * 3);
    if ((dp >= 0) != (dq >= 0)) {
      double u = dp / (dp - dq);
      for (int k = 0; k < 3; k++) out[3 * m + k] = P[k] + u * (Q[k] - P[k]);
      m++;
    }
  }
  return m;
}

int chase_clip(const double* in, int n, double gx, double gy, double* out) {
  double A[3 * 16], B[3 * 16];
  if (n < 3 || n > 8) return 0;
  int inside = 1;
  for (int i = 0; i < n && inside; i++) {
    const double* P = in + 3 * i;
    inside = P[2] >= CHASE_NEAR && fabs(P[0]) <= gx * P[2] && fabs(P[1]) <= gy * P[2];
  }
  if (inside) {
    memcpy(out, in, sizeof(double) * 3 * n);
    return n;
  }
  int m = clip_plane(in, n, 0, 0, 1, -CHASE_NEAR, A);
  m = clip_plane(A, m, -1, 0, gx, 0, B);
  m = clip_plane(B, m, 1, 0, gx, 0, A);
  m = clip_plane(A, m, 0, -1, gy, 0, B);
  m = clip_plane(B, m, 0, 1, gy, 0, A);
  if (m > n + 5) m = n + 5;   /* a convex polygon gains at most one point per plane */
  memcpy(out, A, sizeof(double) * 3 * m);
  return m < 3 ? 0 : m;
}

/*---- drawing ----*/

typedef struct frame_ctx {
  const chase_view* v;
  double w, h, F, gx, gy;
} frame_ctx;

/* Clip (camera coordinates), project and queue a polygon. */
static void queue(chase_scene* s, const frame_ctx* fc, const double* cam, int n, const float rgba[4], double depth, int grow) {
  double cl[3 * 16];
  int m = chase_clip(cam, n, fc->gx, fc->gy, cl);
  if (!m) return;
  reserve_dl(s, 1);
  dface* d = &s->dl[s->ndl];
  d->depth = depth;
  d->seq = s->ndl;
  d->np = m;
  d->p0 = s->npts;
  d->grow = grow;
  memcpy(d->rgba, rgba, sizeof d->rgba);
  for (int i = 0; i < m; i++) {
    s->pts[2 * s->npts] = 0.5 * fc->w + fc->F * cl[3 * i] / cl[3 * i + 2];
    s->pts[2 * s->npts + 1] = 0.5 * fc->h + fc->F * cl[3 * i + 1] / cl[3 * i + 2];
    s->npts++;
  }
  s->ndl++;
}

static int by_depth(const void* a, const void* b, void* ctx) {
  const dface* dl = ctx;
  const dface *x = &dl[*(const int*)a], *y = &dl[*(const int*)b];
  if (x->depth != y->depth) return x->depth > y->depth ? -1 : 1;   /* far first */
  return x->seq - y->seq;
}

static void fill_list(chase_scene* s, cairo_t* cr, int from) {
  int n = s->ndl - from;
  for (int i = 0; i < n; i++) s->order[i] = from + i;
  qsort_r(s->order, n, sizeof(int), by_depth, s->dl);
  for (int i = 0; i < n; i++) {
    const dface* d = &s->dl[s->order[i]];
    const double* P = s->pts + 2 * d->p0;
    int np = d->np;
    double area = 0;
    for (int k = 0; k < np; k++) {
      const double *a = P + 2 * k, *b = P + 2 * ((k + 1) % np);
      area += a[0] * b[1] - a[1] * b[0];
    }
    double sg = area > 0 ? 1 : -1;   /* winding on screen (y down) */
    for (int k = 0; k < np; k++) {
      double x = P[2 * k], y = P[2 * k + 1];
      if (d->grow && area != 0) {   /* every edge 0.35 px outward: no seams between antialiased neighbours */
        const double *a = P + 2 * ((k + np - 1) % np), *b = P + 2 * ((k + 1) % np);
        double e1x = x - a[0], e1y = y - a[1], e2x = b[0] - x, e2y = b[1] - y;
        double l1 = hypot(e1x, e1y), l2 = hypot(e2x, e2y);
        if (l1 > 1e-9 && l2 > 1e-9) {
          double n1x = sg * e1y / l1, n1y = -sg * e1x / l1, n2x = sg * e2y / l2, n2y = -sg * e2x / l2;
          double c = 1 + n1x * n2x + n1y * n2y;
          if (c < 0.5) c = 0.5;   /* a miter limit for sharp corners */
          x += GROW * (n1x + n2x) / c, y += GROW * (n1y + n2y) / c;
        }
      }
      if (k == 0) cairo_move_to(cr, x, y);
      else cairo_line_to(cr, x, y);
    }
    cairo_close_path(cr);
    if (d->rgba[3] < 1) cairo_set_source_rgba(cr, d->rgba[0], d->rgba[1], d->rgba[2], d->rgba[3]);
    else cairo_set_source_rgb(cr, d->rgba[0], d->rgba[1], d->rgba[2]);
    cairo_fill(cr);
  }
}

static void sky(cairo_t* cr, const frame_ctx* fc) {
  const chase_view* v = fc->v;
  cairo_set_source_rgb(cr, 0.40, 0.56, 0.30);   /* the ground beyond the verges */
  cairo_rectangle(cr, 0, 0, fc->w, fc->h);
  cairo_fill(cr);
  /* world up in camera coordinates; pixel (x, y) looks along ((x − w/2)/F, (y − h/2)/F, 1): sky
   * where that ray has an upward component: a·x + b·y + c > 0 */
  double u[3] = {v->r[2], v->d[2], v->f[2]};
  double a = u[0] / fc->F, b = u[1] / fc->F, c = u[2] - (u[0] * 0.5 * fc->w + u[1] * 0.5 * fc->h) / fc->F;
  double rect[4][3] = {{0, 0, 0}, {fc->w, 0, 0}, {fc->w, fc->h, 0}, {0, fc->h, 0}};
  double in[12], out[3 * 8];
  for (int i = 0; i < 4; i++) memcpy(in + 3 * i, rect[i], sizeof rect[i]);
  /* clip_plane on (x, y, 1): a·x + b·y + c·1 ≥ 0 */
  for (int i = 0; i < 4; i++) in[3 * i + 2] = 1;
  int m = clip_plane(in, 4, a, b, c, 0, out);
  if (m < 3) return;
  double g = hypot(a, b);
  double hx0 = 0.5 * fc->w, hy0 = 0.5 * fc->h, nx = 0, ny = -1;
  if (g > 1e-12) {   /* the horizon's point nearest the image centre, and the way up */
    double k = (a * hx0 + b * hy0 + c) / (g * g);
    hx0 -= k * a, hy0 -= k * b;
    nx = a / g, ny = b / g;
  }
  cairo_pattern_t* pat = cairo_pattern_create_linear(hx0, hy0, hx0 + nx * fc->h, hy0 + ny * fc->h);
  cairo_pattern_add_color_stop_rgb(pat, 0, 0.86, 0.90, 0.94);
  cairo_pattern_add_color_stop_rgb(pat, 0.5, 0.55, 0.70, 0.88);
  cairo_pattern_add_color_stop_rgb(pat, 1, 0.32, 0.50, 0.80);
  for (int i = 0; i < m; i++) {
    if (i == 0) cairo_move_to(cr, out[0], out[1]);
    else cairo_line_to(cr, out[3 * i], out[3 * i + 1]);
  }
  cairo_close_path(cr);
  cairo_set_source(cr, pat);
  cairo_fill(cr);
  cairo_pattern_destroy(pat);
}

static double shade(const double n[3]) {
  double l = dot3(n, SUN);
  return AMBIENT + DIFFUSE * (l > 0 ? l : 0);
}

/* Road cross-section offsets, left to right: verge, kerb zone, edge, line, line, dash, dash,
 * line, line, edge, kerb zone, verge. */
static void offsets(const track* tk, double st, double o[SEC_OFFS]) {
  double wl, wr;
  track_widths(tk, st, &wl, &wr);
  double v[SEC_OFFS] = {wl + KERB_W + VERGE, wl + KERB_W, wl, wl - 0.18, wl - 0.30, 0.06, -0.06, -wr + 0.30, -wr + 0.18, -wr, -wr - KERB_W, -wr - KERB_W - VERGE};
  memcpy(o, v, sizeof v);
}

static double wrap_station(const chase_scene* s, double st) {
  if (s->closed) {
    st = fmod(st, s->tlen);
    if (st < 0) st += s->tlen;
  }
  return st;
}

static void strip(chase_scene* s, const frame_ctx* fc, const double* A, const double* B, int i0, int i1, const float rgb[3],
                  double k, double depth) {
  double cam[12];
  const double* P[4] = {A + 3 * i0, A + 3 * i1, B + 3 * i1, B + 3 * i0};
  for (int i = 0; i < 4; i++) to_cam(fc->v, P[i], cam + 3 * i);
  float c[4] = {(float)(rgb[0] * k), (float)(rgb[1] * k), (float)(rgb[2] * k), 1};
  queue(s, fc, cam, 4, c, depth, 1);
}

static void draw_road(chase_scene* s, cairo_t* cr, const frame_ctx* fc, double s_cam) {
  const cam_cfg* c = &s->cam;
  double lo = s_cam - c->behind, hi = s_cam + c->ahead;
  if (!s->closed) lo = fmax(lo, 0), hi = fmin(hi, s->tlen);
  if (!(hi > lo)) return;
  s_cam = fmin(fmax(s_cam, lo), hi);
  /* stations: outward from the camera's, finer where the road is near the eye */
  double st[MAX_SECTIONS];
  int nb = 0, nf = 0;
  double back[MAX_SECTIONS / 2], fwd[MAX_SECTIONS / 2];
  for (int dir = -1; dir <= 1; dir += 2) {
    double x = s_cam;
    double* out = dir < 0 ? back : fwd;
    int* cnt = dir < 0 ? &nb : &nf;
    while (*cnt < MAX_SECTIONS / 2 - 1) {
      double p[3], h;
      track_eval(s->tk, wrap_station(s, x), 0, p, &h);
      double d = hypot(hypot(p[0] - fc->v->eye[0], p[1] - fc->v->eye[1]), p[2] - fc->v->eye[2]);
      out[(*cnt)++] = x;
      if (dir < 0 ? x <= lo : x >= hi) break;
      double step = fmin(fmax(0.04 * d, 0.75), 12);
      x += dir * step;
      if (dir < 0 ? x < lo : x > hi) x = dir < 0 ? lo : hi;
    }
  }
  int n = 0;
  for (int i = nb - 1; i >= 1; i--) st[n++] = back[i];
  for (int i = 0; i < nf; i++) st[n++] = fwd[i];
  /* sections: station, then SEC_OFFS points */
  const int stride = 1 + 3 * SEC_OFFS;
  for (int i = 0; i < n; i++) {
    double* S = s->sec + stride * i, o[SEC_OFFS], h, ws = wrap_station(s, st[i]);
    S[0] = st[i];
    offsets(s->tk, ws, o);
    for (int k = 0; k < SEC_OFFS; k++) track_eval(s->tk, ws, o[k], S + 1 + 3 * k, &h);
  }
  static const float ASPHALT[3] = {0.34f, 0.34f, 0.36f}, GRASS[3] = {0.36f, 0.58f, 0.27f}, WHITE[3] = {0.93f, 0.93f, 0.93f},
                     RED[3] = {0.82f, 0.12f, 0.10f}, PINK[3] = {0.87f, 0.52f, 0.51f};
  static const float SKIRT[4] = {0.40f, 0.56f, 0.30f, 1};   /* the ground's colour */
  int from = s->ndl;
  for (int i = 0; i + 1 < n; i++) {
    const double *A = s->sec + stride * i + 1, *B = s->sec + stride * (i + 1) + 1;
    double s0 = s->sec[stride * i], s1 = s->sec[stride * (i + 1)], sm = 0.5 * (s0 + s1);
    /* depth: the pair's centre (between the dash points) */
    double mid[3], cm[3];
    for (int k = 0; k < 3; k++) mid[k] = 0.25 * (A[15 + k] + A[18 + k] + B[15 + k] + B[18 + k]);
    to_cam(fc->v, mid, cm);
    double depth = norm3(cm);
    double e1[3], e2[3], nrm[3];
    for (int k = 0; k < 3; k++) e1[k] = B[15 + k] - A[15 + k], e2[k] = A[6 + k] - A[27 + k];
    cross3(e2, e1, nrm);   /* left × forward... */
    if (nrm[2] < 0) nrm[0] = -nrm[0], nrm[1] = -nrm[1], nrm[2] = -nrm[2];
    unit3(nrm);
    double k = shade(nrm) / shade((const double[3]){0, 0, 1});   /* the colours are as seen on level ground */
    double kappa = track_curvature(s->tk, wrap_station(s, sm));
    int kl = kappa > KERB_K, kr = kappa < -KERB_K;
    const float* kc = s1 - s0 > KERB_LEN ? PINK : ((long)floor(wrap_station(s, sm) / KERB_LEN) & 1) ? WHITE : RED;
    /* skirts: where a verge's outer edge is above the eye (so above the horizon) it hangs down to
     * below the eye's height, so that a road on a hill never floats over the sky beyond the
     * (infinite, flat) ground; below the eye the ground already covers everything */
    for (int side = 0; side < 2; side++) {
      int o = side ? SEC_OFFS - 1 : 0;
      double q[12], cam[12], zb = fc->v->eye[2] - 1;
      if (A[3 * o + 2] < zb && B[3 * o + 2] < zb) continue;
      memcpy(q, A + 3 * o, sizeof(double) * 3);
      memcpy(q + 3, B + 3 * o, sizeof(double) * 3);
      memcpy(q + 6, B + 3 * o, sizeof(double) * 3);
      memcpy(q + 9, A + 3 * o, sizeof(double) * 3);
      q[8] = q[11] = zb;
      for (int j = 0; j < 4; j++) to_cam(fc->v, q + 3 * j, cam + 3 * j);
      queue(s, fc, cam, 4, SKIRT, depth, 1);
    }
    strip(s, fc, A, B, 0, kl ? 1 : 2, GRASS, k, depth);
    if (kl) strip(s, fc, A, B, 1, 2, kc, k, depth);
    strip(s, fc, A, B, 2, 9, ASPHALT, k, depth);
    strip(s, fc, A, B, 3, 4, WHITE, k, depth);
    strip(s, fc, A, B, 7, 8, WHITE, k, depth);
    if (s1 - s0 <= 1.5 && fmod(wrap_station(s, sm), 12.0) < 4.0) strip(s, fc, A, B, 5, 6, WHITE, k, depth);
    if (kr) strip(s, fc, A, B, 9, 10, kc, k, depth);
    strip(s, fc, A, B, kr ? 10 : 9, 11, GRASS, k, depth);
  }
  fill_list(s, cr, from);
}

/* Queue the faces of scene b (posed at t) as seen by view v; alpha < 1: a ghost. */
static void queue_bodies(chase_scene* s, chase_scene* b, const frame_ctx* fc, double t, double alpha) {
  t = clamp_t(b, t);
  for (int i = 0; i < b->nb; i++) pose_at(b, i, t, b->wpose + 12 * i, b->wpose + 12 * i + 3);
  for (int i = 0; i < b->nvert; i++) {
    const double* W = b->wpose + 12 * b->vbody[i];
    const double *R = W + 3, *p = b->vert + 3 * i;
    double w[3];
    for (int k = 0; k < 3; k++) w[k] = W[k] + R[3 * k] * p[0] + R[3 * k + 1] * p[1] + R[3 * k + 2] * p[2];
    to_cam(fc->v, w, b->cvert + 3 * i);
  }
  reserve_dl(s, b->nface);
  for (int f = 0; f < b->nface; f++) {
    const face* F = &b->face[f];
    if (b->only >= 0 && b->vbody[F->v[0]] != b->only) continue;
    const double* R = b->wpose + 12 * b->vbody[F->v[0]] + 3;
    double n[3], nc[3], cen[3] = {0, 0, 0}, cam[12];
    for (int k = 0; k < 3; k++) n[k] = R[3 * k] * F->n[0] + R[3 * k + 1] * F->n[1] + R[3 * k + 2] * F->n[2];
    nc[0] = dot3(fc->v->r, n), nc[1] = dot3(fc->v->d, n), nc[2] = dot3(fc->v->f, n);
    for (int q = 0; q < F->nv; q++) {
      memcpy(cam + 3 * q, b->cvert + 3 * F->v[q], sizeof(double) * 3);
      for (int k = 0; k < 3; k++) cen[k] += cam[3 * q + k] / F->nv;
    }
    if (dot3(nc, cen) >= 0) continue;   /* facing away */
    double k = shade(n);
    float c[4] = {(float)fmin(1, F->rgba[0] * k), (float)fmin(1, F->rgba[1] * k), (float)fmin(1, F->rgba[2] * k), (float)(F->rgba[3] * alpha)};
    if (alpha < 1) {   /* the ghost: paler */
      for (int q = 0; q < 3; q++) c[q] = (float)(0.5 * c[q] + 0.5 * 0.85);
    }
    queue(s, fc, cam, F->nv, c, norm3(cen), alpha >= 1);
  }
}

int chase_draw_view(chase_scene* s, cairo_t* cr, double w, double h, double t, chase_scene* ghost, const chase_view* v,
                    mt_err* e) {
  if (!(w >= 1 && h >= 1 && w <= 16384 && h <= 16384)) return mt_fail(e, MT_EINPUT, "chase: bad area %gx%g", w, h);
  if (!mt_isfinite(t)) return mt_fail(e, MT_EINPUT, "chase: time %g is not a number", t);
  frame_ctx fc = {v, w, h, 0.5 * h / tan(0.5 * v->fov), 0, 0};
  fc.gx = 3 * 0.5 * w / fc.F;   /* the guard band: three half-widths each side */
  fc.gy = 3 * 0.5 * h / fc.F;
  cairo_save(cr);
  cairo_rectangle(cr, 0, 0, w, h);
  cairo_clip(cr);
  cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
  cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
  cairo_new_path(cr);
  s->ndl = s->npts = 0;
  if (s->layers & CHASE_SKY) sky(cr, &fc);
  if ((s->layers & CHASE_ROAD) && s->tk) {
    double smp[3];
    sample_at(s, t, smp);
    double s_cam = smp[2];
    if (s->cam.kind == CAM_TRACKSIDE) s_cam = s->cam.station[trackside_point(s, smp[2])];
    draw_road(s, cr, &fc, s_cam);
  }
  if (s->layers & CHASE_BODIES) {
    int from = s->ndl;
    queue_bodies(s, s, &fc, t, 1);
    if (ghost) queue_bodies(s, ghost, &fc, t, 0.45);
    fill_list(s, cr, from);
  }
  cairo_restore(cr);
  if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
    return mt_fail(e, MT_EINTERNAL, "chase: cairo: %s", cairo_status_to_string(cairo_status(cr)));
  return MT_OK;
}

int chase_draw(chase_scene* s, cairo_t* cr, double w, double h, double t, chase_scene* ghost, mt_err* e) {
  chase_view v;
  chase_view_at(s, t, &v);
  return chase_draw_view(s, cr, w, h, t, ghost, &v, e);
}
