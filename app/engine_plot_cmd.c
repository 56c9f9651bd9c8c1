/* engine_plot_cmd.c — `mototake plot engine ENGINE|RIG -o FILE.png [--kind curves|gears|chain]
 * [--size WxH] [--wheel-radius M] [--pivot X,Z] [--cog X,Z] [--wheelbase M] [--set KEY=VALUE...]`:
 * the options, the powertrain (an engine file, or a rig's with overrides), the PNG; the figures
 * are render/engine_plot.c. */
#include <stdio.h>
#include <string.h>

#include "render/draw.h"
#include "render/engine_plot.h"
#include "base/cli.h"
#include "sim/powertrain.h"
#include "sim/rig.h"

static int parse_xz(const cli* c, const char* name, double dflt[2], mt_err* e) {
  const char* s = cli_str(c, name, NULL);
  if (!s) return MT_OK;
  double a, b;
  char buf[128];
  snprintf(buf, sizeof buf, "%s", s);
  char* comma = strchr(buf, ',');
  if (comma) *comma = 0;
  if (strlen(s) >= sizeof buf || !comma || cli_parse_double(buf, &a) || cli_parse_double(comma + 1, &b))
    return mt_fail(e, MT_EINPUT, "plot engine: --%s: expected X,Z in metres, got '%s'", name, s);
  dflt[0] = a;
  dflt[1] = b;
  return MT_OK;
}

int cmd_plot_engine(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "plot engine");
  cli_arg(&c, "o");
  cli_arg(&c, "size");
  cli_arg(&c, "kind");
  cli_arg(&c, "wheel-radius");
  cli_arg(&c, "pivot");
  cli_arg(&c, "cog");
  cli_arg(&c, "wheelbase");
  cli_multi(&c, "set");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) return cli_report(&(mt_err){MT_EINPUT, "plot engine: -o FILE.png is required"});
  const char* kind = cli_str(&c, "kind", "curves");
  int k = strcmp(kind, "curves") == 0 ? 0 : strcmp(kind, "gears") == 0 ? 1 : strcmp(kind, "chain") == 0 ? 2 : -1;
  if (k < 0) return cli_report(&(mt_err){MT_EINPUT, "plot engine: --kind: expected curves, gears or chain"});
  int W = k == 2 ? 1600 : 1600, H = k == 0 ? 1100 : k == 1 ? 800 : 900;
  if (cli_set(&c, "size") && draw_parse_size(cli_str(&c, "size", ""), &W, &H))
    return cli_report(&(mt_err){MT_EINPUT, "plot engine: --size: expected WxH in pixels, each 64..8192"});
  /* SEL 2004 geometry (shared/data/sharp_motorcycle.json): pivot p11, combined centre of mass
   * of all bodies including the rider, wheelbase p6.x − p7.x. */
  double pivot[2] = {0.549, 0.3608}, cog[2] = {0.6614, 0.5452}, wb = 1.41, rw = -1;
  if (parse_xz(&c, "pivot", pivot, &e) || parse_xz(&c, "cog", cog, &e) ||
      cli_double(&c, "wheelbase", wb, 0.3, 5, &wb, &e) || cli_double(&c, "wheel-radius", -1, 0.05, 2, &rw, &e))
    return cli_report(&e);
  if (!(cog[1] > 0)) return cli_report(&(mt_err){MT_EINPUT, "plot engine: --cog: the height Z must be > 0"});
  powertrain pt;
  const cli_opt* so = cli_get(&c, "set");
  if (so->nvalues > 0) {   /* --set: the rig's engine and drivetrain with the overrides applied */
    char path[4096];
    rig_resolve(c.pos[0], path, sizeof path);
    rig* r = rig_load(path, so->values, so->nvalues, &e);
    if (!r) return cli_report(&e);
    memset(&pt, 0, sizeof pt);
    pt.engine = r->engine;
    pt.drive = r->drive;
    pt.has_drive = 1;
    snprintf(pt.path, sizeof pt.path, "%s", path);
    snprintf(pt.name, sizeof pt.name, "%s", r->name);
    rig_free(r);
  } else if (powertrain_load(c.pos[0], &pt, &e)) return cli_report(&e);
  if (k > 0 && !pt.has_drive) return cli_report(&(mt_err){MT_EINPUT, "plot engine: --kind gears/chain needs a drivetrain table in the file"});
  if (rw < 0) rw = pt.has_drive && pt.drive.rear_sprocket[2] > 0 ? pt.drive.rear_sprocket[2] : 0.3;
  draw_fig f;
  if (draw_fig_new(&f, W, H, &e)) return cli_report(&e);
  if (k == 0) ep_curves(&pt, f.cr, W, H);
  else if (k == 1) ep_gears(&pt, f.cr, W, H, rw);
  else ep_chain(&pt, f.cr, W, H, rw, pivot, cog, wb);
  int rc = draw_fig_save_png(&f, out, &e);
  draw_fig_free(&f);
  if (rc) return cli_report(&e);
  return 0;
}
