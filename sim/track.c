/* track.c — segments, arc pieces, analytic queries and closure (see track.h). */
#include "sim/track.h"

#include <lapacke.h>
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/angle.h"
#include "base/luabox.h"

#define TRACK_MAX_SEGMENTS 4096
/* Bounds that keep every derived count (pieces, samples, mesh vertices) well inside an int:
 * the longest real circuits are tens of km (Isle of Man TT: 60.7 km). */
#define TRACK_MAX_SEGMENT_LENGTH 1e5   /* m */
#define TRACK_MAX_LENGTH 1e6           /* m, all segments together */
#define TRACK_MAX_PIECES 1e6           /* arc pieces (Laguna Seca needs about a thousand) */
#define PIECE_MAX_TURN (MT_PI / 2)   /* an arc piece turns at most 90°: its queries never wrap */

typedef struct seg {
  double len;
  double wl1, wr1, k1, g1, e1;      /* values at the end (as given) */
  /* derived */
  double s0, wl0, wr0, k0, g0, e0, z0;
  double de;                        /* (e1 − e0) / len: the cross slope's rate, as normal_at computes it */
  int p0, np;                       /* its arc pieces */
} seg;

typedef struct piece {
  double s0, len;                   /* station where it starts, its length */
  double x0, y0, th0, k;            /* start point and heading, curvature */
  int seg;
  /* project()'s constants, computed once in build() by the same expressions (bit-identical):
   * cos and sin of th0; for an arc its centre and the start point's angle about it */
  double c, sn, cx, cy, a0;
  double ca0, sa0;                  /* cos and sin of a0: the start point's direction from the centre */
  /* track_query's window bound: the point half-way along (every point of the piece lies within
   * half its length of it), half the length, |k| */
  double mx, my, half, ak;
} piece;

struct track {
  char name[128];
  char* source;
  int closed;
  double tess;
  double start[4];                  /* x, y, heading, z of the start */
  int nseg;
  seg* s;
  int np;
  piece* p;
  double length;
  double end[4];                    /* x, y, heading, z at the end */
  int close_len[3], close_grade;    /* closure unknowns (segment indices, −1 none) */
  track_dress dress;                /* kerbs and corner boards (the kerbs also band the verge) */
  track_surfaces surf;              /* kerb, grass and gravel beyond the edges */
};

/* Point and heading at distance u along piece q. */
static void piece_eval(const piece* q, double u, double* x, double* y, double* th) {
  double t0 = q->th0, k = q->k, a = k * u;
  if (fabs(a) < 1e-9) {
    /* straight, or so nearly so that the arc formula would cancel: series to second order */
    *x = q->x0 + u * (cos(t0) - 0.5 * a * sin(t0));
    *y = q->y0 + u * (sin(t0) + 0.5 * a * cos(t0));
  } else {
    *x = q->x0 + (sin(t0 + a) - sin(t0)) / k;
    *y = q->y0 - (cos(t0 + a) - cos(t0)) / k;
  }
  *th = t0 + a;
}

/* Lay out the pieces from the segments; fills derived fields and the end state. */
static void build(track* t) {
  double x = t->start[0], y = t->start[1], th = t->start[2], z = t->start[3], s = 0;
  int np = 0;
  for (int i = 0; i < t->nseg; i++) {
    seg* g = &t->s[i];
    const seg* pv = i ? &t->s[i - 1] : g;   /* the first starts at its own end values */
    g->wl0 = pv->wl1;
    g->wr0 = pv->wr1;
    g->k0 = pv->k1;
    g->g0 = pv->g1;
    g->e0 = pv->e1;
    g->s0 = s;
    g->z0 = z;
    g->de = (g->e1 - g->e0) / g->len;
    double dk = g->k1 - g->k0;
    int m = dk != 0 ? (int)ceil(fabs(dk) / t->tess - 1e-12) : 1;
    double kmax = fmax(fabs(g->k0), fabs(g->k1));
    int mt = (int)ceil(kmax * g->len / PIECE_MAX_TURN);
    if (mt > m) m = mt;
    if (m < 1) m = 1;
    g->np = m;
    g->p0 = np;
    np += m;
    s += g->len;
    z += g->len * 0.5 * (g->g0 + g->g1);
  }
  t->np = np;
  t->p = mt_realloc(t->p, sizeof(piece) * (np > 0 ? np : 1));
  s = 0;
  for (int i = 0; i < t->nseg; i++) {
    seg* g = &t->s[i];
    double l = g->len / g->np;
    for (int j = 0; j < g->np; j++) {
      piece* q = &t->p[g->p0 + j];
      q->s0 = g->s0 + j * l;
      q->len = l;
      q->x0 = x;
      q->y0 = y;
      q->th0 = th;
      q->k = g->k0 + (j + 0.5) / g->np * (g->k1 - g->k0);   /* midpoint: exact heading change */
      q->seg = i;
      q->c = cos(q->th0);
      q->sn = sin(q->th0);
      if (fabs(q->k) >= 1e-12) {
        q->cx = q->x0 - q->sn / q->k;
        q->cy = q->y0 + q->c / q->k;
        q->a0 = atan2(q->y0 - q->cy, q->x0 - q->cx);
        q->ca0 = cos(q->a0);
        q->sa0 = sin(q->a0);
      }
      double mth;
      piece_eval(q, 0.5 * l, &q->mx, &q->my, &mth);
      q->half = 0.5 * l;
      q->ak = fabs(q->k);
      piece_eval(q, l, &x, &y, &th);
    }
    s += g->len;
  }
  t->length = s;
  t->end[0] = x;
  t->end[1] = y;
  t->end[2] = th;
  t->end[3] = t->nseg ? t->s[t->nseg - 1].z0 + t->s[t->nseg - 1].len * 0.5 * (t->s[t->nseg - 1].g0 + t->s[t->nseg - 1].g1)
                      : 0;
}

