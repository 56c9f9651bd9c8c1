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
  const char* wheel = cli_str(&c, "wheel", "front");
  if (strcmp(wheel, "front") && strcmp(wheel, "rear")) {
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
  int W = which != TP_ALL ? 1000 : 1600, H = which != TP_ALL ? 700 : 1200;
  if (cli_set(&c, "size") && draw_parse_size(cli_str(&c, "size", ""), &W, &H)) {
    mt_fail(&e, MT_EINPUT, "plot tyre: --size: expected WxH within 64..8192, got '%s'", cli_str(&c, "size", ""));
    return cli_report(&e);
  }
  tyre_params p;
  const cli_opt* so = cli_get(&c, "set");
  if (so->nvalues > 0) {   /* --set: the rig's tyre with the overrides applied (the web rig editor) */
    char path[4096];
    rig_resolve(c.pos[0], path, sizeof path);
    rig* r = rig_load(path, so->values, so->nvalues, &e);
    if (!r) return cli_report(&e);
    p = r->wheel[strcmp(wheel, "front") == 0 ? 0 : 1].tyre;
    rig_free(r);
  } else if (tyre_load_file(c.pos[0], wheel, &p, &e)) return cli_report(&e);
  draw_fig f;
  if (draw_fig_new(&f, W, H, &e)) return cli_report(&e);
  tp_draw(f.cr, &p, which, W, H, wheel, so->nvalues);
  int rc = draw_fig_save_png(&f, out, &e);
  draw_fig_free(&f);
  return rc ? cli_report(&e) : 0;
}
