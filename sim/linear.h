/* linear.h — numerical linearisation of the running vehicle (module prefix lin_).
 *
 * Contract: about the vehicle's current state x0 and inputs, lin_jacobian returns the Jacobian
 * of one simulation step, A = ∂x⁺/∂x, by central differences, in the *tangent space* of the
 * state: the configuration is perturbed with mj_integratePos and differenced with
 * mj_differentiatePos, so the free joint's quaternion contributes 3 rotation coordinates (not
 * 4): n = 2·nv + na. The controller is not called (inputs held), and the state, the inputs and
 * the simulation time are restored exactly afterwards: linearising never changes a ride.
 * lin_modes turns the step's eigenvalues λ into continuous-time roots s = ln(λ)/h (h the
 * timestep), with frequency, damping ratio and each named joint's share of the mode's
 * velocities. About a steady turn the reference itself rotates slowly (the yaw rate); the
 * roots of modes much faster than that rotation are unaffected, about straight running the
 * linearisation is exact. Eigenvalues by LAPACK's dgeev. */
#ifndef LINEAR_H
#define LINEAR_H

#include "sim/vehicle.h"

/* Everything of a vehicle an evaluation or a step writes, kept whole so that a linearisation
 * leaves a ride exactly as it was: the MuJoCo data (state, time, derived quantities, the
 * constraint solver's warm start the next step begins from) and the vehicle's outputs and
 * forces of its last evaluation (the controller reads v->out before the next step's forces).
 * Restoring the state alone left the next step's warm start and v->out those of the last
 * perturbed evaluation: the ride went on differently (steer torque 22.5323 → 22.5303 N·m one
 * step after the wobble take's open-loop linearisation, before this was kept). */
typedef struct lin_keep lin_keep;
lin_keep* lin_keep_save(const vehicle* v);
void lin_keep_put(vehicle* v, lin_keep* k);   /* restores and frees k */

/* Size of the tangent state: 2·nv + na. */
int lin_size(const vehicle* v);
/* A (n×n, row-major) = ∂x⁺/∂x of one step, perturbation eps (0: 1e-6). MT_EINTERNAL if a
 * perturbed step fails (then v is still restored). */
int lin_jacobian(vehicle* v, double eps, double* A, mt_err* e);

typedef struct lin_mode {
  double re, im;          /* continuous-time root s (1/s, rad/s); im >= 0 (one of each pair) */
  double freq_hz;         /* |im|/2π */
  double damping;         /* ζ = −re/|s| (negative: unstable) */
  double share[RIG_MAX_JOINTS];   /* per rig joint: |velocity component| / Σ over the joints */
} lin_mode;

/* Modes of the current state, sorted by frequency (real roots first, by re). Returns the
 * number written (at most max), or −1 with e set. */
int lin_modes(vehicle* v, double eps, lin_mode* modes, int max, mt_err* e);

/*---- continuous-time A, B, C, D (the memo's LINEARIZE) ----
 *
 * ẋ = f(x, u), y = g(x, u) about the current state x0 and inputs u0, by central differences:
 * column j of A and C is [f(x0 ⊕ h_j e_j) − f(x0 ⊕ −h_j e_j)] / 2h_j, of B and D the same in u.
 * x lives in the tangent space of (qpos, qvel, act): every joint's position coordinate (the
 * free joint as x, y, z in the world and a rotation vector rx, ry, rz in its body axes: the
 * quaternion enters through mj_integratePos), every velocity coordinate (qvel: the free joint's
 * linear velocity in the world, its angular velocity in body axes) and every actuator state
 * (the vehicle's tyre relaxation states κ', tan α'; the engine's crank is a joint, so its angle
 * and speed are ordinary coordinates; the intake manifold is quasi-static, no state). The rate
 * of a rotation vector is J_r⁻¹(θ)·ω (exact, not the small-angle [0 I] block).
 *
 * Names. States: "q.JOINT" and "qd.JOINT" (hinge or slide), "q.JOINT.x|y|z|rx|ry|rz" and
 * "qd.JOINT.vx|vy|vz|wx|wy|wz" (free joint), "act.ACTUATOR" (vehicle: "act.front_kappa",
 * "act.front_alpha", "act.rear_kappa", "act.rear_alpha"). Inputs (vehicle): steer_torque,
 * throttle, front_brake, rear_brake, clutch, rider_lean_torque, ignition_cut, road_front,
 * road_rear (m: the road surface under that tyre raised), "param:KEY" (any numeric rig
 * parameter, as --set names it; the model is rebuilt for its two evaluations); raw MuJoCo
 * models: "ctrl.ACTUATOR". Outputs: any recorder channel (takes/recorder.c) for a vehicle,
 * "sensor.NAME" (scalar sensors) for a raw model, and any state name (y = that coordinate).
 *
 * Perturbations h: given per variable, else the memo's 0.001 in the variable's SI unit;
 * velocities, inputs and parameters are scaled by max(1, |value|) (0.001 relative above 1).
 * The state, inputs, time and every derived quantity are restored exactly: a ride that
 * linearises records the same steps bit for bit. Errors: unknown names (listing near
 * matches), a perturbation ≤ 0, non-finite, or lost against its variable's value (x+h == x),
 * an evaluation that is not finite: MT_EINPUT / MT_EINTERNAL with one line. */