/*---- station lookups ----*/

static double norm_s(const track* t, double s) {
  if (t->closed && t->length > 0) {
    s = fmod(s, t->length);
    if (s < 0) s += t->length;
  }
  return mt_clamp(s, 0, t->length);
}

static int seg_at(const track* t, double s) {
  int lo = 0, hi = t->nseg - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (t->s[mid].s0 <= s) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

static int piece_at(const track* t, double s, int* segi) {
  int i = seg_at(t, s);
  const seg* g = &t->s[i];
  int j = (int)floor((s - g->s0) / (g->len / g->np));
  if (j < 0) j = 0;
  if (j >= g->np) j = g->np - 1;
  if (segi) *segi = i;
  return g->p0 + j;
}

/* Profile, cross slope and widths within segment g at local distance u. */
static double seg_z(const seg* g, double u) { return g->z0 + g->g0 * u + 0.5 * (g->g1 - g->g0) * u * u / g->len; }
static double seg_lin(double a, double b, double u, double len) { return a + (b - a) * u / len; }

void track_eval(const track* t, double s, double o, double p[3], double* heading) {
  s = norm_s(t, s);
  int si;
  const piece* q = &t->p[piece_at(t, s, &si)];
  const seg* g = &t->s[si];
  double x, y, th;
  piece_eval(q, s - q->s0, &x, &y, &th);
  double u = s - g->s0;
  p[0] = x - o * sin(th);
  p[1] = y + o * cos(th);
  p[2] = seg_z(g, u) + seg_lin(g->e0, g->e1, u, g->len) * o;
  if (heading) *heading = th;
}

void track_widths(const track* t, double s, double* l, double* r) {
  s = norm_s(t, s);
  const seg* g = &t->s[seg_at(t, s)];
  double u = s - g->s0;
  *l = seg_lin(g->wl0, g->wl1, u, g->len);
  *r = seg_lin(g->wr0, g->wr1, u, g->len);
}

double track_curvature(const track* t, double s) { return t->p[piece_at(t, norm_s(t, s), NULL)].k; }

double track_grade(const track* t, double s) {
  s = norm_s(t, s);
  const seg* g = &t->s[seg_at(t, s)];
  return seg_lin(g->g0, g->g1, s - g->s0, g->len);
}

double track_superelevation(const track* t, double s) {
  s = norm_s(t, s);
  const seg* g = &t->s[seg_at(t, s)];
  return seg_lin(g->e0, g->e1, s - g->s0, g->len);
}

/* Surface normal: the cross product of the surface's tangents along s and along the offset. */
static void normal_at(const track* t, int si, const piece* q, double s, double th, double o, double n[3]) {
  const seg* g = &t->s[si];
  double u = s - g->s0;
  double grade = seg_lin(g->g0, g->g1, u, g->len), e = seg_lin(g->e0, g->e1, u, g->len);
  double de = (g->e1 - g->e0) / g->len;
  double c = cos(th), sn = sin(th), f = 1 - q->k * o;
  double ps[3] = {c * f, sn * f, grade + de * o};
  double po[3] = {-sn, c, e};
  n[0] = ps[1] * po[2] - ps[2] * po[1];
  n[1] = ps[2] * po[0] - ps[0] * po[2];
  n[2] = ps[0] * po[1] - ps[1] * po[0];
  double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int i = 0; i < 3; i++) n[i] /= l;
}

