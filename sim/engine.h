/* engine.h — the mean-value four-stroke engine of the Slipstream manual (§3.4).
 *
 * The engine is a function, not a state machine: given crank speed ω and the rider's throttle,
 * it returns the steady manifold pressure, the air flows, the efficiencies and the torques.
 * The intake manifold is quasi-static (its filling time is far below a simulation frame), so
 * the manifold pressure pm is the root of "air past the throttle plates = air into the
 * cylinders". That balance is solved exactly (choked branch in closed form, subsonic branch
 * by safeguarded Newton), cheaply enough to call thousands of times per simulated second.
 *
 * Units are SI throughout: ω in rad/s, pressures in Pa, torques in N·m; the manual's
 * polynomials take ω in rad/s and pm in Pa. All functions are pure: no globals, no state;
 * the only mutable thing is the caller's engine_out. See docs/engine.md for the equations. */
#ifndef ENGINE_H
#define ENGINE_H

#include <lua.h>
#include "base/luabox.h"
#include "base/mt.h"

/*---- parameters (the model); derived fields are filled by engine_prepare ----*/
typedef struct engine_params {
  double displacement;          /* m³, swept volume of all cylinders together */
  int cylinders;                /* cylinder count = number of throttle bodies */
  double inertia;               /* kg·m², crank + clutch primary side, referred to crank speed */
  double throttle_diameter;     /* m, bore of one throttle body */
  double discharge;             /* discharge coefficient Cd of the plate, (0, 1] */
  double closed_angle;          /* rad, plate angle (from the bore's cross-section) when shut */
  double open_angle;            /* rad, plate angle at full throttle, (closed_angle, π/2] */
  double bypass;                /* idle-air bypass area as a fraction of all bores' area */
  double volumetric[4];         /* ηv = v0 + v1·ω + v2·ω² + v3·pm */
  double thermal[3];            /* ηt = t0 + t1·ω + t2·ω² */
  double pumping[2];            /* p_me0g = g0·(1 − g1·pm/p0), Pa */
  double friction[3];           /* p_me0f = f0 + f1·ω + f2·ω², Pa */
  double idle_speed;            /* rad/s the idle governor holds; 0 = no governor */
  double idle_gain;             /* governor gain: floor = u_idle·(1 + gain·(ω_idle − ω)/ω_idle) */
  double rev_limit;             /* rad/s where the fuel cut begins */
  double limiter_band;          /* rad/s over which the fuel is cut completely (smoothstep) */
  double stall_speed;           /* rad/s below which firing fades out (none below stall_speed/2) */
  double ambient_pressure;      /* p0, Pa, upstream of the throttle */
  double ambient_temperature;   /* T0, K, upstream of the throttle */
  double manifold_temperature;  /* Tm, K, of the charge in the manifold */
  double gas_constant;          /* R of air, J/(kg·K) */
  double lhv;                   /* fuel lower heating value, J/kg */
  double afr;                   /* air/fuel mass ratio */
  double overrun_pressure;      /* Pa: on overrun the ECU lets in air (throttle held slightly open
                                   or an air valve) to hold the manifold at least here; 0 = none */
  double overrun_speed;         /* rad/s above which a shut throttle means overrun: fuel cut and
                                   overrun air (faded in from 0.75·overrun_speed); 0 = never */
  /* derived by engine_prepare (do not set) */
  double bore_area;             /* m², all throttle bores together */
  double map_speed;             /* rad/s; the ω polynomials are held constant beyond it */
  double idle_throttle;         /* throttle giving zero brake torque at idle_speed (no governor) */
  /* Constants of the parameters that every evaluation used to recompute, each computed here by
   * the expression it replaces (so the same value bit for bit; tests/unit/test_engine.c) */
  double cos_closed;            /* cos(closed_angle), the throttle area's divisor */
  double sqrt_rt0;              /* sqrt(gas_constant·ambient_temperature), the orifice flow's divisor */
  double shut_area;             /* engine_throttle_area(p, 0): the plates shut, the bypass open */
  double overrun_flow;          /* the orifice flow of unit area at overrun_pressure */
} engine_params;

