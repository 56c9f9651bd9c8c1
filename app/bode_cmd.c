/* bode_cmd.c — `mototake bode`: the frequency response of one output to one input of a rig
 * linearised about a trimmed steady state (sim/linear.h), as the memo's Bode plot.
 *
 * G(jω) = C (jωI − A)⁻¹ B + D from lin_abcd's continuous model (all states), by LAPACKE_zgesv
 * at each frequency. With --wheelbase-delay the input is the road's height seen by both tyres:
 * the rear tyre meets the front's profile L/V later (L the contact points' distance at the trim,
 * V the speed), so G = G_front + G_rear·e^(−jωL/V) (seed 002, Figure 15). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/draw.h"
#include "base/cli.h"
#include "base/jsonout.h"
#include "sim/linear.h"
#include "sim/trim.h"

#define BODE_MAX_PEAKS 8

typedef struct bode_pt { double hz, re, im, gain, db, phase; } bode_pt;

/* Local maxima of the gain, largest first (at most max). */
static int peaks(const bode_pt* p, int n, int* out, int max) {
  int k = 0;
  for (int i = 1; i + 1 < n; i++) {
    if (!(p[i].gain > p[i - 1].gain && p[i].gain >= p[i + 1].gain)) continue;
    if (k == max && p[out[max - 1]].gain >= p[i].gain) continue;   /* smaller than all kept */
    int q = k < max ? k++ : max - 1;
    for (; q > 0 && p[out[q - 1]].gain < p[i].gain; q--) out[q] = out[q - 1];
    out[q] = i;
  }
  return k;
}

static int plot(const char* path, const bode_pt* p, int n, const int* pk, int npk, const char* title, const char* gain_units,
                mt_err* e) {
  draw_fig f;
  if (draw_fig_new(&f, 1400, 1000, e)) return MT_EINTERNAL;
  double* x = mt_alloc(sizeof(double) * 3 * n);
  double *g = x + n, *ph = g + n;
  for (int i = 0; i < n; i++) {
    x[i] = log10(p[i].hz);
    g[i] = p[i].db;
    ph[i] = p[i].phase;
  }
  char ylab[160];
  snprintf(ylab, sizeof ylab, "gain, dB (re 1 %s)", gain_units);
  draw_plot a = {0};
  a.title = title;
  a.xlabel = "frequency, Hz";
  a.ylabel = ylab;
  a.log10_x = 1;
  draw_plot_add(&a, x, g, n, NULL, 0, 0);
  draw_plot_render(f.cr, 0, 0, f.w, 0.58 * f.h, &a);
  /* the resonances, labelled */
  draw_map m = draw_plot_map(&a, 0, 0, f.w, 0.58 * f.h);
  for (int q = 0; q < npk; q++) {
    int i = pk[q];
    double px = draw_map_x(&m, x[i]), py = draw_map_y(&m, g[i]);
    cairo_set_source_rgb(f.cr, 0.8, 0.1, 0.1);
    cairo_arc(f.cr, px, py, 4, 0, 2 * MT_PI);
    cairo_fill(f.cr);
    cairo_set_source_rgb(f.cr, 0.1, 0.1, 0.1);
    draw_textf(f.cr, px, py - 8, 13, 0.5, 1, "%.1f Hz", p[i].hz);
  }
  draw_plot b = {0};
  b.xlabel = "frequency, Hz";
  b.ylabel = "phase, deg";
  b.log10_x = 1;
  b.fixed_y = 1;
  b.ymin = -180;
  b.ymax = 180;
  /* the phase wraps at ±180°: one series per unwrapped stretch, no vertical jump lines */
  for (int i0 = 0, i = 1; i <= n; i++)
    if (i == n || fabs(ph[i] - ph[i - 1]) > 180) {
      if (b.ns < DRAW_MAX_SERIES) draw_plot_add(&b, x + i0, ph + i0, i - i0, NULL, 1, 0);
      i0 = i;
    }
  b.fixed_x = 1;
  b.xmin = x[0];
  b.xmax = x[n - 1];
  draw_plot_render(f.cr, 0, 0.58 * f.h, f.w, 0.42 * f.h, &b);
  free(x);
  int rc = draw_fig_save_png(&f, path, e);
  draw_fig_free(&f);
  return rc;
}