void track_normal(const track* t, double s, double o, double n[3]) {
  s = norm_s(t, s);
  int si;
  const piece* q = &t->p[piece_at(t, s, &si)];
  double x, y, th;
  piece_eval(q, s - q->s0, &x, &y, &th);
  normal_at(t, si, q, s, th, o, n);
}

/* Project (x, y) on piece q: distance along it (may fall outside [0, len]) and signed offset. */
static void project(const piece* q, double x, double y, double* u, double* o) {
  double k = q->k, c = q->c, s = q->sn;
  if (fabs(k) < 1e-12) {
    double dx = x - q->x0, dy = y - q->y0;
    *u = dx * c + dy * s;
    *o = -dx * s + dy * c;
    return;
  }
  double cx = q->cx, cy = q->cy;   /* centre of the arc (left for k > 0) */
  double rx = x - cx, ry = y - cy, rp = sqrt(rx * rx + ry * ry);   /* not hypot: 2.6x its time, and track
                                                                       coordinates are far from overflow */
  /* the point's angle about the centre from the start point's, in (−π, π]: within a quarter
   * turn of it (a piece is a short arc: every point the window projects, nearly) the atan of
   * the ratio of its sine and cosine, which costs half an atan2; else as atan2's difference */
  double dot = q->ca0 * rx + q->sa0 * ry, crs = q->ca0 * ry - q->sa0 * rx;
  *u = (dot > 0 ? atan(crs / dot) : mt_wrap_angle_hi(atan2(ry, rx) - q->a0)) / k;
  *o = 1 / k - (k > 0 ? rp : -rp);
}

/* Whether piece q lies too far from (x, y) to matter in a window where a distance B (a distance
 * already found, plus a margin) is known: a sufficient condition for d > B, d the distance
 * project() leads to (below). Straight: d is the Euclidean distance E to the piece, and
 * E >= D - half, D the distance to the piece's middle point. Arc of radius r: with rp the point's
 * distance from the centre and δ the angle by which it lies beyond the piece's ends (0 within
 * them), d² = (rp − r)² + r²δ² while E² = (rp − r)² + 2 r rp (1 − cos δ) <= (rp − r)² + r rp δ²
 * (δ here the smaller angle to the span); so d >= E when rp <= r and d >= E sqrt(r / rp) else,
 * and rp <= r + D. Hence d >= (D − half) / sqrt(1 + D |k|), and as sqrt(1 + x) <= 1 + x/2, d > B
 * whenever D (1 − B |k| / 2) > half + B with 1 − B |k| / 2 > 0: compared squared, no square root
 * and no division (issue 18). */
static inline int beyond(const piece* q, double x, double y, double B, double hB) {
  /* hB = 0.5 * B, which the caller keeps while B does not change: 0.5 * B * ak is (0.5·B)·ak */
  double dx = x - q->mx, dy = y - q->my, f = 1 - hB * q->ak, r = q->half + B;
  return f > 0 && (dx * dx + dy * dy) * (f * f) > r * r;
}

/* The half widths at station s = q->s0 + bu (bu in [0, len]) of piece q's answer, as
 * track_widths(t, s) has them: from q's own segment when s lies before the next segment's start
 * and before the track's end (there norm_s leaves s as it is, s >= q->s0 >= the segment's start,
 * and seg_at finds q's segment); else through track_widths. Returns 1 when from q's segment,
 * whose values the answer's own widths then equal bit for bit. */
static int widths_on(const track* t, const piece* q, double s, double* wl, double* wr) {
  int si = q->seg;
  if (s < t->length && (si + 1 == t->nseg || s < t->s[si + 1].s0)) {
    const seg* g = &t->s[si];
    double u = s - g->s0;
    *wl = seg_lin(g->wl0, g->wl1, u, g->len);
    *wr = seg_lin(g->wr0, g->wr1, u, g->len);
    return 1;
  }
  track_widths(t, s, wl, wr);
  return 0;
}

int track_widths_on(const track* t, int piece, double s, double* left, double* right) {
  if (piece < 0 || piece >= t->np) {
    track_widths(t, s, left, right);
    return 0;
  }
  return widths_on(t, &t->p[piece], s, left, right);
}

int track_npieces(const track* t) { return t->np; }

void track_piece_span(const track* t, int piece, double* s0, double* len) {
  *s0 = t->p[piece].s0;
  *len = t->p[piece].len;
}

