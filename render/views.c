/* views.c — plan, side and rear views, instruments and timeline (see views.h). */
#include "render/views.h"
#include "render/rider_draw.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/draw.h"
#include "render/gauge_log.h"
#include "render/labels.h"
#include "sim/track_dress.h"
#include "render/slip_gauges.h"

#define BLOCK_M 20.0
#define TRAIL_S 10.0

static const double MAGENTA[3] = {1, 0, 1}, GHOST[3] = {0, 0.75, 0.85};

/* The name an event shows on the timeline: a mark's label, else its kind. */
static void event_name(const take_event* ev, char out[40]) {
  const char* name = ev->kind;
  json_t* o = !strcmp(ev->kind, "mark") && ev->json ? json_loads(ev->json, 0, NULL) : NULL;
  const char* label = o ? json_string_value(json_object_get(o, "label")) : NULL;
  if (label && label[0]) name = label;
  draw_showable(name, out, 40);
  json_decref(o);
}

static void event_names_init(rv_cache* c, const rs_take* k) {
  c->nev = take_nevents(k->r);
  c->evname = mt_alloc(sizeof *c->evname * (size_t)(c->nev + 1));
  for (int i = 0; i < c->nev; i++) event_name(take_event_at(k->r, i), c->evname[i]);
}

void rv_cache_init(rv_cache* c, const rs_take* k) {
  memset(c, 0, sizeof *c);
  double L = track_length(k->tk);
  c->nblock = (int)ceil(L / BLOCK_M);
  c->block = mt_alloc(sizeof(double) * 4 * (c->nblock + 1));
  for (int b = 0; b < c->nblock; b++) {
    double* q = c->block + 4 * b;
    q[0] = q[1] = INFINITY;
    q[2] = q[3] = -INFINITY;
    for (double s = b * BLOCK_M; s <= fmin((b + 1) * BLOCK_M, L) + 1e-9; s += 1) {
      double wl, wr, p[3], hd;
      track_widths(k->tk, fmin(s, L), &wl, &wr);
      for (int side = -1; side <= 1; side += 2) {
        track_eval(k->tk, fmin(s, L), side < 0 ? -wr : wl, p, &hd);
        q[0] = fmin(q[0], p[0]);
        q[1] = fmin(q[1], p[1]);
        q[2] = fmax(q[2], p[0]);
        q[3] = fmax(q[3], p[1]);
      }
    }
  }
  event_names_init(c, k);
  const char* plain = getenv("MOTOTAKE_RENDER_PLAIN");
  c->plain = plain && *plain && strcmp(plain, "0");
}

void rv_cache_free(rv_cache* c) {
  free(c->evname);
  free(c->block);
  if (c->whole) cairo_surface_destroy(c->whole);
  if (c->tile) cairo_surface_destroy(c->tile);
  if (c->strip) cairo_surface_destroy(c->strip);
  if (c->hud) cairo_surface_destroy(c->hud);
  memset(c, 0, sizeof *c);
}

double rv_heading(const rs_take* k, const rs_state* st) {
  double f[3], x[3] = {1, 0, 0};
  rs_rotate(st->pose + 7 * k->root + 3, x, f);
  return atan2(f[1], f[0]);
}

static void wheel_centre(const rs_take* k, const rs_state* st, int w, double out[3]) {
  for (int b = 0; b < k->nb; b++)
    if (k->body[b].wheel == w) {
      memcpy(out, st->pose + 7 * b, 3 * sizeof(double));
      return;
    }
  memcpy(out, st->pose + 7 * k->root, 3 * sizeof(double));
}

/* The lowest point of wheel w's tyre (its contact patch on a flat road). */
void rv_contact_point(const rs_take* k, const rs_state* st, int w, double out[3]) {
  for (int b = 0; b < k->nb; b++) {
    if (k->body[b].wheel != w) continue;
    for (int i = 0; i < k->body[b].nshape; i++) {
      const rig_shape* sh = &k->body[b].shape[i];
      if (sh->type != RIG_TORUS) continue;
      double c[3], a[3], d[3];
      rs_pose_point(st->pose + 7 * b, sh->a, c);
      rs_rotate(st->pose + 7 * b + 3, sh->axis, a);
      double za = -a[2];
      for (int j = 0; j < 3; j++) d[j] = (j == 2 ? -1 : 0) - za * a[j];
      double n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      for (int j = 0; j < 3; j++) out[j] = c[j] + (n > 1e-9 ? sh->b[0] * d[j] / n : 0) - (j == 2 ? sh->b[1] : 0);
      return;
    }
  }
  wheel_centre(k, st, w, out);
  out[2] -= 0.3;
}

static double road_z(const rs_take* k, const rs_state* st) {
  if (k->ch[RC_STATION] >= 0 && k->ch[RC_OFFSET] >= 0) {
    double p[3], h;
    track_eval(k->tk, rs_ch(k, st, RC_STATION, 0), rs_ch(k, st, RC_OFFSET, 0), p, &h);
    return p[2];
  }
  double a[3], b[3];
  rv_contact_point(k, st, 0, a);
  rv_contact_point(k, st, 1, b);
  return fmin(a[2], b[2]);
}

/* Text sizes are multiples of the frame's text unit (draw_em: 2.2 % of the frame height), so
 * words stay legible at any size and in a grid cell; lines of text are LINE units apart. */
#define LINE 1.3

/* A view's panel: clipped to its box (render/draw.h's panel, so every text knows its box),
 * painted with its background; box_end closes it. */
static void box_begin(cairo_t* cr, double x, double y, double w, double h, double r, double g, double b) {
  draw_panel_begin(cr, x, y, w, h);
  cairo_set_source_rgb(cr, r, g, b);
  cairo_paint(cr);
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
}
static void box_end(cairo_t* cr) { draw_panel_end(cr); }

/* The top of text line i of a view's header (0: the title's line). */
static double line_y(cairo_t* cr, double y, int i) { return y + 0.3 * draw_em(cr) + i * draw_line_pitch(cr, draw_em(cr), LINE); }

/* 1 if the box (x, y, w, h) is clear of the captions' boxes (render/labels.h rl_reserve): a
 * header's text that a subtitle or lower third would cover (a tall lower third over a grid
 * cell) is left out rather than drawn under it. */
static int clear_of_captions(cairo_t* cr, double x, double y, double w, double h) {
  rl_set ls;
  rl_init(&ls, -1e9, -1e9, 2e9, 2e9);
  rl_take_reserved(&ls, cr);
  return rl_free(&ls, (double[4]){x, y, w, h});
}

/* Header text as rgl_text draws it (anchored at its top, left or right by ax), unless a caption
 * would cover it. */
static void hdr_text(cairo_t* cr, const char* name, double value, double x, double y, double ax, const char* s) {
  double b[4], em = draw_em(cr);
  rl_box(cr, x, y, em, ax, 0, s, b);
  if (clear_of_captions(cr, b[0], b[1], b[2], b[3])) rgl_text(cr, name, value, x, y, em, ax, 0, s);
}

static void box_title(cairo_t* cr, double x, double y, const char* s) {
  double b[4];
  rl_box(cr, x + 0.5 * draw_em(cr), line_y(cr, y, 0), draw_em(cr), 0, 0, s, b);
  if (!clear_of_captions(cr, b[0], b[1], b[2], b[3])) return;
  cairo_set_source_rgba(cr, 0, 0, 0, 0.8);
  draw_text(cr, x + 0.5 * draw_em(cr), line_y(cr, y, 0), draw_em(cr), 0, 0, s);
}

/*---- plan ----*/

plan_xf rv_plan_xf(cairo_t* cr, rv_cache* c, const rs_take* k, const rs_state* st, double x, double y, double w, double h,
                   double span) {
  if (span <= 0) {   /* fitting walks the whole track: once per box */
    if (c->wbox[2] != w || c->wbox[3] != h || c->wbox[0] != x || c->wbox[1] != y) {
      /* below the two keys' lines at the top (the title shares the first; plan_keys) and above
       * the scale bar with its label at the bottom (plan_scale_bar), so neither covers the road:
       * with one line kept at the top, the ring's height key sat on its top edge in a 320 × 240
       * thumbnail */
      double em = draw_em(cr), pitch = draw_line_pitch(cr, em, LINE), top = 0.3 * em + 2 * pitch, bottom = 0.9 * em + pitch;
      c->wxf = plan_fit(k->tk, x, y + top, w, fmax(h - top - bottom, 0.3 * h), 15);
      c->wbox[0] = x, c->wbox[1] = y, c->wbox[2] = w, c->wbox[3] = h;
    }
    return c->wxf;
  }
  double s = w / span, X = st->pose[7 * k->root], Y = st->pose[7 * k->root + 1];
  plan_xf f = {s, x + 0.5 * w - s * X, y + 0.5 * h + s * Y};
  (void)c;
  return f;
}

