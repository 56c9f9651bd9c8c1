/* locus.c — root locus, frequency and damping of a steady-state series (see locus.h). */
#include "render/locus.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/draw.h"

#define W 1700
#define H 900

static const int NAME_COLOR[MD_NNAMED] = {1, 0, 2, 3};   /* weave, wobble, capsize, chatter */

/* The locus: every mode up to max_hz as a dot coloured by the series variable, the named ones
 * joined in their colours and labelled at the series' end, re = 0 marked. */
static void panel_locus(cairo_t* cr, const lc_series* s, double x, double y, double w, double h) {
  /* up to the highest named mode (and at least 12 Hz), within max_hz */
  double remin = 0, remax = 0, immax = 2 * MT_PI * 12;
  for (int i = 0; i < s->n; i++)
    for (int nm = 0; nm < MD_NNAMED; nm++) {
      const md_mode* m = md_find(&s->pts[i], nm);
      if (m) immax = fmax(immax, 1.12 * m->im);
    }
  immax = fmin(immax, 2 * MT_PI * s->max_hz);
  for (int i = 0; i < s->n; i++) {
    const md_point* p = &s->pts[i];
    if (!p->ok) continue;
    for (int k = 0; k < p->nmode; k++) {
      const md_mode* m = &p->mode[k];
      if (m->im > immax) continue;
      if (m->name != MD_OTHER || m->re > -40) {
        if (m->re < remin) remin = m->re;
        if (m->re > remax) remax = m->re;
      }
    }
  }
  remin = fmax(remin, -60);
  double pad = 0.05 * (remax - remin + 1);
  draw_plot pl = {0};
  pl.title = s->title;
  pl.xlabel = "real part (1/s)";
  pl.ylabel = "imaginary part (rad/s)";
  pl.fixed_x = pl.fixed_y = 1;
  pl.xmin = remin - pad;
  pl.xmax = fmax(remax, 0) + 4 * pad;
  pl.ymin = -0.02 * immax;
  pl.ymax = immax;
  pl.zero_lines = 1;
  pl.legend = 2;
  /* the named modes' paths as series (for the legend and the joining lines) */
  double* xy = malloc(sizeof(double) * 2 * MD_NNAMED * (s->n + 1));
  for (int nm = 0; nm < MD_NNAMED; nm++) {
    double *xs = xy + 2 * nm * (s->n + 1), *ys = xs + s->n + 1;
    int cnt = 0, any = 0;
    for (int i = 0; i < s->n; i++) {
      const md_mode* m = md_find(&s->pts[i], nm);
      xs[cnt] = m ? m->re : NAN;
      ys[cnt] = m ? m->im : NAN;
      any |= m != NULL;
      cnt++;
    }
    if (!any) continue;
    int si = draw_plot_add(&pl, xs, ys, cnt, md_names[nm], NAME_COLOR[nm], 0);
    pl.s[si].width = 1.5;
  }
  draw_plot_render(cr, x, y, w, h, &pl);
  draw_map mp = draw_plot_map(&pl, x, y, w, h);
  cairo_save(cr);
  cairo_rectangle(cr, mp.x0, mp.y0, mp.w, mp.h);
  cairo_clip(cr);
  /* the unstable half-plane, shaded, and its boundary */
  double x0 = draw_map_x(&mp, 0);
  cairo_set_source_rgba(cr, 0.85, 0.1, 0.1, 0.06);
  cairo_rectangle(cr, x0, mp.y0, mp.x0 + mp.w - x0, mp.h);
  cairo_fill(cr);
  cairo_set_source_rgb(cr, 0.8, 0.1, 0.1);
  cairo_set_line_width(cr, 2);
  cairo_move_to(cr, x0, mp.y0);
  cairo_line_to(cr, x0, mp.y0 + mp.h);
  cairo_stroke(cr);
  draw_text(cr, x0 + 6, mp.y0 + 12, 12, 0, 0, "unstable");
  draw_text(cr, x0 - 6, mp.y0 + 12, 12, 1, 0, "stable");
  cairo_new_path(cr);
  /* every mode, coloured by the series variable */
  double xlo = s->x[0], xhi = s->x[s->n - 1];
  for (int i = 0; i < s->n; i++) {
    const md_point* p = &s->pts[i];
    if (!p->ok) continue;
    double rgb[3];
    draw_ramp(xhi != xlo ? (s->x[i] - xlo) / (xhi - xlo) : 0.5, rgb);
    for (int k = 0; k < p->nmode; k++) {
      const md_mode* m = &p->mode[k];
      if (m->im > immax || m->re < pl.xmin) continue;
      double px = draw_map_x(&mp, m->re), py = draw_map_y(&mp, m->im);
      cairo_new_path(cr);
      cairo_arc(cr, px, py, m->name == MD_OTHER ? 3 : 4.5, 0, 2 * MT_PI);
      draw_set_rgb(cr, rgb);
      cairo_fill_preserve(cr);
      cairo_set_line_width(cr, m->name == MD_OTHER ? 0.5 : 1.5);
      double c[3] = {0.2, 0.2, 0.2};
      if (m->name != MD_OTHER) draw_color(NAME_COLOR[m->name], c);
      draw_set_rgb(cr, c);
      cairo_stroke(cr);
    }
  }
  /* labels at each named mode's last point, or at its rightmost when the last is under the legend */
  for (int nm = 0; nm < MD_NNAMED; nm++) {
    const md_mode *last = NULL, *right = NULL;
    for (int i = 0; i < s->n; i++) {
      const md_mode* m = md_find(&s->pts[i], nm);
      if (!m || m->im > immax || m->re < pl.xmin) continue;
      last = m;
      if (!right || m->re > right->re) right = m;
    }
    if (!last) continue;
    const md_mode* m = last;
    if (draw_map_x(&mp, m->re) < mp.x0 + 200 && draw_map_y(&mp, m->im) < mp.y0 + 160) m = right;
    double c[3];
    draw_color(NAME_COLOR[nm], c);
    draw_set_rgb(cr, c);
    draw_textf(cr, draw_map_x(&mp, m->re) + 6, draw_map_y(&mp, m->im) - 12, 14, 0, 1, "%s", md_names[nm]);
  }
  cairo_restore(cr);
  /* colour bar of the series variable */
  double bx = mp.x0 + mp.w - 230, by = mp.y0 + 70, bw = 200, bh = 12;
  cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
  cairo_rectangle(cr, bx - 10, by - 22, bw + 20, bh + 46);
  cairo_fill(cr);
  for (int i = 0; i < (int)bw; i++) {
    double rgb[3];
    draw_ramp(i / (bw - 1), rgb);
    draw_set_rgb(cr, rgb);
    cairo_rectangle(cr, bx + i, by, 1.2, bh);
    cairo_fill(cr);
  }
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  draw_text(cr, bx + bw / 2, by - 4, 12, 0.5, 1, s->xlabel);
  draw_textf(cr, bx, by + bh + 3, 12, 0, 0, "%g", xlo);
  draw_textf(cr, bx + bw, by + bh + 3, 12, 1, 0, "%g", xhi);
  free(xy);
}

