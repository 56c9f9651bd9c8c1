/* engine_plot.c — the figures of `mototake plot engine` (see engine_plot.h; the command itself:
 * app/engine_plot_cmd.c): dyno curves of the engine, the gearing chart and the chain/anti-squat
 * side view.
 *
 * curves (default): brake torque, brake power and manifold pressure against engine speed at
 *   several throttle openings, plus the efficiency maps; WOT peaks annotated.
 * gears: rear-wheel thrust and engine speed against road speed in every gear at full throttle.
 * chain: side view of the sprockets, the taut and slack runs, the swingarm line and the
 *   squat line through their intersection, with the anti-squat ratio. */
#include "render/engine_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/draw.h"
#include "sim/powertrain.h"

#define NPTS 400
#define RPM (MT_PI / 30.0)

static const double THROTTLES[] = {0.0, 0.10, 0.25, 0.50, 0.75, 1.0};
#define NTHR ((int)MT_ARRAY_LEN(THROTTLES))

/* A marked point with a label next to it, on the last render of plot p in box (x, y, w, h). */
static void annotate(cairo_t* cr, const draw_plot* p, double bx, double by, double bw, double bh, double vx,
                     double vy, const char* text, double ax) {
  draw_map m = draw_plot_map(p, bx, by, bw, bh);
  double px = draw_map_x(&m, vx), py = draw_map_y(&m, vy);
  cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
  cairo_arc(cr, px, py, 5, 0, 2 * MT_PI);
  cairo_fill(cr);
  cairo_set_line_width(cr, 1);
  cairo_move_to(cr, px, py);
  cairo_line_to(cr, px + (ax < 0.5 ? 14 : -14), py - 22);
  cairo_stroke(cr);
  /* white box behind the text so grid lines do not cut it */
  cairo_set_font_size(cr, 13);
  cairo_text_extents_t te;
  cairo_text_extents(cr, text, &te);
  double tx = px + (ax < 0.5 ? 16 : -16) - ax * te.x_advance, ty = py - 32;
  cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
  cairo_rectangle(cr, tx - 3, ty - 2, te.x_advance + 6, 19);
  cairo_fill(cr);
  cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
  draw_text(cr, tx, ty, 13, 0, 0, text);
}

/* A heading centred on x = W/2 at y: at size, or smaller when it is wider than the figure less
 * a 10 px margin each side (a long engine name made the title run off both edges at 800 px). */
static void heading(cairo_t* cr, int W, double y, double size, const char* s) {
  double w = draw_text_width(cr, size, s), room = W - 20.0;
  draw_text(cr, W / 2.0, y, w > room ? size * room / w : size, 0.5, 0, s);
}

/*---- curves ----*/

