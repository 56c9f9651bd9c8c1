/* rig_cmd.c — `mototake rig info` and `mototake trim`. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "sim/track.h"
#include "sim/trim.h"

/* Geometry figures of a rig in its reference pose. */
typedef struct rig_geom {
  double mass, com[3], wheelbase, rake, trail, a, b, offset;
} rig_geom;

static void rig_geometry(const rig* r, rig_geom* g) {
  g->mass = rig_total_mass(r, g->com);
  const rig_joint* st = &r->joint[r->j_steer];
  const double* fw = r->wheel[RIG_FRONT].centre;
  const double* rw = r->wheel[RIG_REAR].centre;
  double Rf = r->wheel[RIG_FRONT].tyre.r0, Rr = r->wheel[RIG_REAR].tyre.r0;
  (void)Rr;
  /* contact points of the upright machine: straight below the wheel centres */
  double xf = fw[0], xr = rw[0];
  g->wheelbase = xf - xr;
  g->rake = atan2(-st->axis[0], st->axis[2]);
  /* steering axis meets the ground (z = centre height − radius, i.e. the road under the front) */
  double zg = fw[2] - Rf;
  double t = (zg - st->anchor[2]) / st->axis[2];
  double xa = st->anchor[0] + t * st->axis[0];
  g->trail = xa - xf;
  /* fork offset: distance of the wheel centre from the steering axis */
  double d[3] = {fw[0] - st->anchor[0], 0, fw[2] - st->anchor[2]};
  g->offset = fabs(d[0] * st->axis[2] - d[2] * st->axis[0]);
  g->a = xf - g->com[0];   /* CG to front axle */
  g->b = g->com[0] - xr;   /* CG to rear axle */
}

static void add_sets(cli* c) { cli_multi(c, "set"); }

static rig* load_rig(const cli* c, const char* name, mt_err* e) {
  char path[4096];
  rig_resolve(name, path, sizeof path);
  const cli_opt* o = cli_get(c, "set");
  return rig_load(path, o ? o->values : NULL, o ? o->nvalues : 0, e);
}

int cmd_rig_info(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "rig info");
  cli_flag(&c, "json");
  cli_flag(&c, "params");
  add_sets(&c);
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  if (cli_set(&c, "params")) {
    /* every numeric parameter, presets and defaults included: what --set accepts */
    char path[4096];
    rig_resolve(c.pos[0], path, sizeof path);
    const cli_opt* o = cli_get(&c, "set");
    rig_params ps;
    rig* r = rig_load_params(path, o ? o->values : NULL, o ? o->nvalues : 0, &ps, &e);
    if (!r) return cli_report(&e);
    int js = cli_set(&c, "json");
    if (js) printf("[");
    for (int i = 0; i < ps.n; i++) {
      if (js) printf("%s{\"key\":\"%s\",\"value\":%.17g,\"unit\":\"%s\"}", i ? "," : "", ps.p[i].key, ps.p[i].value, ps.p[i].unit);
      else printf("%-52s %-16.10g %s\n", ps.p[i].key, ps.p[i].value, ps.p[i].unit);
    }
    if (js) printf("]\n");
    rig_params_free(&ps);
    rig_free(r);
    return 0;
  }
  rig* r = load_rig(&c, c.pos[0], &e);
  if (!r) return cli_report(&e);
  rig_geom g;
  rig_geometry(r, &g);
  road rd = {0};
  vehicle* v = veh_new(r, rd, 0, &e);
  if (!v) {
    rig_free(r);
    return cli_report(&e);
  }
  trim_spec s = {0};
  s.fix_roll = 1;
  s.gear = 0;
  trim_result t;
  int rc = trim_solve(v, &s, &t, &e);
  int dof = veh_dof_count(v);   /* includes the crank */
  int states = 2 * veh_dof_count(v) + veh_tyre_state_count(v);
  if (rc) {
    veh_free(v);
    rig_free(r);
    return cli_report(&e);
  }
  double W = g.mass * MT_G;
  double ff_geom = W * g.b / g.wheelbase;
  if (cli_set(&c, "json")) {
    printf("{\"name\":\"%s\",\"mass_kg\":%.6g,\"cg_m\":[%.6g,%.6g,%.6g],\"wheelbase_m\":%.6g,\"rake_deg\":%.6g,"
           "\"trail_m\":%.6g,\"fork_offset_m\":%.6g,\"a_m\":%.6g,\"b_m\":%.6g,\"static_front_N\":%.6g,\"static_rear_N\":%.6g,"
           "\"static_front_geometric_N\":%.6g,\"dof\":%d,\"states\":%d,\"bodies\":%d,\"joints\":%d,"
           "\"fork_sag_m\":%.6g,\"shock_sag_m\":%.6g}\n",
           r->name, g.mass, g.com[0], g.com[1], g.com[2], g.wheelbase, g.rake * 180 / MT_PI, g.trail, g.offset, g.a, g.b,
           t.fz_front, t.fz_rear, ff_geom, dof, states, r->nbody, r->njoint, t.fork_sag, t.shock_sag);
  } else {
    printf("rig %s (%s)\n", r->name, r->path);
    printf("  total mass          %8.2f kg (%d bodies, %d joints, %d degrees of freedom incl. crank; %d states)\n", g.mass,
           r->nbody, r->njoint, dof, states);
    printf("  centre of gravity   x %.4f  z %.4f m (design frame: from the rear contact, z up)\n", g.com[0], g.com[2]);
    printf("  wheelbase           %8.4f m\n", g.wheelbase);
    printf("  rake (caster)       %8.2f deg\n", g.rake * 180 / MT_PI);
    printf("  trail               %8.4f m   (fork offset %.4f m)\n", g.trail, g.offset);
    printf("  a (CG to front axle)%8.4f m\n", g.a);
    printf("  b (CG to rear axle) %8.4f m\n", g.b);
    printf("  static loads        front %.1f N (%.1f %%), rear %.1f N (from the static trim)\n", t.fz_front,
           100 * t.fz_front / (t.fz_front + t.fz_rear), t.fz_rear);
    printf("  geometric split     front %.1f N = W·b/wheelbase (reference pose)\n", ff_geom);
    printf("  static sag          fork %.1f mm, shock %.1f mm (from full extension)\n", 1000 * t.fork_sag, 1000 * t.shock_sag);
  }
  veh_free(v);
  rig_free(r);
  return 0;
}