/*---- cmd_bode's stages, in the order it runs them ----*/

/* What was asked, the options parsed and checked. */
typedef struct bode_args {
  double speed, lean;     /* m/s, deg: the trim */
  double f0, f1;          /* Hz: the band */
  long npts;              /* frequencies, log-spaced */
  int delay;              /* --wheelbase-delay: the input is the road under both tyres */
  const char* in;         /* the input's name ("road" with the delay) */
  const char* out;        /* the output's name */
  const char* plot;       /* -o PNG, or NULL */
  int json;
} bode_args;

/* What was computed. */
typedef struct bode_result {
  lin_model lm;           /* about the trim, all states; input 0 (and 1: road_rear, with the delay), output 0 */
  double wb, tau;         /* with the delay: the contact points' distance (m) and the rear's delay (s) */
  bode_pt* pt;            /* npts points */
  int npk, pk[BODE_MAX_PEAKS];   /* the gain peaks, largest first */
  char units[160];        /* the gain's units */
  char inname[256];       /* the input as the text output names it */
} bode_result;

static int parse_args(cli* c, bode_args* a, mt_err* e) {
  int delay = a->delay = cli_set(c, "wheelbase-delay");
  const char* in = a->in = cli_str(c, "input", delay ? "road" : NULL);
  a->out = cli_str(c, "output", NULL);
  a->plot = cli_str(c, "o", NULL);
  a->json = cli_set(c, "json");
  if (!cli_set(c, "speed")) return mt_fail(e, MT_EINPUT, "bode: --speed is required (m/s)");
  if (!in) return mt_fail(e, MT_EINPUT, "bode: --input NAME is required (e.g. steer_torque, road_front)");
  if (!a->out) return mt_fail(e, MT_EINPUT, "bode: --output NAME is required (a channel, e.g. steer_angle)");
  if (delay && strcmp(in, "road"))
    return mt_fail(e, MT_EINPUT, "bode: --wheelbase-delay takes the road under both tyres: --input road (or none), not '%s'", in);
  if (!delay && !strcmp(in, "road"))
    return mt_fail(e, MT_EINPUT, "bode: --input road needs --wheelbase-delay (or give road_front or road_rear)");
  if (cli_double(c, "speed", 0, 0.5, 120, &a->speed, e) || cli_double(c, "lean", 0, -65, 65, &a->lean, e) ||
      cli_double(c, "from", 1, 0.001, 1000, &a->f0, e) || cli_double(c, "to", 100, 0.001, 1000, &a->f1, e) ||
      cli_int(c, "points", 500, 10, 100000, &a->npts, e))
    return MT_EINPUT;
  if (!(a->f1 > a->f0)) return mt_fail(e, MT_EINPUT, "bode: --to (%g Hz) must be above --from (%g Hz)", a->f1, a->f0);
  return MT_OK;
}

/* The names checked before the trim's work, the trim, the continuous model about it. */
static int linearise_trim(vehicle* v, const bode_args* a, lin_spec* sp, bode_result* b, mt_err* e) {
  if (a->delay) {
    lin_spec_add(sp, LIN_INPUT, "road_front", 0);
    lin_spec_add(sp, LIN_INPUT, "road_rear", 0);
  } else {
    lin_spec_add(sp, LIN_INPUT, a->in, 0);
  }
  lin_spec_add(sp, LIN_OUTPUT, a->out, 0);
  int rc = v ? MT_OK : MT_EINPUT;
  if (!rc) rc = lin_check(v, sp, e);   /* bad names before the trim's work */
  trim_spec ts = {0};
  ts.speed = a->speed;
  ts.fix_roll = 1;
  ts.roll = a->lean * MT_PI / 180;
  ts.gear = -1;
  trim_result tr;
  if (!rc) rc = trim_solve(v, &ts, &tr, e);
  if (!rc) rc = lin_abcd(v, sp, &b->lm, e);
  return rc;
}

