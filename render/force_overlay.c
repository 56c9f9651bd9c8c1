/* force_overlay.c — bar push, steer angle and tyre forces (see force_overlay.h). */
#include "render/force_overlay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/draw.h"
#include "render/gauge_log.h"
#include "render/views.h"
#include "sim/tyre.h"

static const double RED[3] = {0.8, 0.1, 0.1}, GREEN[3] = {0.05, 0.55, 0.2}, DARK[3] = {0.1, 0.1, 0.12},
                    PUSH[3] = {0.95, 0.45, 0.0};
static const int FX[2] = {RC_FFX, RC_RFX}, FY[2] = {RC_FFY, RC_RFY}, FZ[2] = {RC_FLOAD, RC_RLOAD},
                 CAMBER[2] = {RC_FCAMBER, RC_RCAMBER};

static double chan(const rs_take* k, const rs_state* st, const char* name, double dflt) {
  for (int i = 0; i < k->s->nchan; i++)
    if (!strcmp(k->s->chan_names[i], name)) return st->chan[i];
  return dflt;
}

static void rgb_a(cairo_t* cr, const double c[3], double a) { cairo_set_source_rgba(cr, c[0], c[1], c[2], a); }

void tf_limits(const rs_take* k, const rs_state* st, int w, double* dx, double* dy) {
  double fz = rs_ch(k, st, FZ[w], 0);
  *dx = *dy = 0;
  if (!k->rg || !(fz > 1) || k->rg->wheel[w].tyre.model != TYRE_MODEL_MF) return;
  tyre_forces_t f;   /* the peak factors depend on load and camber only */
  tyre_forces(&k->rg->wheel[w].tyre, fz, 0, 0, rs_ch(k, st, CAMBER[w], 0) * MT_PI / 180, &f);
  *dx = fabs(f.dx), *dy = fabs(f.dy);
}

/* A translucent white panel behind an inset. */
static void inset_bg(cairo_t* cr, double x, double y, double s) {
  cairo_set_source_rgba(cr, 1, 1, 1, 0.82);
  cairo_rectangle(cr, x, y, s, s);
  cairo_fill(cr);
  cairo_set_source_rgba(cr, 0, 0, 0, 0.35);
  cairo_set_line_width(cr, 1);
  cairo_rectangle(cr, x + 0.5, y + 0.5, s - 1, s - 1);
  cairo_stroke(cr);
}

/*---- the bars from above ----*/

/* The front wheel turned by d (rad, left positive) about (cx, cy), ahead of the bars, with the
 * arc from straight ahead to its heading. */
static void steer_wheel(cairo_t* cr, double cx, double cy, double s, double d, double u) {
  double L = 0.3 * s, W = 0.06 * s, fx = -sin(d), fy = -cos(d);   /* heading on screen (up = forward) */
  double wx = cx + fx * 0.2 * s, wy = cy + fy * 0.2 * s;            /* the wheel's centre, ahead */
  cairo_save(cr);
  cairo_translate(cr, wx, wy);
  cairo_rotate(cr, -d);   /* screen y is down: a left (counter-clockwise from above) turn is −d here */
  cairo_set_source_rgb(cr, 0.2, 0.2, 0.22);
  cairo_rectangle(cr, -W / 2, -L / 2, W, L);
  cairo_fill(cr);
  cairo_restore(cr);
  double dash[] = {0.25 * u, 0.2 * u};
  cairo_set_dash(cr, dash, 2, 0);
  cairo_set_source_rgba(cr, 0, 0, 0, 0.5);
  cairo_set_line_width(cr, 1);
  cairo_move_to(cr, cx, cy);
  cairo_line_to(cr, cx, cy - 0.42 * s);
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
  double R = 0.36 * s, a0 = -MT_PI / 2, a1 = -MT_PI / 2 - d;   /* straight ahead → the heading */
  rgb_a(cr, GREEN, 1);
  cairo_set_line_width(cr, fmax(2, 0.12 * u));
  cairo_new_path(cr);
  if (a1 < a0) cairo_arc_negative(cr, cx, cy, R, a0, a1);
  else cairo_arc(cr, cx, cy, R, a0, a1);
  cairo_stroke(cr);
  rgl_mark(cr, "teach.steer", RGL_NEEDLE, d * 180 / MT_PI, cx - R, cy - R, 2 * R, R, cx, cy, cx + R * cos(a1), cy + R * sin(a1));
}

