/* vehicle.h — the running motorcycle (the *data*): a rig compiled into a MuJoCo model, its
 * state, inputs and the forces of one step.
 *
 * MuJoCo 2.2.2 integrates the rigid bodies in generalized coordinates; everything that makes
 * the machine a motorcycle is ours and enters as generalized forces: tyres on the road, the
 * suspension springs and dampers (the rear one through the exact bell-crank linkage), steering
 * damper and lock, frame twist, rider lean, engine, clutch, chain, brakes, aerodynamics. They
 * are computed in MuJoCo's control callback and *written* (not added) into qfrc_applied, so
 * every stage and every finite-difference evaluation sees exactly one consistent set.
 *
 * The state is (qpos, qvel, act): act holds the tyres' relaxed slips (κ', α' per wheel). The
 * engine's crank is a MuJoCo hinge, so its speed is part of qvel. Stepping is deterministic:
 * the same rig, road, state and inputs give bit-identical results.
 *
 * MuJoCo's callbacks are process-global; one vehicle is stepped at a time per process (the
 * active one is set by every call below). Not thread-safe.
 *
 * MuJoCo's types stay inside sim/: this header does not include mujoco.h, and v->m, v->d are
 * opaque pointers here. Callers read the machine through the functions below (poses,
 * velocities, accelerations, masses, time, the state vector); the sim/ modules that compute on
 * MuJoCo's arrays include sim/vehicle_mj.h. The vehicle owns its model and data (veh_free). */
#ifndef VEHICLE_H
#define VEHICLE_H

#include <stddef.h>

#include "sim/rig.h"
#include "sim/road.h"

/* MuJoCo's model and data are opaque outside sim/: every reading a caller needs has a function
 * below. Inside sim/, sim/vehicle_mj.h gives the MuJoCo types (and mujoco.h). */
struct mjModel_;
struct mjData_;

typedef struct veh_input {
  double steer_torque;     /* N·m, rider on the handlebars, positive turns the front wheel left */
  double throttle;         /* 0..1 */
  double front_brake;      /* 0..1 lever */
  double rear_brake;       /* 0..1 pedal */
  double clutch;           /* 0..1 engagement (1 = fully engaged) */
  int gear;                /* 0 neutral, 1..6 */
  double rider_lean_torque;/* N·m on the rider's lean joint (positive leans the rider right) */
  double posture[RIG_NPOSTURE]; /* the rider's posture set-points (RIG_POSTURE_*: hip shift m, torso lean
                              and pitch rad): each posture joint's spring-damper pulls toward its own */
  double ignition_cut;     /* 0..1: share of the combustion torque cut (quickshifter; 0 = normal firing) */
} veh_input;

/* What one wheel did in the last force evaluation (world frame unless named otherwise). */
typedef struct veh_wheel_out {
  int contact;             /* touching the ground (the road's tarmac or what lies beyond it) */
  int surface;             /* what the wheel is over: 0 tarmac, kerb, grass, gravel (sim/track_surface.h) */
  double point[3];         /* contact point */
  double fz, fx, fy, mz;   /* load and forces in the contact frame (x forward, y left, z normal) */
  double kappa, alpha;     /* instantaneous slip ratio and slip angle (rad) */
  double kappa_r, alpha_r; /* relaxed (state) values used for the forces */
  double camber;           /* rad, positive leaning left */
  double penetration;      /* m */
  double clearance;        /* m, the tyre's contact point above the road surface (0 when touching) */
  double spin;             /* wheel angular speed about its axis, rad/s */
  double force[3];         /* total road force on the tyre, world frame */
} veh_wheel_out;

typedef struct veh_out {
  veh_wheel_out wheel[2];
  double fork_travel, fork_force;          /* m, N (compression positive) */
  double shock_travel, shock_force;        /* m, N at the shock */
  double shock_motion_ratio;
  double steer_angle, steer_rate;          /* rad, rad/s */
  double arm_torque;                       /* N·m on the bars from the rider's passive arms (rig_arms) */
  double engine_torque, engine_rpm, manifold_pressure;
  double clutch_torque;                    /* N·m at the crank */
  double chain_force;                      /* N along the chain */
  int chain_upper;                         /* 1 if the upper run is taut */
  double drive_torque;                     /* N·m at the rear sprocket */
  double brake_torque[2];                  /* N·m, front and rear */
  double aero_drag, aero_lift;             /* N */
  /* contact spheres (sim/contact.h), in the rig's order */
  int contacts_touching;                   /* how many touch the road */
  double contact_fn, contact_ft;           /* N: sum of their normal and of their friction forces */
  double contact_fn_each[CONTACT_MAX];     /* N: normal force of each */
  double posture[RIG_NPOSTURE];            /* posture joints' coordinates (m, rad) at this evaluation */
} veh_out;

enum {
  VEH_IDEAL_SUPPORTS = 1 << 0,  /* tyres replaced by frictionless vertical springs (energy tests) */
  VEH_NO_DISSIPATION = 1 << 1,  /* dampers, brakes, clutch, aero, engine off */
};

