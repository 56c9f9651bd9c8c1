/* takepose.h — a take's body poses rebuilt from its state stream (take format 3, issue 18).
 *
 * The pose stream (every body's and linkage part's position and quaternion at every step) is a
 * pure function of the state stream: MuJoCo's forward kinematics of qpos plus veh_link_poses.
 * From format 3 the writer stores no pose chunks; a reader rebuilds the machine from the take's
 * embedded sources and overrides (replay_rebuild, as `take verify` does) and recomputes each
 * step's poses from its stored state. With the build that recorded the take the result is bit
 * for bit what the recording loop sampled (tests/unit/test_takepose.c); a later build gives the
 * poses of its own kinematics for the recorded states (docs/takefile.md).
 *
 * Contract: takepose_new fails (MT_EINPUT, one line) when the machine cannot be rebuilt or does
 * not have the bodies the take's schema names; takepose_fill writes 7·nbody values for one state
 * row and never allocates. Not thread-safe (one per reader). */
#ifndef TAKEPOSE_H
#define TAKEPOSE_H

#include "takes/take_reader.h"

typedef struct takepose takepose;

takepose* takepose_new(const take_reader* r, mt_err* e);
/* The poses (7·nbody: x y z qw qx qy qz per body, schema order) of one state row. */
void takepose_fill(takepose* p, const double* state, double* out);
void takepose_free(takepose* p);

#endif
