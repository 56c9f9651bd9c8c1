/* force_overlay.h — the teaching overlays (module prefix tf_): the bar push, the steer angle
 * and the tyre forces against their friction limit, drawn from the take's recorded channels.
 *
 * Signs (docs/conventions.md): steer angle and steer torque positive turn the front wheel
 * LEFT, so a positive bar torque is the rider pushing the RIGHT grip forward (or pulling the
 * left back): at speed the machine then leans and turns right (countersteering). The cue puts
 * its arrow on the grip that is pushed: right for torque > 0, left for torque < 0.
 * Tyre forces are the contact frame's (x along the wheel's heading, y to its left); the friction
 * limit is the tyre model's peak at this frame's load and camber (sim/tyre.h: tyre_forces' Dx,
 * Dy = μx·Fz, μy·Fz), drawn as an ellipse with those half-axes.
 *
 * Contract: every function draws into the caller's context within the box it is given, in the
 * current frame's pixels, text through draw_text (via rgl_text: each arrow, dial and value is
 * also logged to render/gauge_log.h's log under the name given below); reads only; no
 * allocation. u is the caption unit (cap_unit: 3 % of the frame's height), the size of
 * everything here. */
#ifndef FORCE_OVERLAY_H
#define FORCE_OVERLAY_H

#include <cairo.h>
#include "render/callouts.h"
#include "render/rscene.h"

#define TF_NM_FULL 30.0     /* N·m: the push arrow's full length (half the inset) */
#define TF_M_PER_KN 0.4     /* m of road per kN of tyre force, in the chase and rear views */

/* The friction limits Dx, Dy (N) of wheel w (RIG_FRONT/RIG_REAR) at st's load and camber
 * (0, 0 when the take has no tyre model or the tyre is off the ground). */
void tf_limits(const rs_take* k, const rs_state* st, int w, double* dx, double* dy);

/* The bars and front wheel from above in the square (x, y, s): forward is up. The front wheel
 * turned by the steer angle with an arc from straight ahead to its heading and the value
 * ("teach.steer", degrees, left positive); the push arrow at the pushed grip, pointing
 * forward, TF_NM_FULL N·m = s/2 long ("teach.push": value N·m, zero at the grip, tip at the
 * arrow's end); with its text ("teach.push.text"). */
void tf_bars_inset(cairo_t* cr, const rs_take* k, const rs_state* st, double x, double y, double s, double u);
/* Wheel w's friction ellipse in the square (x, y, s) seen from above, forward up: Fx up, Fy
 * to the left, their resultant, and the limit's half-axes Dx (up) and Dy (across) scaled so
 * the larger is r = 0.36·s ("teach.front_fy"/"teach.rear_fy": HBAR, value Fy N, zero at the
 * centre; "…_fx": VBAR, value Fx; "…_grip": DOT, value |F| N, box the square of radius r;
 * "…_grip.text": |F| / the limit in that direction, in %). */
void tf_friction_inset(cairo_t* cr, const rs_take* k, const rs_state* st, int w, double x, double y, double s, double u);
/* The push arrow in the picture, at the pushed grip along the machine's forward axis,
 * 0.02 m per N·m (views where forward is not along the line of sight: side, chase). */
void tf_push_arrow(cairo_t* cr, const co_proj* pr, const co_places* pl, const rs_take* k, const rs_state* st, double u);
/* Both tyres' forces on the road at their contact points, TF_M_PER_KN m a kN: Fx along the
 * wheel's heading, Fy across it, the resultant, and (perspective only) the friction ellipse.
 * The Fy labels (side and rear views) stay above pr->avoid's boxes (the captions') and are
 * added to them, so that the callouts drawn after keep off them. */
void tf_ground_forces(cairo_t* cr, co_proj* pr, const rs_take* k, const rs_state* st, double u);

#endif