/* The contact points' distance along the heading, at the trim, and the rear tyre's delay. */
static int wheelbase_delay(vehicle* v, const bode_args* a, bode_result* b, mt_err* e) {
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  const double *pf = v->out.wheel[0].point, *pr = v->out.wheel[1].point;
  double wb = b->wb = (pf[0] - pr[0]) * cos(yaw) + (pf[1] - pr[1]) * sin(yaw);
  b->tau = wb / a->speed;
  if (!v->out.wheel[0].contact || !v->out.wheel[1].contact || !(wb > 0))
    return mt_fail(e, MT_EINPUT, "bode: no wheelbase delay at this trim: both tyres must touch the road");
  return MT_OK;
}

/* G(jω) at npts frequencies (with the delay, G_front + G_rear·e^(−jωτ)), and the gain peaks. */
static int sweep(const bode_args* a, bode_result* b, mt_err* e) {
  int rc = MT_OK;
  double f0 = a->f0, f1 = a->f1, tau = b->tau;
  long npts = a->npts;
  bode_pt* pt = b->pt = mt_alloc(sizeof(bode_pt) * npts);
  for (long i = 0; i < npts && !rc; i++) {
    double hz = f0 * pow(f1 / f0, (double)i / (npts - 1)), w = 2 * MT_PI * hz, G[2], H[2];
    rc = lin_freq_response(&b->lm, 0, 0, w, G, e);
    if (!rc && a->delay) {
      rc = lin_freq_response(&b->lm, 0, 1, w, H, e);
      double cr = cos(w * tau), ci = -sin(w * tau);   /* e^(−jωτ) */
      G[0] += H[0] * cr - H[1] * ci;
      G[1] += H[0] * ci + H[1] * cr;
    }
    bode_pt* p = &pt[i];
    p->hz = hz;
    p->re = G[0];
    p->im = G[1];
    p->gain = hypot(G[0], G[1]);
    p->db = 20 * log10(fmax(p->gain, 1e-300));
    p->phase = atan2(G[1], G[0]) * 180 / MT_PI;
  }
  if (!rc) b->npk = peaks(pt, (int)npts, b->pk, BODE_MAX_PEAKS);
  return rc;
}

/* The gain's units and the input's name as printed. */
static void label(const bode_args* a, bode_result* b) {
  snprintf(b->units, sizeof b->units, "%s/%s", b->lm.y[0].units, a->delay ? "m" : b->lm.u[0].units);
  if (a->delay)
    snprintf(b->inname, sizeof b->inname, "road (road_front + road_rear %.3f m / %.2f m/s = %.1f ms later)", b->wb, a->speed,
             1e3 * b->tau);
  else snprintf(b->inname, sizeof b->inname, "%s", a->in);
}

static int write_plot(const rig* r, const bode_args* a, const bode_result* b, mt_err* e) {
  char title[512];
  snprintf(title, sizeof title, "%s at %.1f km/h, lean %.0f deg: %s to %s%s", r->name, a->speed * 3.6, a->lean, a->out,
           a->delay ? "road" : a->in, a->delay ? " (wheelbase delay)" : "");
  return plot(a->plot, b->pt, (int)a->npts, b->pk, b->npk, title, b->units, e);
}

