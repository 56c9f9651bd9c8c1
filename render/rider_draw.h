/* rider_draw.h — the rider's skeleton (scene/skeleton.h) as the Cairo views draw it (module
 * prefix rk_): a limb is a capsule on a bone (or the helmet, a sphere on the head), given in the
 * bone's frame (y along the bone, as sk_pose's quaternions turn it) with the rig's shape types,
 * so the side and rear views draw it with rd_draw_shape and the chase view tessellates it like
 * any body's shape. Sizes: a 1.78 m rider's (ours: the suit over Winter's segments) scaled by
 * the skeleton's height; colours: the rig's rider (the suit rider_pelvis's first shape's, the
 * helmet rider_torso's sphere's), boots and gloves black.
 * Contract: rk_limbs fills at most RK_MAX_LIMB limbs and never fails; rk_limb_world only computes. */
#ifndef RK_RIDER_DRAW_H
#define RK_RIDER_DRAW_H

#include "scene/skeleton.h"
#include "sim/rig.h"

#define RK_MAX_LIMB 24

typedef struct rk_limb {
  int bone;               /* SK_* */
  rig_shape shape;        /* RIG_CAPSULE (a, b, radius) or RIG_SPHERE (a, b[0] radius), bone frame */
} rk_limb;

int rk_limbs(const rig* rg, const sk_skeleton* sk, rk_limb out[RK_MAX_LIMB]);
/* Limb l with its bone posed (po): the shape in world coordinates. */
void rk_limb_world(const rk_limb* l, const sk_pose_out* po, rig_shape* out);
/* A limb's centre in world coordinates (for depth sorting). */
void rk_limb_centre(const rk_limb* l, const sk_pose_out* po, double c[3]);

#endif
