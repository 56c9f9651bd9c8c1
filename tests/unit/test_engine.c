/* test_engine.c — the mean-value engine: orifice flow, the manifold balance, torques, the
 * governor and limiter, the shipped GSX-R1000-class parameter set, and located input errors. */
#include <float.h>
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/engine.h"
#include "sim/powertrain.h"
#include "tests/unit/test.h"

#define RPM (MT_PI / 30.0)

/* A simple hand-made engine, independent of the shipped fit. */
static void simple(engine_params* p) {
  engine_params_default(p);
  p->displacement = 1e-3;
  p->cylinders = 4;
  p->inertia = 0.05;
  p->throttle_diameter = 0.040;
  p->discharge = 0.75;
  p->bypass = 0.001;
  double v[4] = {0.5, 8e-4, -3.5e-7, 5e-7}, t[3] = {0.3, 2e-4, -1e-7}, g[2] = {0.8e5, 0.9}, f[3] = {4e4, 60, 0.03};
  memcpy(p->volumetric, v, sizeof v);
  memcpy(p->thermal, t, sizeof t);
  memcpy(p->pumping, g, sizeof g);
  memcpy(p->friction, f, sizeof f);
  p->idle_speed = 1100 * RPM;
  p->rev_limit = 12000 * RPM;
}

/* The shipped parameter set, through the same loader the commands use. */
static int shipped(engine_params* p) {
  char path[4200];
  snprintf(path, sizeof path, "%s/rigs/engine_gsxr1000.lua", mt_test_root());
  powertrain pt;
  mt_err e = {0};
  if (powertrain_load(path, &pt, &e)) {
    fprintf(stderr, "%s\n", e.msg);
    return -1;
  }
  *p = pt.engine;
  return 0;
}

MT_TEST(engine_orifice_constants) {
  double g = 1.4;
  CHECK_REL(engine_critical_ratio(), pow(2 / (g + 1), g / (g - 1)), 1e-15);
  engine_params p;
  simple(&p);
  mt_err e = {0};
  CHECK(engine_prepare(&p, &e) == MT_OK);
  /* Choked flow: Cd·A·p0/√(R·T0) · √γ·(2/(γ+1))^((γ+1)/(2(γ−1))), A = the open area. */
  double A = engine_throttle_area(&p, 0.3);
  double want = p.discharge * A * p.ambient_pressure / sqrt(p.gas_constant * p.ambient_temperature) * sqrt(g) *
                pow(2 / (g + 1), (g + 1) / (2 * (g - 1)));
  CHECK_REL(engine_throttle_flow(&p, 0.3, 0.2 * p.ambient_pressure), want, 1e-14);
  /* Subsonic: the textbook form √(2γ/(γ−1)·(Π^(2/γ) − Π^((γ+1)/γ))) at Π = 0.8. */
  double x = 0.8, psi = sqrt(2 * g / (g - 1) * (pow(x, 2 / g) - pow(x, (g + 1) / g)));
  double C = p.discharge * A * p.ambient_pressure / sqrt(p.gas_constant * p.ambient_temperature);
  CHECK_REL(engine_throttle_flow(&p, 0.3, x * p.ambient_pressure), C * psi, 1e-13);
  /* Area of a butterfly: πd²/4·(1 − cos φ/cos φ0) per bore, plus the bypass. */
  double phi = p.closed_angle + (p.open_angle - p.closed_angle) * 0.3;
  CHECK_REL(A, p.cylinders * MT_PI / 4 * p.throttle_diameter * p.throttle_diameter *
                   (1 - cos(phi) / cos(p.closed_angle) + p.bypass), 1e-14);
}

MT_TEST(engine_choked_flow_independent_of_pm) {
  engine_params p;
  simple(&p);
  mt_err e = {0};
  CHECK(engine_prepare(&p, &e) == MT_OK);
  double p0 = p.ambient_pressure, xc = engine_critical_ratio();
  for (double u = 0; u <= 1.0; u += 0.25) {
    double m0 = engine_throttle_flow(&p, u, 0);
    CHECK(m0 > 0);
    for (double x = 0.05; x < xc; x += 0.05) CHECK(engine_throttle_flow(&p, u, x * p0) == m0);
    CHECK(engine_throttle_flow(&p, u, xc * p0) == m0);
    /* continuous (and flat: C¹) at the switch, then strictly falling to 0 at p0 */
    CHECK_REL(engine_throttle_flow(&p, u, xc * (1 + 1e-7) * p0), m0, 1e-12);
    double prev = m0;
    for (double x = xc + 0.02; x < 1; x += 0.02) {
      double m = engine_throttle_flow(&p, u, x * p0);
      CHECK_MSG(m < prev, "flow not falling at pm/p0 = %g", x);
      prev = m;
    }
    CHECK(engine_throttle_flow(&p, u, p0) == 0);
  }
}

