/* linkage.c — the linkage parts' bars (see linkage.h). */
#include "scene/linkage.h"

#include <string.h>

#include "sim/vehicle.h"

/* Radii and colours: the exporter's (so exported files keep their meshes); the renderer's views
 * and the mode video used to draw thicker, darker bars of their own. */
#define CRANK_R 0.012
#define ROD_R 0.008
#define SHOCK_R 0.028
#define SHOCK_ROD_R 0.01
static const double CRANK_RGBA[4] = {0.25, 0.25, 0.25, 1}, ROD_RGBA[4] = {0.5, 0.5, 0.5, 1},
                    SPRING_RGBA[4] = {0.85, 0.65, 0.1, 1}, SHOCK_ROD_RGBA[4] = {0.75, 0.75, 0.75, 1};

int sc_link_part(const char* body_name) {
  for (int k = 0; k < VEH_NLINK; k++)
    if (!strcmp(body_name, veh_link_names[k])) return k;
  return -1;
}

static sc_bar bar(const double a[3], const double b[3], double r, const double rgba[4]) {
  sc_bar x;
  memcpy(x.a, a, sizeof x.a);
  memcpy(x.b, b, sizeof x.b);
  x.radius = r;
  memcpy(x.rgba, rgba, sizeof x.rgba);
  return x;
}

int sc_link_bars(const rig_linkage* lk, int part, sc_bar out[SC_LINK_MAX_BARS], double origin[3]) {
  static const double z[3] = {0, 0, 0};
  switch (part) {
  case VEH_LINK_CRANK: {   /* a triangle: pivot, pull-rod eye, shock eye */
    double a[3], c[3];
    for (int q = 0; q < 3; q++) a[q] = lk->crank_rod[q] - lk->pivot[q], c[q] = lk->crank_shock[q] - lk->pivot[q];
    memcpy(origin, lk->pivot, sizeof(double) * 3);
    out[0] = bar(z, a, CRANK_R, CRANK_RGBA);
    out[1] = bar(z, c, CRANK_R, CRANK_RGBA);
    out[2] = bar(a, c, CRANK_R, CRANK_RGBA);
    return 3;
  }
  case VEH_LINK_ROD: {
    double c[3] = {lk->rod_length, 0, 0};
    memcpy(origin, lk->arm_rod, sizeof(double) * 3);
    out[0] = bar(z, c, ROD_R, ROD_RGBA);
    return 1;
  }
  case VEH_LINK_SHOCK_BODY: {   /* the spring and body: 0.6 of the eye-to-eye length from the frame */
    double c[3] = {0.6 * lk->shock_length0, 0, 0};
    memcpy(origin, lk->frame_shock, sizeof(double) * 3);
    out[0] = bar(z, c, SHOCK_R, SPRING_RGBA);
    return 1;
  }
  case VEH_LINK_SHOCK_ROD: {    /* 0.55 of it from the crank end */
    double c[3] = {-0.55 * lk->shock_length0, 0, 0};
    memcpy(origin, lk->crank_shock, sizeof(double) * 3);
    out[0] = bar(z, c, SHOCK_ROD_R, SHOCK_ROD_RGBA);
    return 1;
  }
  }
  return 0;
}

ex_shape sc_bar_ex(const sc_bar* b) {
  ex_shape x;
  memset(&x, 0, sizeof x);
  x.type = EX_CAPSULE;
  memcpy(x.a, b->a, sizeof x.a);
  memcpy(x.b, b->b, sizeof x.b);
  x.radius = b->radius;
  memcpy(x.rgba, b->rgba, sizeof x.rgba);
  return x;
}

rig_shape sc_bar_rig(const sc_bar* b) {
  rig_shape x;
  memset(&x, 0, sizeof x);
  x.type = RIG_CAPSULE;
  memcpy(x.a, b->a, sizeof x.a);
  memcpy(x.b, b->b, sizeof x.b);
  x.radius = b->radius;
  memcpy(x.rgba, b->rgba, sizeof x.rgba);
  return x;
}
