/* track_surface.h — what lies beyond the tarmac: kerb, grass and gravel, with their grip.
 *
 * Contract. Every track has four surfaces, outward from the road's edge on either side:
 *   tarmac  — within the half widths (grip 1, the tyre's own rolling resistance);
 *   kerb    — the first `kerb.width` m past the edge, only along the stations where the track's
 *             dressing lists a kerb on that side (sim/track_dress.h); elsewhere grass starts at
 *             the edge;
 *   grass   — the next `grass.width` m;
 *   gravel  — everything further out (the run-off, unbounded).
 * A surface's `grip` scales the tyre's peak friction (the Magic Formula's grip, tyre.h) and
 * `rolling` replaces the tyre's rolling-resistance coefficient there. The ground beyond the edge
 * is the road's cross-section extended outward (sim/road.h). Defaults (docs/tracks.md, with
 * their sources) apply to every track; a track file may override any of them:
 *   surfaces = { kerb = { width = 1, grip = 0.9, rolling = 0.02 },
 *                grass = { width = 10, grip = 0.5, rolling = 0.08 },
 *                gravel = { grip = 0.45, rolling = 0.3 } }
 * Widths are 0..100 m, grips (0, 1.5], rolling 0..1; anything else (a misspelt field or
 * surface, NaN) is refused with file:line, the surface and the field (exit 2). */
#ifndef TRACK_SURFACE_H
#define TRACK_SURFACE_H

#include <lua.h>

#include "base/lbread.h"

enum { SURF_TARMAC = 0, SURF_KERB, SURF_GRASS, SURF_GRAVEL, SURF_N };

typedef struct track_surface {
  double width;     /* m, the band's width (kerb, grass; gravel and tarmac: unused) */
  double grip;      /* scale of the tyre's peak friction; tarmac 1 */
  double rolling;   /* rolling-resistance coefficient there; tarmac: < 0, the tyre's own */
} track_surface;

typedef struct track_surfaces {
  track_surface s[SURF_N];
} track_surfaces;

/* "tarmac", "kerb", "grass", "gravel"; "?" outside 0..SURF_N−1. */
const char* track_surface_name(int k);
/* The defaults, then the optional `surfaces` table of the track table at the stack's top. */
int track_surfaces_load(lua_State* L, const lb_scope* top, track_surfaces* out, mt_err* e);

#endif