void tf_bars_inset(cairo_t* cr, const rs_take* k, const rs_state* st, double x, double y, double s, double u) {
  draw_panel_begin(cr, x, y, s, s);   /* its text is held inside it (render/draw.h's record) */
  inset_bg(cr, x, y, s);
  double d = chan(k, st, "steer_angle", 0) * MT_PI / 180, tq = rs_ch(k, st, RC_STEER_TORQUE, 0);
  double cx = x + 0.5 * s, cy = y + 0.62 * s, hb = 0.34 * s;
  steer_wheel(cr, cx, cy, s, d, u);
  /* the handlebar, square to the wheel: the right grip (cos d, −sin d) of the pivot */
  double rx = cos(d), ry = -sin(d);
  cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
  cairo_set_line_width(cr, fmax(3, 0.2 * u));
  cairo_move_to(cr, cx - hb * rx, cy - hb * ry);
  cairo_line_to(cr, cx + hb * rx, cy + hb * ry);
  cairo_stroke(cr);
  double sz = fmax(0.75 * u, draw_em(cr));   /* 2.25 % of the frame's height, never under the house minimum */
  /* the steer angle in the arc's colour, with its direction in words (a countersteer's is
   * under a degree: the arc alone would not show which way) */
  double deg = d * 180 / MT_PI;
  rgb_a(cr, GREEN, 1);
  if (fabs(deg) < 0.05) rgl_text(cr, "teach.steer.text", 0, x + 0.04 * s, y + 0.04 * s, sz, 0, 0, "steer 0°");
  else rgl_textf(cr, "teach.steer.text", deg, x + 0.04 * s, y + 0.04 * s, sz, 0, 0, "%.1f° %s", fabs(deg), deg > 0 ? "left" : "right");
  /* the push: on the right grip for torque > 0 (it turns the wheel left: docs/conventions.md) */
  int side = tq > 0 ? 1 : -1;
  double gx = cx + side * hb * rx, gy = cy + side * hb * ry, len = fmin(fabs(tq) / TF_NM_FULL, 1.2) * 0.5 * s;
  if (fabs(tq) >= 0.5) {
    rgb_a(cr, PUSH, 1);
    cairo_set_line_width(cr, fmax(3, 0.25 * u));
    co_arrow(cr, gx, gy, gx, gy - len, 0.7 * u);
    rgl_mark(cr, "teach.push", RGL_VBAR, tq, gx - 0.5 * u, gy - 0.6 * s, u, 0.6 * s, gx, gy, gx, gy - len);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  if (fabs(tq) >= 0.5) {
    /* a line's pitch apart (draw_line_pitch: at small sizes the font's hinting makes a line's
     * box taller than 1.2 × its size, and the two met) */
    draw_text(cr, x + 0.04 * s, y + s - 0.04 * s - draw_line_pitch(cr, sz, 1.3), sz, 0, 1, side > 0 ? "push right" : "push left");
    rgl_textf(cr, "teach.push.text", tq, x + 0.04 * s, y + s - 0.04 * s, sz, 0, 1, "%.0f N·m", fabs(tq));
  } else {
    draw_text(cr, x + 0.04 * s, y + s - 0.04 * s, sz, 0, 1, "no push");
  }
  draw_panel_end(cr);
}

/*---- the friction ellipse ----*/

void tf_friction_inset(cairo_t* cr, const rs_take* k, const rs_state* st, int w, double x, double y, double s, double u) {
  static const char* const NAME[2][5] = {{"teach.front_fx", "teach.front_fy", "teach.front_grip", "teach.front_grip.text", "front"},
                                         {"teach.rear_fx", "teach.rear_fy", "teach.rear_grip", "teach.rear_grip.text", "rear"}};
  draw_panel_begin(cr, x, y, s, s);
  inset_bg(cr, x, y, s);
  double dx, dy, fx = rs_ch(k, st, FX[w], 0), fy = rs_ch(k, st, FY[w], 0);
  tf_limits(k, st, w, &dx, &dy);
  double cx = x + 0.5 * s, cy = y + 0.5 * s, r = 0.36 * s, big = fmax(dx, dy);
  double sc = big > 0 ? r / big : 0;   /* px per N */
  cairo_save(cr);   /* the ellipse and the arrows in 4 × 4 samples (see tf_ground_forces) */
  cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST);
  cairo_set_source_rgba(cr, 0, 0, 0, 0.6);
  cairo_set_line_width(cr, 1.2);
  if (big > 0) {
    cairo_save(cr);
    cairo_translate(cr, cx, cy);
    cairo_scale(cr, dy * sc, dx * sc);
    cairo_new_path(cr);
    cairo_arc(cr, 0, 0, 1, 0, 2 * MT_PI);
    cairo_restore(cr);
    cairo_stroke(cr);
  }
  double ex = cx - fy * sc, ey = cy - fx * sc;   /* Fy to the left, Fx forward (up) */
  /* the resultant first, wide, and its parts over it (a force nearly along one axis would
   * otherwise hide that part under the resultant) */
  rgb_a(cr, DARK, 0.85);
  cairo_set_line_width(cr, fmax(4, 0.3 * u));
  co_arrow(cr, cx, cy, ex, ey, 0.7 * u);
  double mag = hypot(fx, fy);
  rgl_mark(cr, NAME[w][2], RGL_DOT, mag, cx - r, cy - r, 2 * r, 2 * r, cx, cy, ex, ey);
  cairo_set_line_width(cr, fmax(2, 0.12 * u));
  rgb_a(cr, RED, 1);
  co_arrow(cr, cx, cy, cx, ey, 0.5 * u);
  rgl_mark(cr, NAME[w][0], RGL_VBAR, fx, cx - 0.2 * u, cy - r, 0.4 * u, 2 * r, cx, cy, cx, ey);
  rgb_a(cr, GREEN, 1);
  co_arrow(cr, cx, cy, ex, cy, 0.5 * u);
  rgl_mark(cr, NAME[w][1], RGL_HBAR, fy, cx - r, cy - 0.2 * u, 2 * r, 0.4 * u, cx, cy, ex, cy);
  cairo_restore(cr);
  /* the share of the limit in the force's own direction: on the ellipse, 100 % */
  double lim = (dx > 0 && dy > 0 && mag > 0) ? 1 / sqrt(fx * fx / (mag * mag * dx * dx) + fy * fy / (mag * mag * dy * dy)) : 0;
  cairo_set_source_rgb(cr, 0, 0, 0);
  double sz = fmax(0.75 * u, draw_em(cr));
  draw_text(cr, x + 0.04 * s, y + 0.04 * s, sz, 0, 0, NAME[w][4]);
  if (lim > 0) rgl_textf(cr, NAME[w][3], 100 * mag / lim, x + 0.96 * s, y + s - 0.04 * s, sz, 1, 1, "%.0f %% grip", 100 * mag / lim);
  else rgl_text(cr, NAME[w][3], NAN, x + 0.96 * s, y + s - 0.04 * s, sz, 1, 1, "off road");
  draw_panel_end(cr);
}

