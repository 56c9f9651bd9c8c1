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

#endif
