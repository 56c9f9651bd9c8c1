/* skel_pose.c — the rider's skeleton posed every frame from the physics (see skeleton.h).
 *
 * Stages (sk_pose): the four bodies' world frames; the trunk, neck and head (rigid on the rider
 * bodies, the head turned and levelled); forward kinematics of the trunk; the arms and legs by
 * analytic two-bone IK from the shoulder and hip joints so placed; the release blends; forward
 * kinematics of everything. Bone frames are rotation matrices here (columns: the bone's x, y, z in
 * world) and quaternions only at the output. Every bone's tail is its head plus its rest length
 * along its y, and a child's head is its parent's tail (connected) or a fixed point in its
 * parent's frame, so lengths and offsets hold exactly whatever the IK does. */
#include "scene/skeleton.h"

#include <math.h>
#include <string.h>

#include "scene/skel_math.h"

/* The grip sits in the palm: this fraction of the hand's length from the wrist, along it (the
 * wrist held straight, so forearm and hand make one segment for the IK). */
#define GRIP_FRAC 0.45
/* The clavicle reaches forward for a grip past this share of the arm's length, by at most
 * CLAV_MAX (rad; the shoulder girdle's protraction, ours). */
#define SHRUG_START 0.97
#define CLAV_MAX 0.6
/* Knee-out: the inside knee's swivel about the hip→ankle line grows with the lean (from
 * OPEN_LEAN0, full at OPEN_LEAN, rad) or the hang-off (full at OPEN_SHIFT m of hip shift), up to
 * SWIVEL_MAX (rad, ours); it stops where the knee slider (SLIDER_OUT·height outside the knee
 * joint) touches the road. */
#define OPEN_LEAN0 0.05
#define OPEN_LEAN 0.70
#define OPEN_SHIFT 0.15
#define SWIVEL_MAX 1.2
#define SLIDER_OUT 0.03
/* Eyes level: the head counter-rolls this share of the torso's roll, within the neck's lateral
 * range; it turns toward the look point within YAW_MAX. */
#define LEVEL_SHARE 0.8
#define NECK_ROLL_MAX 0.785
#define YAW_MAX 1.2
#define LOOK_NEAR 2.0

typedef struct ctx {
  const sk_skeleton* sk;
  const sk_frame_in* in;
  double R[SK_NBODY][9], p[SK_NBODY][3];   /* the bodies' world frames */
  double Mr[SK_NBONE][9], len[SK_NBONE];   /* rest frames and lengths */
  double M[SK_NBONE][9], head[SK_NBONE][3];
  double lean;                              /* the machine's, rad, right positive */
  double slider_hinge[2][3];                /* each knee's outward unit (for the slider) */
} ctx;

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }
static double smooth(double w) { w = clampd(w, 0, 1); return w * w * (3 - 2 * w); }

/* Rig point x on body b, in the world. */
static void body_map(const ctx* c, int b, const double x[3], double w[3]) {
  double d[3];
  for (int k = 0; k < 3; k++) d[k] = x[k] - c->sk->origin[b][k];
  skm_mv(c->R[b], d, w);
  for (int k = 0; k < 3; k++) w[k] += c->p[b][k];
}

static double road_at(const ctx* c, double x, double y, double n[3]) {
  if (!c->in->road) { n[0] = n[1] = 0, n[2] = 1; return 0; }
  return c->in->road(c->in->road_ctx, x, y, n);
}

/* Height of point q above the road under it (along the road's normal). */
static double above_road(const ctx* c, const double q[3]) {
  double n[3], z = road_at(c, q[0], q[1], n), d[3] = {0, 0, q[2] - z};
  return dot3(d, n);
}

static void setup(ctx* c, const sk_skeleton* sk, const sk_frame_in* in) {
  memset(c, 0, sizeof *c);
  c->sk = sk, c->in = in;
  for (int b = 0; b < SK_NBODY; b++) {
    memcpy(c->p[b], in->body[b], sizeof c->p[b]);
    skm_quat_mat(in->body[b] + 3, c->R[b]);
  }
  for (int b = 0; b < sk->nbone; b++) {
    const sk_bone* bn = &sk->bone[b];
    double d[3] = {bn->tail[0] - bn->head[0], bn->tail[1] - bn->head[1], bn->tail[2] - bn->head[2]};
    c->len[b] = norm3(d);
    skm_bone_frame(d, bn->zaxis, c->Mr[b]);
  }
  c->lean = atan2(c->R[SK_BODY_FRAME][7], c->R[SK_BODY_FRAME][8]);
}

