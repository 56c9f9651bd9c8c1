/* engine.c — the mean-value four-stroke engine (see engine.h and docs/engine.md).
 *
 * The idea: the air that passes the throttle plates must, in steady state, be the air the
 * cylinders swallow. The plate is an isentropic orifice, the cylinders a volumetric pump
 * (speed-density), so the manifold pressure pm is where the two flow curves cross. Torque
 * follows from the air mass: fuel = air / AFR, heat = fuel·LHV, work = heat·ηt; the gas
 * exchange and friction losses are mean effective pressures times Vd/(4π).
 *
 * Why the solve is cheap and exact. Write Π = pm/p0 and measure both flows in units of the
 * plate's reference flow C = Cd·A·p0/√(R·T0): the plate passes Ψ(Π), the cylinders
 * q(Π) = K·ηv(Π)·Π with K = Vd·ω·p0/(4π·R·Tm·C).
 *   - Ψ is the isentropic orifice function: constant (choked) for Π ≤ Π* = 0.528, then falling
 *     to 0 at Π = 1. It is C¹ at Π* (the subsonic branch has its maximum there), continuous
 *     and non-increasing on [0, 1].
 *   - q is 0 at Π = 0 and strictly increasing on [0, 1] when ω > 0, because engine_prepare
 *     demands ∂(ηv·Π)/∂Π = e0(ω) + 2·v3·p0·Π > 0 over the whole speed range.
 * So r(Π) = Ψ(Π) − q(Π) is continuous and strictly decreasing, with r(0) = Ψ* ≥ 0 and
 * r(1) = −q(1) < 0: exactly one root lies in [0, 1] (at 0 only when the area is 0).
 * If q(Π*) ≥ Ψ*, the root is choked: Ψ is the constant Ψ* and q(Π) = Ψ* is a quadratic in Π,
 * solved in closed form. Otherwise the root is subsonic, and we solve the squared balance
 * F(Π) = Ψ(Π)² − q(Π)² = 0 on [Π*, 1]: squaring removes the square root whose slope is
 * infinite at Π = 1 (wide-open throttle sits within 1e-3 of it), so F is smooth, strictly
 * decreasing, and Newton converges quadratically; a bisection safeguard keeps every iterate
 * inside the bracket. Ψ² is evaluated as −Π^(2/γ)·expm1(((γ−1)/γ)·ln Π) to keep its digits
 * when Π is near 1. */
#include "sim/engine.h"

#include <float.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Exponents and constants of the isentropic orifice (γ = 1.4). */
#define G_ ENGINE_GAMMA
#define E_2G (2.0 / G_)               /* 2/γ */
#define E_DG ((G_ - 1.0) / G_)        /* (γ−1)/γ */
#define PSI_K (2.0 * G_ / (G_ - 1.0)) /* 2γ/(γ−1) */

/* Losses are multiplied by tanh(ω/LOSS_REG) so that friction, a Coulomb-like torque, passes
 * smoothly through zero speed instead of jumping (rad/s, about 10 rpm). */
#define LOSS_REG 1.0

/* Π* = (2/(γ+1))^(γ/(γ−1)) and Ψ* = √γ·(2/(γ+1))^((γ+1)/(2(γ−1))) for γ = 1.4, to double
 * precision (the unit tests recompute them from the formulas). */
#define X_CRIT 0.5282817877171742
#define PSI_CRIT 0.6847314563772704
static double crit_ratio(void) { return X_CRIT; }
static double psi_choked(void) { return PSI_CRIT; }

double engine_critical_ratio(void) { return crit_ratio(); }

/* Ψ(Π)² on the subsonic branch, accurate near Π = 1. */
static double psi2_sub(double x) {
  double lx = log(x);
  return -PSI_K * exp(E_2G * lx) * expm1(E_DG * lx);
}

/* d(Ψ²)/dΠ on the subsonic branch. */
static double dpsi2_sub(double x) {
  double lx = log(x);
  return PSI_K * exp((E_2G - 1.0) * lx) * (E_2G - (1.0 + 1.0 / G_) * exp(E_DG * lx));
}

