/* linkage.h — the rear suspension's linkage parts as they are drawn (module prefix sc_link_).
 *
 * The rig gives the four massless linkage parts (sim/vehicle.h, VEH_LINK_*: bell crank, pull
 * rod, shock body, shock rod) no visual shapes; the take records their poses all the same.
 * This module is the one place that says how they look, so that the exported file
 * (scene/take_bodies.c), the renderer's views (render/rscene.c) and the mode video
 * (render/mode_video.c) show the same bars.
 *
 * Contents:
 *   - sc_bar: a round bar (a capsule between two cap centres) with a radius and a colour;
 *   - sc_link_part: which part a recorded body's name is;
 *   - sc_link_bars: a part's bars in the part's own frame, and that frame's origin;
 *   - sc_bar_ex, sc_bar_rig: a bar as a capsule of either shape type (the exporter's and the
 *     chase view's ex_shape, scene/shapes.h; the 2-D views' rig_shape, sim/rig.h).
 * Promises: the bars are in the frame whose world pose the take records for the part
 * (veh_link_poses: origin at the part's first point, x along the part, the crank's frame turned
 * by its angle about y), so a consumer poses them as it poses any body's shapes. The radii and
 * colours are those the exporter has always written (what animators see in Blender). Pure
 * functions of the rig's linkage: no allocation, no errors. */
#ifndef SC_LINKAGE_H
#define SC_LINKAGE_H

#include "scene/shapes.h"
#include "sim/rig.h"

#define SC_LINK_MAX_BARS 3   /* the bell crank's triangle */

typedef struct sc_bar {
  double a[3], b[3];         /* cap centres in the part's frame (m) */
  double radius;             /* m */
  double rgba[4];            /* linear colour, opaque */
} sc_bar;

/* The part (VEH_LINK_*) a body of that name is (the names of veh_link_names), or −1. */
int sc_link_part(const char* body_name);

/* The bars of part (VEH_LINK_*) of linkage lk into bar (returns how many, 1..SC_LINK_MAX_BARS;
 * 0 for a part out of range), and, in the rig's coordinates (x forward, y left, z up), the
 * point take_bodies reports as the part frame's origin: the crank's pivot, the pull rod's arm
 * eye (arm_rod), the shock's frame eye, the shock's crank eye. */
int sc_link_bars(const rig_linkage* lk, int part, sc_bar bar[SC_LINK_MAX_BARS], double origin[3]);

/* Bar b as a capsule (every other field zero). */
ex_shape sc_bar_ex(const sc_bar* b);
rig_shape sc_bar_rig(const sc_bar* b);

#endif
