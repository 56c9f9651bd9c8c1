/* recsample.c — the recorder's sampling of the vehicle (see recsample.h). */
#include "sim/recsample.h"

#include "sim/vehicle_mj.h"

#include <math.h>
#include <string.h>

/* Joint reaction forces are recorded for the bodies a coach or engineer asks about. */
static const rec_channel CHANNELS[] = {
  {"time", "s"}, {"station", "m"}, {"offset", "m"}, {"distance", "m"}, {"lap", "1"},
  {"x", "m"}, {"y", "m"}, {"z", "m"},
  {"speed", "m/s"}, {"lean", "deg"}, {"pitch", "deg"}, {"heading", "deg"},
  {"roll_rate", "deg/s"}, {"yaw_rate", "deg/s"}, {"ax", "m/s^2"}, {"ay", "m/s^2"},
  {"steer_angle", "deg"}, {"steer_rate", "deg/s"}, {"steer_torque", "N*m"},
  {"throttle", "1"}, {"front_brake", "1"}, {"rear_brake", "1"}, {"clutch", "1"}, {"gear", "1"},
  {"rpm", "1/min"}, {"engine_torque", "N*m"}, {"manifold_pressure", "Pa"}, {"clutch_torque", "N*m"},
  {"front_wheel_speed", "rad/s"}, {"rear_wheel_speed", "rad/s"},
  {"fork_travel", "m"}, {"fork_force", "N"}, {"shock_travel", "m"}, {"shock_force", "N"},
  {"swingarm_angle", "deg"}, {"motion_ratio", "1"},
  {"front_load", "N"}, {"rear_load", "N"},
  {"front_slip_ratio", "1"}, {"rear_slip_ratio", "1"},
  {"front_slip_angle", "deg"}, {"rear_slip_angle", "deg"},
  {"front_camber", "deg"}, {"rear_camber", "deg"},
  {"front_fx", "N"}, {"front_fy", "N"}, {"front_mz", "N*m"},
  {"rear_fx", "N"}, {"rear_fy", "N"}, {"rear_mz", "N*m"},
  {"front_contact", "1"}, {"rear_contact", "1"},
  {"chain_force", "N"}, {"drive_torque", "N*m"},
  {"front_brake_torque", "N*m"}, {"rear_brake_torque", "N*m"},
  {"aero_drag", "N"}, {"aero_lift", "N"},
  {"rider_lean", "deg"}, {"frame_twist", "deg"},
  /* joint reactions: force and torque the parent exerts on the child at the joint, world axes */
  {"steer_joint_fx", "N"}, {"steer_joint_fy", "N"}, {"steer_joint_fz", "N"},
  {"steer_joint_mx", "N*m"}, {"steer_joint_my", "N*m"}, {"steer_joint_mz", "N*m"},
  {"swingarm_joint_fx", "N"}, {"swingarm_joint_fy", "N"}, {"swingarm_joint_fz", "N"},
  {"swingarm_joint_mx", "N*m"}, {"swingarm_joint_my", "N*m"}, {"swingarm_joint_mz", "N*m"},
  {"front_axle_fx", "N"}, {"front_axle_fy", "N"}, {"front_axle_fz", "N"},
  {"rear_axle_fx", "N"}, {"rear_axle_fy", "N"}, {"rear_axle_fz", "N"},
  {"rider_joint_fx", "N"}, {"rider_joint_fy", "N"}, {"rider_joint_fz", "N"},
  {"rider_joint_mx", "N*m"}, {"rider_joint_my", "N*m"}, {"rider_joint_mz", "N*m"},
  /* signed speed along the heading (`speed` is the ground speed, never negative) */
  {"forward_speed", "m/s"},
  /* acceleration of the whole machine's centre of mass (Newton: every external force — road,
   * air, gravity — over the total mass), heading axes: x forward, y left (horizontal), z up.
   * `ax`, `ay` are the frame body's origin, which carries the frame's vibration. */
  {"com_ax", "m/s^2"}, {"com_ay", "m/s^2"}, {"com_az", "m/s^2"},
  /* the same joint reactions in the axes of the body that carries the joint (the parent: frame
   * for the steering head, swingarm pivot and rider; fork and swingarm for the axles), which
   * are the design axes x forward, y left, z up in the reference pose */
  {"steer_joint_body_fx", "N"}, {"steer_joint_body_fy", "N"}, {"steer_joint_body_fz", "N"},
  {"steer_joint_body_mx", "N*m"}, {"steer_joint_body_my", "N*m"}, {"steer_joint_body_mz", "N*m"},
  {"swingarm_joint_body_fx", "N"}, {"swingarm_joint_body_fy", "N"}, {"swingarm_joint_body_fz", "N"},
  {"swingarm_joint_body_mx", "N*m"}, {"swingarm_joint_body_my", "N*m"}, {"swingarm_joint_body_mz", "N*m"},
  {"front_axle_body_fx", "N"}, {"front_axle_body_fy", "N"}, {"front_axle_body_fz", "N"},
  {"rear_axle_body_fx", "N"}, {"rear_axle_body_fy", "N"}, {"rear_axle_body_fz", "N"},
  {"rider_joint_body_fx", "N"}, {"rider_joint_body_fy", "N"}, {"rider_joint_body_fz", "N"},
  {"rider_joint_body_mx", "N*m"}, {"rider_joint_body_my", "N*m"}, {"rider_joint_body_mz", "N*m"},
  /* stunts and falls: wheel clearances, the rider's balance loop, contact spheres on the road */
  {"front_clearance", "m"}, {"rear_clearance", "m"}, {"stunt", "1"},
  {"contacts", "1"}, {"contact_normal", "N"}, {"contact_friction", "N"},
  /* the rider's posture: hip shift across the seat (positive right), torso lean relative to the
   * frame (positive right), torso pitch (positive forward: the tuck) */
  {"hip_shift", "m"}, {"torso_lean", "deg"}, {"torso_pitch", "deg"},
};

