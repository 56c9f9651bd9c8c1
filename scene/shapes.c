/* shapes.c — tessellation of the visual shapes (see shapes.h).
 *
 * Every round shape is a surface of revolution: a profile curve (radius r, height h, and the
 * profile's outward normal) swept about an axis. One sweep routine makes spheres, capsules,
 * cylinder walls and tori (a torus is a circle profile swept about an axis outside it), so the
 * vertex layout and normals are right by construction. A profile point with r = 0 is a pole:
 * its S copies coincide and the triangles that would be degenerate there are not emitted.
 * Boxes and flat caps have their own vertices per face so their edges shade sharp. */
#include "scene/shapes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mt.h"
#include "base/vec3.h"

static void reserve(ex_mesh* m, int nv, int nt) {
  if (m->nvert + nv > m->vcap) {
    while (m->nvert + nv > m->vcap) m->vcap = m->vcap ? 2 * m->vcap : 256;
    m->pos = mt_realloc(m->pos, (size_t)m->vcap * 3 * sizeof(float));
    m->nrm = mt_realloc(m->nrm, (size_t)m->vcap * 3 * sizeof(float));
    if (m->col) m->col = mt_realloc(m->col, (size_t)m->vcap * 4 * sizeof(float));
    if (m->uv) m->uv = mt_realloc(m->uv, (size_t)m->vcap * 2 * sizeof(float));
  }
  if (m->ntri + nt > m->tcap) {
    while (m->ntri + nt > m->tcap) m->tcap = m->tcap ? 2 * m->tcap : 256;
    m->idx = mt_realloc(m->idx, (size_t)m->tcap * 3 * sizeof(unsigned));
  }
}

static int vert(ex_mesh* m, const double p[3], const double n[3]) {
  reserve(m, 1, 0);
  double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (!(len > 0)) len = 1;
  for (int c = 0; c < 3; c++) {
    m->pos[3 * m->nvert + c] = (float)p[c];
    m->nrm[3 * m->nvert + c] = (float)(n[c] / len);
  }
  if (m->uv) m->uv[2 * m->nvert] = m->uv[2 * m->nvert + 1] = 0;
  return m->nvert++;
}

int ex_mesh_vertex(ex_mesh* m, const double p[3], const double n[3], const double uv[2]) {
  if (uv && !m->uv) {   /* the first textured vertex: the ones before it get (0, 0) */
    reserve(m, 1, 0);
    m->uv = mt_alloc((size_t)m->vcap * 2 * sizeof(float));
  }
  int i = vert(m, p, n);
  if (uv) m->uv[2 * i] = (float)uv[0], m->uv[2 * i + 1] = (float)uv[1];
  return i;
}

static void tri(ex_mesh* m, int a, int b, int c) {
  reserve(m, 0, 1);
  m->idx[3 * m->ntri] = (unsigned)a, m->idx[3 * m->ntri + 1] = (unsigned)b, m->idx[3 * m->ntri + 2] = (unsigned)c;
  m->ntri++;
}

void ex_mesh_triangle(ex_mesh* m, int a, int b, int c) { tri(m, a, b, c); }

void ex_mesh_append(ex_mesh* m, const ex_mesh* src) {
  int base = m->nvert;
  for (int i = 0; i < src->nvert; i++) {
    double p[3] = {src->pos[3 * i], src->pos[3 * i + 1], src->pos[3 * i + 2]};
    double n[3] = {src->nrm[3 * i], src->nrm[3 * i + 1], src->nrm[3 * i + 2]};
    double uv[2] = {src->uv ? src->uv[2 * i] : 0, src->uv ? src->uv[2 * i + 1] : 0};
    ex_mesh_vertex(m, p, n, src->uv ? uv : NULL);
  }
  for (int t = 0; t < src->ntri; t++)
    tri(m, base + (int)src->idx[3 * t], base + (int)src->idx[3 * t + 1], base + (int)src->idx[3 * t + 2]);
}

/* Orthonormal u, v with u × v = w for a unit axis w: u is w × e, e the coordinate axis least
 * aligned with w (documented so that vertex positions are reproducible). */
