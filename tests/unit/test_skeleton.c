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

/* A take's motion, its rig's skeleton and the binding between them. */
typedef struct tk_ctx {
  take_reader* r;
  sc_motion m;
  rig* rg;
  sk_skeleton sk;
  sk_motion sm;
} tk_ctx;

static int tk_open(tk_ctx* c, const char* path, mt_err* e) {
  memset(c, 0, sizeof *c);
  if (!(c->r = take_open(path, e))) return -1;
  if (sc_motion_begin(&c->m, c->r, e) || sc_motion_rebuild(&c->m, c->r, &c->rg, e) || sc_motion_read_poses(&c->m, c->r, NULL, e))
    return -1;
  if (sk_build(c->rg, &c->sk) || sk_motion_bind(&c->sm, &c->m)) return mt_fail(e, MT_EINPUT, "%s: no rider skeleton", path);
  return 0;
}

static void tk_close(tk_ctx* c) {
  sc_motion_free(&c->m);
  if (c->rg) rig_free(c->rg);
  if (c->r) take_close(c->r);
}

/* Every step of a take: hands and feet within 5 mm, every bone's length its rest length to 1e-9,
 * connected bones joined. The worst figures in worst[4]: hand, foot, length error, |lean| (rad). */
static const char* every_step(tk_ctx* c, long stride, double worst[4]) {
  static char why[256];
  memset(worst, 0, sizeof(double) * 4);
  for (long i = 0; i < c->m.nsteps; i += stride) {
    sk_frame_in in;
    sk_pose_out po;
    sk_motion_frame(&c->sm, i * c->m.dt, &in);
    sk_pose(&c->sk, &in, &po);
    for (int s = 0; s < 2; s++) worst[0] = fmax(worst[0], po.hand_miss[s]), worst[1] = fmax(worst[1], po.foot_miss[s]);
    for (int b = 0; b < c->sk.nbone; b++) {
      const sk_bone* bn = &c->sk.bone[b];
      worst[2] = fmax(worst[2], fabs(blen(po.bone[b].head, po.bone[b].tail) - blen(bn->head, bn->tail)));
      if (bn->parent >= 0 && blen(bn->head, c->sk.bone[bn->parent].tail) < 1e-12 &&
          blen(po.bone[b].head, po.bone[bn->parent].tail) > 1e-9) {
        snprintf(why, sizeof why, "step %ld: %s came off its parent", i, bn->name);
        return why;
      }
    }
    double qw = in.body[SK_BODY_FRAME][3], qx = in.body[SK_BODY_FRAME][4], qy = in.body[SK_BODY_FRAME][5], qz = in.body[SK_BODY_FRAME][6];
    worst[3] = fmax(worst[3], fabs(atan2(2 * (qw * qx + qy * qz), 1 - 2 * (qx * qx + qy * qy))));
    if (po.released) {
      snprintf(why, sizeof why, "step %ld: the IK let go (%d)", i, po.released);
      return why;
    }
  }
  return NULL;
}

MT_TEST(skeleton_hands_on_grips_feet_on_pegs_every_step_of_a_leaned_ride) {
  /* render_skid: 1.2 s round the skidpad at 15 m/s, leaned about 25°, every 1 ms step */
  mt_err e = {0};
  const char* path = mt_test_take("render_skid", &e);
  CHECK_MSG(path, "%s", e.msg);
  tk_ctx c;
  CHECK_MSG(!tk_open(&c, path, &e), "%s", e.msg);
  double w[4];
  const char* why = every_step(&c, 1, w);
  long n = c.m.nsteps;
  tk_close(&c);
  CHECK_MSG(!why, "%s", why);
  printf("  render_skid: %ld steps, hand %.2e m, foot %.2e m, length %.2e m, lean %.1f deg\n", n, w[0], w[1], w[2], w[3] * 180 / MT_PI);
  CHECK_MSG(w[3] > 20 * MT_PI / 180, "the take leans only %.1f deg", w[3] * 180 / MT_PI);
  CHECK_MSG(w[0] <= 0.005 && w[1] <= 0.005, "hand %.4f m, foot %.4f m from the grips and pegs", w[0], w[1]);
  CHECK_MSG(w[2] < 1e-9, "a bone's length changed by %.3g m", w[2]);
}

