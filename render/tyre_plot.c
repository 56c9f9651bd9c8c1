/* tyre_plot.c — the figure of `mototake plot tyre` (see tyre_plot.h): families of Magic Formula
 * curves, like the Slipstream manual's Figure 3.1, drawn with the shared plot layer. The
 * command itself (options, the tyre's source, the PNG) is app/tyre_plot_cmd.c. */
#include "render/tyre_plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/draw.h"

#define NPTS 241
static const double LOADS[4] = {500, 1000, 1500, 2500};
static const double CAMBERS[4] = {0, 15, 30, 45};   /* degrees */

typedef struct curves {
  double x[8][NPTS], y[8][NPTS];
  char label[8][48];
} curves;

static void panel_fx(cairo_t* cr, const tyre_params* p, double x, double y, double w, double h, curves* c) {
  draw_plot pl = {0};
  pl.title = "Longitudinal force, pure slip";
  pl.xlabel = "slip ratio κ";
  pl.ylabel = "Fx (N)";
  pl.legend = 4;
  pl.zero_lines = 1;
  for (int k = 0; k < 4; k++) {
    for (int i = 0; i < NPTS; i++) {
      c->x[k][i] = -0.6 + 1.2 * i / (NPTS - 1);
      tyre_forces_t f;
      tyre_forces(p, LOADS[k], c->x[k][i], 0, 0, &f);
      c->y[k][i] = f.fx;
    }
    snprintf(c->label[k], 48, "Fz = %.0f N", LOADS[k]);
    draw_plot_add(&pl, c->x[k], c->y[k], NPTS, c->label[k], k, 0);
  }
  draw_plot_render(cr, x, y, w, h, &pl);
}

static void panel_fy(cairo_t* cr, const tyre_params* p, double x, double y, double w, double h, curves* c) {
  draw_plot pl = {0};
  pl.title = "Lateral force: loads (solid, γ = 0), cambers (dashed, Fz0)";
  pl.xlabel = "slip angle α (deg)";
  pl.ylabel = "Fy (N)";
  pl.legend = 4;
  pl.zero_lines = 1;
  for (int k = 0; k < 8; k++) {
    double fz = k < 4 ? LOADS[k] : p->Fz0, g = k < 4 ? 0 : CAMBERS[k - 4] * MT_PI / 180;
    for (int i = 0; i < NPTS; i++) {
      c->x[k][i] = -20 + 40.0 * i / (NPTS - 1);
      tyre_forces_t f;
      tyre_forces(p, fz, 0, c->x[k][i] * MT_PI / 180, g, &f);
      c->y[k][i] = f.fy;
    }
    if (k < 4) snprintf(c->label[k], 48, "Fz = %.0f N", fz);
    else snprintf(c->label[k], 48, "γ = %.0f°", CAMBERS[k - 4]);
    draw_plot_add(&pl, c->x[k], c->y[k], NPTS, c->label[k], k < 4 ? k : k, k < 4 ? 0 : 1);
  }
  draw_plot_render(cr, x, y, w, h, &pl);
}

static void panel_mz(cairo_t* cr, const tyre_params* p, double x, double y, double w, double h, curves* c) {
  draw_plot pl = {0};
  pl.title = "Aligning moment, γ = 0";
  pl.xlabel = "slip angle α (deg)";
  pl.ylabel = "Mz (N·m)";
  pl.legend = 1;
  pl.zero_lines = 1;
  for (int k = 0; k < 4; k++) {
    for (int i = 0; i < NPTS; i++) {
      c->x[k][i] = -20 + 40.0 * i / (NPTS - 1);
      tyre_forces_t f;
      tyre_forces(p, LOADS[k], 0, c->x[k][i] * MT_PI / 180, 0, &f);
      c->y[k][i] = f.mz;
    }
    snprintf(c->label[k], 48, "Fz = %.0f N", LOADS[k]);
    draw_plot_add(&pl, c->x[k], c->y[k], NPTS, c->label[k], k, 0);
  }
  draw_plot_render(cr, x, y, w, h, &pl);
}

static void panel_ellipse(cairo_t* cr, const tyre_params* p, double x, double y, double w, double h, curves* c) {
  draw_plot pl = {0};
  pl.title = "Combined slip at Fz0: Fy against Fx, κ swept −0.5…0.5";
  pl.xlabel = "Fx (N)";
  pl.ylabel = "Fy (N)";
  pl.legend = 2;
  pl.zero_lines = 1;
  pl.equal_aspect = 1;
  static const double al[6] = {0, 1, 2, 4, 6, 10};
  for (int k = 0; k < 6; k++) {
    for (int i = 0; i < NPTS; i++) {
      double kap = -0.5 + 1.0 * i / (NPTS - 1);
      tyre_forces_t f;
      tyre_forces(p, p->Fz0, kap, al[k] * MT_PI / 180, 0, &f);
      c->x[k][i] = f.fx;
      c->y[k][i] = f.fy;
    }
    snprintf(c->label[k], 48, "α = %.0f°", al[k]);
    draw_plot_add(&pl, c->x[k], c->y[k], NPTS, c->label[k], k, 0);
  }
  draw_plot_render(cr, x, y, w, h, &pl);
}

void tp_draw(cairo_t* cr, const tyre_params* p, int which, int W, int H, const char* wheel, int noverride) {
  static curves cv;
  void (*panels[4])(cairo_t*, const tyre_params*, double, double, double, double, curves*) = {panel_fx, panel_fy, panel_mz,
                                                                                               panel_ellipse};
  double top = 40;
  cairo_set_source_rgb(cr, 0, 0, 0);
  if (noverride > 0)
    draw_textf(cr, W / 2.0, 10, 17, 0.5, 0, "%s tyre: %s + %d override%s (Magic Formula)", wheel,
               p->preset[0] ? p->preset : "custom", noverride, noverride > 1 ? "s" : "");
  else
    draw_textf(cr, W / 2.0, 10, 17, 0.5, 0, "%s tyre: %s (Magic Formula, Sharp–Evangelou–Limebeer 2004)", wheel,
               p->preset[0] ? p->preset : "custom");
  if (which) {
    panels[which - 1](cr, p, 10, top, W - 20, H - top - 10, &cv);
  } else {
    double pw = (W - 30) / 2.0, ph = (H - top - 20) / 2.0;
    for (int k = 0; k < 4; k++) panels[k](cr, p, 10 + (k % 2) * (pw + 10), top + (k / 2) * (ph + 10), pw, ph, &cv);
  }
}