enum { LIN_STATE, LIN_INPUT, LIN_OUTPUT };

typedef struct lin_item { char name[96]; double perturb; } lin_item;   /* perturb 0: default */

/* What to linearise: chosen states (none chosen: all), inputs, outputs (the memo's LINEAR_SV,
 * LINEAR_CONTROL, LINEAR_OUTPUT). Grows as needed; lin_spec_free releases it. */
typedef struct lin_spec {
  lin_item* item[3];
  int n[3], cap[3];
} lin_spec;
void lin_spec_add(lin_spec* s, int kind, const char* name, double perturb);
void lin_spec_clear(lin_spec* s);

typedef struct lin_var {
  char name[96];
  char units[24];
  double value;            /* at the operating point (a rotation vector's: 0, the tangent origin) */
  double perturb;          /* h used (outputs: 0) */
} lin_var;

typedef struct lin_model {
  int n, r, m;             /* states, inputs, outputs */
  lin_var *x, *u, *y;
  double *A, *B, *C, *D;   /* row-major: n×n, n×r, m×n, m×r */
  double time;             /* s, simulation time of the operating point */
  int closed;              /* 1: the closed loop (machine + controller, lin_abcd_loop); 0: open */
  /* optional (nroot 0: none): the roots ln(λ)/h of the same loop's one-step map (lin_jacobian or
   * lin_jacobian_loop, all states), im ≥ 0; the JSON writer lists them as "step_roots" */
  int nroot;
  double *root_re, *root_im;
} lin_model;
void lin_model_free(lin_model* lm);

/* Linearise the vehicle about its current state and inputs (v->control is not called): the
 * OPEN loop, the machine alone with its inputs held. */
int lin_abcd(vehicle* v, const lin_spec* s, lin_model* out, mt_err* e);

/*---- the CLOSED loop: the machine and its controller (the rider) ----
 *
 * The controller is v->control (with v->control_data); lin_loop describes its side. Its
 * continuous states (integrators, filters, rate-limited references) are appended to the state
 * vector under their names ("rider.lat_int", ...), after the machine's. One evaluation puts the
 * machine at x0 ⊕ dx and the controller's states at c0 + dc, evaluates the machine (veh_forward:
 * kinematics and the tyres' contacts the controller reads), calls the controller once, adds the
 * input perturbation on top of what it decided and evaluates the machine again: ẋ as in the open
 * loop, and ċ = (c⁺ − c)/h (h the timestep: the controller integrates its states by one step per
 * decision, so this is its own continuous-time law; a state it sets outright each decision, as
 * the roll reference between rate limits, appears as a lag of one timestep, root ≈ −1/h).
 * Inputs are then DISTURBANCES added to the controller's decision (steer_torque: a bar torque on
 * top of the rider's; road_front/road_rear: the road), not references. Parameter inputs
 * ("param:KEY") are refused in the closed loop (the rebuilt model has no controller).
 * Discontinuities: the controller reports the limits active at each decision (limits(), a bit
 * set with names); the closed loop is refused with one line when any is active at the
 * operating point (a saturated loop has no gain there) or when a perturbation switches one on or
 * off (the central difference would straddle a kink). The controller is saved before and
 * restored after, bit for bit: a ride that linearises records the same steps. */