MT_TEST(skeleton_hands_on_grips_feet_on_pegs_every_frame_of_a_race_lap_piece) {
  /* laguna_piece (the race lap's first 24 s: braking from 220 km/h, Turn 2 hanging off at up to
   * 46.9°): every frame at 100 fps */
  mt_err e = {0};
  const char* path = mt_test_take("laguna_piece", &e);
  CHECK_MSG(path, "%s", e.msg);
  tk_ctx c;
  CHECK_MSG(!tk_open(&c, path, &e), "%s", e.msg);
  double w[4];
  long stride = (long)floor(0.01 / c.m.dt + 0.5), n = c.m.nsteps / stride;
  const char* why = every_step(&c, stride, w);
  tk_close(&c);
  CHECK_MSG(!why, "%s", why);
  printf("  laguna_piece: %ld frames, hand %.2e m, foot %.2e m, length %.2e m, lean %.1f deg\n", n, w[0], w[1], w[2], w[3] * 180 / MT_PI);
  CHECK_MSG(w[3] > 40 * MT_PI / 180, "the piece leans only %.1f deg", w[3] * 180 / MT_PI);
  CHECK_MSG(w[0] <= 0.005 && w[1] <= 0.005, "hand %.4f m, foot %.4f m from the grips and pegs", w[0], w[1]);
  CHECK_MSG(w[2] < 1e-9, "a bone's length changed by %.3g m", w[2]);
}

MT_TEST(skeleton_hands_hold_the_grips_at_full_steer_lock_both_ways) {
  /* the reference machine with the bars turned to the rig's lock each way (the steering body
   * about the steer axis through its anchor): both hands on their grips, the elbows still out */
  rig* rg = mt_test_load_sport();
  CHECK(rg);
  sk_skeleton sk;
  CHECK(sk_build(rg, &sk) == 0);
  const rig_joint* j = &rg->joint[rg->j_steer];
  CHECK(rg->steer_lock > 0.3);
  for (int way = -1; way <= 1; way += 2) {
    sk_frame_in in;
    reference(&sk, &in);
    double a = way * rg->steer_lock, s = sin(0.5 * a);
    double* q = in.body[SK_BODY_STEERING] + 3;
    q[0] = cos(0.5 * a), q[1] = s * j->axis[0], q[2] = s * j->axis[1], q[3] = s * j->axis[2];
    sk_pose_out po;
    sk_pose(&sk, &in, &po);
    printf("  lock %+.1f deg: hands %.2e %.2e m\n", a * 180 / MT_PI, po.hand_miss[0], po.hand_miss[1]);
    CHECK_MSG(po.hand_miss[0] <= 0.005 && po.hand_miss[1] <= 0.005, "at %+.2f rad: hands %.4f, %.4f m off", a, po.hand_miss[0],
              po.hand_miss[1]);
    CHECK(po.bone[SK_LFOREARM].head[1] > po.bone[SK_LHAND].head[1] - 0.02 && po.bone[SK_RFOREARM].head[1] < po.bone[SK_RHAND].head[1] + 0.02);
    CHECK(po.bone[SK_LFOREARM].head[2] < po.bone[SK_LARM].head[2]);   /* elbows below the shoulders */
  }
  rig_free(rg);
}

MT_TEST(skeleton_inside_knee_slider_on_the_road_at_racing_lean) {
  /* knee_turn: a steady turn at about the race lap's 53.7°: the inside knee's slider within 1 cm
   * of the road (and not through it), the outside knee well clear; hands and feet still on */
  mt_err e = {0};
  const char* path = mt_test_take("knee_turn", &e);
  CHECK_MSG(path, "%s", e.msg);
  tk_ctx c;
  CHECK_MSG(!tk_open(&c, path, &e), "%s", e.msg);
  double best = 0, t = 0;
  for (long i = 0; i < c.m.nsteps; i += 10) {   /* the frame of largest lean */
    double p[3], R[9];
    sc_motion_pose_at(&c.m, c.sm.body[SK_BODY_FRAME], i * c.m.dt, p, R);
    double lean = fabs(atan2(R[7], R[8]));
    if (lean > best) best = lean, t = i * c.m.dt;
  }
  sk_frame_in in;
  sk_pose_out po;
  sk_motion_frame(&c.sm, t, &in);
  sk_pose(&c.sk, &in, &po);
  int inside = po.bone[SK_LLEG].head[2] < po.bone[SK_RLEG].head[2] ? 0 : 1;
  tk_close(&c);
  printf("  lean %.1f deg at %.3f s: knee sliders %.4f (inside) and %.4f m above the road\n", best * 180 / MT_PI, t,
         po.knee_height[inside], po.knee_height[1 - inside]);
  CHECK_MSG(best > 52 * MT_PI / 180, "the turn leans only %.1f deg", best * 180 / MT_PI);
  CHECK_MSG(po.knee_height[inside] >= -0.001 && po.knee_height[inside] <= 0.01, "inside knee %.4f m above the road", po.knee_height[inside]);
  CHECK(po.knee_height[1 - inside] > 0.3);
  CHECK(po.hand_miss[0] <= 0.005 && po.hand_miss[1] <= 0.005 && po.foot_miss[0] <= 0.005 && po.foot_miss[1] <= 0.005);
}

