/* set.c — the film set around a track: road, lines, kerbs, verges, ground, boards (see set.h). */
#include "exporters/set.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mt.h"

/*---- the road's cross-sections ----*/

/* Columns of a row, right to left. Offsets are measured from the edges, so that the lines and
 * kerbs keep their widths where the road widens. Spans (between columns) are of these kinds: */
enum { K_VERGE, K_FLUSH, K_KERB, K_TARMAC, K_LINE };
#define NINT_MAX 16   /* interior tarmac spans at most */
/* Budgets that bound the set of a hostile track (up to 1000 km and a million arc pieces, 1024
 * kerbs and 256 boards: sim/track.c's bounds): rows at the break stations and rows in all; past
 * them the rows thin out and the tolerance is no longer promised. Laguna Seca needs 3347 rows; a
 * 1000 km straight with 1024 kerbs along all of it exported in 22 s, 328 MB at most, 29 MB of GLB. */
#define MAX_BREAKS 10000
#define MAX_ROWS 20000
#define GROUND_LINES 400   /* grid lines per axis over the track's bounding box, at most */

typedef struct colspec {
  int side;       /* −1: from the right edge, +1: from the left edge, 0: interior fraction */
  double d;       /* outward distance from that edge (m; negative: inside the road) or fraction */
  double drop;    /* m below the extended cross-section */
} colspec;

typedef struct layout {
  int nc;                  /* columns */
  colspec c[12 + NINT_MAX + 1];
  int kind[12 + NINT_MAX]; /* span c → c+1 */
} layout;

typedef struct row {
  double s, wl, wr;
  double* o;   /* nc offsets */
  double* p;   /* nc × 3 points */
} row;

typedef struct grid {
  const track* t;
  const layout* L;
  double tol, max_step;
  row* r;
  int n, cap;
  int hint;   /* track_query's hint, carried from query to query */
} grid;

static void layout_make(const track* t, layout* L) {
  double wmax = 0;
  for (int i = 0; i < track_nsegments(t); i++) {
    double wl, wr;
    track_widths(t, track_segment_start(t, i), &wl, &wr);
    wmax = fmax(wmax, wl + wr);
  }
  double wl, wr;   /* widths vary linearly: the largest is at a segment's end */
  track_widths(t, track_length(t), &wl, &wr);
  wmax = fmax(wmax, wl + wr);
  /* interior tarmac spans about 3 m wide: the twist of a changing bank is then within tol
   * after a few halvings of the rows (a wider span only needs more rows) */
  int nint = (int)ceil((wmax - 2 * (EX_SET_LINE_IN + EX_SET_LINE_W)) / 3.0);
  nint = nint < 1 ? 1 : nint > NINT_MAX ? NINT_MAX : nint;
  const double in = -EX_SET_LINE_IN, in2 = -(EX_SET_LINE_IN + EX_SET_LINE_W);
  const colspec out[6] = {{1, EX_SET_VERGE, EX_SET_DROP}, {1, EX_SET_FLUSH, 0}, {1, EX_SET_KERB_W, 0},
                          {1, 0, 0}, {1, in, 0}, {1, in2, 0}};
  const int out_kind[5] = {K_VERGE, K_FLUSH, K_KERB, K_TARMAC, K_LINE};
  int n = 0;
  for (int i = 0; i < 6; i++) L->c[n++] = (colspec){-1, out[i].d, out[i].drop};   /* right side, outside in */
  for (int i = 1; i < nint; i++) L->c[n++] = (colspec){0, (double)i / nint, 0};
  for (int i = 5; i >= 0; i--) L->c[n++] = out[i];                               /* left side, inside out */
  L->nc = n;
  for (int i = 0; i < 5; i++) L->kind[i] = out_kind[i], L->kind[n - 2 - i] = out_kind[i];
  for (int i = 5; i < n - 6; i++) L->kind[i] = K_TARMAC;
}

/* Largest |curvature| within 30 m of s: the inside verge must stop short of the turn's centre,
 * or neighbouring cross-sections would cross. */
