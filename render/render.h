/* render.h — one rendered frame of a take (module prefix rr_), shared by `mototake render`
 * (app/render_cmd.c) and its benchmark.
 *
 * Contract: rr_open opens the take (and the --compare take), builds the view caches and, for the
 * chase view, the chase scenes (render/chase.h); rr_draw paints the whole W×H frame for take time
 * t — the view or the 2×2 grid, and with the HUD on, the instruments at the right and the
 * timeline strip at the bottom. Deterministic: the same take, options and t give the same pixels. */
#ifndef RENDER_H
#define RENDER_H

#include <cairo.h>
#include "render/rscene.h"
#include "render/teach.h"
#include "render/views.h"

enum { RR_PLAN, RR_TRACK, RR_SIDE, RR_REAR, RR_CHASE, RR_NVIEW };
extern const char* const rr_view_names[RR_NVIEW];

typedef struct rr_opts {
  const char* view;      /* plan, track, side, rear, chase or grid */
  const char* grid;      /* four view names, comma-separated (grid), NULL = the default */
  double span;           /* plan: metres across the view (0 = whole track) */
  int hud;
  const char* camera;    /* chase camera, NULL = "chase" */
  double t0, t1;         /* the range of the timeline's overview bar */
  const char* plot;      /* the timeline's channels, comma-separated (NULL: RS_DEFAULT_PLOT) */
  const char* captions;  /* a caption file (render/captions.h), NULL: none */
  const char* overlays;  /* the teaching overlays (render/teach.h), NULL: none */
} rr_opts;

typedef struct rr_ctx {
  rr_opts o;
  int W, H;
  int cells[4], ncell;
  rs_take k, g;
  int has_ghost;
  rs_state st, gst;
  rv_cache cache, gcache;
  void* chase;           /* chase_scene* when the chase view is used */
  void* gchase;
  teach_ctx teach;       /* captions, callouts, overlays (render/teach.h) */
} rr_ctx;

/* Camera names for --help and errors ("" when the chase view is not built). */
void rr_camera_list(char* out, size_t n);
int rr_open(rr_ctx* c, const char* take, const char* compare, const rr_opts* o, int W, int H, mt_err* e);
int rr_draw(rr_ctx* c, cairo_t* cr, double t, mt_err* e);
void rr_close(rr_ctx* c);
/* Draw the next frames at W×H instead of rr_open's size (the take, caches and scenes are kept;
 * the views' caches follow the new boxes). For checking one take at several sizes. */
void rr_set_size(rr_ctx* c, int W, int H);
/* The views' part of the frame (from the top left): W×H less the instruments at the right and
 * the timeline at the bottom when the HUD is on. */
void rr_view_area(const rr_ctx* c, int* w, int* h);
/* rr_draw with pic (ARGB32/RGB24, normally rr_view_area's size, drawn at the top left) in place
 * of the views: the same instruments and timeline over it (`render --engine blender`). */
int rr_draw_picture(rr_ctx* c, cairo_t* cr, double t, cairo_surface_t* pic, mt_err* e);

#endif
