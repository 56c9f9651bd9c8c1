/* spectrum_cmd.c — `mototake spectrum TAKE --channel NAME`: a recorded channel's amplitude
 * spectrum (sim/spectrum.h) over a time range, its peaks listed, plotted (-o PNG) or as JSON. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/draw.h"
#include "base/cli.h"
#include "base/jsonout.h"
#include "base/progress.h"
#include "sim/spectrum.h"
#include "takes/takefile.h"

#define MAXPEAK 32

static int plot(const sp_result* sp, const sp_peak* pk, int np, double maxhz, const char* chan, const char* unit,
                const char* take, double from, double to, const char* path, mt_err* e) {
  draw_fig f;
  if (draw_fig_new(&f, 1400, 700, e)) return e->code;
  int nb = (int)fmin(sp->nbin, floor(maxhz / sp->df) + 1);
  double* fx = mt_alloc(sizeof(double) * nb);
  for (int k = 0; k < nb; k++) fx[k] = k * sp->df;
  char title[512], yl[128];
  snprintf(title, sizeof title, "Amplitude spectrum of %s, %s, %.2f–%.2f s (Hann window, resolution %.3f Hz)", chan, take, from, to,
           sp->resolution);
  snprintf(yl, sizeof yl, "amplitude (%s)", unit);
  draw_plot pl = {0};
  pl.title = title;
  pl.xlabel = "frequency (Hz)";
  pl.ylabel = yl;
  pl.fixed_x = 1;
  pl.xmin = 0;
  pl.xmax = maxhz;
  double top = 0;
  for (int k = 1; k < nb; k++) top = fmax(top, sp->amp[k]);
  pl.fixed_y = 1;
  pl.ymin = 0;
  pl.ymax = top * 1.15 + 1e-12;
  draw_plot_add(&pl, fx, sp->amp, nb, NULL, 0, 0);
  draw_plot_render(f.cr, 10, 10, 1380, 680, &pl);
  draw_map mp = draw_plot_map(&pl, 10, 10, 1380, 680);
  for (int i = 0; i < np; i++) {
    if (pk[i].hz > maxhz) continue;
    double px = draw_map_x(&mp, pk[i].hz), py = draw_map_y(&mp, pk[i].amp);
    cairo_new_path(f.cr);
    cairo_set_source_rgb(f.cr, 0.8, 0.1, 0.1);
    cairo_arc(f.cr, px, py, 4, 0, 2 * MT_PI);
    cairo_fill(f.cr);
    draw_textf(f.cr, px + 6, py - 4, 13, 0, 1, "%.2f Hz", pk[i].hz);
  }
  int rc = draw_fig_save_png(&f, path, e);
  draw_fig_free(&f);
  free(fx);
  return rc;
}

int cmd_spectrum(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "spectrum");
  const char* args[] = {"channel", "from", "to", "o", "min-hz", "max-hz", "peaks", "pad"};
  for (size_t i = 0; i < MT_ARRAY_LEN(args); i++) cli_arg(&c, args[i]);
  cli_flag(&c, "json");
  cli_flag(&c, "quiet");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* ch = cli_str(&c, "channel", NULL);
  if (!ch) {
    mt_fail(&e, MT_EINPUT, "spectrum: --channel NAME is required (see mototake take info)");
    return cli_report(&e);
  }
  const char* out = cli_str(&c, "o", NULL);
  if (out) {
    size_t L = strlen(out);
    if (L < 4 || strcasecmp(out + L - 4, ".png")) {
      mt_fail(&e, MT_EINPUT, "spectrum: -o %s: the plot is a .png", out);
      return cli_report(&e);
    }
  }
  long npk, pad;
  double minhz, maxhz;
  if (cli_int(&c, "peaks", 5, 1, MAXPEAK, &npk, &e) || cli_int(&c, "pad", 8, 1, 64, &pad, &e) ||
      cli_double(&c, "min-hz", 0, 0, 1e6, &minhz, &e) || cli_double(&c, "max-hz", 0, 0, 1e6, &maxhz, &e))
    return cli_report(&e);
  take_reader* r = take_open(c.pos[0], &e);
  if (!r) return cli_report(&e);
  const take_schema* s = take_schema_of(r);
  int k = -1;
  for (int i = 0; i < s->nchan; i++)
    if (!strcmp(s->chan_names[i], ch)) k = i;
  if (k < 0) {
    int best = 0;
    for (int i = 1; i < s->nchan; i++)
      if (mt_edit_distance(ch, s->chan_names[i]) < mt_edit_distance(ch, s->chan_names[best])) best = i;
    mt_fail(&e, MT_EINPUT, "spectrum: --channel: no channel '%s' in %s (nearest: %s; see mototake take info)", ch, c.pos[0],
            s->chan_names[best]);
    take_close(r);
    return cli_report(&e);
  }
  long nst = take_nsteps(r);
  double dt = s->timestep, dur = (nst - 1) * dt, from, to;
  if (cli_double(&c, "from", 0, -1e9, 1e9, &from, &e) || cli_double(&c, "to", dur, -1e9, 1e9, &to, &e)) {
    take_close(r);
    return cli_report(&e);
  }
  if (from < 0 || to > dur + 1e-9 || !(from < to)) {
    mt_fail(&e, MT_EINPUT, "spectrum: --from %g --to %g is not a range within the take (0 .. %.3f s)", from, to, dur);
    take_close(r);
    return cli_report(&e);
  }
  long a = (long)ceil(from / dt - 1e-9), b = (long)floor(to / dt + 1e-9) + 1, n = b - a;
  double nyq = 0.5 / dt;
  if (maxhz <= 0 || maxhz > nyq) maxhz = fmin(nyq, 60);
  int nc = take_ncols(r, TAKE_CHAN);
  double* buf = mt_alloc(sizeof(double) * nc * (n > 0 ? n : 1));
  double* x = mt_alloc(sizeof(double) * (n > 0 ? n : 1));
  fprog bar;   /* the steps read: the command's time (the FFT is a fraction of it) */
  fprog_start_work(&bar, n, "spectrum", !cli_set(&c, "quiet") && n >= 16);
  int rc = n >= 16 ? take_read_bar(r, TAKE_CHAN, a, n, buf, &bar, 0, &e)
                   : mt_fail(&e, MT_EINPUT, "spectrum: %g..%g s holds %ld samples, too few (at least 16)", from, to, n);
  fprog_end(&bar);
  sp_result sp = {0};
  sp_peak pk[MAXPEAK];
  int np = 0;
  if (!rc) {
    for (long i = 0; i < n; i++) x[i] = buf[i * nc + k];
    rc = sp_spectrum(x, n, dt, (int)pad, &sp, &e);
  }
  if (!rc) {
    np = sp_peaks(&sp, minhz, maxhz, 0.05, pk, (int)npk);
    const char* unit = s->chan_units[k];
    if (cli_set(&c, "json")) {
      json_t* o = json_object();
      json_object_set_new(o, "take", json_string(c.pos[0]));
      json_object_set_new(o, "channel", json_string(ch));
      json_object_set_new(o, "unit", json_string(unit));
      json_object_set_new(o, "from_s", json_real(a * dt));
      json_object_set_new(o, "to_s", json_real((b - 1) * dt));
      json_object_set_new(o, "samples", json_integer(n));
      json_object_set_new(o, "sample_hz", json_real(1 / dt));
      json_object_set_new(o, "window", json_string("hann"));
      json_object_set_new(o, "resolution_hz", json_real(sp.resolution));
      json_t* arr = json_array();
      for (int i = 0; i < np; i++) {
        json_t* p = json_object();
        json_object_set_new(p, "hz", json_real(pk[i].hz));
        json_object_set_new(p, "amplitude", json_real(pk[i].amp));
        json_array_append_new(arr, p);
      }
      json_object_set_new(o, "peaks", arr);
      rc = mt_json_print(stdout, o, JSON_COMPACT | JSON_REAL_PRECISION(10), "spectrum", &e);
      json_decref(o);
    } else {
      printf("spectrum of %s [%s] in %s, %.3f..%.3f s (%ld samples at %g Hz, Hann window, resolution %.3f Hz)\n", ch, unit,
             c.pos[0], a * dt, (b - 1) * dt, n, 1 / dt, sp.resolution);
      printf("  %4s %10s %12s\n", "peak", "Hz", "amplitude");
      for (int i = 0; i < np; i++) printf("  %4d %10.3f %12.5g\n", i + 1, pk[i].hz, pk[i].amp);
      if (!np) printf("  no peaks between %.3g and %g Hz\n", minhz > 0 ? minhz : 2 * sp.resolution, maxhz);
    }
    if (out && !rc) {
      rc = plot(&sp, pk, np, maxhz, ch, unit, c.pos[0], a * dt, (b - 1) * dt, out, &e);
      if (!rc && !cli_set(&c, "json")) printf("wrote %s\n", out);
    }
  }
  sp_free(&sp);
  free(buf);
  free(x);
  take_close(r);
  return rc ? cli_report(&e) : 0;
}
