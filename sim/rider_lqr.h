/* rider_lqr.h — a steer-torque state-feedback gain for the rider, designed by LQR on our own
 * linearisation and scheduled with speed (module prefix rider_lqr_).
 *
 * Contract: rider_lqr_build trims the rig upright on a flat road at each grid speed (a scratch
 * vehicle), linearises it (sim/linear.h, lin_abcd: continuous A and B of the input steer_torque,
 * all states), keeps the states that carry the lateral and steering dynamics (frame roll, roll
 * rate, yaw rate, lateral velocity in body axes, steer, steer rate and every other joint's
 * position and rate and the tyres' relaxation states; it leaves out the pure integrators: the
 * frame's position x, y, its yaw, the wheels' and the crank's spin angles), and solves the
 * continuous algebraic Riccati equation for J = ∫ xᵀQx + uᵀRu by the Hamiltonian's ordered real
 * Schur form (LAPACKE_dgees, stable half first) and X = U21·U11⁻¹. Before that the frame's world
 * lateral velocity is exchanged for the one across the heading (v_y = v_lat + V·ψ), which makes
 * the heading ψ cyclic so it can be left out. Q weights roll, roll rate, steer and steer rate
 * (rider_lqr_weights), every other kept state 1e-6; R = 1/τ_max². The rider uses the gain's six
 * columns of what it measures (roll, roll rate, yaw rate, lateral velocity, steer, steer rate);
 * the closed loop of the kept states with the full gain, with those six and with only roll,
 * roll rate, steer, steer rate is checked (largest real part, smallest damping ratio of the
 * oscillatory roots) and stored per grid point. Deterministic; ~70 ms for the whole grid
 * (tests/unit/test_rider_lqr.c); no allocation at lookup. */
#ifndef RIDER_LQR_H
#define RIDER_LQR_H

#include "base/mt.h"
#include "sim/rig.h"

enum { RIDER_LQR_NV = 10, RIDER_LQR_NK = 6 };
/* gain order: roll (rad), roll rate (rad/s), yaw rate (rad/s), lateral velocity (m/s, body y),
 * steer (rad), steer rate (rad/s); τ = τ_ff − K·(x − x_ref) */
enum { LQR_ROLL, LQR_ROLL_RATE, LQR_YAW_RATE, LQR_VLAT, LQR_STEER, LQR_STEER_RATE };

typedef struct rider_lqr_weights {
  double roll, roll_rate, steer, steer_rate;   /* 1/(acceptable deviation)² */
  double tau_max;                               /* N·m, R = 1/tau_max² */
} rider_lqr_weights;

typedef struct rider_lqr {
  int nv;
  double v[RIDER_LQR_NV];                       /* m/s, rising */
  double K[RIDER_LQR_NV][RIDER_LQR_NK];         /* the six measured states' gains */
  double open_max_re[RIDER_LQR_NV];             /* 1/s, open loop's largest real part (kept states) */
  double full_max_re[RIDER_LQR_NV];             /* 1/s, closed loop with the full LQR gain */
  double six_max_re[RIDER_LQR_NV];              /* 1/s, closed loop with only the six gains */
  double four_max_re[RIDER_LQR_NV];             /* 1/s, closed loop with roll, roll rate, steer, steer rate only */
  double open_zeta[RIDER_LQR_NV], full_zeta[RIDER_LQR_NV], six_zeta[RIDER_LQR_NV], four_zeta[RIDER_LQR_NV];
                                                /* smallest damping ratio of the oscillatory roots */
  double heading_leak[RIDER_LQR_NV];            /* largest |∂ẋ/∂ψ| left after the change to v_lat (≈ 0: ψ cyclic) */
  int nstate[RIDER_LQR_NV];                     /* kept states */
  int ok[RIDER_LQR_NV];
} rider_lqr;

void rider_lqr_default_weights(rider_lqr_weights* w);
/* Build the schedule (MT_OK; an error if the scratch vehicle cannot be made). */
int rider_lqr_build(const rig* r, const rider_lqr_weights* w, rider_lqr* out, mt_err* e);
/* The six measured quantities of vehicle v in the gain order: ISO roll (rad), roll rate about the
 * heading (rad/s), yaw rate (rad/s, world z), lateral velocity of the frame's origin across the
 * heading (m/s, positive left), steer angle (rad), steer rate (rad/s). */
struct vehicle;
void rider_lqr_measure(struct vehicle* v, double x[RIDER_LQR_NK]);
/* The same, with the frame's roll and yaw (veh_frame_euler of the same instant) already known. */
void rider_lqr_measure_at(struct vehicle* v, double roll, double yaw, double x[RIDER_LQR_NK]);
/* The same with the yaw's cos and sin given (hx = cos(yaw), hy = sin(yaw)): the ridden loop
 * computes them once a step for the controller and its own accelerations (branch loopC). */
void rider_lqr_measure_cs(struct vehicle* v, double roll, double hx, double hy, double x[RIDER_LQR_NK]);
/* Gains at speed V (linear in V between grid points, held beyond). */
void rider_lqr_gains(const rider_lqr* l, double V, double K[RIDER_LQR_NK]);

#endif
