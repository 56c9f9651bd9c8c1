/* tyre_plot.h — the Magic Formula figure of `plot tyre` (module prefix tp_): curves of the
 * tyre model (sim/tyre.h) drawn with the shared plot layer (render/draw.h).
 *
 * Contract: tp_draw only draws; it evaluates tyre_forces on fixed grids (loads 500..2500 N,
 * cambers 0..45°, slip ratio ±0.6, slip angle ±20°) and never fails. The caller owns the canvas
 * (white already) and the tyre; nothing is kept between calls except a scratch buffer, so it
 * is not reentrant (one figure at a time, as every command draws). */
#ifndef TYRE_PLOT_H
#define TYRE_PLOT_H

#include <cairo.h>
#include "sim/tyre.h"

/* The panels: all four in a 2×2 grid, or one filling the canvas. */
enum { TP_ALL, TP_FX, TP_FY, TP_MZ, TP_ELLIPSE };

/* Draw the figure for tyre p on a W×H canvas: the title (naming `wheel`, the preset and, when
 * noverride > 0, that many overrides) and panel `which` (TP_ALL: all four). */
void tp_draw(cairo_t* cr, const tyre_params* p, int which, int W, int H, const char* wheel, int noverride);

#endif
