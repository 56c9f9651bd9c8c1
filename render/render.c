/* render.c — one rendered frame of a take: layout, views, instruments (see render.h). */
#include "render/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/draw.h"

#include "render/chase.h"

const char* const rr_view_names[RR_NVIEW] = {"plan", "track", "side", "rear", "chase"};

void rr_camera_list(char* out, size_t n) {
  out[0] = 0;
  const char* names[16];
  int m = sc_camera_names(names, 16);
  size_t len = 0;
  for (int i = 0; i < m && len < n; i++) len += snprintf(out + len, n - len, "%s%s", i ? ", " : "", names[i]);
}

static int view_index(const char* s) {
  for (int i = 0; i < RR_NVIEW; i++)
    if (!strcmp(s, rr_view_names[i])) return i;
  return -1;
}

static int parse_grid(rr_ctx* c, const char* g, mt_err* e) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", g);
  c->ncell = 0;
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    int v = view_index(tok);
    if (v < 0) return mt_fail(e, MT_EINPUT, "--grid: unknown view '%s' (plan, track, side, rear, chase)", tok);
    if (c->ncell == 4) return mt_fail(e, MT_EINPUT, "--grid: expected 4 views, got more in '%s'", g);
    c->cells[c->ncell++] = v;
  }
  if (c->ncell != 4) return mt_fail(e, MT_EINPUT, "--grid: expected 4 comma-separated views, got %d in '%s'", c->ncell, g);
  return MT_OK;
}

int rr_open(rr_ctx* c, const char* take, const char* compare, const rr_opts* o, int W, int H, mt_err* e) {
  memset(c, 0, sizeof *c);
  c->o = *o;
  c->W = W;
  c->H = H;
  if (!strcmp(o->view, "grid")) {
    if (parse_grid(c, o->grid ? o->grid : "chase,plan,side,rear", e)) return MT_EINPUT;
  } else {
    int v = view_index(o->view);
    if (v < 0) return mt_fail(e, MT_EINPUT, "--view: unknown view '%s' (plan, track, side, rear, chase, grid)", o->view);
    c->cells[0] = v;
    c->ncell = 1;
  }
  int want_chase = 0;
  for (int i = 0; i < c->ncell; i++) want_chase |= c->cells[i] == RR_CHASE;
  if (o->camera && !want_chase)
    return mt_fail(e, MT_EINPUT, "--camera %s: only the chase view has cameras (--view chase, or a grid with chase)", o->camera);
  if (rs_open(&c->k, take, o->plot, e)) return MT_EINPUT;
  rs_state_init(&c->k, &c->st);
  rv_cache_init(&c->cache, &c->k);
  if (compare) {
    if (rs_open(&c->g, compare, NULL, e)) {
      rr_close(c);
      return MT_EINPUT;
    }
    c->has_ghost = 1;
    rs_state_init(&c->g, &c->gst);
    rv_cache_init(&c->gcache, &c->g);
  }
  if (teach_open(&c->teach, &c->k, o->captions, o->overlays, e)) {
    rr_close(c);
    return MT_EINPUT;
  }
  if (want_chase) {
    c->chase = chase_scene_new(c->k.r, o->camera, e);
    if (!c->chase) {
      rr_close(c);
      return e->code ? e->code : MT_EINPUT;
    }
    if (c->has_ghost) {
      c->gchase = chase_scene_new(c->g.r, o->camera, e);
      if (!c->gchase) {
        rr_close(c);
        return e->code ? e->code : MT_EINPUT;
      }
    }
  }
  return MT_OK;
}

void rr_set_size(rr_ctx* c, int W, int H) {
  c->W = W;
  c->H = H;
}

void rr_close(rr_ctx* c) {
  teach_close(&c->teach);
  if (c->chase) chase_scene_free(c->chase);
  if (c->gchase) chase_scene_free(c->gchase);
  if (c->k.r) {
    rv_cache_free(&c->cache);
    rs_state_free(&c->st);
    rs_close(&c->k);
  }
  if (c->has_ghost) {
    rv_cache_free(&c->gcache);
    rs_state_free(&c->gst);
    rs_close(&c->g);
  }
  memset(c, 0, sizeof *c);
}