static const rec_channel INPUTS[] = {
  {"steer_torque", "N*m"}, {"throttle", "1"}, {"front_brake", "1"}, {"rear_brake", "1"},
  {"clutch", "1"}, {"gear", "1"}, {"rider_lean_torque", "N*m"},
  {"hip_shift_target", "m"}, {"torso_lean_target", "rad"}, {"torso_pitch_target", "rad"},
  {"ignition_cut", "1"},
};

int rec_nchan(void) { return (int)MT_ARRAY_LEN(CHANNELS); }
const rec_channel* rec_channels(void) { return CHANNELS; }
int rec_chan_index(const char* name) {
  for (size_t i = 0; i < MT_ARRAY_LEN(CHANNELS); i++)
    if (strcmp(CHANNELS[i].name, name) == 0) return (int)i;
  return -1;
}

int rec_ninput(void) { return (int)MT_ARRAY_LEN(INPUTS); }
const rec_channel* rec_inputs(void) { return INPUTS; }

void rec_input_values(const veh_input* in, double* o) {
  o[0] = in->steer_torque;
  o[1] = in->throttle;
  o[2] = in->front_brake;
  o[3] = in->rear_brake;
  o[4] = in->clutch;
  o[5] = in->gear;
  o[6] = in->rider_lean_torque;
  for (int k = 0; k < RIG_NPOSTURE; k++) o[7 + k] = in->posture[k];
  o[7 + RIG_NPOSTURE] = in->ignition_cut;
}

void rec_input_apply(const double* o, int n, veh_input* in) {
  double x[MT_ARRAY_LEN(INPUTS)] = {0};   /* a take from before an input existed: that input is 0 */
  for (int k = 0; k < n && k < (int)MT_ARRAY_LEN(INPUTS); k++) x[k] = o[k];
  o = x;
  in->steer_torque = o[0];
  in->throttle = o[1];
  in->front_brake = o[2];
  in->rear_brake = o[3];
  in->clutch = o[4];
  in->gear = (int)o[5];
  in->rider_lean_torque = o[6];
  for (int k = 0; k < RIG_NPOSTURE; k++) in->posture[k] = o[7 + k];
  in->ignition_cut = o[7 + RIG_NPOSTURE];
}

int rec_nbody(const rig* r) { return r->nbody + VEH_NLINK; }

const char* rec_body_name(const rig* r, int i) {
  return i < r->nbody ? r->body[i].name : veh_link_names[i - r->nbody];
}

const char* rec_body_parent(const rig* r, int i) {
  if (i < r->nbody) return r->body[i].parent >= 0 ? r->body[r->body[i].parent].name : "";
  /* the bell crank and the shock body hang from the frame; the pull rod and shock rod from the crank */
  int k = i - r->nbody;
  return (k == VEH_LINK_CRANK || k == VEH_LINK_SHOCK_BODY) ? r->body[r->b_frame].name : veh_link_names[VEH_LINK_CRANK];
}

