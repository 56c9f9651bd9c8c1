/* plan.c — the plan-view drawing functions (see plan.h), and the whole sheet of `mototake track
 * plan` (the command itself: app/plan_cmd.c). */
#include "render/plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/draw.h"

static double PX(const plan_xf* f, double x) { return f->ox + f->s * x; }
static double PY(const plan_xf* f, double y) { return f->oy - f->s * y; }

void plan_elevation_range(const track* t, double* zmin, double* zmax) {
  *zmin = INFINITY;
  *zmax = -INFINITY;
  double L = track_length(t);
  for (double s = 0; s <= L; s += 1) {
    double wl, wr, p[3], h;
    track_widths(t, s, &wl, &wr);
    for (int k = -1; k <= 1; k++) {
      track_eval(t, s, k < 0 ? -wr : k > 0 ? wl : 0, p, &h);
      if (p[2] < *zmin) *zmin = p[2];
      if (p[2] > *zmax) *zmax = p[2];
    }
  }
}

plan_xf plan_fit(const track* t, double x, double y, double w, double h, double margin) {
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY, L = track_length(t);
  for (double s = 0; s <= L; s += 1) {
    double wl, wr, p[3], hd;
    track_widths(t, s, &wl, &wr);
    for (int k = -1; k <= 1; k += 2) {
      track_eval(t, s, k < 0 ? -wr : wl, p, &hd);
      x0 = fmin(x0, p[0]);
      x1 = fmax(x1, p[0]);
      y0 = fmin(y0, p[1]);
      y1 = fmax(y1, p[1]);
    }
  }
  x0 -= margin;
  x1 += margin;
  y0 -= margin;
  y1 += margin;
  double s = fmin(w / (x1 - x0), h / (y1 - y0));
  plan_xf f = {s, x + 0.5 * (w - s * (x1 - x0)) - s * x0, y + 0.5 * (h + s * (y1 - y0)) + s * y0};
  return f;
}

void plan_draw_track(cairo_t* cr, const track* t, const plan_xf* f, double zmin, double zmax) {
  plan_draw_track_range(cr, t, f, zmin, zmax, 0, track_length(t), track_closed(t));
}

void plan_draw_track_range(cairo_t* cr, const track* t, const plan_xf* f, double zmin, double zmax, double s0, double s1,
                           int close) {
  double L = s1;
  double step = fmax(0.5, 2.0 / f->s);   /* about 2 px per step */
  cairo_save(cr);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  /* surface: quads between consecutive cross-sections, coloured by their height */
  double pl[3], pr[3], ql[3], qr[3], h, wl, wr;
  track_widths(t, s0, &wl, &wr);
  track_eval(t, s0, wl, pl, &h);
  track_eval(t, s0, -wr, pr, &h);
  for (double s = s0 + step; s <= L + 1e-9; s += step) {
    double ss = fmin(s, L);
    track_widths(t, ss, &wl, &wr);
    track_eval(t, ss, wl, ql, &h);
    track_eval(t, ss, -wr, qr, &h);
    double zc = 0.25 * (pl[2] + pr[2] + ql[2] + qr[2]);
    double rgb[3];
    draw_ramp_elev(zmax > zmin ? (zc - zmin) / (zmax - zmin) : 0.5, rgb);
    draw_set_rgb(cr, rgb);
    cairo_move_to(cr, PX(f, pl[0]), PY(f, pl[1]));
    cairo_line_to(cr, PX(f, ql[0]), PY(f, ql[1]));
    cairo_line_to(cr, PX(f, qr[0]), PY(f, qr[1]));
    cairo_line_to(cr, PX(f, pr[0]), PY(f, pr[1]));
    cairo_close_path(cr);
    cairo_fill_preserve(cr);
    cairo_set_line_width(cr, 0.6);
    cairo_stroke(cr);
    memcpy(pl, ql, sizeof pl);
    memcpy(pr, qr, sizeof pr);
  }
  /* edges */
  cairo_set_source_rgb(cr, 0.12, 0.12, 0.12);
  cairo_set_line_width(cr, 1.6);
  for (int side = -1; side <= 1; side += 2) {
    for (double s = s0; s <= L + 1e-9; s += step) {
      double ss = fmin(s, L), p[3];
      track_widths(t, ss, &wl, &wr);
      track_eval(t, ss, side < 0 ? -wr : wl, p, &h);
      if (s == s0) cairo_move_to(cr, PX(f, p[0]), PY(f, p[1]));
      else cairo_line_to(cr, PX(f, p[0]), PY(f, p[1]));
    }
    if (close) cairo_close_path(cr);
    cairo_stroke(cr);
  }
  /* centre line, dashed */
  double dash[] = {6, 5};
  cairo_set_dash(cr, dash, 2, 0);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
  cairo_set_line_width(cr, 1.0);
  for (double s = s0; s <= L + 1e-9; s += step) {
    double p[3];
    track_eval(t, fmin(s, L), 0, p, &h);
    if (s == s0) cairo_move_to(cr, PX(f, p[0]), PY(f, p[1]));
    else cairo_line_to(cr, PX(f, p[0]), PY(f, p[1]));
  }
  cairo_stroke(cr);
  cairo_restore(cr);
}

