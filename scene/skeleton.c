/* skeleton.c — the rider's bones, sizes and masses, and the rest pose (see skeleton.h).
 * The pose every frame is scene/skel_pose.c. */
#include "scene/skeleton.h"

#include <math.h>
#include <string.h>

#include "scene/skel_math.h"
#include "scene/take_bodies.h"
#include "base/mt.h"

const char* const sk_body_names[SK_NBODY] = {"frame", "steering", "rider_pelvis", "rider_torso"};

static const struct { const char* name; int parent; double mass; } BONES[SK_NBONE] = {
  /* mass: Winter table 4.1 (Dempster) fractions of body mass; 0 = carried by the parent segment */
  [SK_HIPS] = {"Hips", -1, 0.142},           /* pelvis */
  [SK_SPINE] = {"Spine", SK_HIPS, 0.139},    /* abdomen */
  [SK_SPINE1] = {"Spine1", SK_SPINE, 0.216}, /* thorax */
  [SK_NECK] = {"Neck", SK_SPINE1, 0},        /* in the head and neck */
  [SK_HEAD] = {"Head", SK_NECK, 0.081},      /* head and neck */
  [SK_LSHOULDER] = {"LeftShoulder", SK_SPINE1, 0},
  [SK_LARM] = {"LeftArm", SK_LSHOULDER, 0.028},
  [SK_LFOREARM] = {"LeftForeArm", SK_LARM, 0.016},
  [SK_LHAND] = {"LeftHand", SK_LFOREARM, 0.006},
  [SK_RSHOULDER] = {"RightShoulder", SK_SPINE1, 0},
  [SK_RARM] = {"RightArm", SK_RSHOULDER, 0.028},
  [SK_RFOREARM] = {"RightForeArm", SK_RARM, 0.016},
  [SK_RHAND] = {"RightHand", SK_RFOREARM, 0.006},
  [SK_LUPLEG] = {"LeftUpLeg", SK_HIPS, 0.100},
  [SK_LLEG] = {"LeftLeg", SK_LUPLEG, 0.0465},
  [SK_LFOOT] = {"LeftFoot", SK_LLEG, 0.0145},
  [SK_LTOE] = {"LeftToeBase", SK_LFOOT, 0},
  [SK_RUPLEG] = {"RightUpLeg", SK_HIPS, 0.100},
  [SK_RLEG] = {"RightLeg", SK_RUPLEG, 0.0465},
  [SK_RFOOT] = {"RightFoot", SK_RLEG, 0.0145},
  [SK_RTOE] = {"RightToeBase", SK_RFOOT, 0},
};

/* Segment lengths as fractions of height H: Winter table 4.1 (fig. 4.1), from the standing
 * heights of the joints: greater trochanter (hip) 0.530, shoulder 0.818, chin 0.870, top of
 * head 1.000; upper arm 0.186, forearm 0.146, hand 0.108; thigh 0.245, leg (shank) 0.246; ankle
 * height 0.039, foot length 0.152. Our splits within them are marked "ours". */
#define F_TRUNK (0.818 - 0.530 + 0.020)   /* hip joint to the neck's base, 0.02 above the shoulders (ours) */
#define F_NECK 0.042                      /* neck + head = 0.182, the head 0.120 of it (ours) */
#define F_HEAD 0.120
#define F_UPARM 0.186
#define F_FOREARM 0.146
#define F_HAND 0.108
#define F_THIGH 0.245
#define F_SHANK 0.246
#define F_FOOT 0.0881    /* ankle (0.039 up) to the ball (0.52 of the foot's 0.152 ahead): √(0.079² + 0.039²) */
#define F_TOE 0.0426     /* ball to the toes' tip, 0.28 of the foot's length */
#define F_SHOULDER_Y 0.11   /* shoulder joints' half spacing (ours; Winter's shoulder width is 0.259 over the deltoids) */
#define F_HIP_Y 0.05        /* hip joints' half spacing (ours, within Winter's hip width 0.191) */
#define F_SEAT_HIP 0.05     /* hip joints above the seat (ours) */
/* The arm's reach to the grip (shoulder to the palm) and the share of it the rest pose uses: the
 * trunk leans forward until the shoulders are that far from the grips, elbows bent. */
#define REACH_SHARE 0.82

