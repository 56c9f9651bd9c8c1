/* plan_cmd.c — `mototake track plan TRACK -o FILE.png [--size WxH]`: the options, the track
 * file, the PNG; the sheet is drawn by plan_draw_sheet (render/plan.h). */
#include "render/draw.h"
#include "render/plan.h"
#include "base/cli.h"

int cmd_track_plan(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "track plan");
  cli_arg(&c, "o");
  cli_arg(&c, "size");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "track plan: -o FILE.png is required");
    return cli_report(&e);
  }
  int W = 1600, H = 1200;
  if (cli_set(&c, "size") && draw_parse_size(cli_str(&c, "size", ""), &W, &H)) {
    mt_fail(&e, MT_EINPUT, "track plan: --size: expected WxH within 64..8192, got '%s'", cli_str(&c, "size", ""));
    return cli_report(&e);
  }
  char path[4096];
  track_resolve(c.pos[0], path, sizeof path);
  track* t = track_load(path, &e);
  if (!t) return cli_report(&e);
  draw_fig f;
  if (draw_fig_new(&f, W, H, &e)) {
    track_free(t);
    return cli_report(&e);
  }
  plan_draw_sheet(f.cr, t, W, H);
  int rc = draw_fig_save_png(&f, out, &e);
  draw_fig_free(&f);
  track_free(t);
  return rc ? cli_report(&e) : 0;
}
