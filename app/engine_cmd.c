/* engine_cmd.c — `mototake engine RIG --rpm R --throttle T [--json] [--bench N]`: the engine at one
 * operating point (a dyno reading), or its evaluation speed. */
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "base/cli.h"
#include "sim/powertrain.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Evaluations per second, cold (no hint) and warm (hint = the previous pm along a slow sweep,
 * as a simulation step sees it). Prints one line each. */
static void bench(const engine_params* p, long n) {
  engine_out o;
  double sink = 0, lo = 1000 * MT_PI / 30, hi = 14000 * MT_PI / 30;
  unsigned s = 12345;
  double t0 = now();
  for (long i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    double w = lo + (hi - lo) * (s >> 8) / 16777216.0;
    double u = (s & 0xff) / 255.0;
    engine_eval(p, w, u, &o);
    sink += o.torque_brake;
  }
  double t1 = now();
  double pm = -1;
  for (long i = 0; i < n; i++) {
    /* a 1 kHz step through a 10 s run-up with a throttle blip every second */
    double t = 10.0 * i / n;
    double w = lo + (hi - lo) * t / 10.0, u = 0.5 + 0.5 * sin(2 * MT_PI * t);
    engine_eval_hint(p, w, u, pm, &o);
    pm = o.pm;
    sink += o.torque_brake;
  }
  double t2 = now();
  printf("engine_eval: %ld evaluations, %.3g evaluations/s (cold, random points), "
         "%.3g evaluations/s (warm start along a run)%s\n",
         n, n / (t1 - t0), n / (t2 - t1), sink == 12345.678 ? " " : "");
}

static void print_text(const powertrain* pt, const engine_out* o, double p0) {
  double rpm = o->omega * 30 / MT_PI;
  printf("%s (%s)\n", pt->name, pt->path);
  printf("  engine speed           %.0f rpm\n", rpm);
  printf("  throttle               %.1f %% (with the idle governor: %.3f %%)\n", 100 * o->throttle, 100 * o->throttle_eff);
  printf("  manifold pressure      %.3f kPa (pm/p0 = %.4f, %s)\n", o->pm / 1e3, o->pm / p0, o->choked ? "choked throttle" : "subsonic throttle");
  printf("  air flow               %.3f g/s\n", 1e3 * o->mdot_cyl);
  printf("  fuel flow              %.3f g/s (fuel fraction %.3f)\n", 1e3 * o->mdot_fuel, o->fuel_fraction);
  printf("  volumetric efficiency  %.4f\n", o->eta_v);
  printf("  thermal efficiency     %.4f\n", o->eta_t);
  printf("  indicated torque       %.2f N m\n", o->torque_indicated);
  printf("  pumping loss           %.2f N m\n", o->torque_pumping);
  printf("  friction loss          %.2f N m\n", o->torque_friction);
  printf("  brake torque           %.2f N m\n", o->torque_brake);
  printf("  brake power            %.2f kW (%.1f PS)\n", o->power / 1e3, o->power / 735.49875);
  if (o->power > 0 && o->mdot_fuel > 0) printf("  bsfc                   %.0f g/kWh\n", o->mdot_fuel * 3.6e9 / o->power);
}

/* A JSON string literal: quotes, backslashes and control characters escaped. */
static void json_str(const char* s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') printf("\\%c", ch);
    else if (ch < 0x20) printf("\\u%04x", ch);
    else putchar(ch);
  }
  putchar('"');
}

static void print_json(const powertrain* pt, const engine_out* o, double p0) {
  printf("{\"engine\": ");
  json_str(pt->name);
  printf(", \"rpm\": %.17g, \"omega\": %.17g, \"throttle\": %.17g, \"throttle_effective\": %.17g,\n"
         " \"manifold_pressure\": %.17g, \"pressure_ratio\": %.17g, \"choked\": %s,\n"
         " \"air_flow\": %.17g, \"fuel_flow\": %.17g, \"fuel_fraction\": %.17g, \"eta_v\": %.17g, \"eta_t\": %.17g,\n"
         " \"torque_indicated\": %.17g, \"torque_pumping\": %.17g, \"torque_friction\": %.17g,\n"
         " \"torque_brake\": %.17g, \"power\": %.17g,\n"
         " \"units\": {\"omega\": \"rad/s\", \"manifold_pressure\": \"Pa\", \"air_flow\": \"kg/s\", \"fuel_flow\": \"kg/s\","
         " \"torque\": \"N m\", \"power\": \"W\"}}\n",
         o->omega * 30 / MT_PI, o->omega, o->throttle, o->throttle_eff, o->pm, o->pm / p0,
         o->choked ? "true" : "false", o->mdot_cyl, o->mdot_fuel, o->fuel_fraction, o->eta_v, o->eta_t,
         o->torque_indicated, o->torque_pumping, o->torque_friction, o->torque_brake, o->power);
}

int cmd_engine(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "engine");
  cli_arg(&c, "rpm");
  cli_arg(&c, "throttle");
  cli_arg(&c, "bench");
  cli_flag(&c, "json");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  /* Check the command line before reading the file: its errors are cheaper to fix. */
  double rpm = 0, thr = 0;
  long nb = 0;
  if (cli_int(&c, "bench", 0, 1, 1000000000L, &nb, &e) ||
      cli_double(&c, "rpm", 0, 0, 100000, &rpm, &e) ||
      cli_double(&c, "throttle", 0, 0, 1, &thr, &e))
    return cli_report(&e);
  if (!nb && !cli_set(&c, "rpm")) mt_fail(&e, MT_EINPUT, "engine: --rpm is required (see mototake help engine)");
  else if (!nb && !cli_set(&c, "throttle")) mt_fail(&e, MT_EINPUT, "engine: --throttle is required (0..1)");
  if (e.code) return cli_report(&e);
  powertrain pt;
  if (powertrain_load(c.pos[0], &pt, &e)) return cli_report(&e);
  if (nb) {
    bench(&pt.engine, nb);
    return 0;
  }
  engine_out o;
  engine_eval(&pt.engine, rpm * MT_PI / 30, thr, &o);
  if (cli_set(&c, "json")) print_json(&pt, &o, pt.engine.ambient_pressure);
  else print_text(&pt, &o, pt.engine.ambient_pressure);
  return 0;
}
