/* vehicle.c — compile a rig into MuJoCo, and the force stages of one evaluation.
 *
 * Order of one evaluation (MuJoCo's mj_forward calls our control callback after the position
 * and velocity stages, before actuation and acceleration):
 *   stage_joints    springs, dampers, stops on joint coordinates (fork, steer, twist, rider)
 *   stage_linkage   rear shock through the exact bell-crank linkage → swingarm torque
 *   stage_tyres     contact, slip, Magic Formula forces, relaxation rates
 *   stage_contacts  other bodies on the road: penalty spheres with friction (sim/contact.h)
 *   stage_drive     engine, clutch, gearbox, chain, brakes
 *   stage_aero      drag and lift at the centre of pressure
 *   stage_rider     the rider's inputs (steering torque, lean torque)
 * Each stage *adds* into qfrc_applied, which the callback zeroes first: the sum is written
 * fresh every evaluation, so nothing leaks between steps or finite-difference perturbations. */
#include "sim/vehicle_mj.h"
#include "base/vec3.h"
#include "sim/vmath.h"
#include "sim/vstep.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MuJoCo's callbacks are global, one set for the process: they dispatch to the vehicle being
 * evaluated on the calling thread (several threads may read takes at once: render/pool.h). */
static _Thread_local vehicle* g_active;

/* The armature (kg·m²) that holds the fork-bending hinge while the trim evaluates (veh_forward). */
#define VEH_HELD_ARMATURE 1e12

int veh_force_shortcuts = 1;

const char* const veh_link_names[VEH_NLINK] = {"bell_crank", "pull_rod", "shock_body", "shock_rod"};

/* Body b's angular velocity and the velocity of the world point p moving with it, both in world
 * axes, straight from MuJoCo's cvel (angular; linear at the tree's root subtree com): what
 * mj_objectVelocity gives at p, up to rounding, without its spatial transform. Out may be NULL. */
static void body_vel(const mjModel* m, const mjData* d, int b, const double p[3], double w[3], double vp[3]) {
  const double* cv = d->cvel + 6 * b;
  const double* c0 = d->subtree_com + 3 * m->body_rootid[b];
  double r[3] = {p[0] - c0[0], p[1] - c0[1], p[2] - c0[2]};
  if (w) memcpy(w, cv, 3 * sizeof(double));
  vp[0] = cv[3] + cv[1] * r[2] - cv[2] * r[1];
  vp[1] = cv[4] + cv[2] * r[0] - cv[0] * r[2];
  vp[2] = cv[5] + cv[0] * r[1] - cv[1] * r[0];
}

/*---- MJCF generation ----*/

static void emit_body(mt_sb* b_, const rig* r, const double origin[][3], int i, double crank_inertia,
                      const double crank_pos[3]) {
  const rig_body* bd = &r->body[i];
  double rel[3];
  for (int k = 0; k < 3; k++) rel[k] = origin[i][k] - (bd->parent >= 0 ? origin[bd->parent][k] : 0);
  mt_sbprintf(b_, "<body name=\"%s\" pos=\"%.17g %.17g %.17g\">\n", bd->name, rel[0], rel[1], rel[2]);
  for (int k = 0; k < bd->njoint; k++) {
    const rig_joint* j = &r->joint[bd->joint0 + k];
    if (j->type == RIG_FREE) {
      mt_sbprintf(b_, "<freejoint name=\"%s\"/>\n", j->name);
    } else {
      double jp[3];
      for (int c = 0; c < 3; c++) jp[c] = j->anchor[c] - origin[i][c];
      /* The rider's arms' inertia about the steering axis is the steer dof's armature: it adds to
       * the relative steer motion only (the hands' mass itself is in the rider's upper body). */
      double arm = bd->joint0 + k == r->j_steer ? r->arms.inertia : 0;
      mt_sbprintf(b_, "<joint name=\"%s\" type=\"%s\" pos=\"%.17g %.17g %.17g\" axis=\"%.17g %.17g %.17g\" armature=\"%.17g\"/>\n",
                j->name, j->type == RIG_HINGE ? "hinge" : "slide", jp[0], jp[1], jp[2], j->axis[0], j->axis[1],
                j->axis[2], arm);
    }
  }
  const double* I = bd->inertia;
  double ip[3] = {bd->com[0] - origin[i][0], bd->com[1] - origin[i][1], bd->com[2] - origin[i][2]};
  if (I[3] == 0 && I[5] == 0) {
    /* Symmetric about the x–z plane: the principal axes are a rotation about y, computed here in
     * closed form so the quaternion's x and z parts are exactly zero. (MuJoCo's own eigen-solver
     * leaves ~1e-17 there, which the capsize instability amplifies into a spurious fall.) The
     * tensor's x–z element is minus the product of inertia. */
    double a = I[0], b = I[2], c = -I[4];
    double th = 0.5 * atan2(2 * c, a - b), ct = cos(th), st = sin(th);
    double i1 = a * ct * ct + 2 * c * st * ct + b * st * st;
    double i3 = a * st * st - 2 * c * st * ct + b * ct * ct;
    double phi = -th;   /* rotation about +y taking body x to the principal axis (cos θ, 0, sin θ) */
    mt_sbprintf(b_, "<inertial pos=\"%.17g %.17g %.17g\" mass=\"%.17g\" quat=\"%.17g 0 %.17g 0\" diaginertia=\"%.17g %.17g %.17g\"/>\n",
              ip[0], ip[1], ip[2], bd->mass, cos(phi / 2), sin(phi / 2), i1, I[1], i3);
  } else {
    mt_sbprintf(b_, "<inertial pos=\"%.17g %.17g %.17g\" mass=\"%.17g\" fullinertia=\"%.17g %.17g %.17g %.17g %.17g %.17g\"/>\n",
              ip[0], ip[1], ip[2], bd->mass, I[0], I[1], I[2], -I[3], -I[4], -I[5]);
  }
  if (i == r->b_frame) {
    /* The crank: its mass is part of the frame's; only its spin inertia is its own. */
    mt_sbprintf(b_, "<body name=\"crank\" pos=\"%.17g %.17g %.17g\">\n<joint name=\"crank\" type=\"hinge\" axis=\"0 1 0\"/>\n"
                 "<inertial pos=\"0 0 0\" mass=\"0.001\" diaginertia=\"%.17g %.17g %.17g\"/>\n</body>\n",
              crank_pos[0] - origin[i][0], crank_pos[1] - origin[i][1], crank_pos[2] - origin[i][2], 0.5 * crank_inertia, crank_inertia, 0.5 * crank_inertia);
  }
  for (int c = i + 1; c < r->nbody; c++)
    if (r->body[c].parent == i) emit_body(b_, r, origin, c, crank_inertia, crank_pos);
  mt_sbprintf(b_, "</body>\n");
}

/* The MJCF text of a rig. Body frames are world-aligned in the reference pose; each body's
 * origin is its first joint's anchor (the root's is its centre of mass). */
static char* rig_to_mjcf(const rig* r, double origin[][3], double crank_inertia, const double crank_pos[3]) {
  for (int i = 0; i < r->nbody; i++) {
    const rig_body* b = &r->body[i];
    if (b->parent < 0) memcpy(origin[i], b->com, sizeof b->com);
    else memcpy(origin[i], r->joint[b->joint0].anchor, sizeof origin[i]);
  }
  mt_sb b = {0};
  mt_sbprintf(&b, "<mujoco model=\"%s\">\n<compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n", r->name);
  mt_sbprintf(&b, "<option timestep=\"%.17g\" integrator=\"Euler\" gravity=\"0 0 %.17g\">\n"
                "<flag contact=\"disable\" equality=\"disable\" limit=\"disable\" frictionloss=\"disable\" "
                "passive=\"disable\" warmstart=\"disable\"/>\n</option>\n",
            r->timestep, -MT_G);
  mt_sbprintf(&b, "<worldbody>\n");
  emit_body(&b, r, origin, 0, crank_inertia, crank_pos);
  mt_sbprintf(&b, "</worldbody>\n<actuator>\n");
  /* Four state carriers for the tyres' relaxed slips: user dynamics, zero gain (no force). */
  static const char* names[4] = {"front_kappa", "front_alpha", "rear_kappa", "rear_alpha"};
  for (int k = 0; k < 4; k++)
    mt_sbprintf(&b, "<general name=\"%s\" joint=\"%s\" dyntype=\"user\" gaintype=\"fixed\" gainprm=\"0\" "
                  "biastype=\"none\" ctrllimited=\"false\"/>\n",
              names[k], r->joint[k < 2 ? r->j_front_spin : r->j_rear_spin].name);
  mt_sbprintf(&b, "</actuator>\n</mujoco>\n");
  return b.p;
}

