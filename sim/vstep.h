/* vstep.h — MuJoCo 2.2.2's two-phase step (mj_step1, mj_step2) for models where most of its
 * stages provably have nothing to do, calling only the stages that do.
 *
 * Contract: for a model that vstep_applies() accepts, vstep_phase1 followed by vstep_phase2 leaves
 * qpos, qvel, act, time, qacc, act_dot, the kinematics (xpos, xquat, xmat, xipos, ximat, com,
 * cdof, cinert, crb, qM, qLD), the velocities (cvel, cdof_dot), qfrc_bias, qfrc_passive,
 * qfrc_actuator, actuator_force, qfrc_smooth, qacc_smooth, qacc_warmstart, qfrc_constraint,
 * ncon, ne, nf, nefc, energy and d->warning bit for bit as mj_step1 (with the control callback
 * returning at once) followed by mj_step2 leave them, bad values included: a NaN or |x| > mjMAXVAL
 * in qpos, qvel or qacc goes through MuJoCo's own mj_checkPos/Vel/Acc (warning, reset). Not
 * updated (nothing in mototake reads them; mj_forward still does): actuator_length,
 * actuator_moment, actuator_velocity, ten_velocity, sensordata, cam/light poses and d->timer.
 * Phase 1 does not call mjcb_control: the caller computes its forces between the phases.
 *
 * What is skipped, and why it has nothing to do for an accepted model:
 *   mj_camlight           no cameras, no lights
 *   mj_tendon             no tendons (ten_velocity likewise)
 *   mj_collision          no geom can collide (contacts disabled, or no geoms and no pairs): ncon = 0
 *   mj_makeConstraint     no equality, friction-loss, limit or contact rows: ne = nf = nefc = 0
 *   mj_projectConstraint, mj_referenceConstraint   nothing to do when nefc = 0
 *   mj_transmission       the actuators carry no force (fixed gain 0, no bias, no force limit):
 *                         qfrc_actuator = 0 whatever their moments
 *   mj_sensorPos/Vel/Acc  no sensors
 *   mj_energyPos/Vel      energy disabled: energy = 0 as they would set it
 *   mj_fwdActuation       replaced by what it computes for such actuators: zero forces and the
 *                         user dynamics' act_dot (mjcb_act_dyn); MuJoCo's own when a control is
 *                         bad or an activation is not finite (its warning, its NaN forces)
 *   mj_xfrcAccumulate     (inside mj_fwdAcceleration) when every xfrc_applied is zero
 *   mj_Euler              without dof damping, its explicit update (mj_advance) is made with the
 *                         same calls: act += h act_dot (clamped if limited), qvel += h qacc,
 *                         mj_integratePos, time += h; with damping, mj_Euler itself
 * The check loops are inlined; MuJoCo's own runs when one finds a bad value. */
#ifndef MT_VSTEP_H
#define MT_VSTEP_H

#include <stdint.h>
#include <mujoco/mujoco.h>

/* 1 if the staged step applies to m (decide once per compiled model); 0 otherwise, with the
 * first reason the guard found in why (may be NULL). */
int vstep_applies(const mjModel* m, const char** why);

/* mj_step1 without the control callback, for an accepted model. */
void vstep_phase1(const mjModel* m, mjData* d);

/* mj_step2, for an accepted model (Euler integrator). */
void vstep_phase2(const mjModel* m, mjData* d);

/* 1 (default): veh_new uses the staged step when vstep_applies; 0: always mj_step1/mj_step2.
 * For the tests that compare the two paths. */
extern int vstep_enabled;

/* The per-step scans (for the unit tests): 1 if no x[i] is NaN or beyond ±mjMAXVAL; every bit of
 * x[0..n) ORed. vstep_wide (default 1) takes two lanes at a time, 0 one at a time. */
extern int vstep_wide;
int vstep_all_good(const mjtNum* x, int n);
uint64_t vstep_any_bits(const mjtNum* x, int n);
int vstep_any_positive(const mjtNum* x, int n);   /* 1 if some x[i] > 0 (dof damping) */

#endif