void plan_draw_start(cairo_t* cr, const track* t, const plan_xf* f) {
  double wl, wr, h, a[3], b[3];
  track_widths(t, 0, &wl, &wr);
  track_eval(t, 0, wl, a, &h);
  track_eval(t, 0, -wr, b, &h);
  /* chequered band: two rows of squares across the road */
  int n = 8;
  double ux = (b[0] - a[0]) / n, uy = (b[1] - a[1]) / n;   /* across */
  double w = hypot(ux, uy);
  double fx = cos(h) * w, fy = sin(h) * w;                  /* along */
  for (int row = 0; row < 2; row++)
    for (int i = 0; i < n; i++) {
      double x = a[0] + i * ux + row * fx, y = a[1] + i * uy + row * fy;
      cairo_move_to(cr, PX(f, x), PY(f, y));
      cairo_line_to(cr, PX(f, x + ux), PY(f, y + uy));
      cairo_line_to(cr, PX(f, x + ux + fx), PY(f, y + uy + fy));
      cairo_line_to(cr, PX(f, x + fx), PY(f, y + fy));
      cairo_close_path(cr);
      if ((i + row) % 2) cairo_set_source_rgb(cr, 0, 0, 0);
      else cairo_set_source_rgb(cr, 1, 1, 1);
      cairo_fill(cr);
    }
  /* at map scale the band is a few pixels: a bold bar across the road and a label */
  double nx = -(b[1] - a[1]), ny = b[0] - a[0], nl = hypot(nx, ny);
  (void)nx;
  (void)ny;
  (void)nl;
  double cx = 0.5 * (a[0] + b[0]), cy = 0.5 * (a[1] + b[1]);
  double ex = (b[0] - a[0]) / hypot(b[0] - a[0], b[1] - a[1]), ey = (b[1] - a[1]) / hypot(b[0] - a[0], b[1] - a[1]);
  double half = fmax(0.5 * hypot(b[0] - a[0], b[1] - a[1]), 14 / f->s);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 6);
  cairo_move_to(cr, PX(f, cx - ex * half), PY(f, cy - ey * half));
  cairo_line_to(cr, PX(f, cx + ex * half), PY(f, cy + ey * half));
  cairo_stroke(cr);
  double dsh[] = {3, 3};
  cairo_set_dash(cr, dsh, 2, 0);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_set_line_width(cr, 3);
  cairo_move_to(cr, PX(f, cx - ex * half), PY(f, cy - ey * half));
  cairo_line_to(cr, PX(f, cx + ex * half), PY(f, cy + ey * half));
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
  /* direction arrow beside the road, a little after the line */
  double s0 = fmin(40, 0.05 * track_length(t)), p[3], hd;
  track_eval(t, s0, -wr - 12 / f->s - 4, p, &hd);
  double L = 34;   /* px */
  double x = PX(f, p[0]), y = PY(f, p[1]), dx = cos(hd), dy = -sin(hd);
  cairo_set_source_rgb(cr, 0.75, 0.05, 0.05);
  cairo_set_line_width(cr, 3);
  cairo_move_to(cr, x - dx * L / 2, y - dy * L / 2);
  cairo_line_to(cr, x + dx * L / 2, y + dy * L / 2);
  cairo_stroke(cr);
  cairo_move_to(cr, x + dx * L / 2 + dx * 6, y + dy * L / 2 + dy * 6);
  cairo_line_to(cr, x + dx * L / 2 - dy * 7, y + dy * L / 2 + dx * 7);
  cairo_line_to(cr, x + dx * L / 2 + dy * 7, y + dy * L / 2 - dx * 7);
  cairo_close_path(cr);
  cairo_fill(cr);
}