static mjModel* compile_xml(const char* xml, mt_err* e) {
  /* MuJoCo 2.2.2 has no buffer loader: an in-memory VFS file. mjVFS is ~2 MB: heap. */
  mjVFS* vfs = mt_alloc(sizeof *vfs);
  mj_defaultVFS(vfs);
  int len = (int)strlen(xml);
  if (mj_makeEmptyFileVFS(vfs, "rig.xml", len) != 0) {
    free(vfs);
    mt_fail(e, MT_EINTERNAL, "MuJoCo VFS: cannot allocate the model text");
    return NULL;
  }
  memcpy(vfs->filedata[mj_findFileVFS(vfs, "rig.xml")], xml, (size_t)len);
  char err[1000] = "";
  mjModel* m = mj_loadXML("rig.xml", vfs, err, sizeof err);
  mj_deleteVFS(vfs);
  free(vfs);
  if (!m) mt_fail(e, MT_EINPUT, "MuJoCo could not compile the rig: %s", err);
  return m;
}

static void cb_control(const mjModel* m, mjData* d);
static mjtNum cb_act_dyn(const mjModel* m, const mjData* d, int id);

/* MuJoCo prints warnings and appends them to MUJOCO_LOG.TXT in the working folder; we check
 * d->warning ourselves after every step, so warnings are silenced. Its errors are fatal by
 * design (it exits); ours says so on one line. */
static void mj_warning_quiet(const char* msg) { (void)msg; }
static void mj_error_fatal(const char* msg) {
  fprintf(stderr, "mototake: internal error in MuJoCo: %s\n", msg);
  exit(MT_EINTERNAL);
}

static void install_hooks(void) {
  mju_user_warning = mj_warning_quiet;
  mju_user_error = mj_error_fatal;
  mjcb_control = cb_control;
  mjcb_act_dyn = cb_act_dyn;
}

static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;

static void activate(vehicle* v) {
  pthread_once(&hooks_once, install_hooks);   /* the same hooks for every vehicle, set once, before any thread steps */
  g_active = v;
}

/* The model veh_forward evaluates the trim with when the rig has a fork-bending hinge (dof db):
 * a copy of m whose only difference is that hinge's armature, VEH_HELD_ARMATURE, which holds
 * it (see veh_forward). Built once with the model, so that no evaluation writes into a model
 * (MuJoCo's rule: the model is constant, the data changes). NULL when db < 0. */
static mjModel* held_model(const mjModel* m, int db) {
  if (db < 0) return NULL;
  mjModel* h = mj_copyModel(NULL, m);
  h->dof_armature[db] = VEH_HELD_ARMATURE;
  return h;
}

vehicle* veh_new(const rig* r, road rd, int flags, mt_err* e) {
  vehicle* v = mt_alloc(sizeof *v);
  v->rig = r;
  v->road = rd;
  v->flags = flags;
  double crank_pos[3];
  memcpy(crank_pos, r->drive.output_sprocket, sizeof crank_pos);
  crank_pos[0] += 0.12;   /* crank ahead of the gearbox output; only its axis matters */
  double ci = r->engine.inertia;
  char* xml = rig_to_mjcf(r, v->origin, ci, crank_pos);
  v->m = compile_xml(xml, e);
  free(xml);
  if (!v->m) {
    free(v);
    return NULL;
  }
  v->d = mj_makeData(v->m);
  v->staged = vstep_enabled && vstep_applies(v->m, NULL);   /* decided once for the compiled model */
  for (int j = 0; j < r->njoint; j++) {
    int id = mj_name2id(v->m, mjOBJ_JOINT, r->joint[j].name);
    v->qadr[j] = v->m->jnt_qposadr[id];
    v->dadr[j] = v->m->jnt_dofadr[id];
  }
  for (int b = 0; b < r->nbody; b++) v->bid[b] = mj_name2id(v->m, mjOBJ_BODY, r->body[b].name);
  v->m_held = held_model(v->m, r->j_bend >= 0 ? v->dadr[r->j_bend] : -1);
  int cj = mj_name2id(v->m, mjOBJ_JOINT, "crank");
  v->crank_q = v->m->jnt_qposadr[cj];
  v->crank_d = v->m->jnt_dofadr[cj];
  v->crank_body = mj_name2id(v->m, mjOBJ_BODY, "crank");
  v->in.clutch = 1;
  v->hint[0] = v->hint[1] = -1;
  for (int i = 0; i < CONTACT_MAX; i++) v->contact_hint[i] = -1;
  v->ground_hint = -1;
  for (int i = 0; i < r->contacts.n; i++) {
    const contact_point* cp = &r->contacts.p[i];
    double* l = v->contact_local[i];
    for (int k = 0; k < 3; k++) l[k] = cp->point[k] - v->origin[cp->body][k];
    l[3] = norm3(l);
  }
  veh_place(v, 0, 0, 0, 0, 0, 0);
  return v;
}

void veh_free(vehicle* v) {
  if (!v) return;
  if (g_active == v) g_active = NULL;
  mj_deleteData(v->d);
  if (v->m_held) mj_deleteModel(v->m_held);
  mj_deleteModel(v->m);
  free(v);
}

/*---- state ----*/

int veh_state_size(const vehicle* v) { return v->m->nq + v->m->nv + v->m->na; }
int veh_dof_count(const vehicle* v) { return v->m->nv; }

void veh_set_displaced(vehicle* v, const double* x0, const double* dx) {
  veh_set_state(v, x0);
  mj_integratePos(v->m, v->d->qpos, dx, 1.0);
}
int veh_tyre_state_count(const vehicle* v) { return v->m->na; }

void veh_get_state(const vehicle* v, double* x) {
  memcpy(x, v->d->qpos, sizeof(double) * v->m->nq);
  memcpy(x + v->m->nq, v->d->qvel, sizeof(double) * v->m->nv);
  memcpy(x + v->m->nq + v->m->nv, v->d->act, sizeof(double) * v->m->na);
}

int veh_state_rates(const vehicle* v, int* rate) {
  const mjModel* m = v->m;
  int n = 0;
  for (int i = 0; i < veh_state_size(v); i++) rate[i] = -1;
  for (int j = 0; j < m->njnt; j++) {
    int q = m->jnt_qposadr[j], dv = m->nq + m->jnt_dofadr[j];   /* the velocity's place in the state */
    int k = m->jnt_type[j] == mjJNT_FREE ? 3 : m->jnt_type[j] == mjJNT_HINGE || m->jnt_type[j] == mjJNT_SLIDE ? 1 : 0;
    for (int c = 0; c < k; c++, n++) rate[q + c] = dv + c;   /* a ball's and the free joint's quaternion: none */
  }
  return n;
}

void veh_set_state(vehicle* v, const double* x) {
  memcpy(v->d->qpos, x, sizeof(double) * v->m->nq);
  memcpy(v->d->qvel, x + v->m->nq, sizeof(double) * v->m->nv);
  memcpy(v->d->act, x + v->m->nq + v->m->nv, sizeof(double) * v->m->na);
}

double veh_q(const vehicle* v, int j) { return j >= 0 ? v->d->qpos[v->qadr[j]] : 0; }
double veh_qd(const vehicle* v, int j) { return j >= 0 ? v->d->qvel[v->dadr[j]] : 0; }

