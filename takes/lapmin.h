/* lapmin.h — the machine's minimum lap time on a track's line: binds a track to the rider's line
 * (takes/path.h, the same line a take rides) and runs sim/lapsim.h's QSS lap on it.
 *
 * Contract: lapmin_track_road gives the path builder the track's centre line, widths and grade.
 * lapmin_line builds the line a script's rider would ride (kind PATH_*, offset, margin; the
 * runner's 2 m step) — path_free it. lapmin_run fills the lapsim line from the path (curvature,
 * vertical curvature, grade; with along_line, the line's own length per sample, its chords:
 * the machine's minimum lap on that line, what `lapsim` and the race summary print; without,
 * the centre line's 2 m steps, what the race profile's plan was tuned on), runs lapsim at `grip`
 * and, when v is given, leaves the minimum-time speeds in it (path->n values). Deterministic:
 * same rig, track and line, same answer. */
#ifndef LAPMIN_H
#define LAPMIN_H

#include "sim/lapsim.h"
#include "sim/track.h"
#include "takes/path.h"

path_road lapmin_track_road(const track* t);
path* lapmin_line(const track* t, int kind, double offset, double margin);
/* MT_OK, or MT_EINPUT (a line of fewer than two samples) */
int lapmin_run(const lapsim_machine* m, const path* p, double grip, int along_line, double* v, lapsim_result* res);
/* lapmin_run with the curvature k (p->n values, 1/m) in place of the line's own (NULL: the
 * line's): the race profile's plan on the curvature its rider's lean follows (takes/run.c) */
int lapmin_run_k(const lapsim_machine* m, const path* p, const double* k, double grip, int along_line, double* v,
                 lapsim_result* res);

#endif
