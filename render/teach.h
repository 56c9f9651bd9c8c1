/* teach.h — the teaching layer of a rendered frame (module prefix teach_): captions
 * (render/captions.h), callouts (render/callouts.h) and the overlays (render/force_overlay.h),
 * for `mototake render --captions FILE --overlays LIST`.
 *
 * Contract: teach_open reads and checks the caption file against the take and the overlay
 * list (bars, forces, all; comma-separated) — one line naming FILE:LINE and the field, or
 * the option, on error (MT_EINPUT). With neither, nothing is drawn and every frame is what it
 * was without this layer. Per frame: teach_reserve before the views (the captions' boxes,
 * which the views' labels and this layer's keep clear), teach_cell after each view's cell (callouts, and the
 * overlays in the side, rear and chase views; the chase view's insets at its right edge,
 * above the subtitles' band when the file has subtitles and the cell reaches the views' bottom), teach_frame once over the whole frame last
 * (titles, lower thirds, subtitles; it releases the reservation). A frame whose drawing fails
 * between the two leaves the thread's reservation until the next teach_reserve or teach_frame.
 * Reads only; no allocation after teach_open. */
#ifndef TEACH_H
#define TEACH_H

#include <cairo.h>
#include "render/callouts.h"
#include "render/captions.h"
#include "render/rscene.h"
#include "render/views.h"

enum { TEACH_BARS = 1, TEACH_FORCES = 2 };
/* The views teach_cell draws into (render/render.h maps its own onto these). */
enum { TEACH_PLAN, TEACH_TRACK, TEACH_SIDE, TEACH_REAR, TEACH_CHASE };

typedef struct teach_ctx {
  cap_list cap;           /* empty without --captions */
  int overlays;           /* TEACH_* bits */
  co_places places;
} teach_ctx;

/* Parse an overlay list ("bars,forces", "all", "none"); 0 or MT_EINPUT naming the bad item. */
int teach_parse_overlays(const char* s, int* bits, mt_err* e);
/* captions, overlays may be NULL. */
int teach_open(teach_ctx* t, const rs_take* k, const char* captions, const char* overlays, mt_err* e);
void teach_close(teach_ctx* t);
/* After view `view` (TEACH_PLAN … TEACH_CHASE) was drawn into (x, y, w, h); chase:
 * the view's chase_scene (NULL otherwise); span: the plan view's; H: the frame's height, vh the
 * views' area's (a cell reaching its bottom keeps the subtitles' band clear). */
void teach_cell(const teach_ctx* t, cairo_t* cr, int view, rv_cache* cache, const rs_take* k, const rs_state* st,
                chase_scene* chase, double span, double x, double y, double w, double h, double H, double vh);
/* Before the views of a frame at `time`: reserve the boxes its subtitles and lower thirds will
 * take (captions.h cap_boxes, a margin round each) for the calling thread (render/labels.h
 * rl_reserve), so that the views' labels (the plan's keys and corner names) and teach_cell's
 * (callout labels, the force labels) keep out of them; teach_frame releases them. */
void teach_reserve(const teach_ctx* t, cairo_t* cr, double time, double H, double vw, double vh);
/* Over the whole W×H frame, the views' area being (0, 0, vw, vh). */
void teach_frame(const teach_ctx* t, cairo_t* cr, double time, double W, double H, double vw, double vh);

#endif