/* M[b] = R (a body's or blend's frame) · the rest frame. */
static void follow(ctx* c, int b, const double R[9]) { skm_mm(R, c->Mr[b], c->M[b]); }

/* Heads of bones [from, to) from their parents (parents first). */
static void fk(ctx* c, int from, int to) {
  const sk_skeleton* sk = c->sk;
  for (int b = from; b < to; b++) {
    const sk_bone* bn = &sk->bone[b];
    int p = bn->parent;
    if (p < 0) { body_map(c, SK_BODY_PELVIS, bn->head, c->head[b]); continue; }
    double off[3];
    if (dist3(bn->head, sk->bone[p].tail) < 1e-12) {   /* connected: the parent's tail */
      double y[3] = {0, c->len[p], 0};
      skm_mv(c->M[p], y, off);
    } else {   /* a fixed point in the parent's frame */
      double d[3] = {bn->head[0] - sk->bone[p].head[0], bn->head[1] - sk->bone[p].head[1], bn->head[2] - sk->bone[p].head[2]}, l[3];
      skm_mtv(c->Mr[p], d, l);
      skm_mv(c->M[p], l, off);
    }
    for (int k = 0; k < 3; k++) c->head[b][k] = c->head[p][k] + off[k];
  }
}

/* The neck and head: on the torso, turned toward the look point about the machine's vertical
 * (the frame's z) and rolled back toward level about the torso's forward axis; the neck takes
 * half of each angle. */
static void head_look(ctx* c) {
  const double *Rt = c->R[SK_BODY_TORSO], *Rf = c->R[SK_BODY_FRAME];
  double eye[3], d[3], l[3];
  body_map(c, SK_BODY_TORSO, c->sk->bone[SK_HEAD].head, eye);
  for (int k = 0; k < 3; k++) d[k] = c->in->look[k] - eye[k];
  skm_mtv(Rf, d, l);
  /* a look point nearer than LOOK_NEAR (a stop: the path ahead shrinks to nothing) fades to
   * straight ahead, so the head does not swing on a few centimetres */
  double near = clampd((hypot(l[0], l[1]) - LOOK_NEAR) / LOOK_NEAR, 0, 1);
  double yaw = near > 0 ? near * clampd(atan2(l[1], l[0]), -YAW_MAX, YAW_MAX) : 0;
  double roll = clampd(LEVEL_SHARE * atan2(Rt[7], Rt[8]), -NECK_ROLL_MAX, NECK_ROLL_MAX);
  static const double X[3] = {1, 0, 0};
  double up[3];
  skm_col(Rf, 2, up);
  for (int half = 0; half < 2; half++) {
    double f = half ? 0.5 : 1, Ry[9], Rr[9], R[9];
    skm_axis(up, f * yaw, Ry), skm_axis(X, -f * roll, Rr);
    skm_mm(Rt, Rr, R), skm_mm(Ry, R, R);
    follow(c, half ? SK_NECK : SK_HEAD, R);
  }
}

/* Hips on the pelvis body, Spine half-way to the torso (the tuck spread down the back), Spine1
 * and the shoulders on the torso. */
static void trunk(ctx* c) {
  double mid[9];
  follow(c, SK_HIPS, c->R[SK_BODY_PELVIS]);
  skm_slerp(c->R[SK_BODY_PELVIS], c->R[SK_BODY_TORSO], 0.5, mid);
  follow(c, SK_SPINE, mid);
  follow(c, SK_SPINE1, c->R[SK_BODY_TORSO]);
  follow(c, SK_LSHOULDER, c->R[SK_BODY_TORSO]);
  follow(c, SK_RSHOULDER, c->R[SK_BODY_TORSO]);
  head_look(c);
}

/* Two-bone IK from a toward t, lengths L1, L2, the joint bending toward pole: the unit
 * directions of both segments and the hinge axis (⟂ both). Out of reach: straight toward t. */
static void ik2(const double a[3], const double t[3], double L1, double L2, const double pole[3], double u1[3],
                double u2[3], double h[3]) {
  double e[3] = {t[0] - a[0], t[1] - a[1], t[2] - a[2]}, d = norm3(e), n[3];
  if (d < 1e-9) memcpy(e, pole, sizeof e), d = 0;
  unit3(e);
  double dc = clampd(d, fabs(L1 - L2) + 1e-9, L1 + L2), pe = dot3(pole, e);
  for (int k = 0; k < 3; k++) n[k] = pole[k] - pe * e[k];
  unit3(n);
  double ca = clampd((L1 * L1 + dc * dc - L2 * L2) / (2 * L1 * dc), -1, 1), sa = sqrt(1 - ca * ca);
  for (int k = 0; k < 3; k++) u1[k] = ca * e[k] + sa * n[k], u2[k] = dc * e[k] - L1 * u1[k];
  unit3(u2);
  cross3(e, n, h);
  unit3(h);
}