static void basis(const double w[3], double u[3], double v[3]) {
  double e[3] = {0, 0, 0};
  double ax = fabs(w[0]), ay = fabs(w[1]), az = fabs(w[2]);
  e[ax <= ay && ax <= az ? 0 : ay <= az ? 1 : 2] = 1;
  cross3(w, e, u);
  double n = norm3(u);
  for (int c = 0; c < 3; c++) u[c] /= n;
  cross3(w, u, v);
}

typedef struct prof { double r, h, nr, nh; } prof;

/* Sweep profile pr[0..np-1] about axis w through c with S segments. closed: the last profile
 * point joins the first (tori). Winding makes the normals point outward: profiles run from
 * -w to +w (or, closed, counter-clockwise seen from +u × w). */
static void sweep(ex_mesh* m, const double c[3], const double w[3], const prof* pr, int np, int S, int closed) {
  double u[3], v[3];
  basis(w, u, v);
  int base = m->nvert;
  for (int i = 0; i < np; i++)
    for (int j = 0; j < S; j++) {
      double phi = 2 * MT_PI * j / S, cp = cos(phi), sp = sin(phi), p[3], n[3];
      for (int k = 0; k < 3; k++) {
        double radial = cp * u[k] + sp * v[k];
        p[k] = c[k] + pr[i].h * w[k] + pr[i].r * radial;
        n[k] = pr[i].nh * w[k] + pr[i].nr * radial;
      }
      vert(m, p, n);
    }
  int rings = closed ? np : np - 1;
  for (int i = 0; i < rings; i++) {
    int i2 = (i + 1) % np;
    for (int j = 0; j < S; j++) {
      int j2 = (j + 1) % S;
      int a = base + i * S + j, b = base + i * S + j2, cc = base + i2 * S + j2, d = base + i2 * S + j;
      if (pr[i].r > 0) tri(m, a, b, cc);    /* skip the triangle collapsed onto a pole */
      if (pr[i2].r > 0) tri(m, a, cc, d);
    }
  }
}

static void add_disc(ex_mesh* m, const double c[3], const double w[3], double r, int S, int facing) {
  double u[3], v[3], n[3];
  basis(w, u, v);
  for (int k = 0; k < 3; k++) n[k] = facing * w[k];
  int centre = vert(m, c, n), first = m->nvert;
  for (int j = 0; j < S; j++) {
    double phi = 2 * MT_PI * j / S, p[3];
    for (int k = 0; k < 3; k++) p[k] = c[k] + r * (cos(phi) * u[k] + sin(phi) * v[k]);
    vert(m, p, n);
  }
  for (int j = 0; j < S; j++) {
    int a = first + j, b = first + (j + 1) % S;
    if (facing > 0) tri(m, centre, a, b);
    else tri(m, centre, b, a);
  }
}

static void add_box(ex_mesh* m, const ex_shape* s) {
  static const int axes[3][2] = {{1, 2}, {2, 0}, {0, 1}};   /* (u, v) with u × v = the normal axis */
  for (int ax = 0; ax < 3; ax++)
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      int ua = axes[ax][0], va = axes[ax][1], first = m->nvert;
      double n[3] = {0, 0, 0};
      n[ax] = sgn;
      for (int k = 0; k < 4; k++) {
        double p[3];
        double su = (k == 1 || k == 2) ? 1 : -1, sv = (k >= 2) ? 1 : -1;
        p[ax] = s->a[ax] + sgn * 0.5 * s->b[ax];
        p[ua] = s->a[ua] + su * 0.5 * s->b[ua];
        p[va] = s->a[va] + sv * 0.5 * s->b[va];
        vert(m, p, n);
      }
      if (sgn > 0) tri(m, first, first + 1, first + 2), tri(m, first, first + 2, first + 3);
      else tri(m, first, first + 2, first + 1), tri(m, first, first + 3, first + 2);
    }
}