/* One trim row: the steady state and its checks, as text or JSON. */
static void print_trim(const rig* r, double speed, const trim_result* t, int json, int row) {
  double d = 180 / MT_PI;
  if (json) {
    char line[1024];
    trim_json(speed, t, line, sizeof line);
    printf("%s\n", line);
  } else if (row) {
    printf("%7.2f %9.2f %9.4f %9.3f %9.3f %7.3f %4d %9.3f %9.3f %8.2g %5d\n", t->roll * d,
           isfinite(t->radius) && fabs(t->radius) < 1e6 ? t->radius : 0, t->yaw_rate, t->steer_angle * d, t->steer_torque,
           t->throttle, t->gear, t->alpha_front * d, t->alpha_rear * d, t->residual, t->iterations);
  } else {
    printf("steady state of %s at %.2f m/s (%.1f km/h), lean %.2f deg (ISO roll, positive right)\n", r->name, speed,
           speed * 3.6, t->roll * d);
    if (isfinite(t->radius) && fabs(t->radius) < 1e6)
      printf("  turn radius      %10.2f m (%s), yaw rate %.4f rad/s, sideslip %.4f rad\n", fabs(t->radius),
             t->radius > 0 ? "left" : "right", t->yaw_rate, t->sideslip);
    else
      printf("  straight running\n");
    printf("  pitch            %10.4f rad (positive nose down)\n", t->pitch);
    printf("  steer angle      %10.4f rad (%.2f deg, positive left)%s\n", t->steer_angle, t->steer_angle * d,
           t->steer_angle * t->yaw_rate < 0 ? ": counter-steer, the rear tyre slips more" : "");
    printf("  steer torque     %10.3f N·m\n", t->steer_torque);
    printf("  throttle         %10.3f   gear %d, %.0f rpm\n", t->throttle, t->gear, t->rpm);
    char note[200];
    if (trim_clutch_note(t, note, sizeof note)) printf("  %s\n", note);
    printf("  sag              fork %.1f mm, shock %.1f mm (from full extension)\n", 1000 * t->fork_sag,
           1000 * t->shock_sag);
    printf("  tyre loads       front %.1f N, rear %.1f N\n", t->fz_front, t->fz_rear);
    printf("  slip angles      front %.3f deg, rear %.3f deg (checked below %.1f deg)\n", t->alpha_front * d,
           t->alpha_rear * d, TRIM_MAX_SLIP * d);
    printf("  slip ratios      front %.4f, rear %.4f\n", t->kappa_front, t->kappa_rear);
    printf("  solved in %d iterations (%d continuation steps from upright), residual %.2g\n", t->iterations, t->steps,
           t->residual);
  }
}

/* "A:B:STEP" → a, b, step; 0 on success. */
static int parse_range(const char* s, double* a, double* b, double* step) {
  char buf[128];
  snprintf(buf, sizeof buf, "%s", s);
  char* c1 = strchr(buf, ':');
  if (!c1) return -1;
  *c1 = 0;
  char* c2 = strchr(c1 + 1, ':');
  if (!c2) return -1;
  *c2 = 0;
  if (cli_parse_double(buf, a) || cli_parse_double(c1 + 1, b) || cli_parse_double(c2 + 1, step)) return -1;
  if (!(*step > 0) || fabs(*a) > 65 || fabs(*b) > 65 || (*b - *a) / *step > 1000) return -1;
  return 0;
}

