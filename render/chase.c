/* chase.c — painting the chase view (see chase.h; the scene is built by chase_scene.c).
 *
 * Frame pipeline, all in double precision, no allocation per frame once the draw list has
 * grown to the scene's size:
 *  1. the camera at t (scene/cameras.h);
 *  2. ground colour, then the sky as the half-plane above the true horizon (the image line where
 *     rays are horizontal), with a gradient;
 *  3. the road: cross-sections every 0.75–12 m (finer near the camera) over the camera's draw
 *     range, each pair of sections giving a verge, kerb, asphalt, edge lines and dash strip, all
 *     of that pair drawn together, pairs far to near;
 *  4. the machine: at the level of detail the camera needs (pick_lod), every body's vertices
 *     posed (lerp + slerp between steps), faces culled when facing away, shaded flat (Lambert,
 *     fixed sun), clipped in camera space to the near plane and a guard band (so a face
 *     crossing the camera never projects through infinity), sorted far to near and filled, a
 *     run of one colour in one fill (fill_list). Each projected face grows 0.35 px about its
 *     centre so that antialiased neighbours leave no background-coloured seams. */
#include "render/chase_scene.h"

#include <stdlib.h>
#include <string.h>

#include "sim/track.h"

#define VERGE 10.0        /* grass beyond the kerb zone (m) */
#define KERB_W 1.0        /* kerb width beyond the road edge (m) */
#define KERB_LEN 2.0      /* length of one red or white kerb block (m) */
#define KERB_K (1.0 / 250) /* kerbs where the curve's radius is under 250 m, on its inside */

static const double SUN[3] = {0.40, 0.30, 0.866};   /* unit: towards the sun, 60° high in the north-east */
#define GROW 0.35        /* px each face grows by (see fill_list) */
#define CHASE_AA_MIN_H 360   /* px: shorter views fill the bodies without antialiasing */
#define AMBIENT 0.42
#define DIFFUSE 0.58

/* Grow the draw list to hold n more faces of up to 13 points each. */
static void reserve_dl(chase_scene* s, int n) {
  if (s->ndl + n > s->dcap) {
    while (s->ndl + n > s->dcap) s->dcap = s->dcap ? 2 * s->dcap : 4096;
    s->dl = mt_realloc(s->dl, sizeof(chase_dface) * s->dcap);
    s->order = mt_realloc(s->order, sizeof(int) * s->dcap);
  }
  if (s->npts + 13 * n > s->pcap) {
    while (s->npts + 13 * n > s->pcap) s->pcap = s->pcap ? 2 * s->pcap : 65536;
    s->pts = mt_realloc(s->pts, sizeof(double) * 2 * s->pcap);
  }
}

/*---- projection ----*/

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
  chase_dface* d = &s->dl[s->ndl];
  d->depth = depth;
  d->seq = s->ndl;
  d->np = m;
  d->p0 = s->npts;
  d->grow = grow;
  d->rank = 0;
  memcpy(d->rgba, rgba, sizeof d->rgba);
  double area = 0;   /* twice the signed area on screen */
  for (int i = 0; i < m; i++) {
    s->pts[2 * s->npts] = 0.5 * fc->w + fc->F * cl[3 * i] / cl[3 * i + 2];
    s->pts[2 * s->npts + 1] = 0.5 * fc->h + fc->F * cl[3 * i + 1] / cl[3 * i + 2];
    if (i) area += s->pts[2 * s->npts - 2] * s->pts[2 * s->npts + 1] - s->pts[2 * s->npts - 1] * s->pts[2 * s->npts];
    s->npts++;
  }
  const double* P = s->pts + 2 * d->p0;
  area += P[2 * (m - 1)] * P[1] - P[2 * (m - 1) + 1] * P[0];
  if (!s->keep_specks && fabs(area) < 2 * CHASE_SPECK_PX2) {   /* a speck: not worth a fill (chase_scene.h) */
    s->npts = d->p0;
    s->nspeck++;
    return;
  }
  s->ndl++;
}

static int by_depth(const void* a, const void* b, void* ctx) {
  const chase_dface* dl = ctx;
  const chase_dface *x = &dl[*(const int*)a], *y = &dl[*(const int*)b];
  if (x->depth != y->depth) return x->depth > y->depth ? -1 : 1;   /* far first */
  return x->seq - y->seq;
}

/* Face d's outline as a subpath, grown GROW px outward when d->grow, always anticlockwise
 * on screen (y down: positive shoelace area) so that the faces of one merged fill add up
 * under the winding rule where their grown edges overlap, instead of cancelling. */
