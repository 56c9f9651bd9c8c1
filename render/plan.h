/* plan.h — plan views of a track (seen from above, north up), shared by `track plan`, the
 * video renderer's plan inset and the take previews (module prefix plan_).
 *
 * Contract: every function only draws onto the caller's Cairo context (or, for plan_fit and
 * plan_elevation_range, only computes); the track is the caller's and is not changed; nothing
 * fails and nothing is kept between calls. Pixels follow a plan_xf (north up, metres → px). */
#ifndef PLAN_H
#define PLAN_H

#include <cairo.h>
#include "sim/track.h"

/* World → pixel: px = ox + s·x, py = oy − s·y (north up). */
typedef struct plan_xf {
  double s, ox, oy;
} plan_xf;

/* Fit the track (with margin m metres) into the box (x, y, w, h) of the image. */
plan_xf plan_fit(const track* t, double x, double y, double w, double h, double margin);
/* The road: surface coloured by elevation between zmin and zmax (draw_ramp_elev), edges, centre line. */
void plan_draw_track(cairo_t* cr, const track* t, const plan_xf* xf, double zmin, double zmax);
/* The same for the stations [s0, s1] only (close: join the edges' ends, for a whole closed track). */
void plan_draw_track_range(cairo_t* cr, const track* t, const plan_xf* xf, double zmin, double zmax, double s0, double s1,
                           int close);
/* Start/finish line (chequered) and the running direction (no text: see plan_start_label_at). */
void plan_draw_start(cairo_t* cr, const track* t, const plan_xf* xf);
/* Where the "START / FINISH" label goes: the point (x, y) 6 px beyond the line's left end and
 * the anchor (ax, ay) for draw_text that keeps the label off the road. */
void plan_start_label_at(const track* t, const plan_xf* xf, double* x, double* y, double* ax, double* ay);
/* Distance ticks every `every` metres outside the right edge, labelled every `label` metres. */
void plan_draw_ticks(cairo_t* cr, const track* t, const plan_xf* xf, double every, double label);
/* Elevation range of the centre line and edges. */
void plan_elevation_range(const track* t, double* zmin, double* zmax);
/* The sheet of `track plan` on a W×H canvas (white already): the track fitted beside a legend
 * column, start line and distance ticks, title and summary line (length, kind, segments,
 * elevation change), elevation colour bar, north arrow, scale bar and key. Draws only. */
void plan_draw_sheet(cairo_t* cr, const track* t, int W, int H);

#endif
