/* rig.h — a vehicle definition (the *model*): bodies, joints, springs, linkage, wheels, drive.
 *
 * A rig is read from a Lua file (rigs/NAME.lua, sandboxed), checked, and then never changes:
 * every function that simulates takes `const rig*`; the running state lives elsewhere
 * (sim/vehicle.h). All geometry is given in the rig's *reference pose*, in the design frame
 * of Sharp, Evangelou & Limebeer (2004): origin at the rear tyre's ground contact, x forward,
 * y left, z up, metres; every joint coordinate is zero in the reference pose.
 *
 * Invariants after rig_load succeeds: bodies form a tree rooted at body 0 (the only body with
 * a free joint), each parent precedes its children, masses are > 0, inertias are symmetric
 * positive definite and satisfy the triangle inequality, joint axes are unit vectors, the
 * shock linkage closes over the swingarm's whole travel, and both wheels exist.
 *
 * Contents, and where each part lives:
 *   - the types: a rig and its bodies, joints, spring laws, shapes, linkage, wheels, aero;
 *   - loading (sim/rig_load.c): rig_load, rig_load_text, rig_load_params, rig_free,
 *     rig_resolve. The loader owns the Lua state; a rig owns its path, source, modules and sets
 *     (rig_free frees them with it). Errors: NULL with e set: MT_EINPUT with one line naming
 *     file:line, the body, joint or section and the field, or MT_EINTERNAL (no Lua state).
 *     Reading the table is sim/rig_read.c (sim/rig_read.h), the --set keys and the parameter
 *     list sim/rig_set.c (sim/rig_set.h);
 *   - queries on a loaded rig (sim/rig.c): indices by name, the spring laws, the drag area, the
 *     total mass, the shock linkage solved exactly. They only read the rig; the one that can
 *     fail is rig_linkage_solve, at an angle where the loop cannot close (−1).
 * Building the MuJoCo model from a rig is the vehicle's (sim/vehicle.c), not this module's. */
#ifndef RIG_H
#define RIG_H

#include "base/mt.h"
#include "sim/tyre.h"
#include "sim/engine.h"
#include "sim/drivetrain.h"
#include "sim/contact.h"
#include "sim/controls.h"

#define RIG_MAX_BODIES 16
/* The time steps a rig may have (s): what a run can record and a take can replay (takes/take_reader.c
 * holds a take's meta timestep to this range and to its rig's exact value). */
#define RIG_TIMESTEP_MIN 1e-5
#define RIG_TIMESTEP_MAX 0.01
#define RIG_MAX_JOINTS 16
#define RIG_MAX_SHAPES 8
#define RIG_NAME 32
#define RIG_TAB 24

enum { RIG_FREE, RIG_HINGE, RIG_SLIDE };
enum { RIG_BOX, RIG_CYLINDER, RIG_CAPSULE, RIG_SPHERE, RIG_TORUS };
enum { RIG_FRONT = 0, RIG_REAR = 1 };
/* Rider posture set-points a joint spring can follow (veh_input.posture[]): hip shift across the
 * seat (m, positive to the right), torso lean relative to the frame (rad, positive right, ISO
 * like the machine's roll), torso pitch (rad, positive forward/down: the tuck). */
enum { RIG_POSTURE_HIP, RIG_POSTURE_LEAN, RIG_POSTURE_PITCH, RIG_NPOSTURE };
extern const char* const rig_posture_names[RIG_NPOSTURE];

/* A spring-damper law on a coordinate x, compression positive. The force it pushes back with
 * (extension positive) is  F = spring(x) + damper(ẋ) + stops(x):
 *   spring(x) = preload + k·(x − x_min)        (or a table F(x) for progressive springs)
 *   damper(ẋ) = c_comp·ẋ when compressing (ẋ > 0), c_reb·ẋ when extending
 *   stops: k_stop·(x − x_max) beyond full compression, k_stop·(x − x_min) beyond full extension.
 * x_min is the full-extension (top-out) position, where the preloaded spring is held by the
 * top-out stop; the law is continuous. */
