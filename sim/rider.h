/* rider.h — the virtual rider: turns targets (a path to follow, a speed) into the machine's
 * inputs (steering torque, throttle, brakes, gear), the way a rider does it.
 *
 * Steering is by torque, as on a real motorcycle and in Slipstream's rubber band: an outer loop
 * turns the path error into a target roll angle (with the steady turn's lean for the curvature
 * ahead as feed-forward), an inner loop turns the roll error into handlebar torque around the
 * steady turn's torque (counter-steering comes out by itself); see rider_params. Speed: on a
 * speed profile, the profile's acceleration fed forward through the engine and brake maps within
 * the profile's drive and braking limits (sim/rider_speed.h); otherwise proportional-integral
 * throttle and brakes when too fast. Automatic gears.
 * The rider's parameters are the model (const); its integrators and shift state are its state. */
#ifndef RIDER_H
#define RIDER_H

#include "sim/shift.h"
#include "sim/vehicle.h"

struct rider_trims;
struct rider_drive;
struct rider_lqr;

typedef struct rider_params {
  /* With a trim table (trims != NULL, sim/rider_trim.h): the lean of the steady turn and the bar
   * torque and steer angle that hold it are fed forward, and the loops act on the deviations:
   *   roll:  τ = τ_trim(V, φ_ref) + Kφ·(φ_ref − φ) − Kp·φ̇ − Kδ·(δ − δ_trim(V, φ_ref))
   *            − kt_steer_rate·δ̇,   Kφ = kt_roll·(20/V)^n_roll, Kδ = k_steer·(V/20)^n_steer,
   *          Kp from kt_roll_rate (to v_rate_lo) to kt_roll_rate_hi (from v_rate_hi), and on to
   *          kt_roll_rate_fast (from v_fast_hi, with Kδ scaled by k_steer_fast there);
   *          the steer-angle stiffness about the trim's steer angle keeps the leaned machine's weave
   *          down (at fixed bar torque it weaves and falls above ~40° of lean), the steering-rate
   *          damping keeps that stiffness from ringing in the 6–12 Hz wobble band;
   *   outer: φ_ref = φ_trim(V, κ ahead) + kh·(e_ψ + (w_lateral/V)·e_y) + I,  kh = w_heading/(V·dκ/dφ)
   *          with dκ/dφ the table's own slope, so the heading loop crosses over near w_heading and
   *          the lateral loop near w_lateral (rad/s); dI/dt = w_int·(kh·w_lateral/V)·e_y is the only
   *          integrator; φ_ref moves at most max_roll_rate.
   * Without a table (trims == NULL) the legacy loops run: the balance roll for the curvature,
   * k_offset/k_heading outer gains and a PI roll loop (ki_roll). */
  const struct rider_trims* trims;
  /* With a trim table and an LQR schedule (lqr != NULL, sim/rider_lqr.h) the inner loop is the
   * LQR state feedback instead of the gains below:
   *   τ = τ_trim(V, φ_ref) − K(V)·(x − x_ref),  x = (φ, φ̇, ψ̇, v_lat, δ, δ̇),
   * x_ref: φ_ref, zero rates, and ψ̇, v_lat, δ of the steady turn at the machine's own lean
   * (sim/rider_lqr_ref.h) */
  const struct rider_lqr* lqr;
  double kt_roll;       /* with a table: N·m per rad of roll error */
  double kt_roll_rate;  /* with a table: N·m per rad/s of roll rate, up to v_rate_lo */
  double kt_roll_rate_hi;   /* with a table: the same from v_rate_hi up (linear between): negative, the
                               roll-rate feedback that damps the weave at speed (tests/unit/test_rider.c) */
  double v_rate_lo, v_rate_hi;   /* m/s */
  double v_fast_lo, v_fast_hi;   /* m/s: from v_fast_lo to v_fast_hi (linear between) the roll-rate gain
                                    goes on from kt_roll_rate_hi to kt_roll_rate_fast and the steer
                                    stiffness to k_steer_fast of its scheduled value */
  double kt_roll_rate_fast;      /* with a table: N·m per rad/s of roll rate from v_fast_hi up */
  double k_steer_fast;           /* with a table: the share of k_steer's schedule kept from v_fast_hi up */
  double k_steer;       /* with a table: N·m per rad of steer angle off the trim's */
  double kt_steer_rate; /* with a table: N·m per rad/s of steering rate (the arms' damping) */
  double n_roll, n_steer;   /* with a table: kt_roll ∝ (20 m/s / V)^n_roll, k_steer ∝ (V / 20 m/s)^n_steer
                             * (V clamped to 8..60 m/s): the gains above are the 20 m/s values */
  double k_roll;        /* legacy: N·m per rad of roll error */
  double k_roll_rate;   /* legacy: N·m per rad/s of roll rate */
  double ki_roll;       /* legacy: N·m per rad·s of accumulated roll error */
  double k_steer_rate;  /* legacy: N·m per rad/s of steering rate (calms wobble) */
  double k_offset;      /* legacy: rad of roll per m of lateral error */
  double k_heading;     /* legacy: rad of roll per rad of heading error */
  double w_heading;     /* rad/s, heading-loop crossover */
  double v_head_lo, v_head_hi;   /* m/s: above v_head_lo the heading error the outer loop acts on is
                                    low-passed (tau_head), fully from v_head_hi; below, unfiltered */
  double tau_head;      /* s, that low-pass's time constant */
  double w_lateral;     /* rad/s, lateral-loop crossover */
  double w_int;         /* rad/s, the outer integrator's corner */
  double max_int;       /* rad, the most lean the outer integrator adds */
  double max_roll;      /* rad, the most lean it asks for */
  double max_roll_rate; /* rad/s, how fast the asked-for lean may change (with a table) */
  /* With a drive table (drive != NULL, sim/rider_speed.h) and a planned acceleration in the
   * target (has_accel): the tyres' force wanted is F = m·(a_plan + ka_speed·e_v + ki_a·∫e_v + g·grade) + drag,
   * held within the target's drive and braking limits; the throttle (or the brakes, after the
   * engine's own braking) that gives F comes from the engine and brake maps. Without: PI throttle
   * and proportional brakes (k_speed, ki_speed, k_brake). */
  const struct rider_drive* drive;
  double ka_speed;      /* with a drive table: m/s² per m/s of speed error */
  double ki_a;          /* with a drive table: m/s² per (m/s·s) */
  double w_force;       /* with a drive table: 1/s, rate at which the maps' force error is learnt */
  double jerk;          /* with a drive table: m/s³, how fast the asked-for force / mass may change */
  double limit_margin;  /* with a drive table: the share of the target's limits the rider asks for
                           (the maps' error and the tyres' transients take the rest) */
  double k_speed;       /* throttle per m/s of speed error */
  double ki_speed;      /* throttle per (m/s·s) */
  double k_brake;       /* brake lever per m/s of overspeed */
  shift_params shift;   /* shift points and shift choreography (sim/shift.h) */
  double max_torque;    /* N·m, the most the rider puts on the bars */
} rider_params;