#define VEH_MAX_MJBODY (RIG_MAX_BODIES + 2)   /* rig bodies, the world and the crank */

typedef struct vehicle vehicle;
/* A controller deciding the inputs at each step from the current kinematics (the virtual rider). */
typedef void (*veh_control_fn)(vehicle* v, void* data);

struct vehicle {
  const rig* rig;
  /* sim-private (sim/vehicle_mj.h): the compiled model, constant after veh_new; the same with
   * the fork-bending hinge held (veh_forward's trim evaluation; NULL without that hinge); the
   * state and every quantity of the last evaluation */
  struct mjModel_* m;
  struct mjModel_* m_held;
  struct mjData_* d;
  road road;
  veh_input in;
  veh_out out;
  int flags;
  /* index maps: rig joint → MuJoCo qpos/dof address; rig body → MuJoCo body id */
  int qadr[RIG_MAX_JOINTS], dadr[RIG_MAX_JOINTS];
  int bid[RIG_MAX_BODIES];
  int crank_q, crank_d, crank_body;
  double origin[RIG_MAX_BODIES][3];    /* each body's frame origin in the design frame */
  /* scratch of the current force evaluation */
  double act_dot[4];
  int hint[2];
  int contact_hint[CONTACT_MAX];        /* road hints of the contact spheres (speed only) */
  int ground_hint;                      /* road hint under the frame (contact pre-check) */
  double contact_local[CONTACT_MAX][4]; /* each contact sphere's centre in its body's axes, from the
                                           body's origin, and its distance from that origin */
  long warnings0;                       /* BADQACC count at the start of a step */
  int steady_tyres;                     /* relaxed slips follow the instantaneous ones (trim) */
  int defer_forces;                     /* inside mj_step1: forces come after the controller */
  int staged;                           /* veh_step calls MuJoCo's stages itself (sim/vstep.h) */
  double ext[VEH_MAX_MJBODY][6];        /* Cartesian forces of the last evaluation at each com */
  double road_dz[2];                    /* m: the road raised under the front, rear tyre (the
                                           linearisation's road inputs, sim/linear.h; normally 0) */
  veh_control_fn control;               /* called once per step, before the forces */
  void* control_data;
};

/* 1 (the default): the generalized-force pass skips the bodies and dofs no force reaches (adding
 * +0, which changes nothing there: sim/vehicle.c ext_to_qfrc); 0: adds them all (the unit tests
 * compare both ways bit for bit, tests/unit/test_vstep.c). */
extern int veh_force_shortcuts;

/* Compile rig into a vehicle on road (road may have query NULL: a flat infinite plane z = 0). */
vehicle* veh_new(const rig* r, road rd, int flags, mt_err* e);
void veh_free(vehicle* v);

/* Place the machine: frame reference pose translated to put the rear contact at (x, y, z) with
 * heading psi (rad, from +x toward +y), roll phi (ISO: positive leans right), speed v forward, wheels rolling,
 * crank turning with the gear; all other joints at zero; tyre states zero. */
void veh_place(vehicle* v, double x, double y, double z, double psi, double phi, double speed);

/* Evaluate everything at the current state (no time advance): kinematics, forces, accelerations. */
void veh_forward(vehicle* v);
/* Set the state x0, then move its positions by the velocity-space displacement dx (veh_dof_count
 * values; MuJoCo's mj_integratePos over unit time, so a free joint's rotation is exact): the
 * machine displaced along a mode shape (app/modes_anim.c). Velocities and tyre states stay x0's. */
void veh_set_displaced(vehicle* v, const double* x0, const double* dx);
/* Advance one timestep. Returns MT_OK, or MT_EINTERNAL with e naming the time and the first
 * offending quantity when the state became NaN/inf or MuJoCo reported a bad acceleration. */
int veh_step(vehicle* v, mt_err* e);

/* State vector access (for take files, trim and linearisation): size = nq + nv + na. */
int veh_state_size(const vehicle* v);
void veh_get_state(const vehicle* v, double* x);
void veh_set_state(vehicle* v, const double* x);
/* State x moved rigidly into out (veh_state_size values; out may be x): turned by dpsi about the
 * vertical through pivot (world), then translated by d. Every free joint's position, orientation
 * and world-frame linear velocity turn with it (its angular velocity is in the body's frame:
 * unchanged); the other joints and the tyre states stay: the same motion somewhere else (a ride's
 * restart at another station, takes/ride.h). Sets the hints so the next road queries search. */
void veh_state_moved(vehicle* v, const double* x, const double pivot[3], double dpsi, const double d[3], double* out);
/* Which state values the step integrates from another one, exactly: rate[i] = j when every step
 * sets x[i] to x[i] + timestep·x[j] (MuJoCo 2.2.2's mj_integratePos for a hinge or slide angle
 * and a free joint's position, from the new velocity), else −1; rate holds veh_state_size
 * values. Returns how many have a rate. The take file uses it to store those values as what the
 * step does not predict (takes/takefile.h, format 5). */
