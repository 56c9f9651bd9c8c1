/* callouts.c — callouts pinned to the machine (see callouts.h). */
#include "render/callouts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/draw.h"
#include "render/gauge_log.h"
#include "render/views.h"
#include "scene/rider_points.h"
#include "scene/take_bodies.h"

int co_project(const co_proj* pr, const double p[3], double px[2]) {
  switch (pr->kind) {
    case CO_ORTHO: rd_project(&pr->ortho, p, &px[0], &px[1]); return 1;
    case CO_PLAN: px[0] = pr->plan.ox + pr->plan.s * p[0], px[1] = pr->plan.oy - pr->plan.s * p[1]; return 1;
    default:
      if (!chase_project(&pr->persp, pr->w, pr->h, p, px)) return 0;
      px[0] += pr->x, px[1] += pr->y;
      return 1;
  }
}

static int body_index(const rs_take* k, const char* name) {
  for (int b = 0; b < k->nb; b++)
    if (k->body[b].name && !strcmp(k->body[b].name, name)) return b;
  return -1;
}

void co_places_init(co_places* pl, const rs_take* k) {
  memset(pl, 0, sizeof *pl);
  pl->steering = body_index(k, "steering");
  pl->torso = body_index(k, "rider_torso");
  if (!k->rg || pl->steering < 0) return;
  sc_rider_points pts;
  sc_rider_points_get(k->rg, &pts);
  if (!pts.have_grip) return;
  double o[3];
  ex_take_body_origin(k->rg, "steering", o);   /* a body's pose is where its frame origin is */
  for (int s = 0; s < 2; s++)
    for (int j = 0; j < 3; j++) pl->grip[s][j] = pts.grip[s][j] - o[j];
  pl->have_grips = 1;
}

int co_grip(const co_places* pl, const rs_take* k, const rs_state* st, int side, double out[3]) {
  if (!pl->have_grips) return 0;
  rs_pose_point(st->pose + 7 * pl->steering, pl->grip[side], out);
  return 1;
}

int co_anchor(const co_places* pl, const rs_take* k, const rs_state* st, const cap_item* it, double out[3]) {
  switch (it->at) {
    case CAP_AT_FRONT_CONTACT: rv_contact_point(k, st, RIG_FRONT, out); return 1;
    case CAP_AT_REAR_CONTACT: rv_contact_point(k, st, RIG_REAR, out); return 1;
    case CAP_AT_BARS: {
      double l[3], r[3];
      if (!co_grip(pl, k, st, 0, l) || !co_grip(pl, k, st, 1, r)) return 0;
      for (int j = 0; j < 3; j++) out[j] = 0.5 * (l[j] + r[j]);
      return 1;
    }
    case CAP_AT_LEFT_GRIP: return co_grip(pl, k, st, 0, out);
    case CAP_AT_RIGHT_GRIP: return co_grip(pl, k, st, 1, out);
    case CAP_AT_RIDER:
      if (pl->torso < 0) return 0;
      memcpy(out, st->pose + 7 * pl->torso, 3 * sizeof(double));
      return 1;
    case CAP_AT_BODY: {
      int b = body_index(k, it->body);
      if (b < 0) return 0;
      memcpy(out, st->pose + 7 * b, 3 * sizeof(double));
      return 1;
    }
    default: memcpy(out, it->point, 3 * sizeof(double)); return 1;
  }
}

void co_arrow(cairo_t* cr, double x0, double y0, double x1, double y1, double head) {
  double L = hypot(x1 - x0, y1 - y0);
  if (head > 0.8 * L) head = 0.8 * L;   /* a short arrow keeps a shaft */
  draw_arrow(cr, x0, y0, x1, y1, head);
}

/* 1 if the box (x, y, w, h) meets none of the view's boxes to avoid (the captions'). */
static int clear_of(const co_proj* pr, double x, double y, double w, double h) {
  for (int i = 0; i < pr->navoid; i++) {
    const double* a = pr->avoid[i];
    if (x < a[2] && a[0] < x + w && y < a[3] && a[1] < y + h) return 0;
  }
  return 1;
}

/* The label's box (bw × bh) for point p: above it, beside it on the side with more room, else
 * on the other side, else below it on either side, else above the first caption box in its
 * way; each clamped into the view below its header lines (its title and readouts: about 3
 * units at the top). The first clear of the boxes to avoid (pr->avoid) wins: 1; 0 when none
 * is (the label is left out rather than drawn over a caption's or a force's text). */