static void quat_mul(const double a[4], const double b[4], double o[4]) {
  double t[4] = {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3], a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                 a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1], a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
  memcpy(o, t, sizeof t);
}

void veh_place(vehicle* v, double x, double y, double z, double psi, double phi, double speed) {
  const rig* r = v->rig;
  mjData* d = v->d;
  mj_resetData(v->m, d);
  /* Orientation: yaw psi about z, then roll phi about the new x axis (ISO: positive leans right). */
  double qz[4] = {cos(psi / 2), 0, 0, sin(psi / 2)}, qx[4] = {cos(phi / 2), sin(phi / 2), 0, 0}, q[4];
  quat_mul(qz, qx, q);
  /* Rear contact of the reference pose is the design origin; the frame origin sits at its com. */
  double o[3] = {v->origin[0][0], v->origin[0][1], v->origin[0][2]}, ro[3];
  double R[9];
  mju_quat2Mat(R, q);
  for (int i = 0; i < 3; i++) ro[i] = R[3 * i] * o[0] + R[3 * i + 1] * o[1] + R[3 * i + 2] * o[2];
  int fq = v->qadr[r->body[0].joint0], fd = v->dadr[r->body[0].joint0];
  d->qpos[fq + 0] = x + ro[0];
  d->qpos[fq + 1] = y + ro[1];
  d->qpos[fq + 2] = z + ro[2];
  memcpy(d->qpos + fq + 3, q, sizeof q);
  d->qvel[fd + 0] = speed * cos(psi);
  d->qvel[fd + 1] = speed * sin(psi);
  /* Wheels rolling at their centre height (reference pose), crank turning with the gear. */
  double rf = r->wheel[RIG_FRONT].centre[2], rr = r->wheel[RIG_REAR].centre[2];
  d->qvel[v->dadr[r->j_front_spin]] = speed / rf;
  d->qvel[v->dadr[r->j_rear_spin]] = speed / rr;
  double G = v->in.gear > 0 ? drive_gear_ratio(&r->drive, v->in.gear) : 0;
  d->qvel[v->crank_d] = G > 0 ? speed / rr * G : r->engine.idle_speed;
  v->hint[0] = v->hint[1] = -1;
  for (int i = 0; i < CONTACT_MAX; i++) v->contact_hint[i] = -1;
  v->ground_hint = -1;
  veh_forward(v);
}

void veh_state_moved(vehicle* v, const double* x, const double pivot[3], double dpsi, const double d[3], double* out) {
  const mjModel* m = v->m;
  int n = veh_state_size(v);
  if (out != x) memcpy(out, x, sizeof(double) * n);
  double c = cos(dpsi), s = sin(dpsi), qz[4] = {cos(dpsi / 2), 0, 0, sin(dpsi / 2)};
  for (int j = 0; j < m->njnt; j++) {
    if (m->jnt_type[j] != mjJNT_FREE) continue;
    double* p = out + m->jnt_qposadr[j];
    double* u = out + m->nq + m->jnt_dofadr[j];   /* linear velocity, world frame */
    double rx = p[0] - pivot[0], ry = p[1] - pivot[1];
    p[0] = pivot[0] + c * rx - s * ry + d[0];
    p[1] = pivot[1] + s * rx + c * ry + d[1];
    p[2] += d[2];
    quat_mul(qz, p + 3, p + 3);
    double ux = u[0], uy = u[1];
    u[0] = c * ux - s * uy;
    u[1] = s * ux + c * uy;
  }
  v->hint[0] = v->hint[1] = -1;
  for (int i = 0; i < CONTACT_MAX; i++) v->contact_hint[i] = -1;
  v->ground_hint = -1;
}

/*---- force stages ----*/

/* Generalized force on joint j from a spring-damper acting on its coordinate. */
static void stage_joints(vehicle* v) {
  const rig* r = v->rig;
  mjData* d = v->d;
  int nodiss = v->flags & VEH_NO_DISSIPATION;
  for (int j = 0; j < r->njoint; j++) {
    const rig_joint* jt = &r->joint[j];
    if (!jt->has_sd) continue;
    double x = jt->sign * d->qpos[v->qadr[j]], xd = jt->sign * d->qvel[v->dadr[j]];
    if (jt->target >= 0) {   /* a muscle: spring toward the set-point */
      v->out.posture[jt->target] = d->qpos[v->qadr[j]];
      x -= jt->sign * v->in.posture[jt->target];
    }
    double f = nodiss ? rig_sd_spring(&jt->sd, x) : rig_sd_force(&jt->sd, x, xd);
    d->qfrc_applied[v->dadr[j]] -= jt->sign * f;
    if (j == r->j_fork) {
      v->out.fork_travel = x;
      v->out.fork_force = f;
    }
  }
  /* The rider's arms: a passive spring-damper between bars and frame (rig_arms). Relative to the
   * frame, not the torso: the torso's lean spring (10 kN·m/rad) is two orders stiffer than the
   * arms, so the difference is below what the impedance's published scatter resolves. */
  double st = d->qpos[v->qadr[r->j_steer]];
  v->out.arm_torque = -r->arms.k * st - (nodiss ? 0 : r->arms.c * d->qvel[v->dadr[r->j_steer]]);
  d->qfrc_applied[v->dadr[r->j_steer]] += v->out.arm_torque;
  /* Steering lock: a stiff stop beyond ±lock. */
  v->out.steer_angle = st;
  v->out.steer_rate = d->qvel[v->dadr[r->j_steer]];
  if (fabs(st) > r->steer_lock) d->qfrc_applied[v->dadr[r->j_steer]] -= r->k_steer_lock * (st - copysign(r->steer_lock, st));
}

static void stage_linkage(vehicle* v) {
  const rig* r = v->rig;
  mjData* d = v->d;
  int j = r->j_swingarm;
  double th = d->qpos[v->qadr[j]], thd = d->qvel[v->dadr[j]];
  rig_link_pose lp;
  if (rig_linkage_solve(r, th, &lp) != 0) return;   /* cannot happen within the checked travel */
  double x = r->linkage.shock_length0 - lp.shock_length;      /* compression */
  double xd = -lp.dlength_dtheta * thd;
  double f = (v->flags & VEH_NO_DISSIPATION) ? rig_sd_spring(&r->linkage.shock, x) : rig_sd_force(&r->linkage.shock, x, xd);
  /* Virtual work: a push f apart along the shock does f·dL on the swingarm coordinate. */
  d->qfrc_applied[v->dadr[j]] += f * lp.dlength_dtheta;
  v->out.shock_travel = x;
  v->out.shock_force = f;
  v->out.shock_motion_ratio = lp.motion_ratio;
}

/* Every Cartesian force goes through here: into v->ext (at the body's centre of mass), from
 * which ext_to_qfrc makes the generalized forces once all stages have run, and from which joint
 * reactions can be recovered afterwards (veh_reactions). */
static void apply_ft(vehicle* v, const double F[3], const double M[3], const double p[3], int b) {
  const double* c = v->d->xipos + 3 * b;
  double r[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]}, rxf[3];
  cross3(r, F, rxf);
  for (int i = 0; i < 3; i++) {
    v->ext[b][i] += F[i];
    v->ext[b][3 + i] += M[i] + rxf[i];
  }
}

/* The generalized forces of all Cartesian forces in v->ext, added into qfrc_applied in one pass
 * (what one mj_applyFT per force would give, up to rounding, without building Jacobians): each
 * body's wrench as a spatial force about its tree's root centre of mass (the point MuJoCo's cdof
 * refer to), summed from the leaves toward the root, so that every dof's generalized force is
 * its motion axis dotted with the spatial force carried by its body's subtree. Needs the
 * position and velocity stages of this evaluation (xipos, subtree_com, cdof). */
/* a[i] += b[i] for six doubles, two lanes at a time (GCC's vector extensions, SSE2 on x86-64):
 * the same six additions, in half the instructions */