/* Limb frames from ik2's directions: both share the hinge as x. */
static void limb_frames(ctx* c, int upper, int lower, const double u1[3], const double u2[3], const double h[3]) {
  double z[3];
  cross3(h, u1, z), skm_cols(h, u1, z, c->M[upper]);
  cross3(h, u2, z), skm_cols(h, u2, z, c->M[lower]);
}

/* Bones from..to−1 blended a smooth w of the way toward rigid on body b (the released limb). */
static void release(ctx* c, int from, int to, int body, double w) {
  if (!(w > 0)) return;
  for (int b = from; b < to; b++) {
    double rigid[9];
    skm_mm(c->R[body], c->Mr[b], rigid);
    skm_slerp(c->M[b], rigid, smooth(w), c->M[b]);
  }
}

/* The shoulder joint after the clavicle Sh turns by angle a about axis u (through its head). */
static void shrugged(const ctx* c, int Sh, const double u[3], double a, double R[9], double j[3]) {
  double d[3];
  skm_axis(u, a, R);
  for (int k = 0; k < 3; k++) d[k] = c->head[Sh + 1][k] - c->head[Sh][k];
  skm_mv(R, d, j);
  for (int k = 0; k < 3; k++) j[k] += c->head[Sh][k];
}

/* A grip beyond SHRUG_START of the arm's reach: the clavicle turns toward it (the shoulder
 * reaching forward, as a rider's outside arm does hanging off or at full lock) until the grip is
 * back at that share, by at most CLAV_MAX. */
static void reach_shoulder(ctx* c, int side, const double t[3], double reach) {
  int Sh = side ? SK_RSHOULDER : SK_LSHOULDER;
  if (dist3(c->head[Sh + 1], t) <= SHRUG_START * reach) return;
  double a[3], b[3], u[3], R[9], j[3], lo = 0, hi = CLAV_MAX;
  for (int k = 0; k < 3; k++) a[k] = c->head[Sh + 1][k] - c->head[Sh][k], b[k] = t[k] - c->head[Sh][k];
  cross3(a, b, u);
  if (norm3(u) < 1e-12) return;
  unit3(u);
  shrugged(c, Sh, u, hi, R, j);
  if (dist3(j, t) <= SHRUG_START * reach)
    for (int i = 0; i < 40; i++) {
      double m = 0.5 * (lo + hi);
      shrugged(c, Sh, u, m, R, j);
      if (dist3(j, t) > SHRUG_START * reach) lo = m; else hi = m;
    }
  else lo = hi;
  shrugged(c, Sh, u, lo, R, j);
  skm_mm(R, c->M[Sh], c->M[Sh]);
  memcpy(c->head[Sh + 1], j, sizeof j);
}

/* An arm to its grip: elbows out and down (the pole, in the torso's frame). */
static void arm(ctx* c, int side) {
  int A = side ? SK_RARM : SK_LARM, F = A + 1, Hd = A + 2;
  double sg = side ? -1 : 1, t[3], pole[3], pl[3] = {0, 0.7 * sg, -0.7}, u1[3], u2[3], h[3];
  double L2 = c->len[F] + GRIP_FRAC * c->len[Hd];
  body_map(c, SK_BODY_STEERING, c->sk->pts.grip[side], t);
  reach_shoulder(c, side, t, c->len[A] + L2);
  skm_mv(c->R[SK_BODY_TORSO], pl, pole);
  ik2(c->head[A], t, c->len[A], L2, pole, u1, u2, h);
  limb_frames(c, A, F, u1, u2, h);
  memcpy(c->M[Hd], c->M[F], sizeof c->M[Hd]);
  release(c, A, Hd + 1, SK_BODY_TORSO, c->in->rel.fall);
}

/* How far leg `side`'s knee opens (0..1): with the lean toward that side past OPEN_LEAN0 and
 * the hips shifted toward it, whichever more; 0 for the outside leg. Continuous through
 * upright, so a machine weaving about upright does not flick its knees. */
