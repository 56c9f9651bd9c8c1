/* slip_plot.h — the figure of `mototake slip` (module prefix slip_plot_): four panels drawn with
 * the shared plot layer (render/draw.h) from a take's slip data (takes/slip.h).
 *
 * Contract: slip_plot_draw only draws onto the caller's w×h canvas (white already): the title,
 * then slip angles against time (truth, estimate if made, the tyre's optimum in turns), against
 * lateral acceleration (every 5th sample), the front − rear difference against time, and the
 * estimate against the truth. The data are the caller's and are not changed; nothing fails
 * (its scratch memory comes from mt_alloc, which exits when memory runs out). Angles in degrees. */
#ifndef SLIP_PLOT_H
#define SLIP_PLOT_H

#include <cairo.h>
#include "takes/slip.h"

void slip_plot_draw(cairo_t* cr, const slip_data* d, int w, int h, const char* title);

#endif