/* Ψ(Π) on [0, 1]: choked constant, then the subsonic branch; 0 at and above Π = 1. */
static double psi(double x) {
  if (x <= crit_ratio()) return psi_choked();
  if (x >= 1.0) return 0.0;
  double v = psi2_sub(x);
  return v > 0 ? sqrt(v) : 0.0;
}

static double poly2(const double* c, double x) { return c[0] + x * (c[1] + x * c[2]); }

/* Speed at which the ω polynomials are evaluated: |ω| held within the validated range. */
static double map_w(const engine_params* p, double omega) {
  double w = fabs(omega);
  return w < p->map_speed ? w : p->map_speed;
}

static double smoothstep(double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  return x * x * (3.0 - 2.0 * x);
}

/*---- the pieces ----*/

double engine_plate_angle(const engine_params* p, double u) {
  u = mt_clamp(isnan(u) ? 0 : u, 0, 1);
  return p->closed_angle + (p->open_angle - p->closed_angle) * u;
}

/* 1: use the constants engine_prepare derived (cos_closed, sqrt_rt0, shut_area, overrun_flow);
 * 0: recompute them at every evaluation as before (the unit tests compare the two) */
int engine_derived_shortcuts = 1;

static double sqrt_rt0(const engine_params* p) {
  return engine_derived_shortcuts ? p->sqrt_rt0 : sqrt(p->gas_constant * p->ambient_temperature);
}

double engine_throttle_area(const engine_params* p, double u) {
  /* A butterfly of diameter d in a bore of diameter d, shut at φ0 (it seals there), uncovers
   * A = πd²/4·(1 − cos φ / cos φ0) at angle φ (shaft blockage neglected). */
  double phi = engine_plate_angle(p, u);
  double frac = 1.0 - cos(phi) / (engine_derived_shortcuts ? p->cos_closed : cos(p->closed_angle));
  if (frac < 0) frac = 0;
  return p->bore_area * (frac + p->bypass);
}

static double throttle_flow_area(const engine_params* p, double A, double pm) {
  double C = p->discharge * A * p->ambient_pressure / sqrt_rt0(p);
  double x = pm / p->ambient_pressure;
  return C * psi(x < 0 ? 0 : x);
}

double engine_throttle_flow(const engine_params* p, double u, double pm) {
  return throttle_flow_area(p, engine_throttle_area(p, u), pm);
}

double engine_eta_v(const engine_params* p, double omega, double pm) {
  double w = map_w(p, omega);
  return p->volumetric[0] + w * (p->volumetric[1] + w * p->volumetric[2]) + p->volumetric[3] * pm;
}

double engine_eta_t(const engine_params* p, double omega) { return poly2(p->thermal, map_w(p, omega)); }

double engine_cylinder_flow(const engine_params* p, double omega, double pm) {
  if (omega <= 0) return 0;
  /* Four-stroke: each cylinder fills once per two revolutions, so the swept volume flow is
   * Vd·ω/(4π); the charge density in the manifold is pm/(R·Tm). */
  return engine_eta_v(p, omega, pm) * pm * p->displacement * omega /
         (4.0 * MT_PI * p->gas_constant * p->manifold_temperature);
}

static double manifold_pressure_area(const engine_params* p, double omega, double A, double pm_hint);

double engine_manifold_pressure(const engine_params* p, double omega, double u, double pm_hint) {
  return manifold_pressure_area(p, omega, engine_throttle_area(p, u), pm_hint);
}

