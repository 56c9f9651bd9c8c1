/* rig_motion.h — a synthetic motion of a rig into glTF/GLB or FBX (module prefix ex_): for
 * motions no take recorded, such as a linear mode shape (app/modes_anim.h). The bodies are the
 * ones a take records (the rig's bodies, then the shock linkage's parts: takes/recorder.h
 * rec_nbody/rec_body_name/rec_body_parent), with the rig's real shapes (scene/take_bodies.h);
 * poses are world poses in that order (x y z qw qx qy qz), nframes of them at fps. No road. */
#ifndef EX_RIG_MOTION_H
#define EX_RIG_MOTION_H

#include "exporters/motion.h"
#include "sim/rig.h"

int ex_rig_motion_export(const rig* r, const double* pose, long nframes, double fps, const char* name, const char* path,
                         ex_report* rep, mt_err* e);

#endif