static double knee_open(const ctx* c, int side) {
  double d[3], l[3], o[3], sg = side ? 1 : -1;   /* lean and shift positive to the right */
  for (int k = 0; k < 3; k++) d[k] = c->p[SK_BODY_PELVIS][k] - c->p[SK_BODY_FRAME][k];
  skm_mtv(c->R[SK_BODY_FRAME], d, l);
  for (int k = 0; k < 3; k++) o[k] = c->sk->origin[SK_BODY_PELVIS][k] - c->sk->origin[SK_BODY_FRAME][k];
  double shift = sg * (o[1] - l[1]), lean = sg * c->lean;
  return clampd(fmax((lean - OPEN_LEAN0) / (OPEN_LEAN - OPEN_LEAN0), shift / OPEN_SHIFT), 0, 1);
}

/* The knee and its slider for swivel psi of the pole about the hip→ankle line. */
typedef struct legq { const double *hip, *ankle, *n0, *out; double L1, L2; } legq;
static double slider_height(const ctx* c, const legq* q, double psi, double u1[3], double u2[3], double h[3]) {
  double pole[3], knee[3], s[3];
  for (int k = 0; k < 3; k++) pole[k] = cos(psi) * q->n0[k] + sin(psi) * q->out[k];
  ik2(q->hip, q->ankle, q->L1, q->L2, pole, u1, u2, h);
  double sg = dot3(h, q->out) >= 0 ? 1 : -1;
  for (int k = 0; k < 3; k++) knee[k] = q->hip[k] + q->L1 * u1[k], s[k] = knee[k] + sg * SLIDER_OUT * c->sk->height * h[k];
  return above_road(c, s);
}

/* The swivel: toward psi_t, stopping where the slider first meets the road. */
static double knee_swivel(const ctx* c, const legq* q, double psi_t) {
  double u1[3], u2[3], h[3], lo = 0, hi = psi_t;
  if (!(psi_t > 0) || slider_height(c, q, psi_t, u1, u2, h) > 0) return psi_t;
  if (slider_height(c, q, 0, u1, u2, h) <= 0) return 0;
  for (int i = 0; i < 40; i++) {
    double m = 0.5 * (lo + hi);
    if (slider_height(c, q, m, u1, u2, h) > 0) lo = m; else hi = m;
  }
  return lo;
}

/* Where the ankle goes: the foot rigid on the frame, its ball on the peg; on a foot down,
 * blended toward the road beside the peg with the sole flat. */
static void ankle_target(ctx* c, int side, double ankle[3]) {
  int Ft = side ? SK_RFOOT : SK_LFOOT;
  double sg = side ? -1 : 1, peg[3], fv[3], y[3] = {0, c->len[Ft], 0};
  follow(c, Ft, c->R[SK_BODY_FRAME]);
  body_map(c, SK_BODY_FRAME, c->sk->pts.peg[side], peg);
  double w = smooth(c->in->rel.foot[side]);
  if (w > 0) {   /* the sole flat (the heel down 20°), the foot 0.22 m out and on the road */
    static const double Y[3] = {0, 1, 0};
    double flat[9], R[9], g[3], pl[3], n[3];
    skm_axis(Y, -0.35, flat), skm_mm(c->R[SK_BODY_FRAME], flat, R), skm_mm(R, c->Mr[Ft], flat);
    skm_slerp(c->M[Ft], flat, w, c->M[Ft]);
    for (int k = 0; k < 3; k++) pl[k] = c->sk->pts.peg[side][k] + (k == 0 ? 0.05 : k == 1 ? sg * 0.22 : 0);
    body_map(c, SK_BODY_FRAME, pl, g);
    g[2] = road_at(c, g[0], g[1], n);
    for (int k = 0; k < 3; k++) peg[k] += w * (g[k] - peg[k]);
  }
  skm_mv(c->M[Ft], y, fv);
  for (int k = 0; k < 3; k++) ankle[k] = peg[k] - fv[k];
  double toe[9];   /* the toes rigid on the foot */
  skm_mtv_m(c->Mr[Ft], c->Mr[Ft + 1], toe);
  skm_mm(c->M[Ft], toe, c->M[Ft + 1]);
}