/* The same for a given open area A (m²). */
static double manifold_pressure_area(const engine_params* p, double omega, double A, double pm_hint) {
  const double p0 = p->ambient_pressure;
  if (!(omega > 0)) return p0;   /* not pumping: the manifold fills to ambient */
  if (!(A > 0)) return 0;        /* sealed: the cylinders pump the manifold empty */
  double C = p->discharge * A * p0 / sqrt_rt0(p);
  double K = p->displacement * omega * p0 / (4.0 * MT_PI * p->gas_constant * p->manifold_temperature * C);
  double e0 = engine_eta_v(p, omega, 0), e1 = p->volumetric[3] * p0;   /* ηv = e0 + e1·Π */
  const double xc = crit_ratio(), psic = psi_choked();

  /* Choked: K·(e0 + e1·Π)·Π = Ψ*, the root of the increasing branch, cancellation-free. */
  if (K * (e0 + e1 * xc) * xc >= psic) {
    double b = K * e0, disc = b * b + 4.0 * K * e1 * psic;
    double x = 2.0 * psic / (b + sqrt(disc > 0 ? disc : 0));
    return x * p0;
  }

  /* Subsonic: F(Π) = Ψ² − q² on [Π*, 1], F(Π*) > 0 > F(1). Safeguarded Newton. */
  double lo = xc, hi = 1.0;
  double q1 = K * (e0 + e1);
  double x = 1.0 - 0.5 * q1 * q1;             /* near Π = 1, Ψ² ≈ 2(1 − Π) */
  double xh = pm_hint / p0;
  if (pm_hint >= 0 && xh > lo && xh < hi) x = xh;
  if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
  for (int it = 0; it < 100; it++) {
    double q = K * (e0 + e1 * x) * x, dq = K * (e0 + 2.0 * e1 * x);
    double F = psi2_sub(x) - q * q, dF = dpsi2_sub(x) - 2.0 * q * dq;
    if (F == 0) return x * p0;
    /* F ≈ 2q·(Ψ − q): |F|/(2q²) is the relative flow imbalance at x. Below 1e-7 one more
     * Newton step squares it to far below 1e-9; further iterates would only chase rounding. */
    if (fabs(F) <= 2e-7 * q * q && dF < 0) {
      double xp = x - F / dF;
      return (xp > lo && xp < hi ? xp : x) * p0;
    }
    if (F > 0) lo = x;
    else hi = x;
    double xn = dF < 0 ? x - F / dF : 0.5 * (lo + hi);
    if (!(xn > lo && xn < hi)) xn = 0.5 * (lo + hi);
    if (hi - lo <= 4.0 * DBL_EPSILON) return xn * p0;
    x = xn;
  }
  return x * p0;
}

double engine_idle_floor(const engine_params* p, double omega) {
  if (!(p->idle_speed > 0)) return 0;
  /* A proportional governor acting as a throttle stop: exactly the idle throttle at idle
   * speed (where the unloaded engine then balances), more below, none above
   * ω_idle·(1 + 1/gain). Under load it droops, as a proportional governor does. */
  double u = p->idle_throttle * (1.0 + p->idle_gain * (p->idle_speed - omega) / p->idle_speed);
  return mt_clamp(u, 0, 1);
}

double engine_fuel_fraction(const engine_params* p, double omega) {
  if (!(omega > 0)) return 0;
  double f = 1.0;
  /* Below half the stall speed nothing fires (a stalled engine stays stalled); firing fades in
   * smoothly up to the stall speed. */
  if (p->stall_speed > 0) f *= smoothstep(2.0 * omega / p->stall_speed - 1.0);
  /* Rev limiter: a smooth fuel cut from rev_limit (all fuel) to rev_limit + band (none). */
  if (omega > p->rev_limit) f *= 1.0 - smoothstep((omega - p->rev_limit) / p->limiter_band);
  return f;
}

/* Share of the speed range where the ECU treats a shut throttle as overrun (0 below
 * 0.75·overrun_speed, 1 above overrun_speed). */
static double overrun_speed_share(const engine_params* p, double omega) {
  if (!(p->overrun_speed > 0)) return 0;
  return smoothstep((omega - 0.75 * p->overrun_speed) / (0.25 * p->overrun_speed));
}

double engine_overrun(const engine_params* p, double omega, double u) {
  /* (1 − x)², x = u/U: the fuel comes back with a finite slope at u = 0, so a solver that
   * meets the throttle's lower bound still sees which way the torque goes */
  double x = u / ENGINE_OVERRUN_THROTTLE;
  if (x >= 1) return 0;
  if (x < 0) x = 0;
  return overrun_speed_share(p, omega) * (1.0 - x) * (1.0 - x);
}

/*---- the whole engine ----*/