typedef double veh_v2d __attribute__((vector_size(16)));
static inline void add6(double* a, const double* b) {
  for (int k = 0; k < 6; k += 2) {
    veh_v2d x, y;
    memcpy(&x, a + k, sizeof x);
    memcpy(&y, b + k, sizeof y);
    x += y;
    memcpy(a + k, &x, sizeof x);
  }
}

static void ext_to_qfrc(vehicle* v) {
  const mjModel* m = v->m;
  mjData* d = v->d;
  int nb = m->nbody < VEH_MAX_MJBODY ? m->nbody : VEH_MAX_MJBODY;
  double f[VEH_MAX_MJBODY][6];   /* [torque about the root's subtree com; force] */
  /* has[b]: something was added into f[b]; otherwise f[b] is still all +0. Skipping the +0s is
   * exact: every f[b][i] and qfrc_applied[i] starts at +0 and only has values added to (or
   * subtracted from) it, so it is never −0 (a sum is −0 only when both terms are), and
   * x + (+0) = x, x + (−0) = x for any x that is not −0. (s·(+0) is ±0 for a finite cdof s;
   * cdof is finite whenever the state is: MuJoCo's position check comes first.) */
  unsigned char has[VEH_MAX_MJBODY];
  memset(f, 0, sizeof(double) * 6 * (size_t)nb);
  memset(has, veh_force_shortcuts ? 0 : 1, (size_t)nb);
  for (int b = nb - 1; b > 0; b--) {
    const double* e = v->ext[b];
    if (e[0] != 0 || e[1] != 0 || e[2] != 0 || e[3] != 0 || e[4] != 0 || e[5] != 0) {
      const double* x = d->xipos + 3 * b;
      const double* c0 = d->subtree_com + 3 * m->body_rootid[b];
      double r[3] = {x[0] - c0[0], x[1] - c0[1], x[2] - c0[2]}, rxf[3];
      cross3(r, e, rxf);
      for (int i = 0; i < 3; i++) {
        f[b][i] += e[3 + i] + rxf[i];
        f[b][3 + i] += e[i];
      }
      has[b] = 1;
    }
    int pa = m->body_parentid[b];
    if (pa > 0 && has[b]) {
      if (veh_force_shortcuts) add6(f[pa], f[b]);
      else
        for (int i = 0; i < 6; i++) f[pa][i] += f[b][i];
      has[pa] = 1;
    }
  }
  for (int i = 0; i < m->nv; i++) {
    int b = m->dof_bodyid[i];
    if (!has[b]) continue;
    const double* s = d->cdof + 6 * i;
    const double* fb = f[b];
    d->qfrc_applied[i] += s[0] * fb[0] + s[1] * fb[1] + s[2] * fb[2] + s[3] * fb[3] + s[4] * fb[4] + s[5] * fb[5];
  }
}

/*---- tyres ----*/

/* Low-speed damping of the tyre's carcass springs (N·s/m per N of load), faded out by 3 m/s:
 * at standstill the relaxed slips act as springs (see tyre.h) and would ring without it. */
#define TYRE_LOW_SPEED_DAMPING 4.0
#define TYRE_LOW_SPEED 3.0
#define TYRE_LOW_SPEED_MU 1.0   /* the damper's force is capped at this share of the load */

/* The sidewall (docs/vehicle.md, Falls): Magic Formula up to 62° of camber, plain sliding
 * friction of rubber on asphalt (μ 0.8) from 72°. The regularising speed keeps the friction's
 * damping explicit-stable on a wheel's small equivalent mass (I/R² ≈ 5 kg at 1 kHz). */
#define SIDEWALL_CAMBER0 (62 * MT_PI / 180)
#define SIDEWALL_CAMBER1 (72 * MT_PI / 180)
#define SIDEWALL_MU 0.8
#define SIDEWALL_VREG 1.0

/* The road under one tyre raised by dz (the linearisation's road-height inputs). */
typedef struct dz_road { const road* base; double dz; } dz_road;
static int dz_query(const void* self, double x, double y, int hint, road_point* out) {
  const dz_road* r = self;
  road_point flat = {1, 0, {0, 0, 1}, 0, 0, -1, -1, 0, 0, 0};
  int rc = 0;
  *out = flat;
  if (r->base->query) rc = r->base->query(r->base->self, x, y, hint, out);
  out->z += r->dz;
  return rc;
}

