/* mode_video.c — side and rear elevations of a synthetic rig motion into a video (see mode_video.h). */
#include "render/mode_video.h"
#include "base/progress.h"

#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/draw.h"
#include "render/frames.h"
#include "render/rig_draw.h"
#include "scene/linkage.h"
#include "takes/recorder.h"

#define VW 1280
#define VH 720
#define MAXB 32

typedef struct vbody {
  rig_shape shape[RIG_MAX_SHAPES + 4];
  int nshape, wheel;
} vbody;

/* Shapes of recorded body i in its own frame (as the take's bodies: rig shapes moved to the body
 * frame's origin, the linkage parts' bars of scene/linkage.h). */
static void body_shapes(const rig* r, int i, vbody* b) {
  memset(b, 0, sizeof *b);
  b->wheel = -1;
  if (i < r->nbody) {
    const rig_body* rb = &r->body[i];
    const double* o = rb->parent < 0 ? rb->com : r->joint[rb->joint0].anchor;
    for (int q = 0; q < rb->nshape; q++) {
      rig_shape s = rb->shape[q];
      for (int k = 0; k < 3; k++) {
        s.a[k] -= o[k];
        if (s.type == RIG_CYLINDER || s.type == RIG_CAPSULE) s.b[k] -= o[k];
      }
      b->shape[b->nshape++] = s;
    }
    for (int w = 0; w < 2; w++)
      if (r->wheel[w].body == i) b->wheel = w;
    return;
  }
  sc_bar bar[SC_LINK_MAX_BARS];
  double origin[3];
  int n = sc_link_bars(&r->linkage, i - r->nbody, bar, origin);
  for (int k = 0; k < n; k++) b->shape[b->nshape++] = sc_bar_rig(&bar[k]);
}

static void draw_view(cairo_t* cr, const rd_view* v, const vbody* bs, int nb, const double* pose) {
  double w[3] = {v->u[1] * v->v[2] - v->u[2] * v->v[1], v->u[2] * v->v[0] - v->u[0] * v->v[2], v->u[0] * v->v[1] - v->u[1] * v->v[0]};
  int order[MAXB];
  double depth[MAXB];
  for (int b = 0; b < nb; b++) {
    const double* p = pose + 7 * b;
    order[b] = b;
    depth[b] = (p[0] - v->c[0]) * w[0] + (p[1] - v->c[1]) * w[1] + (p[2] - v->c[2]) * w[2];
  }
  for (int i = 1; i < nb; i++)
    for (int j = i; j > 0 && depth[order[j]] < depth[order[j - 1]]; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (int i = 0; i < nb; i++) {
    const vbody* b = &bs[order[i]];
    for (int q = 0; q < b->nshape; q++)
      rd_draw_shape(cr, v, &b->shape[q], pose + 7 * order[i], 0.85, b->wheel >= 0 && b->shape[q].type == RIG_TORUS ? 8 : 0);
  }
}

/* The ground line of a view at z = 0 across the box. */
static void ground(cairo_t* cr, const rd_view* v, double x0, double x1) {
  double p[3] = {v->c[0], v->c[1], 0}, px, py;   /* (the rear contact's ground point) */
  rd_project(v, p, &px, &py);
  cairo_set_source_rgb(cr, 0.55, 0.5, 0.45);
  cairo_set_line_width(cr, 2);
  cairo_move_to(cr, x0, py);
  cairo_line_to(cr, x1, py);
  cairo_stroke(cr);
}

int mv_write(const rig* r, const double* pose, long nframes, double fps, const char* caption, const char* path, int progress,
             mt_err* e) {
  int nb = rec_nbody(r);
  if (nb > MAXB) return mt_fail(e, MT_EINTERNAL, "mode video: %d bodies, at most %d", nb, MAXB);
  vbody* bs = mt_alloc(sizeof(vbody) * nb);
  for (int i = 0; i < nb; i++) body_shapes(r, i, &bs[i]);
  fo_sink* sink = fo_open(path, VW, VH, fps, e);
  if (!sink) {
    free(bs);
    return e->code ? e->code : MT_EINPUT;
  }
  int rc = MT_OK;
  fprog prog;
  fprog_start(&prog, nframes, progress);
  /* three fixed views about the first frame's frame body (its centre of mass): side (from the right), rear (from
   * behind: roll and lean), top (from above, forward up: steer and yaw) */
  const double* p0 = pose;
  double s = 190;   /* pixels per metre */
  double pw = VW / 3.0;
  rd_view side = {s, pw / 2, VH - 170, {p0[0], p0[1], 0}, {1, 0, 0}, {0, 0, 1}};
  rd_view rear = {s, 1.5 * pw, VH - 170, {p0[0], p0[1], 0}, {0, -1, 0}, {0, 0, 1}};
  rd_view top = {s, 2.5 * pw, VH / 2 + 20, {p0[0], p0[1], 0}, {0, -1, 0}, {1, 0, 0}};
  for (long f = 0; f < nframes && !rc; f++) {
    unsigned char* buf = fo_buffer(sink, e);
    if (!buf) {
      rc = e->code ? e->code : MT_EINTERNAL;
      break;
    }
    cairo_surface_t* surf = cairo_image_surface_create_for_data(buf, CAIRO_FORMAT_ARGB32, VW, VH, VW * 4);
    cairo_t* cr = cairo_create(surf);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    ground(cr, &side, 15, pw - 15);
    ground(cr, &rear, pw + 15, 2 * pw - 15);
    const double* pf = pose + (size_t)f * 7 * nb;
    draw_view(cr, &side, bs, nb, pf);
    draw_view(cr, &rear, bs, nb, pf);
    draw_view(cr, &top, bs, nb, pf);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    draw_text(cr, VW / 2, 14, 19, 0.5, 0, caption);
    draw_text(cr, pw / 2, 56, 15, 0.5, 0, "side (from the right)");
    draw_text(cr, 1.5 * pw, 56, 15, 0.5, 0, "rear (from behind)");
    draw_text(cr, 2.5 * pw, 56, 15, 0.5, 0, "top (forward up)");
    cairo_set_source_rgb(cr, 0.75, 0.75, 0.75);
    cairo_set_line_width(cr, 1);
    for (int k = 1; k < 3; k++) {
      cairo_move_to(cr, round(k * pw) + 0.5, 80);
      cairo_line_to(cr, round(k * pw) + 0.5, VH - 60);
    }
    cairo_stroke(cr);
    /* progress through the loop */
    double t = (double)f / nframes;
    cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
    cairo_rectangle(cr, 40, VH - 30, VW - 80, 8);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.2, 0.45, 0.7);
    cairo_rectangle(cr, 40, VH - 30, (VW - 80) * t, 8);
    cairo_fill(cr);
    cairo_destroy(cr);
    cairo_surface_flush(surf);
    cairo_surface_destroy(surf);
    rc = fo_submit(sink, e);
    if (!rc) fprog_tick(&prog, f + 1);
  }
  int rc2 = fo_close(sink, rc == MT_OK, NULL, e);
  fprog_end(&prog);
  free(bs);
  return rc ? rc : rc2;
}
