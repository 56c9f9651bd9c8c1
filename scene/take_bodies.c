/* take_bodies.c — a take's bodies and visual shapes (see take_bodies.h). */
#include "scene/take_bodies.h"

#include <stdlib.h>
#include <string.h>

#include "sim/mt.h"

static ex_shape from_rig(const rig_shape* s, const double o[3]) {
  ex_shape x;
  memset(&x, 0, sizeof x);
  static const int map[] = {EX_BOX, EX_CYLINDER, EX_CAPSULE, EX_SPHERE, EX_TORUS};
  x.type = map[s->type];
  for (int i = 0; i < 3; i++) {
    x.a[i] = s->a[i] - o[i];
    x.b[i] = (s->type == RIG_CYLINDER || s->type == RIG_CAPSULE) ? s->b[i] - o[i] : s->b[i];
    x.axis[i] = s->axis[i];
  }
  x.radius = s->type == RIG_SPHERE || s->type == RIG_TORUS ? s->b[0] : s->radius;
  x.minor = s->type == RIG_TORUS ? s->b[1] : 0;
  memcpy(x.rgba, s->rgba, sizeof x.rgba);
  return x;
}

static ex_shape capsule(const double a[3], const double b[3], double r, double grey) {
  ex_shape x;
  memset(&x, 0, sizeof x);
  x.type = EX_CAPSULE;
  memcpy(x.a, a, sizeof x.a);
  memcpy(x.b, b, sizeof x.b);
  x.radius = r;
  x.rgba[0] = x.rgba[1] = x.rgba[2] = grey;
  x.rgba[3] = 1;
  return x;
}

void ex_take_bodies_build(const take_schema* s, const rig* rg, ex_take_bodies* out) {
  int nb = s->nbody;
  memset(out, 0, sizeof *out);
  out->nbody = nb;
  out->body = mt_alloc(sizeof(ex_body) * nb);
  out->origin = mt_alloc(sizeof(double[3]) * nb);
  ex_shape* shapes = out->shapes = mt_alloc(sizeof(ex_shape) * (nb * RIG_MAX_SHAPES + 16));
  int nsh = 0;
  const rig_linkage* lk = &rg->linkage;
  for (int i = 0; i < nb; i++) {
    ex_body* bd = &out->body[i];
    bd->name = s->body_names[i];
    bd->parent = -1;
    for (int j = 0; j < nb; j++)
      if (!strcmp(s->body_parents[i], s->body_names[j])) bd->parent = j;
    bd->shapes = shapes + nsh;
    int rb = rig_body_index(rg, s->body_names[i]);
    if (rb >= 0) {
      const rig_body* b = &rg->body[rb];
      const double* o3 = b->parent < 0 ? b->com : rg->joint[b->joint0].anchor;   /* the body frame's origin */
      memcpy(out->origin[i], o3, sizeof out->origin[i]);
      for (int k = 0; k < b->nshape; k++) shapes[nsh++] = from_rig(&b->shape[k], o3);
    } else {
      double z[3] = {0, 0, 0};
      if (!strcmp(s->body_names[i], "bell_crank")) {
        double a[3], b[3];
        for (int q = 0; q < 3; q++) {
          a[q] = lk->crank_rod[q] - lk->pivot[q];
          b[q] = lk->crank_shock[q] - lk->pivot[q];
        }
        memcpy(out->origin[i], lk->pivot, sizeof out->origin[i]);
        shapes[nsh++] = capsule(z, a, 0.012, 0.25);
        shapes[nsh++] = capsule(z, b, 0.012, 0.25);
        shapes[nsh++] = capsule(a, b, 0.012, 0.25);
      } else if (!strcmp(s->body_names[i], "pull_rod")) {
        double b[3] = {lk->rod_length, 0, 0};
        memcpy(out->origin[i], lk->arm_rod, sizeof out->origin[i]);
        shapes[nsh++] = capsule(z, b, 0.008, 0.5);
      } else if (!strcmp(s->body_names[i], "shock_body")) {
        double b[3] = {0.6 * lk->shock_length0, 0, 0};
        memcpy(out->origin[i], lk->frame_shock, sizeof out->origin[i]);
        shapes[nsh] = capsule(z, b, 0.028, 0.8);
        shapes[nsh].rgba[0] = 0.85, shapes[nsh].rgba[1] = 0.65, shapes[nsh].rgba[2] = 0.1;   /* the spring's colour */
        nsh++;
      } else if (!strcmp(s->body_names[i], "shock_rod")) {
        double b[3] = {-0.55 * lk->shock_length0, 0, 0};
        memcpy(out->origin[i], lk->crank_shock, sizeof out->origin[i]);
        shapes[nsh++] = capsule(z, b, 0.01, 0.75);
      }
    }
    bd->nshape = (int)(shapes + nsh - bd->shapes);
  }
  out->nshape = nsh;
}

void ex_take_bodies_free(ex_take_bodies* b) {
  free(b->body);
  free(b->shapes);
  free(b->origin);
  memset(b, 0, sizeof *b);
}