static double local_curvature(const track* t, double s) {
  double k = 0;
  for (double d = -30; d <= 30; d += 2.5) k = fmax(k, fabs(track_curvature(t, s + d)));
  return k;
}

static void row_make(const grid* g, double s, row* r) {
  const layout* L = g->L;
  r->s = s;
  track_widths(g->t, s, &r->wl, &r->wr);
  double k = local_curvature(g->t, s), lim = k > 0 ? 0.8 / k : INFINITY;
  double kc = track_curvature(g->t, s);   /* > 0: a left turn, its inside on the left */
  r->o = mt_alloc(sizeof(double) * L->nc);
  r->p = mt_alloc(sizeof(double) * 3 * L->nc);
  double lo = -r->wr + EX_SET_LINE_IN + EX_SET_LINE_W, hi = r->wl - EX_SET_LINE_IN - EX_SET_LINE_W;
  for (int c = 0; c < L->nc; c++) {
    const colspec* cs = &L->c[c];
    double o = cs->side == 0 ? lo + cs->d * (hi - lo) : cs->side > 0 ? r->wl + cs->d : -r->wr - cs->d;
    int inside = (o > 0 && kc > 0) || (o < 0 && kc < 0);
    if (inside && fabs(o) > lim) o = o > 0 ? lim : -lim;
    if (c > 0 && o < r->o[c - 1] + 0.05) o = r->o[c - 1] + 0.05;   /* columns stay in order */
    r->o[c] = o;
    double h;
    track_eval(g->t, s, o, r->p + 3 * c, &h);
    r->p[3 * c + 2] -= cs->drop;
  }
}

static void row_free(row* r) {
  free(r->o);
  free(r->p);
}

/* Largest |z − road(x, y)| over test points of the quads between rows a and b, kerb to kerb:
 * each triangle's centroid, the shared diagonal's quarter points and midpoint, and the
 * midpoints of the edges along the track (the edges across are exact). */
static double interval_error(grid* g, const row* a, const row* b) {
  static const double W[7][4] = {   /* weights of A0, A1, B0, B1 */
      {1. / 3, 1. / 3, 0, 1. / 3}, {1. / 3, 0, 1. / 3, 1. / 3}, {.75, 0, 0, .25}, {.5, 0, 0, .5},
      {.25, 0, 0, .75},            {.5, 0, .5, 0},               {0, .5, 0, .5}};
  double worst = 0;
  for (int c = 2; c < g->L->nc - 3; c++) {
    const double *A0 = a->p + 3 * c, *A1 = a->p + 3 * (c + 1), *B0 = b->p + 3 * c, *B1 = b->p + 3 * (c + 1);
    for (int k = 0; k < 7; k++) {
      double q[3];
      for (int i = 0; i < 3; i++) q[i] = W[k][0] * A0[i] + W[k][1] * A1[i] + W[k][2] * B0[i] + W[k][3] * B1[i];
      road_point rp;
      if (track_query(g->t, q[0], q[1], g->hint, &rp)) continue;
      g->hint = rp.hint;
      worst = fmax(worst, fabs(q[2] - rp.z));
    }
  }
  return worst;
}

static void push_row(grid* g, const row* r) {
  if (g->n == g->cap) {
    g->cap = g->cap ? 2 * g->cap : 1024;
    g->r = mt_realloc(g->r, sizeof(row) * g->cap);
  }
  g->r[g->n++] = *r;
}

/* Rows strictly between a and b (a already pushed), halving until within tol and max_step. */
static void refine(grid* g, const row* a, const row* b, int depth) {
  if (depth > 20 || g->n >= MAX_ROWS || (b->s - a->s <= g->max_step && interval_error(g, a, b) <= g->tol)) return;
  row m;
  row_make(g, 0.5 * (a->s + b->s), &m);
  refine(g, a, &m, depth + 1);
  push_row(g, &m);
  refine(g, &m, b, depth + 1);
}

static int cmp_double(const void* x, const void* y) {
  double a = *(const double*)x, b = *(const double*)y;
  return a < b ? -1 : a > b;
}