void ep_curves(const powertrain* pt, cairo_t* cr, int W, int H) {
  const engine_params* p = &pt->engine;
  double rmax = (p->rev_limit + p->limiter_band) / RPM + 500, rmin = 500;
  static double x[NPTS], tq[NTHR][NPTS], pw[NTHR][NPTS], pm[NTHR][NPTS], ev[2][NPTS], et[NPTS];
  double tpk = -1e9, tpk_r = 0, ppk = -1e9, ppk_r = 0;
  for (int k = 0; k < NPTS; k++) {
    x[k] = rmin + (rmax - rmin) * k / (NPTS - 1);
    double hint = -1;
    for (int i = 0; i < NTHR; i++) {
      engine_out o;
      engine_eval_hint(p, x[k] * RPM, THROTTLES[i], hint, &o);
      tq[i][k] = o.torque_brake;
      pw[i][k] = o.power / 1e3;
      pm[i][k] = o.pm / 1e3;
      if (i == 2) ev[1][k] = o.eta_v;
      if (i == NTHR - 1) {
        ev[0][k] = o.eta_v;
        et[k] = o.eta_t;
      }
    }
  }
  /* WOT peaks on a fine grid (the plotted one is coarse). */
  for (double r = rmin; r <= rmax; r += 1) {
    engine_out o;
    engine_eval(p, r * RPM, 1, &o);
    if (o.torque_brake > tpk) tpk = o.torque_brake, tpk_r = r;
    if (o.power > ppk) ppk = o.power, ppk_r = r;
  }
  ppk /= 1e3;

  char title[512];
  snprintf(title, sizeof title, "%s — %.0f cc, %d cylinders, rev limit %.0f rpm, idle %.0f rpm", pt->name,
           p->displacement * 1e6, p->cylinders, p->rev_limit / RPM, p->idle_speed / RPM);
  cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
  heading(cr, W, 12, 20, title);
  char sub[256];
  snprintf(sub, sizeof sub, "mean-value model (Slipstream manual §3.4): steady manifold, brake values at the crank, "
           "curves at constant throttle");
  heading(cr, W, 40, 13, sub);

  double top = 66, gw = W / 2.0, gh = (H - top) / 2.0;
  static char labels[NTHR][32];
  for (int i = 0; i < NTHR; i++)
    snprintf(labels[i], sizeof labels[i], i == 0 ? "closed (0 %%)" : "%.0f %% throttle", 100 * THROTTLES[i]);

  draw_plot a = {.title = "Brake torque", .xlabel = "engine speed (rpm)", .ylabel = "torque (N·m)", .legend = 2,
                 .zero_lines = 1};
  draw_plot b = {.title = "Brake power", .xlabel = "engine speed (rpm)", .ylabel = "power (kW)", .legend = 2,
                 .zero_lines = 1};
  draw_plot c = {.title = "Manifold pressure", .xlabel = "engine speed (rpm)", .ylabel = "pressure (kPa)",
                 .legend = 3, .fixed_y = 1, .ymin = 0, .ymax = p->ambient_pressure / 1e3 * 1.1};
  for (int i = 0; i < NTHR; i++) {
    int col = i == 0 ? 8 : i - 1;
    int dash = i == 0 ? 1 : 0;
    draw_plot_add(&a, x, tq[i], NPTS, labels[i], col, dash);
    draw_plot_add(&b, x, pw[i], NPTS, labels[i], col, dash);
    draw_plot_add(&c, x, pm[i], NPTS, labels[i], col, dash);
  }
  static double cx[2], cy[2], ax0[2], ay0[2];
  cx[0] = rmin, cx[1] = rmax;
  cy[0] = cy[1] = engine_critical_ratio() * p->ambient_pressure / 1e3;
  draw_plot_add(&c, cx, cy, 2, "critical: choked below", -1, 2);
  ax0[0] = rmin, ax0[1] = rmax;
  ay0[0] = ay0[1] = p->ambient_pressure / 1e3;
  draw_plot_add(&c, ax0, ay0, 2, "ambient", 8, 2);
  draw_plot d = {.title = "Efficiencies", .xlabel = "engine speed (rpm)", .ylabel = "efficiency (–)", .legend = 3};
  draw_plot_add(&d, x, ev[0], NPTS, "volumetric ηv, full throttle", 0, 0);
  draw_plot_add(&d, x, ev[1], NPTS, "volumetric ηv, 25 % throttle", 0, 1);
  draw_plot_add(&d, x, et, NPTS, "thermal ηt", 1, 0);

  /* Headroom above the WOT peaks for their labels. */
  double tmin = 0, pmin = 0;
  for (int k = 0; k < NPTS; k++) {
    if (tq[0][k] < tmin) tmin = tq[0][k];
    if (pw[0][k] < pmin) pmin = pw[0][k];
  }
  double st = draw_nice_step(1.25 * tpk - tmin, 6);
  a.fixed_y = 1, a.ymin = floor(tmin / st) * st, a.ymax = ceil(1.25 * tpk / st) * st;
  st = draw_nice_step(1.25 * ppk - pmin, 6);
  b.fixed_y = 1, b.ymin = floor(pmin / st) * st, b.ymax = ceil(1.25 * ppk / st) * st;
  draw_plot_render(cr, 0, top, gw, gh, &a);
  char t1[96], t2[96];
  snprintf(t1, sizeof t1, "WOT peak %.1f N·m @ %.0f rpm", tpk, tpk_r);
  annotate(cr, &a, 0, top, gw, gh, tpk_r, tpk, t1, 1);
  draw_plot_render(cr, gw, top, gw, gh, &b);
  snprintf(t2, sizeof t2, "WOT peak %.1f kW (%.0f PS) @ %.0f rpm", ppk, ppk * 1e3 / 735.49875, ppk_r);
  annotate(cr, &b, gw, top, gw, gh, ppk_r, ppk, t2, 1);
  draw_plot_render(cr, 0, top + gh, gw, gh, &c);
  draw_plot_render(cr, gw, top + gh, gw, gh, &d);
}