static void add_round(ex_mesh* m, const ex_shape* s, const ex_tess* ts) {
  double w[3], c[3], len = 0;
  if (s->type == EX_SPHERE || s->type == EX_TORUS) {
    const double z[3] = {0, 0, 1};
    const double* ax = s->type == EX_TORUS ? s->axis : z;
    double n = norm3(ax);
    for (int k = 0; k < 3; k++) w[k] = ax[k] / n, c[k] = s->a[k];
  } else {
    for (int k = 0; k < 3; k++) w[k] = s->b[k] - s->a[k];
    len = norm3(w);
    for (int k = 0; k < 3; k++) w[k] /= len, c[k] = s->a[k];
  }
  double r = s->radius;
  prof pr[2 * EX_SEG_CAP + 2 + 2 * EX_SEG_TUBE];
  int np = 0;
  if (s->type == EX_TORUS) {
    for (int i = 0; i < ts->tube; i++) {   /* tube circle, counter-clockwise in (r, h) */
      double th = 2 * MT_PI * i / ts->tube;
      pr[np++] = (prof){r + s->minor * cos(th), s->minor * sin(th), cos(th), sin(th)};
    }
    sweep(m, c, w, pr, np, ts->round, 1);
    return;
  }
  if (s->type == EX_CYLINDER) {
    pr[np++] = (prof){r, 0, 1, 0};
    pr[np++] = (prof){r, len, 1, 0};
    sweep(m, c, w, pr, np, ts->cyl, 0);
    double top[3];
    for (int k = 0; k < 3; k++) top[k] = c[k] + len * w[k];
    add_disc(m, c, w, r, ts->cyl, -1);
    add_disc(m, top, w, r, ts->cyl, 1);
    return;
  }
  /* sphere (len = 0) and capsule: lower hemisphere from the pole, upper one to the pole */
  const int rings = ts->cap;
  for (int i = 0; i <= rings; i++) {
    double th = -0.5 * MT_PI + 0.5 * MT_PI * i / rings;
    pr[np++] = (prof){i == 0 ? 0 : r * cos(th), r * sin(th), cos(th), sin(th)};
  }
  for (int i = (s->type == EX_SPHERE ? 1 : 0); i <= rings; i++) {
    double th = 0.5 * MT_PI * i / rings;
    pr[np++] = (prof){i == rings ? 0 : r * cos(th), len + r * sin(th), cos(th), sin(th)};
  }
  sweep(m, c, w, pr, np, ts->cyl, 0);
}

static int finite3(const double v[3]) { return mt_isfinite(v[0]) && mt_isfinite(v[1]) && mt_isfinite(v[2]); }

const char* ex_shape_check(const ex_shape* s) {
  if (s->type < EX_BOX || s->type > EX_TORUS) return "type";
  if (!finite3(s->a)) return "a";
  for (int c = 0; c < 4; c++)
    if (!(s->rgba[c] >= 0 && s->rgba[c] <= 1)) return "rgba";
  switch (s->type) {
    case EX_BOX:
      if (!finite3(s->b) || !(s->b[0] > 0 && s->b[1] > 0 && s->b[2] > 0)) return "b";
      return NULL;
    case EX_CYLINDER:
    case EX_CAPSULE: {
      double d[3] = {s->b[0] - s->a[0], s->b[1] - s->a[1], s->b[2] - s->a[2]};
      if (!finite3(s->b) || !(norm3(d) > 0)) return "b";
      if (!(s->radius > 0) || !mt_isfinite(s->radius)) return "radius";
      return NULL;
    }
    case EX_SPHERE:
      if (!(s->radius > 0) || !mt_isfinite(s->radius)) return "radius";
      return NULL;
    default:
      if (!finite3(s->axis) || !(norm3(s->axis) > 0)) return "axis";
      if (!(s->radius > 0) || !mt_isfinite(s->radius)) return "radius";
      if (!(s->minor > 0) || !mt_isfinite(s->minor)) return "minor";
      return NULL;
  }
}

void ex_mesh_add_shape(ex_mesh* m, const ex_shape* s) { ex_mesh_add_shape_tess(m, s, NULL); }

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