/*---- one operating point ----*/
typedef struct engine_out {
  double omega;                 /* rad/s, as given */
  double throttle;              /* rider's demand, clamped to [0, 1] */
  double throttle_eff;          /* after the idle governor's floor */
  double plate_angle;           /* rad */
  double area;                  /* m², open area of all plates plus the bypass */
  double pm;                    /* Pa, steady manifold pressure */
  int choked;                   /* 1 when pm/p0 is at or below the critical ratio */
  double mdot_throttle;         /* kg/s past the plates and bypass */
  double mdot_cyl;              /* kg/s into the cylinders (= mdot_throttle to 1e-9 relative) */
  double mdot_fuel;             /* kg/s burnt (after the fuel cut) */
  double eta_v, eta_t;          /* volumetric and thermal efficiency */
  double fuel_fraction;         /* 1 firing normally, 0 fuel cut (rev limiter, overrun) or not firing */
  double overrun;               /* 0..1: how far the ECU's overrun strategy (fuel cut + air) is on */
  double torque_indicated;      /* N·m from combustion */
  double torque_pumping;        /* N·m lost to gas exchange (same sign as ω) */
  double torque_friction;       /* N·m lost to friction (same sign as ω) */
  double torque_brake;          /* N·m at the crank: indicated − pumping − friction */
  double power;                 /* W, torque_brake·ω */
} engine_out;

/* Physical constants of the orifice flow (air, γ = 1.4). */
#define ENGINE_GAMMA 1.4

/*---- setting up ----*/
/* Defaults for the optional fields (angles, bypass, gains, air and fuel constants); the
 * required ones (displacement, maps, …) are zeroed and must be set before engine_prepare. */
void engine_params_default(engine_params* p);
/* Validate p (ranges, maps positive and monotone over the speed range) and fill the derived
 * fields. MT_EINPUT with "field 'x': why" in e on failure. Call after filling p by hand. */
int engine_prepare(engine_params* p, mt_err* e);
/* 1 (the default): evaluations use the constants engine_prepare derived; 0: they recompute them
 * each time (the same values bit for bit; the unit tests compare the two) */
extern int engine_derived_shortcuts;
/* Read an engine table at stack index idx (fields as in rigs/engine_gsxr1000.lua), validate
 * and prepare. Errors name file:line, the scope label and the field. */
int engine_params_read(lua_State* L, int idx, const lb_scope* s, engine_params* p, mt_err* e);

/*---- the pieces of the model ----*/
/* Plate angle (rad) for a throttle position u in [0, 1]. */
double engine_plate_angle(const engine_params* p, double u);
/* Open area (m²) of all throttle plates at position u, plus the bypass. */
double engine_throttle_area(const engine_params* p, double u);
/* Critical pressure ratio pm/p0 below which the throttle flow is choked (0.528 for γ = 1.4). */
double engine_critical_ratio(void);
/* Air mass flow (kg/s) past the plates and bypass at position u and manifold pressure pm. */
double engine_throttle_flow(const engine_params* p, double u, double pm);
/* Air mass flow (kg/s) into the cylinders (speed-density) at speed ω and manifold pressure pm. */
double engine_cylinder_flow(const engine_params* p, double omega, double pm);
/* Volumetric efficiency ηv(ω, pm) and thermal efficiency ηt(ω). */
double engine_eta_v(const engine_params* p, double omega, double pm);
double engine_eta_t(const engine_params* p, double omega);
/* Steady manifold pressure (Pa): root of throttle flow = cylinder flow in [0, p0], to 1e-9
 * relative in the flows. u is the plate position (no governor); pm_hint < 0 means none. */
double engine_manifold_pressure(const engine_params* p, double omega, double u, double pm_hint);
/* Throttle floor of the idle governor at speed ω (0 above ω_idle·(1 + 1/gain), or no governor). */
double engine_idle_floor(const engine_params* p, double omega);
/* Fraction of the fuel burnt at speed ω: stall fade-in × rev-limiter cut, in [0, 1]. */
double engine_fuel_fraction(const engine_params* p, double omega);
/* Overrun fuel cut at speed ω and rider demand u, in [0, 1]: smoothstep in ω from
 * 0.75·overrun_speed to overrun_speed, times a fade-out of u over [0, ENGINE_OVERRUN_THROTTLE].
 * 0 when overrun_speed is 0. (The overrun air acts over the same speeds whatever u.) */
#define ENGINE_OVERRUN_THROTTLE 0.02
double engine_overrun(const engine_params* p, double omega, double u);


/*---- the whole engine ----*/
/* Evaluate the engine at crank speed ω and throttle demand (0..1). */
void engine_eval(const engine_params* p, double omega, double throttle, engine_out* out);
/* Same, warm-starting the manifold-pressure solve from pm_hint (e.g. the previous step's pm). */
void engine_eval_hint(const engine_params* p, double omega, double throttle, double pm_hint,
                      engine_out* out);

#endif
