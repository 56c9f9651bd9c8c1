/* rider.h — the virtual rider: turns targets (a path to follow, a speed) into the machine's
 * inputs (steering torque, throttle, brakes, gear), the way a rider does it.
 *
 * Steering is by torque, as on a real motorcycle and in Slipstream's rubber band: an outer loop
 * turns the path error into a target roll angle (with the curvature's gravity-balanced lean as
 * feedforward), an inner loop turns the roll error into handlebar torque (counter-steering comes
 * out by itself). Speed: proportional-integral throttle, brakes when too fast, automatic gears.
 * The rider's parameters are the model (const); its integrator and gear timer are its state. */
#ifndef RIDER_H
#define RIDER_H

#include "sim/vehicle.h"

struct rider_trims;

typedef struct rider_params {
  /* With a trim table (trims != NULL, sim/rider_trim.h): the lean of the steady turn and the bar
   * torque that holds it are fed forward, and the loops act on the deviations:
   *   roll:    τ = τ_trim(V, φ_ref) + kt_roll·(φ_ref − φ) − kt_roll_rate·φ̇ − k_steer·(δ − δ_trim(V, φ_ref));
   *            the steer-angle stiffness about the trim's steer angle is what keeps the weave of the
   *            leaned machine down (without it the machine at fixed bar torque weaves and falls at
   *            40°+ of lean; measured on the skidpads, docs/takes.md);
   *   outer:   φ_ref = φ_trim(V, κ ahead) + (w_heading·V/g)·cos²φ·(e_ψ + (w_lateral/V)·e_y) + I,
   *            dI/dt = w_int·(w_heading·w_lateral/g)·e_y (the only integrator; slow);
   * so the heading loop crosses over near w_heading and the lateral loop near w_lateral (rad/s).
   * Without a table (trims == NULL) the legacy loops run: the balance roll for the curvature,
   * k_offset/k_heading outer gains and a PI roll loop (ki_roll). */
  const struct rider_trims* trims;
  double kt_roll;       /* with a table: N·m per rad of roll error */
  double kt_roll_rate;  /* with a table: N·m per rad/s of roll rate */
  double k_steer;       /* with a table: N·m per rad of steer angle off the trim's */
  double k_roll;        /* legacy: N·m per rad of roll error */
  double k_roll_rate;   /* legacy: N·m per rad/s of roll rate */
  double ki_roll;       /* legacy: N·m per rad·s of accumulated roll error */
  double k_steer_rate;  /* legacy: N·m per rad/s of steering rate (calms wobble) */
  double k_offset;      /* legacy: rad of roll per m of lateral error */
  double k_heading;     /* legacy: rad of roll per rad of heading error */
  double w_heading;     /* rad/s, heading-loop crossover */
  double w_lateral;     /* rad/s, lateral-loop crossover */
  double w_int;         /* rad/s, the outer integrator's corner */
  double max_int;       /* rad, the most lean the outer integrator adds */
  double max_roll;      /* rad, the most lean it asks for */
  double max_roll_rate; /* rad/s, how fast the asked-for lean may change (with a table) */
  double k_speed;       /* throttle per m/s of speed error */
  double ki_speed;      /* throttle per (m/s·s) */
  double k_brake;       /* brake lever per m/s of overspeed */
  double upshift_rpm, downshift_rpm;
  double max_torque;    /* N·m, the most the rider puts on the bars */
} rider_params;

typedef struct rider_state {
  double steer_int;     /* legacy: N·m, the integral term of the bar torque (start it at the trim's torque) */
  double lat_int;       /* rad, the outer loop's integral of the lateral error */
  double roll_ref;      /* rad, the lean asked for at the last decision (start it at the trim's roll) */
  double speed_int;     /* integral of the speed error */
  double shift_timer;   /* s since the last gear change */
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
} rider_target;

void rider_default_params(rider_params* p);
/* One control decision (call every step or at the rider's own rate); writes v->in. */
void rider_control(const rider_params* p, rider_state* s, vehicle* v, const rider_target* t, double dt);
/* The roll that balances gravity and the centripetal force on a path of curvature k at speed V,
 * corrected for the tyre width (the contact point moves inward by the crown radius × sin roll). */
double rider_balance_roll(double speed, double curvature, double cg_height, double crown);

#endif