static void plan_marker(cairo_t* cr, const plan_xf* f, double X, double Y, double hd, const double rgb[3], double alpha) {
  /* footprint 2.05 × 0.7 m (at least 16 × 7 px), centred on (X, Y), turned to the heading */
  double L = fmax(2.05 * f->s, 16), W = fmax(0.7 * f->s, 7);
  double cx = f->ox + f->s * X, cy = f->oy - f->s * Y, ux = cos(hd), uy = -sin(hd), nx = -uy, ny = ux;
  cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], alpha);
  cairo_move_to(cr, cx + ux * L / 2 + nx * W / 2, cy + uy * L / 2 + ny * W / 2);
  cairo_line_to(cr, cx + ux * L / 2 - nx * W / 2, cy + uy * L / 2 - ny * W / 2);
  cairo_line_to(cr, cx - ux * L / 2 - nx * W / 2, cy - uy * L / 2 - ny * W / 2);
  cairo_line_to(cr, cx - ux * L / 2 + nx * W / 2, cy - uy * L / 2 + ny * W / 2);
  cairo_close_path(cr);
  cairo_fill(cr);
  /* heading: a dark arrow ahead of the footprint */
  cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, alpha);
  cairo_set_line_width(cr, 2);
  draw_arrow(cr, cx + ux * (L / 2 + 3), cy + uy * (L / 2 + 3), cx + ux * (L / 2 + 3 + fmax(L, 18)), cy + uy * (L / 2 + 3 + fmax(L, 18)), 7);
}

static void plan_trail(cairo_t* cr, const plan_xf* f, const rs_take* k, double t, double vmax, int ghost) {
  int i1 = (int)floor(t * RS_HIST_HZ), i0 = i1 - (int)(TRAIL_S * RS_HIST_HZ);
  if (i0 < 0) i0 = 0;
  if (i1 > k->nhist - 1) i1 = k->nhist - 1;
  cairo_antialias_t aa = cairo_get_antialias(cr);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_width(cr, ghost ? 2.5 : 4);
  /* Cairo's 4 × 4 samples (FAST), as the machine's outlines: the trail's thirty-odd pieces were
   * a third of the plan view's drawing in the default antialiasing */
  cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST);
  /* pieces of 0.1 s, each coloured by its mean speed and faded by its age */
  for (int a = i0; a < i1; a += 5) {
    int b = a + 5 < i1 ? a + 5 : i1;
    const double *p = k->hist + k->hs * a, *q = k->hist + k->hs * b;
    double age = (t - q[RH_T]) / TRAIL_S, rgb[3];
    draw_ramp(vmax > 0 ? 0.5 * (p[RH_SPEED] + q[RH_SPEED]) / vmax : 0, rgb);
    if (ghost) rgb[0] = GHOST[0], rgb[1] = GHOST[1], rgb[2] = GHOST[2];
    cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], mt_clamp(1 - age, 0.05, 1) * (ghost ? 0.6 : 1));
    for (int i = a; i <= b; i++) {
      const double* r = k->hist + k->hs * i;
      if (i == a) cairo_move_to(cr, f->ox + f->s * r[RH_X], f->oy - f->s * r[RH_Y]);
      else cairo_line_to(cr, f->ox + f->s * r[RH_X], f->oy - f->s * r[RH_Y]);
    }
    cairo_stroke(cr);
  }
  cairo_set_antialias(cr, aa);
}

static double hist_max(const rs_take* k, int col) {
  double m = 0;
  for (int i = 0; i < k->nhist; i++) m = fmax(m, k->hist[k->hs * i + col]);
  return m;
}

/* Time at which take k had covered distance d (history, linear), or NAN. */
static double time_at_distance(const rs_take* k, double d) {
  if (k->nhist < 2 || d < k->hist[RH_DIST] || d > k->hist[k->hs * (k->nhist - 1) + RH_DIST]) return NAN;
  int lo = 0, hi = k->nhist - 1;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (k->hist[k->hs * mid + RH_DIST] < d) lo = mid;
    else hi = mid;
  }
  const double *a = k->hist + k->hs * lo, *b = k->hist + k->hs * hi;
  double f = b[RH_DIST] > a[RH_DIST] ? (d - a[RH_DIST]) / (b[RH_DIST] - a[RH_DIST]) : 0;
  return a[RH_T] + f * (b[RH_T] - a[RH_T]);
}

/* The title, and under it the gap to the ghost (--compare). */
static void plan_header(cairo_t* cr, rl_set* ls, const rs_take* k, const rs_state* st, const rs_take* gk, const rs_state* gst,
                        double x, double y, double span) {
  double em = draw_em(cr), b[4];
  const char* title = span > 0 ? "plan (following)" : "track";
  rl_box(cr, x + 0.5 * em, line_y(cr, y, 0), em, 0, 0, title, b);
  rl_take(ls, b[0], b[1], b[2], b[3]);
  box_title(cr, x, y, title);
  if (!gk || !gst) return;
  double d = rs_ch(k, st, RC_DIST, NAN), tg = time_at_distance(gk, d), ty = line_y(cr, y, 1);
  char buf[96];
  if (isfinite(tg)) snprintf(buf, sizeof buf, "gap to ghost %+.2f s (%s)", draw_shown(st->t - tg, 0.01), st->t > tg ? "behind" : "ahead");
  else snprintf(buf, sizeof buf, "gap to ghost: —");
  rl_box(cr, x + 0.5 * em, ty, em, 0, 0, buf, b);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.72);
  cairo_rectangle(cr, b[0], b[1], b[2], b[3]);
  cairo_fill(cr);
  rl_take(ls, b[0], b[1], b[2], b[3]);
  cairo_set_source_rgb(cr, 0, 0.35, 0.45);
  rgl_text(cr, "plan.gap.text", isfinite(tg) ? st->t - tg : NAN, x + 0.5 * em, ty, em, 0, 0, buf);
}

/* The scale bar at the bottom left: a quarter of the view's width, rounded to a nice length. */
static void plan_scale_bar(cairo_t* cr, rl_set* ls, const plan_xf* f, double x, double y, double w, double h) {
  double em = draw_em(cr), bar = draw_nice_step(0.25 * w / f->s, 1), px = bar * f->s, by = y + h - 0.6 * em, b[4];
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, fmax(3, 0.2 * em));
  cairo_move_to(cr, x + 0.5 * em, by);
  cairo_line_to(cr, x + 0.5 * em + px, by);
  cairo_stroke(cr);
  rgl_mark(cr, "plan.scale_bar", RGL_HBAR, bar, x + 0.5 * em, by - 1.5, px, 3, x + 0.5 * em, by, x + 0.5 * em + px, by);
  char buf[32];
  snprintf(buf, sizeof buf, "%g m", bar);
  rl_box(cr, x + 0.5 * em, by - 0.3 * em, em, 0, 1, buf, b);
  rl_take(ls, b[0], b[1], fmax(b[2], px), by + 0.3 * em - b[1]);
  rgl_text(cr, "plan.scale_bar.text", bar, x + 0.5 * em, by - 0.3 * em, em, 0, 1, buf);
}

/* One colour key at the right, its text ending where the ramp starts, its top at yt or, where
 * that would cover a text already there (the header's, in a narrow view), as many lines lower
 * as it takes; returns the top of the line under it. */
static double plan_key(cairo_t* cr, rl_set* ls, const char* name, double value, const char* text, int elev, double xr, double yt) {
  double em = draw_em(cr), bw = 4 * em, bh = 0.7 * em, b[4], pitch = draw_line_pitch(cr, em, LINE);
  double tx = xr - bw - 0.4 * em;
  for (int down = 0; down < 4; down++, yt += pitch) {
    rl_box(cr, tx, yt, em, 1, 0, text, b);
    double kb[4] = {b[0] - 0.3 * em, b[1], xr - b[0] + 0.6 * em, b[3]};
    if (rl_free(ls, kb)) break;
  }
  rl_box(cr, tx, yt, em, 1, 0, text, b);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.72);
  cairo_rectangle(cr, b[0] - 0.3 * em, b[1], xr - b[0] + 0.6 * em, b[3]);
  cairo_fill(cr);
  rl_take(ls, b[0] - 0.3 * em, b[1], xr - b[0] + 0.6 * em, b[3]);
  /* the scale itself, one gradient fill (forty steps of it, one fill each, were a sixth of the
   * plan view's drawing) */
  cairo_pattern_t* ramp = draw_ramp_pattern(elev, xr - bw, xr);
  cairo_set_source(cr, ramp);
  cairo_rectangle(cr, xr - bw, b[1] + 0.5 * (b[3] - bh), bw, bh);
  cairo_fill(cr);
  cairo_pattern_destroy(ramp);
  cairo_set_source_rgb(cr, 0, 0, 0);
  if (name) rgl_text(cr, name, value, tx, yt, em, 1, 0, text);
  else draw_text(cr, tx, yt, em, 1, 0, text);
  return yt + pitch;
}

/* The keys of the two colour scales at the top right: the trail's speed (viridis), the road's
 * elevation (a relief palette of its own, render/draw.h draw_ramp_elev) under it. At the top,
 * out of the captions' way: subtitles and lower thirds take the bottom of the views
 * (render/captions.h), and a key under a subtitle could not be read. */
