/* rider.h — the rider's skeleton (scene/skeleton.h) posed at every step of a take, for the
 * exports that carry it: `export --armature` (the character, exporters/character.h) and BVH
 * (exporters/bvh.h). One posing for both, so the BVH and the armature show the same rider.
 *
 * sk_pose's input at time t is scene/skel_take.h's (the bodies, the road under the rider from the
 * take's track, the look point 1.5 s ahead, the release blend), the same input the Cairo views
 * pose from. For the armature the bones' world poses are kept at every step of the exported range,
 * so that the exporter samples them at exact frame times the way it samples the bodies
 * (exporters/keys.h: linear positions, slerp rotations); BVH poses the frame times themselves.
 * At a rate dividing the take's (30 fps of 1 kHz) both carry sk_pose's own poses at every frame. */
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
  double* pose;            /* nsteps × nbone × 7: each bone's world head and orientation (z up); the
                              steps before and after the range posed hold its first and last pose */
  int body[SK_NBODY];      /* the motion's index of each body sk_pose reads */
  double hand_miss, foot_miss;   /* the largest miss (m) over the steps where the IK holds */
} ex_rider;

/* Pose the rider of rig rg at every step of motion mo (scene/motion.h, with its poses read) from
 * the one at or before `from` to the one at or after `to` (s). MT_EINPUT when the rig has no rider
 * skeleton (sk_build) or the motion lacks a body it reads. */
int ex_rider_build(const rig* rg, const sc_motion* mo, double from, double to, ex_rider* out, mt_err* e);
/* The character of --armature: the rider's bones as bodies first_body.., hung from the take's
 * rider_pelvis body (Hips under it), in suit and helmet colours, radii scaled by its height. */
void ex_rider_character(const ex_rider* r, int first_body, const double suit[4], const double helmet[4],
                        ex_character* c);
/* The rider's bones alone as BVH (bvh.h), posed at t = from + k/fps, k = 0..floor((to − from)·fps);
 * *frames gets the count, miss the IK's largest hand and foot misses (m) where it holds. */
int ex_rider_bvh(const rig* rg, const sc_motion* mo, double from, double to, double fps, const char* path, long* frames,
                 double miss[2], mt_err* e);
void ex_rider_free(ex_rider* r);

#endif
