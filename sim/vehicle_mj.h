/* vehicle_mj.h — sim-private: the vehicle's MuJoCo model and data (sim/vehicle.h) with their
 * types, for the modules of sim/ that compute on them (the force stages, the staged step, trim,
 * linearisation, modes, the recorder's sampling) and for white-box tests.
 *
 * Contract: nothing outside sim/ includes this header (takes/, render/, exporters/ use the
 * functions of sim/vehicle.h). Through v->m and v->d a module here may read the model and read
 * or write the data; the model (v->m, v->m_held) is never written after veh_new: every change
 * of an evaluation lives in the data, as in MuJoCo (one model, any number of data). */
#ifndef VEHICLE_MJ_H
#define VEHICLE_MJ_H

#include <mujoco/mujoco.h>

#include "sim/vehicle.h"

/* MuJoCo body b's velocity at its centre of mass (xipos) in world axes, [angular; linear]: what
 * mj_objectVelocity(m, d, mjOBJ_BODY, b, res, 0) gives, bit for bit, without its calls. MuJoCo
 * 2.2.2's mjOBJ_BODY means the inertial frame (mjOBJ_XBODY would be the body's frame), and
 * mju_transformSpatial copies cvel's angular part and makes the linear part
 * cvel_lin − (xipos − c) × ω, c the root's subtree com, with the difference (mju_sub3) and the
 * cross product (mju_cross) in exactly the operations written here; no rotation when flg_local
 * is 0 (tests/unit/test_vstep.c holds it to mj_objectVelocity). Needs the position and velocity
 * stages (xipos, subtree_com, cvel). */
static inline void veh_body_velocity(const mjModel* m, const mjData* d, int b, double res[6]) {
  const double* cv = d->cvel + 6 * b;
  const double* x = d->xipos + 3 * b;
  const double* c = d->subtree_com + 3 * m->body_rootid[b];
  double dif[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]};
  res[0] = cv[0];
  res[1] = cv[1];
  res[2] = cv[2];
  res[3] = cv[3] - (dif[1] * cv[2] - dif[2] * cv[1]);
  res[4] = cv[4] - (dif[2] * cv[0] - dif[0] * cv[2]);
  res[5] = cv[5] - (dif[0] * cv[1] - dif[1] * cv[0]);
}

#endif