void plan_start_label_at(const track* t, const plan_xf* f, double* x, double* y, double* ax, double* ay) {
  double wl, wr, h, a[3], b[3];
  track_widths(t, 0, &wl, &wr);
  track_eval(t, 0, wl, a, &h);
  track_eval(t, 0, -wr, b, &h);
  double cx = 0.5 * (a[0] + b[0]), cy = 0.5 * (a[1] + b[1]), d = hypot(b[0] - a[0], b[1] - a[1]);
  double ex = (b[0] - a[0]) / d, ey = (b[1] - a[1]) / d, half = fmax(0.5 * d, 14 / f->s);
  *x = PX(f, cx - ex * half) - ex * 6;
  *y = PY(f, cy - ey * half) + ey * 6;
  *ax = ex >= 0 ? 1 : 0;
  *ay = ey >= 0 ? 0 : 1;
}

void plan_draw_ticks(cairo_t* cr, const track* t, const plan_xf* f, double every, double label) {
  double L = track_length(t);
  cairo_save(cr);
  cairo_set_line_width(cr, 1.2);
  for (double s = every; s < L - 0.5 * every; s += every) {
    double wl, wr, a[3], b[3], h;
    track_widths(t, s, &wl, &wr);
    track_eval(t, s, -wr, a, &h);
    double nx = sin(h), ny = -cos(h);   /* rightward unit normal */
    double len = fmax(6, 3 / f->s * f->s);
    double ax = PX(f, a[0]), ay = PY(f, a[1]);
    double bx = ax + nx * len, by = ay - ny * len;
    int major = fmod(s + 1e-6, label) < 1e-3;
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_move_to(cr, ax, ay);
    cairo_line_to(cr, major ? ax + nx * 1.8 * len : bx, major ? ay - ny * 1.8 * len : by);
    cairo_stroke(cr);
    (void)b;
    if (major) {
      double lx = ax + nx * 2.6 * len, ly = ay - ny * 2.6 * len;
      /* anchor the label away from the road */
      double axn = 0.5 - 0.5 * nx, ayn = 0.5 + 0.5 * ny;
      cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
      if (label >= 500) draw_textf(cr, lx, ly, 11, axn, ayn, "%.1f km", s / 1000);
      else draw_textf(cr, lx, ly, 11, axn, ayn, "%.0f m", s);
    }
  }
  cairo_restore(cr);
}