/* The stations every mesh must have a row at: arc pieces' starts (segment and spiral joins),
 * the start line's end, kerb ends and stripes, the track's end. Sorted, distinct. */
static double* breaks(const track* t, int* n) {
  const track_dress* d = track_dressing(t);
  double L = track_length(t);
  int np = track_npieces(t), every = np / MAX_BREAKS + 1;   /* every piece, within the budget */
  int cap = np / every + 4 + MAX_BREAKS + 2 * d->nkerb;
  double* s = mt_alloc(sizeof(double) * cap);
  int m = 0;
  for (int i = 0; i < np; i += every) {
    double len;
    track_piece_span(t, i, &s[m++], &len);
  }
  s[m++] = L;
  s[m++] = fmin(EX_SET_START_LEN, L);
  for (int k = 0, stripes = 0; k < d->nkerb; k++) {
    for (double x = d->kerb[k].from; x < d->kerb[k].to && stripes < MAX_BREAKS; x += EX_SET_STRIPE, stripes++) s[m++] = x;
    s[m++] = d->kerb[k].to;
  }
  qsort(s, m, sizeof *s, cmp_double);
  int j = 0;
  for (int i = 0; i < m; i++)
    if (j == 0 || s[i] > s[j - 1] + 1e-6) s[j++] = s[i];
  *n = j;
  return s;
}

static void grid_build(grid* g) {
  int nb;
  double* b = breaks(g->t, &nb);
  row r;
  row_make(g, b[0], &r);
  push_row(g, &r);
  for (int i = 1; i < nb; i++) {
    row_make(g, b[i], &r);
    row prev = g->r[g->n - 1];
    refine(g, &prev, &r, 0);
    push_row(g, &r);
  }
  free(b);
}

/*---- emitting the parts ----*/

static const double C_TARMAC[4] = {0.055, 0.055, 0.06, 1}, C_PAINT[4] = {0.74, 0.74, 0.71, 1},
                    C_KERB_RED[4] = {0.52, 0.025, 0.02, 1}, C_KERB_WHITE[4] = {0.77, 0.77, 0.75, 1},
                    C_GRASS[4] = {0.065, 0.15, 0.028, 1}, C_BOARD[4] = {0.81, 0.81, 0.8, 1},
                    C_TEXT[4] = {0.015, 0.015, 0.02, 1};

static ex_part* new_part(ex_set* S, const char* name, const char* mat, const double rgba[4]) {
  ex_part* p = &S->part[S->npart];
  snprintf(S->names[S->npart], sizeof S->names[0], "%s", name);
  S->npart++;
  p->name = S->names[S->npart - 1];
  p->pose[3] = 1;
  p->nmesh = 1;
  p->material[0] = mat;
  memcpy(p->rgba[0], rgba, sizeof p->rgba[0]);
  return p;
}

/* Whether station s (the middle of a row interval) lies on a kerb of side `side`; *white: its stripe. */
static int on_kerb(const track* t, double s, int side, int* white) {
  const track_dress* d = track_dressing(t);
  for (int k = 0; k < d->nkerb; k++)
    if (d->kerb[k].side == side && s > d->kerb[k].from && s < d->kerb[k].to) {
      *white = (int)floor((s - d->kerb[k].from) / EX_SET_STRIPE) % 2;
      return 1;
    }
  return 0;
}

/* The grid's parts and, per part, the index its mesh gave the vertex of row i, column c (−1:
 * none yet): quads of one part share their vertices. */
enum { P_ROAD, P_LINES, P_RED, P_WHITE, P_GRASS, NPART_GRID };
typedef struct emitter {
  const grid* g;
  ex_mesh* mesh[NPART_GRID];
  int* idx[NPART_GRID];   /* g->n × nc */
} emitter;

