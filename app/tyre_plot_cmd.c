/* tyre_plot_cmd.c — `mototake plot tyre TYRE|RIG -o FILE.png [--wheel front|rear]
 * [--quantity all|fx|fy|mz|ellipse] [--size WxH] [--set KEY=VALUE...]`: the options, the tyre
 * (a tyre file's preset, or a rig's tyre with overrides), the PNG; the figure is tyre_plot.c. */
#include <stdio.h>
#include <string.h>

#include "render/draw.h"
#include "render/tyre_plot.h"
#include "base/cli.h"
#include "sim/rig.h"
#include "sim/tyre.h"

/* The tyre of `wheel` (front or rear): a tyre file's preset, or with --set the rig's tyre with the
 * overrides applied (the web rig editor). */
static int load_tyre(const char* name, const char* wheel, const cli_opt* so, tyre_params* p, mt_err* e) {
  if (so->nvalues == 0) return tyre_load_file(name, wheel, p, e);
  char path[4096];
  rig_resolve(name, path, sizeof path);
  rig* r = rig_load(path, so->values, so->nvalues, e);
  if (!r) return e->code;
  *p = r->wheel[strcmp(wheel, "front") == 0 ? 0 : 1].tyre;
  rig_free(r);
  return MT_OK;
}

/* n tyres' figures side by side on a W×H canvas, each in its own n-th of the width. */
static void draw_tyres(cairo_t* cr, const tyre_params* p, const char* const* names, int n, int which, int W, int H, int nov) {
  int w = W / n;
  for (int i = 0; i < n; i++) {
    cairo_save(cr);
    cairo_translate(cr, i * w, 0);
    cairo_rectangle(cr, 0, 0, w, H);
    cairo_clip(cr);
    tp_draw(cr, &p[i], which, w, H, names[i], nov);
    cairo_restore(cr);
  }
}

int cmd_plot_tyre(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "plot tyre");
  cli_arg(&c, "o");
  cli_arg(&c, "wheel");
  cli_arg(&c, "quantity");
  cli_arg(&c, "size");
  cli_multi(&c, "set");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "plot tyre: -o FILE.png is required");
    return cli_report(&e);
  }
  /* no --wheel: both tyres side by side, front on the left (one was drawn and the rear left out) */
  const char* wheel = cli_str(&c, "wheel", NULL);
  if (wheel && strcmp(wheel, "front") && strcmp(wheel, "rear")) {
    mt_fail(&e, MT_EINPUT, "plot tyre: --wheel: expected front or rear, got '%s'", wheel);
    return cli_report(&e);
  }
  const char* q = cli_str(&c, "quantity", "all");
  int which = !strcmp(q, "all")       ? TP_ALL
              : !strcmp(q, "fx")      ? TP_FX
              : !strcmp(q, "fy")      ? TP_FY
              : !strcmp(q, "mz")      ? TP_MZ
              : !strcmp(q, "ellipse") ? TP_ELLIPSE
                                      : -1;
  if (which < 0) {
    mt_fail(&e, MT_EINPUT, "plot tyre: --quantity: expected fx, fy, mz or ellipse, got '%s'", q);
    return cli_report(&e);
  }
  int both = !wheel, W = (which != TP_ALL ? 1000 : 1600) * (both ? 2 : 1), H = which != TP_ALL ? 700 : 1200;
  if (cli_set(&c, "size") && draw_parse_size(cli_str(&c, "size", ""), &W, &H)) {
    mt_fail(&e, MT_EINPUT, "plot tyre: --size: expected WxH within 64..8192, got '%s'", cli_str(&c, "size", ""));
    return cli_report(&e);
  }
  const char* names[2] = {both ? "front" : wheel, "rear"};
  tyre_params p[2];
  const cli_opt* so = cli_get(&c, "set");
  for (int i = 0; i < 1 + both; i++)
    if (load_tyre(c.pos[0], names[i], so, &p[i], &e)) return cli_report(&e);
  draw_fig f;
  if (draw_fig_new(&f, W, H, &e)) return cli_report(&e);
  draw_tyres(f.cr, p, names, 1 + both, which, W, H, so->nvalues);
  int rc = draw_fig_save_png(&f, out, &e);
  draw_fig_free(&f);
  return rc ? cli_report(&e) : 0;
}
