/* motion.h — a take's bodies in motion, as the cameras (scene/cameras.h) and the chase view
 * (render/chase.h) follow them (module prefix sc_motion_).
 *
 * Contents:
 *   - sc_motion: the body names and root, every step's body poses in single precision, the
 *     track, and each body frame's origin in the rig's coordinates;
 *   - built from an open take in three stages, so that a caller can check its own input (a
 *     camera's name) between them: sc_motion_begin (the body tree: cheap),
 *     sc_motion_rebuild (the rig with the take's overrides and the track, from the embedded
 *     sources), sc_motion_read_poses (every step's poses: the take's or the caller's);
 *     or from given bodies and poses (sc_motion_from_poses: no track, no origins);
 *   - sc_motion_pose_at: a body's pose at any time, interpolated;
 *   - sc_motion_decodes: how many times a take's poses were read (tests: a caller decodes a
 *     take once).
 * Promises: the poses are the take's TAKE_POSE rows rounded to float (a 150 s lap of 12 bodies:
 * 50 MB), the same numbers whether read here or handed over by the caller; interpolation is
 * deterministic (same inputs, same bits). Errors: one line in e, MT_EINPUT for the take's
 * content (too few steps, a rig or track that does not rebuild, unreadable poses); the motion
 * is then half built and must still be freed. The motion owns everything it points to;
 * sc_motion_free frees it (a zeroed motion frees to nothing). */
#ifndef SC_MOTION_H
#define SC_MOTION_H

#include "base/mt.h"
#include "sim/rig.h"
#include "sim/track.h"
#include "takes/takefile.h"

typedef struct sc_motion {
  int nb, root;              /* bodies; the root body (the frame; the first without a parent) */
  char** names;              /* nb body names */
  long nsteps;               /* ≥ 1 (≥ 2 from a take) */
  double dt;                 /* s between steps */
  float* pose;               /* nsteps × nb × 7: x y z qw qx qy qz, world, z up; NULL before
                                sc_motion_read_poses */
  track* tk;                 /* NULL: no road */
  double tlen;               /* the track's length (m) and whether it is a loop */
  int closed;
  double (*origin)[3];       /* nb body frames' origins in the rig's coordinates
                                (scene/take_bodies.h); NULL for a motion not from a take */
} sc_motion;

/* Stage 1: the body tree of take r (names, root, steps, timestep). A take of fewer than two
 * steps is MT_EINPUT ("chase: the take has N steps (needs at least 2)"). */
int sc_motion_begin(sc_motion* m, take_reader* r, mt_err* e);
/* Stage 2: the rig (with the take's overrides: the bodies as ridden) and the track, rebuilt
 * from the take; the body origins. rg: NULL, or where to hand over the rig (the caller frees
 * it with rig_free), for a caller that also wants the bodies' shapes. */
int sc_motion_rebuild(sc_motion* m, take_reader* r, rig** rg, mt_err* e);
/* Stage 3: every step's poses: poses (nsteps × nb × 7, as take_read gives them; not kept), or
 * when NULL the take's, read chunk by chunk (counted by sc_motion_decodes). */
int sc_motion_read_poses(sc_motion* m, take_reader* r, const double* poses, mt_err* e);
/* A motion of nb bodies named names (NULL entries: "") with poses as above at t = i·dt;
 * root 0, no track, no origins. */
void sc_motion_from_poses(sc_motion* m, int nb, const char* const* names, const double* poses, long nsteps, double dt);
void sc_motion_free(sc_motion* m);

/* t clamped to [0, (nsteps − 1)·dt]. */
double sc_motion_clamp(const sc_motion* m, double t);
/* Body b at time t (s; clamped): position p and rotation R (row-major), positions
 * interpolated linearly and orientations by slerp between the two steps around t. */
void sc_motion_pose_at(const sc_motion* m, int b, double t, double p[3], double R[9]);
/* The rotation matrix (row-major) of unit quaternion q = w x y z. */
void sc_quat_mat(const double q[4], double R[9]);

/* Takes' poses read by sc_motion_read_poses (poses NULL) in this process. */
long sc_motion_decodes(void);

#endif