/*---- gears ----*/

void ep_gears(const powertrain* pt, cairo_t* cr, int W, int H, double rw) {
  const engine_params* p = &pt->engine;
  const drive_params* d = &pt->drive;
  static double v[DRIVE_MAX_GEARS][NPTS], f[DRIVE_MAX_GEARS][NPTS], r[DRIVE_MAX_GEARS][NPTS];
  static char lab[DRIVE_MAX_GEARS][48];
  double rmin = 1000, rmax = p->rev_limit / RPM;
  draw_plot a = {.title = "Thrust at the rear contact, full throttle, up to the rev limit",
                 .xlabel = "road speed (km/h)", .ylabel = "thrust (kN)", .legend = 1};
  draw_plot b = {.title = "Engine speed", .xlabel = "road speed (km/h)", .ylabel = "engine speed (rpm)",
                 .legend = 3};
  for (int g = 1; g <= d->ngears; g++) {
    double G = drive_gear_ratio(d, g);
    for (int k = 0; k < NPTS; k++) {
      double rpm = rmin + (rmax - rmin) * k / (NPTS - 1);
      engine_out o;
      engine_eval(p, rpm * RPM, 1, &o);
      v[g - 1][k] = rpm * RPM / G * rw * 3.6;
      f[g - 1][k] = o.torque_brake * G / rw / 1e3;
      r[g - 1][k] = rpm;
    }
    snprintf(lab[g - 1], sizeof lab[g - 1], "gear %d: %.3f (total %.2f)", g, d->ratios[g], G);
    draw_plot_add(&a, v[g - 1], f[g - 1], NPTS, lab[g - 1], g - 1, 0);
    draw_plot_add(&b, v[g - 1], r[g - 1], NPTS, lab[g - 1], g - 1, 0);
  }
  char title[512];
  snprintf(title, sizeof title, "%s — primary %.3f, chain %d/%d (pitch radii %.1f / %.1f mm), wheel radius %.3f m",
           pt->name, d->primary, d->teeth_rear, d->teeth_output, d->r_rear * 1e3, d->r_output * 1e3, rw);
  cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
  heading(cr, W, 12, 20, title);
  heading(cr, W, 40, 13, "brake torque × total ratio / wheel radius; no tyre slip, no losses after the crank");
  double top = 66;
  draw_plot_render(cr, 0, top, W / 2.0, H - top, &a);
  draw_plot_render(cr, W / 2.0, top, W / 2.0, H - top, &b);
}

/*---- chain ----*/

static void circle(double* x, double* y, int n, double cx, double cy, double r) {
  for (int i = 0; i < n; i++) {
    double a = 2 * MT_PI * i / (n - 1);
    x[i] = cx + r * cos(a);
    y[i] = cy + r * sin(a);
  }
}