/* Everything after the governor: u is the plate position actually used. */
static void eval_core(const engine_params* p, double omega, double u, double pm_hint, engine_out* o) {
  o->plate_angle = engine_plate_angle(p, u);
  o->area = engine_throttle_area(p, u);
  /* Overrun air: above overrun_speed the ECU opens, on top of what the rider asks for, the extra
   * area that holds the manifold at overrun_pressure with the throttle shut (a ride-by-wire
   * opening or an air valve), and with the rider's throttle shut it cuts the fuel
   * (docs/engine.md, "Closed throttle"). The extra area follows the speed; it is added, so the
   * manifold pressure keeps rising with the throttle. */
  double sw = overrun_speed_share(p, omega);
  if (sw > 0 && p->overrun_pressure > 0) {
    double need = engine_cylinder_flow(p, omega, p->overrun_pressure) /
                  (engine_derived_shortcuts ? p->overrun_flow : throttle_flow_area(p, 1.0, p->overrun_pressure));
    double shut = engine_derived_shortcuts ? p->shut_area : engine_throttle_area(p, 0);
    if (need > shut) o->area += sw * (need - shut);
  }
  double ov = engine_overrun(p, omega, o->throttle);
  o->overrun = ov;
  double pm = manifold_pressure_area(p, omega, o->area, pm_hint);
  o->pm = pm;
  o->choked = pm <= crit_ratio() * p->ambient_pressure;
  o->mdot_cyl = engine_cylinder_flow(p, omega, pm);
  o->mdot_throttle = throttle_flow_area(p, o->area, pm);
  o->eta_v = engine_eta_v(p, omega, pm);
  o->eta_t = engine_eta_t(p, omega);
  o->fuel_fraction = engine_fuel_fraction(p, omega) * (1.0 - ov);
  o->mdot_fuel = o->fuel_fraction * o->mdot_cyl / p->afr;
  /* M_ind = ηt·LHV·ṁ_fuel/ω, written without the division by ω (ṁ_cyl ∝ ω). */
  o->torque_indicated = omega > 0 ? o->fuel_fraction * o->eta_t * o->eta_v * pm * p->displacement * p->lhv /
                                        (4.0 * MT_PI * p->gas_constant * p->manifold_temperature * p->afr)
                                  : 0;
  double reg = tanh(omega / LOSS_REG), w = map_w(p, omega), mep = p->displacement / (4.0 * MT_PI);
  o->torque_pumping = p->pumping[0] * (1.0 - p->pumping[1] * pm / p->ambient_pressure) * mep * reg;
  o->torque_friction = poly2(p->friction, w) * mep * reg;
  o->torque_brake = o->torque_indicated - o->torque_pumping - o->torque_friction;
  o->power = o->torque_brake * omega;
}

void engine_eval_hint(const engine_params* p, double omega, double throttle, double pm_hint, engine_out* out) {
  mt_zero(out, sizeof *out);
  out->omega = omega;
  out->throttle = mt_clamp(isnan(throttle) ? 0 : throttle, 0, 1);
  double floor = engine_idle_floor(p, omega);
  out->throttle_eff = out->throttle > floor ? out->throttle : floor;
  eval_core(p, omega, out->throttle_eff, pm_hint, out);
}

void engine_eval(const engine_params* p, double omega, double throttle, engine_out* out) {
  engine_eval_hint(p, omega, throttle, -1, out);
}

/*---- parameters ----*/

void engine_params_default(engine_params* p) {
  memset(p, 0, sizeof *p);
  p->cylinders = 4;
  p->discharge = 0.8;
  p->closed_angle = 5.0 * MT_PI / 180.0;    /* Techne's closed-plate angle */
  p->open_angle = 90.0 * MT_PI / 180.0;
  p->bypass = 0.002;
  p->idle_gain = 4.0;
  p->limiter_band = 150.0 * MT_PI / 30.0;
  p->stall_speed = 500.0 * MT_PI / 30.0;
  p->ambient_pressure = 1e5;                /* Techne's constants */
  p->ambient_temperature = 293.0;
  p->manifold_temperature = 303.0;
  p->gas_constant = 286.9;
  p->lhv = 45e6;
  p->afr = 14.7;
}