void rec_poses(const vehicle* v, double* out) {
  const rig* r = v->rig;
  for (int i = 0; i < r->nbody; i++) veh_body_pose(v, i, out + 7 * i, out + 7 * i + 3);
  double p[VEH_NLINK][3], q[VEH_NLINK][4];
  veh_link_poses(v, p, q);
  for (int k = 0; k < VEH_NLINK; k++) {
    memcpy(out + 7 * (r->nbody + k), p[k], sizeof p[k]);
    memcpy(out + 7 * (r->nbody + k) + 3, q[k], sizeof q[k]);
  }
}

void rec_sample_instant(vehicle* v, const double* x_t, double* scratch, const rec_context* c, double* poses, double* chans) {
  veh_get_state(v, scratch);
  veh_set_state(v, x_t);
  if (poses) rec_poses(v, poses);   /* NULL: not wanted (a take stores none since format 3) */
  rec_sample(v, c, chans);
  veh_set_state(v, scratch);
}

/* Force and torque body b's parent exerts on b, at the point `at`, world axes. MuJoCo's
 * cfrc_int (after mj_rnePostConstraint) is that interaction as a spatial force at the subtree's
 * centre of mass of the root: [torque; force]. */
static void reaction(const vehicle* v, int rb, const double at[3], double f[3], double m[3]) {
  const mjData* d = v->d;
  int b = v->bid[rb];
  const double* cf = d->cfrc_int + 6 * b;
  const double* c = d->subtree_com + 3 * v->m->body_rootid[b];
  double r[3] = {c[0] - at[0], c[1] - at[1], c[2] - at[2]};
  f[0] = cf[3];
  f[1] = cf[4];
  f[2] = cf[5];
  /* move the torque from the point c to `at`: m_at = m_c + (c − at) × f */
  m[0] = cf[0] + r[1] * f[2] - r[2] * f[1];
  m[1] = cf[1] + r[2] * f[0] - r[0] * f[2];
  m[2] = cf[2] + r[0] * f[1] - r[1] * f[0];
}