/* normal_at for the answer at u = s − the segment's start, with the cross slope e there already
 * computed (the answer's height needs it too) and the segment's constant de: the same arithmetic.
 * On a straight piece (k = 0) the heading th0 + 0·u is th0 itself (compared bit for bit: −0 + 0
 * is +0), whose cos and sin build() computed. */
static void normal_answer(const seg* g, const piece* q, double u, double th, double o, double e, double n[3]) {
  double grade = seg_lin(g->g0, g->g1, u, g->len);
  double c, sn;
  if (q->k == 0 && !memcmp(&th, &q->th0, sizeof th)) {
    c = q->c;
    sn = q->sn;
  } else {
    c = cos(th);
    sn = sin(th);
  }
  double f = 1 - q->k * o;
  double ps[3] = {c * f, sn * f, grade + g->de * o};
  double po[3] = {-sn, c, e};
  n[0] = ps[1] * po[2] - ps[2] * po[1];
  n[1] = ps[2] * po[0] - ps[0] * po[2];
  n[2] = ps[0] * po[1] - ps[1] * po[0];
  double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int i = 0; i < 3; i++) n[i] /= l;
}

static void classify(const track* t, road_point* out, double bo, double wl, double wr);

int track_query(const track* t, double x, double y, int hint, road_point* out) {
  return track_query_window(t, x, y, hint, 1, out);
}

int track_query_window(const track* t, double x, double y, int hint, int fast, road_point* out) {
  int best = -1;
  double bu = 0, bo = INFINITY, bd = INFINITY, bdu = 0;
  int lo = 0, hi = t->np - 1, local = 0;
  if (hint >= 0 && hint < t->np) {
    /* near the hinted arc piece first: the machine moves a fraction of a piece per step, and on
     * tracks that cross themselves (a figure of eight) this keeps it on its own branch */
    lo = hint - 3;
    hi = hint + 3;
    if (t->closed && fast && t->np >= 7) {
      /* the same indices as below without the two integer divisions (issue 18): with np >= 4,
       * hint − 3 lies in [−3, np − 4], which % np leaves as it is, and hint + 3 in [3, np + 2] */
      if (lo < 0) lo += t->np;
      if (hi >= t->np) hi -= t->np;
    } else if (t->closed) {
      lo %= t->np;   /* (hint − 3 + np) % np was −1 for np = 2, hint 0: piece −1 was read */
      if (lo < 0) lo += t->np;
      hi = hi % t->np;
    } else {
      lo = lo < 0 ? 0 : lo;
      hi = hi >= t->np ? t->np - 1 : hi;
    }
    local = 1;
  }
  /* The window's answer is its first piece (in window order) of least d. The hinted piece is in
   * the window (with 7 pieces or more on a closed track) and is projected first: a piece that
   * lies beyond a d already found in the window (plus a margin far above rounding) cannot be that
   * answer, nor tie with it, and is not projected. Same answer, bit for bit. */
  int prune = fast && local && (!t->closed || t->np >= 7);
  double hu = 0, ho = 0, bound = INFINITY;
  if (prune) {
    project(&t->p[hint], x, y, &hu, &ho);
    const piece* q = &t->p[hint];
    double du = hu < 0 ? -hu : hu > q->len ? hu - q->len : 0;
    bound = du > 1e-9 ? sqrt(du * du + ho * ho) : fabs(ho);
  }
  int wbest = -1;   /* the piece whose widths (wl, wr) widths_on found on its own segment */
  double wl = 0, wr = 0;
  for (int pass = 0; pass < 2 && best < 0; pass++) {
    int n = local && pass == 0 ? (hi >= lo ? hi - lo + 1 : t->np - lo + hi + 1) : t->np;
    int start = local && pass == 0 ? lo : 0;
    /* The whole track's pass is pruned too (fast): the bound is a distance already found (the
     * window's, or the pass's own so far), so a piece beyond it is not the least d nor ties with
     * it. Without this a machine more than its road's width + 20 m off the road (a ridden take
     * gone into the run-off) projected every piece at every query: 12x the verify's time. */
    int pr = fast && (pass == 1 || prune);
    if (pr) {
      /* pruned (branch loopC: a loop of its own, where the unpruned one below asked pr at every
       * piece, and B = bound + 1e-6 and 0.5·B are kept until bound changes, where beyond()
       * computed them at every piece: the same values, the same pieces skipped and projected in
       * the same order) */
      double B = bound + 1e-6, hB = 0.5 * B;
      for (int k = 0, i = start; k < n; k++, i = i + 1 < t->np ? i + 1 : 0) {
        const piece* q = &t->p[i];
        double u, o;
        if (prune && i == hint) {   /* projected above */
          u = hu;
          o = ho;
        } else {
          if (beyond(q, x, y, B, hB)) continue;
          project(q, x, y, &u, &o);
        }
        double du = u < 0 ? -u : u > q->len ? u - q->len : 0;
        double d = du > 1e-9 ? sqrt(du * du + o * o) : fabs(o);
        if (d < bound) {
          bound = d;
          B = bound + 1e-6;
          hB = 0.5 * B;
        }
        if (d < bd) {
          bd = d;
          best = i;
          bu = mt_clamp(u, 0, q->len);
          bo = o;
          bdu = du;
        }
      }
    } else {
      for (int k = 0, i = start; k < n; k++, i = i + 1 < t->np ? i + 1 : 0) {   /* i = (start + k) mod np */
        const piece* q = &t->p[i];
        double u, o;
        project(q, x, y, &u, &o);
        double du = u < 0 ? -u : u > q->len ? u - q->len : 0;
        double d = du > 1e-9 ? sqrt(du * du + o * o) : fabs(o);   /* distance to the piece's centre-line span */
        if (d < bd) {
          bd = d;
          best = i;
          bu = mt_clamp(u, 0, q->len);
          bo = o;
          bdu = du;
        }
      }
    }
    if (local && pass == 0) {
      if (best >= 0) {
        double wide;
        if (fast) {
          wbest = widths_on(t, &t->p[best], t->p[best].s0 + bu, &wl, &wr) ? best : -1;
          wide = wl > wr ? wl : wr;   /* widths are finite: fmax's NaN rule never applies */
        } else {
          track_widths(t, t->p[best].s0 + bu, &wl, &wr);
          wide = fmax(wl, wr);
        }
        /* far from the hinted stretch, or only near the end of it: search it all */
        if (bd > wide + 20 || bdu > 1e-9) {
          best = wbest = -1;
          bd = INFINITY;
        }
      }
    }
    local = 0;
  }
  if (best < 0) return -1;
  const piece* q = &t->p[best];
  int si = q->seg;
  const seg* g = &t->s[si];
  double s = q->s0 + bu, th = q->th0 + q->k * bu;   /* the heading there, as piece_eval has it */
  double u = s - g->s0;
  out->s = s;
  out->offset = bo;
  out->segment = si;
  out->hint = best;
  if (wbest != best) {
    wl = seg_lin(g->wl0, g->wl1, u, g->len);
    wr = seg_lin(g->wr0, g->wr1, u, g->len);
  }
  out->on_road = bo <= wl && bo >= -wr && bd - fabs(bo) < 1e-6;
  classify(t, out, bo, wl, wr);
  double e = seg_lin(g->e0, g->e1, u, g->len);
  out->z = seg_z(g, u) + e * bo;
  if (fast) normal_answer(g, q, u, th, bo, e, out->n);
  else normal_at(t, si, q, s, th, bo, out->n);
  return 0;
}

