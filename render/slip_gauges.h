/* slip_gauges.h — the HUD's slip-angle gauges and front/rear balance indicator (module prefix
 * rsg_), drawn from a take's recorded slip angles and the tyre model's optimum (takes/slip.h).
 *
 * Contract: draws into the box (x, y, w, h) of a Cairo context in the HUD's units; reads only
 * the take and its state; no allocation; the same inputs give the same pixels. Two half dials,
 * front and rear, −12°…+12° of slip angle, with the band up to the tyre's grip optimum at this
 * frame's load, camber and slip ratio shaded green on the side the tyre pushes to, red beyond;
 * and a bar of α_f − α_r (±3°): right of centre the front slips more (understeer), left the
 * rear (oversteer). */
#ifndef SLIP_GAUGES_H
#define SLIP_GAUGES_H

#include <cairo.h>
#include "render/rscene.h"

void rsg_draw(cairo_t* cr, const rs_take* k, const rs_state* st, double x, double y, double w, double h);
/* One layer of it (the HUD's static-layer cache, render/views.c): RSG_STATIC what is the same
 * every frame (the dials' grey bands and ticks, the balance bar's grey and its end words),
 * RSG_DYNAMIC the rest, drawn over it; RSG_ALL both in one pass, the same pixels. */
enum { RSG_STATIC = 1, RSG_DYNAMIC = 2, RSG_ALL = 3 };
void rsg_draw_layer(cairo_t* cr, int m, const rs_take* k, const rs_state* st, double x, double y, double w, double h);

#endif