static void stage_tyres(vehicle* v) {
  /* Three passes over the two wheels: each wheel's contact; the two wheels' libm-heavy formulas
   * side by side (tyre.h's pairs: one vmath.h call serves both); each wheel's forces applied. */
  const rig* r = v->rig;
  mjData* d = v->d;
  int ideal = (v->flags & VEH_IDEAL_SUPPORTS) != 0;
  const tyre_params* tp[2] = {&r->wheel[0].tyre, &r->wheel[1].tyre};
  tyre_contact_t c[2];
  double a[2][3], kr[2], tr[2], fz[2], fzk[2], gam[2], kya[2], ar[2];
  double cen[2][3], vlin[2][3], vang[2][3];
  int b[2];
  dz_road dzr[2];
  road raised[2];
  const road* rd[2];
  for (int w = 0; w < 2; w++) {
    const rig_wheel* wh = &r->wheel[w];
    b[w] = v->bid[wh->body];
    const rig_joint* j = &r->joint[wh->joint];
    const double* R = d->xmat + 9 * b[w];
    double vel[6];
    for (int i = 0; i < 3; i++) a[w][i] = R[3 * i] * j->axis[0] + R[3 * i + 1] * j->axis[1] + R[3 * i + 2] * j->axis[2];
    veh_body_velocity(v->m, d, b[w], vel);   /* [angular; linear] at the wheel's com (its centre), world */
    memcpy(vang[w], vel, sizeof vang[w]);
    memcpy(vlin[w], vel + 3, sizeof vlin[w]);
    memcpy(cen[w], d->xpos + 3 * b[w], sizeof cen[w]);
    dzr[w] = (dz_road){&v->road, v->road_dz[w]};
    raised[w] = (road){&dzr[w], dz_query};
    rd[w] = v->road_dz[w] != 0 ? &raised[w] : &v->road;
  }
  tyre_contact2(tp, rd, (const double(*)[3])cen, (const double(*)[3])a, (const double(*)[3])vlin,
                (const double(*)[3])vang, v->hint, c);
  for (int w = 0; w < 2; w++) {
    kr[w] = d->act[2 * w];
    tr[w] = d->act[2 * w + 1];
    if (v->steady_tyres) {
      kr[w] = c[w].kappa;
      tr[w] = tan(c[w].alpha);
    }
    fz[w] = ideal ? (c[w].pen > 0 && c[w].on_road ? tp[w]->k * c[w].pen : 0)
                  : (c[w].touching ? tyre_load(tp[w], c[w].pen, c[w].pen_rate) : 0);
    fzk[w] = fz[w] > 1 ? fz[w] : 1;
    gam[w] = c[w].camber;
  }
  /* the relaxed slip angles; the cornering stiffness at this load and camber (for the relaxation
   * length and the forces; the rolling model's is its k_slip, unused) */
  v2d arv = vm_atan((v2d){tr[0], tr[1]});
  /* the rolling resistance's smooth sign of the spin (below) */
  v2d spin_th = vm_tanh((v2d){c[0].spin / 1.0, c[1].spin / 1.0});
  ar[0] = arv[0];
  ar[1] = arv[1];
  tyre_kya2(tp, fzk, gam, kya);
  /* the Magic Formula's forces: both wheels at once when both are on its path */
  int mf[2];
  for (int w = 0; w < 2; w++)
    mf[w] = !ideal && tp[w]->model != TYRE_MODEL_ROLLING && c[w].touching && fz[w] > 0;
  tyre_forces_t tf[2];
  /* Off the tarmac the surface scales the tyre's peak friction (track_surface.h): the formula
   * runs on a copy of the tyre with its grip scaled. On the tarmac tp is untouched, so a take
   * that stays on it rides bit for bit as before surfaces existed. */
  tyre_params offp[2];
  const tyre_params* fp[2] = {tp[0], tp[1]};
  for (int w = 0; w < 2; w++)
    if (mf[w] && c[w].surface) {
      offp[w] = *tp[w];
      offp[w].grip *= c[w].grip;
      fp[w] = &offp[w];
    }
  if (mf[0] && mf[1] && fz[0] > 1 && fz[1] > 1) tyre_forces_kya2(fp, fz, kr, ar, gam, kya, tf);
  else
    for (int w = 0; w < 2; w++)
      if (mf[w]) {
        if (fz[w] > 1) tyre_forces_kya(fp[w], fz[w], kr[w], ar[w], gam[w], kya[w], &tf[w]);
        else tyre_forces(fp[w], fz[w], kr[w], ar[w], gam[w], &tf[w]);
      }
  for (int w = 0; w < 2; w++) {
    const tyre_params* p = tp[w];
    const tyre_contact_t* cw = &c[w];
    veh_wheel_out* o = &v->out.wheel[w];
    mt_zero(o, sizeof *o);
    o->kappa = cw->kappa;
    o->alpha = cw->alpha;
    o->camber = cw->camber;
    o->spin = cw->spin;
    o->kappa_r = kr[w];
    o->alpha_r = ar[w];
    o->clearance = cw->pen < 0 ? -cw->pen : 0;
    o->surface = cw->surface;
    /* relaxation: rates of the states (a wheel in the air relaxes toward its free-rolling slips) */
    if (p->model == TYRE_MODEL_ROLLING) v->act_dot[2 * w] = v->act_dot[2 * w + 1] = 0;   /* no relaxation */
    else tyre_relax_rates_kya(p, kya[w], cw, d->act[2 * w], d->act[2 * w + 1], &v->act_dot[2 * w], &v->act_dot[2 * w + 1]);
    if (!cw->touching || fz[w] <= 0) continue;
    o->contact = 1;
    o->penetration = cw->pen;
    o->fz = fz[w];
    double F[3], M[3] = {0, 0, 0}, f = fz[w];
    if (!ideal && p->model == TYRE_MODEL_ROLLING) {
      /* the ideal rolling limit (tyre.h): a stiff linear slip force, nothing else */
      double vx = fmax(fabs(cw->vx), TYRE_ROLLING_VMIN);
      o->fx = -p->k_slip * cw->vsx / vx;
      o->fy = -p->k_slip * cw->vsy / vx;
      o->kappa_r = -cw->vsx / vx;
      o->alpha_r = atan(-cw->vsy / vx);
      for (int i = 0; i < 3; i++) F[i] = o->fx * cw->l[i] + o->fy * cw->lat[i] + f * cw->n[i];
    } else if (ideal) {
      for (int i = 0; i < 3; i++) F[i] = f * cw->n[i];
    } else {
      double fx = tf[w].fx, fy = tf[w].fy, mz = tf[w].mz;
      double wlow = 1 - fabs(cw->vx) / TYRE_LOW_SPEED;
      if (wlow > 0) {
        /* a damper, but never more than sliding friction: a wheel turned across its path (vx ≈ 0,
         * a fallen machine sliding sideways) must not get a viscous force of k·fz·20 m/s */
        double vs = sqrt(cw->vsx * cw->vsx + cw->vsy * cw->vsy), k = TYRE_LOW_SPEED_DAMPING * f * wlow;
        if (k * vs > TYRE_LOW_SPEED_MU * f * wlow) k = TYRE_LOW_SPEED_MU * f * wlow / vs;
        fx -= k * cw->vsx;
        fy -= k * cw->vsy;
      }
      /* Past the tread's edge (a fallen machine) the tyre touches with its sidewall: the Magic
       * Formula, fitted to the tread, no longer applies, and its lagging relaxed slips would feed
       * energy into a wheel lying on the road (a spin runaway). Between SIDEWALL_CAMBER0 and
       * SIDEWALL_CAMBER1 the force blends into plain sliding friction on the contact point's slip
       * velocity, which only ever dissipates. */
      double gc = fabs(cw->camber), smu = cw->surface ? SIDEWALL_MU * cw->grip : SIDEWALL_MU;
      if (gc > SIDEWALL_CAMBER0) {
        double u = mt_clamp((gc - SIDEWALL_CAMBER0) / (SIDEWALL_CAMBER1 - SIDEWALL_CAMBER0), 0, 1);
        double ws = u * u * (3 - 2 * u);   /* smoothstep: no force step */
        double vs = sqrt(cw->vsx * cw->vsx + cw->vsy * cw->vsy + SIDEWALL_VREG * SIDEWALL_VREG);
        fx = (1 - ws) * fx - ws * smu * f * cw->vsx / vs;
        fy = (1 - ws) * fy - ws * smu * f * cw->vsy / vs;
        mz *= 1 - ws;
      }
      o->fx = fx;
      o->fy = fy;
      o->mz = mz;
      for (int i = 0; i < 3; i++) {
        F[i] = fx * cw->l[i] + fy * cw->lat[i] + f * cw->n[i];
        M[i] = mz * cw->n[i];
      }
      /* rolling resistance: a torque on the wheel opposing its spin, smooth through zero, with
       * the rolling radius as its lever (the lever of the road force), so that in steady rolling
       * it retards the machine by exactly rolling·Fz (docs/tyre.md) */
      double rrt = -(cw->surface ? cw->rolling : p->rolling) * f * cw->radius * spin_th[w];
      for (int i = 0; i < 3; i++) M[i] += rrt * a[w][i];
    }
    apply_ft(v, F, M, cw->point, b[w]);
    memcpy(o->point, cw->point, sizeof o->point);
    memcpy(o->force, F, sizeof F);
  }
}

/*---- contact spheres: frame, pegs, bars, rider on the road ----*/

static void stage_contacts(vehicle* v) {
  const contact_set* cs = &v->rig->contacts;
  veh_out* o = &v->out;
  o->contacts_touching = 0;
  o->contact_fn = o->contact_ft = 0;
  if (cs->n == 0) return;
  const mjData* d = v->d;
  double vel[RIG_MAX_BODIES][6];
  unsigned have = 0;   /* bodies whose velocity was computed this evaluation */
  /* One road query under the frame gives a reference plane; a sphere well above it (by more than
   * a road can bend away from its tangent plane: 5 cm + 20 % of the distance) is skipped without
   * querying the road again. Riding upright, that is every sphere. */
  const double* fc = d->xpos + 3 * v->bid[v->rig->b_frame];
  road_point gp = {1, 0, {0, 0, 1}, 0, 0, -1, -1, 0, 0, 0};
  if (v->road.query) v->road.query(v->road.self, fc[0], fc[1], v->ground_hint, &gp);
  v->ground_hint = gp.hint;
  /* A cheaper bound first: with l the centre in body axes, its height above the plane is
   * n·(x0 − g) + (Rᵀn)·l (one dot product per sphere, Rᵀn once per body) and its horizontal
   * distance at most x0's plus |l|; a sphere clear by that (with 0.1 mm more for rounding) is
   * clear of the exact test below, which only the rest go through. Same decisions. */
  int lastb = -1;
  double base = 0, h0 = 0, m[3] = {0, 0, 0};
  for (int i = 0; i < cs->n; i++) {
    const contact_point* cp = &cs->p[i];
    int b = v->bid[cp->body];
    const double* R = d->xmat + 9 * b;
    const double* x0 = d->xpos + 3 * b;
    if (b != lastb) {
      lastb = b;
      for (int k = 0; k < 3; k++) m[k] = R[k] * gp.n[0] + R[3 + k] * gp.n[1] + R[6 + k] * gp.n[2];
      double ox = x0[0] - fc[0], oy = x0[1] - fc[1];
      base = ox * gp.n[0] + oy * gp.n[1] + (x0[2] - gp.z) * gp.n[2];
      h0 = sqrt(ox * ox + oy * oy);
    }
    const double* cl = v->contact_local[i];
    if (base + m[0] * cl[0] + m[1] * cl[1] + m[2] * cl[2] - cp->radius > 0.0501 + 0.2 * (h0 + cl[3])) {
      o->contact_fn_each[i] = 0;
      continue;
    }
    const double* og = v->origin[cp->body];
    double l[3] = {cp->point[0] - og[0], cp->point[1] - og[1], cp->point[2] - og[2]}, c[3], vc[3];
    for (int k = 0; k < 3; k++) c[k] = x0[k] + R[3 * k] * l[0] + R[3 * k + 1] * l[1] + R[3 * k + 2] * l[2];
    double dx = c[0] - fc[0], dy = c[1] - fc[1];
    double above = dx * gp.n[0] + dy * gp.n[1] + (c[2] - gp.z) * gp.n[2] - cp->radius;
    if (above > 0.05 + 0.2 * sqrt(dx * dx + dy * dy)) {
      o->contact_fn_each[i] = 0;
      continue;
    }
    if (!(have & (1u << cp->body))) {
      body_vel(v->m, d, b, x0, vel[cp->body], vel[cp->body] + 3);   /* [angular; linear at the origin], world */
      have |= 1u << cp->body;
    }
    const double* w = vel[cp->body];
    double rr[3] = {c[0] - x0[0], c[1] - x0[1], c[2] - x0[2]};
    vc[0] = w[3] + w[1] * rr[2] - w[2] * rr[1];
    vc[1] = w[4] + w[2] * rr[0] - w[0] * rr[2];
    vc[2] = w[5] + w[0] * rr[1] - w[1] * rr[0];
    contact_result cr;
    contact_point ideal;
    if (v->flags & VEH_NO_DISSIPATION) {   /* frictionless, undamped: energy is conserved */
      ideal = *cp;
      ideal.mu = ideal.c = 0;
      cp = &ideal;
    }
    contact_eval(cp, &v->road, c, vc, w, &v->contact_hint[i], &cr);
    o->contact_fn_each[i] = cr.fn;
    if (!cr.touching) continue;
    double zero[3] = {0, 0, 0};
    apply_ft(v, cr.force, zero, cr.point, b);
    o->contacts_touching++;
    o->contact_fn += cr.fn;
    o->contact_ft += cr.ft;
  }
}