void ex_mesh_add_shape_tess(ex_mesh* m, const ex_shape* s, const ex_tess* t) {
  ex_tess ts = {EX_SEG_ROUND, EX_SEG_TUBE, EX_SEG_CYL, EX_SEG_CAP};
  if (t) {   /* within the profile buffer of add_round, and enough to stay a closed solid */
    ts.round = clampi(t->round, 3, EX_SEG_ROUND);
    ts.tube = clampi(t->tube, 3, EX_SEG_TUBE);
    ts.cyl = clampi(t->cyl, 3, EX_SEG_CYL);
    ts.cap = clampi(t->cap, 1, EX_SEG_CAP);
  }
  if (s->type == EX_BOX) add_box(m, s);
  else add_round(m, s, &ts);
}

void ex_mesh_add_trimesh(ex_mesh* m, const double* vert_in, int nv, const int* tri_in, int nt) {
  double* n = mt_alloc((size_t)nv * 3 * sizeof(double));
  for (int t = 0; t < nt; t++) {
    const double *a = vert_in + 3 * tri_in[3 * t], *b = vert_in + 3 * tri_in[3 * t + 1], *c = vert_in + 3 * tri_in[3 * t + 2];
    double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]}, f[3];
    cross3(e1, e2, f);   /* twice the area times the unit normal: area weighting for free */
    for (int k = 0; k < 3; k++)
      for (int c3 = 0; c3 < 3; c3++) n[3 * tri_in[3 * t + k] + c3] += f[c3];
  }
  int base = m->nvert;
  for (int i = 0; i < nv; i++) {
    double* ni = n + 3 * i;
    if (!(norm3(ni) > 0)) ni[2] = 1;
    vert(m, vert_in + 3 * i, ni);
  }
  for (int t = 0; t < nt; t++) tri(m, base + tri_in[3 * t], base + tri_in[3 * t + 1], base + tri_in[3 * t + 2]);
  free(n);
}

void ex_mesh_add_ribbon(ex_mesh* m, const double* pts, int npts, double width, double lift) {
  if (npts < 2) return;
  const double up[3] = {0, 0, 1};
  int base = m->nvert;
  for (int i = 0; i < npts; i++) {
    const double* p = pts + 3 * i;
    const double* a = pts + 3 * (i > 0 ? i - 1 : i);
    const double* b = pts + 3 * (i < npts - 1 ? i + 1 : i);
    double d[3] = {b[0] - a[0], b[1] - a[1], 0}, side[3];
    cross3(up, d, side);   /* to the left of the direction of travel */
    double n = norm3(side);
    if (!(n > 0)) side[0] = 0, side[1] = 1, side[2] = 0, n = 1;
    for (int s = -1; s <= 1; s += 2) {
      double q[3];
      for (int k = 0; k < 3; k++) q[k] = p[k] + s * 0.5 * width * side[k] / n + lift * up[k];
      vert(m, q, up);
    }
  }
  for (int i = 0; i + 1 < npts; i++) {
    int r0 = base + 2 * i, l0 = r0 + 1, r1 = r0 + 2, l1 = r0 + 3;
    tri(m, r0, r1, l1);
    tri(m, r0, l1, l0);
  }
}

void ex_mesh_to_yup(ex_mesh* m) {
  for (int i = 0; i < m->nvert; i++) {
    float* p = m->pos + 3 * i;
    float* n = m->nrm + 3 * i;
    float y = p[1];
    p[1] = p[2], p[2] = -y;
    y = n[1];
    n[1] = n[2], n[2] = -y;
  }
}

void ex_mesh_paint(ex_mesh* m, int from, const double rgba[4]) {
  if (!m->col) {
    m->col = mt_alloc((size_t)(m->vcap > 0 ? m->vcap : 1) * 4 * sizeof(float));
    for (int i = 0; i < 4 * from && i < 4 * m->nvert; i++) m->col[i] = 1;
  }
  for (int i = from; i < m->nvert; i++)
    for (int c = 0; c < 4; c++) m->col[4 * i + c] = (float)rgba[c];
}

void ex_mesh_free(ex_mesh* m) {
  free(m->col);
  free(m->uv);
  free(m->pos);
  free(m->nrm);
  free(m->idx);
  memset(m, 0, sizeof *m);
}