/* Range of a + b·x + c·x² over [0, X]. */
static void quad_range(const double* k, double X, double* lo, double* hi) {
  double v[3] = {k[0], poly2(k, X), k[0]};
  int n = 2;
  if (k[2] != 0) {
    double xs = -k[1] / (2.0 * k[2]);
    if (xs > 0 && xs < X) v[n++] = poly2(k, xs);
  }
  *lo = *hi = v[0];
  for (int i = 1; i < n; i++) {
    if (v[i] < *lo) *lo = v[i];
    if (v[i] > *hi) *hi = v[i];
  }
}

static double rpm(double w) { return w * 30.0 / MT_PI; }

/* The first problem with p, or NULL; *field names the field to blame. */
static const char* validate(const engine_params* p, const char** field, char* why, size_t n) {
#define BAD(f, ...) do { *field = f; snprintf(why, n, __VA_ARGS__); return why; } while (0)
  if (!(p->displacement > 0)) BAD("displacement", "must be > 0 (m^3, all cylinders), got %g", p->displacement);
  if (p->cylinders < 1 || p->cylinders > 32) BAD("cylinders", "must be a whole number in 1..32, got %d", p->cylinders);
  if (!(p->inertia > 0)) BAD("inertia", "must be > 0 (kg m^2 at the crank), got %g", p->inertia);
  if (!(p->throttle_diameter > 0)) BAD("throttle_diameter", "must be > 0 (m), got %g", p->throttle_diameter);
  if (!(p->discharge > 0 && p->discharge <= 1)) BAD("discharge", "must be in (0, 1], got %g", p->discharge);
  if (!(p->open_angle > 0 && p->open_angle <= MT_PI / 2 + 1e-12))
    BAD("open_angle", "must be in (0, pi/2] rad, got %g", p->open_angle);
  if (!(p->closed_angle >= 0 && p->closed_angle < p->open_angle))
    BAD("closed_angle", "must be in [0, open_angle) rad, got %g", p->closed_angle);
  if (!(p->bypass >= 0 && p->bypass < 1)) BAD("bypass", "must be in [0, 1), got %g", p->bypass);
  if (!(p->overrun_pressure >= 0 && p->overrun_pressure < p->ambient_pressure))
    BAD("overrun_pressure", "must be in [0, ambient_pressure) Pa, got %g", p->overrun_pressure);
  if (!(p->overrun_speed >= 0)) BAD("overrun_speed", "must be >= 0 (rad/s; 0 = no overrun strategy), got %g", p->overrun_speed);
  if (!(p->ambient_pressure > 0)) BAD("ambient_pressure", "must be > 0 (Pa), got %g", p->ambient_pressure);
  if (!(p->ambient_temperature > 0)) BAD("ambient_temperature", "must be > 0 (K), got %g", p->ambient_temperature);
  if (!(p->manifold_temperature > 0)) BAD("manifold_temperature", "must be > 0 (K), got %g", p->manifold_temperature);
  if (!(p->gas_constant > 0)) BAD("gas_constant", "must be > 0 (J/(kg K)), got %g", p->gas_constant);
  if (!(p->lhv > 0)) BAD("lhv", "must be > 0 (J/kg), got %g", p->lhv);
  if (!(p->afr > 0)) BAD("afr", "must be > 0, got %g", p->afr);
  if (!(p->rev_limit > 0)) BAD("rev_limit", "must be > 0 (rad/s; use units.rpm), got %g", p->rev_limit);
  if (!(p->limiter_band > 0)) BAD("limiter_band", "must be > 0 (rad/s), got %g", p->limiter_band);
  if (!(p->idle_speed >= 0 && p->idle_speed < p->rev_limit))
    BAD("idle_speed", "must be in [0, rev_limit) (rad/s; 0 = no governor), got %g", p->idle_speed);
  if (p->idle_speed > 0 && !(p->idle_gain > 0)) BAD("idle_gain", "must be > 0, got %g", p->idle_gain);
  if (p->overrun_speed > 0 && p->idle_speed > 0 && !(0.75 * p->overrun_speed > p->idle_speed * (1 + 1 / p->idle_gain)))
    BAD("overrun_speed", "must be above the idle governor's range (0.75·overrun_speed > %.0f rpm), got %.0f rpm",
        rpm(p->idle_speed * (1 + 1 / p->idle_gain)), rpm(p->overrun_speed));
  if (!(p->stall_speed >= 0 && (p->idle_speed == 0 || p->stall_speed < p->idle_speed) && p->stall_speed < p->rev_limit))
    BAD("stall_speed", "must be >= 0 and below idle_speed and rev_limit, got %.0f rpm", rpm(p->stall_speed));
  if (!(p->pumping[0] >= 0 && p->pumping[1] >= 0))
    BAD("pumping", "coefficients {a, b} of a(1 - b pm/p0) must be >= 0, got {%g, %g}", p->pumping[0], p->pumping[1]);
  /* The maps must make sense over every speed they are evaluated at. */
  double X = p->map_speed, lo, hi;
  double e0[3] = {p->volumetric[0], p->volumetric[1], p->volumetric[2]};
  quad_range(e0, X, &lo, &hi);
  double p0 = p->ambient_pressure, e1 = p->volumetric[3] * p0;
  double vlo = lo + (e1 < 0 ? e1 : 0), vhi = hi + (e1 > 0 ? e1 : 0);
  if (!(vlo > 0 && vhi <= 2))
    BAD("volumetric", "eta_v must stay in (0, 2] for 0..%.0f rpm and pm in [0, p0]; it spans [%.3g, %.3g]",
        rpm(X), vlo, vhi);
  if (!(lo + 2 * e1 > 0))
    BAD("volumetric", "eta_v*pm must rise with pm (needs v0 + v1 w + v2 w^2 + 2 v3 p0 > 0 up to %.0f rpm)", rpm(X));
  quad_range(p->thermal, X, &lo, &hi);
  if (!(lo > 0 && hi < 1))
    BAD("thermal", "eta_t must stay in (0, 1) for 0..%.0f rpm; it spans [%.3g, %.3g]", rpm(X), lo, hi);
  quad_range(p->friction, X, &lo, &hi);
  if (!(lo >= 0)) BAD("friction", "friction mean effective pressure must be >= 0 for 0..%.0f rpm; minimum %.4g Pa", rpm(X), lo);
#undef BAD
  return NULL;
}