static void colour_bar(cairo_t* cr, double x, double y, double w, double h, double zmin, double zmax) {
  for (int i = 0; i < (int)h; i++) {
    double rgb[3];
    draw_ramp_elev(1 - i / h, rgb);
    draw_set_rgb(cr, rgb);
    cairo_rectangle(cr, x, y + i, w, 1.5);
    cairo_fill(cr);
  }
  cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
  cairo_set_line_width(cr, 1);
  cairo_rectangle(cr, x + 0.5, y + 0.5, w, h);
  cairo_stroke(cr);
  double range = zmax - zmin;
  if (range < 1e-6) {
    draw_textf(cr, x + w + 6, y + h / 2, 12, 0, 0.5, "%.1f m", zmin);
  } else {
    double st = draw_nice_step(range, 5);
    for (double z = ceil(zmin / st) * st; z <= zmax + 1e-9; z += st) {
      double py = y + h - (z - zmin) / range * h;
      cairo_move_to(cr, x + w, py);
      cairo_line_to(cr, x + w + 5, py);
      cairo_stroke(cr);
      int dec = st >= 1 ? 0 : (int)ceil(-log10(st) - 1e-9);
      draw_textf(cr, x + w + 8, py, 12, 0, 0.5, "%.*f m", dec, fabs(z) < 1e-9 ? 0.0 : z);
    }
  }
  draw_text(cr, x + w / 2, y - 8, 12, 0.5, 1, "elevation");
}

static void scale_bar(cairo_t* cr, const plan_xf* f, double x, double y) {
  double target = 150 / f->s;   /* about 150 px */
  double st = draw_nice_step(target, 1);
  double px = st * f->s;
  cairo_set_source_rgb(cr, 0, 0, 0);
  for (int i = 0; i < 4; i++) {
    cairo_rectangle(cr, x + i * px / 4, y, px / 4, 6);
    if (i % 2) cairo_fill(cr);
    else {
      cairo_set_line_width(cr, 1);
      cairo_stroke(cr);
    }
  }
  draw_text(cr, x, y + 10, 11, 0.5, 0, "0");
  draw_textf(cr, x + px, y + 10, 11, 0.5, 0, "%g m", st);
}

static void north_arrow(cairo_t* cr, double x, double y) {
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_move_to(cr, x, y - 24);
  cairo_line_to(cr, x + 10, y + 8);
  cairo_line_to(cr, x, y);
  cairo_close_path(cr);
  cairo_fill(cr);
  cairo_move_to(cr, x, y - 24);
  cairo_line_to(cr, x - 10, y + 8);
  cairo_line_to(cr, x, y);
  cairo_close_path(cr);
  cairo_set_line_width(cr, 1.2);
  cairo_stroke(cr);
  draw_text(cr, x, y - 28, 14, 0.5, 1, "N");
}

void plan_draw_sheet(cairo_t* cr, const track* t, int W, int H) {
  double zmin, zmax;
  plan_elevation_range(t, &zmin, &zmax);
  double side = 150;   /* legend column */
  plan_xf xf = plan_fit(t, 30, 70, W - side - 60, H - 130, 30);
  plan_draw_track(cr, t, &xf, zmin, zmax);
  plan_draw_start(cr, t, &xf);
  double lx, ly, lax, lay;
  plan_start_label_at(t, &xf, &lx, &ly, &lax, &lay);
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_text(cr, lx, ly, 12, lax, lay, "START / FINISH");
  double L = track_length(t);
  plan_draw_ticks(cr, t, &xf, 100, L > 2500 ? 500 : 100);
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_textf(cr, W / 2.0, 14, 22, 0.5, 0, "%s", track_name(t));
  draw_textf(cr, W / 2.0, 44, 13, 0.5, 0, "%.0f m (%.3f mi) · %s · %d segments · %.0f m of elevation change",
             L, L / 1609.344, track_closed(t) ? "closed circuit" : "open road", track_nsegments(t), zmax - zmin);
  colour_bar(cr, W - side + 20, 110, 22, 260, zmin, zmax);
  north_arrow(cr, W - side + 45, 450);
  scale_bar(cr, &xf, 40, H - 40);
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  draw_text(cr, W - 20, H - 20, 11, 1, 1, "ticks every 100 m; chequered: start/finish; arrow: running direction");
}
