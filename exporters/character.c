/* character.c — the default character's mesh and weights (see character.h). */
#include "exporters/character.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mt.h"
#include "exporters/xform.h"

static double dist(const double a[3], const double b[3]) {
  return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/* The one child of b that starts at b's tail (within 1 cm), or -1 (none, or several). */
static int chain_child(const ex_character* c, int b) {
  int found = -1;
  for (int k = b + 1; k < c->nbone; k++)
    if (c->bone[k].parent == b) {
      if (found >= 0) return -1;
      found = k;
    }
  return found >= 0 && dist(c->bone[found].head, c->bone[b].tail) < 0.01 ? found : -1;
}

/* Weights of a vertex at fraction s (0 head, 1 tail) along bone b. */
static ex_char_weights weights_along(const ex_character* c, int b, double s) {
  ex_char_weights w = {{b, -1, -1, -1}, {1, 0, 0, 0}};
  int n = 1, p = c->bone[b].parent, ch = chain_child(c, b);
  double wp = p >= 0 && s < EX_CHAR_BLEND ? 0.5 * (1 - s / EX_CHAR_BLEND) : 0;
  double wc = ch >= 0 && s > 1 - EX_CHAR_BLEND ? 0.5 * (s - (1 - EX_CHAR_BLEND)) / EX_CHAR_BLEND : 0;
  if (wp > 0) w.bone[n] = p, w.w[n++] = (float)wp;
  if (wc > 0) w.bone[n] = ch, w.w[n++] = (float)wc;
  w.w[0] = (float)(1 - wp - wc);
  return w;
}

/* Append shape sh's triangles, coloured, every vertex weighted by where it lies along bone b. */
static void add_part(const ex_character* c, int b, const ex_shape* sh, ex_mesh* m, ex_char_weights** w, int rigid) {
  int from = m->nvert;
  ex_mesh_add_shape(m, sh);
  ex_mesh_paint(m, from, c->bone[b].rgba);
  *w = mt_realloc(*w, (size_t)(m->nvert > 0 ? m->nvert : 1) * sizeof **w);
  const ex_char_bone* bn = &c->bone[b];
  double d[3] = {bn->tail[0] - bn->head[0], bn->tail[1] - bn->head[1], bn->tail[2] - bn->head[2]};
  double l2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  for (int v = from; v < m->nvert; v++) {
    double s = 0;
    for (int k = 0; k < 3; k++) s += ((double)m->pos[3 * v + k] - bn->head[k]) * d[k];
    s = l2 > 0 ? s / l2 : 0.5;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    (*w)[v] = rigid ? (ex_char_weights){{b, -1, -1, -1}, {1, 0, 0, 0}} : weights_along(c, b, s);
  }
}

void ex_character_mesh(const ex_character* c, ex_mesh* out, ex_char_weights** w) {
  memset(out, 0, sizeof *out);
  *w = NULL;
  for (int b = 0; b < c->nbone; b++) {
    const ex_char_bone* bn = &c->bone[b];
    ex_shape sh = {0};
    memcpy(sh.rgba, bn->rgba, sizeof sh.rgba);
    sh.radius = bn->radius;
    if (bn->sphere) {
      sh.type = EX_SPHERE;
      for (int k = 0; k < 3; k++) sh.a[k] = 0.5 * (bn->head[k] + bn->tail[k]);
      add_part(c, b, &sh, out, w, 1);   /* a helmet is rigid on its bone */
      continue;
    }
    sh.type = EX_CAPSULE;
    memcpy(sh.a, bn->head, sizeof sh.a);
    memcpy(sh.b, bn->tail, sizeof sh.b);
    add_part(c, b, &sh, out, w, 0);
    /* the root's children that do not start at its tail (the hips' two thighs): one capsule
     * across their heads, on the root alone */
    if (b == 0) {
      int first = -1, last = -1;
      for (int k = 1; k < c->nbone; k++)
        if (c->bone[k].parent == 0 && dist(c->bone[k].head, bn->tail) >= 0.01) {
          if (first < 0) first = k;
          last = k;
        }
      if (first >= 0 && last != first) {
        memcpy(sh.a, c->bone[first].head, sizeof sh.a);
        memcpy(sh.b, c->bone[last].head, sizeof sh.b);
        add_part(c, b, &sh, out, w, 1);
      }
    }
  }
}

void ex_character_rest_local(const ex_character* c, int b, double local[7]) {
  const ex_char_bone* bn = &c->bone[b];
  double world[7] = {bn->head[0], bn->head[1], bn->head[2], bn->q[0], bn->q[1], bn->q[2], bn->q[3]};
  double parent[7];
  if (bn->parent >= 0) {
    const ex_char_bone* p = &c->bone[bn->parent];
    double pw[7] = {p->head[0], p->head[1], p->head[2], p->q[0], p->q[1], p->q[2], p->q[3]};
    memcpy(parent, pw, sizeof parent);
  } else {
    memcpy(parent, c->base, sizeof parent);
  }
  ex_pose_local(parent, world, local);
}

const char* ex_character_check(const ex_character* c, int nbody) {
  if (c->nbone < 1 || c->nbone > EX_CHAR_MAX_BONE) return "nbone";
  if (c->first_body < 0 || c->first_body + c->nbone != nbody) return "first_body";
  for (int b = 0; b < c->nbone; b++) {
    const ex_char_bone* bn = &c->bone[b];
    if (!bn->name || !bn->name[0]) return "name";
    if (bn->parent < -1 || bn->parent >= b) return "parent";
    if (!(bn->radius > 0) || !mt_isfinite(bn->radius)) return "radius";
    for (int k = 0; k < 3; k++)
      if (!mt_isfinite(bn->head[k]) || !mt_isfinite(bn->tail[k])) return "head";
    double n = sqrt(bn->q[0] * bn->q[0] + bn->q[1] * bn->q[1] + bn->q[2] * bn->q[2] + bn->q[3] * bn->q[3]);
    if (!(fabs(n - 1) < 1e-6)) return "q";
  }
  return NULL;
}