/* Relative flow-balance error at the solved pressure. */
static double balance(const engine_params* p, double w, double u, double pm) {
  double a = engine_throttle_flow(p, u, pm), b = engine_cylinder_flow(p, w, pm);
  return fabs(a - b) / b;
}

MT_TEST(engine_manifold_pressure_balances_flows) {
  engine_params ps[2];
  simple(&ps[0]);
  CHECK(shipped(&ps[1]) == 0);
  mt_err e = {0};
  CHECK(engine_prepare(&ps[0], &e) == MT_OK);
  const double us[] = {0, 1e-4, 1e-3, 0.01, 0.03, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.75, 0.9, 1};
  int n = 0, choked = 0;
  double worst = 0;
  for (int k = 0; k < 2; k++) {
    const engine_params* p = &ps[k];
    for (double r = 100; r <= 20000; r += 137) {
      for (size_t i = 0; i < MT_ARRAY_LEN(us); i++) {
        double w = r * RPM, pm = engine_manifold_pressure(p, w, us[i], -1);
        CHECK(pm > 0 && pm < p->ambient_pressure);
        double err = balance(p, w, us[i], pm);
        /* Near p0 the plate flow ~ √(p0 − pm) is ill-conditioned: rounding pm to a double
         * alone moves it by (pm / 2(p0 − pm))·ε relatively. That limit passes 1e-9 only when
         * p0 − pm < 0.05 Pa, i.e. wide open below 500 rpm; there we demand a few ulps of it. */
        double cond = pm / (2 * (p->ambient_pressure - pm));
        double tol = r >= 500 ? 1e-9 : fmax(1e-9, 16 * DBL_EPSILON * cond);
        if (r >= 500 && err > worst) worst = err;
        CHECK_MSG(err <= tol, "rpm %g throttle %g: pm %.17g, flow balance off by %.3g", r, us[i], pm, err);
        choked += pm <= engine_critical_ratio() * p->ambient_pressure;
        /* a warm start, good or bad, finds the same root */
        const double hints[] = {pm, pm * (1 + 1e-3), 0.5 * p->ambient_pressure, 0.99999 * p->ambient_pressure, 3e5, 0};
        for (size_t h = 0; h < MT_ARRAY_LEN(hints); h++)
          CHECK_REL(engine_manifold_pressure(p, w, us[i], hints[h]), pm, 1e-12);
        n++;
      }
    }
  }
  /* both branches were exercised */
  CHECK_MSG(choked > 100 && choked < n - 100, "%d of %d points choked", choked, n);
  printf("    (%d points, worst relative flow imbalance from 500 rpm up: %.2g)\n", n, worst);
}

MT_TEST(engine_manifold_edge_cases) {
  engine_params p;
  simple(&p);
  mt_err e = {0};
  CHECK(engine_prepare(&p, &e) == MT_OK);
  /* stopped or turning backwards: no pumping, the manifold fills to ambient */
  CHECK(engine_manifold_pressure(&p, 0, 0.5, -1) == p.ambient_pressure);
  CHECK(engine_manifold_pressure(&p, -10, 0.5, -1) == p.ambient_pressure);
  /* and it approaches ambient continuously as the speed falls to 0 */
  CHECK_REL(engine_manifold_pressure(&p, 1e-6, 0.5, -1), p.ambient_pressure, 1e-9);
  /* sealed intake (no bypass, plate shut): the root is pm = 0 */
  p.bypass = 0;
  CHECK(engine_prepare(&p, &e) == MT_OK);
  CHECK(engine_throttle_area(&p, 0) == 0);
  CHECK(engine_manifold_pressure(&p, 500, 0, -1) == 0);
  /* a NaN throttle is treated as shut, not propagated */
  engine_out o;
  engine_eval(&p, 500, NAN, &o);
  CHECK(o.throttle == 0 && isfinite(o.torque_brake));
}

MT_TEST(engine_power_rises_with_throttle) {
  engine_params p;
  CHECK(shipped(&p) == 0);
  for (double r = 1600; r <= 13400; r += 200) {
    engine_out prev;
    engine_eval(&p, r * RPM, 0, &prev);
    for (double u = 0.02; u <= 1.0 + 1e-12; u += 0.02) {
      engine_out o;
      engine_eval(&p, r * RPM, u, &o);
      CHECK_MSG(o.power > prev.power && o.pm > prev.pm, "rpm %g: power %g at throttle %g, %g before", r, o.power, u,
                prev.power);
      prev = o;
    }
  }
}