int cmd_trim(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "trim");
  cli_arg(&c, "speed");
  cli_arg(&c, "lean");
  cli_arg(&c, "radius");
  cli_arg(&c, "gear");
  cli_arg(&c, "track");
  cli_arg(&c, "station");
  cli_flag(&c, "json");
  add_sets(&c);
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  double speed, lean = 0, radius = 0, station = 0, a = 0, b = 0, step = 1;
  long gear;
  int sweep = 0;
  if (!cli_set(&c, "speed")) {
    mt_fail(&e, MT_EINPUT, "trim: --speed is required (m/s)");
    return cli_report(&e);
  }
  if (cli_set(&c, "lean") && strchr(cli_str(&c, "lean", ""), ':')) {
    if (parse_range(cli_str(&c, "lean", ""), &a, &b, &step)) {
      mt_fail(&e, MT_EINPUT, "trim: --lean: expected DEG or FROM:TO:STEP (degrees within ±65, step > 0), got '%s'",
              cli_str(&c, "lean", ""));
      return cli_report(&e);
    }
    sweep = 1;
  } else if (cli_double(&c, "lean", 0, -HUGE_VAL, HUGE_VAL, &lean, &e)) {
    return cli_report(&e);
  }
  int nmode = cli_set(&c, "lean") + cli_set(&c, "radius") + cli_set(&c, "track");
  if (nmode > 1) {
    mt_fail(&e, MT_EINPUT, "trim: give one of --lean, --radius or --track (with --station)");
    return cli_report(&e);
  }
  if (cli_set(&c, "station") && !cli_set(&c, "track")) {
    mt_fail(&e, MT_EINPUT, "trim: --station needs --track");
    return cli_report(&e);
  }
  if (cli_double(&c, "speed", 0, -HUGE_VAL, HUGE_VAL, &speed, &e) || cli_double(&c, "radius", 0, -1e6, 1e6, &radius, &e) ||
      cli_double(&c, "station", 0, -1e6, 1e6, &station, &e) || cli_int(&c, "gear", -1, LONG_MIN, LONG_MAX, &gear, &e) ||
      trim_check_args(speed, lean, gear, &e))   /* the ranges: sim/trim.h, libmototake's too */
    return cli_report(&e);
  if (cli_set(&c, "radius") && fabs(radius) < 1) {
    mt_fail(&e, MT_EINPUT, "trim: --radius: expected at least 1 m in size (positive left), got %g", radius);
    return cli_report(&e);
  }
  rig* r = load_rig(&c, c.pos[0], &e);
  if (!r) return cli_report(&e);
  track* trk = NULL;
  road rd = {0};
  trim_spec s = {0};
  s.speed = speed;
  s.gear = (int)gear;
  s.fix_roll = 1;
  s.roll = lean * MT_PI / 180;
  if (cli_set(&c, "radius")) {
    s.fix_roll = 0;
    s.yaw_rate = speed / radius;
  }
  if (cli_set(&c, "track")) {
    char path[4096];
    track_resolve(cli_str(&c, "track", ""), path, sizeof path);
    trk = track_load(path, &e);
    if (!trk) {
      rig_free(r);
      return cli_report(&e);
    }
    if (track_closed(trk)) station = fmod(fmod(station, track_length(trk)) + track_length(trk), track_length(trk));
    double p[3], h;
    track_eval(trk, station, 0, p, &h);
    s.x = p[0];
    s.y = p[1];
    s.z = p[2];
    s.heading = h;
    s.fix_roll = 0;
    s.yaw_rate = speed * track_curvature(trk, station);
    rd = track_road(trk);
  }
  vehicle* v = veh_new(r, rd, 0, &e);
  if (!v) {
    track_free(trk);
    rig_free(r);
    return cli_report(&e);
  }
  int json = cli_set(&c, "json"), rc = 0;
  trim_result t;
  if (!sweep) {
    rc = trim_solve(v, &s, &t, &e);
    if (!rc) print_trim(r, speed, &t, json, 0);
  } else {
    if (!json)
      printf("# %s at %.2f m/s: steady turns, lean %g to %g deg\n#  lean    radius  yaw_rate     steer    torque "
             "throttle gear  slip_f   slip_r   residual iters\n#   deg         m     rad/s       deg       N·m        1"
             "          deg       deg\n",
             r->name, speed, a, b);
    int n = (int)floor((b - a) / step + 1e-9);
    for (int k = 0; k <= n && !rc; k++) {
      s.roll = (a + k * step) * MT_PI / 180;
      rc = trim_solve(v, &s, &t, &e);
      if (!rc) print_trim(r, speed, &t, json, 1);
      fflush(stdout);
    }
  }
  veh_free(v);
  track_free(trk);
  rig_free(r);
  return rc ? cli_report(&e) : 0;
}
