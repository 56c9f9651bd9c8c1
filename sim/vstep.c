/* vstep.c — MuJoCo 2.2.2's step, only the stages with work to do (contract in sim/vstep.h).
 *
 * The stage order follows MuJoCo 2.2.2's engine_forward.c: mj_step1 is checkPos, checkVel,
 * fwdPosition (kinematics, comPos, camlight, tendon, crb, factorM, collision, makeConstraint,
 * transmission, projectConstraint), sensorPos, energyPos, fwdVelocity (tendon and actuator
 * velocities, comVel, passive, referenceConstraint, rne without acceleration), sensorVel,
 * energyVel, control callback; mj_step2 is fwdActuation, fwdAcceleration, fwdConstraint,
 * sensorAcc, checkAcc, then the Euler integrator for every integrator but the implicit one. */
#include "sim/vstep.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

int vstep_enabled = 1;

/* Two lanes at a time (GCC's vector extensions, SSE2 on x86-64): the same comparisons and bit
 * operations as one at a time, in fewer instructions. vstep_wide = 0 takes the scalar loops (the
 * unit tests compare the two). */
int vstep_wide = 1;
typedef double v2d __attribute__((vector_size(16)));
typedef int64_t v2i __attribute__((vector_size(16)));

/* 1 if no x[i] is bad in mju_isBad's sense (NaN or |x| > mjMAXVAL): one pass without branches */
int vstep_all_good(const mjtNum* x, int n) {
  int ok = 1, i = 0;
  if (vstep_wide) {
    const v2d big = {mjMAXVAL, mjMAXVAL};
    const v2i mag = {INT64_MAX, INT64_MAX};
    v2i acc = {-1, -1};   /* lanes of −1 (true) while every |x| <= mjMAXVAL */
    for (; i + 2 <= n; i += 2) {
      v2d a;
      memcpy(&a, x + i, sizeof a);
      a = (v2d)((v2i)a & mag);   /* fabs: the sign bit cleared */
      acc &= a <= big;           /* false for NaN, as the scalar comparison */
    }
    ok = acc[0] != 0 && acc[1] != 0;
  }
  for (; i < n; i++) ok &= fabs(x[i]) <= mjMAXVAL;
  return ok;
}

/* every bit of n doubles ORed together (0 only if each is +0) */
uint64_t vstep_any_bits(const mjtNum* x, int n) {
  uint64_t o = 0;
  int i = 0;
  if (vstep_wide) {
    v2i acc = {0, 0};
    for (; i + 2 <= n; i += 2) {
      v2i a;
      memcpy(&a, x + i, sizeof a);
      acc |= a;
    }
    o = (uint64_t)(acc[0] | acc[1]);
  }
  for (; i < n; i++) {
    uint64_t b;
    memcpy(&b, x + i, sizeof b);
    o |= b;
  }
  return o;
}

int vstep_any_positive(const mjtNum* x, int n) {
  int i = 0;
  if (vstep_wide) {
    const v2d zero = {0, 0};
    v2i acc = {0, 0};
    for (; i + 2 <= n; i += 2) {
      v2d a;
      memcpy(&a, x + i, sizeof a);
      acc |= a > zero;   /* false for NaN and ±0, as the scalar comparison */
    }
    if (acc[0] | acc[1]) return 1;
  }
  for (; i < n; i++)
    if (x[i] > 0) return 1;
  return 0;
}

static int damped(const mjModel* m) { return vstep_any_positive(m->dof_damping, m->nv); }