MT_TEST(engine_closed_throttle_brakes) {
  engine_params p;
  CHECK(shipped(&p) == 0);
  for (double r = 2000; r <= 16000; r += 100) {
    engine_out o;
    engine_eval(&p, r * RPM, 0, &o);
    CHECK_MSG(o.torque_brake < 0, "rpm %g: closed-throttle torque %g", r, o.torque_brake);
    CHECK(o.throttle_eff == 0);   /* the governor has let go */
  }
}

/* Checks the SHIPPED parameter set (rigs/engine_gsxr1000.lua), not the model: the fit of
 * docs/engine.md must keep a GSX-R1000-class curve. */
MT_TEST(engine_shipped_set_wot_peaks) {
  engine_params p;
  CHECK(shipped(&p) == 0);
  double pk = 0, pk_r = 0, tk = 0, tk_r = 0;
  for (double r = 1000; r <= 14000; r += 10) {
    engine_out o;
    engine_eval(&p, r * RPM, 1, &o);
    if (o.power > pk) pk = o.power, pk_r = r;
    if (o.torque_brake > tk) tk = o.torque_brake, tk_r = r;
  }
  CHECK_MSG(pk >= 130e3 && pk <= 140e3, "peak power %.1f kW", pk / 1e3);
  CHECK_MSG(pk_r >= 11000 && pk_r <= 12500, "peak power at %.0f rpm", pk_r);
  CHECK_MSG(tk >= 110 && tk <= 118, "peak torque %.1f N m", tk);
  CHECK_MSG(tk_r >= 9000 && tk_r <= 10000, "peak torque at %.0f rpm", tk_r);
}

MT_TEST(engine_rev_limiter_cuts_fuel) {
  engine_params p;
  CHECK(shipped(&p) == 0);
  engine_out a, b;
  engine_eval(&p, p.rev_limit - 1, 1, &a);
  CHECK(a.fuel_fraction == 1 && a.torque_brake > 50);
  double above = p.rev_limit + p.limiter_band + 1;
  engine_eval(&p, above, 1, &b);
  CHECK(b.fuel_fraction == 0 && b.torque_indicated == 0 && b.mdot_fuel == 0);
  CHECK(b.torque_brake < 0);
  CHECK_REL(b.torque_brake, -(b.torque_pumping + b.torque_friction), 1e-15);
  /* a smooth cut: monotone through the band */
  double prev = 1;
  for (double w = p.rev_limit; w <= above; w += p.limiter_band / 50) {
    double f = engine_fuel_fraction(&p, w);
    CHECK(f <= prev && f >= 0);
    prev = f;
  }
}

MT_TEST(engine_idle_governor_holds_idle) {
  engine_params p;
  CHECK(shipped(&p) == 0);
  CHECK(p.idle_throttle > 0 && p.idle_throttle < 0.05);
  engine_out o;
  engine_eval(&p, p.idle_speed, 0, &o);
  CHECK_NEAR(o.torque_brake, 0, 1e-6);
  engine_eval(&p, p.idle_speed - 200 * RPM, 0, &o);
  CHECK(o.torque_brake > 0);
  engine_eval(&p, p.idle_speed + 200 * RPM, 0, &o);
  CHECK(o.torque_brake < 0);
  /* The free engine, throttle shut, settles at idle from above and from below. */
  const double starts[] = {700 * RPM, 4000 * RPM};
  for (int k = 0; k < 2; k++) {
    double w = starts[k], h = 1e-3, pm = -1;
    for (int i = 0; i < 8000; i++) {
      engine_eval_hint(&p, w, 0, pm, &o);
      pm = o.pm;
      w += h * o.torque_brake / p.inertia;
    }
    CHECK_MSG(fabs(w - p.idle_speed) < 1 * RPM, "from %.0f rpm settled at %.2f rpm", starts[k] / RPM, w / RPM);
  }
}

MT_TEST(engine_energy_bookkeeping) {
  engine_params p;
  CHECK(shipped(&p) == 0);
  for (double r = 1500; r <= 13000; r += 500)
    for (double u = 0.1; u <= 1; u += 0.3) {
      engine_out o;
      engine_eval(&p, r * RPM, u, &o);
      /* indicated power = ηt × fuel energy flow; fuel = air/AFR; brake = indicated − losses */
      CHECK_REL(o.torque_indicated * o.omega, o.eta_t * p.lhv * o.mdot_fuel, 1e-12);
      CHECK_REL(o.mdot_fuel, o.mdot_cyl / p.afr, 1e-15);
      CHECK_REL(o.power, o.torque_brake * o.omega, 1e-15);
      CHECK_NEAR(o.torque_brake, o.torque_indicated - o.torque_pumping - o.torque_friction, 1e-12);
      /* friction: (c + dω + eω²)·Vd/(4π) */
      double w = o.omega;
      CHECK_REL(o.torque_friction, (p.friction[0] + p.friction[1] * w + p.friction[2] * w * w) * p.displacement /
                                       (4 * MT_PI) * tanh(w), 1e-12);
    }
}

