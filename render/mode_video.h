/* mode_video.h — a synthetic motion of a rig as a video (module prefix mv_): each frame shows the
 * side elevation (from the right), the rear elevation (from behind) and the plan (from above,
 * forward up) of every recorded body
 * (the rig's shapes and the linkage parts, drawn with render/rig_draw.h as the renderer's side
 * and rear views draw them, back to front), a caption and a time line. Poses as
 * exporters/rig_motion.h (world, rec_* body order). Output by render/frames.h (.mp4, or PNGs). */
#ifndef MODE_VIDEO_H
#define MODE_VIDEO_H

#include "sim/rig.h"

/* progress: 1 for the frame progress bar on stderr when it is a terminal or MOTOTAKE_PROGRESS is
 * set (base/progress.h), 0 for none. */
int mv_write(const rig* r, const double* pose, long nframes, double fps, const char* caption, const char* path, int progress,
             mt_err* e);

#endif