int vstep_applies(const mjModel* m, const char** why) {
  const char* w = NULL;
  int dis = m->opt.disableflags;
  int contacts = !((dis & (mjDSBL_CONSTRAINT | mjDSBL_CONTACT)) || m->nconmax == 0 || m->nbody < 2 ||
                   (m->ngeom == 0 && m->npair == 0));
  int limits = 0, friction = 0;
  for (int i = 0; i < m->njnt; i++) limits |= m->jnt_limited[i] != 0;
  for (int i = 0; i < m->nv; i++) friction |= m->dof_frictionloss[i] > 0;
  int rows = !((dis & mjDSBL_CONSTRAINT) || m->njmax == 0) &&
             ((!(dis & mjDSBL_EQUALITY) && m->neq > 0) || (!(dis & mjDSBL_FRICTIONLOSS) && friction) ||
              (!(dis & mjDSBL_LIMIT) && limits) || contacts);
  if (m->opt.integrator != mjINT_EULER) w = "the integrator is not Euler";
  else if (m->opt.enableflags & (mjENBL_ENERGY | mjENBL_FWDINV)) w = "energy or the forward-inverse comparison is enabled";
  else if (m->nsensor) w = "the model has sensors";
  else if (m->ntendon) w = "the model has tendons";
  else if (m->ncam || m->nlight) w = "the model has cameras or lights";
  else if (contacts) w = "a geom can collide";
  else if (rows) w = "the model has constraints (equality, friction loss or limits)";
  else if (m->na != m->nu) w = "an actuator has no state";
  else if (m->nu && (dis & mjDSBL_ACTUATION)) w = "actuation is disabled";
  else
    for (int i = 0; i < m->nu && !w; i++)
      if (m->actuator_dyntype[i] != mjDYN_USER || m->actuator_gaintype[i] != mjGAIN_FIXED ||
          m->actuator_gainprm[mjNGAIN * i] != 0 || m->actuator_biastype[i] != mjBIAS_NONE ||
          m->actuator_forcelimited[i] || m->actuator_ctrllimited[i])
        w = "an actuator carries force";
  if (why) *why = w;
  return w == NULL;
}

void vstep_phase1(const mjModel* m, mjData* d) {
  if (!vstep_all_good(d->qpos, m->nq)) mj_checkPos(m, d);   /* MuJoCo's warning and reset */
  if (!vstep_all_good(d->qvel, m->nv)) mj_checkVel(m, d);
  /* position */
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_crb(m, d);
  mj_factorM(m, d);
  d->ncon = 0;                       /* mj_collision: nothing can collide */
  d->ne = d->nf = d->nefc = 0;       /* mj_makeConstraint: no rows */
  d->energy[0] = d->energy[1] = 0;   /* mj_energyPos with energy disabled */
  /* velocity */
  mj_comVel(m, d);
  mj_passive(m, d);
  mj_rne(m, d, 0, d->qfrc_bias);
}

void vstep_phase2(const mjModel* m, mjData* d) {
  int nu = m->nu, na = m->na, plain = vstep_all_good(d->ctrl, nu);
  for (int j = 0; j < na; j++) plain &= fabs(d->act[j]) < INFINITY;   /* finite */
  if (plain) {
    /* force = 0 · act + 0 = +0 for every actuator, so qfrc_actuator = 0 */
    mju_zero(d->qfrc_actuator, m->nv);
    mju_zero(d->actuator_force, nu);
    for (int j = 0; j < na; j++) d->act_dot[j] = mjcb_act_dyn ? mjcb_act_dyn(m, d, j + nu - na) : 0;
  } else {
    mj_transmission(m, d);
    mj_fwdActuation(m, d);
  }
  /* mj_fwdAcceleration; its mj_xfrcAccumulate applies only the bodies' nonzero xfrc_applied */
  /* any bit set (a -0 too, which MuJoCo would skip: then its own path) */
  uint64_t xfrc = m->nbody > 1 ? vstep_any_bits(d->xfrc_applied + 6, 6 * (m->nbody - 1)) : 0;
  if (xfrc) mj_fwdAcceleration(m, d);
  else {
    mju_sub(d->qfrc_smooth, d->qfrc_passive, d->qfrc_bias, m->nv);
    mju_addTo(d->qfrc_smooth, d->qfrc_applied, m->nv);
    mju_addTo(d->qfrc_smooth, d->qfrc_actuator, m->nv);
    mj_solveM(m, d, d->qacc_smooth, d->qfrc_smooth, 1);
  }
  mj_fwdConstraint(m, d);
  if (!vstep_all_good(d->qacc, m->nv)) mj_checkAcc(m, d);   /* MuJoCo's warning, reset and mj_forward */
  /* mj_Euler: without dof damping it integrates explicitly (mj_advance): activations, then
   * velocities, then positions with the new velocities, then time */
  if (damped(m)) {
    mj_Euler(m, d);
    return;
  }
  double h = m->opt.timestep;
  if (na) {
    mju_addToScl(d->act, d->act_dot, h, na);
    for (int j = 0; j < na; j++) {
      int iu = j + nu - na;
      if (m->actuator_actlimited[iu]) d->act[j] = mju_clip(d->act[j], m->actuator_actrange[2 * iu], m->actuator_actrange[2 * iu + 1]);
    }
  }
  mju_addToScl(d->qvel, d->qacc, h, m->nv);
  mj_integratePos(m, d->qpos, d->qvel, h);
  d->time += h;
}