static int draw_cell(rr_ctx* c, cairo_t* cr, int view, double x, double y, double w, double h, double t, mt_err* e) {
  const rs_take* gk = c->has_ghost ? &c->g : NULL;
  const rs_state* gs = c->has_ghost ? &c->gst : NULL;
  switch (view) {
    case RR_PLAN: rv_plan(cr, &c->cache, &c->k, &c->st, gk, gs, x, y, w, h, c->o.span > 0 ? c->o.span : 120); break;
    case RR_TRACK: rv_plan(cr, &c->cache, &c->k, &c->st, gk, gs, x, y, w, h, 0); break;
    case RR_SIDE: rv_side(cr, &c->k, &c->st, gk, gs, x, y, w, h); break;
    case RR_REAR: rv_rear(cr, &c->k, &c->st, gk, gs, x, y, w, h); break;
    case RR_CHASE: {
      cairo_save(cr);
      cairo_rectangle(cr, x, y, w, h);
      cairo_clip(cr);
      cairo_translate(cr, x, y);
      int rc = chase_draw(c->chase, cr, w, h, t, c->gchase, e);
      cairo_restore(cr);
      if (rc) return rc;
      break;
    }
  }
  static const int TEACH_VIEW[RR_NVIEW] = {TEACH_PLAN, TEACH_TRACK, TEACH_SIDE, TEACH_REAR, TEACH_CHASE};
  int vw, vh;
  rr_view_area(c, &vw, &vh);
  teach_cell(&c->teach, cr, TEACH_VIEW[view], &c->cache, &c->k, &c->st, c->chase, c->o.span > 0 ? c->o.span : 120, x, y, w, h, c->H, vh);
  return MT_OK;
}

/* The timeline's height th and the instruments' width hw (0 with the HUD off). */
static void hud_size(const rr_ctx* c, double* th, double* hw) {
  *th = c->o.hud ? fmax(80, round(0.21 * c->H)) : 0;   /* the time row and up to 6 legend lines in the text unit */
  *hw = c->o.hud ? rv_hud_width(c->W, c->H) : 0;
}

void rr_view_area(const rr_ctx* c, int* w, int* h) {
  double th, hw;
  hud_size(c, &th, &hw);
  *w = c->W - (int)hw;
  *h = c->H - (int)th;
}

/* The instruments at the right and the timeline strip at the bottom, for the state at t. */
static void draw_hud(rr_ctx* c, cairo_t* cr) {
  double th, hw;
  hud_size(c, &th, &hw);
  double mw = c->W - hw, mh = c->H - th;
  rv_hud_cached(cr, &c->cache, &c->k, &c->st, mw, 0, hw, mh);
  rv_timeline(cr, &c->cache, &c->k, &c->st, c->o.t0, c->o.t1, 0, mh, c->W, th);
}

int rr_draw_picture(rr_ctx* c, cairo_t* cr, double t, cairo_surface_t* pic, mt_err* e) {
  if (rs_at(&c->k, t, &c->st, e)) return MT_EINPUT;
  cairo_save(cr);
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_source_rgb(cr, 0, 0, 0);   /* the whole frame is painted, whatever pic's size */
  cairo_paint(cr);
  cairo_set_source_surface(cr, pic, 0, 0);
  cairo_paint(cr);
  if (c->o.hud) draw_hud(c, cr);
  teach_frame(&c->teach, cr, t, c->W, c->H, cairo_image_surface_get_width(pic), cairo_image_surface_get_height(pic));
  cairo_restore(cr);
  return MT_OK;
}

int rr_draw(rr_ctx* c, cairo_t* cr, double t, mt_err* e) {
  if (rs_at(&c->k, t, &c->st, e)) return MT_EINPUT;
  if (c->has_ghost && rs_at(&c->g, t, &c->gst, e)) return MT_EINPUT;
  cairo_save(cr);   /* the cells, the instruments and the timeline cover the whole frame */
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  double th, hw;
  hud_size(c, &th, &hw);
  double W = c->W, mw = W - hw, mh = c->H - th;
  int rc = MT_OK;
  teach_reserve(&c->teach, cr, t, c->H, mw, mh);   /* the captions' boxes, kept clear by the views' labels */
  if (c->ncell == 1) {
    rc = draw_cell(c, cr, c->cells[0], 0, 0, mw, mh, t, e);
  } else {
    double cw = floor(mw / 2), ch = floor(mh / 2);
    for (int i = 0; i < 4 && !rc; i++) rc = draw_cell(c, cr, c->cells[i], (i % 2) * cw, (i / 2) * ch, i % 2 ? mw - cw : cw, i / 2 ? mh - ch : ch, t, e);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 2);
    cairo_move_to(cr, cw, 0);
    cairo_line_to(cr, cw, mh);
    cairo_move_to(cr, 0, ch);
    cairo_line_to(cr, mw, ch);
    cairo_stroke(cr);
  }
  if (!rc && c->o.hud) draw_hud(c, cr);
  if (!rc) teach_frame(&c->teach, cr, t, W, c->H, mw, mh);
  cairo_restore(cr);
  return rc;
}