/* The vertex of row i, column c in part k: u = offset, v = station (m). */
static int grid_vertex(emitter* E, int k, int i, int c) {
  int* slot = &E->idx[k][i * E->g->L->nc + c];
  if (*slot < 0) {
    const row* r = &E->g->r[i];
    double n[3], uv[2] = {r->o[c], r->s};
    track_normal(E->g->t, r->s, r->o[c], n);
    *slot = ex_mesh_vertex(E->mesh[k], r->p + 3 * c, n, uv);
  }
  return *slot;
}

/* The quad of span c between rows i and i + 1 into part k. */
static void emit_quad(emitter* E, int k, int i, int c) {
  int v[4] = {grid_vertex(E, k, i, c), grid_vertex(E, k, i, c + 1), grid_vertex(E, k, i + 1, c),
              grid_vertex(E, k, i + 1, c + 1)};
  ex_mesh* m = E->mesh[k];
  /* A0 B0 B1, A0 B1 A1: anticlockwise seen from above (A1 is left of A0, B ahead of A); the
   * diagonal A0–B1 is the one interval_error tests */
  ex_mesh_triangle(m, v[0], v[2], v[3]);
  ex_mesh_triangle(m, v[0], v[3], v[1]);
}

/* Which part span c of the interval between rows a and b belongs to. */
static int span_part(const grid* g, const row* a, const row* b, int c) {
  int kind = g->L->kind[c], w;
  double mid = 0.5 * (a->s + b->s);
  int side = c < g->L->nc / 2 ? TRACK_SIDE_RIGHT : TRACK_SIDE_LEFT;
  switch (kind) {
    case K_KERB: return on_kerb(g->t, mid, side, &w) ? (w ? P_WHITE : P_RED) : P_GRASS;
    case K_LINE: return P_LINES;
    case K_TARMAC: return mid < EX_SET_START_LEN && c > 3 && c < g->L->nc - 5 ? P_LINES : P_ROAD;
    default: return P_GRASS;
  }
}

/* The grid's parts; returns the grass part (the ground joins it). */
static ex_part* emit_grid(const grid* g, ex_set* S) {
  static const char* const NAME[NPART_GRID][2] = {{"road", "tarmac"},        {"road_lines", "line_paint"},
                                                  {"kerbs_red", "kerb_red"}, {"kerbs_white", "kerb_white"},
                                                  {"grass", "grass"}};
  const double* const RGBA[NPART_GRID] = {C_TARMAC, C_PAINT, C_KERB_RED, C_KERB_WHITE, C_GRASS};
  emitter E = {g, {0}, {0}};
  ex_part* first = &S->part[S->npart];
  size_t cells = (size_t)g->n * (size_t)g->L->nc;
  for (int k = 0; k < NPART_GRID; k++) {
    E.mesh[k] = &new_part(S, NAME[k][0], NAME[k][1], RGBA[k])->mesh[0];
    E.idx[k] = mt_alloc(sizeof(int) * cells);
    memset(E.idx[k], 0xff, sizeof(int) * cells);   /* −1 */
  }
  for (int i = 0; i + 1 < g->n; i++)
    for (int c = 0; c + 1 < g->L->nc; c++) emit_quad(&E, span_part(g, &g->r[i], &g->r[i + 1], c), i, c);
  for (int k = 0; k < NPART_GRID; k++) free(E.idx[k]);
  return first + P_GRASS;
}

/*---- the ground to the horizon ----*/

/* Grid lines along one axis: every 10 m over [lo, hi] (fewer on a track longer than
 * GROUND_LINES × 10 m), then growing by half each step out to the horizon on both sides. */
static double* ground_lines(double lo, double hi, int* n) {
  int cap = GROUND_LINES + 64, m = 0;
  double* v = mt_alloc(sizeof(double) * cap);
  double out[32];
  int no = 0;
  for (double d = 15; d < EX_SET_HORIZON && no < 31; d *= 1.5) out[no++] = d;
  out[no++] = EX_SET_HORIZON;
  for (int i = no - 1; i >= 0; i--) v[m++] = lo - out[i];
  int k = (int)fmin(ceil((hi - lo) / 10), GROUND_LINES);
  for (int i = 0; i <= k; i++) v[m++] = lo + (hi - lo) * i / k;
  for (int i = 0; i < no; i++) v[m++] = hi + out[i];
  *n = m;
  return v;
}