static void plan_keys(cairo_t* cr, rl_set* ls, const rs_take* k, double vmax, double x, double y, double w, double h) {
  (void)h;
  double em = draw_em(cr), xr = x + w - 0.5 * em;
  char buf[64];
  snprintf(buf, sizeof buf, "trail speed 0 to %.0f km/h", vmax * 3.6);
  double yt = plan_key(cr, ls, "plan.speed_key.text", vmax * 3.6, buf, 0, xr, y + 0.3 * em);
  if (k->zmax - k->zmin < 0.5) snprintf(buf, sizeof buf, "road height %.0f m, flat", draw_shown(k->zmin, 1));
  else snprintf(buf, sizeof buf, "road height %.0f to %.0f m", draw_shown(k->zmin, 1), draw_shown(k->zmax, 1));
  plan_key(cr, ls, NULL, 0, buf, 1, xr, yt);
}

/* The start line's label and the corner names (the track file's boards, sim/track_dress.h),
 * each beside its place on the road where it fits: "T8 Corkscrew", else "T8", else left out. */
static void plan_names(cairo_t* cr, rl_set* ls, const rs_take* k, const plan_xf* f, double span) {
  double em = draw_em(cr), lx, ly, ax, ay;
  cairo_set_source_rgb(cr, 0, 0, 0);
  if (span <= 0) {
    plan_start_label_at(k->tk, f, &lx, &ly, &ax, &ay);
    if (!rl_place_at(ls, cr, lx, ly, ax, ay, em, "START / FINISH")) rl_place(ls, cr, lx, ly, 0.5 * em, em, "START / FINISH");
  }
  const track_dress* d = track_dressing(k->tk);
  for (int i = 0; d && i < d->ncorner; i++) {
    const track_corner* c = &d->corner[i];
    double wl, wr, p[3], hd;
    track_widths(k->tk, c->at, &wl, &wr);
    track_eval(k->tk, c->at, c->side == TRACK_SIDE_LEFT ? wl : -wr, p, &hd);
    /* away from the road on the board's side: the road's left normal is (−sin, cos), y up */
    double sd = c->side == TRACK_SIDE_LEFT ? 1 : -1, nx = -sin(hd) * sd, ny = -cos(hd) * sd;
    double px = f->ox + f->s * p[0], py = f->oy - f->s * p[1], gap = 0.4 * em + 2;
    if (px < ls->panel[0] - em || px > ls->panel[2] + em || py < ls->panel[1] - em || py > ls->panel[3] + em) continue;   /* off the view */
    char full[80];
    snprintf(full, sizeof full, "%s %s", c->name, c->title);
    cairo_set_source_rgb(cr, 0.45, 0.05, 0.05);
    if (!(c->title[0] && rl_place_dir(ls, cr, px, py, nx, ny, gap, em, full))) rl_place_dir(ls, cr, px, py, nx, ny, gap, em, c->name);
  }
}

void rv_plan(cairo_t* cr, rv_cache* c, const rs_take* k, const rs_state* st, const rs_take* gk, const rs_state* gst,
             double x, double y, double w, double h, double span) {
  box_begin(cr, x, y, w, h, 0.86, 0.9, 0.84);
  plan_xf f = rv_plan_xf(cr, c, k, st, x, y, w, h, span);
  if (span <= 0) {
    /* the whole track does not move: draw it once into a cached background */
    if (!c->whole || c->ww != (int)w || c->wh != (int)h) {
      if (c->whole) cairo_surface_destroy(c->whole);
      c->ww = (int)w;
      c->wh = (int)h;
      c->whole = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, c->ww, c->wh);
      cairo_t* bc = cairo_create(c->whole);
      cairo_set_source_rgb(bc, 0.86, 0.9, 0.84);
      cairo_paint(bc);
      cairo_select_font_face(bc, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
      plan_xf bf = {f.s, f.ox - x, f.oy - y};
      plan_draw_track(bc, k->tk, &bf, k->zmin, k->zmax);
      plan_draw_start(bc, k->tk, &bf);
      cairo_destroy(bc);
    }
    cairo_set_source_surface(cr, c->whole, x, y);
    cairo_paint(cr);
  } else {
    /* the road around the machine is drawn into a tile twice the box each way, redrawn only
     * when the box leaves it; the tile is placed to the nearest pixel */
    double wx0 = (x - f.ox) / f.s, wx1 = (x + w - f.ox) / f.s, wy1 = (f.oy - y) / f.s, wy0 = (f.oy - y - h) / f.s;
    int tw = (int)(2 * w), th = (int)(2 * h);
    if (!c->tile || c->txf.s != f.s || cairo_image_surface_get_width(c->tile) != tw || wx0 < c->tb[0] || wy0 < c->tb[1] ||
        wx1 > c->tb[2] || wy1 > c->tb[3]) {
      if (c->tile) cairo_surface_destroy(c->tile);
      c->tile = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, tw, th);
      double X = st->pose[7 * k->root], Y = st->pose[7 * k->root + 1];
      c->txf = (plan_xf){f.s, floor(0.5 * tw - f.s * X), floor(0.5 * th + f.s * Y)};
      c->tb[0] = -c->txf.ox / f.s;
      c->tb[2] = (tw - c->txf.ox) / f.s;
      c->tb[3] = c->txf.oy / f.s;
      c->tb[1] = (c->txf.oy - th) / f.s;
      cairo_t* tc = cairo_create(c->tile);
      cairo_set_source_rgb(tc, 0.86, 0.9, 0.84);
      cairo_paint(tc);
      double L = track_length(k->tk);
      int run = -1;
      for (int b = 0; b <= c->nblock; b++) {
        int in = 0;
        if (b < c->nblock) {
          const double* q = c->block + 4 * b;
          in = q[2] >= c->tb[0] && q[0] <= c->tb[2] && q[3] >= c->tb[1] && q[1] <= c->tb[3];
        }
        if (in && run < 0) run = b;
        if (!in && run >= 0) {
          plan_draw_track_range(tc, k->tk, &c->txf, k->zmin, k->zmax, run * BLOCK_M, fmin(b * BLOCK_M, L), 0);
          run = -1;
        }
      }
      cairo_destroy(tc);
    }
    /* the tile is opaque (its background painted first): copied, not blended (SOURCE gives the
     * same pixels as OVER for an opaque source, a row copy instead of a blend per pixel) */
    cairo_save(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_set_source_surface(cr, c->tile, round(f.ox - c->txf.ox), round(f.oy - c->txf.oy));
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_FAST);
    cairo_paint(cr);
    cairo_restore(cr);
  }
  double vmax = hist_max(k, RH_SPEED);
  if (gk && gst) plan_trail(cr, &f, gk, gst->t, vmax, 1);
  plan_trail(cr, &f, k, st->t, vmax, 0);
  if (gk && gst) plan_marker(cr, &f, gst->pose[7 * gk->root], gst->pose[7 * gk->root + 1], rv_heading(gk, gst), GHOST, 0.8);
  plan_marker(cr, &f, st->pose[7 * k->root], st->pose[7 * k->root + 1], rv_heading(k, st), MAGENTA, 1);
  rl_set ls;
  rl_init(&ls, x, y, w, h);
  rl_take_reserved(&ls, cr);   /* the captions' boxes: the keys and names keep out of them */
  plan_header(cr, &ls, k, st, gk, gst, x, y, span);
  plan_scale_bar(cr, &ls, &f, x, y, w, h);
  plan_keys(cr, &ls, k, vmax, x, y, w, h);
  plan_names(cr, &ls, k, &f, span);
  box_end(cr);
}

/*---- side and rear ----*/

#define HEAD_SIDE 0.25
#define HEAD_REAR 0.25

static rd_view machine_view(const rs_take* k, const rs_state* st, int rear, double x, double y, double w, double h) {
  double a[3], b[3];
  wheel_centre(k, st, 0, a);
  wheel_centre(k, st, 1, b);
  double hd = rv_heading(k, st);
  double half = rear ? 1.0 : 1.45, zlo = -0.25, zhi = 1.7;
  /* the top HEAD_SIDE/HEAD_REAR of the box is the readouts' header: the machine goes below it
   * (a fraction, not text units, so that the projection needs no Cairo context; at 16:9 the
   * header's 3 lines need 4.2 text units, 0.24 of a grid cell's height with the HUD on) */
  double head = rear ? HEAD_REAR : HEAD_SIDE;
  y += head * h;
  h *= 1 - head;
  double s = fmin(w / (2 * half), h / (zhi - zlo));
  rd_view v;
  v.s = s;
  v.ox = x + 0.5 * w;
  v.oy = y + 0.5 * h + 0.5 * (zhi + zlo) * s;
  v.c[0] = 0.5 * (a[0] + b[0]);
  v.c[1] = 0.5 * (a[1] + b[1]);
  v.c[2] = road_z(k, st);
  if (rear) {
    v.u[0] = sin(hd), v.u[1] = -cos(hd), v.u[2] = 0;   /* the rider's right */
  } else {
    v.u[0] = cos(hd), v.u[1] = sin(hd), v.u[2] = 0;    /* forward */
  }
  v.v[0] = 0, v.v[1] = 0, v.v[2] = 1;
  return v;
}