/*---- in the picture ----*/

static int body_of_wheel(const rs_take* k, int w, const rig_shape** torus) {
  for (int b = 0; b < k->nb; b++) {
    if (k->body[b].wheel != w) continue;
    for (int i = 0; i < k->body[b].nshape; i++)
      if (k->body[b].shape[i].type == RIG_TORUS) return *torus = &k->body[b].shape[i], b;
  }
  return -1;
}

/* Wheel w's contact frame on a level road: l along its heading, lat to its left. */
static int wheel_frame(const rs_take* k, const rs_state* st, int w, double l[3], double lat[3]) {
  const rig_shape* sh = NULL;
  int b = body_of_wheel(k, w, &sh);
  if (b < 0) return 0;
  double a[3], left[3], y[3] = {0, 1, 0};
  rs_rotate(st->pose + 7 * b + 3, sh->axis, a);
  rs_rotate(st->pose + 7 * k->root + 3, y, left);
  if (a[0] * left[0] + a[1] * left[1] + a[2] * left[2] < 0) a[0] = -a[0], a[1] = -a[1], a[2] = -a[2];
  double n = hypot(a[0], a[1]);   /* l = a × z, lat = z × l */
  if (n < 1e-9) return 0;
  l[0] = a[1] / n, l[1] = -a[0] / n, l[2] = 0;
  lat[0] = -l[1], lat[1] = l[0], lat[2] = 0;
  return 1;
}

