/* dress.c — the exported machine's extra geometry, rider parts and locators (see dress.h). */
#include "exporters/dress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/xform.h"
#include "scene/rider_points.h"
#include "base/mt.h"

#define CAP_EXTRA 256

static const double SILVER[4] = {0.7, 0.7, 0.72, 1}, RED[4] = {0.75, 0.1, 0.1, 1}, SCREEN[4] = {0.08, 0.1, 0.12, 1};

typedef struct builder {
  ex_dress* d;
  int cap;
  const ex_take_bodies* tb;
  const rig* rg;
} builder;

static int find_body(const ex_take_bodies* tb, const char* name) {
  for (int i = 0; i < tb->nbody; i++)
    if (tb->body[i].name && !strcmp(tb->body[i].name, name)) return i;
  return -1;
}

static ex_shape* add(builder* b) {
  if (b->d->nshape >= b->cap) return NULL;
  ex_shape* s = &b->d->shapes[b->d->nshape++];
  memset(s, 0, sizeof *s);
  return s;
}

/* A capsule between rig-coordinate points p and q, in the frame of body `body`. */
static void capsule(builder* b, int body, const double p[3], const double q[3], double r, const double rgba[4]) {
  ex_shape* s = add(b);
  if (!s) return;
  s->type = EX_CAPSULE;
  for (int k = 0; k < 3; k++) s->a[k] = p[k] - b->tb->origin[body][k], s->b[k] = q[k] - b->tb->origin[body][k];
  s->radius = r;
  memcpy(s->rgba, rgba, sizeof s->rgba);
}

static void box(builder* b, int body, const double c[3], const double size[3], const double rgba[4]) {
  ex_shape* s = add(b);
  if (!s) return;
  s->type = EX_BOX;
  for (int k = 0; k < 3; k++) s->a[k] = c[k] - b->tb->origin[body][k], s->b[k] = size[k];
  memcpy(s->rgba, rgba, sizeof s->rgba);
}

static void unit_basis(const double w[3], double u[3], double v[3]) {
  double e[3] = {0, 0, 0};
  double ax = fabs(w[0]), ay = fabs(w[1]), az = fabs(w[2]);
  e[ax <= ay && ax <= az ? 0 : ay <= az ? 1 : 2] = 1;
  u[0] = w[1] * e[2] - w[2] * e[1], u[1] = w[2] * e[0] - w[0] * e[2], u[2] = w[0] * e[1] - w[1] * e[0];
  double n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (int k = 0; k < 3; k++) u[k] /= n;
  v[0] = w[1] * u[2] - w[2] * u[1], v[1] = w[2] * u[0] - w[0] * u[2], v[2] = w[0] * u[1] - w[1] * u[0];
}

/* Rim, hub and five spokes inside torus tyre t (shape in its body's frame). */
static void wheel(builder* b, const ex_shape* t) {
  double w[3], u[3], v[3], n = sqrt(t->axis[0] * t->axis[0] + t->axis[1] * t->axis[1] + t->axis[2] * t->axis[2]);
  for (int k = 0; k < 3; k++) w[k] = t->axis[k] / n;
  unit_basis(w, u, v);
  double rim = t->radius - 0.8 * t->minor, hub = 0.05;
  if (!(rim > 2 * hub)) return;   /* a fat or small torus: no room for spokes */
  ex_shape* s = add(b);
  if (!s) return;
  *s = *t;
  s->radius = rim, s->minor = 0.02;
  memcpy(s->rgba, SILVER, sizeof s->rgba);
  if ((s = add(b))) {
    s->type = EX_CYLINDER;
    for (int k = 0; k < 3; k++) s->a[k] = t->a[k] - 0.06 * w[k], s->b[k] = t->a[k] + 0.06 * w[k];
    s->radius = hub;
    memcpy(s->rgba, SILVER, sizeof s->rgba);
  }
  for (int j = 0; j < 5; j++) {
    double phi = 2 * MT_PI * j / 5, c = cos(phi), sn = sin(phi);
    if (!(s = add(b))) return;
    s->type = EX_CAPSULE;
    for (int k = 0; k < 3; k++) {
      double d = c * u[k] + sn * v[k];
      s->a[k] = t->a[k] + 0.8 * hub * d, s->b[k] = t->a[k] + rim * d;
    }
    s->radius = 0.014;
    memcpy(s->rgba, j == 0 ? RED : SILVER, sizeof s->rgba);
  }
}