rd_view rv_side_xf(const rs_take* k, const rs_state* st, double x, double y, double w, double h) {
  return machine_view(k, st, 0, x, y, w, h);
}
rd_view rv_rear_xf(const rs_take* k, const rs_state* st, double x, double y, double w, double h) {
  return machine_view(k, st, 1, x, y, w, h);
}

static void ground(cairo_t* cr, const rd_view* v, double x, double w) {
  cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
  cairo_rectangle(cr, x, v->oy, w, 1000);
  cairo_fill(cr);
  cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
  cairo_set_line_width(cr, 2);
  cairo_move_to(cr, x, v->oy);
  cairo_line_to(cr, x + w, v->oy);
  cairo_stroke(cr);
}

/* Bodies of take k and the rider's limbs (render/rider_draw.h), back to front along the
 * viewing direction: a body at its frame's origin, a limb at its centre. */
static void draw_bodies(cairo_t* cr, const rd_view* v, const rs_take* k, const rs_state* st, double fill, int spokes,
                        const double bg[3]) {
  double w[3] = {v->u[1] * v->v[2] - v->u[2] * v->v[1], v->u[2] * v->v[0] - v->u[0] * v->v[2],
                 v->u[0] * v->v[1] - v->u[1] * v->v[0]};
  rk_limb limb[RK_MAX_LIMB];
  int nl = k->sk && st->skp ? rk_limbs(k->rg, k->sk, limb) : 0;
  int order[64 + RK_MAX_LIMB], nb = k->nb < 64 ? k->nb : 64, n = nb + nl;
  double depth[64 + RK_MAX_LIMB];
  for (int b = 0; b < n; b++) {
    double c[3];
    if (b < nb) memcpy(c, st->pose + 7 * b, sizeof c);
    else rk_limb_centre(&limb[b - nb], st->skp, c);
    order[b] = b;
    depth[b] = (c[0] - v->c[0]) * w[0] + (c[1] - v->c[1]) * w[1] + (c[2] - v->c[2]) * w[2];
  }
  for (int i = 1; i < n; i++)   /* insertion sort: stable, deterministic */
    for (int j = i; j > 0 && depth[order[j]] < depth[order[j - 1]]; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  /* the shapes' outlines and translucent fills were most of the side and rear views' drawing:
   * Cairo's 4×4-sample antialiasing (FAST) for them, and arcs flattened to within 0.25 px
   * (default 0.1), cost a third less and look the same; the fills not antialiased at all (their
   * edges lie under the outlines) a sixth less again (docs/render.md "Speed") */
  cairo_save(cr);
  cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST);
  cairo_set_tolerance(cr, 0.25);
  for (int i = 0; i < n; i++) {
    if (order[i] >= nb) {
      rig_shape ws;
      rk_limb_world(&limb[order[i] - nb], st->skp, &ws);
      rd_draw_shape_aliased(cr, v, &ws, NULL, fill, 0, bg);
      continue;
    }
    const rs_body* b = &k->body[order[i]];
    for (int q = 0; q < b->nshape; q++)
      rd_draw_shape_aliased(cr, v, &b->shape[q], st->pose + 7 * order[i], fill, b->wheel >= 0 && b->shape[q].type == RIG_TORUS ? spokes : 0,
                            bg);
  }
  cairo_restore(cr);
}

/* The force key, two lines left-aligned at x from y (the first line's top): a red arrow 1 kN
 * long, "Fx 1 kN" (longitudinal); a blue arrow up, "Fz" (the load), in the arrows' colours. */
#define KEY_FX "Fx 1 kN"
#define KEY_FZ "Fz load"
static const double FX_RGB[3] = {0.75, 0.1, 0.1}, FZ_RGB[3] = {0.1, 0.3, 0.75};

static void force_key(cairo_t* cr, double x, double y, double px_per_kn) {
  double em = draw_em(cr), ym = y + 0.58 * em, lw = fmax(2.5, 0.15 * em), head = fmax(9, 0.5 * em);
  draw_set_rgb(cr, FX_RGB);
  cairo_set_line_width(cr, lw);
  draw_arrow(cr, x, ym, x + px_per_kn, ym, head);
  draw_text(cr, x + px_per_kn + 0.4 * em, y, em, 0, 0, KEY_FX);
  double y2 = y + draw_line_pitch(cr, em, LINE), xa = x + 0.5 * px_per_kn;
  draw_set_rgb(cr, FZ_RGB);
  draw_arrow(cr, xa, y2 + 1.1 * em, xa, y2 + 0.05 * em, fmin(head, 0.6 * em));
  draw_text(cr, x + px_per_kn + 0.4 * em, y2, em, 0, 0, KEY_FZ);
}

/* The key's width (user units) for a given arrow length. */
static double force_key_width(cairo_t* cr, double px_per_kn) {
  double em = draw_em(cr);
  return px_per_kn + 0.4 * em + fmax(draw_text_width(cr, em, KEY_FX), draw_text_width(cr, em, KEY_FZ));
}

/* The first header line from `line` on where a left-hand item lw wide clears the right-hand
 * text on that line (rw[i]: right line i's width, nr lines; margins and a gap of one unit):
 * in a narrow view (4:3, a grid cell) the left item moves below the right column's lines. */
static int left_line(double em, double w, int line, double lw, const double* rw, int nr) {
  while (line < nr && lw + rw[line] + 2 * em > w) line++;
  return line;
}

/* The side view's header: the title and the force key at the left; at the right, the
 * suspension and each tyre's forces (10 N steps: the load cells' resolution on a data logger). */
static void side_header(cairo_t* cr, const rs_take* k, const rs_state* st, double x, double y, double w, double kn) {
  double em = draw_em(cr), xr = x + w - 0.5 * em, rw[3];
  static const int FX[2] = {RC_FFX, RC_RFX}, FZ[2] = {RC_FLOAD, RC_RLOAD};
  static const char* const TN[2] = {"side.front_forces.text", "side.rear_forces.text"}, *const WN[2] = {"front", "rear"};
  char r[3][96];
  double fork = 1000 * rs_ch(k, st, RC_FORK, 0), shock = 1000 * rs_ch(k, st, RC_SHOCK, 0), fx[2], fz[2];
  snprintf(r[0], sizeof r[0], "fork %.0f mm  shock %.0f mm", draw_shown(fork, 1), draw_shown(shock, 1));
  for (int wl = 0; wl < 2; wl++) {
    fx[wl] = rs_ch(k, st, FX[wl], 0) / 1000, fz[wl] = rs_ch(k, st, FZ[wl], 0) / 1000;
    snprintf(r[1 + wl], sizeof r[1 + wl], "%s Fx %+.2f kN  Fz %.2f kN", WN[wl], draw_shown(fx[wl], 0.01), draw_shown(fz[wl], 0.01));
  }
  for (int i = 0; i < 3; i++) rw[i] = draw_text_width(cr, em, r[i]);
  box_title(cr, x, y, "side");
  /* the key's two lines from the first line where both clear the right-hand column */
  double kw = force_key_width(cr, kn);
  int kl = 1;
  while (left_line(em, w, kl, kw, rw, 3) != kl || left_line(em, w, kl + 1, kw, rw, 3) != kl + 1) kl++;
  if (clear_of_captions(cr, x + 0.5 * em, line_y(cr, y, kl), kw, 2 * draw_line_pitch(cr, em, LINE))) force_key(cr, x + 0.5 * em, line_y(cr, y, kl), kn);
  cairo_set_source_rgb(cr, 0, 0, 0);
  hdr_text(cr, "side.suspension.text", fork, xr, line_y(cr, y, 0), 1, r[0]);
  for (int wl = 0; wl < 2; wl++) hdr_text(cr, TN[wl], fx[wl], xr, line_y(cr, y, 1 + wl), 1, r[1 + wl]);
}