void rec_sample(vehicle* v, const rec_context* c, double* o) {
  const rig* r = v->rig;
  const mjData* d = v->d;
  const veh_out* vo = &v->out;
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  double w[6];
  veh_body_velocity(v->m, d, v->bid[r->b_frame], w);
  const double R2D = 180 / MT_PI;
  double hx = cos(yaw), hy = sin(yaw);
  const double* fp = d->xpos + 3 * v->bid[r->b_frame];
  int k = 0;
  o[k++] = d->time;
  o[k++] = c->station;
  o[k++] = c->offset;
  o[k++] = c->distance;
  o[k++] = c->lap;
  o[k++] = fp[0];
  o[k++] = fp[1];
  o[k++] = fp[2];
  int fd = v->dadr[r->body[0].joint0];
  o[k++] = hypot(d->qvel[fd], d->qvel[fd + 1]);   /* ground speed of the frame's centre of mass */
  o[k++] = roll * R2D;
  o[k++] = pitch * R2D;
  o[k++] = yaw * R2D;
  o[k++] = (w[0] * hx + w[1] * hy) * R2D;
  o[k++] = w[2] * R2D;
  o[k++] = c->ax;
  o[k++] = c->ay;
  o[k++] = vo->steer_angle * R2D;
  o[k++] = vo->steer_rate * R2D;
  o[k++] = v->in.steer_torque;
  o[k++] = v->in.throttle;
  o[k++] = v->in.front_brake;
  o[k++] = v->in.rear_brake;
  o[k++] = v->in.clutch;
  o[k++] = v->in.gear;
  o[k++] = vo->engine_rpm;
  o[k++] = vo->engine_torque;
  o[k++] = vo->manifold_pressure;
  o[k++] = vo->clutch_torque;
  o[k++] = vo->wheel[RIG_FRONT].spin;
  o[k++] = vo->wheel[RIG_REAR].spin;
  o[k++] = vo->fork_travel;
  o[k++] = vo->fork_force;
  o[k++] = vo->shock_travel;
  o[k++] = vo->shock_force;
  o[k++] = veh_q(v, r->j_swingarm) * R2D;
  o[k++] = vo->shock_motion_ratio;
  for (int wi = 0; wi < 2; wi++) o[k++] = vo->wheel[wi].fz;
  for (int wi = 0; wi < 2; wi++) o[k++] = vo->wheel[wi].kappa_r;
  for (int wi = 0; wi < 2; wi++) o[k++] = vo->wheel[wi].alpha_r * R2D;
  for (int wi = 0; wi < 2; wi++) o[k++] = vo->wheel[wi].camber * R2D;
  for (int wi = 0; wi < 2; wi++) {
    o[k++] = vo->wheel[wi].fx;
    o[k++] = vo->wheel[wi].fy;
    o[k++] = vo->wheel[wi].mz;
  }
  o[k++] = vo->wheel[RIG_FRONT].contact;
  o[k++] = vo->wheel[RIG_REAR].contact;
  o[k++] = vo->chain_force;
  o[k++] = vo->drive_torque;
  o[k++] = vo->brake_torque[0];
  o[k++] = vo->brake_torque[1];
  o[k++] = vo->aero_drag;
  o[k++] = vo->aero_lift;
  o[k++] = veh_q(v, r->j_rider) * R2D;
  o[k++] = veh_q(v, r->j_twist) * R2D;
  /* joint reactions need the post-constraint pass (cheap: one more recursion) */
  veh_reactions(v);
  double rf[5][3], rm[5][3];
  int jb[5] = {r->b_steer, r->b_swingarm, r->wheel[RIG_FRONT].body, r->wheel[RIG_REAR].body, r->b_rider};
  int jj[5] = {r->j_steer, r->j_swingarm, r->j_front_spin, r->j_rear_spin, r->j_rider};
  int nm[5] = {1, 1, 0, 0, 1};   /* torques recorded too */
  for (int q = 0; q < 5; q++) {
    if (jb[q] < 0) {
      memset(rf[q], 0, sizeof rf[q]);
      memset(rm[q], 0, sizeof rm[q]);
    } else {
      int jid = v->m->dof_jntid[v->dadr[jj[q]]];
      reaction(v, jb[q], d->xanchor + 3 * jid, rf[q], rm[q]);
    }
    for (int i = 0; i < 3; i++) o[k++] = rf[q][i];
    if (nm[q])
      for (int i = 0; i < 3; i++) o[k++] = rm[q][i];
  }
  /* forward speed (signed) */
  o[k++] = veh_speed(v);
  /* centre-of-mass acceleration: Σ external forces / M + g, in heading axes */
  double F[3] = {0, 0, 0}, M = 0;
  for (int b = 1; b < v->m->nbody; b++) {
    M += v->m->body_mass[b];
    for (int i = 0; i < 3; i++) F[i] += v->ext[b][i];
  }
  double a[3];
  for (int i = 0; i < 3; i++) a[i] = F[i] / M + v->m->opt.gravity[i];
  o[k++] = a[0] * hx + a[1] * hy;
  o[k++] = -a[0] * hy + a[1] * hx;
  o[k++] = a[2];
  /* reactions in the axes of the joint's parent body: Rᵀ·f */
  for (int q = 0; q < 5; q++) {
    const double* R = d->xmat + 9 * v->bid[jb[q] >= 0 ? r->body[jb[q]].parent : 0];
    for (int i = 0; i < 3; i++) o[k++] = jb[q] < 0 ? 0 : R[i] * rf[q][0] + R[3 + i] * rf[q][1] + R[6 + i] * rf[q][2];
    if (nm[q])
      for (int i = 0; i < 3; i++) o[k++] = jb[q] < 0 ? 0 : R[i] * rm[q][0] + R[3 + i] * rm[q][1] + R[6 + i] * rm[q][2];
  }
  o[k++] = vo->wheel[RIG_FRONT].clearance;
  o[k++] = vo->wheel[RIG_REAR].clearance;
  o[k++] = c->stunt;
  o[k++] = vo->contacts_touching;
  o[k++] = vo->contact_fn;
  o[k++] = vo->contact_ft;
  /* from the force evaluation (time t, like the poses), not qpos (already at t + dt) */
  o[k++] = vo->posture[RIG_POSTURE_HIP];
  o[k++] = vo->posture[RIG_POSTURE_LEAN] * R2D;
  o[k++] = vo->posture[RIG_POSTURE_PITCH] * R2D;
}
