/* bvh.h — a skeleton's motion as a Biovision Hierarchy (BVH) file, the format every mocap and
 * retargeting tool reads (Blender's stock importer, MotionBuilder, Rokoko, Auto-Rig Pro).
 *
 * No library among our dependencies writes BVH (Assimp imports it but has no BVH exporter:
 * `assimp listexport`), and the format is a few lines of text, so this is a small writer.
 *
 * What is written (docs/export.md, "BVH"):
 *  - HIERARCHY: the bones in index order, a bone's parent before it. OFFSET of the root is its rest
 *    head; of every other joint its rest head minus its parent's rest head. A bone without
 *    children ends in an End Site at its rest tail. The root has 6 channels (Xposition Yposition
 *    Zposition Zrotation Xrotation Yrotation), every other joint 3 (Zrotation Xrotation Yrotation).
 *  - Axes: BVH is y-up: a z-up point (x, y, z) is written (x, z, -y), the same change as glTF's
 *    (exporters/xform.h, ex_yup_vec); Blender's BVH importer (forward -Z, up Y, its defaults) maps it
 *    back. Units: metres, so that Blender imports at true size with its default scale 1.0.
 *  - MOTION: a BVH joint has no rest orientation of its own: its rotation at a frame is the one that
 *    carries the rest skeleton's bone onto the frame's bone. For bone j with world orientation q_j
 *    and rest orientation r_j that world rotation is W_j = q_j r_j⁻¹, and the channel rotation is
 *    W_parent⁻¹ W_j, written as ZXY Euler angles in degrees (R = Rz Rx Ry). The root's position
 *    channels are its head's world position (absolute: Blender subtracts the root OFFSET itself).
 *    Joint positions are therefore the rest offsets carried by the rotations: the input must move
 *    every bone rigidly with its parent's rest offset, which a skeleton posed by rotations does.
 *
 * Contract: bone[0] is the root (parent -1), every other parent is a smaller index; names are
 * unique, non-empty and without white space; quaternions unit (w x y z). Violations → MT_EINPUT
 * naming the bone and field; nothing is written then. */
#ifndef EX_BVH_H
#define EX_BVH_H

#include "base/mt.h"

typedef struct ex_bvh_bone {
  const char* name;
  int parent;            /* -1 for bone 0, else < own index */
  double head[3], tail[3];   /* rest pose, z up, metres */
  double rest_q[4];      /* rest orientation (w x y z) in the same frame as the frames' quaternions */
} ex_bvh_bone;

typedef struct ex_bvh_motion {
  int nbone;
  const ex_bvh_bone* bone;
  long nframe;           /* >= 1 */
  double fps;            /* > 0: Frame Time = 1/fps */
  const double* pose;    /* nframe × nbone × 7: each bone's WORLD head x y z and orientation qw qx qy qz, z up */
} ex_bvh_motion;

/* The BVH text (caller frees), or NULL with e set (MT_EINPUT: the bone and field). */
char* ex_bvh_text(const ex_bvh_motion* m, size_t* len, mt_err* e);
/* Write it to path atomically (base/outfile.h: never a half-written file). */
int ex_bvh_write(const ex_bvh_motion* m, const char* path, mt_err* e);
/* ZXY Euler angles (rad; R = Rz(z) Rx(x) Ry(y)) of unit quaternion q, out = {z, x, y}. */
void ex_bvh_euler_zxy(const double q[4], double out[3]);

#endif