void rv_side(cairo_t* cr, const rs_take* k, const rs_state* st, const rs_take* gk, const rs_state* gst, double x, double y,
             double w, double h) {
  static const double BG[3] = {0.93, 0.95, 0.98};
  box_begin(cr, x, y, w, h, BG[0], BG[1], BG[2]);
  rd_view v = rv_side_xf(k, st, x, y, w, h);
  ground(cr, &v, x, w);
  if (gk && gst) {
    rd_view gv = rv_side_xf(gk, gst, x, y, w, h);
    gv.c[0] = v.c[0], gv.c[1] = v.c[1], gv.c[2] = v.c[2];   /* the ghost where it is relative to us */
    gv.u[0] = v.u[0], gv.u[1] = v.u[1];
    draw_bodies(cr, &gv, gk, gst, 0.15, 0, BG);
  }
  draw_bodies(cr, &v, k, st, 0.45, 3, BG);
  /* hubs: a green dot at each wheel centre */
  for (int wl = 0; wl < 2; wl++) {
    double c[3], px, py;
    wheel_centre(k, st, wl, c);
    rd_project(&v, c, &px, &py);
    cairo_set_source_rgb(cr, 0, 1, 0);
    cairo_new_sub_path(cr);
    cairo_arc(cr, px, py, fmax(3, 0.012 * v.s), 0, 2 * MT_PI);
    cairo_fill(cr);
  }
  /* tyre forces at the contact patches: longitudinal (Fx) and vertical load, 1 kN = 0.15 m */
  double kn = 0.15 * v.s;
  static const int FX[2] = {RC_FFX, RC_RFX}, FZ[2] = {RC_FLOAD, RC_RLOAD};
  cairo_set_line_width(cr, 3);
  for (int wl = 0; wl < 2; wl++) {
    double p[3], px, py;
    rv_contact_point(k, st, wl, p);
    rd_project(&v, p, &px, &py);
    double fx = rs_ch(k, st, FX[wl], 0) / 1000, fz = rs_ch(k, st, FZ[wl], 0) / 1000;
    cairo_set_source_rgba(cr, FX_RGB[0], FX_RGB[1], FX_RGB[2], 0.9);
    draw_arrow(cr, px, py, px + fx * kn, py, 10);
    cairo_set_source_rgba(cr, FZ_RGB[0], FZ_RGB[1], FZ_RGB[2], 0.9);
    draw_arrow(cr, px, py, px, py - fz * kn, 10);
    static const char* const FXN[2] = {"side.front_fx", "side.rear_fx"}, *const FZN[2] = {"side.front_fz", "side.rear_fz"};
    rgl_mark(cr, FXN[wl], RGL_HBAR, fx, fmin(px, px + fx * kn), py, fabs(fx * kn), 0, px, py, px + fx * kn, py);
    rgl_mark(cr, FZN[wl], RGL_VBAR, fz, px, fmin(py, py - fz * kn), 0, fabs(fz * kn), px, py, px, py - fz * kn);
  }
  side_header(cr, k, st, x, y, w, kn);
  box_end(cr);
}

/* The rear view's header: title and lean at the left, camber and the rider at the right
 * (angles to 0.1°, the hip to 1 mm: what an IMU and a string pot would show). */
static void rear_header(cairo_t* cr, const rs_take* k, const rs_state* st, double x, double y, double w, double lean) {
  double em = draw_em(cr), xr = x + w - 0.5 * em, rw[2];
  double fc = rs_ch(k, st, RC_FCAMBER, 0), rc = rs_ch(k, st, RC_RCAMBER, lean), hip = 1000 * rs_ch(k, st, RC_HIP, 0);
  char r[2][96], l[32];
  snprintf(r[0], sizeof r[0], "camber front %+.1f°  rear %+.1f°", draw_shown(fc, 0.1), draw_shown(rc, 0.1));
  snprintf(r[1], sizeof r[1], "rider hip %+.0f mm  torso %+.1f°", draw_shown(hip, 1), draw_shown(rs_ch(k, st, RC_TORSO_LEAN, 0), 0.1));
  snprintf(l, sizeof l, "lean %+.1f°", draw_shown(lean, 0.1));
  for (int i = 0; i < 2; i++) rw[i] = draw_text_width(cr, em, r[i]);
  box_title(cr, x, y, "rear");
  cairo_set_source_rgb(cr, 0, 0, 0);
  int ll = left_line(em, w, 1, draw_text_width(cr, em, l), rw, 2);
  hdr_text(cr, "rear.lean.text", lean, x + 0.5 * em, line_y(cr, y, ll), 0, l);
  hdr_text(cr, "rear.camber.text", fc, xr, line_y(cr, y, 0), 1, r[0]);
  hdr_text(cr, "rear.rider.text", hip, xr, line_y(cr, y, 1), 1, r[1]);
}

/* Inset: the rear tyre's crown in section, with the contact point where the camber puts it, in
 * the margin right of the machine, its label under it; lifted above a caption's box it would
 * meet (render/labels.h rl_reserve), left out when the margin or the room under the header
 * (its two lines at the top of the cell) cannot hold it. */
static void rear_crown(cairo_t* cr, const rd_view* v, double x, double y, double w, double h, double camber) {
  double em = draw_em(cr), margin = x + w - (v->ox + 1.0 * v->s);   /* the machine is 2 m wide (machine_view) */
  static const char* const LABEL = "rear crown";
  double lw = draw_text_width(cr, em, LABEL), R = fmin(2.8 * em, 0.4 * margin);
  if (lw + em > margin || R < 0.8 * em) return;
  double ix = x + w - 0.5 * margin, iy = v->oy - 0.9 * v->s, below = R + 0.4 * em + draw_line_pitch(cr, em, LINE);
  rl_set ls;   /* the header's lines and the captions' boxes */
  rl_init(&ls, x, y, w, h);
  rl_take(&ls, x, y, w, line_y(cr, y, 2) - y);
  rl_take_reserved(&ls, cr);
  double hw = 0.5 * fmax(2 * R, lw);
  for (int pass = 0, moved = 1; moved && pass <= ls.n; pass++) {   /* up past every box it meets (each move is up: it ends) */
    moved = 0;
    for (int i = 0; i < ls.n; i++) {
      const double* o = ls.box[i];
      if (ix - hw < o[2] && o[0] < ix + hw && iy - R < o[3] && o[1] < iy + below) iy = o[1] - below, moved = 1;
    }
  }
  if (!rl_free(&ls, (double[4]){ix - hw, iy - R, 2 * hw, R + below})) return;
  cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
  cairo_set_line_width(cr, fmax(4, 0.18 * R));
  cairo_new_path(cr);
  cairo_arc(cr, ix, iy, R, 0.15 * MT_PI, 0.85 * MT_PI);
  cairo_stroke(cr);
  double a = MT_PI / 2 + camber * MT_PI / 180;   /* the contact moves toward the side the tyre leans to */
  cairo_set_source_rgb(cr, 0.9, 0.1, 0.1);
  cairo_new_sub_path(cr);
  cairo_arc(cr, ix + R * cos(a), iy + R * sin(a), fmax(5, 0.14 * R), 0, 2 * MT_PI);
  cairo_fill(cr);
  rgl_mark(cr, "rear.crown", RGL_DOT, camber, ix - R, iy - R, 2 * R, 2 * R, ix, iy, ix + R * cos(a), iy + R * sin(a));
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_text(cr, ix, iy + R + 0.4 * em, em, 0.5, 0, LABEL);
}

void rv_rear(cairo_t* cr, const rs_take* k, const rs_state* st, const rs_take* gk, const rs_state* gst, double x, double y,
             double w, double h) {
  static const double BG[3] = {0.95, 0.94, 0.9};
  box_begin(cr, x, y, w, h, BG[0], BG[1], BG[2]);
  rd_view v = rv_rear_xf(k, st, x, y, w, h);
  ground(cr, &v, x, w);
  if (gk && gst) {
    rd_view gv = rv_rear_xf(gk, gst, x, y, w, h);
    draw_bodies(cr, &gv, gk, gst, 0.15, 0, BG);
  }
  draw_bodies(cr, &v, k, st, 0.5, 0, BG);
  /* vertical and the lean line through the rear contact and the frame's centre */
  double cp[3], cx, cy, fx, fy;
  rv_contact_point(k, st, 1, cp);
  rd_project(&v, cp, &cx, &cy);
  rd_project(&v, st->pose + 7 * k->root, &fx, &fy);
  double dash[] = {6, 4};
  cairo_set_dash(cr, dash, 2, 0);
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  cairo_set_line_width(cr, 1.2);
  cairo_move_to(cr, cx, cy);
  cairo_line_to(cr, cx, cy - 1.4 * v.s);
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
  cairo_set_source_rgb(cr, 0.8, 0.1, 0.1);
  cairo_set_line_width(cr, 2);
  double dx = fx - cx, dy = fy - cy, L = hypot(dx, dy);
  if (L > 1) {
    cairo_move_to(cr, cx, cy);
    cairo_line_to(cr, cx + dx / L * 1.4 * v.s, cy + dy / L * 1.4 * v.s);
    cairo_stroke(cr);
    /* value: the line's angle from the vertical, degrees, positive leaning to the image's right */
    rgl_mark(cr, "rear.lean_line", RGL_NEEDLE, atan2(dx, -dy) * 180 / MT_PI, cx - 1.4 * v.s, cy - 1.4 * v.s, 2.8 * v.s, 1.4 * v.s, cx,
             cy, cx + dx / L * 1.4 * v.s, cy + dy / L * 1.4 * v.s);
  }
  /* the contact point on the road */
  cairo_set_source_rgb(cr, 0.9, 0.1, 0.1);
  cairo_new_sub_path(cr);
  cairo_arc(cr, cx, cy, 5, 0, 2 * MT_PI);
  cairo_fill(cr);
  double lean = rs_ch(k, st, RC_LEAN, 0), camber = rs_ch(k, st, RC_RCAMBER, lean);
  rear_header(cr, k, st, x, y, w, lean);
  rear_crown(cr, &v, x, y, w, h, camber);
  box_end(cr);
}

/*---- instruments ----*/