static void along(const double from[3], double len, double ang, double to[3]) {
  to[0] = from[0] + len * sin(ang), to[1] = from[1], to[2] = from[2] + len * cos(ang);
}
static void set_bone(sk_bone* b, const double head[3], const double tail[3], const double zref[3]) {
  memcpy(b->head, head, sizeof b->head), memcpy(b->tail, tail, sizeof b->tail);
  double d[3] = {tail[0] - head[0], tail[1] - head[1], tail[2] - head[2]}, n = norm3(d), p;
  p = dot3(zref, d) / (n * n);
  for (int k = 0; k < 3; k++) b->zaxis[k] = zref[k] - p * d[k];
  unit3(b->zaxis);
}

/* The trunk, neck, head and shoulders with the trunk leaning theta forward (rad from vertical):
 * the pelvis 0.3 rad less, the chest 0.1 more (the back's curve, ours); the neck half the lean,
 * the head upright (the eyes forward). */
static void trunk_rest(sk_skeleton* sk, double theta) {
  double H = sk->height, S = F_TRUNK * H, h0[3], a[3], b[3], c[3], n[3], t[3];
  static const double FWD[3] = {1, 0, 0}, UP[3] = {0, 0, 1};
  for (int k = 0; k < 3; k++) h0[k] = sk->pts.seat[k];
  h0[2] += F_SEAT_HIP * H;
  along(h0, 0.20 * S, theta - 0.3, a), set_bone(&sk->bone[SK_HIPS], h0, a, FWD);
  along(a, 0.35 * S, theta, b), set_bone(&sk->bone[SK_SPINE], a, b, FWD);
  along(b, 0.45 * S, theta + 0.1, c), set_bone(&sk->bone[SK_SPINE1], b, c, FWD);
  along(c, F_NECK * H, 0.5 * theta, n), set_bone(&sk->bone[SK_NECK], c, n, FWD);
  along(n, F_HEAD * H, 0, t), set_bone(&sk->bone[SK_HEAD], n, t, FWD);
  for (int s = 0; s < 2; s++) {   /* clavicles: from beside the neck's base out to the shoulder joints */
    double sg = s ? -1 : 1, in[3], out[3];
    along(c, -0.04 * H, theta + 0.1, in), along(c, -0.03 * H, theta + 0.1, out);
    in[1] += sg * 0.02 * H, out[1] += sg * F_SHOULDER_Y * H;
    set_bone(&sk->bone[s ? SK_RSHOULDER : SK_LSHOULDER], in, out, UP);
  }
}

/* Shoulder joints' mean distance to the grips minus the rest reach, at trunk lean theta. */
static double reach_gap(sk_skeleton* sk, double theta) {
  trunk_rest(sk, theta);
  double H = sk->height, reach = (F_UPARM + F_FOREARM + 0.45 * F_HAND) * H;
  double d = 0.5 * (dist3(sk->bone[SK_LSHOULDER].tail, sk->pts.grip[0]) + dist3(sk->bone[SK_RSHOULDER].tail, sk->pts.grip[1]));
  return d - REACH_SHARE * reach;
}

/* Limbs before the IK places them: the right lengths, straight down (sk_pose only reads their
 * lengths); the feet pitched 46° toes-down (the ball on the peg, the heel 20° up from flat, ours). */