/* The reference machine and rider rolled by angle a about the x axis through the rear contact
 * (the whole machine leaned, no steer). */
static void rolled(const sk_skeleton* sk, double a, sk_frame_in* in) {
  reference(sk, in);
  double c = cos(a), s = sin(a), qc = cos(0.5 * a), qs = sin(0.5 * a);
  for (int b = 0; b < SK_NBODY; b++) {
    double* p = in->body[b];
    double y = p[1], z = p[2];
    p[1] = c * y - s * z, p[2] = s * y + c * z;
    p[3] = qc, p[4] = qs;   /* (cos a/2, sin a/2 x) times the identity */
  }
}

MT_TEST(skeleton_head_counter_rolls_toward_level_and_turns_to_the_look_point) {
  /* the machine leaned 40° right: the torso rolls 40°, the head 0.8 of that back (8° left),
   * within the neck's 45°; a look point to the left turns the head left */
  rig* rg = mt_test_load_sport();
  CHECK(rg);
  sk_skeleton sk;
  CHECK(sk_build(rg, &sk) == 0);
  sk_frame_in in;
  sk_pose_out po;
  rolled(&sk, 40 * MT_PI / 180, &in);
  sk_pose(&sk, &in, &po);
  const double* q = po.bone[SK_HEAD].quat;   /* the head's local x (left at rest): its height is sin(roll) */
  double xz = 2 * (q[1] * q[3] - q[0] * q[2]);
  double roll = asin(xz) * 180 / MT_PI;
  printf("  machine 40 deg: head rolled %.2f deg\n", roll);
  CHECK_MSG(fabs(roll - 8) < 0.5, "the head rolled %.2f deg, not 40 - 0.8·40 = 8", roll);
  reference(&sk, &in);
  in.look[0] = sk.bone[SK_HEAD].head[0] + 10, in.look[1] = 10;   /* 45° to the left */
  sk_pose(&sk, &in, &po);
  q = po.bone[SK_HEAD].quat;   /* the head's local z (forward at rest) turned toward +y */
  double zy = 2 * (q[2] * q[3] - q[0] * q[1]), zx = 2 * (q[1] * q[3] + q[0] * q[2]);
  printf("  look 45 deg left: head turned %.2f deg\n", atan2(zy, zx) * 180 / MT_PI);
  CHECK_MSG(fabs(atan2(zy, zx) * 180 / MT_PI - 45) < 1, "the head turned %.2f deg toward a point 45 deg left", atan2(zy, zx) * 180 / MT_PI);
  rig_free(rg);
}

