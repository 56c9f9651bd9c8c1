/* tyre.h — the motorcycle tyre: torus contact on the road and the Magic Formula response.
 *
 * Contact (Slipstream manual §3.3.1): the tyre is a torus, a circle of radius r (major) swept
 * by a circle of radius ρ (the crown). With the road's unit normal n under the wheel centre
 * and the wheel's spin axis a (pointing to the wheel's LEFT, so positive spin rolls forward):
 * longitudinal l = a × n (normalised), radial d = a × l (from the centre toward the ground),
 * contact point p = c + r·d − ρ·n. Penetration is the depth of p below the road plane.
 *
 * Response: the motorcycle Magic Formula of Sharp, Evangelou & Limebeer (2004) with
 * Evangelou's fits, exactly as written in ../shared/data/magic_formula_params.json, in our
 * contact frame (x along l, y = n × l to the left, z = n up). Sign mapping (docs/tyre.md):
 * κ > 0 driving, α > 0 when the contact slides to the right (Fy > 0, to the left), γ > 0 when
 * the wheel leans left (camber thrust to the left); the formula's Mz is about the downward
 * normal, ours about n, so Mz(ours) = −Mz(formula): a positive slip angle gives a negative,
 * self-aligning moment.
 *
 * Relaxation: the slips that make force are states (κ′, α′ in the vehicle's act vector):
 *   σx·dκ′/dt = −Vsx − |Vx|·κ′,   σy·d(tan α′)/dt = −Vsy − |Vx|·tan α′
 * — the tyre's carcass deflections divided by the relaxation lengths, which stay well-posed at
 * standstill (the carcass acts as a spring there; a low-speed damping term keeps it quiet). */
#ifndef TYRE_H
#define TYRE_H

#include <lua.h>
#include "base/luabox.h"
#include "base/mt.h"
#include "sim/road.h"

/* The Magic Formula coefficients, in one list (name = field of tyre_params and of the Lua table). */
#define TYRE_MF_COEFFS(X)                                                                          \
  X(Fz0) X(pCx1) X(pDx1) X(pDx2) X(pEx1) X(pEx2) X(pEx3) X(pEx4) X(pKx1) X(pKx2) X(pKx3)           \
  X(pCy1) X(pDy1) X(pDy2) X(pDy3) X(pEy1) X(pEy2) X(pEy4) X(pKy1) X(pKy2) X(pKy3) X(pKy4) X(pKy5) \
  X(pCy2) X(pKy6) X(pKy7) X(pEy5) X(qHz3) X(qHz4) X(qBz1) X(qBz2) X(qBz5) X(qBz6) X(qCz1) X(qDz1) \
  X(qDz2) X(qDz3) X(qDz4) X(qEz1) X(qEz2) X(qEz3) X(qEz5) X(qBz9) X(qBz10) X(qDz8) X(qDz9)        \
  X(qDz10) X(qDz11) X(rBx1) X(rBx2) X(rCx1) X(rBy1) X(rBy2) X(rBy3) X(rCy1) X(c1Rel) X(c2Rel)     \
  X(c3Rel)

/* Tyre models (a tyre table's `model` field):
 *   "magic_formula" (default): everything above.
 *   "rolling": the ideal rolling limit of a knife-edge wheel (the Whipple bicycle benchmark's
 *     wheels, docs/whipple.md): a very stiff linear tyre with no relaxation, camber thrust,
 *     aligning moment or rolling resistance — Fx = k_slip·κ, Fy = k_slip·tan α with the
 *     instantaneous slips κ = −Vsx/|Vx|, tan α = −Vsy/|Vx| of the contact's material point
 *     (|Vx| floored at 1 m/s). As k_slip grows the contact's slip velocity tends to zero: the
 *     non-holonomic rolling constraint. The Magic Formula coefficients are not read; the
 *     relaxed-slip states stay at zero. Needs a small timestep (the slip force is a damper of
 *     k_slip/|Vx| N·s/m on the contact, integrated explicitly). */
enum { TYRE_MODEL_MF = 0, TYRE_MODEL_ROLLING = 1 };
#define TYRE_ROLLING_VMIN 1.0

typedef struct tyre_params {
  char preset[64];
  int model;            /* TYRE_MODEL_* */
  double k_slip;        /* N per unit slip (κ and tan α), the "rolling" model only */
  double r0;            /* m, unloaded outer radius (R0) */
  double crown;         /* m, crown (minor) radius ρ; the torus's major radius is r0 − crown */
  double k, c;          /* radial stiffness N/m and damping N·s/m */
  double sigma_x;       /* m, longitudinal relaxation length */
  double rolling;       /* rolling-resistance coefficient */
  double grip;          /* scale of the peak friction (pDx1, pDy1 and the qDz peak terms): wet ~0.6 */
  double lambda_mzr;    /* Pacejka's λMr: scale of the residual (camber twisting) moment, default 1 */
#define TYRE_FIELD(n) double n;
  TYRE_MF_COEFFS(TYRE_FIELD)
#undef TYRE_FIELD
} tyre_params;

/* Read a tyre table: `preset = "evangelou_120_70_zr17_front"` (rigs/tyres/NAME.lua) and/or the
 * fields themselves (which override the preset's). Every coefficient must end up present. */
int tyre_params_read(lua_State* L, int idx, const lb_scope* s, tyre_params* out, mt_err* e);

/* A tyre from a rig file (wheels.<wheel>.tyre) or a tyre file ({front = {...}, rear = {...}}). */
int tyre_load_file(const char* name, const char* wheel, tyre_params* p, mt_err* e);

