/* skeleton.h — the rider as a humanoid skeleton, and its pose every frame from the physics
 * (issue 32; module prefix sk_). THE CONTRACT between the scene layer (this, S1) and the exporters
 * (armature, BVH) and the Cairo views: keep its shape; any change is announced here.
 *
 * Bones: the Mixamo/BVH names without prefix, which Blender's BVH importer and the retargeting
 * tools (Rokoko, Auto-Rig Pro, Mixamo) map by default. Hips is the root (index 0); every bone's
 * parent precedes it; the order is the SK_* enum below (LeftToeBase/RightToeBase included).
 *
 * Rest pose (sk_build): in the rig's coordinates (x forward from the rear contact, y left, z up,
 * m), the rider seated on the upright machine at steer 0, hands on the grips, feet on the pegs.
 * Segment lengths and masses: Winter, Biomechanics and Motor Control of Human Movement, table
 * 4.1 (after Dempster), fractions of the rig's rider height (rig.rider.height, default 1.78 m)
 * and of the rider's mass, which is derived so the segments of the physics' rider bodies add up
 * to those bodies (docs/rig.md, "The rider's skeleton").
 *
 * Bone frames (Blender's convention): a bone's local +y runs head → tail; its local +z is the
 * bone's `zaxis` (unit, perpendicular to head → tail; the rest pose's "roll"). sk_rest_quat gives
 * the rest orientation; sk_pose's world quaternions use the same axes.
 *
 * Pose (sk_pose): from the world poses of the bodies frame, steering, rider_pelvis and rider_torso
 * (the take's 7-vectors: x y z, qw qx qy qz; z up), the road under the rider and a look point,
 * every bone's WORLD head and orientation. Hips and Spine follow rider_pelvis, Spine1 and the
 * shoulders rider_torso (Spine takes half the tuck); arms and legs by two-bone IK to the grips and
 * pegs (scene/rider_points.h), the inside knee opened out with the hang-off and at racing lean
 * onto the road; the head turned toward the look point and rolled back toward level. The IK is
 * let go on a foot down or a fall with the blend weights of sk_release (0.3 s, smooth).
 * scene/skel_take.h builds the input from a take's motion; docs/rig.md, "The rider's skeleton",
 * has the figures.
 *
 * Changes since the first commit of this header: none to the shape; sk_release_step's sk may be
 * NULL (it reads only the frame). */
#ifndef SK_SKELETON_H
#define SK_SKELETON_H

#include "scene/rider_points.h"
#include "sim/rig.h"

enum {
  SK_HIPS, SK_SPINE, SK_SPINE1, SK_NECK, SK_HEAD,
  SK_LSHOULDER, SK_LARM, SK_LFOREARM, SK_LHAND,
  SK_RSHOULDER, SK_RARM, SK_RFOREARM, SK_RHAND,
  SK_LUPLEG, SK_LLEG, SK_LFOOT, SK_LTOE,
  SK_RUPLEG, SK_RLEG, SK_RFOOT, SK_RTOE,
  SK_NBONE
};
#define SK_MAX_BONE 24

typedef struct sk_bone {
  const char* name;       /* "Hips", "LeftForeArm", ... (static strings) */
  int parent;             /* index, < own index; −1 for Hips */
  double head[3], tail[3];/* rest pose, rig coordinates, m */
  double mass;            /* kg (0: carried by another segment, e.g. the shoulders by the chest) */
  double zaxis[3];        /* rest local +z (unit, ⟂ head→tail): the bone's roll */
} sk_bone;

/* The physics bodies the pose reads, in sk_frame_in.body[] order. */
enum { SK_BODY_FRAME, SK_BODY_STEERING, SK_BODY_PELVIS, SK_BODY_TORSO, SK_NBODY };
extern const char* const sk_body_names[SK_NBODY];   /* "frame", "steering", "rider_pelvis", "rider_torso" */

typedef struct sk_skeleton {
  int nbone;                   /* SK_NBONE */
  sk_bone bone[SK_MAX_BONE];
  double height, mass;         /* the rider's, m and kg */
  /* what sk_pose needs from the rig (set by sk_build) */
  sc_rider_points pts;
  double origin[SK_NBODY][3];  /* each body's frame origin, rig coordinates (scene/take_bodies.h) */
} sk_skeleton;

/* Build the skeleton of rig rg's rider. 0 on success; −1 if the rig lacks a body the rider needs
 * (sk_body_names, the grips, the pegs): such a rig has no skeleton (out is zeroed). */
int sk_build(const rig* rg, sk_skeleton* out);
/* The rest orientation of bone b (w x y z): local y = head→tail, local z = zaxis. */
void sk_rest_quat(const sk_bone* b, double q[4]);

/* The road under a point: its height z at (x, y) and unit normal n. */
typedef double (*sk_road_fn)(void* ctx, double x, double y, double n[3]);

/* How far the IK is let go: 0 holds (hands on grips, feet on pegs), 1 released; smoothed in
 * time by sk_release_step. */
typedef struct sk_release {
  double foot[2];        /* [0] left, [1] right foot down to the road */
  double fall;           /* hands and feet off the machine, limbs held to the body */
} sk_release;

typedef struct sk_frame_in {
  double body[SK_NBODY][7];    /* world poses: x y z qw qx qy qz (z up) */
  sk_road_fn road;             /* NULL: the plane z = 0 */
  void* road_ctx;
  double look[3];              /* world point the rider looks at (e.g. the path ~1.5 s ahead) */
  double speed;                /* m/s, the machine's */
  int fall;                    /* a crash or fall event is on */
  sk_release rel;              /* the release blend for this frame (sk_release_step) */
} sk_frame_in;

/* Advance r by dt (s) toward what frame in calls for, each weight moving at most dt/SK_RELEASE_S:
 * a foot goes down below SK_FOOTDOWN_SPEED within 0.15 rad of upright (the side the machine
 * leans to, the left when upright); a fall when in->fall or the lean passes SK_FALL_LEAN. Reads
 * only in->body[SK_BODY_FRAME]'s orientation, in->speed and in->fall (sk may be NULL). Start from
 * a zeroed r; dt ≤ 0 sets the weights to their targets at once (a still). sk_pose applies a
 * weight w as the smoothstep 3w² − 2w³, so a limb starts and stops gently. */
#define SK_RELEASE_S 0.3
#define SK_FOOTDOWN_SPEED 1.0
#define SK_FALL_LEAN 1.13     /* rad, 65°: past any lean the machine holds */
void sk_release_step(sk_release* r, const sk_skeleton* sk, const sk_frame_in* in, double dt);

typedef struct sk_bone_pose {
  double head[3], tail[3];     /* world, m */
  double quat[4];              /* world orientation, w x y z: local y = head→tail */
} sk_bone_pose;

enum { SK_REL_FOOT_L = 1, SK_REL_FOOT_R = 2, SK_REL_FALL = 4 };

typedef struct sk_pose_out {
  sk_bone_pose bone[SK_MAX_BONE];
  double hand_miss[2];         /* m: hand's grip point to its grip ([0] left), 0 when reached */
  double foot_miss[2];         /* m: foot's peg point to its peg */
  double knee_height[2];       /* m: each knee slider's height above the road under it */
  int released;                /* SK_REL_* bits: the IK let go (weight > 0) */
} sk_pose_out;

/* Pose sk for frame in. Bone lengths are the rest lengths exactly; a target out of reach
 * straightens the limb toward it and the miss is reported. Never fails. */
void sk_pose(const sk_skeleton* sk, const sk_frame_in* in, sk_pose_out* out);

#endif