typedef struct rig_sd {
  double k, preload;
  int ntab;                    /* progressive spring: F at points x (increasing), linear between */
  double tab_x[RIG_TAB], tab_f[RIG_TAB];
  double c_comp, c_reb;
  double x_min, x_max;         /* travel; x_min < x_max; both 0 means "no stops" */
  double k_stop;
} rig_sd;

typedef struct rig_joint {
  char name[RIG_NAME];
  int type;                    /* RIG_FREE, RIG_HINGE, RIG_SLIDE */
  int body;                    /* the body this joint moves */
  double axis[3];              /* unit, reference pose */
  double anchor[3];            /* a point on the axis (hinge) or the slider's origin */
  int has_sd;                  /* a spring-damper acts on this joint's coordinate */
  rig_sd sd;                   /* for hinges x is the angle (rad) and F a torque (N·m) */
  double sign;                 /* +1, or −1 if compression is the negative joint direction */
  int target;                  /* RIG_POSTURE_*: the spring pulls toward that moving set-point
                                  (spring = { ..., target = "hip_shift" }), or −1: toward 0 */
} rig_joint;

typedef struct rig_shape {
  int type;
  double a[3], b[3];           /* box: centre and full size; cylinder/capsule: end points;
                                  sphere/torus: centre and (radius, minor radius) in b[0], b[1] */
  double axis[3];              /* torus axis */
  double radius;               /* cylinder/capsule radius */
  double rgba[4];
} rig_shape;

typedef struct rig_body {
  char name[RIG_NAME];
  int parent;                  /* −1 for the root */
  double mass;
  double com[3];               /* reference pose, design frame */
  double inertia[6];           /* about com, design axes: Ixx Iyy Izz Ixy Ixz Iyz */
  int joint0, njoint;          /* joints moving this body relative to its parent */
  rig_shape shape[RIG_MAX_SHAPES];
  int nshape;
} rig_body;

/* The rear-shock linkage (bell crank and pull rod), massless, solved kinematically:
 * bell crank hinged to the frame at `pivot` (p19), pull rod from `crank_rod` (p20) on the
 * crank to `arm_rod` (p22) on the swingarm, shock from `frame_shock` (p13) on the frame to
 * `crank_shock` (p21) on the crank. All in the symmetry plane (y = 0). */
typedef struct rig_linkage {
  double pivot[3], crank_rod[3], crank_shock[3], arm_rod[3], frame_shock[3];
  double rod_length, crank_arm;      /* derived: |p20 − p22|, |p20 − p19| */
  double shock_length0;              /* shock eye-to-eye length in the reference pose */
  int swingarm_joint;
  rig_sd shock;                      /* x = shock compression from shock_length0 (m) */
  double link_mass;                  /* for drawings only (the 2004 model's links are massless) */
} rig_linkage;

typedef struct rig_wheel {
  int body, joint;                   /* wheel body and its spin joint */
  double centre[3];                  /* reference pose */
  tyre_params tyre;
} rig_wheel;

typedef struct rig_aero {
  double cd_area, cl_area;           /* m² (drag and lift coefficient × frontal area) */
  double centre[3];                  /* centre of pressure, reference pose */
  double rho;                        /* air density kg/m³ */
  /* Rider posture (aero.posture = { tucked = {pitch, cd_area}, upright = {pitch, cd_area} }):
   * Cd·A is piecewise linear in the torso_pitch joint's angle through (pitch_upright,
   * cd_upright), (0, cd_area), (pitch_tucked, cd_tucked), constant beyond. has_posture 0: fixed. */
  int has_posture;
  double pitch_tucked, cd_tucked, pitch_upright, cd_upright;
} rig_aero;

/* The rider's arms on the bars (rider = { arms = { inertia, k, c } }, docs/rider_arms.md): the
 * passive steering impedance of hands and arms, reduced to the steering axis and acting on the
 * steer joint relative to the frame. inertia is a MuJoCo armature on the steer dof (the hands and
 * forearms turning with the bars: their mass already rides in the rider's upper body, so only
 * the relative rotation's inertia is added); k and c a spring-damper toward straight ahead.
 * All zero (the default, and absent from a rig) = hands off. */
typedef struct rig_arms {
  double inertia;                    /* kg·m² about the steering axis */
  double k;                          /* N·m/rad */
  double c;                          /* N·m·s/rad */
} rig_arms;

