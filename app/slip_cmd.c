/* slip_cmd.c — `mototake slip TAKE [-o slip.png] [--csv out.csv] [--json]`: the true slip
 * angles a take recorded, the telemetry estimate (takes/slip.h), and the figure. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/draw.h"
#include "render/slip_plot.h"
#include "base/cli.h"
#include "base/jsonout.h"
#include "base/csv.h"
#include "base/outfile.h"
#include "takes/slip.h"

/* The linear region the estimate is judged in: |a_y| up to 0.5 g and both slip angles within 3°. */
#define LIN_AY (0.5 * MT_G)
#define LIN_ALPHA 3.0

static double pct(double x, double ref) { return ref != 0 ? 100 * (x - ref) / fabs(ref) : NAN; }

static const char* seg_kind(const slip_seg* g, char* buf, size_t n) {
  if (fabs(g->curvature) < 1e-4) snprintf(buf, n, "straight");
  else snprintf(buf, n, "%s R %.0f m", g->curvature > 0 ? "left" : "right", 1 / fabs(g->curvature));
  return buf;
}

static int write_csv(const slip_data* d, const char* path, mt_err* e) {
  outfile of = {.fd = -1};
  FILE* f = NULL;
  int rc = outfile_open(&of, path, OUTFILE_TEMP, e);
  if (!rc && !(f = fdopen(dup(of.fd), "w"))) rc = mt_fail(e, MT_EINPUT, "%s: cannot write", path);
  if (rc) {
    outfile_abort(&of);
    return rc;
  }
  static const char* H[][2] = {{"time", "s"}, {"station", "m"}, {"segment", "1"}, {"speed", "m/s"}, {"ay", "m/s^2"},
                               {"vx", "m/s"}, {"vy", "m/s"}, {"yaw_rate", "rad/s"}, {"steer_angle", "deg"},
                               {"steer_ground", "deg"}, {"front_slip_angle", "deg"}, {"rear_slip_angle", "deg"},
                               {"slip_difference", "deg"}, {"front_optimum", "deg"}, {"rear_optimum", "deg"},
                               {"front_estimate", "deg"}, {"rear_estimate", "deg"}, {"ab_sample", "1"}};
  for (int r = 0; r < 2; r++) {
    for (size_t i = 0; i < MT_ARRAY_LEN(H); i++) {
      if (i) fputc(',', f);
      csv_field(f, H[i][r]);
    }
    fputc('\n', f);
  }
  for (long i = 0; i < d->n; i++)
    fprintf(f, "%.6g,%.6g,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d\n", d->t[i],
            d->station[i], d->seg[i], d->speed[i], d->ay[i], d->vx[i], d->vy[i], d->r[i], d->steer[i], d->delta_g[i],
            d->alpha_f[i], d->alpha_r[i], d->alpha_f[i] - d->alpha_r[i], d->peak_f[i], d->peak_r[i], d->est_f[i],
            d->est_r[i], d->used[i]);
  if (fclose(f) != 0) rc = mt_fail(e, MT_EINPUT, "%s: write failed", path);
  if (!rc) rc = outfile_commit(&of, e);
  if (rc) outfile_abort(&of);
  return rc;
}

/* The figure (render/slip_plot.h) as a PNG. */
static int write_png(const slip_data* d, const char* path, int w, int h, const char* title, mt_err* e) {
  draw_fig fig;
  int rc = draw_fig_new(&fig, w, h, e);
  if (rc) return rc;
  slip_plot_draw(fig.cr, d, w, h, title);
  rc = draw_fig_save_png(&fig, path, e);
  draw_fig_free(&fig);
  return rc;
}

static json_t* num(double x) { return isfinite(x) ? json_real(x) : json_null(); }

/* What every output reports besides the data: the estimate's error in the linear region and the
 * largest true slip angles while both tyres touch the road. */