/* A leg to its peg, the inside knee out. */
static void leg(ctx* c, int side) {
  int U = side ? SK_RUPLEG : SK_LUPLEG, L = U + 1, Ft = U + 2;
  double sg = side ? -1 : 1, ankle[3], e[3], n0[3], out[3], side_y[3], u1[3], u2[3], h[3];
  double nl[3] = {1, 0.12 * sg, 0.5}, yl[3] = {0, sg, 0};
  ankle_target(c, side, ankle);
  skm_mv(c->R[SK_BODY_FRAME], nl, n0), skm_mv(c->R[SK_BODY_FRAME], yl, side_y);
  for (int k = 0; k < 3; k++) e[k] = ankle[k] - c->head[U][k];
  unit3(e);
  double pe = dot3(n0, e);
  for (int k = 0; k < 3; k++) n0[k] -= pe * e[k];
  unit3(n0);
  cross3(e, n0, out);
  if (dot3(out, side_y) < 0)
    for (int k = 0; k < 3; k++) out[k] = -out[k];
  legq q = {c->head[U], ankle, n0, out, c->len[U], c->len[L]};
  double psi = knee_swivel(c, &q, SWIVEL_MAX * knee_open(c, side));
  slider_height(c, &q, psi, u1, u2, h);
  limb_frames(c, U, L, u1, u2, h);
  memcpy(c->slider_hinge[side], dot3(h, out) >= 0 ? h : (double[3]){-h[0], -h[1], -h[2]}, sizeof c->slider_hinge[side]);
  release(c, U, Ft + 2, SK_BODY_PELVIS, c->in->rel.fall);
}

static void outputs(const ctx* c, sk_pose_out* out) {
  const sk_skeleton* sk = c->sk;
  for (int b = 0; b < sk->nbone; b++) {
    sk_bone_pose* o = &out->bone[b];
    double y[3] = {0, c->len[b], 0}, t[3];
    skm_mv(c->M[b], y, t);
    for (int k = 0; k < 3; k++) o->head[k] = c->head[b][k], o->tail[k] = c->head[b][k] + t[k];
    skm_mat_quat(c->M[b], o->quat);
  }
  for (int s = 0; s < 2; s++) {
    int Hd = s ? SK_RHAND : SK_LHAND, Ft = s ? SK_RFOOT : SK_LFOOT, Lg = s ? SK_RLEG : SK_LLEG;
    double gp[3], g[3], peg[3], sl[3], y[3] = {0, GRIP_FRAC * c->len[Hd], 0};
    skm_mv(c->M[Hd], y, gp);
    for (int k = 0; k < 3; k++) gp[k] += c->head[Hd][k];
    body_map(c, SK_BODY_STEERING, sk->pts.grip[s], g);
    body_map(c, SK_BODY_FRAME, sk->pts.peg[s], peg);
    out->hand_miss[s] = dist3(gp, g);
    out->foot_miss[s] = dist3(out->bone[Ft].tail, peg);
    for (int k = 0; k < 3; k++) sl[k] = c->head[Lg][k] + SLIDER_OUT * sk->height * c->slider_hinge[s][k];
    out->knee_height[s] = above_road(c, sl);
  }
  const sk_release* r = &c->in->rel;
  out->released = (r->foot[0] > 0 ? SK_REL_FOOT_L : 0) | (r->foot[1] > 0 ? SK_REL_FOOT_R : 0) | (r->fall > 0 ? SK_REL_FALL : 0);
}

void sk_pose(const sk_skeleton* sk, const sk_frame_in* in, sk_pose_out* out) {
  ctx c;
  memset(out, 0, sizeof *out);
  if (sk->nbone != SK_NBONE) return;
  setup(&c, sk, in);
  trunk(&c);
  fk(&c, 0, SK_NBONE);   /* the shoulders' and hips' joints, from the trunk */
  for (int s = 0; s < 2; s++) arm(&c, s), leg(&c, s);
  fk(&c, 0, SK_NBONE);
  outputs(&c, out);
}

void sk_release_step(sk_release* r, const sk_skeleton* sk, const sk_frame_in* in, double dt) {
  double R[9];
  skm_quat_mat(in->body[SK_BODY_FRAME] + 3, R);
  double lean = atan2(R[7], R[8]);
  int fall = in->fall || fabs(lean) > SK_FALL_LEAN;
  int down = !fall && in->speed < SK_FOOTDOWN_SPEED && fabs(lean) < 0.15;
  int side = lean > 0.02;   /* the side it leans to; the left when upright */
  double target[3] = {down && side == 0, down && side == 1, fall};
  double* w[3] = {&r->foot[0], &r->foot[1], &r->fall};
  for (int i = 0; i < 3; i++) {
    if (!(dt > 0)) { *w[i] = target[i]; continue; }
    double step = dt / SK_RELEASE_S;
    *w[i] = target[i] > *w[i] ? fmin(target[i], *w[i] + step) : fmax(target[i], *w[i] - step);
  }
}
