/* slip_gauges.c — slip-angle gauges and the balance indicator of the HUD (see slip_gauges.h). */
#include "render/slip_gauges.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/draw.h"
#include "render/gauge_log.h"
#include "takes/slip.h"

#define RANGE 12.0   /* deg at either end of a dial */

static double chan_named(const rs_take* k, const rs_state* st, const char* name, double dflt) {
  for (int i = 0; i < k->s->nchan; i++)
    if (!strcmp(k->s->chan_names[i], name)) return st->chan[i];
  return dflt;
}

/* angle on the dial (screen radians) of slip angle a: −RANGE at the left, +RANGE at the right */
static double dial_angle(double a) { return MT_PI + MT_PI * (mt_clamp(a, -RANGE, RANGE) + RANGE) / (2 * RANGE); }

static void arc_band(cairo_t* cr, double cx, double cy, double r, double a0, double a1, double rr, double g, double b) {
  if (a1 < a0) {
    double t = a0;
    a0 = a1;
    a1 = t;
  }
  cairo_set_source_rgb(cr, rr, g, b);
  cairo_set_line_width(cr, 9);
  cairo_new_path(cr);
  cairo_arc(cr, cx, cy, r, dial_angle(a0), dial_angle(a1));
  cairo_stroke(cr);
}

/* One dial, logged as name (the needle), name.text and name.optimum (render/gauge_log.h); the
 * grey band and the ticks are its static part (RSG_STATIC), under the bands and the needle. */
static void dial(cairo_t* cr, int m, const char* name, double cx, double cy, double r, double alpha, double opt, int side,
                 const char* label) {
  if (m & RSG_STATIC) {
    arc_band(cr, cx, cy, r, -RANGE, RANGE, 0.85, 0.85, 0.85);
    cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
    cairo_set_line_width(cr, 1.2);
    for (int d = -12; d <= 12; d += 3) {
      double a = dial_angle(d), l = d % 6 ? 4 : 8;
      cairo_move_to(cr, cx + (r - 5 - l) * cos(a), cy + (r - 5 - l) * sin(a));
      cairo_line_to(cr, cx + (r - 5) * cos(a), cy + (r - 5) * sin(a));
    }
    cairo_stroke(cr);
  }
  if (!(m & RSG_DYNAMIC)) return;
  if (isfinite(opt)) {
    double edge = side * fmin(opt, RANGE);
    arc_band(cr, cx, cy, r, 0, edge, 0.55, 0.82, 0.55);
    arc_band(cr, cx, cy, r, edge, side * RANGE, 0.93, 0.6, 0.55);
  }
  double a = dial_angle(alpha);
  cairo_set_source_rgb(cr, fabs(alpha) > RANGE ? 0.6 : 0.85, 0.1, 0.1);
  cairo_set_line_width(cr, 2.5);
  cairo_move_to(cr, cx, cy);
  cairo_line_to(cr, cx + (r + 4) * cos(a), cy + (r + 4) * sin(a));
  cairo_stroke(cr);
  rgl_mark(cr, name, RGL_NEEDLE, alpha, cx - r, cy - r, 2 * r, r, cx, cy, cx + (r + 4) * cos(a), cy + (r + 4) * sin(a));
  cairo_set_source_rgb(cr, 0, 0, 0);
  char tn[40];
  snprintf(tn, sizeof tn, "%s.text", name);
  double em = draw_em(cr);
  rgl_textf(cr, tn, alpha, cx, cy + 3, em, 0.5, 0, "%s %+.1f°", label, draw_shown(alpha, 0.1));
  snprintf(tn, sizeof tn, "%s.optimum", name);
  if (isfinite(opt)) rgl_textf(cr, tn, opt, cx, cy + 3 + draw_line_pitch(cr, em, 1.25), em, 0.5, 0, "optimum %.1f°", draw_shown(opt, 0.1));
}

void rsg_draw(cairo_t* cr, const rs_take* k, const rs_state* st, double x, double y, double w, double h) {
  rsg_draw_layer(cr, RSG_ALL, k, st, x, y, w, h);
}

void rsg_draw_layer(cairo_t* cr, int m, const rs_take* k, const rs_state* st, double x, double y, double w, double h) {
  draw_panel_begin(cr, x, y, w, h);
  /* from the bottom up: the balance bar's two ends' words, the bar, its reading, then the dials
   * with their two lines of text under the pivots, each row one text unit (draw_em) tall */
  double em = draw_em(cr), lh = draw_line_pitch(cr, em, 1.25);
  double by = y + h - 2 - lh - 10, btop = by - 3 - lh;
  double af = rs_ch(k, st, RC_FSLIP, 0), ar = rs_ch(k, st, RC_RSLIP, 0);
  const double D2R = MT_PI / 180;
  double opt[2] = {NAN, NAN};
  int side[2] = {1, 1};
  const int rcl[2] = {RC_FLOAD, RC_RLOAD}, rcg[2] = {RC_FCAMBER, RC_RCAMBER}, rcy[2] = {RC_FFY, RC_RFY};
  const char* kap[2] = {"front_slip_ratio", "rear_slip_ratio"};
  for (int wi = 0; (m & RSG_DYNAMIC) && wi < 2; wi++) {
    double fz = rs_ch(k, st, rcl[wi], 0);
    side[wi] = rs_ch(k, st, rcy[wi], 0) >= 0 ? 1 : -1;
    if (k->rg && fz > 50)
      opt[wi] = slip_peak_alpha(&k->rg->wheel[wi].tyre, fz, chan_named(k, st, kap[wi], 0), rs_ch(k, st, rcg[wi], 0) * D2R,
                                side[wi]) / D2R;
  }
  double r = fmin(w / 4 - 8, btop - 5 - 2 * lh - (y + 14));
  dial(cr, m, "hud.front_slip", x + w / 4, y + 14 + r, r, af, opt[0], side[0], "front");
  dial(cr, m, "hud.rear_slip", x + 3 * w / 4, y + 14 + r, r, ar, opt[1], side[1], "rear");
  /* balance: |α_f| − |α_r|, magnitudes, so that right of centre is "the front slips more" in
   * either direction of turn (the signed difference flips with the turn) */
  double diff = fabs(af) - fabs(ar), bx = x + 8, bw = w - 16;
  double mx = bx + bw / 2, px = mx + mt_clamp(diff / 3, -1, 1) * bw / 2;
  if (m & RSG_STATIC) {   /* the bar's grey and the words at its ends: apart from the reading */
    cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
    cairo_rectangle(cr, bx, by, bw, 8);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    draw_text(cr, bx, by + 11, em, 0, 0, "← rear slips");
    draw_text(cr, bx + bw, by + 11, em, 1, 0, "front slips →");
  }
  if (m & RSG_DYNAMIC) {
    if (diff > 0) cairo_set_source_rgb(cr, 0.2, 0.45, 0.85);
    else cairo_set_source_rgb(cr, 0.9, 0.5, 0.1);
    cairo_rectangle(cr, fmin(mx, px), by, fabs(px - mx), 8);
    cairo_fill(cr);
    rgl_mark(cr, "hud.balance", RGL_HBAR, diff / 3, bx, by, bw, 8, mx, by + 4, px, by + 4);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, mx - 0.75, by - 3, 1.5, 14);
    cairo_fill(cr);
    rgl_textf(cr, "hud.balance.text", diff, mx, by - 3, em, 0.5, 1, "balance |α_f| − |α_r| %+.1f°", draw_shown(diff, 0.1));
  }
  draw_panel_end(cr);
}