static ex_locator* locator(builder* b, const char* name, int body, const double p[3]) {
  ex_dress* d = b->d;
  if (body < 0 || d->nloc >= EX_DRESS_MAX_LOC) return NULL;
  ex_locator* l = &d->loc[d->nloc++];
  memset(l, 0, sizeof *l);
  l->name = name, l->body = body, l->wheel = -1;
  for (int k = 0; k < 3; k++) l->local[k] = p[k] - b->tb->origin[body][k];
  l->local[3] = 1;
  return l;
}

/* A named part on body `body` drawn by the shapes added from first on. */
static void part(builder* b, const char* name, int body, int first) {
  if (body < 0 || b->d->nshape == first) return;
  ex_locator* l = locator(b, name, body, b->tb->origin[body]);
  if (!l) return;
  l->shapes = b->d->shapes + first;
  l->nshape = b->d->nshape - first;
}

static int same_colour(const double a[4], const double c[4]) { return !memcmp(a, c, 4 * sizeof(double)); }

void ex_dress_build(const ex_take_bodies* tb, const rig* rg, ex_dress* out) {
  memset(out, 0, sizeof *out);
  /* room for every shape, 7 more per torus (rim, hub, spokes), the bodywork and the rider */
  builder bb = {out, 8 * tb->nshape + CAP_EXTRA, tb, rg}, *b = &bb;
  out->shapes = mt_alloc(sizeof(ex_shape) * (size_t)bb.cap);
  out->body = mt_alloc(sizeof(ex_body) * (size_t)(tb->nbody > 0 ? tb->nbody : 1));
  int frame = find_body(tb, "frame"), pelvis = find_body(tb, "rider_pelvis"), torso = find_body(tb, "rider_torso");
  int steering = find_body(tb, "steering");
  const double* rider_rgba = pelvis >= 0 && tb->body[pelvis].nshape > 0 ? tb->body[pelvis].shapes[0].rgba : NULL;
  const ex_shape* helmet = NULL;
  const ex_shape* chest = NULL;
  sc_rider_points pts;   /* the grips, pegs and seat: one definition with the skeleton's */
  sc_rider_points_get(rg, &pts);
  const double* grip = pts.grip[0];
  int have_grip = steering >= 0 && pts.have_grip;
  int* first_of = mt_alloc(sizeof(int) * (size_t)(tb->nbody > 0 ? tb->nbody : 1));   /* shapes move while added */

  /* bodies: their shapes, less the rider's limbs and head, plus the wheels' and the bodywork */
  for (int i = 0; i < tb->nbody; i++) {
    const ex_body* src = &tb->body[i];
    int first = out->nshape;
    out->body[i] = *src;
    for (int s = 0; s < src->nshape; s++) {
      const ex_shape* sh = &src->shapes[s];
      if (i == torso && sh->type == EX_SPHERE) { helmet = sh; continue; }
      if (i == torso && sh->type == EX_CAPSULE && (!chest || sh->radius > chest->radius)) chest = sh;
      if (i == frame && rider_rgba && sh->type == EX_CAPSULE && same_colour(sh->rgba, rider_rgba)) continue;
      ex_shape* d = add(b);
      if (d) *d = *sh;
    }
    if (i == torso && chest) {   /* keep only the chest: the arms become parts */
      ex_shape keep = *chest;
      out->nshape = first;
      ex_shape* d = add(b);
      if (d) *d = keep;
    }
    for (int s = 0; s < src->nshape; s++)
      if (src->shapes[s].type == EX_TORUS) wheel(b, &src->shapes[s]);
    if (i == frame) {
      const double* red = src->nshape > 0 ? src->shapes[0].rgba : RED;
      capsule(b, i, (const double[3]){0.60, 0, 0.75}, (const double[3]){0.92, 0, 0.80}, 0.13, red);       /* tank */
      capsule(b, i, (const double[3]){1.22, 0, 0.84}, (const double[3]){1.42, 0, 0.74}, 0.13, red);       /* nose */
      box(b, i, (const double[3]){1.08, 0, 0.58}, (const double[3]){0.40, 0.36, 0.30}, red);             /* side panels */
      capsule(b, i, (const double[3]){1.24, 0, 0.98}, (const double[3]){1.12, 0, 1.04}, 0.09, SCREEN);   /* screen */
    }
    first_of[i] = first;
    out->body[i].nshape = out->nshape - first;
  }
  for (int i = 0; i < tb->nbody; i++) out->body[i].shapes = out->shapes + first_of[i];
  free(first_of);

  /* locators */
  if (steering >= 0 && rg->j_steer >= 0) {
    const rig_joint* j = &rg->joint[rg->j_steer];
    ex_locator* l = locator(b, "loc_steer_axis", steering, j->anchor);
    if (l) {   /* local z along the steering axis: the rotation taking z to it */
      const double z[3] = {0, 0, 1};
      double ax[3] = {z[1] * j->axis[2] - z[2] * j->axis[1], z[2] * j->axis[0] - z[0] * j->axis[2],
                      z[0] * j->axis[1] - z[1] * j->axis[0]};
      double sn = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]), cs = j->axis[2];
      if (sn > 1e-12) ex_qaxis(ax, atan2(sn, cs), l->local + 3);
    }
  }
  if (have_grip) {
    locator(b, "loc_grip_left", steering, pts.grip[0]);
    locator(b, "loc_grip_right", steering, pts.grip[1]);
  }
  if (frame >= 0 && pts.have_peg) {
    locator(b, "loc_footpeg_left", frame, pts.peg[0]);
    locator(b, "loc_footpeg_right", frame, pts.peg[1]);
  }
  if (frame >= 0 && pelvis >= 0 && pts.have_seat) locator(b, "loc_seat", frame, pts.seat);
  static const char* const axle[2] = {"loc_front_axle", "loc_rear_axle"};
  static const char* const patch[2] = {"loc_contact_front", "loc_contact_rear"};
  for (int w = 0; w < 2; w++) {
    const rig_wheel* rw = &rg->wheel[w];
    if (rw->body < 0 || rw->body >= rg->nbody) continue;
    int wb = find_body(tb, rg->body[rw->body].name);
    if (wb < 0 || tb->body[wb].parent < 0) continue;
    int carrier = tb->body[wb].parent;
    locator(b, axle[w], carrier, rw->centre);
    ex_locator* l = locator(b, patch[w], carrier, rw->centre);
    if (!l) continue;
    l->wheel = wb;
    for (int k = 0; k < 3; k++) l->wheel_centre[k] = rw->centre[k] - tb->origin[wb][k];
    memcpy(l->wheel_axis, rw->joint >= 0 ? rg->joint[rw->joint].axis : (const double[3]){0, 1, 0}, sizeof l->wheel_axis);
    l->r0 = rw->tyre.r0, l->crown = rw->tyre.crown;
  }

  /* the rider's parts */
  if (torso >= 0 && helmet) {
    int first = out->nshape;
    ex_shape* s = add(b);
    if (s) *s = *helmet;
    part(b, "rider_head", torso, first);
  }
  const double* suit = chest ? chest->rgba : rider_rgba;
  if (torso >= 0 && suit && have_grip && chest) {
    double top[3];
    for (int k = 0; k < 3; k++) top[k] = chest->b[k] + tb->origin[torso][k];
    for (int side = 0; side < 2; side++) {
      double sg = side ? -1 : 1;
      double sh[3] = {top[0], sg * 0.18, top[2] - 0.06}, hand[3] = {grip[0], sg * grip[1], grip[2]};
      double el[3] = {0.5 * (sh[0] + hand[0]), sg * 0.24, 0.5 * (sh[2] + hand[2]) - 0.06};
      int first = out->nshape;
      capsule(b, torso, sh, el, 0.05, suit);
      capsule(b, torso, el, hand, 0.042, suit);
      part(b, side ? "rider_arm_right" : "rider_arm_left", torso, first);
    }
  }
  if (pelvis >= 0 && rider_rgba) {
    for (int side = 0; side < 2; side++) {
      double sg = side ? -1 : 1;
      const double* o = tb->origin[pelvis];
      double hip[3] = {o[0], sg * 0.11, o[2] + 0.02}, knee[3] = {0.62, sg * 0.21, 0.62};
      const double* peg = pts.peg[side];
      int first = out->nshape;
      capsule(b, pelvis, hip, knee, 0.075, rider_rgba);
      capsule(b, pelvis, knee, peg, 0.055, rider_rgba);
      part(b, side ? "rider_leg_right" : "rider_leg_left", pelvis, first);
    }
  }
}

void ex_dress_free(ex_dress* d) {
  free(d->shapes);
  free(d->body);
  memset(d, 0, sizeof *d);
}