/*---- engine, clutch, gearbox, chain, brakes ----*/

static void body_point_velocity(const vehicle* v, int b, const double p[3], double out[3]) {
  body_vel(v->m, v->d, b, p, NULL, out);
}

static void to_world(const vehicle* v, int rb, const double design[3], double out[3]) {
  /* A point fixed in rig body rb, given in the design frame (reference pose), in world coordinates. */
  int b = v->bid[rb];
  const double* R = v->d->xmat + 9 * b;
  const double* o = v->d->xpos + 3 * b;
  double l[3] = {design[0] - v->origin[rb][0], design[1] - v->origin[rb][1], design[2] - v->origin[rb][2]};
  for (int i = 0; i < 3; i++) out[i] = o[i] + R[3 * i] * l[0] + R[3 * i + 1] * l[1] + R[3 * i + 2] * l[2];
}

static void stage_drive(vehicle* v) {
  const rig* r = v->rig;
  mjData* d = v->d;
  veh_out* o = &v->out;
  int nodiss = v->flags & VEH_NO_DISSIPATION;
  double wc = d->qvel[v->crank_d];
  o->engine_rpm = wc * 30 / MT_PI;
  /* engine */
  double te = 0, pm = 0;
  if (!nodiss) {
    engine_out eo;
    engine_eval(&r->engine, wc, v->in.throttle, &eo);
    /* An ignition cut removes combustion torque only; pumping and friction remain. */
    te = eo.torque_brake - mt_clamp(v->in.ignition_cut, 0, 1) * eo.torque_indicated;
    pm = eo.pm;
  }
  o->engine_torque = te;
  o->manifold_pressure = pm;
  /* chain geometry, world frame: output sprocket on the frame, rear sprocket on the rear wheel */
  int bf = v->bid[r->b_frame], bw = v->bid[r->wheel[RIG_REAR].body];
  double cf[3], cr[3];
  to_world(v, r->b_frame, r->drive.output_sprocket, cf);
  memcpy(cr, d->xpos + 3 * bw, sizeof cr);
  double yb[3];                                   /* the machine's left axis: frame y */
  const double* Rf = d->xmat + 9 * bf;
  for (int i = 0; i < 3; i++) yb[i] = Rf[3 * i + 1];
  double tc = 0;
  double G = v->in.gear > 0 && !nodiss ? drive_box_ratio(&r->drive, v->in.gear) : 0;   /* crank : output sprocket */
  drive_chain_t ch;   /* filled by drive_chain_geometry (which zeroes it first), read only after it */
  if (G > 0 && drive_chain_geometry(&r->drive, cf, cr, yb, 1, &ch) == 0) {
    /* Output sprocket speed from the chain's kinematics (upper run), then the clutch slip. */
    double vr[3], vf[3];
    body_point_velocity(v, bw, ch.rear_point, vr);
    body_point_velocity(v, bf, ch.out_point, vf);
    double vcn = (vr[0] - vf[0]) * ch.dir[0] + (vr[1] - vf[1]) * ch.dir[1] + (vr[2] - vf[2]) * ch.dir[2];
    double w_os = vcn / r->drive.r_output;
    tc = drive_clutch_torque(&r->drive, mt_clamp(v->in.clutch, 0, 1), wc - G * w_os);
    /* The run that carries the load: upper when driving, lower on the over-run. Torque on the
     * output sprocket is G·tc, so the chain pulls with G·tc / r_output. */
    if (tc < 0) drive_chain_geometry(&r->drive, cf, cr, yb, 0, &ch);   /* driving: the upper run, as above */
    double F = fabs(tc) * G / r->drive.r_output, Fv[3], Fm[3], zero[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
      Fv[i] = F * ch.dir[i];
      Fm[i] = -Fv[i];
    }
    apply_ft(v, Fv, zero, ch.rear_point, bw);
    apply_ft(v, Fm, zero, ch.out_point, bf);
    o->chain_force = F;
    o->chain_upper = tc >= 0;
    o->drive_torque = F * r->drive.r_rear;
  } else {
    o->chain_force = 0;
    o->drive_torque = 0;
  }
  o->clutch_torque = tc;
  d->qfrc_applied[v->crank_d] += te - tc;
  /* brakes: torque on the spin joint opposing the spin, smooth through zero */
  int spins[2] = {r->j_front_spin, r->j_rear_spin};
  double in[2] = {v->in.front_brake, v->in.rear_brake};
  for (int w = 0; w < 2; w++) {
    double om = d->qvel[v->dadr[spins[w]]];
    double tb = nodiss ? 0 : drive_brake_torque(&r->drive, w == 0 ? DRIVE_FRONT : DRIVE_REAR, mt_clamp(in[w], 0, 1), om);
    d->qfrc_applied[v->dadr[spins[w]]] += tb;
    o->brake_torque[w] = tb;
  }
}

static void stage_aero(vehicle* v) {
  const rig* r = v->rig;
  if ((v->flags & VEH_NO_DISSIPATION) || r->aero.cd_area <= 0) {
    v->out.aero_drag = v->out.aero_lift = 0;
    return;
  }
  int bf = v->bid[r->b_frame];
  double p[3], vel[3];
  to_world(v, r->b_frame, r->aero.centre, p);
  body_point_velocity(v, bf, p, vel);
  double sp = norm3(vel), q = 0.5 * r->aero.rho * sp;
  /* the rider's torso pitch changes the frontal area: tucked behind the screen or sitting up */
  double cda = r->aero.has_posture ? rig_cd_area(&r->aero, v->d->qpos[v->qadr[r->j_posture[RIG_POSTURE_PITCH]]]) : r->aero.cd_area;
  double F[3] = {-q * cda * vel[0], -q * cda * vel[1], -q * cda * vel[2]};
  double vh = sqrt(vel[0] * vel[0] + vel[1] * vel[1]);
  double lift = 0.5 * r->aero.rho * r->aero.cl_area * vh * vh;
  F[2] += lift;
  double zero[3] = {0, 0, 0};
  apply_ft(v, F, zero, p, bf);
  v->out.aero_drag = q * cda * sp;
  v->out.aero_lift = lift;
}

