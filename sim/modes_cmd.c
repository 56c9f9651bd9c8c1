/* modes_cmd.c — `mototake modes`: the linearised modes of a rig about a trimmed steady state
 * (sim/linear.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/cli.h"
#include "sim/linear.h"
#include "sim/trim.h"

int cmd_modes(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "modes");
  cli_arg(&c, "speed");
  cli_arg(&c, "lean");
  cli_arg(&c, "max-hz");
  cli_flag(&c, "json");
  cli_multi(&c, "set");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  double speed, lean, fmax;
  if (!cli_set(&c, "speed")) {
    mt_fail(&e, MT_EINPUT, "modes: --speed is required (m/s)");
    return cli_report(&e);
  }
  if (cli_double(&c, "speed", 0, 0.5, 120, &speed, &e) || cli_double(&c, "lean", 0, -65, 65, &lean, &e) ||
      cli_double(&c, "max-hz", 60, 0.1, 500, &fmax, &e))
    return cli_report(&e);
  char path[4096];
  rig_resolve(c.pos[0], path, sizeof path);
  const cli_opt* o = cli_get(&c, "set");
  rig* r = rig_load(path, o ? o->values : NULL, o ? o->nvalues : 0, &e);
  if (!r) return cli_report(&e);
  road rd = {0};
  vehicle* v = veh_new(r, rd, 0, &e);
  int rc = v ? MT_OK : MT_EINPUT;
  trim_spec s = {0};
  s.speed = speed;
  s.fix_roll = 1;
  s.roll = lean * MT_PI / 180;
  s.gear = -1;
  trim_result t;
  lin_mode md[128];
  int k = -1;
  if (!rc) rc = trim_solve(v, &s, &t, &e);
  if (!rc && (k = lin_modes(v, 1e-6, md, 128, &e)) < 0) rc = MT_EINTERNAL;
  if (!rc) {
    const int js[6] = {r->j_steer, r->j_twist, r->j_bend, r->j_rider, r->j_fork, r->j_swingarm};
    const char* jn[6] = {"steer", "twist", "bend", "rider", "fork", "swingarm"};
    int js_out = cli_set(&c, "json"), first = 1;
    if (js_out) printf("{\"speed_mps\":%.6g,\"lean_deg\":%.6g,\"modes\":[", speed, lean);
    else {
      printf("modes of %s at %.2f m/s (%.1f km/h), lean %.1f deg: %.3f g\n", r->name, speed, speed * 3.6, lean,
             speed * fabs(t.yaw_rate) / MT_G);
      printf("  %8s %10s %8s   %6s %6s %6s %6s %6s %8s\n", "Hz", "re 1/s", "zeta", jn[0], jn[1], jn[2], jn[3], jn[4], jn[5]);
    }
    for (int i = 0; i < k; i++) {
      if (md[i].freq_hz > fmax) continue;
      if (md[i].freq_hz == 0 && (md[i].re < -50 || fabs(md[i].re) < 1e-4)) continue;
      double sh[6];
      for (int q = 0; q < 6; q++) sh[q] = js[q] >= 0 ? md[i].share[js[q]] : 0;
      if (js_out) {
        printf("%s{\"hz\":%.6g,\"re\":%.6g,\"zeta\":%.6g", first ? "" : ",", md[i].freq_hz, md[i].re, md[i].damping);
        for (int q = 0; q < 6; q++) printf(",\"%s\":%.4g", jn[q], sh[q]);
        printf("}");
      } else {
        printf("  %8.2f %10.3f %8.3f   %6.2f %6.2f %6.2f %6.2f %6.2f %8.2f\n", md[i].freq_hz, md[i].re, md[i].damping, sh[0],
               sh[1], sh[2], sh[3], sh[4], sh[5]);
      }
      first = 0;
    }
    if (js_out) printf("]}\n");
  }
  veh_free(v);
  rig_free(r);
  return rc ? cli_report(&e) : 0;
}