MT_TEST(engine_smooth_through_zero_speed) {
  engine_params p;
  CHECK(shipped(&p) == 0);
  engine_out o, m;
  engine_eval(&p, 0, 1, &o);
  CHECK(o.torque_brake == 0 && o.torque_indicated == 0);
  /* losses oppose the motion, the same on both sides, and vanish smoothly at rest */
  engine_eval(&p, 0.5, 0, &o);
  engine_eval(&p, -0.5, 0, &m);
  CHECK(o.torque_brake < 0 && m.torque_brake > 0);
  engine_eval(&p, 1e-4, 1, &o);
  CHECK(fabs(o.torque_brake) < 0.01);
  /* below the stall speed the engine does not fire: no torque to start itself */
  for (double w = 0.01; w < 0.5 * p.stall_speed; w += 0.37) {
    engine_eval(&p, w, 1, &o);
    CHECK_MSG(o.torque_brake < 0 && o.fuel_fraction == 0, "self-starting at %g rpm: %g N m", w / RPM, o.torque_brake);
  }
  engine_eval(&p, p.stall_speed, 1, &o);
  CHECK(o.fuel_fraction == 1 && o.torque_brake > 0);
}

/*---- input errors ----*/

static int read_src(const char* src, engine_params* p, mt_err* e) {
  lua_State* L = luabox_new(NULL);
  int rc = luabox_run(L, src, strlen(src), "eng.lua", 1, e);
  if (!rc) {
    lb_scope top = {.file = "eng.lua", .src = src};
    int pushed;
    rc = lb_table(L, -1, &top, "engine", 0, 1, &pushed, e);
    if (!rc) {
      lb_scope es = lb_enter(&top, "engine", 0, "engine");
      rc = engine_params_read(L, -1, &es, p, e);
    }
  }
  luabox_close(L);
  return rc;
}

static const char* GOOD =
    "return { engine = {\n"
    "  displacement = units.cc(999),\n"       /* 2 */
    "  cylinders = 4,\n"                       /* 3 */
    "  inertia = 0.05,\n"                      /* 4 */
    "  throttle_diameter = units.mm(44),\n"    /* 5 */
    "  volumetric = {0.156, 1.6047e-3, -7.5498e-7, 1e-6},\n"   /* 6 */
    "  thermal = {0.28, 2.9709e-4, -1.5761e-7},\n"             /* 7 */
    "  pumping = {0.9e5, 0.9},\n"                              /* 8 */
    "  friction = {4e4, 75.121, 0.028216},\n"                  /* 9 */
    "  idle_speed = units.rpm(1200),\n"        /* 10 */
    "  rev_limit = units.rpm(13500),\n"        /* 11 */
    "} }\n";

/* GOOD with the line containing `key` replaced by `line`. */
static void variant(char* out, size_t n, const char* key, const char* line) {
  const char* at = strstr(GOOD, key);
  const char* bol = at;
  while (bol > GOOD && bol[-1] != '\n') bol--;
  const char* eol = strchr(at, '\n');
  snprintf(out, n, "%.*s%s%s", (int)(bol - GOOD), GOOD, line, eol);
}