typedef struct slip_summary {
  double rf, mf, rr, mr;   /* deg: front RMS and max, rear RMS and max of estimate − truth */
  long nl;                 /* samples in the linear region */
  double pf, pr;           /* deg: max |α| front, rear */
} slip_summary;

static void summarise(const slip_data* d, slip_summary* sm) {
  slip_est_error(d, LIN_AY, LIN_ALPHA, &sm->rf, &sm->mf, &sm->rr, &sm->mr, &sm->nl);
  double pf = 0, pr = 0;
  for (long i = 0; i < d->n; i++)
    if (d->contact[i]) pf = fmax(pf, fabs(d->alpha_f[i])), pr = fmax(pr, fabs(d->alpha_r[i]));
  sm->pf = pf, sm->pr = pr;
}

static json_t* json_estimate(const slip_data* d, const slip_summary* sm) {
  json_t* est = json_object();
  json_object_set_new(est, "ok", json_boolean(d->has_est));
  json_object_set_new(est, "candidates", json_integer(d->ncand));
  if (d->has_est) {
    json_object_set_new(est, "used", json_integer(d->nused));
    json_object_set_new(est, "a_m", json_real(d->a));
    json_object_set_new(est, "b_m", json_real(d->b));
    json_object_set_new(est, "a_error_pct", num(pct(d->a, d->rig_a)));
    json_object_set_new(est, "b_error_pct", num(pct(d->b, d->rig_b)));
    json_object_set_new(est, "a_median_m", json_real(d->a_median));
    json_object_set_new(est, "b_median_m", json_real(d->b_median));
    json_object_set_new(est, "linear_samples", json_integer(sm->nl));
    json_object_set_new(est, "front_rms_deg", num(sm->rf));
    json_object_set_new(est, "front_max_deg", num(sm->mf));
    json_object_set_new(est, "rear_rms_deg", num(sm->rr));
    json_object_set_new(est, "rear_max_deg", num(sm->mr));
  } else {
    json_object_set_new(est, "reason", json_string("--truth-only"));
  }
  return est;
}

static json_t* json_segments(const slip_data* d) {
  json_t* segs = json_array();
  for (int g = 0; g < d->nsegs; g++) {
    const slip_seg* s = &d->segs[g];
    json_t* o2 = json_object();
    json_object_set_new(o2, "segment", json_integer(s->seg));
    json_object_set_new(o2, "station_from_m", json_real(s->s0));
    json_object_set_new(o2, "station_to_m", json_real(s->s1));
    json_object_set_new(o2, "curvature_per_m", json_real(s->curvature));
    json_object_set_new(o2, "time_s", json_real(s->time));
    json_object_set_new(o2, "front_max_deg", json_real(s->max_f));
    json_object_set_new(o2, "rear_max_deg", json_real(s->max_r));
    json_object_set_new(o2, "mean_difference_deg", json_real(s->mean_diff));
    json_object_set_new(o2, "max_ay", json_real(s->max_ay));
    json_object_set_new(o2, "front_beyond_optimum_s", json_real(s->beyond_f));
    json_object_set_new(o2, "rear_beyond_optimum_s", json_real(s->beyond_r));
    json_array_append_new(segs, o2);
  }
  return segs;
}

/* --json: the report as one compact JSON object on stdout. */
static int print_json(const slip_data* d, const char* path, const slip_summary* sm, mt_err* e) {
  json_t* j = json_object();
  json_object_set_new(j, "take", json_string(path));
  json_object_set_new(j, "track", json_string(d->track));
  json_object_set_new(j, "samples", json_integer(d->n));
  json_object_set_new(j, "plain", json_boolean(d->plain));
  json_object_set_new(j, "sample_rate_hz", json_real(1 / d->dt));
  json_object_set_new(j, "duration_s", json_real(d->n * d->dt));
  json_object_set_new(j, "mass_kg", json_real(d->mass));
  json_object_set_new(j, "rig_a_m", json_real(d->rig_a));
  json_object_set_new(j, "rig_b_m", json_real(d->rig_b));
  json_object_set_new(j, "caster_deg", json_real(d->caster * 180 / MT_PI));
  json_object_set_new(j, "estimate", json_estimate(d, sm));
  json_object_set_new(j, "front_max_deg", json_real(sm->pf));
  json_object_set_new(j, "rear_max_deg", json_real(sm->pr));
  json_object_set_new(j, "front_beyond_optimum_s", json_real(d->beyond_f));
  json_object_set_new(j, "rear_beyond_optimum_s", json_real(d->beyond_r));
  json_object_set_new(j, "segments", json_segments(d));
  int rc = mt_json_print(stdout, j, JSON_COMPACT | JSON_REAL_PRECISION(9), "slip", e);
  json_decref(j);
  return rc;
}