static void stage_rider(vehicle* v) {
  const rig* r = v->rig;
  v->d->qfrc_applied[v->dadr[r->j_steer]] += v->in.steer_torque;
  if (r->j_rider >= 0) v->d->qfrc_applied[v->dadr[r->j_rider]] += v->in.rider_lean_torque;
}

/*---- MuJoCo callbacks ----*/

static void cb_control(const mjModel* m, mjData* d) {
  vehicle* v = g_active;
  if (!v || v->d != d || v->defer_forces) return;
  mju_zero(d->qfrc_applied, m->nv);
  /* only the compiled model's bodies are ever written (apply_ft) or read (ext_to_qfrc, veh_reactions) */
  memset(v->ext, 0, sizeof(double) * 6 * (size_t)(m->nbody < VEH_MAX_MJBODY ? m->nbody : VEH_MAX_MJBODY));
  stage_joints(v);
  stage_linkage(v);
  stage_tyres(v);
  stage_contacts(v);
  stage_drive(v);
  stage_aero(v);
  stage_rider(v);
  ext_to_qfrc(v);
}

static mjtNum cb_act_dyn(const mjModel* m, const mjData* d, int id) {
  vehicle* v = g_active;
  if (!v || v->d != d || id < 0 || id >= 4) return 0;
  return v->act_dot[id];
}

void veh_forward(vehicle* v) {
  activate(v);
  /* The trim (steady_tyres) solves the joints it knows; the fork's bending hinge is not among
   * them. While it evaluates, that hinge is held (the model v->m_held, built by veh_new: its
   * huge armature makes the hinge's acceleration and its coupling into the rest vanish) and
   * placed, at rest, where its spring balances the moment it carries: from zero, two Newton
   * steps with the spring rate. The placement depends on the other coordinates only (not on the
   * hinge's previous value), so the trim's finite differences stay consistent, and the trimmed
   * state includes the fork's static bend. Neither model is written here. */
  const rig* r = v->rig;
  if (!(v->steady_tyres && r->j_bend >= 0)) {
    mj_forward(v->m, v->d);
    return;
  }
  const rig_joint* jb = &r->joint[r->j_bend];
  int db = v->dadr[r->j_bend], qb = v->qadr[r->j_bend];
  v->d->qvel[db] = 0;
  v->d->qpos[qb] = 0;
  mj_forward(v->m_held, v->d);
  double kb = jb->has_sd ? jb->sd.k : 0;
  for (int it = 0; it < 2 && kb > 0; it++) {
    double tau = v->d->qacc[db] * VEH_HELD_ARMATURE;   /* the generalized force the held hinge carries */
    v->d->qpos[qb] += jb->sign * tau / kb;
    mj_forward(v->m_held, v->d);
  }
}

int veh_step(vehicle* v, mt_err* e) {
  activate(v);
  mjData* d = v->d;
  int before = d->warning[mjWARN_BADQACC].number;
  double t = d->time;
  /* Two-phase step: kinematics at t, then the controller decides the inputs from them, then
   * our forces, then accelerations and the (semi-implicit Euler) integration. After this,
   * xpos/xmat/v->out/qacc still describe time t while qpos/qvel/act have moved to t + dt.
   * When the compiled model lets it (sim/vstep.h), MuJoCo's stages with work to do are called
   * directly, the same arithmetic as mj_step1/mj_step2 bit for bit. */
  if (v->staged) vstep_phase1(v->m, d);
  else {
    v->defer_forces = 1;
    mj_step1(v->m, d);
    v->defer_forces = 0;
  }
  if (v->control) v->control(v, v->control_data);
  cb_control(v->m, d);
  if (v->staged) vstep_phase2(v->m, d);
  else mj_step2(v->m, d);
  /* MuJoCo 2.2.2 resets the data and carries on when qacc goes bad: catch it here. */
  if (d->warning[mjWARN_BADQACC].number != before)
    return mt_fail(e, MT_EINTERNAL, "simulation blew up at t = %.4f s: MuJoCo reported a bad acceleration "
                                    "(first bad dof %d) and reset the state", t, d->warning[mjWARN_BADQACC].lastinfo);
  /* One pass over the whole state first; the per-joint loop below (which names the culprit and
   * checks the rig's joints only) runs only when something in it looks wrong. */
  int fine = 1;
  for (int k = 0; k < v->m->nq; k++) fine &= fabs(d->qpos[k]) < INFINITY;
  for (int k = 0; k < v->m->nv; k++) fine &= fabs(d->qvel[k]) <= 1e4;
  for (int k = 0; k < v->m->na; k++) fine &= fabs(d->act[k]) < INFINITY;
  if (fine) return MT_OK;
  const rig* r = v->rig;
  for (int j = 0; j < r->njoint; j++) {
    int nq = r->joint[j].type == RIG_FREE ? 7 : 1;
    for (int k = 0; k < nq; k++)
      if (!isfinite(d->qpos[v->qadr[j] + k]))
        return mt_fail(e, MT_EINTERNAL, "simulation blew up at t = %.4f s: joint '%s' position is %g", t,
                       r->joint[j].name, d->qpos[v->qadr[j] + k]);
    int nv = r->joint[j].type == RIG_FREE ? 6 : 1;
    for (int k = 0; k < nv; k++)
      if (!isfinite(d->qvel[v->dadr[j] + k]) || fabs(d->qvel[v->dadr[j] + k]) > 1e4)
        return mt_fail(e, MT_EINTERNAL, "simulation blew up at t = %.4f s: joint '%s' velocity is %g (runaway energy)",
                       t, r->joint[j].name, d->qvel[v->dadr[j] + k]);
  }
  for (int k = 0; k < v->m->na; k++)
    if (!isfinite(d->act[k])) return mt_fail(e, MT_EINTERNAL, "simulation blew up at t = %.4f s: tyre state %d is %g", t, k, d->act[k]);
  return MT_OK;
}

/*---- observations ----*/

void veh_body_pose(const vehicle* v, int body, double pos[3], double quat[4]) {
  int b = v->bid[body];
  memcpy(pos, v->d->xpos + 3 * b, 3 * sizeof(double));
  memcpy(quat, v->d->xquat + 4 * b, 4 * sizeof(double));
}

void veh_frame_euler(const vehicle* v, double* roll, double* pitch, double* yaw) {
  const double* R = v->d->xmat + 9 * v->bid[v->rig->b_frame];
  /* R columns: frame x (forward), y (left), z (up) in world. */
  double fx = R[0], fy = R[3], fz = R[6];
  /* ISO 8855 angles: roll positive = right side down, pitch positive = nose down. */
  *yaw = atan2(fy, fx);
  *pitch = -asin(mt_clamp(fz, -1, 1));
  *roll = asin(mt_clamp(R[7], -1, 1));   /* the left axis rises when the right side goes down */
}

double veh_speed(const vehicle* v) {
  const rig* r = v->rig;
  int fd = v->dadr[r->body[0].joint0];
  const double* R = v->d->xmat + 9 * v->bid[r->b_frame];
  double hx = R[0], hy = R[3], h = sqrt(hx * hx + hy * hy);
  if (h < 1e-12) return 0;
  return (v->d->qvel[fd] * hx + v->d->qvel[fd + 1] * hy) / h;
}

double veh_time(const vehicle* v) { return v->d->time; }
void veh_set_time(vehicle* v, double t) { v->d->time = t; }

void veh_body_twist(const vehicle* v, int body, double res[6]) { veh_body_velocity(v->m, v->d, v->bid[body], res); }

void veh_body_rotation(const vehicle* v, int body, double R[9]) { memcpy(R, v->d->xmat + 9 * v->bid[body], 9 * sizeof(double)); }