static int print_json(const rig* r, const bode_args* a, const bode_result* b, mt_err* e) {
  const bode_pt* pt = b->pt;
  json_t* o = json_object();
  json_object_set_new(o, "rig", json_string(r->name));
  json_object_set_new(o, "speed_mps", json_real(a->speed));
  json_object_set_new(o, "lean_deg", json_real(a->lean));
  json_object_set_new(o, "input", json_string(a->delay ? "road" : a->in));
  json_object_set_new(o, "output", json_string(a->out));
  json_object_set_new(o, "gain_units", json_string(b->units));
  if (a->delay) {
    json_object_set_new(o, "wheelbase_m", json_real(b->wb));
    json_object_set_new(o, "delay_s", json_real(b->tau));
  }
  json_object_set_new(o, "states", json_integer(b->lm.n));
  json_t* pa = json_array();
  for (int q = 0; q < b->npk; q++) {
    json_t* z = json_object();
    json_object_set_new(z, "hz", json_real(pt[b->pk[q]].hz));
    json_object_set_new(z, "gain_db", json_real(pt[b->pk[q]].db));
    json_object_set_new(z, "phase_deg", json_real(pt[b->pk[q]].phase));
    json_array_append_new(pa, z);
  }
  json_object_set_new(o, "peaks", pa);
  json_t* ar = json_array();
  for (long i = 0; i < a->npts; i++) {
    json_t* z = json_object();
    json_object_set_new(z, "hz", json_real(pt[i].hz));
    json_object_set_new(z, "re", json_real(pt[i].re));
    json_object_set_new(z, "im", json_real(pt[i].im));
    json_object_set_new(z, "gain_db", json_real(pt[i].db));
    json_object_set_new(z, "phase_deg", json_real(pt[i].phase));
    json_array_append_new(ar, z);
  }
  json_object_set_new(o, "points", ar);
  int rc = mt_json_print(stdout, o, JSON_COMPACT | JSON_REAL_PRECISION(10), "bode", e);
  json_decref(o);
  return rc;
}

static void print_text(const rig* r, const bode_args* a, const bode_result* b) {
  const bode_pt* pt = b->pt;
  printf("bode: %s at %.2f m/s (%.1f km/h), lean %.1f deg, %d states\n", r->name, a->speed, a->speed * 3.6, a->lean, b->lm.n);
  printf("  input %s, output %s [%s]; gain in %s\n", b->inname, a->out, b->lm.y[0].units, b->units);
  printf("  resonances (gain peaks, %g-%g Hz):\n  %9s %9s %9s\n", a->f0, a->f1, "Hz", "gain dB", "phase");
  for (int q = 0; q < b->npk; q++) printf("  %9.2f %9.2f %9.1f\n", pt[b->pk[q]].hz, pt[b->pk[q]].db, pt[b->pk[q]].phase);
  if (a->plot) printf("  wrote %s\n", a->plot);
}

int cmd_bode(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "bode");
  cli_arg(&c, "speed");
  cli_arg(&c, "lean");
  cli_arg(&c, "input");
  cli_arg(&c, "output");
  cli_arg(&c, "from");
  cli_arg(&c, "to");
  cli_arg(&c, "points");
  cli_arg(&c, "o");
  cli_flag(&c, "wheelbase-delay");
  cli_flag(&c, "json");
  cli_multi(&c, "set");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  bode_args a;
  if (parse_args(&c, &a, &e)) return cli_report(&e);
  char path[4096];
  rig_resolve(c.pos[0], path, sizeof path);
  const cli_opt* so = cli_get(&c, "set");
  rig* r = rig_load(path, so ? so->values : NULL, so ? so->nvalues : 0, &e);
  if (!r) return cli_report(&e);
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  lin_spec sp = {0};
  bode_result b = {0};
  int rc = linearise_trim(v, &a, &sp, &b, &e);
  if (!rc && a.delay) rc = wheelbase_delay(v, &a, &b, &e);
  if (!rc) rc = sweep(&a, &b, &e);
  if (!rc) label(&a, &b);
  if (!rc && a.plot) rc = write_plot(r, &a, &b, &e);
  if (!rc && a.json) rc = print_json(r, &a, &b, &e);
  else if (!rc) print_text(r, &a, &b);
  free(b.pt);
  lin_model_free(&b.lm);
  lin_spec_clear(&sp);
  veh_free(v);
  rig_free(r);
  return rc ? cli_report(&e) : 0;
}
