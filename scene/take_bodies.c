/* take_bodies.c — a take's bodies and visual shapes (see take_bodies.h). */
#include "scene/take_bodies.h"

#include <stdlib.h>
#include <string.h>

#include "scene/linkage.h"
#include "base/mt.h"

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

void ex_take_body_origin(const rig* rg, const char* name, double origin[3]) {
  int rb = rig_body_index(rg, name), part = sc_link_part(name);
  memset(origin, 0, sizeof(double) * 3);
  if (rb >= 0) {
    const rig_body* b = &rg->body[rb];
    memcpy(origin, b->parent < 0 ? b->com : rg->joint[b->joint0].anchor, sizeof(double) * 3);
  } else if (part >= 0) {
    sc_bar bar[SC_LINK_MAX_BARS];
    sc_link_bars(&rg->linkage, part, bar, origin);
  }
}

void ex_take_bodies_build(const take_schema* s, const rig* rg, ex_take_bodies* out) {
  int nb = s->nbody;
  memset(out, 0, sizeof *out);
  out->nbody = nb;
  out->body = mt_alloc(sizeof(ex_body) * nb);
  out->origin = mt_alloc(sizeof(double[3]) * nb);
  ex_shape* shapes = out->shapes = mt_alloc(sizeof(ex_shape) * (nb * RIG_MAX_SHAPES + 16));
  int nsh = 0;
  for (int i = 0; i < nb; i++) {
    ex_body* bd = &out->body[i];
    bd->name = s->body_names[i];
    bd->parent = -1;
    for (int j = 0; j < nb; j++)
      if (!strcmp(s->body_parents[i], s->body_names[j])) bd->parent = j;
    bd->shapes = shapes + nsh;
    int rb = rig_body_index(rg, s->body_names[i]), part = sc_link_part(s->body_names[i]);
    ex_take_body_origin(rg, s->body_names[i], out->origin[i]);
    if (rb >= 0) {
      const rig_body* b = &rg->body[rb];
      for (int k = 0; k < b->nshape; k++) shapes[nsh++] = from_rig(&b->shape[k], out->origin[i]);
    } else if (part >= 0) {   /* a linkage part: its bars (scene/linkage.h) */
      sc_bar bar[SC_LINK_MAX_BARS];
      int n = sc_link_bars(&rg->linkage, part, bar, out->origin[i]);
      for (int k = 0; k < n; k++) shapes[nsh++] = sc_bar_ex(&bar[k]);
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
