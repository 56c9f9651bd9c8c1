/* track.h — the parametric race track of the Slipstream manual (§3.2).
 *
 * A track is a sequence of segments, each given by its values at its END: length, left and
 * right half widths, curvature, slope (grade) and superelevation (cross slope). A segment starts
 * where the previous one ended (the first starts at its own end values). Along a segment:
 *  - curvature varies linearly (an Euler spiral), approximated by concatenated circular arcs:
 *    ceil(|Δκ| / tessellation) arcs of equal length, each with the curvature at its middle —
 *    which turns the heading by exactly the spiral's amount;
 *  - the grade varies linearly, so the vertical profile is a parabola;
 *  - superelevation and half widths vary linearly.
 * Signs: positive curvature turns LEFT (anticlockwise seen from above); positive
 * superelevation raises the LEFT edge (a left turn is banked with negative superelevation, as
 * in the manual's Laguna Seca segments); offsets are positive to the left of the centre line.
 *
 * The surface is a ribbon: at station s and offset o, P = C(s) + o·N(s) + (0, 0, z(s) + e(s)·o),
 * with C the centre line in the plane, N its left normal, z the profile and e the cross slope.
 * Queries are analytic per arc piece. A loaded track never changes. */
#ifndef TRACK_H
#define TRACK_H

#include <stddef.h>
#include "base/mt.h"
#include "sim/road.h"
#include "sim/track_dress.h"
#include "sim/track_surface.h"

typedef struct track track;

/* Load a track file (sandboxed Lua). Closed tracks may ask for closure: see docs/tracks.md. */
track* track_load(const char* path, mt_err* e);
/* The same from source text (a take's embedded copy). */
track* track_load_text(const char* name, const char* text, mt_err* e);
void track_free(track* t);
/* A track name ("laguna_seca") or path to a file path. */
void track_resolve(const char* name, char* out, size_t n);

const char* track_name(const track* t);
const char* track_source(const track* t);
double track_length(const track* t);
int track_closed(const track* t);
int track_nsegments(const track* t);
/* Station where segment i (0-based) starts. */
double track_segment_start(const track* t, int i);

/* (s, offset) → world point and the centre line's heading at s. */
void track_eval(const track* t, double s, double offset, double p[3], double* heading);
/* Half widths, curvature of the centre line, grade and superelevation at station s. */
void track_widths(const track* t, double s, double* left, double* right);
double track_curvature(const track* t, double s);
double track_grade(const track* t, double s);
double track_superelevation(const track* t, double s);
/* Unit surface normal at (s, offset). */
void track_normal(const track* t, double s, double offset, double n[3]);

/* World (x, y) → station, offset, segment, surface height and normal, on-track flag. */
int track_query(const track* t, double x, double y, int hint, road_point* out);
/* track_query (fast = 1) or its reference (fast = 0), which tests compare its answers with bit for
 * bit. The reference has none of the query's shortcuts (issue 18): it projects every piece of
 * the window (track_query skips a piece that provably lies beyond a distance already found),
 * finds the widths at the answer through track_widths (track_query from the answer's piece), and
 * evaluates the normal with the heading's cos and sin and the segment's ratios computed afresh
 * (track_query reuses what build() and the answer's height computed). */
int track_query_window(const track* t, double x, double y, int hint, int fast, road_point* out);
/* The half widths at station s of an answer on arc piece `piece` (s = the piece's start + a
 * distance within its length, as track_query's answers have it): track_widths(t, s) bit for bit,
 * read from the piece's own segment where that gives the same (what track_query uses, issue 18).
 * Returns 1 when read from the piece's segment, 0 when through track_widths. */
int track_widths_on(const track* t, int piece, double s, double* left, double* right);
/* The arc pieces (a road_point's hint is one): their number, a piece's start station and length. */
int track_npieces(const track* t);
void track_piece_span(const track* t, int piece, double* s0, double* len);
/* The road interface for tyres. */
road track_road(const track* t);

/* The track file's kerbs and corner boards (sim/track_dress.h); never used by the road function. */
const track_dress* track_dressing(const track* t);

/* The surfaces beyond the tarmac (sim/track_surface.h): defaults or the track file's. */
const track_surfaces* track_surfaces_of(const track* t);

/* Closure of a closed track: gap between the end and the start (m) and heading mismatch (rad). */
void track_closure(const track* t, double* gap, double* heading_err, double* dz);

#endif