static void face_path(cairo_t* cr, const chase_dface* d, const double* P) {
  int np = d->np;
  double area = 0;
  for (int k = 0; k < np; k++) {
    const double *a = P + 2 * k, *b = P + 2 * ((k + 1) % np);
    area += a[0] * b[1] - a[1] * b[0];
  }
  double sg = area > 0 ? 1 : -1;   /* winding on screen (y down) */
  for (int j = 0; j < np; j++) {
    int k = area >= 0 ? j : np - 1 - j;
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
    if (j == 0) cairo_move_to(cr, x, y);
    else cairo_line_to(cr, x, y);
  }
  cairo_close_path(cr);
}

static int same_colour(const chase_dface* a, const chase_dface* b) { return !memcmp(a->rgba, b->rgba, sizeof a->rgba); }

/* A plane's road (draw_road): its strips in the order a section draws them (rank: the verges, the
 * kerbs, the asphalt, the lines over it, so that each seam is covered as before), a colour at a
 * time within a rank, far to near within a colour. */
static int by_colour(const void* a, const void* b, void* ctx) {
  const chase_dface* dl = ctx;
  const chase_dface *x = &dl[*(const int*)a], *y = &dl[*(const int*)b];
  if (x->rank != y->rank) return x->rank - y->rank;
  int c = memcmp(x->rgba, y->rgba, sizeof x->rgba);
  return c ? c : by_depth(a, b, ctx);
}

/* Sort the faces from `from` on far to near and fill them. A run of consecutive faces of one
 * opaque colour is one path and one fill (Cairo's set-up per fill is most of a small face's
 * cost): painting them one by one in that order would give the same pixels but along their
 * shared edges, where the merged fill covers the seam at once instead of blending twice.
 * Translucent faces (the ghost) are filled one by one, so that their overlaps still darken.
 * chase_set_merge(s, 0) fills every face alone (tests compare the two). */
