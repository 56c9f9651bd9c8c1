/* rider.h — the virtual rider: turns targets (a path to follow, a speed) into the machine's
 * inputs (steering torque, throttle, brakes, gear), the way a rider does it.
 *
 * Steering is by torque, as on a real motorcycle and in Slipstream's rubber band: an outer loop
 * turns the path error into a target roll angle (with the curvature's gravity-balanced lean as
 * feedforward), an inner loop turns the roll error into handlebar torque (counter-steering comes
 * out by itself). Speed: proportional-integral throttle, brakes when too fast, automatic gears.
 * The rider's parameters are the model (const); its integrators and shift state are its state. */
#ifndef RIDER_H
#define RIDER_H

#include "sim/shift.h"
#include "sim/vehicle.h"

typedef struct rider_params {
  double k_roll;        /* N·m per rad of roll error */
  double k_roll_rate;   /* N·m per rad/s of roll rate */
  double ki_roll;       /* N·m per rad·s of accumulated roll error: the steady bar torque a turn needs */
  double k_steer_rate;  /* N·m per rad/s of steering rate (calms wobble) */
  double k_offset;      /* rad of roll per m of lateral error */
  double k_heading;     /* rad of roll per rad of heading error */
  double max_roll;      /* rad, the most lean it asks for */
  double k_speed;       /* throttle per m/s of speed error */
  double ki_speed;      /* throttle per (m/s·s) */
  double k_brake;       /* brake lever per m/s of overspeed */
  shift_params shift;   /* shift points and shift choreography (sim/shift.h) */
  double max_torque;    /* N·m, the most the rider puts on the bars */
} rider_params;

typedef struct rider_state {
  double steer_int;     /* N·m, the integral term of the bar torque (start it at the trim's torque) */
  double speed_int;     /* integral of the speed error */
  shift_state shift;    /* the gear change under way (sim/shift.h); zero at the start */
} rider_state;

/* What the rider aims for at this instant. */
typedef struct rider_target {
  double speed;         /* m/s */
  double curvature;     /* 1/m of the path ahead (positive = left turn) */
  double offset_error;  /* m: machine's lateral position minus the path's (positive = left of it) */
  double heading_error; /* rad: machine's heading minus the path's (positive = pointing left of it) */
  int roll_mode;        /* 1: ignore the path, hold `roll` (open-road tests) */
  double roll;          /* rad, ISO (positive right) */
  int auto_gear;        /* change gears by rpm */
  double roll_offset;   /* rad added to the path's roll target: what the rider's own posture changes
                           (hanging off inside needs less lean; posture_roll_offset, sim/posture.h) */
} rider_target;

void rider_default_params(rider_params* p);
/* One control decision (call every step or at the rider's own rate); writes v->in. */
void rider_control(const rider_params* p, rider_state* s, vehicle* v, const rider_target* t, double dt);
/* The roll that balances gravity and the centripetal force on a path of curvature k at speed V,
 * corrected for the tyre width (the contact point moves inward by the crown radius × sin roll). */
double rider_balance_roll(double speed, double curvature, double cg_height, double crown);

#endif