typedef struct lin_loop {
  int nc;                                  /* continuous states (≤ LIN_LOOP_MAX) */
  char name[16][40];                       /* their names ("rider.lat_int") */
  char units[16][16];
  void* data;                              /* the controller's own (for the functions below) */
  void (*get)(void* data, double* c);      /* read the continuous states */
  void (*set)(void* data, const double* c);/* write them */
  void (*save)(void* data);                /* snapshot everything a decision writes */
  void (*restore)(void* data);             /* put the snapshot back, bit for bit */
  unsigned (*limits)(void* data);          /* the limits active at the last decision (0: none) */
  const char* (*limit_name)(unsigned bits);   /* the lowest one of bits, named for a person */
} lin_loop;
#define LIN_LOOP_MAX 16

/* The closed loop's one-step map, as lin_jacobian's for the open loop: A (N×N, N = lin_size + nc)
 * = ∂(x⁺, c⁺)/∂(x, c) of one veh_step with the controller called (the controller's states
 * appended), by central differences of eps (0: 1e-6); the same limits are refused as in
 * lin_abcd_loop; the vehicle and the controller are restored bit for bit. Its roots ln(λ)/h are
 * what a ride with this controller does (the step's own integration and the controller's one-step
 * timing included), where the continuous A of lin_abcd_loop approximates them (docs/linear.md). */
int lin_jacobian_loop(vehicle* v, const lin_loop* loop, double eps, double* A, mt_err* e);
/* Roots s = ln(λ)/h of a one-step map A (n×n), one of each conjugate pair (im ≥ 0), sorted by
 * frequency: re[], im[] (rad/s); returns the count, or −1 with e set. */
int lin_step_roots(const double* A, int n, double h, double* re, double* im, mt_err* e);

/* lin_modes of the closed loop's step map (L NULL: lin_modes). */
int lin_modes_loop(vehicle* v, const lin_loop* L, double eps, lin_mode* modes, int max, mt_err* e);

/* The closed-loop model (loop != NULL; NULL: lin_abcd). out->closed is set. */
int lin_abcd_loop(vehicle* v, const lin_loop* loop, const lin_spec* s, lin_model* out, mt_err* e);
/* lin_check's closed-loop form: the controller's state names are known too. */
int lin_check_loop(vehicle* v, const lin_loop* loop, const lin_spec* s, mt_err* e);
/* Only resolve the names and perturbations of s against v (no evaluation): MT_OK or the error. */
int lin_check(vehicle* v, const lin_spec* s, mt_err* e);
/* The same for any MuJoCo model and data (validation rigs: MJCF built in a test). */
int lin_abcd_mj(const struct mjModel_* m, struct mjData_* d, const lin_spec* s, lin_model* out, mt_err* e);

/* Every state name of v (count returned, names into out[max] of 96 chars; out may be NULL). */
int lin_state_names(vehicle* v, char (*out)[96], int max);

/* Eigenvalues of A (n values into re[], im[]) by LAPACKE_dgeev; MT_OK or MT_EINTERNAL. */
int lin_eig(const lin_model* lm, double* re, double* im, mt_err* e);

/* Frequency response G(jω) = C (jωI − A)⁻¹ B + D of output `out` to input `in` at ω rad/s
 * (LAPACKE_zgesv): G[0] real, G[1] imaginary part. MT_EINTERNAL if jωI − A is singular. */
int lin_freq_response(const lin_model* lm, int out, int in, double omega, double G[2], mt_err* e);

/* Writers: the memo's MATLAB/Octave M-file (MatrixA..MatrixD, comment lines naming every state,
 * input and output with units and perturbation), and the same as JSON (jansson). */
int lin_write_mfile(const lin_model* lm, const char* path, const char* title, mt_err* e);
int lin_write_json(const lin_model* lm, const char* path, const char* title, mt_err* e);
/* The same as a MATLAB level-5 .mat (base/matfile.h, matio): A, B, C, D; states, inputs,
 * outputs and their *_units as cell columns of names; the operating point x0, u0, y0; the
 * perturbations; eigenvalues (complex, dgeev as the JSON's) and step_roots when known; time,
 * speed (m/s; not written when NAN), loop ('open' or 'closed'), title (docs/linear.md). */
int lin_write_mat(const lin_model* lm, const char* path, const char* title, double speed, mt_err* e);

#endif