static void limbs_initial(sk_skeleton* sk) {
  static const struct { int b; double f; } L[] = {
    {SK_LARM, F_UPARM}, {SK_LFOREARM, F_FOREARM}, {SK_LHAND, F_HAND}, {SK_RARM, F_UPARM}, {SK_RFOREARM, F_FOREARM},
    {SK_RHAND, F_HAND}, {SK_LUPLEG, F_THIGH}, {SK_LLEG, F_SHANK}, {SK_RUPLEG, F_THIGH}, {SK_RLEG, F_SHANK}};
  static const double FWD[3] = {1, 0, 0}, UP[3] = {0, 0, 1};
  double H = sk->height, tail[3];
  for (size_t i = 0; i < sizeof L / sizeof L[0]; i++) {
    sk_bone* b = &sk->bone[L[i].b];
    int p = b->parent;
    if (L[i].b == SK_LUPLEG || L[i].b == SK_RUPLEG) {   /* hip joints beside the Hips' head */
      memcpy(b->head, sk->bone[SK_HIPS].head, sizeof b->head);
      b->head[1] += (L[i].b == SK_LUPLEG ? 1 : -1) * F_HIP_Y * H;
    } else {
      memcpy(b->head, sk->bone[p].tail, sizeof b->head);
    }
    along(b->head, L[i].f * H, MT_PI, tail), set_bone(b, b->head, tail, FWD);
  }
  for (int s = 0; s < 2; s++) {
    sk_bone *f = &sk->bone[s ? SK_RFOOT : SK_LFOOT], *t = &sk->bone[s ? SK_RTOE : SK_LTOE];
    double ft[3], tt[3];
    memcpy(f->head, sk->bone[f->parent].tail, sizeof f->head);
    along(f->head, F_FOOT * H, 0.5 * MT_PI + 0.80, ft), set_bone(f, f->head, ft, UP);
    along(ft, F_TOE * H, 0.5 * MT_PI + 0.35, tt), set_bone(t, ft, tt, UP);
  }
}

/* The rest pose: the trunk leaning until the grips are at the rest reach (bisection; the gap
 * shrinks as the trunk leans forward), then the limbs where sk_pose puts them on the reference
 * machine (every body at its origin, unrotated): so the rest pose is the pose at rest. */
static void rest_pose(sk_skeleton* sk) {
  double lo = 0, hi = 1.3;
  if (reach_gap(sk, lo) <= 0) hi = lo;
  else if (reach_gap(sk, hi) >= 0) lo = hi;
  for (int i = 0; i < 60 && hi - lo > 1e-12; i++) {
    double m = 0.5 * (lo + hi);
    if (reach_gap(sk, m) > 0) lo = m; else hi = m;
  }
  trunk_rest(sk, 0.5 * (lo + hi));
  limbs_initial(sk);
  sk_frame_in in;
  memset(&in, 0, sizeof in);
  for (int b = 0; b < SK_NBODY; b++) memcpy(in.body[b], sk->origin[b], sizeof sk->origin[b]), in.body[b][3] = 1;
  in.look[0] = 100, in.look[2] = sk->bone[SK_HEAD].head[2];
  in.speed = 10;
  sk_pose_out po;
  sk_pose(sk, &in, &po);
  for (int b = 0; b < SK_NBONE; b++) {
    double R[9], z[3];
    skm_quat_mat(po.bone[b].quat, R);
    skm_col(R, 2, z);
    set_bone(&sk->bone[b], po.bone[b].head, po.bone[b].tail, z);
  }
}

int sk_build(const rig* rg, sk_skeleton* out) {
  memset(out, 0, sizeof *out);
  double upper = 0;
  for (int b = 0; b < SK_NBODY; b++) {
    int rb = rig_body_index(rg, sk_body_names[b]);
    if (rb < 0) return -1;
    if (b == SK_BODY_PELVIS || b == SK_BODY_TORSO) upper += rg->body[rb].mass;
    ex_take_body_origin(rg, sk_body_names[b], out->origin[b]);
  }
  sc_rider_points_get(rg, &out->pts);
  if (!out->pts.have_grip || !out->pts.have_peg || !out->pts.have_seat) {
    memset(out, 0, sizeof *out);
    return -1;
  }
  out->height = rg->rider_height;
  /* The physics' rider bodies (rider_pelvis + rider_torso) are SEL's upper body: Winter's
   * abdomen + thorax + head/neck + arms, 0.536 of the body (rigs/sport1000.lua); the rider's
   * mass is what makes those segments weigh exactly that. */
  out->mass = upper / 0.536;
  out->nbone = SK_NBONE;
  for (int b = 0; b < SK_NBONE; b++) {
    out->bone[b].name = BONES[b].name, out->bone[b].parent = BONES[b].parent;
    out->bone[b].mass = BONES[b].mass * out->mass;
  }
  rest_pose(out);
  return 0;
}

void sk_rest_quat(const sk_bone* b, double q[4]) {
  double d[3] = {b->tail[0] - b->head[0], b->tail[1] - b->head[1], b->tail[2] - b->head[2]}, M[9];
  skm_bone_frame(d, b->zaxis, M);
  skm_mat_quat(M, q);
}