/* The instruments are drawn in two layers: what does not change between frames (the panel, the
 * bars' and dials' grey backgrounds, the slip dials' grey bands and ticks, the friction circles'
 * rings, the balance bar's end words) and what does (readings, needles,
 * dots, every other text). HUD_ALL draws both as one pass; rv_hud_cached draws HUD_STATIC once into a
 * surface and blits it, then HUD_DYNAMIC over it. Every static part lies under, or apart from, the
 * dynamic parts drawn before it in the one pass, so the two ways give the same pixels
 * (tests/unit/test_render_cache.c compares them). */
enum { HUD_ALL, HUD_STATIC, HUD_DYNAMIC };
#define HUD_S(m) ((m) != HUD_DYNAMIC)
#define HUD_D(m) ((m) != HUD_STATIC)

/* A bar filled upwards to the fraction f of its height (clamped to 0..1), logged as name. */
static void bar(cairo_t* cr, int m, const char* name, double x, double y, double w, double h, double f, const double rgb[3],
                const char* label) {
  if (HUD_S(m)) {
    cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
  }
  if (!HUD_D(m)) return;
  draw_set_rgb(cr, rgb);
  cairo_rectangle(cr, x, y + h * (1 - mt_clamp(f, 0, 1)), w, h * mt_clamp(f, 0, 1));
  cairo_fill(cr);
  rgl_mark(cr, name, RGL_VBAR, f, x, y, w, h, x + w / 2, y + h, x + w / 2, y + h * (1 - mt_clamp(f, 0, 1)));
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_text(cr, x + w / 2, y + h + 3, draw_em(cr), 0.5, 0, label);
}

/* A bar from its centre, right for v > 0, full at |v| = full; logged as name (value v/full). */
static void centred_bar(cairo_t* cr, int m, const char* name, double x, double y, double w, double h, double v, double full) {
  if (HUD_S(m)) {
    cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
  }
  if (!HUD_D(m)) return;
  double f = mt_clamp(v / full, -1, 1);
  cairo_set_source_rgb(cr, 0.2, 0.4, 0.8);
  cairo_rectangle(cr, x + w / 2, y, f * w / 2, h);
  cairo_fill(cr);
  rgl_mark(cr, name, RGL_HBAR, v / full, x, y, w, h, x + w / 2, y + h / 2, x + w / 2 + f * w / 2, y + h / 2);
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_move_to(cr, x + w / 2, y - 2);
  cairo_line_to(cr, x + w / 2, y + h + 2);
  cairo_set_line_width(cr, 1);
  cairo_stroke(cr);
}

/* A friction circle's rings (μ = 0.5, 1 and 1.5) and cross on white: the same every frame. */
static void friction_rings(cairo_t* cr, double cx, double cy, double r) {
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_new_sub_path(cr);
  cairo_arc(cr, cx, cy, r, 0, 2 * MT_PI);
  cairo_fill_preserve(cr);
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  cairo_set_line_width(cr, 1.2);
  cairo_stroke(cr);
  cairo_set_source_rgb(cr, 0.7, 0.7, 0.7);
  cairo_new_sub_path(cr);
  cairo_arc(cr, cx, cy, r / 1.5 * 0.5, 0, 2 * MT_PI);
  cairo_new_sub_path(cr);
  cairo_arc(cr, cx, cy, r / 1.5, 0, 2 * MT_PI);
  cairo_move_to(cr, cx - r, cy);
  cairo_line_to(cr, cx + r, cy);
  cairo_move_to(cr, cx, cy - r);
  cairo_line_to(cr, cx, cy + r);
  cairo_stroke(cr);
}

/* The tyre's force over its load as a dot in a circle of μ = 1.5, logged as name (value |μ|). */
static void friction_circle(cairo_t* cr, int m, const char* name, double cx, double cy, double r, double fx, double fy, double fz,
                            const char* label) {
  if (HUD_S(m)) friction_rings(cr, cx, cy, r);
  if (!HUD_D(m)) return;
  /* (Fy/Fz, Fx/Fz): the outer ring is μ = 1.5, the inner ones 0.5 and 1 */
  double mx = fz > 1 ? fy / fz : 0, my = fz > 1 ? fx / fz : 0;
  double px = cx - mt_clamp(mx, -1.6, 1.6) / 1.5 * r, py = cy - mt_clamp(my, -1.6, 1.6) / 1.5 * r;
  cairo_set_source_rgb(cr, 0.85, 0.1, 0.1);
  cairo_new_sub_path(cr);
  cairo_arc(cr, px, py, 4, 0, 2 * MT_PI);
  cairo_fill(cr);
  rgl_mark(cr, name, RGL_DOT, hypot(mx, my), cx - r, cy - r, 2 * r, 2 * r, cx, cy, px, py);
  cairo_set_source_rgb(cr, 0, 0, 0);
  char tname[40];
  snprintf(tname, sizeof tname, "%s.text", name);
  rgl_textf(cr, tname, hypot(mx, my), cx, cy + r + 3, draw_em(cr), 0.5, 0, "%s μ %.2f", label, draw_shown(hypot(mx, my), 0.01));
}

/* The six bars, left to right, each centred over its label; the gaps share what the labels leave
 * of the HUD's 276 units (the labels are at least the frame's text unit, so they set the pitch). */
static void hud_bars(cairo_t* cr, int m, const rs_take* k, const rs_state* st, double by, double bh) {
  static const double green[3] = {0.1, 0.65, 0.2}, red[3] = {0.85, 0.15, 0.1}, grey[3] = {0.4, 0.4, 0.5};
  static const char* const NAME[6] = {"hud.throttle", "hud.front_brake", "hud.rear_brake", "hud.fork", "hud.shock", "hud.rpm_bar"};
  static const char* const LABEL[6] = {"thr", "front", "rear", "fork", "shock", "rpm"};
  const double* col[6] = {green, red, red, grey, grey, grey};
  double f[6] = {rs_ch(k, st, RC_THROTTLE, 0), rs_ch(k, st, RC_FBRAKE, 0), rs_ch(k, st, RC_RBRAKE, 0), rs_ch(k, st, RC_FORK, 0) / 0.12,
                 rs_ch(k, st, RC_SHOCK, 0) / 0.06, rs_ch(k, st, RC_RPM, 0) / 14000};
  double lw[6], total = 0, em = draw_em(cr);
  for (int i = 0; i < 6; i++) total += lw[i] = fmax(draw_text_width(cr, em, LABEL[i]), 22);
  double gap = fmax(4, (276 - total) / 5), xx = 12;
  for (int i = 0; i < 6; i++) {
    bar(cr, m, NAME[i], xx + lw[i] / 2 - 11, by, 22, bh, f[i], col[i], LABEL[i]);
    xx += lw[i] + gap;
  }
}

/* The lean dial: a half circle, up is upright, ticks every 15°, the reading under its pivot. */
static void lean_dial(cairo_t* cr, double lx, double ly, double lr) {
  cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
  cairo_set_line_width(cr, 10);
  cairo_new_path(cr);
  cairo_arc(cr, lx, ly, lr, MT_PI, 2 * MT_PI);
  cairo_stroke(cr);
  cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
  cairo_set_line_width(cr, 1.5);
  for (int d = -60; d <= 60; d += 15) {
    double a = -MT_PI / 2 + d * MT_PI / 180;
    cairo_move_to(cr, lx + (lr - 8) * cos(a), ly + (lr - 8) * sin(a));
    cairo_line_to(cr, lx + (lr + 8) * cos(a), ly + (lr + 8) * sin(a));
  }
  cairo_stroke(cr);
}

static void hud_lean(cairo_t* cr, int m, double lean, double lx, double ly, double lr) {
  if (HUD_S(m)) lean_dial(cr, lx, ly, lr);
  if (!HUD_D(m)) return;
  double a = -MT_PI / 2 + mt_clamp(lean, -70, 70) * MT_PI / 180;
  cairo_set_source_rgb(cr, 0.85, 0.1, 0.1);
  cairo_set_line_width(cr, 3);
  cairo_move_to(cr, lx, ly);
  cairo_line_to(cr, lx + lr * cos(a), ly + lr * sin(a));
  cairo_stroke(cr);
  rgl_mark(cr, "hud.lean", RGL_NEEDLE, lean, lx - lr, ly - lr, 2 * lr, lr, lx, ly, lx + lr * cos(a), ly + lr * sin(a));
  cairo_set_source_rgb(cr, 0, 0, 0);
  rgl_textf(cr, "hud.lean.text", lean, lx, ly + 4, draw_em(cr), 0.5, 0, "lean %+.1f°", draw_shown(lean, 0.1));
}

/* The instruments in 300 × 600 units, scaled to the box. At 16:9 the frame's text unit is 16.9
 * of them (1280 × 720: 16 px at a scale of 0.95): the rows below are spaced for text of that
 * size. Readouts are rounded as a dash would show them: speed 1 km/h, rpm 10, angles 0.1°,
 * torque 0.1 N·m. */
