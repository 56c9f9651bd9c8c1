/* rider_loop.c — the rider as a closed loop's controller (see rider_loop.h). */
#include "sim/rider_loop.h"

#include <stddef.h>
#include <stdio.h>

typedef struct rl_state { const char* name; const char* unit; size_t off; } rl_state;
enum { RL_LAT_INT, RL_ROLL_REF, RL_HEAD_F, RL_STEER_INT, RL_SPEED_INT, RL_FORCE_CORR, RL_F_CMD, RL_F_LAG, RL_N };
static const rl_state RL[RL_N] = {
  {"rider.lat_int", "rad", offsetof(rider_state, lat_int)},
  {"rider.roll_ref", "rad", offsetof(rider_state, roll_ref)},
  {"rider.head_f", "rad", offsetof(rider_state, head_f)},
  {"rider.steer_int", "N*m", offsetof(rider_state, steer_int)},
  {"rider.speed_int", "m", offsetof(rider_state, speed_int)},
  {"rider.force_corr", "N", offsetof(rider_state, force_corr)},
  {"rider.f_cmd", "N", offsetof(rider_state, f_cmd)},
  {"rider.f_lag", "N", offsetof(rider_state, f_lag)},
};

static const char* const LIM_NAMES[RIDER_LIM_N] = {
  "bar torque (max_torque)", "lean asked for (max_roll)", "lean rate (max_roll_rate)", "outer integrator (max_int)",
  "bar-torque integrator (max_torque)", "speed integrator", "throttle (shut or wide open)", "brakes (the speed law's switch)",
  "force asked for (the profile's drive or braking limit)", "force rate (jerk)", "force maps' learnt error",
  "gear change",
};

const char* rider_limit_name(unsigned bits) {
  for (int k = 0; k < RIDER_LIM_N; k++)
    if (bits & (1u << k)) return LIM_NAMES[k];
  return "";
}

void rider_loop_select(const rider_params* p, int path_loops, int has_accel, rider_loop_sel* sel) {
  sel->n = 0;
  if (p->trims && path_loops) {
    sel->idx[sel->n++] = RL_LAT_INT;
    sel->idx[sel->n++] = RL_ROLL_REF;
    sel->idx[sel->n++] = RL_HEAD_F;
  } else if (!p->trims) {
    sel->idx[sel->n++] = RL_STEER_INT;
  }
  sel->idx[sel->n++] = RL_SPEED_INT;
  if (p->drive && has_accel) {
    sel->idx[sel->n++] = RL_FORCE_CORR;
    sel->idx[sel->n++] = RL_F_CMD;
    sel->idx[sel->n++] = RL_F_LAG;
  }
}

const char* rider_loop_name(const rider_loop_sel* sel, int k) { return RL[sel->idx[k]].name; }
const char* rider_loop_unit(const rider_loop_sel* sel, int k) { return RL[sel->idx[k]].unit; }

void rider_loop_get(const rider_loop_sel* sel, const rider_state* s, double* c) {
  for (int k = 0; k < sel->n; k++) c[k] = *(const double*)((const char*)s + RL[sel->idx[k]].off);
}

void rider_loop_set(const rider_loop_sel* sel, rider_state* s, const double* c) {
  for (int k = 0; k < sel->n; k++) *(double*)((char*)s + RL[sel->idx[k]].off) = c[k];
}

void rider_loop_describe(const rider_loop_sel* sel, lin_loop* L) {
  L->nc = sel->n;
  for (int k = 0; k < L->nc; k++) {
    snprintf(L->name[k], sizeof L->name[k], "%s", rider_loop_name(sel, k));
    snprintf(L->units[k], sizeof L->units[k], "%s", rider_loop_unit(sel, k));
  }
}
