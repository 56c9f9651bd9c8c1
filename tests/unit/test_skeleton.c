/* test_skeleton.c — the rider's skeleton (scene/skeleton.h, scene/skel_take.h): the bones and
 * their masses, the rest pose as the pose on the reference machine, hands on the grips and feet
 * on the pegs over every step of real takes and at full steer lock, constant bone lengths, the
 * knee slider on the road at racing lean, the head levelled, and the IK let go smoothly. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/skel_take.h"
#include "scene/skeleton.h"
#include "sim/rig.h"
#include "takes/takefile.h"
#include "tests/unit/test.h"

static const char* const MIXAMO[SK_NBONE] = {
  "Hips", "Spine", "Spine1", "Neck", "Head", "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand", "RightShoulder",
  "RightArm", "RightForeArm", "RightHand", "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase", "RightUpLeg", "RightLeg",
  "RightFoot", "RightToeBase"};

static double blen(const double h[3], const double t[3]) {
  return sqrt((t[0] - h[0]) * (t[0] - h[0]) + (t[1] - h[1]) * (t[1] - h[1]) + (t[2] - h[2]) * (t[2] - h[2]));
}

/* The reference machine: every body at its origin, unrotated, looking far ahead. */
static void reference(const sk_skeleton* sk, sk_frame_in* in) {
  memset(in, 0, sizeof *in);
  for (int b = 0; b < SK_NBODY; b++) memcpy(in->body[b], sk->origin[b], sizeof sk->origin[b]), in->body[b][3] = 1;
  in->look[0] = 100, in->look[2] = sk->bone[SK_HEAD].head[2];
  in->speed = 10;
}

MT_TEST(skeleton_bones_names_hierarchy_and_masses) {
  /* the Mixamo/BVH names in order, Hips the root, parents first; Winter's mass fractions sum
   * to the whole rider, and the segments the physics' rider bodies stand for weigh exactly those
   * bodies: Spine (abdomen) = rider_pelvis, the chest, head and arms = rider_torso */
  rig* rg = mt_test_load_sport();
  CHECK(rg);
  sk_skeleton sk;
  CHECK(sk_build(rg, &sk) == 0);
  CHECK(sk.nbone == SK_NBONE && sk.height == 1.78);
  double sum = 0, torso = 0;
  for (int b = 0; b < sk.nbone; b++) {
    CHECK_MSG(!strcmp(sk.bone[b].name, MIXAMO[b]), "bone %d is %s, not %s", b, sk.bone[b].name, MIXAMO[b]);
    CHECK_MSG(b == 0 ? sk.bone[b].parent == -1 : sk.bone[b].parent >= 0 && sk.bone[b].parent < b, "%s: parent %d",
              sk.bone[b].name, sk.bone[b].parent);
    CHECK(blen(sk.bone[b].head, sk.bone[b].tail) > 0.02);
    sum += sk.bone[b].mass;
    if (b == SK_SPINE1 || b == SK_NECK || b == SK_HEAD || (b >= SK_LSHOULDER && b <= SK_RHAND)) torso += sk.bone[b].mass;
  }
  CHECK_NEAR(sum, sk.mass, 1e-9);
  CHECK_NEAR(sk.bone[SK_SPINE].mass, rg->body[rig_body_index(rg, "rider_pelvis")].mass, 1e-9);
  CHECK_NEAR(torso, rg->body[rig_body_index(rg, "rider_torso")].mass, 1e-9);
  rig_free(rg);
}

MT_TEST(skeleton_rest_pose_is_the_pose_on_the_reference_machine) {
  /* sk_pose on the unrotated machine gives the rest pose back: heads, tails and sk_rest_quat to
   * 1e-9, hands on the grips and feet on the pegs, the limbs to the outside of the machine */
  rig* rg = mt_test_load_sport();
  CHECK(rg);
  sk_skeleton sk;
  CHECK(sk_build(rg, &sk) == 0);
  sk_frame_in in;
  reference(&sk, &in);
  sk_pose_out po;
  sk_pose(&sk, &in, &po);
  for (int b = 0; b < sk.nbone; b++) {
    double q[4];
    sk_rest_quat(&sk.bone[b], q);
    CHECK_MSG(blen(po.bone[b].head, sk.bone[b].head) < 1e-9 && blen(po.bone[b].tail, sk.bone[b].tail) < 1e-9, "%s moved",
              sk.bone[b].name);
    double d = fabs(q[0] * po.bone[b].quat[0] + q[1] * po.bone[b].quat[1] + q[2] * po.bone[b].quat[2] + q[3] * po.bone[b].quat[3]);
    CHECK_MSG(fabs(d - 1) < 1e-9, "%s: rest quaternion differs (|q·p| = %.12f)", sk.bone[b].name, d);
  }
  for (int s = 0; s < 2; s++) CHECK(po.hand_miss[s] < 1e-9 && po.foot_miss[s] < 1e-9);
  CHECK(sk.bone[SK_LFOREARM].head[1] > sk.pts.grip[0][1] && sk.bone[SK_RFOREARM].head[1] < sk.pts.grip[1][1]);   /* elbows out */
  CHECK(sk.bone[SK_LLEG].head[1] > sk.pts.peg[0][1] && sk.bone[SK_RLEG].head[1] < sk.pts.peg[1][1]);     /* knees out */
  rig_free(rg);
}