static int label_place(const co_proj* pr, const double p[2], double bw, double bh, double u, double* bx, double* by) {
  int right = p[0] < pr->x + 0.5 * pr->w;
  double x0 = pr->x + 0.3 * u, x1 = fmax(x0, pr->x + pr->w - bw - 0.3 * u);
  double y0 = pr->y + 3.5 * u, y1 = fmax(y0, pr->y + pr->h - bh - 0.3 * u);
  double xs[2] = {right ? p[0] + 2.5 * u : p[0] - 2.5 * u - bw, right ? p[0] - 2.5 * u - bw : p[0] + 2.5 * u};
  double ys[2] = {p[1] - 4 * u - bh, p[1] + 2.5 * u};
  double fx = mt_clamp(xs[0], x0, x1), fy = mt_clamp(ys[0], y0, y1);   /* the first candidate */
  for (int c = 0; c < 5; c++) {
    double x = mt_clamp(xs[c % 2], x0, x1), y = c < 4 ? mt_clamp(ys[c / 2], y0, y1) : fy;
    if (c == 4) {   /* over every caption box, beside the point as the first candidate */
      for (int i = 0; i < pr->navoid; i++) y = fmin(y, pr->avoid[i][1] - bh - 0.3 * u);
      x = fx, y = fmax(y, y0);
    }
    if (clear_of(pr, x, y, bw, bh)) {
      *bx = x, *by = y;
      return 1;
    }
  }
  return 0;
}

/* One callout: the label where label_place finds room, an arrow from the box's nearest edge to
 * the point, a ring round the point; nothing when the label finds no room. */
static void draw_one(cairo_t* cr, const co_proj* pr, const cap_item* it, int idx, double al, const double p[2], double H) {
  double u = cap_unit(H), size = 1.05 * u, m = 0.35 * u;
  cairo_save(cr);
  cap_lines a;   /* wrapped to the view's width (a long label in a small grid cell) */
  cap_wrap(cr, it->text, size, fmax(pr->w - 0.6 * u - 2 * m, 4 * u), &a);
  double bw = cap_lines_width(&a) + 2 * m, bh = a.n * 1.25 * size + 2 * m;
  double bx, by;
  if (!label_place(pr, p, bw, bh, u, &bx, &by)) {   /* no room clear of the captions: thinned, as render/labels.h does */
    cairo_restore(cr);
    return;
  }
  double ax = mt_clamp(p[0], bx, bx + bw), ay = p[1] < by ? by : by + bh;
  cairo_set_line_width(cr, fmax(2, 0.15 * u));
  cairo_set_source_rgba(cr, 1.0, 0.72, 0.1, al);
  co_arrow(cr, ax, ay, p[0], p[1], 0.8 * u);
  char name[40];   /* the log (render/gauge_log.h): the label's box, the arrow from it to the point */
  snprintf(name, sizeof name, "callout.%d", idx + 1);
  rgl_mark(cr, name, RGL_DOT, idx + 1, bx, by, bw, bh, ax, ay, p[0], p[1]);
  cairo_new_sub_path(cr);
  cairo_arc(cr, p[0], p[1], 0.45 * u, 0, 2 * MT_PI);
  cairo_stroke(cr);
  cairo_set_source_rgba(cr, 0.07, 0.08, 0.11, 0.8 * al);
  cairo_rectangle(cr, bx, by, bw, bh);
  cairo_fill(cr);
  cairo_set_source_rgba(cr, 1, 1, 1, al);
  for (int i = 0; i < a.n; i++) draw_text(cr, bx + m, by + m + i * 1.25 * size, size, 0, 0, a.line[i]);
  cairo_restore(cr);
}

void co_draw(cairo_t* cr, const co_proj* pr, const co_places* pl, const rs_take* k, const rs_state* st, const cap_list* l,
             double t, double H) {
  for (int i = 0; l && i < l->n; i++) {
    const cap_item* it = &l->item[i];
    double al = it->style == CAP_CALLOUT ? cap_alpha(it, t) : 0, w[3], p[2];
    /* a part of the machine is pointed at where it is drawn (side, rear, chase); from above
     * (plan, track) the machine is a footprint: only world points are */
    if (pr->kind == CO_PLAN && it->at != CAP_AT_POINT) continue;
    if (al <= 0 || !co_anchor(pl, k, st, it, w) || !co_project(pr, w, p)) continue;
    if (p[0] < pr->x || p[0] > pr->x + pr->w || p[1] < pr->y || p[1] > pr->y + pr->h) continue;
    draw_one(cr, pr, it, i, al, p, H);
  }
}