/* What lies under an answer: tarmac on the road; else, by the distance past the edge, the kerb
 * band (where the dressing lists a kerb on that side at this station), the grass band, then
 * gravel (track_surface.h). Past the end of an open road (on_road = 0 though within the
 * widths' offsets) the ground is gravel. */
static void classify(const track* t, road_point* out, double bo, double wl, double wr) {
  out->surface = SURF_TARMAC;
  out->grip = 1;
  out->rolling = -1;
  if (out->on_road) return;
  int side = bo > 0 ? TRACK_SIDE_LEFT : TRACK_SIDE_RIGHT, k = SURF_GRAVEL;
  double past = bo > wl ? bo - wl : bo < -wr ? -wr - bo : -1;
  if (past >= 0) {
    double kw = 0;
    for (int i = 0; i < t->dress.nkerb && kw == 0; i++) {
      const track_kerb* kb = &t->dress.kerb[i];
      if (kb->side == side && out->s >= kb->from && out->s <= kb->to) kw = t->surf.s[SURF_KERB].width;
    }
    k = past < kw ? SURF_KERB : past < kw + t->surf.s[SURF_GRASS].width ? SURF_GRASS : SURF_GRAVEL;
  }
  out->surface = k;
  out->grip = t->surf.s[k].grip;
  out->rolling = t->surf.s[k].rolling;
}

static int road_query(const void* self, double x, double y, int hint, road_point* out) {
  return track_query(self, x, y, hint, out);
}

road track_road(const track* t) {
  road r = {t, road_query};
  return r;
}