MT_TEST(skeleton_foot_down_at_rest_blends_in_over_0_3_s) {
  /* upright and stopped: the left foot goes down to the road beside its peg, the weight rising
   * linearly to 0.5 at 0.15 s and 1 at 0.3 s (smoothstep on the pose), the foot moving without a
   * jump; the right foot stays on its peg, the hands on the grips */
  rig* rg = mt_test_load_sport();
  CHECK(rg);
  sk_skeleton sk;
  CHECK(sk_build(rg, &sk) == 0);
  sk_frame_in in;
  sk_pose_out po;
  reference(&sk, &in);
  in.speed = 0.2;
  double prev[3], jump = 0;
  sk_pose(&sk, &in, &po);
  memcpy(prev, po.bone[SK_LFOOT].tail, sizeof prev);
  for (int i = 1; i <= 40; i++) {
    sk_release_step(&in.rel, &sk, &in, 0.01);
    if (i == 15) CHECK_NEAR(in.rel.foot[0], 0.5, 1e-9);
    sk_pose(&sk, &in, &po);
    jump = fmax(jump, blen(prev, po.bone[SK_LFOOT].tail));
    memcpy(prev, po.bone[SK_LFOOT].tail, sizeof prev);
  }
  CHECK(in.rel.foot[0] == 1 && in.rel.foot[1] == 0 && in.rel.fall == 0);
  CHECK(po.released == SK_REL_FOOT_L);
  double ball = po.bone[SK_LFOOT].tail[2];
  printf("  foot down: ball %.4f m above the road, %.3f m out; largest move in 10 ms %.4f m\n", ball,
         po.bone[SK_LFOOT].tail[1] - sk.pts.peg[0][1], jump);
  CHECK_MSG(fabs(ball) <= 0.005, "the foot's ball is %.4f m above the road", ball);
  CHECK(po.bone[SK_LFOOT].tail[1] > sk.pts.peg[0][1] + 0.1);
  CHECK_MSG(jump < 0.03, "the foot jumped %.4f m in 10 ms", jump);
  CHECK(po.foot_miss[1] <= 0.005 && po.hand_miss[0] <= 0.005 && po.hand_miss[1] <= 0.005);
  rig_free(rg);
}

MT_TEST(skeleton_fall_lets_go_of_the_bars_smoothly) {
  /* leaned past 65° with the bars at full lock: the fall weight rises over 0.3 s; the hands
   * leave the grips without a jump and end held to the torso as at rest; bone lengths kept */
  rig* rg = mt_test_load_sport();
  CHECK(rg);
  sk_skeleton sk;
  CHECK(sk_build(rg, &sk) == 0);
  sk_frame_in in;
  sk_pose_out po;
  rolled(&sk, 70 * MT_PI / 180, &in);
  const rig_joint* j = &rg->joint[rg->j_steer];
  double* qs = in.body[SK_BODY_STEERING] + 3, h = 0.5 * rg->steer_lock;   /* the bars at lock, in the leaned machine */
  double lock[4] = {cos(h), sin(h) * j->axis[0], sin(h) * j->axis[1], sin(h) * j->axis[2]}, lean[4] = {qs[0], qs[1], qs[2], qs[3]};
  qs[0] = lean[0] * lock[0] - lean[1] * lock[1], qs[1] = lean[0] * lock[1] + lean[1] * lock[0];
  qs[2] = lean[0] * lock[2] - lean[1] * lock[3], qs[3] = lean[0] * lock[3] + lean[1] * lock[2];
  double prev[3], jump = 0;
  sk_pose(&sk, &in, &po);
  CHECK(po.hand_miss[0] <= 0.005);
  memcpy(prev, po.bone[SK_LHAND].head, sizeof prev);
  for (int i = 1; i <= 30; i++) {
    sk_release_step(&in.rel, &sk, &in, 0.01);
    sk_pose(&sk, &in, &po);
    jump = fmax(jump, blen(prev, po.bone[SK_LHAND].head));
    memcpy(prev, po.bone[SK_LHAND].head, sizeof prev);
    for (int b = 0; b < sk.nbone; b++)
      CHECK(fabs(blen(po.bone[b].head, po.bone[b].tail) - blen(sk.bone[b].head, sk.bone[b].tail)) < 1e-9);
  }
  CHECK_NEAR(in.rel.fall, 1, 1e-9);
  CHECK(po.released & SK_REL_FALL);
  /* fully released: the forearm's frame is the torso's rotation times its rest frame */
  double q[4];
  sk_rest_quat(&sk.bone[SK_LFOREARM], q);
  double rq[4] = {in.body[SK_BODY_TORSO][3], in.body[SK_BODY_TORSO][4], in.body[SK_BODY_TORSO][5], in.body[SK_BODY_TORSO][6]};
  double t[4] = {rq[0] * q[0] - rq[1] * q[1] - rq[2] * q[2] - rq[3] * q[3], rq[0] * q[1] + rq[1] * q[0] + rq[2] * q[3] - rq[3] * q[2],
                 rq[0] * q[2] - rq[1] * q[3] + rq[2] * q[0] + rq[3] * q[1], rq[0] * q[3] + rq[1] * q[2] - rq[2] * q[1] + rq[3] * q[0]};
  double d = fabs(t[0] * po.bone[SK_LFOREARM].quat[0] + t[1] * po.bone[SK_LFOREARM].quat[1] + t[2] * po.bone[SK_LFOREARM].quat[2] +
                  t[3] * po.bone[SK_LFOREARM].quat[3]);
  printf("  fall: hands %.3f %.3f m off the grips; largest hand move in 10 ms %.4f m\n", po.hand_miss[0], po.hand_miss[1], jump);
  CHECK_MSG(fabs(d - 1) < 1e-9, "released forearm not rigid on the torso (|q·p| = %.12f)", d);
  CHECK_MSG(jump < 0.03, "the hand jumped %.4f m in 10 ms", jump);
  CHECK(po.hand_miss[0] > 0.05 && po.hand_miss[1] > 0.05);
  rig_free(rg);
}

