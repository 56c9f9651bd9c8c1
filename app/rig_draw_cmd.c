/* rig_draw_cmd.c — `mototake rig draw RIG -o FILE.png [--size WxH] [--set KEY=VALUE...]`: the
 * options, the rig file (with overrides), the PNG; the drawing is rd_draw_elevation
 * (render/rig_draw.h). */
#include "render/draw.h"
#include "render/rig_draw.h"
#include "base/cli.h"
#include "sim/rig.h"

int cmd_rig_draw(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "rig draw");
  cli_arg(&c, "o");
  cli_arg(&c, "size");
  cli_multi(&c, "set");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "rig draw: -o FILE.png is required");
    return cli_report(&e);
  }
  int W = 1600, H = 1000;
  if (cli_set(&c, "size") && draw_parse_size(cli_str(&c, "size", ""), &W, &H)) {
    mt_fail(&e, MT_EINPUT, "rig draw: --size: expected WxH within 64..8192, got '%s'", cli_str(&c, "size", ""));
    return cli_report(&e);
  }
  char path[4096];
  rig_resolve(c.pos[0], path, sizeof path);
  const cli_opt* so = cli_get(&c, "set");
  rig* r = rig_load(path, so->values, so->nvalues, &e);
  if (!r) return cli_report(&e);
  draw_fig f;
  if (draw_fig_new(&f, W, H, &e)) {
    rig_free(r);
    return cli_report(&e);
  }
  rd_draw_elevation(f.cr, r, W, H);
  int rc = draw_fig_save_png(&f, out, &e);
  draw_fig_free(&f);
  rig_free(r);
  return rc ? cli_report(&e) : 0;
}