void veh_body_com(const vehicle* v, int body, double pos[3]) { memcpy(pos, v->d->xipos + 3 * v->bid[body], 3 * sizeof(double)); }

void veh_body_inertia(const vehicle* v, int body, double inertia[3]) {
  memcpy(inertia, v->m->body_inertia + 3 * v->bid[body], 3 * sizeof(double));
}

/* The root's free joint: its first three dofs are the frame's translation, in world axes. */
static int frame_dof(const vehicle* v) { return v->dadr[v->rig->body[0].joint0]; }

void veh_frame_velocity(const vehicle* v, double vel[3]) { memcpy(vel, v->d->qvel + frame_dof(v), 3 * sizeof(double)); }
void veh_frame_accel(const vehicle* v, double acc[3]) { memcpy(acc, v->d->qacc + frame_dof(v), 3 * sizeof(double)); }

double veh_mass(const vehicle* v) { return v->m->body_subtreemass[0]; }

double veh_mass_summed(const vehicle* v) {
  double M = 0;
  for (int b = 1; b < v->m->nbody; b++) M += v->m->body_mass[b];
  return M;
}

void veh_com(const vehicle* v, double pos[3]) { memcpy(pos, v->d->subtree_com, 3 * sizeof(double)); }   /* the world body's subtree */

void veh_com_velocity(vehicle* v, double vel[3]) {
  mj_kinematics(v->m, v->d);
  mj_comPos(v->m, v->d);
  mj_comVel(v->m, v->d);
  mj_subtreeVel(v->m, v->d);
  memcpy(vel, v->d->subtree_linvel, 3 * sizeof(double));   /* body 0: the whole machine */
}

void veh_update_poses(vehicle* v) { mj_kinematics(v->m, v->d); }

void veh_bad_state_counts(const vehicle* v, int n[2]) {
  n[0] = v->d->warning[mjWARN_BADQPOS].number;
  n[1] = v->d->warning[mjWARN_BADQVEL].number;
}

const char* veh_state_part(const vehicle* v, int k, const char** joint) {
  const mjModel* m = v->m;
  int nq = m->nq, nv = m->nv;
  int idx = k < nq ? k : k < nq + nv ? k - nq : k - nq - nv;
  *joint = "";
  if (k < nq + nv)   /* the last joint whose first value is at or before idx */
    for (int j = 0; j < m->njnt; j++) {
      int a0 = k < nq ? m->jnt_qposadr[j] : m->jnt_dofadr[j];
      if (a0 <= idx) *joint = mj_id2name(m, mjOBJ_JOINT, j);
    }
  return k < nq ? "position" : k < nq + nv ? "velocity" : "tyre state";
}

void veh_integrator(char* buf, size_t n) { snprintf(buf, n, "MuJoCo %s, semi-implicit Euler", mj_versionString()); }

double veh_energy(vehicle* v) {
  /* MuJoCo's kinetic energy and gravitational potential, plus our springs and supports. */
  activate(v);
  mj_forward(v->m, v->d);
  v->m->opt.enableflags |= mjENBL_ENERGY;   /* off while stepping: it costs time every step */
  mj_energyPos(v->m, v->d);
  mj_energyVel(v->m, v->d);
  v->m->opt.enableflags &= ~mjENBL_ENERGY;
  double E = v->d->energy[0] + v->d->energy[1];
  const rig* r = v->rig;
  for (int j = 0; j < r->njoint; j++)
    if (r->joint[j].has_sd) {
      const rig_joint* jt = &r->joint[j];
      double x = jt->sign * v->d->qpos[v->qadr[j]];
      if (jt->target >= 0) x -= jt->sign * v->in.posture[jt->target];
      E += rig_sd_energy(&jt->sd, x);
    }
  double sa = v->d->qpos[v->qadr[r->j_steer]];
  E += 0.5 * r->arms.k * sa * sa;                                           /* the rider's arms' spring */
  double st = fabs(sa) - r->steer_lock;   /* the steering-lock stop's spring */
  if (st > 0) E += 0.5 * r->k_steer_lock * st * st;
  rig_link_pose lp;
  if (rig_linkage_solve(r, v->d->qpos[v->qadr[r->j_swingarm]], &lp) == 0)
    E += rig_sd_energy(&r->linkage.shock, r->linkage.shock_length0 - lp.shock_length);
  for (int w = 0; w < 2; w++)
    if (v->out.wheel[w].contact) E += 0.5 * r->wheel[w].tyre.k * v->out.wheel[w].penetration * v->out.wheel[w].penetration;
  for (int i = 0; i < r->contacts.n; i++) {   /* contact springs (exact when undamped: Fn = k·δ) */
    double dz = v->out.contact_fn_each[i] / r->contacts.p[i].k;
    E += 0.5 * r->contacts.p[i].k * dz * dz;
  }
  return E;
}

static void quat_from_x_to(const double from[3], const double to[3], double q[4]) {
  /* shortest rotation taking unit vector `from` to the direction of `to` */
  double t[3] = {to[0], to[1], to[2]}, n = norm3(t);
  for (int i = 0; i < 3; i++) t[i] /= n;
  double c[3];
  cross3(from, t, c);
  double w = 1 + dot3(from, t);
  if (w < 1e-12) {
    q[0] = 0;
    q[1] = 0;
    q[2] = 0;
    q[3] = 1;
    return;
  }
  double s = sqrt(w * w + dot3(c, c));
  q[0] = w / s;
  q[1] = c[0] / s;
  q[2] = c[1] / s;
  q[3] = c[2] / s;
}

void veh_link_poses(const vehicle* v, double pos[VEH_NLINK][3], double quat[VEH_NLINK][4]) {
  const rig* r = v->rig;
  rig_link_pose lp;
  rig_linkage_solve(r, v->d->qpos[v->qadr[r->j_swingarm]], &lp);
  int bf = v->bid[r->b_frame];
  double qf[4];
  memcpy(qf, v->d->xquat + 4 * bf, sizeof qf);
  /* Each link's local frame: origin at its first point; local x along the link (design frame),
   * except the crank, whose frame is the design axes rotated by its angle about y. */
  double qc[4] = {cos(lp.crank_angle / 2), 0, sin(lp.crank_angle / 2), 0};
  to_world(v, r->b_frame, r->linkage.pivot, pos[VEH_LINK_CRANK]);
  quat_mul(qf, qc, quat[VEH_LINK_CRANK]);
  const double ex[3] = {1, 0, 0};
  double dir[3], ql[4];
  for (int i = 0; i < 3; i++) dir[i] = lp.rod_end_arm[i] - lp.rod_end_crank[i];
  quat_from_x_to(ex, dir, ql);
  to_world(v, r->b_frame, lp.rod_end_crank, pos[VEH_LINK_ROD]);
  quat_mul(qf, ql, quat[VEH_LINK_ROD]);
  for (int i = 0; i < 3; i++) dir[i] = lp.shock_bottom[i] - lp.shock_top[i];
  quat_from_x_to(ex, dir, ql);
  to_world(v, r->b_frame, lp.shock_top, pos[VEH_LINK_SHOCK_BODY]);
  quat_mul(qf, ql, quat[VEH_LINK_SHOCK_BODY]);
  to_world(v, r->b_frame, lp.shock_bottom, pos[VEH_LINK_SHOCK_ROD]);
  quat_mul(qf, ql, quat[VEH_LINK_SHOCK_ROD]);
}

void veh_reactions(vehicle* v) {
  /* cfrc_int needs every external Cartesian force in xfrc_applied; ours live in qfrc_applied, so
   * they are lent to xfrc_applied for this one computation and taken back. */
  mjData* d = v->d;
  for (int b = 0; b < v->m->nbody && b < VEH_MAX_MJBODY; b++) memcpy(d->xfrc_applied + 6 * b, v->ext[b], 6 * sizeof(double));
  mj_rnePostConstraint(v->m, d);
  mju_zero(d->xfrc_applied, 6 * v->m->nbody);
}