typedef struct rider_state {
  double steer_int;     /* legacy: N·m, the integral term of the bar torque (start it at the trim's torque) */
  double lat_int;       /* rad, the outer loop's integral of the lateral error */
  double roll_ref;      /* rad, the lean asked for at the last decision (start it at the trim's roll) */
  double speed_int;     /* integral of the speed error */
  double force_corr;    /* N, with a drive table: the learnt error of its force maps (integral of
                           the wanted minus the tyres' measured force); zero at the start */
  double f_cmd;         /* N, the tyres' force asked for (rate-limited); zero at the start */
  double f_lag;         /* N, f_cmd through the tyres' lag, what the measured force is compared with */
  shift_state shift;    /* the gear change under way (sim/shift.h); zero at the start */
  double head_f;        /* rad, the heading error low-passed (tau_head); valid once head_f_set */
  int head_f_set;       /* zero at the start: the first decision starts the filter at the error */
  unsigned limits;      /* RIDER_LIM_* (below): the limits the last decision hit; output only */
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
  int has_accel;        /* the speed profile's acceleration and limits below are given */
  double accel;         /* m/s², the profile's planned dv/dt here */
  double drive_limit;   /* m/s², the most tractive force / mass allowed here (traction, wheelie) */
  double brake_limit;   /* m/s², the most braking force / mass allowed here (grip, stoppie) */
  double grade;         /* the road's grade dz/ds here (gravity's share along the path) */
  double roll_offset;   /* rad added to the path's roll target: what the rider's own posture changes
                           (hanging off inside needs less lean; posture_roll_offset, sim/posture.h) */
} rider_target;