int veh_state_rates(const vehicle* v, int* rate);

/* Velocity degrees of freedom (the crank's included) and tyre states (relaxed slips) of the
 * compiled machine; veh_state_size is the positions' count (a free joint has one more: its
 * quaternion) plus these two. */
int veh_dof_count(const vehicle* v);
int veh_tyre_state_count(const vehicle* v);

/* Joint coordinate / rate by rig joint index. */
double veh_q(const vehicle* v, int joint);
double veh_qd(const vehicle* v, int joint);
/* Body pose in the world: position of the body's frame origin and unit quaternion (w, x, y, z). */
void veh_body_pose(const vehicle* v, int body, double pos[3], double quat[4]);
/* Fill MuJoCo's cfrc_int (joint reaction forces) for the last evaluation, including our forces. */
void veh_reactions(vehicle* v);
/* Kinetic + potential (gravity, springs, supports) energy, for conservation tests. */
double veh_energy(vehicle* v);

/* The frame's roll (ISO: positive leaning right), pitch (positive nose down), yaw in radians. */
void veh_frame_euler(const vehicle* v, double* roll, double* pitch, double* yaw);
/* Forward speed of the frame's centre of mass (m/s, along the heading). */
double veh_speed(const vehicle* v);

/* Time of the state (s). veh_set_time puts the clock at t (a replay restoring a recorded step). */
double veh_time(const vehicle* v);
void veh_set_time(vehicle* v, double t);
/* Rig body `body`'s velocity at its centre of mass, world axes, [angular; linear] (rad/s, m/s),
 * of the last evaluation: MuJoCo's mj_objectVelocity for the body's inertial frame, bit for bit
 * (sim/vehicle_mj.h veh_body_velocity). */
void veh_body_twist(const vehicle* v, int body, double res[6]);
/* Rig body `body`'s orientation (of the last evaluation): the rotation matrix, row-major, whose
 * columns are the body's axes in the world (the same rotation as veh_body_pose's quaternion). */
void veh_body_rotation(const vehicle* v, int body, double R[9]);
/* Rig body `body`'s centre of mass in the world (m), of the last evaluation. */
void veh_body_com(const vehicle* v, int body, double pos[3]);
/* Rig body `body`'s principal moments of inertia (kg·m², at its centre of mass), as compiled. */
void veh_body_inertia(const vehicle* v, int body, double inertia[3]);
/* The frame's translational velocity (of the current state) and acceleration (of the last
 * evaluation: after veh_step, of the instant the step started from, like v->out), world axes,
 * m/s and m/s²: the root free joint's first three velocity and acceleration components. */
void veh_frame_velocity(const vehicle* v, double vel[3]);
void veh_frame_accel(const vehicle* v, double acc[3]);
/* The whole machine's mass (kg): veh_mass as MuJoCo totals the tree (leaves toward the root),
 * veh_mass_summed the bodies' masses added in body order. Both include the crank's 1 g; they
 * may differ in the last bit, and each caller keeps the one it always used. */
double veh_mass(const vehicle* v);
double veh_mass_summed(const vehicle* v);
/* The whole machine's centre of mass (m, world) of the last evaluation. */
void veh_com(const vehicle* v, double pos[3]);
/* The whole machine's centre-of-mass velocity (m/s, world) at the current state: recomputes the
 * positions and velocities of the bodies from the state (no forces, no accelerations). */
void veh_com_velocity(vehicle* v, double vel[3]);
/* Recompute the bodies' poses (veh_body_pose, veh_link_poses, veh_frame_euler) from the current
 * state's positions only: no velocities, forces or accelerations (v->out is left as it was). */
void veh_update_poses(vehicle* v);
/* MuJoCo's counters of a bad position (n[0]) and a bad velocity (n[1]) found, after which it
 * resets the data. A caller compares both, each with its own, before and after a step (veh_step
 * does not fail for these: the reset state looks finite). */
void veh_bad_state_counts(const vehicle* v, int n[2]);
/* What state value k (0 <= k < veh_state_size) is: returns "position", "velocity" or "tyre
 * state"; *joint is the name of the joint it belongs to ("" for a tyre state). */
const char* veh_state_part(const vehicle* v, int k, const char** joint);
/* The integrator as a take records it: "MuJoCo <version>, semi-implicit Euler" into buf[n]. */
void veh_integrator(char* buf, size_t n);

/* Poses of the massless shock-linkage parts in the world: bell crank, pull rod, shock body
 * (cylinder, on the frame end), shock rod (on the crank end). Each: position of its origin and quaternion. */
enum { VEH_LINK_CRANK, VEH_LINK_ROD, VEH_LINK_SHOCK_BODY, VEH_LINK_SHOCK_ROD, VEH_NLINK };
void veh_link_poses(const vehicle* v, double pos[VEH_NLINK][3], double quat[VEH_NLINK][4]);
extern const char* const veh_link_names[VEH_NLINK];

#endif
