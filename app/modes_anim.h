/* modes_anim.h — a mode shape made visible (module prefix mode_anim_): the trimmed state x0
 * moved along the mode's eigenvector, x(t) = x0 ⊕ a·Re(v·e^{iωt}) (the tangent state, the
 * configuration by mj_integratePos), sampled over whole cycles so it loops, with the decay or
 * growth left out and the forward travel and wheel spin of the steady state left out (the
 * machine stays in place, the picture shows only the mode). The amplitude a makes the largest
 * angle of the mode's dominant joint (steer for wobble and chatter, roll for weave and capsize)
 * `amplitude_deg` (default: 4 deg weave/capsize, 3 deg wobble, 1.5 deg chatter). A real root
 * (capsize) is shown as x0 ⊕ a·v·sin(ωt) with ω = 1 Hz, a back-and-forth along its shape.
 * Written through the exporter (every recorded body, the rig's real shapes) to .glb/.gltf, or
 * drawn as side and rear elevations with the renderer's shape drawing into an .mp4. */
#ifndef MODES_ANIM_H
#define MODES_ANIM_H

#include "sim/modes.h"

typedef struct mode_anim_opts {
  double cycles;          /* whole cycles shown (default 3) */
  double amplitude_deg;   /* 0: the default for the mode */
  double fps;             /* frames per second (default 30) */
  double cycle_s;         /* seconds per cycle in the output (0: real time, slowed so a cycle lasts at least 1 s) */
  int quiet;              /* 1: no frame progress bar for an .mp4 (else on a terminal or with
                           * MOTOTAKE_PROGRESS set: base/progress.h) */
} mode_anim_opts;

void mode_anim_defaults(mode_anim_opts* o);
/* MT_EINPUT unless path ends in .glb, .gltf or .mp4. */
int mode_anim_check_path(const char* path, mt_err* e);
typedef struct mode_anim_info {
  long nframes, per_cycle;   /* frames in all, and per cycle (frame f + per_cycle repeats frame f) */
  double period;             /* s, the mode's own period (1 s for a real root) */
  double shown_period;       /* s, a cycle's length in the output (slowed to 1.5 s if faster) */
  double amplitude_deg;      /* the dominant coordinate's peak */
  int steer;                 /* 1: the dominant coordinate is the steer angle; 0: the roll */
} mode_anim_info;

/* The looping poses (nframes × rec_nbody × 7, world; free()) of mode m at point p; v is left in
 * its state bit for bit. NULL with e set when the point holds no eigenvectors. */
double* mode_anim_poses(vehicle* v, const md_point* p, const md_mode* m, const mode_anim_opts* o, mode_anim_info* info,
                        mt_err* e);
/* Write mode m of point p (md_solve with keep_vectors) of vehicle v to path. Prints one line. */
int mode_anim_write(vehicle* v, const md_point* p, const md_mode* m, const mode_anim_opts* o, const char* path, mt_err* e);

#endif