/* An arrow between two world points, projected; 0 when it cannot be drawn. */
static int arrow3(cairo_t* cr, const co_proj* pr, const double p[3], const double q[3], double head, double out[2][2]) {
  if (!co_project(pr, p, out[0]) || !co_project(pr, q, out[1])) return 0;
  co_arrow(cr, out[0][0], out[0][1], out[1][0], out[1][1], head);
  return 1;
}

void tf_push_arrow(cairo_t* cr, const co_proj* pr, const co_places* pl, const rs_take* k, const rs_state* st, double u) {
  double tq = rs_ch(k, st, RC_STEER_TORQUE, 0), g[3], f[3], x[3] = {1, 0, 0}, px[2][2];
  if (fabs(tq) < 0.5 || !co_grip(pl, k, st, tq > 0 ? 1 : 0, g)) return;
  rs_rotate(st->pose + 7 * k->root + 3, x, f);
  double L = 0.02 * fmin(fabs(tq), 1.2 * TF_NM_FULL), q[3] = {g[0] + L * f[0], g[1] + L * f[1], g[2] + L * f[2]};
  cairo_save(cr);
  rgb_a(cr, PUSH, 1);
  cairo_set_line_width(cr, fmax(3, 0.25 * u));
  if (arrow3(cr, pr, g, q, 0.7 * u, px)) {
    cairo_set_source_rgb(cr, 0, 0, 0);
    rgl_mark(cr, "teach.push3d", RGL_HBAR, tq, fmin(px[0][0], px[1][0]), fmin(px[0][1], px[1][1]), fabs(px[1][0] - px[0][0]),
             fabs(px[1][1] - px[0][1]), px[0][0], px[0][1], px[1][0], px[1][1]);
  }
  cairo_restore(cr);
}

/* The friction ellipse of wheel w on the road about p (perspective views), 48 segments. */
static void ground_ellipse(cairo_t* cr, const co_proj* pr, const double p[3], const double l[3], const double lat[3], double ax,
                           double ay) {
  int pen = 0;
  for (int i = 0; i <= 48; i++) {
    double a = 2 * MT_PI * i / 48, q[3], px[2];
    for (int j = 0; j < 3; j++) q[j] = p[j] + ax * cos(a) * l[j] + ay * sin(a) * lat[j];
    if (!co_project(pr, q, px)) {
      pen = 0;
      continue;
    }
    if (pen) cairo_line_to(cr, px[0], px[1]);
    else cairo_move_to(cr, px[0], px[1]);
    pen = 1;
  }
  cairo_stroke(cr);
}

/* The rear view's labels of the lateral forces: which tyre, kN, left or right; stacked above
 * the higher arrow (the rear's lowest), each centred on its arrow's tip and kept inside the box,
 * each on a light plate. */
