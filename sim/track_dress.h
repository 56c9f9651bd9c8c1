/* track_dress.h — what a track file says about its dressing: kerbs and corner boards.
 *
 * The road function (sim/track.h) never reads these: they are for people (the exporters' set,
 * exporters/set.h). Both are optional lists in the track file (docs/tracks.md):
 *   kerbs   = { { from = S0, to = S1, side = "left" | "right", style = "rumble" }, ... }
 *   corners = { { at = S, name = "T8", title = "Corkscrew", side = "left" | "right" }, ... }
 * Stations are metres along the centre line of the loaded track (after closure), with
 * 0 <= from < to <= length and 0 <= at <= length; side is the road's side the item stands on.
 * Anything else is refused with file:line, the item and the field (lb_fail, exit 2). */
#ifndef TRACK_DRESS_H
#define TRACK_DRESS_H

#include <lua.h>

#include "base/lbread.h"

#define TRACK_MAX_KERBS 1024
#define TRACK_MAX_CORNERS 256

enum { TRACK_SIDE_RIGHT = -1, TRACK_SIDE_LEFT = 1 };

typedef struct track_kerb {
  double from, to;   /* stations, m */
  int side;          /* TRACK_SIDE_LEFT or TRACK_SIDE_RIGHT */
} track_kerb;

typedef struct track_corner {
  double at;         /* station of the board, m */
  int side;
  char name[16];     /* "T8": letters, digits, '-' and '_' */
  char title[48];    /* "Corkscrew" (may be empty) */
} track_corner;

typedef struct track_dress {
  int nkerb, ncorner;
  track_kerb* kerb;
  track_corner* corner;
} track_dress;

/* Read the optional `kerbs` and `corners` of the track table at the stack's top (scope top)
 * into d, checking stations against the track's length. On failure d is freed and zeroed. */
int track_dress_load(lua_State* L, const lb_scope* top, double length, track_dress* d, mt_err* e);
void track_dress_free(track_dress* d);

#endif