static void hud_layers(cairo_t* cr, int m, const rs_take* k, const rs_state* st, double x, double y, double w, double h) {
  if (HUD_S(m)) {
    box_begin(cr, x, y, w, h, 0.97, 0.97, 0.97);
  } else {   /* the panel (its clip and box for the text record) without its background */
    draw_panel_begin(cr, x, y, w, h);
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  }
  double sc = fmin(w / 300, h / 600);
  cairo_translate(cr, x, y);
  cairo_scale(cr, sc, sc);
  double em = draw_em(cr);
  double speed = rs_ch(k, st, RC_SPEED, 0) * 3.6, rpm = rs_ch(k, st, RC_RPM, 0);
  int gear = (int)lround(rs_ch(k, st, RC_GEAR, 0));
  cairo_set_source_rgb(cr, 0, 0, 0);
  if (HUD_D(m)) {
    rgl_textf(cr, "hud.speed", speed, 12, 6, 2 * em, 0, 0, "%.0f km/h", draw_shown(speed, 1));
    rgl_textf(cr, "hud.gear", gear, 288, 6, 1.25 * em, 1, 0, "gear %d", gear);
    rgl_textf(cr, "hud.rpm", rpm, 288, 6 + draw_line_pitch(cr, 1.25 * em, 1.28), em, 1, 0, "%.0f rpm", draw_shown(rpm, 10));
  }
  hud_bars(cr, m, k, st, 56, 80);
  hud_lean(cr, m, rs_ch(k, st, RC_LEAN, 0), 150, 232, 50);
  double tq = rs_ch(k, st, RC_STEER_TORQUE, 0);
  if (HUD_D(m)) rgl_textf(cr, "hud.steer_torque.text", tq, 12, 281, em, 0, 1, "steer torque %+.1f N·m", draw_shown(tq, 0.1));
  centred_bar(cr, m, "hud.steer_torque", 12, 285, 276, 11, tq, 50);
  friction_circle(cr, m, "hud.front_grip", 80, 342, 40, rs_ch(k, st, RC_FFX, 0), rs_ch(k, st, RC_FFY, 0), rs_ch(k, st, RC_FLOAD, 0),
                  "front");
  friction_circle(cr, m, "hud.rear_grip", 220, 342, 40, rs_ch(k, st, RC_RFX, 0), rs_ch(k, st, RC_RFY, 0), rs_ch(k, st, RC_RLOAD, 0),
                  "rear");
  /* slip-angle gauges and balance (render/slip_gauges.h) */
  rsg_draw_layer(cr, m == HUD_ALL ? RSG_ALL : m == HUD_STATIC ? RSG_STATIC : RSG_DYNAMIC, k, st, 10, 410, 280, 188);
  box_end(cr);
}

double rv_hud_width(double W, double H) {
  /* at least 0.42 H wide, so that narrower frames (4:3) scale the instruments by the height as
   * 16:9 does, and their text (sized by the height) fits their rows */
  return fmax(120, round(fmax(0.24 * W, 0.42 * H)));
}

void rv_hud(cairo_t* cr, const rs_take* k, const rs_state* st, double x, double y, double w, double h) {
  hud_layers(cr, HUD_ALL, k, st, x, y, w, h);
}

/* The static layer for a box at whole pixels, on a surface as tall as the frame (the text unit,
 * which places the bars, follows the target's height); remade when the box or frame changes. */
static cairo_surface_t* hud_static(rv_cache* c, const rs_take* k, const rs_state* st, int y, int w, int h, int H) {
  if (c->hud && c->hud_key[0] == y && c->hud_key[1] == w && c->hud_key[2] == h && c->hud_key[3] == H) return c->hud;
  if (c->hud) cairo_surface_destroy(c->hud);
  c->hud = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, H);
  cairo_t* cr = cairo_create(c->hud);
  hud_layers(cr, HUD_STATIC, k, st, 0, y, w, h);
  cairo_destroy(cr);
  cairo_surface_flush(c->hud);
  c->hud_key[0] = y, c->hud_key[1] = w, c->hud_key[2] = h, c->hud_key[3] = H;
  return c->hud;
}

void rv_hud_cached(cairo_t* cr, rv_cache* c, const rs_take* k, const rs_state* st, double x, double y, double w, double h) {
  cairo_surface_t* t = cairo_get_target(cr);
  cairo_matrix_t mx;
  cairo_get_matrix(cr, &mx);
  int whole = x == floor(x) && y == floor(y) && w == floor(w) && h == floor(h) && mx.xx == 1 && mx.yy == 1 && mx.xy == 0 &&
              mx.yx == 0 && mx.x0 == floor(mx.x0) && mx.y0 == floor(mx.y0);
  /* the text record (tests) must see every text drawn; a box off the pixel grid would blit blurred */
  if (c->plain || draw_text_log_active() || cairo_surface_get_type(t) != CAIRO_SURFACE_TYPE_IMAGE || !whole) {
    rv_hud(cr, k, st, x, y, w, h);
    return;
  }
  cairo_surface_t* layer = hud_static(c, k, st, (int)y, (int)w, (int)h, cairo_image_surface_get_height(t));
  cairo_save(cr);
  cairo_rectangle(cr, x, y, w, h);
  cairo_clip(cr);
  cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
  cairo_set_source_surface(cr, layer, x, 0);
  cairo_paint(cr);
  cairo_restore(cr);
  hud_layers(cr, HUD_DYNAMIC, k, st, x, y, w, h);
}

/*---- timeline ----*/

static const double TL_COL[RS_MAX_PLOT][3] = {{1, 0.8, 0.2}, {0.4, 0.8, 1}, {0.3, 0.9, 0.3},
                                              {1, 0.3, 0.3}, {0.9, 0.5, 1}, {0.9, 0.9, 0.9}};
#define TL_BEFORE 6.0
#define TL_SPAN 10.0

/* Events of the same name less than TL_RUN_GAP apart are one run, named once ("input ×120") and
 * marked once: a ridden take records an input event per pointer move, 60 a second, and a line
 * each walled the plot off (issue 34). */
#define TL_RUN_GAP 0.5

/* The run that starts at event i: its first and last steps; returns the index after it. */
static int tl_run(const rv_cache* cc, const rs_take* k, int i, long* s0, long* s1) {
  int j;
  *s0 = *s1 = take_event_at(k->r, i)->step;
  for (j = i + 1; j < cc->nev && !strcmp(cc->evname[j], cc->evname[i]); j++) {
    long sj = take_event_at(k->r, j)->step;
    if ((sj - *s1) * k->dt >= TL_RUN_GAP) break;
    *s1 = sj;
  }
  return j;
}

/* A mark's line across the plot at x, on a pixel's centre (crisp, one pixel wide). */
static void mark_line(cairo_t* cr, double x, double y0, double ph) {
  x = floor(x) + 0.5;
  cairo_move_to(cr, x, y0);
  cairo_line_to(cr, x, y0 + ph);
  cairo_stroke(cr);
}

/* The event marks between steps' times a and b (s): per run a line at its first event and, for
 * a run of more than one, a line at its last with a faint band between. */
static void strip_marks(cairo_t* cr, const rv_cache* cc, const rs_take* k, double pps, double x0, double y0, double ph, double a,
                        double b) {
  cairo_set_line_width(cr, 1);
  for (int i = 0, j; i < cc->nev; i = j) {
    long s0, s1;
    j = tl_run(cc, k, i, &s0, &s1);
    double t0 = s0 * k->dt, t1 = s1 * k->dt, xs = x0 + t0 * pps, xe = x0 + t1 * pps;
    if (t1 < a || t0 > b) continue;
    if (j - i > 1) {
      cairo_set_source_rgba(cr, 0.4, 0.8, 1, 0.15);
      cairo_rectangle(cr, xs, y0, xe - xs, ph);
      cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0.4, 0.8, 1);
    mark_line(cr, xs, y0, ph);
    if (j - i > 1) mark_line(cr, xe, y0, ph);
  }
}

/* The curves and event marks of the whole take at pps pixels per second, time τ at x = (τ + 6)·pps. */
static void strip_draw(cairo_t* cr, const rv_cache* cc, const rs_take* k, double pps, double x0, double y0, double ph, int i0,
                       int i1) {
  for (int c = 0; c < k->nplot; c++) {
    cairo_set_source_rgb(cr, TL_COL[c][0], TL_COL[c][1], TL_COL[c][2]);
    cairo_set_line_width(cr, 1.5);
    double lo = k->plot_lo[c], hi = k->plot_hi[c];
    for (int i = i0; i <= i1; i++) {
      const double* r = k->hist + k->hs * i;
      double xx = x0 + r[RH_T] * pps, yy = y0 + ph * (1 - mt_clamp((r[RH_N + c] - lo) / (hi - lo), 0, 1));
      if (i == i0) cairo_move_to(cr, xx, yy);
      else cairo_line_to(cr, xx, yy);
    }
    cairo_stroke(cr);
  }
  strip_marks(cr, cc, k, pps, x0, y0, ph, i0 / (double)RS_HIST_HZ - 1, i1 / (double)RS_HIST_HZ + 1);
}

#define TL_NAME_ROWS 2

/* The events' names at the top of the plot (x0: where time 0 is), drawn per frame so that the
 * text record knows them. A run of same-named events (a ridden take's inputs) gets one name at
 * its first mark, or at the plot's left edge once that has scrolled off; names go left to
 * right into the first of TL_NAME_ROWS rows where they clear the names before them and the
 * plot's edges, else are left out (their marks stay): never stacked into an unreadable smear. */