MT_TEST(skeleton_sized_by_the_rigs_rider_height_bad_heights_refused) {
  /* rider.height = 1.60: every rest segment 1.60/1.78 of the default's (the pose differs: the
   * trunk leans to reach the same grips); 3 m and 1.2 m are refused naming the file and field */
  char path[4096];
  snprintf(path, sizeof path, "%s/rigs/sport1000.lua", mt_test_root());
  mt_err e = {0};
  const char* small[] = {"rider.height=1.60"};
  rig *a = rig_load(path, NULL, 0, &e), *b = rig_load(path, small, 1, &e);
  CHECK_MSG(a && b, "%s", e.msg);
  sk_skeleton ska, skb;
  CHECK(sk_build(a, &ska) == 0 && sk_build(b, &skb) == 0);
  CHECK(skb.height == 1.60);
  for (int i = 0; i < SK_NBONE; i++)
    CHECK_NEAR(blen(skb.bone[i].head, skb.bone[i].tail) / blen(ska.bone[i].head, ska.bone[i].tail), 1.60 / 1.78, 1e-9);
  rig_free(a), rig_free(b);
  const char* bad[][1] = {{"rider.height=3"}, {"rider.height=1.2"}};
  for (int k = 0; k < 2; k++) {
    mt_err e2 = {0};
    CHECK(rig_load(path, bad[k], 1, &e2) == NULL);
    CHECK_MSG(e2.code == MT_EINPUT && strstr(e2.msg, "sport1000.lua:") && strstr(e2.msg, "'height'"), "%s", e2.msg);
  }
}

MT_TEST(skeleton_live_frame_keeps_the_feet_on_the_pegs) {
  /* the ride window's live motion repeats one pose at every step: sk_motion_frame reads no speed
   * there (0: a foot would go down), sk_motion_frame_live rides on with both feet on the pegs and
   * looks SK_LIVE_LOOK m along the heading it is given */
  mt_err e = {0};
  const char* path = mt_test_take("laguna_piece", &e);   /* upright on the straight at 2 s */
  CHECK_MSG(path, "%s", e.msg);
  tk_ctx c;
  CHECK_MSG(!tk_open(&c, path, &e), "%s", e.msg);
  long step = (long)floor(2.0 / c.m.dt + 0.5), row = 7L * c.m.nb;
  for (long i = 0; i < c.m.nsteps; i++)   /* one pose at every step, as chase_scene_set_live makes it */
    if (i != step) memcpy(c.m.pose + i * row, c.m.pose + step * row, sizeof(float) * row);
  sk_frame_in in, live;
  sk_pose_out po;
  sk_motion_frame(&c.sm, 2.0, &in);
  sk_motion_frame_live(&c.sm, 2.0, 0, 1, &live);
  sk_pose(&c.sk, &live, &po);
  double lx = live.look[0] - live.body[SK_BODY_FRAME][0], ly = live.look[1] - live.body[SK_BODY_FRAME][1];
  tk_close(&c);
  CHECK_MSG(in.speed == 0 && in.rel.foot[0] + in.rel.foot[1] == 1, "replayed: speed %g, feet %g %g", in.speed, in.rel.foot[0], in.rel.foot[1]);
  CHECK_MSG(live.rel.foot[0] == 0 && live.rel.foot[1] == 0 && live.rel.fall == 0, "live: feet %g %g, fall %g", live.rel.foot[0],
            live.rel.foot[1], live.rel.fall);
  CHECK(po.foot_miss[0] <= 0.005 && po.foot_miss[1] <= 0.005 && po.released == 0);
  CHECK_NEAR(lx, 0, 1e-3);
  CHECK_NEAR(ly, SK_LIVE_LOOK, 1e-3);
}
