/* views.h — the renderer's orthographic views, instruments and timeline (module prefix rv_).
 *
 * Contract: every function draws one take's state (render/rscene.h) into a box (x, y, w, h)
 * of a Cairo context, clipped to it, painting its own background; none allocates per frame
 * after rv_cache_init; the same inputs give the same pixels. A ghost (another take's state,
 * may be NULL) is drawn translucent in the same view (--compare).
 *   plan  — the track from above (plan.c's drawing), the machine's footprint (magenta, centred
 *           on the root body's position) with its heading, a 10 s trail coloured by speed;
 *           follows the machine with `span` metres across the box, or the whole track (span 0).
 *   side  — the side elevation (rig_draw.c's shapes) in the machine's heading frame: bodies
 *           posed, wheels with spokes and hub marks (pure green dots at the wheel centres),
 *           tyre forces as arrows at the contact patches, with a key.
 *   rear  — seen from behind along the heading: lean, camber, the contact point on the crown.
 *   hud   — instruments; timeline — event marks and a scrolling plot of chosen channels.
 * Text: every word is sized in the frame's text unit (render/draw.h draw_em, 2.2 % of the frame's
 * height), laid out inside its view's panel and clear of every other (tests/unit/test_layout.c). */
#ifndef VIEWS_H
#define VIEWS_H

#include <cairo.h>
#include "render/plan.h"
#include "render/rig_draw.h"
#include "render/rscene.h"

typedef struct rv_cache {
  double* block;       /* per 20 m block of road: x0, y0, x1, y1 (plan follow mode) */
  int nblock;
  cairo_surface_t* whole;   /* the whole-track plan background for one box size */
  int ww, wh;
  plan_xf wxf;              /* the whole-track fit for the box wbox */
  double wbox[4];
  cairo_surface_t* tile;    /* plan follow mode: the road around the machine, 2× the box each way */
  plan_xf txf;              /* world → tile pixels */
  double tb[4];             /* the tile's world bounds x0, y0, x1, y1 */
  cairo_surface_t* strip;   /* the timeline's curves and events over the whole take */
  double pps, sh;           /* its pixels per second and height */
  char (*evname)[40];       /* each event's name on the timeline: a mark's label, else its kind
                               (a stranger's text: made showable, render/draw.h draw_showable) */
  int nev;
  cairo_surface_t* hud;     /* the instruments' static layer (rv_hud_cached), for hud_key: y, w, h, frame height */
  int hud_key[4];
  int plain;                /* 1: draw everything every frame, no static layers (MOTOTAKE_RENDER_PLAIN=1 at
                               rv_cache_init; the cached way must give the same pixels) */
} rv_cache;

void rv_cache_init(rv_cache* c, const rs_take* k);
void rv_cache_free(rv_cache* c);

/* The plan transform used for the box (whole track when span ≤ 0, else centred on st's machine). */
/* The whole track is fitted between the title's line and the keys' lines (cr gives the text unit). */
plan_xf rv_plan_xf(cairo_t* cr, rv_cache* c, const rs_take* k, const rs_state* st, double x, double y, double w, double h,
                   double span);
void rv_plan(cairo_t* cr, rv_cache* c, const rs_take* k, const rs_state* st, const rs_take* gk, const rs_state* gst,
             double x, double y, double w, double h, double span);
/* The side and rear view projections for a box (the machine's heading frame, road under it at v = 0). */
rd_view rv_side_xf(const rs_take* k, const rs_state* st, double x, double y, double w, double h);
rd_view rv_rear_xf(const rs_take* k, const rs_state* st, double x, double y, double w, double h);
void rv_side(cairo_t* cr, const rs_take* k, const rs_state* st, const rs_take* gk, const rs_state* gst, double x, double y,
             double w, double h);
void rv_rear(cairo_t* cr, const rs_take* k, const rs_state* st, const rs_take* gk, const rs_state* gst, double x, double y,
             double w, double h);
/* The instruments' width, in px, for a W × H picture: the larger of 0.24 W and 0.42 H, at least 120.
 * Their text is sized by the picture's height (render/draw.h), so a panel narrower than this
 * makes its labels run into each other; render and the ride window both size it so. */
double rv_hud_width(double W, double H);
void rv_hud(cairo_t* cr, const rs_take* k, const rs_state* st, double x, double y, double w, double h);
/* rv_hud's pixels, its parts that never change (panel, grey bars and dials, rings) blitted from a
 * layer kept in c, drawn once per box and frame height; every frame draws only the readings.
 * Falls back to rv_hud when c->plain, a text record is attached, or the box is off the pixel grid. */
void rv_hud_cached(cairo_t* cr, rv_cache* c, const rs_take* k, const rs_state* st, double x, double y, double w, double h);
void rv_timeline(cairo_t* cr, rv_cache* c, const rs_take* k, const rs_state* st, double t0, double t1, double x, double y, double w,
                 double h);
/* The lowest point of wheel w's tyre (RIG_FRONT or RIG_REAR): its contact patch on a flat road. */
void rv_contact_point(const rs_take* k, const rs_state* st, int w, double out[3]);
/* The machine's heading (rad, from +x, counter-clockwise) from the root body's orientation. */
double rv_heading(const rs_take* k, const rs_state* st);

#endif