void ep_chain(const powertrain* pt, cairo_t* cr, int W, int H, double rw, const double pivot[2],
             const double cog[2], double wheelbase) {
  const drive_params* d = &pt->drive;
  double axle[2] = {d->rear_sprocket[0], d->rear_sprocket[2]}, os[2] = {d->output_sprocket[0], d->output_sprocket[2]};
  double contact[2] = {axle[0], 0};
  drive_squat sq;
  double ratio = drive_anti_squat(d, contact, axle, pivot, os, cog[1], wheelbase, &sq);
  double oc[3] = {os[0], 0, os[1]}, rc[3] = {axle[0], 0, axle[1]}, y[3] = {0, 1, 0};
  drive_chain_t up, lo;
  drive_chain_geometry(d, oc, rc, y, 1, &up);
  drive_chain_geometry(d, oc, rc, y, 0, &lo);

  enum { NC = 121 };
  static double wx[NC], wz[NC], rx[NC], rz[NC], ox[NC], oz[NC];
  circle(wx, wz, NC, axle[0], axle[1], rw);
  circle(rx, rz, NC, axle[0], axle[1], d->r_rear);
  circle(ox, oz, NC, os[0], os[1], d->r_output);
  static double ux[2], uz[2], lx[2], lz[2], sx[2], sz[2], ex[2], ez[2], qx[2], qz[2], hx[2], hz[2];
  ux[0] = up.rear_point[0], uz[0] = up.rear_point[2], ux[1] = up.out_point[0], uz[1] = up.out_point[2];
  lx[0] = lo.rear_point[0], lz[0] = lo.rear_point[2], lx[1] = lo.out_point[0], lz[1] = lo.out_point[2];
  sx[0] = axle[0], sz[0] = axle[1], sx[1] = pivot[0], sz[1] = pivot[1];
  /* extensions of chain and swingarm lines to their intersection C, and the squat line P→C */
  double cxp = sq.parallel ? up.out_point[0] + 2 : sq.point[0], czp = sq.parallel ? up.out_point[2] + 2 * up.dir[2] / up.dir[0] : sq.point[1];
  ex[0] = up.out_point[0], ez[0] = up.out_point[2], ex[1] = cxp, ez[1] = czp;
  qx[0] = pivot[0], qz[0] = pivot[1], qx[1] = cxp, qz[1] = czp;
  double xend = wheelbase + 0.1;
  static double slx[2], slz[2];
  slx[0] = contact[0], slz[0] = contact[1], slx[1] = xend, slz[1] = contact[1] + tan(sq.angle) * (xend - contact[0]);
  hx[0] = contact[0], hz[0] = contact[1], hx[1] = wheelbase, hz[1] = cog[1];
  static double gnx[2], gnz[2];
  gnx[0] = -rw - 0.05, gnx[1] = xend, gnz[0] = gnz[1] = 0;

  draw_plot pl = {.xlabel = "x forward from the rear contact (m)", .ylabel = "z up (m)", .legend = 2, .equal_aspect = 1,
                  .fixed_x = 1, .fixed_y = 1, .xmin = -rw - 0.05, .xmax = xend, .ymin = -0.05, .ymax = 0.75};
  draw_plot_add(&pl, gnx, gnz, 2, NULL, -1, 0);
  draw_plot_add(&pl, wx, wz, NC, "rear tyre (loaded radius)", 8, 2);
  draw_plot_add(&pl, rx, rz, NC, "sprocket pitch circles", 0, 0);
  draw_plot_add(&pl, ox, oz, NC, NULL, 0, 0);
  int su = draw_plot_add(&pl, ux, uz, 2, "upper run: taut under drive", 1, 0);
  pl.s[su].width = 4;
  draw_plot_add(&pl, lx, lz, 2, "lower run: taut on the over-run", 1, 1);
  int ss = draw_plot_add(&pl, sx, sz, 2, "swingarm (axle to pivot)", -1, 0);
  pl.s[ss].width = 5;
  draw_plot_add(&pl, ex, ez, 2, NULL, 1, 2);
  draw_plot_add(&pl, qx, qz, 2, NULL, -1, 2);
  draw_plot_add(&pl, slx, slz, 2, "squat line: contact through C", 2, 0);
  draw_plot_add(&pl, hx, hz, 2, "100 % line: contact to (wheelbase, CoG height)", 3, 1);

  char title[512];
  snprintf(title, sizeof title, "%s — chain line and anti-squat: ratio %.2f (squat angle %.1f°)", pt->name, ratio,
           sq.angle * 180 / MT_PI);
  cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
  heading(cr, W, 12, 20, title);
  char sub[512];
  snprintf(sub, sizeof sub, "sprockets %d/%d teeth, pitch %.3f mm; swingarm pivot (%.3f, %.3f) m; centre of mass "
           "height %.3f m; wheelbase %.3f m",
           d->teeth_rear, d->teeth_output, d->chain_pitch * 1e3, pivot[0], pivot[1], cog[1], wheelbase);
  heading(cr, W, 40, 13, sub);
  double top = 60;
  draw_plot_render(cr, 0, top, W, H - top, &pl);
  if (!sq.parallel) annotate(cr, &pl, 0, top, W, H - top, sq.point[0], sq.point[1], "C", 0);
  annotate(cr, &pl, 0, top, W, H - top, cog[0], cog[1], "centre of mass", 0);
  annotate(cr, &pl, 0, top, W, H - top, pivot[0], pivot[1], "swingarm pivot", 1);
}

