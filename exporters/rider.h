/* rider.h — the rider's skeleton (scene/skeleton.h) posed at every step of a take, for the
 * exports that carry it: `export --armature` (the character, exporters/character.h) and BVH
 * (exporters/bvh.h). One posing for both, so the BVH and the armature show the same rider.
 *
 * sk_pose's input at step i is scene/skel_take.h's at t = i·dt (the bodies, the road under the
 * rider from the take's track, the look point 1.5 s ahead, the release blend), the same input the
 * Cairo views pose from. The bones' world poses are kept at every step, so that exports sample
 * them at exact frame times the way they sample the bodies (exporters/keys.h: linear positions,
 * slerp rotations): an export at a rate dividing the take's has sk_pose's own poses at its frames. */
#ifndef EX_RIDER_H
#define EX_RIDER_H

#include "base/mt.h"
#include "exporters/character.h"
#include "scene/skeleton.h"
#include "sim/rig.h"
#include "scene/motion.h"

typedef struct ex_rider {
  sk_skeleton sk;
  int nbone;
  long nsteps;
  double dt;
  double* pose;            /* nsteps × nbone × 7: each bone's world head and orientation (z up) */
  int body[SK_NBODY];      /* the motion's index of each body sk_pose reads */
  double hand_miss, foot_miss;   /* the largest miss (m) over the steps where the IK holds */
} ex_rider;

/* Pose the rider of rig rg at every step of motion mo (scene/motion.h, with its poses read).
 * MT_EINPUT when the rig has no rider skeleton (sk_build) or the motion lacks a body it reads. */
int ex_rider_build(const rig* rg, const sc_motion* mo, ex_rider* out, mt_err* e);
/* The character of --armature: the rider's bones as bodies first_body.., hung from the take's
 * rider_pelvis body (Hips under it), in suit and helmet colours, radii scaled by its height. */
void ex_rider_character(const ex_rider* r, int first_body, const double suit[4], const double helmet[4],
                        ex_character* c);
/* The rider's bones alone as BVH at t = from + k/fps, k = 0..floor((to − from)·fps) (bvh.h). */
int ex_rider_bvh(const ex_rider* r, double from, double to, double fps, const char* path, long* frames, mt_err* e);
void ex_rider_free(ex_rider* r);

#endif