/*---- accessors ----*/
const char* track_name(const track* t) { return t->name; }
const char* track_source(const track* t) { return t->source; }
double track_length(const track* t) { return t->length; }
int track_closed(const track* t) { return t->closed; }
int track_nsegments(const track* t) { return t->nseg; }
double track_segment_start(const track* t, int i) { return t->s[i].s0; }
const track_dress* track_dressing(const track* t) { return &t->dress; }
const track_surfaces* track_surfaces_of(const track* t) { return &t->surf; }

void track_closure(const track* t, double* gap, double* herr, double* dz) {
  *gap = hypot(t->end[0] - t->start[0], t->end[1] - t->start[1]);
  *herr = mt_wrap_angle_hi(t->end[2] - t->start[2]);
  *dz = t->end[3] - t->start[3];
}

void track_resolve(const char* name, char* out, size_t n) {
  if (strchr(name, '/') || (strlen(name) > 4 && strcmp(name + strlen(name) - 4, ".lua") == 0)) {
    snprintf(out, n, "%s", name);
    return;
  }
  snprintf(out, n, "%s/sim/tracks/%s.lua", luabox_project_root(), name);
}

void track_free(track* t) {
  if (!t) return;
  free(t->source);
  free(t->s);
  free(t->p);
  track_dress_free(&t->dress);
  free(t);
}

/*---- closure: solve chosen lengths (and a grade) so the end meets the start ----*/

static void closure_residual(track* t, const double* u, double r[4]) {
  for (int k = 0; k < 3; k++) t->s[t->close_len[k]].len = u[k];
  int ng = t->close_grade >= 0;
  if (ng) t->s[t->close_grade].g1 = u[3];
  build(t);
  double turn = t->end[2] - t->start[2];
  double target = 2 * MT_PI * round(turn / (2 * MT_PI));
  r[0] = t->end[0] - t->start[0];
  r[1] = t->end[1] - t->start[1];
  r[2] = (turn - target) * 100;   /* radians weighed like 100 m */
  r[3] = ng ? t->end[3] - t->start[3] : 0;
}

static int solve_closure(track* t, const lb_scope* sc, mt_err* e) {
  int n = t->close_grade >= 0 ? 4 : 3;
  double u[4] = {t->s[t->close_len[0]].len, t->s[t->close_len[1]].len, t->s[t->close_len[2]].len,
                 t->close_grade >= 0 ? t->s[t->close_grade].g1 : 0};
  double r[4], J[16];
  for (int it = 0; it < 50; it++) {
    closure_residual(t, u, r);
    double res = fabs(r[0]) + fabs(r[1]) + fabs(r[2]) + fabs(r[3]);
    if (res < 1e-10) return MT_OK;
    for (int j = 0; j < n; j++) {
      double h = j < 3 ? 1e-6 : 1e-8, save = u[j], r2[4];
      u[j] = save + h;
      closure_residual(t, u, r2);
      u[j] = save;
      for (int i = 0; i < n; i++) J[i * n + j] = (r2[i] - r[i]) / h;
    }
    double b[4] = {-r[0], -r[1], -r[2], -r[3]};
    lapack_int piv[4];
    if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, n, 1, J, n, piv, b, 1) != 0)
      return lb_fail(sc, "close", 0, e, "cannot close the track with the chosen segments (singular)");
    for (int j = 0; j < n; j++) u[j] += b[j];
    for (int k = 0; k < 3; k++) {
      if (!(u[k] > 0)) return lb_fail(sc, "close", 0, e, "closing would make segment %d's length %g <= 0", t->close_len[k] + 1, u[k]);
      if (!(u[k] <= TRACK_MAX_SEGMENT_LENGTH))
        return lb_fail(sc, "close", 0, e, "closing would make segment %d's length %g > %g m", t->close_len[k] + 1, u[k],
                       TRACK_MAX_SEGMENT_LENGTH);
    }
  }
  closure_residual(t, u, r);
  if (fabs(r[0]) + fabs(r[1]) + fabs(r[2]) + fabs(r[3]) > 1e-6)
    return lb_fail(sc, "close", 0, e, "closure did not converge (residual %.3g)", fabs(r[0]) + fabs(r[1]) + fabs(r[2]));
  return MT_OK;
}

/*---- loading ----*/

static const char* const FIELDS[6] = {"length", "left_half_width", "right_half_width", "curvature", "slope", "superelevation"};

/* A segment gives its six fields by name or in order ({length, left, right, curvature, slope,
 * superelevation}): any other key, a name it does not know or a seventh element, is refused. */