/* Height of the ground at (x, y): below the lower of the two flush verges' outer edges at the
 * nearest station, so that it never shows through the road or its verges nearby. */
static double ground_height(const track* t, double x, double y, int* hint) {
  road_point rp;
  if (track_query(t, x, y, *hint, &rp)) return 0;
  *hint = rp.hint;
  double wl, wr, pl[3], pr[3], h;
  track_widths(t, rp.s, &wl, &wr);
  track_eval(t, rp.s, wl + EX_SET_FLUSH, pl, &h);
  track_eval(t, rp.s, -wr - EX_SET_FLUSH, pr, &h);
  return fmin(pl[2], pr[2]) - 0.6;
}

static void emit_ground(const grid* g, ex_mesh* m) {
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (int i = 0; i < g->n; i++) {
    const double* p = g->r[i].p + 3 * (g->L->nc / 2);
    x0 = fmin(x0, p[0]), x1 = fmax(x1, p[0]), y0 = fmin(y0, p[1]), y1 = fmax(y1, p[1]);
  }
  int nx, ny, hint = -1;
  double* xs = ground_lines(x0 - 60, x1 + 60, &nx);
  double* ys = ground_lines(y0 - 60, y1 + 60, &ny);
  double* h = mt_alloc(sizeof(double) * nx * ny);
  double* e = mt_alloc(sizeof(double) * nx * ny);
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) h[j * nx + i] = ground_height(g->t, xs[i], ys[j], &hint);
  /* each vertex at the lowest of its neighbourhood: a grid triangle then stays below the road
   * where the nearest station jumps from one stretch of track to another */
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      double z = INFINITY;
      for (int dj = -1; dj <= 1; dj++)
        for (int di = -1; di <= 1; di++)
          if (i + di >= 0 && i + di < nx && j + dj >= 0 && j + dj < ny) z = fmin(z, h[(j + dj) * nx + i + di]);
      e[j * nx + i] = z;
    }
  int base = m->nvert;
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      double p[3] = {xs[i], ys[j], e[j * nx + i]}, n[3] = {0, 0, 1}, uv[2] = {xs[i], ys[j]};
      ex_mesh_vertex(m, p, n, uv);
    }
  for (int j = 0; j + 1 < ny; j++)
    for (int i = 0; i + 1 < nx; i++) {
      int a = base + j * nx + i;
      ex_mesh_triangle(m, a, a + 1, a + nx + 1);
      ex_mesh_triangle(m, a, a + nx + 1, a + nx);
    }
  free(xs), free(ys), free(h), free(e);
}

/*---- corner boards ----*/

/* Seven-segment glyphs (a b c d e f g as bits 0..6) for digits; 'T' and 'A' by hand. */
static int glyph(char ch) {
  static const int DIG[10] = {0x3f, 0x06, 0x5b, 0x4f, 0x66, 0x6d, 0x7d, 0x07, 0x7f, 0x6f};
  if (ch >= '0' && ch <= '9') return DIG[ch - '0'];
  if (ch == 'A') return 0x77;
  if (ch == '-') return 0x40;
  return 0;
}

/* A box from (x0, z0) to (x1, z1) on the board's face plane at depth y (board frame). */
static void face_box(ex_mesh* m, double x0, double z0, double x1, double z1, double y, double thick) {
  ex_shape b = {EX_BOX, {0.5 * (x0 + x1), y, 0.5 * (z0 + z1)}, {x1 - x0, thick, z1 - z0}, {0}, 0, 0, {0}};
  ex_mesh_add_shape(m, &b);
}