MT_TEST(engine_params_read_errors_located) {
  engine_params p;
  mt_err e = {0};
  CHECK_MSG(read_src(GOOD, &p, &e) == MT_OK, "%s", e.msg);
  CHECK(p.cylinders == 4 && fabs(p.displacement - 999e-6) < 1e-15);
  struct { const char* key; const char* line; const char* want; } cases[] = {
    {"displacement", "  displacement = -1,", "eng.lua:2: engine: field 'displacement': must be > 0"},
    {"displacement", "  displacement = 'big',", "eng.lua:2: engine: field 'displacement': expected a number, got string"},
    {"displacement", "  displacement = 0/0,", "eng.lua:2: engine: field 'displacement': must be finite"},
    {"displacement", "", "engine: field 'displacement': missing"},
    {"cylinders", "  cylinders = 3.5,", "eng.lua:3: engine: field 'cylinders': must be a whole number"},
    {"volumetric", "  volumetric = {0.156, 'x', -7.5498e-7, 1e-6},", "eng.lua:6: engine: field 'volumetric': element 2: expected a number"},
    {"volumetric", "  volumetric = {0.156, 1.6e-3, -7.5e-7},", "eng.lua:6: engine: field 'volumetric': expected 4 numbers, got 3"},
    {"volumetric", "  volumetric = {0.156, 1.6e-3, -7.5e-6, 1e-6},", "eng.lua:6: engine: field 'volumetric': eta_v must stay in"},
    {"thermal", "  thermal = {0.8, 2.9709e-4, 0},", "eng.lua:7: engine: field 'thermal': eta_t must stay in (0, 1)"},
    {"friction", "  friction = {-4e4, 0, 0},", "eng.lua:9: engine: field 'friction'"},
    {"idle_speed", "  idle_speed = units.rpm(20000),", "eng.lua:10: engine: field 'idle_speed'"},
    {"rev_limit", "  rev_limit = 13500, revlimit = 1,", "eng.lua:11: engine: field 'revlimit': unknown field"},
  };
  for (size_t i = 0; i < MT_ARRAY_LEN(cases); i++) {
    char src[2048];
    variant(src, sizeof src, cases[i].key, cases[i].line);
    mt_err_clear(&e);
    CHECK_MSG(read_src(src, &p, &e) == MT_EINPUT, "case %zu accepted", i);
    CHECK_MSG(strstr(e.msg, cases[i].want) != NULL, "case %zu: '%s' lacks '%s'", i, e.msg, cases[i].want);
  }
}

MT_TEST(engine_prepare_rejects_falling_cylinder_flow) {
  /* ηv·pm must rise with pm, or the flow balance could have several roots. */
  engine_params p;
  simple(&p);
  p.volumetric[3] = -4e-6;   /* ηv falls by 0.4 per bar: ∂(ηv·pm)/∂pm < 0 near p0 */
  mt_err e = {0};
  CHECK(engine_prepare(&p, &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "field 'volumetric'") != NULL, "%s", e.msg);
}

/* engine_prepare's constants (cos_closed, sqrt_rt0, shut_area, overrun_flow) give every output
 * of an evaluation bit for bit as recomputing them each time did: the shipped set and the simple
 * one, speeds from standstill through overrun and past the limiter, throttles 0..1 (and out of
 * range and NaN), with and without a pressure hint. */
MT_TEST(engine_derived_constants_are_bit_identical) {
  engine_params ps[2];
  CHECK(shipped(&ps[0]) == 0);
  simple(&ps[1]);
  mt_err e = {0};
  CHECK(engine_prepare(&ps[1], &e) == MT_OK);
  CHECK(ps[0].overrun_pressure > 0 && ps[0].overrun_speed > 0);   /* the overrun air is exercised */
  double thr[] = {0, 0.001, 0.01, 0.05, 0.1, 0.3, 0.5, 0.77, 1, -0.2, 1.5, NAN};
  long n = 0, overrun = 0;
  for (int k = 0; k < 2; k++) {
    const engine_params* p = &ps[k];
    for (double rpm = 0; rpm <= 16000; rpm += 137) {
      for (size_t i = 0; i < sizeof thr / sizeof thr[0]; i++) {
        for (int h = 0; h < 2; h++) {
          double w = rpm * RPM, hint = h ? 0.4 * p->ambient_pressure : -1;
          engine_out a, b;
          engine_derived_shortcuts = 0;
          engine_eval_hint(p, w, thr[i], hint, &a);
          engine_derived_shortcuts = 1;
          engine_eval_hint(p, w, thr[i], hint, &b);
          CHECK_MSG(memcmp(&a, &b, sizeof a) == 0, "set %d, %.0f rpm, throttle %g: the outputs differ", k, rpm, thr[i]);
          n++;
          overrun += a.overrun > 0;
        }
      }
    }
    /* the area with the plates shut and the flow of unit area, as the evaluation computed them */
    engine_derived_shortcuts = 0;
    double shut = engine_throttle_area(p, 0);
    engine_derived_shortcuts = 1;
    CHECK(memcmp(&shut, &p->shut_area, sizeof shut) == 0);
    CHECK(memcmp(&(double){cos(p->closed_angle)}, &p->cos_closed, sizeof shut) == 0);
    CHECK(memcmp(&(double){sqrt(p->gas_constant * p->ambient_temperature)}, &p->sqrt_rt0, sizeof shut) == 0);
  }
  engine_derived_shortcuts = 1;
  CHECK(n > 2000 && overrun > 50);
}
