/* rider_straight.h — the virtual rider (sim/rider.h) holding a straight line at a steady speed on
 * a trimmed vehicle: the controller of `mototake modes --loop closed` (sim/modes.h md_solve_loop).
 *
 * Contract. rider_straight_init builds the rider's trim table for the rig (rider_trims_build, the
 * rider sitting centrally) and takes the default parameters (rider_default_params: the same rider
 * as a take's with rider = { line = "centre", posture = false }). rider_straight_start hands the
 * vehicle, at a straight-running trim, over to it as a take's runner does (the bar-torque
 * integrator at the trim's torque, the lean asked for at the trim's, the speed integrator at the
 * trim's throttle, the heading filter started at zero error), its line the straight through the
 * contacts' midpoint along the frame's heading, its speed the trim's, the trim's gear held (no
 * automatic shifts); it sets v->control and fills a lin_loop (sim/linear.h) for the closed-loop
 * linearisation. rider_straight_stop takes the controller off the vehicle. No global state. */
#ifndef RIDER_STRAIGHT_H
#define RIDER_STRAIGHT_H

#include "sim/linear.h"
#include "sim/rider.h"
#include "sim/rider_loop.h"
#include "sim/rider_trim.h"
#include "sim/trim.h"

typedef struct rider_straight {
  rider_params p;
  rider_trims trims;
  rider_state s, saved;     /* the rider's state; its snapshot (lin_loop save/restore) */
  rider_loop_sel sel;
  double speed;             /* m/s, the speed aimed at */
  double x0, y0, yaw0;      /* the line: through (x0, y0) along yaw0 */
} rider_straight;

int rider_straight_init(rider_straight* r, const rig* rg, mt_err* e);
void rider_straight_start(rider_straight* r, vehicle* v, const trim_result* tr, lin_loop* L);
void rider_straight_stop(vehicle* v);

#endif
