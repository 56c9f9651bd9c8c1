/* tyre_cmd.c — `mototake tyre`: forces at one operating point; and loading a tyre from a file. */
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "sim/rig.h"
#include "sim/tyre.h"

/* A tyre from a rig file (wheels.<w>.tyre) or a tyre file ({front = {...}, rear = {...}}). */
int tyre_load_file(const char* name, const char* wheel, tyre_params* p, mt_err* e) {
  char path[4096];
  rig_resolve(name, path, sizeof path);
  lua_State* L = luabox_new(NULL);
  char* src = NULL;
  int rc = luabox_run_file(L, path, 1, &src, e);
  if (!rc && !lua_istable(L, -1)) rc = mt_fail(e, MT_EINPUT, "%s: must return a table", path);
  if (!rc) {
    lb_scope top = {.file = path, .src = src};
    int found = 0;
    /* rig shape: wheels.<w>.tyre */
    if (lua_getfield(L, -1, "wheels") == LUA_TTABLE && lua_getfield(L, -1, wheel) == LUA_TTABLE &&
        lua_getfield(L, -1, "tyre") == LUA_TTABLE) {
      lb_scope s = lb_enter(&top, "wheels", 0, NULL);
      s = lb_enter(&s, wheel, 0, NULL);
      static char lab[64];
      snprintf(lab, sizeof lab, "%s tyre", wheel);
      s = lb_enter(&s, "tyre", 0, lab);
      rc = tyre_params_read(L, -1, &s, p, e);
      found = 1;
    }
    lua_settop(L, 1);
    if (!found) {
      /* tyre-file shape: <w> = {...} or <w> = { tyre = {...} } */
      if (lua_getfield(L, -1, wheel) == LUA_TTABLE) {
        static char lab[64];
        snprintf(lab, sizeof lab, "%s tyre", wheel);
        lb_scope s = lb_enter(&top, wheel, 0, lab);
        if (lua_getfield(L, -1, "tyre") == LUA_TTABLE) s = lb_enter(&s, "tyre", 0, lab);
        else lua_pop(L, 1);
        rc = tyre_params_read(L, -1, &s, p, e);
        found = 1;
      }
    }
    if (!found && !rc) rc = mt_fail(e, MT_EINPUT, "%s: no %s tyre (wheels.%s.tyre or %s = {...})", path, wheel, wheel, wheel);
  }
  free(src);
  luabox_close(L);
  return rc;
}

int cmd_tyre(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "tyre");
  const char* names[] = {"wheel", "fz", "kappa", "alpha", "camber", "speed", "grip"};
  for (size_t i = 0; i < MT_ARRAY_LEN(names); i++) cli_arg(&c, names[i]);
  cli_flag(&c, "json");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* wheel = cli_str(&c, "wheel", "front");
  if (strcmp(wheel, "front") && strcmp(wheel, "rear")) {
    mt_fail(&e, MT_EINPUT, "tyre: --wheel: expected front or rear, got '%s'", wheel);
    return cli_report(&e);
  }
  double fz, kappa, alpha, camber, speed, grip;
  if (!cli_set(&c, "fz")) {
    mt_fail(&e, MT_EINPUT, "tyre: --fz is required (the vertical load in N)");
    return cli_report(&e);
  }
  if (cli_double(&c, "fz", 0, 0, 1e5, &fz, &e) || cli_double(&c, "kappa", 0, -1, 1, &kappa, &e) ||
      cli_double(&c, "alpha", 0, -1.5, 1.5, &alpha, &e) || cli_double(&c, "camber", 0, -1.4, 1.4, &camber, &e) ||
      cli_double(&c, "speed", 20, 0, 150, &speed, &e) || cli_double(&c, "grip", 1, 0.01, 2, &grip, &e))
    return cli_report(&e);
  tyre_params p;
  if (tyre_load_file(c.pos[0], wheel, &p, &e)) return cli_report(&e);
  p.grip *= grip;
  tyre_forces_t f;
  tyre_forces(&p, fz, kappa, alpha, camber, &f);
  double sy = tyre_sigma_y(&p, fz, camber, speed);
  if (cli_set(&c, "json")) {
    printf("{\"wheel\":\"%s\",\"fz_N\":%.9g,\"kappa\":%.9g,\"alpha_rad\":%.9g,\"camber_rad\":%.9g,\"fx_N\":%.9g,"
           "\"fy_N\":%.9g,\"mz_Nm\":%.9g,\"trail_m\":%.9g,\"residual_moment_Nm\":%.9g,\"kx_N\":%.9g,\"ky_N_per_rad\":%.9g,"
           "\"sigma_x_m\":%.9g,\"sigma_y_m\":%.9g}\n",
           wheel, fz, kappa, alpha, camber, f.fx, f.fy, f.mz, f.trail, f.mzr, f.kxk, f.kya, p.sigma_x, sy);
  } else {
    printf("%s tyre (%s) at Fz %.0f N, kappa %.4f, alpha %.4f rad (%.2f deg), camber %.4f rad (%.2f deg)\n", wheel,
           p.preset[0] ? p.preset : "custom", fz, kappa, alpha, alpha * 180 / MT_PI, camber, camber * 180 / MT_PI);
    printf("  Fx          %10.2f N      (pure slip %.2f N, peak factor Dx %.1f N)\n", f.fx, f.fx0, f.dx);
    printf("  Fy          %10.2f N      (pure slip %.2f N, peak factor Dy %.1f N)\n", f.fy, f.fy0, f.dy);
    printf("  Mz          %10.3f N·m    (about the road normal, positive turns the wheel left)\n", f.mz);
    printf("  trail       %10.4f m      (pneumatic); residual moment %.3f N·m\n", f.trail, f.mzr);
    printf("  stiffness   Kx %.0f N, Ky %.0f N/rad\n", f.kxk, f.kya);
    printf("  relaxation  sigma_x %.3f m, sigma_y %.3f m at %.1f m/s\n", p.sigma_x, sy, speed);
  }
  return 0;
}
