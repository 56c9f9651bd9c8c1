/* drivetrain.h — gearbox, clutch, chain final drive and brakes (Slipstream manual §3.5).
 *
 * Everything here is a pure function of the parameters and the instantaneous state the
 * multibody step passes in; nothing keeps state. Conventions:
 *   - Speeds and torques referred to the crank unless named otherwise; ratios are speed
 *     ratios input:output (a ratio > 1 slows down and multiplies torque).
 *   - The chain lies in the bike's symmetry plane. Its plane normal n is the sprocket axis;
 *     pass the bike's LEFT axis (+y of the x-forward, z-up body frame): then a positive
 *     torque about n on the rear sprocket drives the bike forward and is carried by the upper
 *     run, a negative one (engine braking) by the lower run.
 *   - Design-frame positions (rig file) are x forward from the rear contact, y left, z up. */
#ifndef DRIVETRAIN_H
#define DRIVETRAIN_H

#include <lua.h>
#include "base/luabox.h"
#include "base/mt.h"

#define DRIVE_MAX_GEARS 6
enum { DRIVE_FRONT = 0, DRIVE_REAR = 1 };

/*---- parameters ----*/
typedef struct drive_params {
  int ngears;                          /* 1..DRIVE_MAX_GEARS */
  double ratios[DRIVE_MAX_GEARS + 1];  /* gearbox ratio of gear g at [g]; [0] = 0 is neutral */
  double primary;                      /* crank : clutch (gearbox input) speed ratio */
  int teeth_output, teeth_rear;        /* sprocket teeth (0 when radii were given directly) */
  double chain_pitch;                  /* m (0 when radii were given directly) */
  double r_output, r_rear;             /* m, sprocket pitch radii p / (2 sin(π/N)) */
  double output_sprocket[3];           /* m, design frame; fixed to the frame */
  double rear_sprocket[3];             /* m, design frame, reference pose; on the rear axle */
  double clutch_capacity;              /* N·m at the crank, fully engaged */
  double clutch_slip;                  /* rad/s at the crank: slip speed scale of the regularised clutch */
  double brake_front, brake_rear;      /* N·m at the wheel with the lever/pedal at 1 */
  double brake_slip;                   /* rad/s of wheel spin: speed scale of the brake regularisation */
} drive_params;

/* Read a drivetrain table (fields as in rigs/engine_gsxr1000.lua) at stack index idx and
 * validate it. Errors name file:line, the scope label and the field. */
int drive_params_read(lua_State* L, int idx, const lb_scope* s, drive_params* p, mt_err* e);
/* Validate a hand-filled p (radii and positions set); MT_EINPUT naming the field. */
int drive_check(const drive_params* p, mt_err* e);

/*---- ratios ----*/
/* Chain (final drive) speed ratio output sprocket : rear wheel = r_rear / r_output. */
double drive_chain_ratio(const drive_params* p);
/* Crank : output sprocket speed ratio in gear g (primary × gearbox); 0 in neutral or an unknown gear. */
double drive_box_ratio(const drive_params* p, int gear);
/* Total crank : rear wheel speed ratio in gear g (primary × gearbox × chain); 0 in neutral. */
double drive_gear_ratio(const drive_params* p, int gear);

/*---- chain ----*/
typedef struct drive_chain_t {
  int upper;                /* 1: the run on the u×n side (upper) is taut; 0: the lower run */
  double tension;           /* N, ≥ 0 */
  double dir[3];            /* unit vector along the taut run, from rear_point to out_point */
  double rear_point[3];     /* tangent point on the rear sprocket (world) */
  double out_point[3];      /* tangent point on the output sprocket (world) */
  double force_rear[3];     /* N, chain force on the rear sprocket, at rear_point: tension·dir */
  double force_out[3];      /* N, chain force on the output sprocket (the frame), at out_point: −force_rear */
  double torque_out;        /* N·m about n on the output sprocket: −rear torque·r_output/r_rear */
  double length;            /* m, length of the taut run between the tangent points */
} drive_chain_t;

/* Geometry of one run (upper = 1 or lower = 0) for sprocket centres out_c and rear_c and plane
 * normal n (world): the external common tangent of the two pitch circles. Tension and forces
 * are zero. Returns 0, or −1 when the circles overlap (no tangent) or n is degenerate. */
int drive_chain_geometry(const drive_params* p, const double out_c[3], const double rear_c[3],
                         const double n[3], int upper, drive_chain_t* out);
/* Chain force for a torque rear_torque (N·m about n) the chain must put on the rear sprocket:
 * picks the taut run by its sign, tension = |rear_torque| / r_rear. Returns 0 or −1 as above. */
int drive_chain(const drive_params* p, const double out_c[3], const double rear_c[3], const double n[3],
                double rear_torque, drive_chain_t* out);

/*---- squat ----*/
typedef struct drive_squat {
  double ratio;             /* anti-squat ratio: tan τ / (h / wheelbase); 1 = neither squat nor rise */
  double angle;             /* τ, rad: the squat line's slope above the ground */
  double point[2];          /* (x, z): where the taut chain run crosses the swingarm line */
  int parallel;             /* 1 when chain and swingarm lines are parallel (point at infinity) */
} drive_squat;

/* Anti-squat of a side view (x forward, z up, symmetry plane): rear contact point, rear axle
 * (= rear sprocket centre), swingarm pivot, output sprocket centre, centre-of-mass height
 * above the ground and wheelbase. The squat line runs from the contact point through the
 * intersection of the taut (upper) chain run with the line axle–pivot. Returns the ratio. */
double drive_anti_squat(const drive_params* p, const double contact[2], const double axle[2],
                        const double pivot[2], const double out_sprocket[2], double cog_height,
                        double wheelbase, drive_squat* out);

/*---- clutch and brakes ----*/
/* Regularised friction clutch: torque (N·m at the crank) transmitted crank → gearbox for a slip
 * speed slip = ω_crank − box_ratio·ω_output (rad/s) and engagement 0..1:
 * capacity·engagement·tanh(slip / clutch_slip). Smooth, odd in slip, |T| < capacity·engagement. */
double drive_clutch_torque(const drive_params* p, double engagement, double slip);
/* Implicit (stick) clutch for a step h: the torque that brings the slip to zero at the end of
 * the step, J·(slip/h + slip_accel_free), clamped to ±capacity·engagement. J is the effective
 * inertia of the slip coordinate (N·m·s²/rad, ≈ the crank inertia), slip_accel_free the slip
 * acceleration without clutch torque. */
double drive_clutch_lock_torque(const drive_params* p, double engagement, double slip,
                                double slip_accel_free, double inertia, double h);
/* Brake torque on wheel DRIVE_FRONT or DRIVE_REAR spinning at omega (rad/s) with input 0..1:
 * −capacity·input·tanh(omega / brake_slip): opposes spin, smooth through zero, saturates. */
double drive_brake_torque(const drive_params* p, int wheel, double input, double omega);

#endif