/* Brake torque without the governor, at plate position u. */
static double brake_at(const engine_params* p, double omega, double u) {
  engine_out o;
  memset(&o, 0, sizeof o);
  eval_core(p, omega, u, -1, &o);
  return o.torque_brake;
}

/* Validate and derive; on failure *field names the culprit. */
static int prepare(engine_params* p, const char** field, char* why, size_t n) {
  p->bore_area = p->cylinders * 0.25 * MT_PI * p->throttle_diameter * p->throttle_diameter;
  p->map_speed = 1.25 * (p->rev_limit + p->limiter_band);
  p->idle_throttle = 0;
  if (validate(p, field, why, n)) return MT_EINPUT;
  /* the constants, by the very expressions the evaluation used; the first two first, as the
   * functions that give the last two read them */
  p->cos_closed = cos(p->closed_angle);
  p->sqrt_rt0 = sqrt(p->gas_constant * p->ambient_temperature);
  p->shut_area = engine_throttle_area(p, 0);
  p->overrun_flow = throttle_flow_area(p, 1.0, p->overrun_pressure);
  if (p->idle_speed > 0) {
    /* Brake torque rises monotonically with the plate position (more air, higher pm, less
     * pumping), so bisection finds the throttle that balances friction at idle. Once, at load. */
    double t0 = brake_at(p, p->idle_speed, 0), t1 = brake_at(p, p->idle_speed, 1);
    if (!(t1 > 0)) {
      *field = "idle_speed";
      snprintf(why, n, "the engine cannot run at %.0f rpm: brake torque at full throttle is %.3g N m", rpm(p->idle_speed), t1);
      return MT_EINPUT;
    }
    if (t0 < 0) {
      double a = 0, b = 1;
      for (int i = 0; i < 80 && b - a > 1e-15; i++) {
        double m = 0.5 * (a + b);
        if (brake_at(p, p->idle_speed, m) < 0) a = m;
        else b = m;
      }
      p->idle_throttle = 0.5 * (a + b);
    }
  }
  return MT_OK;
}

