/* rider_loop.h — the virtual rider seen as the controller of a closed loop (sim/linear.h's
 * lin_loop): which of its states are continuous states of the loop, by name, and which limits
 * (saturations, rate limits, switches of its law) its last decision hit.
 *
 * Contract. rider_loop_select chooses the states a decision with these parameters integrates
 * (sim/rider.c): with a trim table and the path loops, the outer integrator rider.lat_int (rad),
 * the rate-limited lean asked for rider.roll_ref (rad: between rate limits it is set outright
 * each decision, a lag of one timestep) and the heading filter rider.head_f (rad); without a
 * table the bar torque's integrator rider.steer_int (N·m); the speed loop's integrator
 * rider.speed_int (m), and with a drive table on a speed profile its force states
 * rider.force_corr, rider.f_cmd, rider.f_lag (N). The shift state is discrete: a shift under
 * way is a limit (RIDER_LIM_SHIFT), never a state. get/set copy the chosen states. */
#ifndef RIDER_LOOP_H
#define RIDER_LOOP_H

#include "sim/linear.h"
#include "sim/rider.h"

/* RIDER_LIM_* (the limits a decision hits, rider_state.limits): sim/rider.h. */
/* The lowest limit set in bits, in words ("bar torque (max_torque)"); "" for none. */
const char* rider_limit_name(unsigned bits);

#define RIDER_LOOP_MAX 8
typedef struct rider_loop_sel {
  int n;
  int idx[RIDER_LOOP_MAX];   /* into the table of rider_loop_name */
} rider_loop_sel;

/* The states a decision integrates: trims/legacy from p, path_loops (0: a roll target is held,
 * rider_target.roll_mode), has_accel (the speed profile's feed-forward with p->drive). */
void rider_loop_select(const rider_params* p, int path_loops, int has_accel, rider_loop_sel* sel);
/* Name ("rider.lat_int") and unit of the sel's k-th state. */
const char* rider_loop_name(const rider_loop_sel* sel, int k);
const char* rider_loop_unit(const rider_loop_sel* sel, int k);
/* L's count, names and units from sel (the caller sets L's data and functions). */
void rider_loop_describe(const rider_loop_sel* sel, lin_loop* L);
void rider_loop_get(const rider_loop_sel* sel, const rider_state* s, double* c);
void rider_loop_set(const rider_loop_sel* sel, rider_state* s, const double* c);

#endif