static void fy_labels(cairo_t* cr, co_proj* pr, const rs_take* k, const rs_state* st, const double tip[2][2], const int drawn[2],
                      double u) {
  static const char* const TEXT[2] = {"teach.front_fy3d.text", "teach.rear_fy3d.text"};
  double sz = fmax(0.75 * u, draw_em(cr)), top = INFINITY;
  for (int w = 0; w < 2; w++)
    if (drawn[w]) top = fmin(top, tip[w][1]);
  cairo_set_source_rgb(cr, 0, 0, 0);
  for (int w = 1, row = 0; w >= 0; w--) {
    if (!drawn[w]) continue;
    double f = rs_ch(k, st, FY[w], 0);
    char buf[64];
    snprintf(buf, sizeof buf, "%s %.2f kN %s", w ? "rear" : "front", fabs(f) / 1000, f > 0 ? "left" : "right");
    cairo_save(cr);
    cairo_set_font_size(cr, sz);
    cairo_text_extents_t te;
    cairo_text_extents(cr, buf, &te);
    cairo_restore(cr);
    double half = 0.5 * te.x_advance + 0.2 * u;
    double x = mt_clamp(tip[w][0], pr->x + half, fmax(pr->x + half, pr->x + pr->w - half));
    double y = top - 0.5 * u - row * 1.3 * sz;
    /* up past every box it would meet (pr->avoid: the captions', the label drawn before it); each
     * move is up, so this ends */
    for (int pass = 0, moved = 1; moved && pass <= pr->navoid; pass++) {
      moved = 0;
      for (int i = 0; i < pr->navoid; i++) {
        const double* a = pr->avoid[i];
        if (x - half < a[2] && a[0] < x + half && y - 1.3 * sz < a[3] && a[1] < y) y = a[1], moved = 1;
      }
    }
    y = fmax(y, pr->y + (2 - row) * 1.3 * sz);
    /* on a light plate: lifted clear of the captions they often lie over the machine and rider */
    cairo_save(cr);   /* the ink's box (rgl_text's anchor: y the bottom of the font's box) and a margin */
    cairo_set_font_size(cr, sz);
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    cairo_restore(cr);
    double m = fmax(0.25 * sz, 3), base = y - fe.descent;
    cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
    cairo_rectangle(cr, x - 0.5 * te.x_advance - m, base + te.y_bearing - m, te.x_advance + 2 * m, te.height + 2 * m);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    rgl_text(cr, TEXT[w], f / 1000, x, y, sz, 0.5, 1, buf);
    if (pr->navoid < (int)(sizeof pr->avoid / sizeof pr->avoid[0])) {   /* the callouts drawn next keep off it */
      double* a = pr->avoid[pr->navoid++];
      a[0] = x - half, a[1] = y - 1.3 * sz, a[2] = x + half, a[3] = y;
    }
    row++;
  }
}

void tf_ground_forces(cairo_t* cr, co_proj* pr, const rs_take* k, const rs_state* st, double u) {
  static const char* const NAME[2] = {"teach.front_fy3d", "teach.rear_fy3d"};
  double tip[2][2] = {{0, 0}, {0, 0}};
  int drawn[2] = {0, 0};
  cairo_save(cr);
  /* the ellipses and arrows with Cairo's 4 × 4 samples (FAST), as the machine's outlines: in the
   * default antialiasing a 48-segment ellipse's stroke cost 180 000 instructions, as much as ten
   * of the chase view's faces (docs/render.md "Speed") */
  cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST);
  for (int w = 0; w < 2; w++) {
    double p[3], l[3], lat[3], px[2][2];
    if (!wheel_frame(k, st, w, l, lat)) continue;
    rv_contact_point(k, st, w, p);
    double s = TF_M_PER_KN / 1000, fx = rs_ch(k, st, FX[w], 0) * s, fy = rs_ch(k, st, FY[w], 0) * s, dx, dy;
    double qx[3], qy[3], qr[3];
    for (int j = 0; j < 3; j++) qx[j] = p[j] + fx * l[j], qy[j] = p[j] + fy * lat[j], qr[j] = p[j] + fx * l[j] + fy * lat[j];
    tf_limits(k, st, w, &dx, &dy);
    cairo_set_line_width(cr, fmax(1.5, 0.1 * u));
    if (dx > 0) {   /* seen from behind (rear view) the ellipse is edge-on: the span ±Dy on the road */
      cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
      ground_ellipse(cr, pr, p, l, lat, dx * s, dy * s);
    }
    rgb_a(cr, DARK, 0.85);   /* the resultant under its parts, as in the inset */
    cairo_set_line_width(cr, fmax(4, 0.3 * u));
    arrow3(cr, pr, p, qr, 0.7 * u, px);
    cairo_set_line_width(cr, fmax(2, 0.12 * u));
    rgb_a(cr, RED, 1);
    arrow3(cr, pr, p, qx, 0.6 * u, px);
    rgb_a(cr, GREEN, 1);
    if (!arrow3(cr, pr, p, qy, 0.6 * u, px)) continue;
    rgl_mark(cr, NAME[w], RGL_HBAR, rs_ch(k, st, FY[w], 0), fmin(px[0][0], px[1][0]), fmin(px[0][1], px[1][1]), fabs(px[1][0] - px[0][0]),
             fabs(px[1][1] - px[0][1]), px[0][0], px[0][1], px[1][0], px[1][1]);
    tip[w][0] = px[1][0], tip[w][1] = fmin(px[0][1], px[1][1]), drawn[w] = 1;
  }
  if (pr->kind == CO_ORTHO) fy_labels(cr, pr, k, st, tip, drawn, u);
  cairo_restore(cr);
}