int engine_prepare(engine_params* p, mt_err* e) {
  const char* field = NULL;
  char why[300];
  if (prepare(p, &field, why, sizeof why)) return mt_fail(e, MT_EINPUT, "engine: field '%s': %s", field, why);
  return MT_OK;
}

/*---- reading from Lua ----*/

typedef struct num_field { const char* name; size_t off; int required; } num_field;
#define NF(f, r) {#f, offsetof(engine_params, f), r}
static const num_field NUMS[] = {
  NF(displacement, 1), NF(inertia, 1), NF(throttle_diameter, 1), NF(discharge, 0), NF(closed_angle, 0),
  NF(open_angle, 0), NF(bypass, 0), NF(idle_speed, 1), NF(idle_gain, 0), NF(rev_limit, 1),
  NF(limiter_band, 0), NF(stall_speed, 0), NF(ambient_pressure, 0), NF(ambient_temperature, 0),
  NF(manifold_temperature, 0), NF(gas_constant, 0), NF(lhv, 0), NF(afr, 0), NF(overrun_pressure, 0), NF(overrun_speed, 0),
};
#undef NF
typedef struct vec_field { const char* name; size_t off; int n; } vec_field;
static const vec_field VECS[] = {
  {"volumetric", offsetof(engine_params, volumetric), 4}, {"thermal", offsetof(engine_params, thermal), 3},
  {"pumping", offsetof(engine_params, pumping), 2}, {"friction", offsetof(engine_params, friction), 3},
};
/* Every key an engine table may hold ("name", "source" and "notes" document it). */
static const char* const KEYS[] = {
  "displacement", "cylinders", "inertia", "throttle_diameter", "discharge", "closed_angle", "open_angle",
  "bypass", "volumetric", "thermal", "pumping", "friction", "idle_speed", "idle_gain", "rev_limit",
  "limiter_band", "stall_speed", "ambient_pressure", "ambient_temperature", "manifold_temperature",
  "gas_constant", "lhv", "afr", "overrun_pressure", "overrun_speed", "name", "source", "notes", NULL};

int engine_params_read(lua_State* L, int idx, const lb_scope* s, engine_params* p, mt_err* e) {
  int t = lua_absindex(L, idx);
  engine_params_default(p);
  if (lb_check_keys(L, t, s, KEYS, e)) return MT_EINPUT;
  for (size_t i = 0; i < MT_ARRAY_LEN(NUMS); i++) {
    double* dst = (double*)((char*)p + NUMS[i].off);
    if (lb_num(L, t, s, NUMS[i].name, 0, NUMS[i].required, *dst, dst, e)) return MT_EINPUT;
  }
  double cyl;
  if (lb_num(L, t, s, "cylinders", 0, 0, p->cylinders, &cyl, e)) return MT_EINPUT;
  if (cyl != floor(cyl) || cyl < 1 || cyl > 32)
    return lb_fail(s, "cylinders", 0, e, "must be a whole number in 1..32, got %g", cyl);
  p->cylinders = (int)cyl;
  for (size_t i = 0; i < MT_ARRAY_LEN(VECS); i++) {
    int pushed;
    if (lb_table(L, t, s, VECS[i].name, 0, 1, &pushed, e)) return MT_EINPUT;
    char label[160];
    snprintf(label, sizeof label, "%s%sfield '%s'", s->label ? s->label : "", s->label ? ": " : "", VECS[i].name);
    lb_scope vs = lb_enter(s, VECS[i].name, 0, label);
    int n = (int)lua_rawlen(L, -1);
    if (n != VECS[i].n) {
      lua_pop(L, 1);
      return lb_fail(s, VECS[i].name, 0, e, "expected %d numbers, got %d", VECS[i].n, n);
    }
    double* dst = (double*)((char*)p + VECS[i].off);
    for (int k = 0; k < VECS[i].n; k++)
      if (lb_num(L, -1, &vs, NULL, k + 1, 1, 0, &dst[k], e)) {
        lua_pop(L, 1);
        return MT_EINPUT;
      }
    lua_pop(L, 1);
  }
  const char* field = NULL;
  char why[300];
  if (prepare(p, &field, why, sizeof why)) return lb_fail(s, field, 0, e, "%s", why);
  return MT_OK;
}
