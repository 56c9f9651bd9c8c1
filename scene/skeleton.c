/* skeleton.c — the rider's bones, sizes and masses, and the rest pose (see skeleton.h).
 * The pose every frame is scene/skel_pose.c. */
#include "scene/skeleton.h"

#include <math.h>
#include <string.h>

#include "scene/take_bodies.h"

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
  out->mass = upper / 0.536;
  out->nbone = SK_NBONE;
  for (int b = 0; b < SK_NBONE; b++) {
    out->bone[b].name = BONES[b].name, out->bone[b].parent = BONES[b].parent;
    out->bone[b].mass = BONES[b].mass * out->mass;
    out->bone[b].tail[2] = 0.1, out->bone[b].zaxis[0] = 1;   /* placeholder rest pose: the next commit */
  }
  return 0;
}

void sk_rest_quat(const sk_bone* b, double q[4]) { q[0] = 1, q[1] = q[2] = q[3] = 0; }

void sk_release_step(sk_release* r, const sk_skeleton* sk, const sk_frame_in* in, double dt) {}

void sk_pose(const sk_skeleton* sk, const sk_frame_in* in, sk_pose_out* out) { memset(out, 0, sizeof *out); }