/* The limits a decision can hit (rider_state.limits; sim/rider_loop.h names them): where one is
 * active the rider's law is not smooth (a closed-loop linearisation refuses there). */
enum {
  RIDER_LIM_TORQUE = 1 << 0,      /* the bar torque at max_torque */
  RIDER_LIM_ROLL = 1 << 1,        /* the lean asked for at max_roll */
  RIDER_LIM_ROLL_RATE = 1 << 2,   /* the lean asked for moving at max_roll_rate */
  RIDER_LIM_LAT_INT = 1 << 3,     /* the outer integrator at max_int */
  RIDER_LIM_STEER_INT = 1 << 4,   /* the legacy torque integrator at max_torque */
  RIDER_LIM_SPEED_INT = 1 << 5,   /* the speed integrator at its bound */
  RIDER_LIM_THROTTLE = 1 << 6,    /* the throttle shut or wide open */
  RIDER_LIM_BRAKE = 1 << 7,       /* braking (the speed law switched from the throttle to the brakes) */
  RIDER_LIM_FORCE = 1 << 8,       /* the force asked for at the profile's drive or braking limit */
  RIDER_LIM_JERK = 1 << 9,        /* the force asked for moving at its jerk limit */
  RIDER_LIM_FORCE_CORR = 1 << 10, /* the maps' learnt error at its bound, or its learning paused */
  RIDER_LIM_SHIFT = 1 << 11,      /* a gear change under way */
  RIDER_LIM_N = 12
};

void rider_default_params(rider_params* p);
/* One control decision (call every step or at the rider's own rate); writes v->in. */
void rider_control(const rider_params* p, rider_state* s, vehicle* v, const rider_target* t, double dt);
/* The same decision, given what the caller has already measured at this instant (the frame's
 * veh_frame_euler roll and yaw and its veh_speed, of the same mjData): rider_control measures them
 * itself. Bit for bit the same when the values are those functions' (issue 18: the ride loop
 * measures them once a step). */
typedef struct rider_frame {
  double roll, yaw;     /* rad: veh_frame_euler */
  double speed;         /* m/s: veh_speed */
  const double* yaw_cs; /* {cos(yaw), sin(yaw)} as cos() and sin() give them, when the caller has them
                         * (the LQR rider's measurement reads them); NULL: computed here */
} rider_frame;
void rider_control_at(const rider_params* p, rider_state* s, vehicle* v, const rider_target* t, double dt,
                      const rider_frame* f);
/* Start state for a take that begins in a steady turn with the frame's yaw `slip` (rad) off its
 * course (course − yaw): the outer integrator starts at the lean the heading loop's reading of
 * that slip would take away, so the heading loop begins on the course (with a table only). */
void rider_start_slip(const rider_params* p, rider_state* s, double speed, double curvature, double slip);
/* The roll that balances gravity and the centripetal force on a path of curvature k at speed V,
 * corrected for the tyre width (the contact point moves inward by the crown radius × sin roll). */
double rider_balance_roll(double speed, double curvature, double cg_height, double crown);

#endif