static void fill_list(chase_scene* s, cairo_t* cr, int from, int grouped) {
  int n = s->ndl - from;
  for (int i = 0; i < n; i++) s->order[i] = from + i;
  qsort_r(s->order, n, sizeof(int), grouped ? by_colour : by_depth, s->dl);
  for (int i = 0; i < n;) {
    const chase_dface* d = &s->dl[s->order[i]];
    int j = i + 1;
    face_path(cr, d, s->pts + 2 * d->p0);
    while (!s->nomerge && d->rgba[3] >= 1 && j < n && same_colour(d, &s->dl[s->order[j]])) {
      const chase_dface* q = &s->dl[s->order[j++]];
      face_path(cr, q, s->pts + 2 * q->p0);
    }
    if (d->rgba[3] < 1) cairo_set_source_rgba(cr, d->rgba[0], d->rgba[1], d->rgba[2], d->rgba[3]);
    else cairo_set_source_rgb(cr, d->rgba[0], d->rgba[1], d->rgba[2]);
    cairo_fill(cr);
    s->nfill++;
    i = j;
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
static void offsets(const track* tk, double st, double o[CHASE_SEC_OFFS]) {
  double wl, wr;
  track_widths(tk, st, &wl, &wr);
  double v[CHASE_SEC_OFFS] = {wl + KERB_W + VERGE, wl + KERB_W, wl, wl - 0.18, wl - 0.30, 0.06, -0.06, -wr + 0.30, -wr + 0.18, -wr, -wr - KERB_W, -wr - KERB_W - VERGE};
  memcpy(o, v, sizeof v);
}

static double wrap_station(const chase_scene* s, double st) {
  if (s->mo.closed) {
    st = fmod(st, s->mo.tlen);
    if (st < 0) st += s->mo.tlen;
  }
  return st;
}

static void strip(chase_scene* s, const frame_ctx* fc, const double* A, const double* B, int i0, int i1, const float rgb[3],
                  double k, double depth, int rank) {
  double cam[12];
  const double* P[4] = {A + 3 * i0, A + 3 * i1, B + 3 * i1, B + 3 * i0};
  for (int i = 0; i < 4; i++) to_cam(fc->v, P[i], cam + 3 * i);
  float c[4] = {(float)(rgb[0] * k), (float)(rgb[1] * k), (float)(rgb[2] * k), 1};
  int n0 = s->ndl;
  queue(s, fc, cam, 4, c, depth, 1);
  if (s->ndl > n0) s->dl[n0].rank = rank;
}

/* Whether the n sections' points (draw_road's layout) lie in one plane, within 0.1 mm; its
 * upward unit normal in nrm. */
static int road_planar(const double* sec, int n, double nrm[3]) {
  const int stride = 1 + 3 * CHASE_SEC_OFFS;
  if (n < 2) return 0;
  const double *a = sec + 1, *b = sec + 1 + 3 * (CHASE_SEC_OFFS - 1), *c = sec + stride * (n - 1) + 1;
  double u[3], v[3];
  for (int k = 0; k < 3; k++) u[k] = b[k] - a[k], v[k] = c[k] - a[k];
  cross3(u, v, nrm);
  double l = norm3(nrm);
  if (!(l > 1e-9)) return 0;
  for (int k = 0; k < 3; k++) nrm[k] /= nrm[2] < 0 ? -l : l;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < CHASE_SEC_OFFS; j++) {
      const double* p = sec + stride * i + 1 + 3 * j;
      if (!(fabs((p[0] - a[0]) * nrm[0] + (p[1] - a[1]) * nrm[1] + (p[2] - a[2]) * nrm[2]) <= 1e-4)) return 0;
    }
  return 1;
}

/* The road from s_cam − behind to s_cam + ahead (m along the track). */
static void draw_road(chase_scene* s, cairo_t* cr, const frame_ctx* fc, double s_cam, double behind, double ahead) {
  const track* tk = s->mo.tk;
  double lo = s_cam - behind, hi = s_cam + ahead;
  if (!s->mo.closed) lo = fmax(lo, 0), hi = fmin(hi, s->mo.tlen);
  if (!(hi > lo)) return;
  s_cam = fmin(fmax(s_cam, lo), hi);
  /* stations: outward from the camera's, finer where the road is near the eye; a view less than
   * CHASE_ROAD_REF_H px tall (a grid's cell) takes sections longer in proportion, so that they
   * are as many pixels apart as in a 1280 × 720 frame's view: fewer faces and fills, the same
   * road to the eye (docs/render.md "Speed") */
  double coarse = s->road_fixed ? 1 : fmax(1, CHASE_ROAD_REF_H / fc->h);
  double st[CHASE_MAX_SECTIONS];
  int nb = 0, nf = 0;
  double back[CHASE_MAX_SECTIONS / 2], fwd[CHASE_MAX_SECTIONS / 2];
  for (int dir = -1; dir <= 1; dir += 2) {
    double x = s_cam;
    double* out = dir < 0 ? back : fwd;
    int* cnt = dir < 0 ? &nb : &nf;
    while (*cnt < CHASE_MAX_SECTIONS / 2 - 1) {
      double p[3], h;
      track_eval(tk, wrap_station(s, x), 0, p, &h);
      double d = hypot(hypot(p[0] - fc->v->eye[0], p[1] - fc->v->eye[1]), p[2] - fc->v->eye[2]);
      out[(*cnt)++] = x;
      if (dir < 0 ? x <= lo : x >= hi) break;
      double step = coarse * fmin(fmax(0.04 * d, 0.75), 12);
      x += dir * step;
      if (dir < 0 ? x < lo : x > hi) x = dir < 0 ? lo : hi;
    }
  }
  int n = 0;
  for (int i = nb - 1; i >= 1; i--) st[n++] = back[i];
  for (int i = 0; i < nf; i++) st[n++] = fwd[i];
  /* sections: station, then CHASE_SEC_OFFS points */
  const int stride = 1 + 3 * CHASE_SEC_OFFS;
  for (int i = 0; i < n; i++) {
    double* S = s->sec + stride * i, o[CHASE_SEC_OFFS], h, ws = wrap_station(s, st[i]);
    S[0] = st[i];
    offsets(tk, ws, o);
    for (int k = 0; k < CHASE_SEC_OFFS; k++) track_eval(tk, ws, o[k], S + 1 + 3 * k, &h);
  }
  static const float ASPHALT[3] = {0.34f, 0.34f, 0.36f}, GRASS[3] = {0.36f, 0.58f, 0.27f}, WHITE[3] = {0.93f, 0.93f, 0.93f},
                     RED[3] = {0.82f, 0.12f, 0.10f}, PINK[3] = {0.87f, 0.52f, 0.51f};
  static const float SKIRT[4] = {0.40f, 0.56f, 0.30f, 1};   /* the ground's colour */
  int from = s->ndl, nskirt = 0;
  /* a plane's road: one shade for every section (from the plane's normal, so that equal colours
   * are equal to the bit and merge), filled a colour at a time (chase_set_road_grouped) */
  double pn[3];
  int planar = !s->road_by_depth && !s->nomerge && road_planar(s->sec, n, pn);   /* face by face: far to near, as before */
  double kplane = planar ? shade(pn) / shade((const double[3]){0, 0, 1}) : 0;
  for (int i = 0; i + 1 < n; i++) {
    const double *A = s->sec + stride * i + 1, *B = s->sec + stride * (i + 1) + 1;
    double s0 = s->sec[stride * i], s1 = s->sec[stride * (i + 1)], sm = 0.5 * (s0 + s1);
    /* depth: the pair's centre (between the dash points) */
    double mid[3], cm[3];
    for (int k = 0; k < 3; k++) mid[k] = 0.25 * (A[15 + k] + A[18 + k] + B[15 + k] + B[18 + k]);
    to_cam(fc->v, mid, cm);
    double depth = norm3(cm);
    double k = kplane;   /* the colours are as seen on level ground */
    if (!planar) {       /* this pair's own shade */
      double e1[3], e2[3], nrm[3];
      for (int j = 0; j < 3; j++) e1[j] = B[15 + j] - A[15 + j], e2[j] = A[6 + j] - A[27 + j];
      cross3(e2, e1, nrm);   /* left × forward... */
      if (nrm[2] < 0) nrm[0] = -nrm[0], nrm[1] = -nrm[1], nrm[2] = -nrm[2];
      unit3(nrm);
      k = shade(nrm) / shade((const double[3]){0, 0, 1});
    }
    double kappa = track_curvature(tk, wrap_station(s, sm));
    int kl = kappa > KERB_K, kr = kappa < -KERB_K;
    const float* kc = s1 - s0 > KERB_LEN ? PINK : ((long)floor(wrap_station(s, sm) / KERB_LEN) & 1) ? WHITE : RED;
    /* skirts: where a verge's outer edge is above the eye (so above the horizon) it hangs down to
     * below the eye's height, so that a road on a hill never floats over the sky beyond the
     * (infinite, flat) ground; below the eye the ground already covers everything */
    for (int side = 0; side < 2; side++) {
      int o = side ? CHASE_SEC_OFFS - 1 : 0;
      double q[12], cam[12], zb = fc->v->eye[2] - 1;
      if (A[3 * o + 2] < zb && B[3 * o + 2] < zb) continue;
      memcpy(q, A + 3 * o, sizeof(double) * 3);
      memcpy(q + 3, B + 3 * o, sizeof(double) * 3);
      memcpy(q + 6, B + 3 * o, sizeof(double) * 3);
      memcpy(q + 9, A + 3 * o, sizeof(double) * 3);
      q[8] = q[11] = zb;
      for (int j = 0; j < 4; j++) to_cam(fc->v, q + 3 * j, cam + 3 * j);
      queue(s, fc, cam, 4, SKIRT, depth, 1);
      nskirt++;
    }
    /* one pair's strips, same colours next to each other (fill_list merges them into one
     * fill): they only touch along their edges, except the lines, which go over the asphalt */
    strip(s, fc, A, B, 0, kl ? 1 : 2, GRASS, k, depth, 0);
    strip(s, fc, A, B, kr ? 10 : 9, 11, GRASS, k, depth, 0);
    if (kl) strip(s, fc, A, B, 1, 2, kc, k, depth, 1);
    if (kr) strip(s, fc, A, B, 9, 10, kc, k, depth, 1);
    strip(s, fc, A, B, 2, 9, ASPHALT, k, depth, 2);
    strip(s, fc, A, B, 3, 4, WHITE, k, depth, 3);
    strip(s, fc, A, B, 7, 8, WHITE, k, depth, 3);
    if (coarse <= 1) {
      if (s1 - s0 <= 1.5 && fmod(wrap_station(s, sm), 12.0) < 4.0) strip(s, fc, A, B, 5, 6, WHITE, k, depth, 3);
    } else if (s1 - s0 <= 1.5 * coarse) {   /* longer sections: each dash cut to its own stations */
      double L = s1 - s0, p0 = fmod(wrap_station(s, s0), 12.0), a[3 * CHASE_SEC_OFFS], b[3 * CHASE_SEC_OFFS];
      for (int j = 0; 12.0 * j < p0 + L; j++) {
        double f0 = (fmax(p0, 12.0 * j) - p0) / L, f1 = (fmin(p0 + L, 12.0 * j + 4) - p0) / L;
        if (!(f1 > f0)) continue;
        for (int q = 15; q < 21; q++) {   /* offsets 5 and 6: the dash's edges */
          a[q] = A[q] + f0 * (B[q] - A[q]);
          b[q] = A[q] + f1 * (B[q] - A[q]);
        }
        strip(s, fc, a, b, 5, 6, WHITE, k, depth, 3);
      }
    }
  }
  s->road_grouped = planar && !nskirt;
  fill_list(s, cr, from, s->road_grouped);
}

/* The rider's limbs at t: each pseudo-body's pose is its bone's (scene/skel_take.h's input). */
static void pose_limbs(chase_scene* b, double t) {
  if (!b->nlimb) return;
  sk_frame_in in;
  sk_pose_out po;
  if (b->live) sk_motion_frame_live(&b->skm, t, b->live_heading[0], b->live_heading[1], &in);
  else sk_motion_frame(&b->skm, t, &in);
  sk_pose(&b->sk, &in, &po);
  for (int i = 0; i < b->nlimb; i++) {
    double* W = b->wpose + 12 * (b->mo.nb + i);
    const sk_bone_pose* bp = &po.bone[b->limb[i].bone];
    memcpy(W, bp->head, sizeof bp->head);
    sc_quat_mat(bp->quat, W + 3);
  }
}

/* The level of detail for scene b (posed in b->wpose) seen by view fc: the coarsest whose
 * sagitta, at the nearest point of any body's bounding sphere, is within CHASE_LOD_PX pixels.
 * Chosen afresh every frame from the camera: nothing to invalidate when it moves. */
static int pick_lod(const chase_scene* b, const frame_ctx* fc) {
  double zmin = HUGE_VAL;
  for (int i = 0; i < b->mo.nb + b->nlimb; i++) {
    if (!(b->brad[i] > 0)) continue;
    double c[3];
    to_cam(fc->v, b->wpose + 12 * i, c);
    zmin = fmin(zmin, c[2] - b->brad[i]);
  }
  double px_per_m = fc->F / fmax(zmin, CHASE_NEAR);
  int l = 0;
  while (l + 1 < CHASE_NLOD && b->lod[l + 1].sag * px_per_m <= CHASE_LOD_PX) l++;
  return b->lod_force >= 0 && b->lod_force < CHASE_NLOD ? b->lod_force : l;
}

/* Queue the faces of scene b (posed at t) as seen by view v; alpha < 1: a ghost. */
static void queue_bodies(chase_scene* s, chase_scene* b, const frame_ctx* fc, double t, double alpha) {
  t = sc_motion_clamp(&b->mo, t);
  for (int i = 0; i < b->mo.nb; i++) sc_motion_pose_at(&b->mo, i, t, b->wpose + 12 * i, b->wpose + 12 * i + 3);
  pose_limbs(b, t);
  const chase_mesh* m = &b->lod[b->lod_last = pick_lod(b, fc)];
  for (int i = 0; i < m->nvert; i++) {
    const double* W = b->wpose + 12 * m->vbody[i];
    const double *R = W + 3, *p = m->vert + 3 * i;
    double w[3];
    for (int k = 0; k < 3; k++) w[k] = W[k] + R[3 * k] * p[0] + R[3 * k + 1] * p[1] + R[3 * k + 2] * p[2];
    to_cam(fc->v, w, b->cvert + 3 * i);
  }
  reserve_dl(s, m->nface);
  for (int f = 0; f < m->nface; f++) {
    const chase_face* F = &m->face[f];
    if (b->only >= 0 && m->vbody[F->v[0]] != b->only) continue;
    const double* R = b->wpose + 12 * m->vbody[F->v[0]] + 3;
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
  /* 4×4 samples a pixel (Cairo's FAST) instead of the default's finer grid: a quarter less
   * work a fill, and the same picture to the eye (docs/render.md "Speed") */
  cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST);
  cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
  cairo_new_path(cr);
  s->ndl = s->npts = s->nfill = s->nspeck = 0;
  if (s->layers & CHASE_SKY) sky(cr, &fc);
  if ((s->layers & CHASE_ROAD) && s->mo.tk) {
    double at, behind, ahead;
    sc_camera_road(s->cam, t, &at, &behind, &ahead);
    draw_road(s, cr, &fc, at, behind, ahead);
  }
  if (s->layers & CHASE_BODIES) {
    int from = s->ndl;
    queue_bodies(s, s, &fc, t, 1);
    if (ghost) queue_bodies(s, ghost, &fc, t, 0.45);
    /* in a view under CHASE_AA_MIN_H px tall (the 720p grid's cells, 284 and 285 px) the
     * machine and rider are filled without antialiasing: this cell 6.81 to 5.42 M instructions
     * a frame, the grid's drawing at 720p 5 % less; their silhouette steps by whole pixels
     * (docs/render.md "Speed", the seventh round) */
    if (h < CHASE_AA_MIN_H) cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    fill_list(s, cr, from, 0);
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