/* The report as text: the take, the rig, the estimate (or the given --ab, or none), its error,
 * the largest slip angles and the time beyond the optimum, then one line per segment. */
static void print_text(const slip_data* d, const char* path, const slip_opts* o, const char* ab, double ga, double gb,
                       const slip_summary* sm) {
  printf("slip %s: %ld samples at %.0f Hz (%.2f s) on %s\n", path, d->n, 1 / d->dt, d->n * d->dt, d->track);
  printf("rig: CG of machine and rider (%.1f kg) at the take's start: a = %.3f m to the front contact, b = %.3f m to the "
         "rear (wheelbase %.3f m); caster %.1f deg\n",
         d->mass, d->rig_a, d->rig_b, d->rig_a + d->rig_b, d->caster * 180 / MT_PI);
  if (ab) {
    printf("a = %.3f m, b = %.3f m given (--ab); the rig's: a = %.3f m (%+.1f %%), b = %.3f m (%+.1f %%)\n", ga, gb, d->rig_a,
           pct(ga, d->rig_a), d->rig_b, pct(gb, d->rig_b));
  } else if (d->has_est) {
    printf("estimate from %d of %d low-acceleration samples (ground-plane steer %g-%g deg, |a_y| < %g m/s^2, |r| > %g rad/s):\n",
           d->nused, d->ncand, o->steer_lo, o->steer_hi, o->ay_max, o->r_min);
    printf("a = %.3f m (rig %.3f m, %+.1f %%)\n", d->a, d->rig_a, pct(d->a, d->rig_a));
    printf("b = %.3f m (rig %.3f m, %+.1f %%)\n", d->b, d->rig_b, pct(d->b, d->rig_b));
    if (d->plain)
      printf("  (--plain: the medians with the slip taken as zero)\n");
    else
      printf("  (intercepts at zero lateral acceleration; taking the slip as zero instead, the medians give a = %.3f m "
             "(%+.1f %%), b = %.3f m (%+.1f %%))\n",
             d->a_median, pct(d->a_median, d->rig_a), d->b_median, pct(d->b_median, d->rig_b));
  }
  if (d->has_est) {
    printf("estimated vs true slip angle over %ld samples in the linear region (|a_y| <= 0.5 g, |alpha| <= %g deg): "
           "front RMS %.3f deg, max %.3f deg; rear RMS %.3f deg, max %.3f deg\n",
           sm->nl, LIN_ALPHA, sm->rf, sm->mf, sm->rr, sm->mr);
  } else {
    printf("estimate: not made (--truth-only)\n");
  }
  printf("true slip angle: front max %.2f deg, rear max %.2f deg; beyond the tyre's optimum: front %.2f s, rear %.2f s\n", sm->pf,
         sm->pr, d->beyond_f, d->beyond_r);
  printf("per segment (all laps):\n  seg  stations (m)     kind            time s  max|af|  max|ar|  mean af-ar  max|ay| g  "
         "beyond f/r s\n");
  for (int g = 0; g < d->nsegs; g++) {
    const slip_seg* s = &d->segs[g];
    char kb[48];
    printf("  %3d  %6.0f-%-6.0f  %-14s %7.2f  %7.2f  %7.2f  %+10.2f  %9.2f  %5.2f/%.2f\n", s->seg, s->s0, s->s1,
           seg_kind(s, kb, sizeof kb), s->time, s->max_f, s->max_r, s->mean_diff, s->max_ay / MT_G, s->beyond_f,
           s->beyond_r);
  }
}