static int segment_keys(lua_State* L, const lb_scope* ss, mt_err* e) {
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    int ok = 0;
    char key[64] = "?";
    if (lua_type(L, -2) == LUA_TSTRING) {
      snprintf(key, sizeof key, "%s", lua_tostring(L, -2));
      for (int k = 0; k < 6 && !ok; k++) ok = strcmp(key, FIELDS[k]) == 0;
    } else if (lua_type(L, -2) == LUA_TNUMBER) {
      double i = lua_tonumber(L, -2);
      ok = i >= 1 && i <= 6 && i == floor(i);
      snprintf(key, sizeof key, "%g", i);
    }
    if (!ok) {
      lua_pop(L, 2);
      return lb_fail(ss, key, 0, e, "unknown field (a segment has length, left_half_width, right_half_width, curvature, "
                                    "slope and superelevation, by name or in that order)");
    }
    lua_pop(L, 1);
  }
  return MT_OK;
}

static track* load(const char* path, char* text, mt_err* e) {
  lua_State* L = luabox_new(NULL);
  track* t = mt_alloc(sizeof *t);
  char* src = text;
  if (text) {
    if (luabox_run(L, text, strlen(text), path, 1, e)) goto fail;
  } else if (luabox_run_file(L, path, 1, &src, e)) {
    goto fail;
  }
  t->source = src;
  src = NULL;
  lb_scope top = {.file = path, .src = t->source};
  if (!lua_istable(L, -1)) {
    mt_fail(e, MT_EINPUT, "%s: a track file must return a table", path);
    goto fail;
  }
  /* a misspelt optional field must not pass silently (a `clsoed = true` made an open track) */
  static const char* const known_top[] = {"name", "closed", "tessellation", "start", "segments", "close", "kerbs", "corners",
                                          "surfaces", NULL};
  if (lb_check_keys(L, -1, &top, known_top, e)) goto fail;
  const char* name;
  if (lb_str(L, -1, &top, "name", 1, NULL, &name, e)) goto fail;
  snprintf(t->name, sizeof t->name, "%s", name);
  if (lb_bool(L, -1, &top, "closed", 0, 0, &t->closed, e) || lb_num(L, -1, &top, "tessellation", 0, 0, 0.001, &t->tess, e))
    goto fail;
  if (!(t->tess > 0)) {
    lb_fail(&top, "tessellation", 0, e, "must be > 0 (the curvature step per arc, 1/m), got %g", t->tess);
    goto fail;
  }
  int pushed;
  if (lb_table(L, -1, &top, "start", 0, 0, &pushed, e)) goto fail;
  if (pushed) {
    lb_scope ss = lb_enter(&top, "start", 0, "start");
    static const char* const known_start[] = {"x", "y", "heading", "z", NULL};
    int rc = lb_check_keys(L, -1, &ss, known_start, e) || lb_num(L, -1, &ss, "x", 0, 0, 0, &t->start[0], e) || lb_num(L, -1, &ss, "y", 0, 0, 0, &t->start[1], e) ||
             lb_num(L, -1, &ss, "heading", 0, 0, 0, &t->start[2], e) || lb_num(L, -1, &ss, "z", 0, 0, 0, &t->start[3], e);
    lua_pop(L, 1);
    if (rc) goto fail;
  }
  if (lb_table(L, -1, &top, "segments", 0, 1, &pushed, e)) goto fail;
  int n = (int)luaL_len(L, -1);
  lb_scope sl = lb_enter(&top, "segments", 0, NULL);
  if (n < 1 || n > TRACK_MAX_SEGMENTS) {
    lb_fail(&top, "segments", 0, e, "needs 1 to %d segments, got %d", TRACK_MAX_SEGMENTS, n);
    goto fail;
  }
  t->nseg = n;
  t->s = mt_alloc(sizeof(seg) * n);
  double total_len = 0, total_pieces = 0;
  for (int i = 0; i < n; i++) {
    static char lab[32];
    snprintf(lab, sizeof lab, "segment %d", i + 1);
    int p2;
    if (lb_table(L, -1, &sl, NULL, i + 1, 1, &p2, e)) goto fail;
    lb_scope ss = lb_enter(&sl, NULL, i + 1, lab);
    double v[6];
    int rc = segment_keys(L, &ss, e);
    for (int k = 0; k < 6 && !rc; k++) rc = lb_num(L, -1, &ss, FIELDS[k], k + 1, 1, 0, &v[k], e);
    if (!rc && !(v[0] > 0)) rc = lb_fail(&ss, "length", 1, e, "must be > 0, got %g", v[0]);
    if (!rc && !(v[0] <= TRACK_MAX_SEGMENT_LENGTH))
      rc = lb_fail(&ss, "length", 1, e, "must be at most %g m, got %g", TRACK_MAX_SEGMENT_LENGTH, v[0]);
    if (!rc && !(total_len + v[0] <= TRACK_MAX_LENGTH))
      rc = lb_fail(&ss, "length", 1, e, "makes the track longer than %g km", TRACK_MAX_LENGTH / 1000);
    if (!rc) total_len += v[0];
    if (!rc) {   /* the arc pieces build() will make, counted in double before any int holds them */
      double k0 = i ? t->s[i - 1].k1 : v[3];
      double m = fmax(fabs(v[3] - k0) / t->tess, fmax(fabs(k0), fabs(v[3])) * v[0] / PIECE_MAX_TURN);
      total_pieces += fmax(ceil(m), 1);
      if (!(total_pieces <= TRACK_MAX_PIECES))
        rc = lb_fail(&ss, "curvature", 4, e, "the track needs more than %g arc pieces (is tessellation too small?)",
                     TRACK_MAX_PIECES);
    }
    if (!rc && !(v[1] > 0)) rc = lb_fail(&ss, "left_half_width", 2, e, "must be > 0, got %g", v[1]);
    if (!rc && !(v[2] > 0)) rc = lb_fail(&ss, "right_half_width", 3, e, "must be > 0, got %g", v[2]);
    if (!rc && !(fabs(v[3]) <= 1)) rc = lb_fail(&ss, "curvature", 4, e, "must be within [-1, 1] 1/m (radius >= 1 m), got %g", v[3]);
    if (!rc && !(fabs(v[4]) < 1)) rc = lb_fail(&ss, "slope", 5, e, "must be within (-1, 1), got %g", v[4]);
    if (!rc && !(fabs(v[5]) < 1)) rc = lb_fail(&ss, "superelevation", 6, e, "must be within (-1, 1), got %g", v[5]);
    lua_pop(L, 1);
    if (rc) goto fail;
    seg* g = &t->s[i];
    g->len = v[0];
    g->wl1 = v[1];
    g->wr1 = v[2];
    g->k1 = v[3];
    g->g1 = v[4];
    g->e1 = v[5];
  }
  lua_pop(L, 1);
  /* optional closure */
  t->close_grade = -1;
  if (lb_table(L, -1, &top, "close", 0, 0, &pushed, e)) goto fail;
  if (pushed) {
    lb_scope cs = lb_enter(&top, "close", 0, "close");
    static const char* const known_close[] = {"lengths", "grade", NULL};
    int p2 = 0, rc = lb_check_keys(L, -1, &cs, known_close, e) || lb_table(L, -1, &cs, "lengths", 0, 1, &p2, e);
    if (!rc) {
      if (luaL_len(L, -1) != 3) rc = lb_fail(&cs, "lengths", 0, e, "needs 3 segment numbers");
      for (int k = 0; k < 3 && !rc; k++) {
        double d;
        rc = lb_num(L, -1, &cs, NULL, k + 1, 1, 0, &d, e);
        if (!rc && !(d >= 1 && d <= n && d == floor(d))) rc = lb_fail(&cs, "lengths", 0, e, "segment %g does not exist", d);
        t->close_len[k] = (int)d - 1;
      }
      lua_pop(L, 1);
    }
    double gsel = 0;
    if (!rc) rc = lb_num(L, -1, &cs, "grade", 0, 0, 0, &gsel, e);
    if (!rc && gsel != 0) {
      if (!(gsel >= 1 && gsel <= n && gsel == floor(gsel))) rc = lb_fail(&cs, "grade", 0, e, "segment %g does not exist", gsel);
      t->close_grade = (int)gsel - 1;
    }
    if (!rc && !t->closed) rc = lb_fail(&cs, NULL, 0, e, "only a closed track can be closed");
    build(t);
    if (!rc) rc = solve_closure(t, &cs, e);
    lua_pop(L, 1);
    if (rc) goto fail;
  }
  build(t);
  /* the dressing's stations are checked against the built (closed) track's length */
  if (track_dress_load(L, &top, t->length, &t->dress, e) || track_surfaces_load(L, &top, &t->surf, e)) goto fail;
  luabox_close(L);
  return t;
fail:
  free(src);
  luabox_close(L);
  track_free(t);
  return NULL;
}

track* track_load(const char* path, mt_err* e) { return load(path, NULL, e); }
track* track_load_text(const char* name, const char* text, mt_err* e) { return load(name, mt_strdup(text), e); }