/* Frequency (what = 0) or damping ratio (what = 1) of the named modes against the series variable. */
static void panel_vs(cairo_t* cr, const lc_series* s, int what, double x, double y, double w, double h) {
  draw_plot pl = {0};
  pl.title = what ? "Damping ratio (below 0: unstable)" : "Frequency";
  pl.xlabel = s->xlabel;
  pl.ylabel = what ? "damping ratio ζ" : "frequency (Hz)";
  pl.legend = what ? 1 : 2;
  pl.zero_lines = what;
  double* v = malloc(sizeof(double) * MD_NNAMED * s->n);
  double lo = 1e300, hi = -1e300;
  for (int nm = 0; nm < MD_NNAMED; nm++) {
    if (nm == MD_CAPSIZE && !what) continue;   /* a real root has no frequency */
    int any = 0;
    for (int i = 0; i < s->n; i++) {
      const md_mode* m = md_find(&s->pts[i], nm);
      double val = NAN;
      if (m) val = what ? (nm == MD_CAPSIZE ? (m->re < 0 ? 1 : -1) : m->zeta) : m->hz;
      if (m && nm == MD_CAPSIZE) val = NAN;   /* capsize: shown on the locus (real part) only */
      v[nm * s->n + i] = val;
      if (isfinite(val)) {
        any = 1;
        lo = fmin(lo, val);
        hi = fmax(hi, val);
      }
    }
    if (!any) continue;
    int si = draw_plot_add(&pl, s->x, v + nm * s->n, s->n, md_names[nm], NAME_COLOR[nm], 0);
    pl.s[si].markers = 1;
  }
  if (what && lo < 1e300) {
    pl.fixed_x = 0;
    pl.fixed_y = 1;
    double pad = 0.08 * (hi - lo + 0.01);
    pl.ymin = fmin(lo - pad, -0.02);
    pl.ymax = hi + pad;
    /* x range from the data */
    pl.fixed_x = 1;
    pl.xmin = s->x[0] < s->x[s->n - 1] ? s->x[0] : s->x[s->n - 1];
    pl.xmax = s->x[0] < s->x[s->n - 1] ? s->x[s->n - 1] : s->x[0];
  }
  draw_plot_render(cr, x, y, w, h, &pl);
  if (what && lo < 1e300) {
    draw_map mp = draw_plot_map(&pl, x, y, w, h);
    double y0 = draw_map_y(&mp, 0);
    cairo_set_source_rgba(cr, 0.85, 0.1, 0.1, 0.06);
    cairo_rectangle(cr, mp.x0, y0, mp.w, mp.y0 + mp.h - y0);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.8, 0.1, 0.1);
    cairo_set_line_width(cr, 1.5);
    cairo_move_to(cr, mp.x0, y0);
    cairo_line_to(cr, mp.x0 + mp.w, y0);
    cairo_stroke(cr);
  }
  free(v);
}

int lc_plot(const lc_series* s, const char* path, mt_err* e) {
  draw_fig f;
  if (draw_fig_new(&f, W, H, e)) return e->code;
  panel_locus(f.cr, s, 10, 10, 940, H - 20);
  panel_vs(f.cr, s, 0, 960, 10, W - 970, H / 2 - 15);
  panel_vs(f.cr, s, 1, 960, H / 2 + 5, W - 970, H / 2 - 15);
  int rc = draw_fig_save_png(&f, path, e);
  draw_fig_free(&f);
  return rc;
}