/* --ab A,B: the given CG distances instead of an estimate; else the estimate, unless
 * --truth-only. No usable low-acceleration data: one line, exit 2, nothing written. */
static int estimate_or_apply(const cli* c, const char* path, slip_data* d, const slip_opts* o, double* ga, double* gb,
                             mt_err* e) {
  const char* ab = cli_str(c, "ab", NULL);
  mt_err ee = {0};
  if (ab) {
    char tail;
    if (sscanf(ab, "%lf,%lf%c", ga, gb, &tail) != 2 || !(*ga > 0 && *ga < 10) || !(*gb > 0 && *gb < 10))
      return mt_fail(e, MT_EINPUT, "slip: --ab: expected A,B in metres (0 < A, B < 10), got '%s'", ab);
    slip_apply(d, *ga, *gb, o);
  } else if (!cli_set(c, "truth-only") && slip_estimate(d, o, &ee)) {
    return mt_fail(e, MT_EINPUT, "slip: %s: %s (--truth-only: the true slip angles alone)", path, ee.msg);
  }
  return MT_OK;
}

/* -o: the figure, titled with the take's name and the CG distances (estimated or the rig's). */
static int write_figure(const slip_data* d, const char* path, const char* png, int w, int h, mt_err* e) {
  char title[1200];
  const char* base = strrchr(path, '/');
  if (d->has_est)
    snprintf(title, sizeof title, "%s — estimated a = %.3f m (rig %.3f), b = %.3f m (rig %.3f)", base ? base + 1 : path, d->a,
             d->rig_a, d->b, d->rig_b);
  else
    snprintf(title, sizeof title, "%s — rig a = %.3f m, b = %.3f m; no estimate", base ? base + 1 : path, d->rig_a, d->rig_b);
  return write_png(d, png, w, h, title, e);
}

int cmd_slip(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "slip");
  cli_arg(&c, "o");
  cli_arg(&c, "csv");
  cli_arg(&c, "size");
  cli_arg(&c, "ay-max");
  cli_flag(&c, "json");
  cli_flag(&c, "truth-only");
  cli_flag(&c, "plain");
  cli_arg(&c, "ab");
  cli_flag(&c, "quiet");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  int w = 1600, h = 1100;
  const char* size = cli_str(&c, "size", NULL);
  if (size && draw_parse_size(size, &w, &h)) {
    mt_fail(&e, MT_EINPUT, "slip: --size: expected WxH (64..8192), got '%s'", size);
    return cli_report(&e);
  }
  slip_opts o;
  slip_opts_default(&o);
  if (cli_double(&c, "ay-max", o.ay_max, 0.01, 50, &o.ay_max, &e)) return cli_report(&e);
  const char* path = c.pos[0];
  slip_data d;
  if (slip_load(path, cli_set(&c, "plain"), cli_set(&c, "quiet"), &d, &e)) return cli_report(&e);
  double ga = 0, gb = 0;
  if (estimate_or_apply(&c, path, &d, &o, &ga, &gb, &e)) {
    slip_free(&d);
    return cli_report(&e);
  }
  slip_summary sm;
  summarise(&d, &sm);
  int rc = MT_OK;
  if (cli_set(&c, "json")) rc = print_json(&d, path, &sm, &e);
  else print_text(&d, path, &o, cli_str(&c, "ab", NULL), ga, gb, &sm);
  const char* csv = cli_str(&c, "csv", NULL);
  if (!rc && csv) rc = write_csv(&d, csv, &e);
  const char* png = cli_str(&c, "o", NULL);
  if (!rc && png) rc = write_figure(&d, path, png, w, h, &e);
  slip_free(&d);
  if (rc) return cli_report(&e);
  return 0;
}