static void event_names(cairo_t* cr, const rv_cache* cc, const rs_take* k, double pps, double x0, double px0, double pw, double y0,
                        double ph) {
  rl_set ls;
  rl_init(&ls, px0, y0, pw, ph);
  ls.backing = 0;   /* light text on the dark strip: no white backing */
  double em = draw_em(cr), lh = draw_line_pitch(cr, em, 1.25);
  cairo_set_source_rgb(cr, 0.6, 0.88, 1);
  for (int i = 0, j; i < cc->nev; i = j) {
    long s0, s1;
    j = tl_run(cc, k, i, &s0, &s1);
    double xs = x0 + s0 * k->dt * pps, xe = x0 + s1 * k->dt * pps;
    if (xe < px0 - 1 || xs > px0 + pw) continue;
    char buf[64];
    if (j - i > 1) snprintf(buf, sizeof buf, "%s ×%d", cc->evname[i], j - i);
    else snprintf(buf, sizeof buf, "%s", cc->evname[i]);
    double lx = fmax(xs, px0) + 0.2 * em;
    for (int r = 0; r < TL_NAME_ROWS && !rl_place_at(&ls, cr, lx, y0 + r * lh, 0, 0, em, buf); r++) {
    }
  }
}

/* A channel's value as a logger's display would print it, in the unit people read: speed in
 * km/h to 1, angles to 0.1°, forces in kN to 0.01, torques to 0.1 N·m, fractions (unit "1")
 * in % to 1, counts as integers; never an exponent. */
static void chan_text(char* out, size_t n, const char* name, const char* unit, double v) {
  char nm[48];
  snprintf(nm, sizeof nm, "%s", name);
  for (char* p = nm; *p; p++)
    if (*p == '_') *p = ' ';
  if (!strcmp(unit, "m/s")) snprintf(out, n, "%s %.0f km/h", nm, draw_shown(3.6 * v, 1));
  else if (!strcmp(unit, "deg")) snprintf(out, n, "%s %+.1f°", nm, draw_shown(v, 0.1));
  else if (!strcmp(unit, "deg/s")) snprintf(out, n, "%s %+.1f°/s", nm, draw_shown(v, 0.1));
  else if (!strcmp(unit, "N")) snprintf(out, n, "%s %.2f kN", nm, draw_shown(v / 1000, 0.01));
  else if (!strcmp(unit, "N*m")) snprintf(out, n, "%s %+.1f N·m", nm, draw_shown(v, 0.1));
  else if (!strcmp(unit, "1/min")) snprintf(out, n, "%s %.0f rpm", nm, draw_shown(v, 10));
  else if (!strcmp(unit, "m")) snprintf(out, n, "%s %.0f mm", nm, draw_shown(1000 * v, 1));
  else if (!strcmp(unit, "Pa")) snprintf(out, n, "%s %.1f kPa", nm, draw_shown(v / 1000, 0.1));
  else if (!strcmp(unit, "1") && (!strcmp(name, "gear") || !strcmp(name, "lap") || !strcmp(name, "contacts")))
    snprintf(out, n, "%s %.0f", nm, draw_shown(v, 1));
  else if (!strcmp(unit, "1")) snprintf(out, n, "%s %.0f %%", nm, draw_shown(100 * v, 1));
  else snprintf(out, n, "%s %.2f %s", nm, draw_shown(v, 0.01), unit);
}

/* The scrolling plot in its own panel (px0, py0, pw, ph), the cursor at 6 s from its left. */
static void timeline_plot(cairo_t* cr, rv_cache* cc, const rs_take* k, double t, double px0, double py0, double pw, double ph,
                          double pps) {
  double sw = (k->duration + TL_SPAN) * pps;
  draw_panel_begin(cr, px0, py0 - 2, pw, ph + 4);
  if (sw < 30000) {
    if (!cc->strip || cc->pps != pps || cc->sh != ph) {
      if (cc->strip) cairo_surface_destroy(cc->strip);
      cc->strip = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)ceil(sw), (int)ceil(ph + 4));
      cc->pps = pps;
      cc->sh = ph;
      cairo_t* sc = cairo_create(cc->strip);
      strip_draw(sc, cc, k, pps, TL_BEFORE * pps, 2, ph, 0, k->nhist - 1);
      cairo_destroy(sc);
    }
    cairo_set_source_surface(cr, cc->strip, round(px0 - t * pps), py0 - 2);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_FAST);
    cairo_paint(cr);
  } else {
    double a = t - TL_BEFORE;
    int i0 = (int)fmax(0, floor(a * RS_HIST_HZ)), i1 = (int)fmin(k->nhist - 1, ceil((a + TL_SPAN) * RS_HIST_HZ));
    strip_draw(cr, cc, k, pps, px0 + TL_BEFORE * pps - t * pps, py0, ph, i0, i1);
  }
  event_names(cr, cc, k, pps, px0 + TL_BEFORE * pps - t * pps, px0, pw, py0, ph);
  double cx = px0 + TL_BEFORE * pps;
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_set_line_width(cr, 1.5);
  cairo_move_to(cr, cx, py0);
  cairo_line_to(cr, cx, py0 + ph);
  cairo_stroke(cr);
  draw_panel_end(cr);
}

void rv_timeline(cairo_t* cr, rv_cache* cc, const rs_take* k, const rs_state* st, double t0, double t1, double x, double y,
                 double w, double h) {
  box_begin(cr, x, y, w, h, 0.16, 0.17, 0.2);
  double t = st->t, em = draw_em(cr), lh = draw_line_pitch(cr, em, 1.25);   /* a text's box is 1.19 em tall at 16 px */
  /* the top row: the time, the whole take as a bar with the cursor and the event marks, the length */
  double tw = draw_text_width(cr, em, "000.00 s"), bx = x + tw + em, bw = w - 2 * (tw + em), by = y + 0.3 * em + 0.5 * lh - 3;
  cairo_set_source_rgb(cr, 0.35, 0.35, 0.4);
  cairo_rectangle(cr, bx, by, bw, 6);
  cairo_fill(cr);
  double f = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
  cairo_set_source_rgb(cr, 1, 0.8, 0.2);
  cairo_rectangle(cr, bx, by, bw * mt_clamp(f, 0, 1), 6);
  cairo_fill(cr);
  rgl_mark(cr, "timeline.progress", RGL_HBAR, f, bx, by, bw, 6, bx, by + 3, bx + bw * mt_clamp(f, 0, 1), by + 3);
  cairo_set_source_rgb(cr, 1, 1, 1);
  rgl_textf(cr, "timeline.time.text", t, x + 0.5 * em, y + 0.3 * em, em, 0, 0, "%.2f s", t);
  rgl_textf(cr, "timeline.duration.text", k->duration, x + w - 0.5 * em, y + 0.3 * em, em, 1, 0, "%.1f s", k->duration);
  cairo_set_source_rgb(cr, 0.4, 0.8, 1);
  for (int i = 0, j; i < cc->nev; i = j) {   /* a run: ticks at its ends, a thin line under the bar between */
    long s0, s1;
    j = tl_run(cc, k, i, &s0, &s1);
    double xs = bx + bw * s0 * k->dt / fmax(k->duration, 1e-9), xe = bx + bw * s1 * k->dt / fmax(k->duration, 1e-9);
    cairo_rectangle(cr, xs - 1, by - 3, 2, 12);
    if (j - i > 1) {
      cairo_rectangle(cr, xe - 1, by - 3, 2, 12);
      cairo_rectangle(cr, xs, by + 7, xe - xs, 2);
    }
  }
  cairo_fill(cr);
  /* the legend: each channel with its value now, as wide as its longest text may be */
  double lw = 0, py0 = y + 0.3 * em + 1.2 * lh;
  char buf[96];
  for (int c = 0; c < k->nplot; c++) {
    int j = k->plot_ch[c];
    chan_text(buf, sizeof buf, k->s->chan_names[j], k->s->chan_units[j], -8888.8);
    lw = fmax(lw, draw_text_width(cr, em, buf));
  }
  for (int c = 0; c < k->nplot; c++) {
    int j = k->plot_ch[c];
    cairo_set_source_rgb(cr, TL_COL[c][0], TL_COL[c][1], TL_COL[c][2]);
    char name[40];
    snprintf(name, sizeof name, "timeline.legend.%d.text", c);
    chan_text(buf, sizeof buf, k->s->chan_names[j], k->s->chan_units[j], st->chan[j]);
    rgl_text(cr, name, st->chan[j], x + 0.5 * em, py0 + c * lh, em, 0, 0, buf);
  }
  /* the scrolling plot: the last 6 s and the next 4 s, blitted from the whole-take strip */
  double px0 = x + lw + 1.5 * em, pw = x + w - 0.5 * em - px0, ph = y + h - 4 - py0, pps = pw / TL_SPAN;
  timeline_plot(cr, cc, k, t, px0, py0, pw, ph, pps);
  box_end(cr);
}
