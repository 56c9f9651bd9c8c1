/* rider.h — the rider's skeleton (scene/skeleton.h) posed at every step of a take, for the
 * exports that carry it: `export --armature` (the character, exporters/character.h) and BVH
 * (exporters/bvh.h). One posing for both, so the BVH and the armature show the same rider.
 *
 * What sk_pose gets at step i (sk_frame_in):
 *  - the world poses of frame, steering, rider_pelvis and rider_torso at that step;
 *  - the road under the rider: the take's track (track_query: height and normal);
 *  - the look point: the frame body's position EX_RIDER_LOOK_S later in the take (the path ahead;
 *    the last pose's at the end), or, when that is closer than EX_RIDER_LOOK_MIN (at rest), a point
 *    that far ahead along the frame's heading;
 *  - the speed: the frame body's central difference; fall: 0 (sk_release_step lets go past
 *    SK_FALL_LEAN on its own); the release weights stepped from zero at the take's first step.
 * The bones' world poses are kept at every step, so exports sample them at exact frame times the
 * way they sample the bodies (exporters/keys.h: linear positions, slerp rotations). */
#ifndef EX_RIDER_H
#define EX_RIDER_H

#include "base/mt.h"
#include "exporters/character.h"
#include "scene/skeleton.h"
#include "sim/rig.h"
#include "sim/track.h"

#define EX_RIDER_LOOK_S 1.5
#define EX_RIDER_LOOK_MIN 3.0

typedef struct ex_rider {
  sk_skeleton sk;
  int nbone;
  long nsteps;
  double dt;
  double* pose;            /* nsteps × nbone × 7: each bone's world head and orientation (z up) */
  int body[SK_NBODY];      /* the take's index of each body sk_pose reads */
  double hand_miss, foot_miss;   /* the largest miss (m) over the steps where the IK holds */
} ex_rider;

/* Pose the rider of rig rg over a take's poses (nsteps × nbody × 7 world, bodies named names[]).
 * MT_EINPUT naming the rig's missing part when it has no rider skeleton (sk_build) or the take
 * lacks a body it reads. tk may be NULL (the plane z = 0). */
int ex_rider_build(const rig* rg, const track* tk, const char* const* names, int nbody, const double* pose,
                   long nsteps, double dt, ex_rider* out, mt_err* e);
/* The character of --armature: the rider's bones as bodies first_body.., hung from the take's
 * rider_pelvis body (Hips under it), in suit and helmet colours, radii scaled by its height. */
void ex_rider_character(const ex_rider* r, int first_body, const double suit[4], const double helmet[4],
                        ex_character* c);
/* The rider's bones alone as BVH at t = from + k/fps, k = 0..floor((to − from)·fps) (bvh.h). */
int ex_rider_bvh(const ex_rider* r, double from, double to, double fps, const char* path, long* frames, mt_err* e);
void ex_rider_free(ex_rider* r);

#endif