/* The corner's name in glyphs 0.9 m tall, centred on the face at height zc, facing −y. */
static void board_text(ex_mesh* m, const char* name, double zc) {
  const double H = 0.9, W = 0.45, T = 0.11, gap = 0.18, y = -0.06;
  int n = (int)strlen(name);
  double x = -0.5 * (n * W + (n - 1) * gap);
  for (int i = 0; i < n; i++, x += W + gap) {
    double zb = zc - 0.5 * H, zm = zc, zt = zc + 0.5 * H;
    if (name[i] == 'T') {
      face_box(m, x, zt - T, x + W, zt, y, 0.02);
      face_box(m, x + 0.5 * (W - T), zb, x + 0.5 * (W + T), zt - T, y, 0.02);
      continue;
    }
    int gl = glyph(name[i]);
    const double seg[7][4] = {{x, zt - T, x + W, zt},         {x + W - T, zm, x + W, zt},     {x + W - T, zb, x + W, zm},
                              {x, zb, x + W, zb + T},         {x, zb, x + T, zm},             {x, zm, x + T, zt},
                              {x, zm - 0.5 * T, x + W, zm + 0.5 * T}};
    for (int k = 0; k < 7; k++)
      if (gl & (1 << k)) face_box(m, seg[k][0], seg[k][1], seg[k][2], seg[k][3], y, 0.02);
  }
}

/* A board 2.4 m × 1.6 m on two posts, EX_SET_FLUSH − 1 m beyond the edge on the corner's side,
 * its face (−y) towards the traffic that comes to it, turned 20° towards the road. */
static void emit_board(const track* t, const track_corner* cn, ex_set* S) {
  char nm[80];
  snprintf(nm, sizeof nm, "board_%s%s%s", cn->name, cn->title[0] ? "_" : "", cn->title);
  for (char* c = nm; *c; c++)
    if (*c == ' ') *c = '_';
  ex_part* p = new_part(S, nm, "board", C_BOARD);
  double wl, wr, h, pos[3];
  track_widths(t, cn->at, &wl, &wr);
  double o = cn->side > 0 ? wl + EX_SET_FLUSH - 1 : -wr - EX_SET_FLUSH + 1;   /* on the flush verge */
  track_eval(t, cn->at, o, pos, &h);
  double yaw = h - MT_PI / 2 + cn->side * 20 * MT_PI / 180;   /* face (−y) back along the track */
  memcpy(p->pose, pos, sizeof pos);
  p->pose[3] = cos(0.5 * yaw), p->pose[4] = p->pose[5] = 0, p->pose[6] = sin(0.5 * yaw);
  face_box(&p->mesh[0], -1.2, 0.8, 1.2, 2.4, 0, 0.08);
  face_box(&p->mesh[0], -1.0, -1.0, -0.9, 0.8, 0, 0.08);
  face_box(&p->mesh[0], 0.9, -1.0, 1.0, 0.8, 0, 0.08);
  p->nmesh = 2;
  p->material[1] = "board_text";
  memcpy(p->rgba[1], C_TEXT, sizeof C_TEXT);
  board_text(&p->mesh[1], cn->name, 1.6);
}

/*---- the whole set ----*/

void ex_set_build(const track* t, const ex_set_opts* o, ex_set* S) {
  memset(S, 0, sizeof *S);
  layout L;
  layout_make(t, &L);
  grid g = {t, &L, o ? o->tol : EX_SET_TOL, o ? o->max_step : EX_SET_MAX_STEP, NULL, 0, 0, -1};
  grid_build(&g);
  emit_ground(&g, &emit_grid(&g, S)->mesh[0]);
  const track_dress* d = track_dressing(t);
  for (int i = 0; i < d->ncorner && S->npart < EX_SET_MAX_PARTS; i++) emit_board(t, &d->corner[i], S);
  S->nrow = g.n;
  for (int i = 0; i < g.n; i++) row_free(&g.r[i]);
  free(g.r);
}

void ex_set_free(ex_set* S) {
  for (int i = 0; i < S->npart; i++)
    for (int k = 0; k < S->part[i].nmesh; k++) ex_mesh_free(&S->part[i].mesh[k]);
  memset(S, 0, sizeof *S);
}

const ex_part* ex_set_part(const ex_set* S, const char* name) {
  for (int i = 0; i < S->npart; i++)
    if (!strcmp(S->part[i].name, name)) return &S->part[i];
  return NULL;
}