typedef struct rig_module { char* name; char* text; } rig_module;

typedef struct rig {
  char name[64];
  char* path;                        /* file it came from */
  char* source;                      /* its full text (takes embed it) */
  rig_module* modules;               /* every module it required, with its text */
  int nmodule;
  char** sets;                       /* the --set overrides applied */
  int nset;
  double timestep;                   /* s */
  rig_body body[RIG_MAX_BODIES];
  int nbody;
  rig_joint joint[RIG_MAX_JOINTS];
  int njoint;
  rig_linkage linkage;
  rig_wheel wheel[2];
  int j_steer, j_twist, j_fork, j_swingarm, j_rider, j_front_spin, j_rear_spin;  /* −1 if absent */
  int j_bend;                        /* "fork_bend": lateral bending of the fork, −1 if absent */
  int b_frame, b_steer, b_fork, b_swingarm, b_rider;
  int j_posture[RIG_NPOSTURE];       /* the joint following each posture set-point, −1 if none */
  double steer_lock;                 /* rad, each side */
  double k_steer_lock;               /* N·m/rad beyond the lock */
  rig_arms arms;                     /* the rider's passive arms at the bars (all zero: hands off) */
  double rider_height;               /* m (rider = { height }): sizes the rider's skeleton
                                        (scene/skeleton.h), not the physics; default 1.78 */
  rig_aero aero;
  engine_params engine;
  drive_params drive;
  contact_set contacts;               /* spheres that touch the road besides the tyres (sim/contact.h) */
  rig_controls controls;              /* the ride window's hand controls (sim/controls.h) */
} rig;

/* Load, apply `--set KEY=VALUE` overrides (nset of them), validate. NULL with e set on error. */
rig* rig_load(const char* path, const char* const* sets, int nset, mt_err* e);
/* The same from text (a take's embedded copy): modules serve require() before any file. */
rig* rig_load_text(const char* name, const char* text, const rig_module* mods, int nmod, const char* const* sets,
                   int nset, mt_err* e);
void rig_free(rig* r);
/* Every numeric parameter of a rig — those of its presets and every default included — as the
 * dotted key `--set` and a take's overrides accept, with its value (after the sets) and unit
 * ("1" for dimensionless). Sorted by key. The rig is returned as rig_load would. */
typedef struct rig_param { char key[128]; double value; char unit[24]; } rig_param;
typedef struct rig_params { rig_param* p; int n, cap; } rig_params;
rig* rig_load_params(const char* path, const char* const* sets, int nset, rig_params* out, mt_err* e);
void rig_params_free(rig_params* p);
/* Resolve a rig name ("sport1000") or path to a file path in out. */
void rig_resolve(const char* name, char* out, size_t n);
/* Index of a body or joint by name, −1 if absent. */
int rig_body_index(const rig* r, const char* name);
int rig_joint_index(const rig* r, const char* name);

/* Spring-damper force (extension positive) at compression x and rate xd. */
double rig_sd_force(const rig_sd* s, double x, double xd);
/* Spring part only (no damping), for trim and potential energy. */
double rig_sd_spring(const rig_sd* s, double x);
/* Potential energy stored at compression x (∫ spring from x_min, plus stops). */
double rig_sd_energy(const rig_sd* s, double x);

/* Drag area at torso pitch angle `pitch` (rad; see rig_aero). */
double rig_cd_area(const rig_aero* a, double pitch);

/* Total mass, centre of mass (reference pose). */
double rig_total_mass(const rig* r, double com[3]);

/*---- the shock linkage, exact ----*/
typedef struct rig_link_pose {
  double crank_angle;                /* bell-crank rotation about +y from the reference (rad) */
  double rod_end_crank[3], rod_end_arm[3];   /* pull-rod end points, design frame */
  double shock_top[3], shock_bottom[3];      /* shock eyes (frame end, crank end) */
  double shock_length, dlength_dtheta;       /* length and its rate with swingarm angle */
  double motion_ratio;               /* rear wheel vertical travel per unit shock compression */
} rig_link_pose;

/* Pose of the linkage for swingarm angle theta (positive = wheel up); 0 ok, −1 if it cannot close. */
int rig_linkage_solve(const rig* r, double theta, rig_link_pose* out);

#endif
