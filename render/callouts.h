/* callouts.h — labels with an arrow pinned to a place on the machine or in the world (module
 * prefix co_), following it in every view that can show it (render/captions.h: the callout
 * items of a caption file): a part of the machine in the side, rear and chase views, a world
 * point in those and the plan and track views.
 *
 * Contract: a view hands its projection (co_proj: the side and rear views' orthographic
 * rd_view, the plan's plan_xf, or the chase camera) and its box; co_anchor finds the target's
 * world point in a state (contact points, the bars' centre between the grips, the rider's
 * torso, a body's frame origin, a fixed point); co_draw draws every callout visible at t whose
 * point projects inside the box (none when it is behind the camera or off the picture): an
 * arrow from a label box to the point, the label through draw_text, sizes from the frame's
 * height, the box kept inside the view's box and clear of pr->avoid (left out when it finds no
 * room); each logged (render/gauge_log.h) as "callout.N",
 * N its place in the file: box = the label's, zero = the arrow's start, tip = the point. Reads
 * only; no allocation. */
#ifndef CALLOUTS_H
#define CALLOUTS_H

#include <cairo.h>
#include "render/captions.h"
#include "render/chase.h"
#include "render/plan.h"
#include "render/rig_draw.h"
#include "render/rscene.h"

enum { CO_ORTHO, CO_PLAN, CO_PERSP };

typedef struct co_proj {
  int kind;
  rd_view ortho;           /* CO_ORTHO: side and rear views (pixels of the frame) */
  plan_xf plan;            /* CO_PLAN */
  chase_view persp;        /* CO_PERSP: the camera; pixels relative to the box's corner */
  double x, y, w, h;       /* the view's box in the frame */
  double avoid[20][4];     /* boxes (x0, y0, x1, y1, frame) labels keep out of: the captions', the force labels' */
  int navoid;
} co_proj;

/* World point p → frame pixel px; 0 when it cannot be drawn (behind the camera). */
int co_project(const co_proj* pr, const double p[3], double px[2]);

/* The grips' points on the steering body (rig coordinates less the body's origin) and the
 * indices the anchors need, found once per take. */
typedef struct co_places {
  int steering, torso;     /* body indices, −1 when absent */
  int have_grips;
  double grip[2][3];       /* [0] left, [1] right, in the steering body's frame */
} co_places;

void co_places_init(co_places* pl, const rs_take* k);
/* A grip's world point (side 0 left, 1 right); 0 when the rig has no grips. */
int co_grip(const co_places* pl, const rs_take* k, const rs_state* st, int side, double out[3]);
/* The world point of callout it in state st; 0 when the take lacks it. */
int co_anchor(const co_places* pl, const rs_take* k, const rs_state* st, const cap_item* it, double out[3]);
/* Draw the callouts of l visible at t in the view pr; H is the frame's height (sizes). */
void co_draw(cairo_t* cr, const co_proj* pr, const co_places* pl, const rs_take* k, const rs_state* st, const cap_list* l,
             double t, double H);
/* An arrow from (x0, y0) to (x1, y1) with a filled head `head` px long, in the current source. */
void co_arrow(cairo_t* cr, double x0, double y0, double x1, double y1, double head);

#endif
