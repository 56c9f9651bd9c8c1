/* tyres.c — the tyres apart from their wheels (see tyres.h). */
#include "exporters/tyres.h"

#include <string.h>

/* Remove body b's first torus from its shapes (the rest keep their order); returns a copy. */
static int take_torus(ex_dress* d, int b, ex_shape* out) {
  ex_body* body = &d->body[b];
  ex_shape* sh = (ex_shape*)body->shapes;   /* d->shapes, which d owns */
  for (int s = 0; s < body->nshape; s++)
    if (sh[s].type == EX_TORUS) {
      *out = sh[s];
      memmove(sh + s, sh + s + 1, sizeof *sh * (size_t)(body->nshape - s - 1));
      body->nshape--;
      return 1;
    }
  return 0;
}

void ex_tyres_split(ex_dress* d, const road* rd, ex_tyres* t) {
  int nt = 0, ncontact = d->nloc;
  for (int i = 0; i < ncontact && nt < 2 && d->nloc < EX_DRESS_MAX_LOC; i++) {
    const ex_locator* c = &d->loc[i];
    ex_shape tor;
    if (c->wheel < 0 || c->tyre || !take_torus(d, c->wheel, &tor)) continue;
    ex_locator* l = &d->loc[d->nloc++];
    *l = *c;
    l->name = strstr(c->name, "front") ? "front_tyre" : "rear_tyre";
    l->tyre = 1;
    l->road = rd;
    memcpy(l->wheel_centre, tor.a, sizeof tor.a);   /* the drawn torus, in the wheel's frame */
    memcpy(l->wheel_axis, tor.axis, sizeof tor.axis);
    l->r0 = tor.radius + tor.minor;
    l->crown = tor.minor;
    ex_shape* s = &t->shape[nt++];
    *s = tor;   /* in the locator's frame: centred, about local y */
    memset(s->a, 0, sizeof s->a);
    s->axis[0] = 0, s->axis[1] = 1, s->axis[2] = 0;
    l->shapes = s;
    l->nshape = 1;
  }
}
