/* engine_plot.h — the figures of `plot engine` (module prefix ep_), drawn with the shared plot
 * layer (render/draw.h) from a powertrain (sim/powertrain.h).
 *
 * Contract: each function only draws onto the caller's W×H canvas (white already) and never
 * fails; the powertrain is the caller's and is not changed. ep_gears and ep_chain need a
 * drivetrain (pt->has_drive): the caller checks. Lengths in metres, angles in radians. */
#ifndef ENGINE_PLOT_H
#define ENGINE_PLOT_H

#include <cairo.h>
#include "sim/powertrain.h"

/* Brake torque, brake power and manifold pressure against engine speed at several throttle
 * openings, the efficiency maps, and the full-throttle peaks annotated. */
void ep_curves(const powertrain* pt, cairo_t* cr, int W, int H);
/* Rear-wheel thrust and engine speed against road speed in every gear at full throttle, for a
 * rear wheel of radius rw. */
void ep_gears(const powertrain* pt, cairo_t* cr, int W, int H, double rw);
/* Side view of the sprockets, the chain's runs, the swingarm (axle to `pivot`, X,Z) and the squat
 * line, with the anti-squat ratio for a centre of mass at `cog` (X,Z) and that wheelbase. */
void ep_chain(const powertrain* pt, cairo_t* cr, int W, int H, double rw, const double pivot[2], const double cog[2],
              double wheelbase);

#endif
