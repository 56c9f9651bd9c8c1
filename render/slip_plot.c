/* slip_plot.c — the figure of `mototake slip` (see slip_plot.h; the command: app/slip_cmd.c). */
#include "render/slip_plot.h"

#include <math.h>
#include <stdlib.h>

#include "render/draw.h"

/* The figure: slip angles against time (truth, estimate, optimum), against lateral
 * acceleration, the front–rear difference against time, the estimate against the truth. */
void slip_plot_draw(cairo_t* cr, const slip_data* d, int w, int h, const char* title) {
  long n = d->n;
  double* buf = mt_alloc(sizeof(double) * (size_t)n * 12);
  double *diff = buf, *nopt_f = buf + n, *nopt_r = buf + 2 * n;
  double *sx = buf + 3 * n, *syf = buf + 5 * n, *syr = buf + 7 * n, *stf = buf + 9 * n, *str = buf + 10 * n;
  /* scatter: every 5th sample (20 Hz), each point separated by a NaN so no lines join them */
  long m = 0;
  for (long i = 0; i < n; i++) {
    diff[i] = d->alpha_f[i] - d->alpha_r[i];
    /* the optimum on the side the tyres push to, drawn in turns only (on straights the side flips) */
    int turn = d->contact[i] && fabs(d->ay[i]) > 1;
    nopt_f[i] = turn ? slip_side(d, i, 0) * d->peak_f[i] : NAN;
    nopt_r[i] = turn ? slip_side(d, i, 1) * d->peak_r[i] : NAN;
  }
  for (long i = 0; i < n && 2 * m + 1 < 2 * n; i += 5, m++) {
    sx[2 * m] = d->ay[i] / MT_G;
    syf[2 * m] = d->alpha_f[i];
    syr[2 * m] = d->alpha_r[i];
    sx[2 * m + 1] = syf[2 * m + 1] = syr[2 * m + 1] = NAN;
  }
  long ns = 0;   /* estimate vs truth (interleaved NaN) into stf (x = truth) and str (y = estimate), front then rear */
  double *ex = mt_alloc(sizeof(double) * (size_t)(n + 2) * 2), *ey = mt_alloc(sizeof(double) * (size_t)(n + 2) * 2);
  double *rx = mt_alloc(sizeof(double) * (size_t)(n + 2) * 2), *ry = mt_alloc(sizeof(double) * (size_t)(n + 2) * 2);
  long nr = 0;
  (void)stf;
  (void)str;
  for (long i = 0; i < n; i += 5) {
    if (!isfinite(d->est_f[i]) || !d->contact[i]) continue;
    ex[2 * ns] = d->alpha_f[i];
    ey[2 * ns] = d->est_f[i];
    ex[2 * ns + 1] = ey[2 * ns + 1] = NAN;
    ns++;
    rx[2 * nr] = d->alpha_r[i];
    ry[2 * nr] = d->est_r[i];
    rx[2 * nr + 1] = ry[2 * nr + 1] = NAN;
    nr++;
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_text(cr, w / 2.0, 12, 20, 0.5, 0, title);
  double top = 48, pw = w / 2.0, ph = (h - top) / 2.0;
  {
    draw_plot p = {0};
    p.title = "Slip angles: true (solid), estimate (dotted), tyre optimum in turns (dashed)";
    p.xlabel = "time (s)";
    p.ylabel = "slip angle α (deg)";
    p.legend = 2;
    p.zero_lines = 1;
    draw_plot_add(&p, d->t, d->alpha_f, (int)n, "front", 0, 0);
    draw_plot_add(&p, d->t, d->alpha_r, (int)n, "rear", 1, 0);
    if (d->has_est) {
      p.s[draw_plot_add(&p, d->t, d->est_f, (int)n, "front estimate", 2, 2)].width = 1.5;
      p.s[draw_plot_add(&p, d->t, d->est_r, (int)n, "rear estimate", 3, 2)].width = 1.5;
    }
    p.s[draw_plot_add(&p, d->t, nopt_f, (int)n, "front optimum", 0, 1)].width = 1;
    p.s[draw_plot_add(&p, d->t, nopt_r, (int)n, "rear optimum", 1, 1)].width = 1;
    draw_plot_render(cr, 0, top, pw, ph, &p);
  }
  {
    draw_plot p = {0};
    p.title = "Slip angle against lateral acceleration (20 Hz)";
    p.xlabel = "lateral acceleration a_y of the CG (g, positive left)";
    p.ylabel = "slip angle α (deg)";
    p.legend = 2;
    p.zero_lines = 1;
    int a = draw_plot_add(&p, sx, syf, (int)(2 * m), "front", 0, 0);
    int b = draw_plot_add(&p, sx, syr, (int)(2 * m), "rear", 1, 0);
    p.s[a].markers = p.s[b].markers = 1;
    draw_plot_render(cr, pw, top, pw, ph, &p);
  }
  {
    draw_plot p = {0};
    p.title = "Front − rear slip angle (positive: the front slips more)";
    p.xlabel = "time (s)";
    p.ylabel = "α_f − α_r (deg)";
    p.legend = 2;
    p.zero_lines = 1;
    draw_plot_add(&p, d->t, diff, (int)n, "α_f − α_r", 4, 0);
    draw_plot_render(cr, 0, top + ph, pw, ph, &p);
  }
  {
    draw_plot p = {0};
    p.title = d->has_est ? "Telemetry estimate against the truth (20 Hz)" : "Telemetry estimate: not made (--truth-only)";
    p.xlabel = "true slip angle (deg)";
    p.ylabel = "estimated slip angle (deg)";
    p.legend = 2;
    p.zero_lines = 1;
    double lo = -1, hi = 1, lx[2] = {-30, 30}, ly[2] = {-30, 30};
    for (long i = 0; i < n; i++)
      if (d->contact[i]) lo = fmin(lo, fmin(d->alpha_f[i], d->alpha_r[i])), hi = fmax(hi, fmax(d->alpha_f[i], d->alpha_r[i]));
    p.fixed_x = p.fixed_y = 1;
    p.xmin = p.ymin = fmax(lo - 0.5, -30);
    p.xmax = p.ymax = fmin(hi + 0.5, 30);
    p.equal_aspect = 1;
    p.s[draw_plot_add(&p, lx, ly, 2, "estimate = truth", -1, 1)].width = 1;
    if (ns) {
      int a = draw_plot_add(&p, ex, ey, (int)(2 * ns), "front", 0, 0);
      int b = draw_plot_add(&p, rx, ry, (int)(2 * nr), "rear", 1, 0);
      p.s[a].markers = p.s[b].markers = 1;
    }
    draw_plot_render(cr, pw, top + ph, pw, ph, &p);
  }
  free(buf);
  free(ex);
  free(ey);
  free(rx);
  free(ry);
}