/*---- contact ----*/
typedef struct tyre_contact_t {
  int on_road;          /* the road (its tarmac) is under the wheel */
  int touching;         /* on the ground (tarmac or what lies beyond, road.h) and penetrating */
  int surface;          /* the road_point's: 0 tarmac, else kerb, grass, gravel (sim/track_surface.h) */
  int unused;           /* 0: keeps the struct without padding (every byte written, tests memcmp it) */
  double grip, rolling; /* off the tarmac: the surface's friction scale and rolling coefficient */
  double point[3];      /* contact point (world) */
  double l[3], lat[3], n[3];   /* contact frame: forward, left, normal */
  double pen;           /* m, penetration along n (≤ 0: not touching) */
  double pen_rate;      /* m/s */
  double camber;        /* rad, positive leaning left */
  double vx;            /* m/s, wheel centre speed along l */
  double vsx, vsy;      /* m/s, contact-point material slip velocity along l and lat */
  double kappa, alpha;  /* instantaneous slip ratio and slip angle (regularised at low speed) */
  double spin;          /* rad/s about the axis */
  double radius;        /* m, rolling radius: the distance, in the wheel plane, from the wheel
                           centre to the contact point where the road force acts, r + ρ·cos γ
                           (R0 upright); the slip kinematics roll on it too */
} tyre_contact_t;

/* Geometry and kinematics of the contact: c centre, a spin axis (unit, to the wheel's left),
 * vc centre velocity, w wheel angular velocity (world). *hint: road segment hint. */
void tyre_contact(const tyre_params* p, const road* rd, const double c[3], const double a[3], const double vc[3],
                  const double w[3], int* hint, tyre_contact_t* out);
/* The same for two wheels at once (lane i: p[i], rd[i], …, out[i]); out[i] is, bit for bit, what
 * tyre_contact gives for lane i alone (sim/vmath.h). */
void tyre_contact2(const tyre_params* const p[2], const road* const rd[2], const double c[2][3], const double a[2][3],
                   const double vc[2][3], const double w[2][3], int hint[2], tyre_contact_t out[2]);
/* Radial load from penetration and its rate; never pulls. */
double tyre_load(const tyre_params* p, double pen, double pen_rate);

/*---- response ----*/
typedef struct tyre_forces_t {
  double fx, fy, mz;    /* our contact frame */
  double fx0, fy0;      /* pure-slip forces */
  double trail;         /* m, pneumatic trail */
  double mzr;           /* N·m, residual moment (formula sign) */
  double kxk, kya;      /* slip stiffnesses N and N/rad at this load and camber */
  double dx, dy;        /* peak factors */
} tyre_forces_t;

/* 1 (the default): tyre_forces skips the exp and the division whose coefficient (pDy2, pDy3) is
 * 0, which give 1 and the dividend exactly; 0: computes them (the unit tests compare both ways
 * bit for bit, tests/unit/test_vstep.c). */
extern int tyre_zero_shortcuts;
/* Magic Formula forces at load fz (N), slip ratio kappa, slip angle alpha (rad), camber gamma. */
void tyre_forces(const tyre_params* p, double fz, double kappa, double alpha, double gamma, tyre_forces_t* out);
/* The same with Kya = tyre_kya(p, fz, gamma) already computed by the caller (the vehicle's step
 * computes it once per wheel for the forces and the relaxation length). */
void tyre_forces_kya(const tyre_params* p, double fz, double kappa, double alpha, double gamma, double kya,
                     tyre_forces_t* out);
/* Two tyres at once, lane i = tyre p[i] (the vehicle's front and rear): out[i] is, bit for bit,
 * what tyre_forces_kya gives for lane i's arguments, in about the time of one (sim/vmath.h).
 * Both lanes must be on the formula's path: fz[i] > 0 and p[i]->model not the rolling one. */
void tyre_forces_kya2(const tyre_params* const p[2], const double fz[2], const double kappa[2],
                      const double alpha[2], const double gamma[2], const double kya[2], tyre_forces_t out[2]);
/* Cornering stiffness Kyα (N/rad) at load fz and camber gamma (the Magic Formula's Kya). */
double tyre_kya(const tyre_params* p, double fz, double gamma);
/* The same for two tyres at once; out[i] is tyre_kya(p[i], fz[i], gamma[i]) bit for bit. */
void tyre_kya2(const tyre_params* const p[2], const double fz[2], const double gamma[2], double out[2]);
/* Lateral relaxation length σy (m) at load fz, camber gamma and speed vx:
 * Kyα(Fz, γ)·(c1Rel + c2Rel·V + c3Rel·V²) (Sharp, Evangelou & Limebeer 2004), at least 2 cm. */
double tyre_sigma_y(const tyre_params* p, double fz, double gamma, double vx);
/* Rates of the relaxed slips (κ′, tan α′) from the slip velocities (see the header comment). */
void tyre_relax_rates(const tyre_params* p, double fz, const tyre_contact_t* c, double kappa_r, double tan_alpha_r,
                      double* dkappa, double* dtan_alpha);
/* The same with kya = tyre_kya(p, max(fz, 1), c->camber) already computed (any value for the
 * rolling model, which does not relax). */
void tyre_relax_rates_kya(const tyre_params* p, double kya, const tyre_contact_t* c, double kappa_r, double tan_alpha_r,
                          double* dkappa, double* dtan_alpha);

#endif
