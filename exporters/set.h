/* set.h — the film set around a track, for `mototake export` (the physics never sees it).
 *
 * Every surface that follows the road is sampled from the road function the tyres touch
 * (sim/track.h: track_eval, track_normal; checked against track_query), so the road mesh IS
 * the simulated road. Parts, each one mesh of one material (ex_part, exporters/motion.h):
 *   road        tarmac between the painted lines; u = offset (m, + left), v = station (m)
 *   road_lines  the white edge lines (EX_SET_LINE_W wide, EX_SET_LINE_IN inside each edge) and
 *               the start/finish line (EX_SET_START_LEN long at station 0); same u, v
 *   kerbs_red, kerbs_white
 *               rumble kerbs, EX_SET_KERB_W wide just outside the edge where the track file puts
 *               them (sim/track_dress.h), in EX_SET_STRIPE stripes; flush with the road function's
 *               extended cross-section, since the simulated road has no kerb height
 *   grass       the verges (flush to EX_SET_FLUSH m beyond the edge, then falling EX_SET_DROP m
 *               by EX_SET_VERGE m out) and a ground plane to a horizon EX_SET_HORIZON m beyond the
 *               track, below the road everywhere, following its height roughly
 *   board_NAME[_TITLE]
 *               a corner board (panel, posts and the name in segment glyphs) beside the track,
 *               at its own node pose, two meshes: board and board_text
 * Tessellation: a row (cross-section) at every arc piece's start (so segment and spiral joins
 * are vertices), at kerb stripes and the start line, then halving each interval until every
 * quad's triangles are within tol of the road function at the test points, and no longer
 * than max_step. Within a row the surface is exact: a cross-section is a straight line. */
#ifndef EX_SET_H
#define EX_SET_H

#include "exporters/motion.h"
#include "sim/track.h"

#define EX_SET_LINE_W 0.12      /* m, edge line width */
#define EX_SET_LINE_IN 0.05     /* m, from the road's edge to the line's outer side */
#define EX_SET_START_LEN 0.40   /* m, the start/finish line's length along the track */
#define EX_SET_KERB_W 1.0       /* m */
#define EX_SET_STRIPE 1.0       /* m, a kerb's red and white stripes */
#define EX_SET_FLUSH 6.0        /* m beyond the edge where the verge starts to fall */
#define EX_SET_VERGE 10.0       /* m beyond the edge where the verge ends (less inside tight turns) */
#define EX_SET_DROP 3.0         /* m the verge falls below the extended cross-section */
#define EX_SET_HORIZON 3000.0   /* m, the ground plane beyond the track's bounding box */
#define EX_SET_TOL 0.001        /* m, default road-mesh tolerance against the road function */
#define EX_SET_MAX_STEP 4.0     /* m, default longest row spacing */

typedef struct ex_set_opts {
  double tol;        /* m, > 0 */
  double max_step;   /* m, > 0 */
} ex_set_opts;

#define EX_SET_MAX_PARTS 300

typedef struct ex_set {
  int npart;
  ex_part part[EX_SET_MAX_PARTS];
  int nrow;          /* cross-sections of the road mesh */
  char names[EX_SET_MAX_PARTS][80];   /* the parts' names (part[i].name points here) */
} ex_set;

/* Build the set of track t (o NULL: the defaults). Never fails; free with ex_set_free. */
void ex_set_build(const track* t, const ex_set_opts* o, ex_set* out);
void ex_set_free(ex_set* s);
/* The part named name, or NULL. */
const ex_part* ex_set_part(const ex_set* s, const char* name);

#endif
