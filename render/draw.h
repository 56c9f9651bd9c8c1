/* draw.h — the drawing layer shared by plots, plan views, rig drawings and video frames.
 *
 * Everything draws with Cairo onto an ARGB32 image (draw_fig). Plots are described, not
 * drawn step by step: fill a draw_plot with series and call draw_plot_render into any box of
 * the figure, so multi-panel figures and instrument overlays reuse the same code. PNGs are
 * written atomically (temporary name, then rename) so a failed run never leaves half a file. */
#ifndef DRAW_H
#define DRAW_H

#include <cairo.h>
#include "base/mt.h"

/*---- figures ----*/
typedef struct draw_fig {
  cairo_surface_t* surface;
  cairo_t* cr;
  int w, h;
} draw_fig;

int draw_fig_new(draw_fig* f, int w, int h, mt_err* e);   /* white background */
int draw_fig_save_png(draw_fig* f, const char* path, mt_err* e);
void draw_fig_free(draw_fig* f);
/* Parse "WxH" (e.g. "1600x1200") into w, h within [64, 8192]. */
int draw_parse_size(const char* s, int* w, int* h);

/*---- text and colour ----*/
/* Text at (x, y) anchored by ax, ay in [0,1] (0,0 = top-left of the text box; 0.5,0.5 centred).
 * Bytes that are not valid UTF-8, and control characters, are shown as '?' (draw_showable). */
void draw_text(cairo_t* cr, double x, double y, double size, double ax, double ay, const char* s);
void draw_textf(cairo_t* cr, double x, double y, double size, double ax, double ay, const char* fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* Rotated text (angle in radians, counter-clockwise on screen). */
void draw_text_rot(cairo_t* cr, double x, double y, double size, double angle, const char* s);
/* An arrow from (x0, y0) to (x1, y1) in the current source and line width: a stroked shaft and a
 * filled head head long (units of the current transform); nothing for one under 1 unit long. */
void draw_arrow(cairo_t* cr, double x0, double y0, double x1, double y1, double head);
/* s copied into out (n bytes) as the text functions show it: valid UTF-8 with no control
 * characters (anything else becomes '?'), cut at a character boundary. For names from a take. */
void draw_showable(const char* s, char* out, size_t n);
/* The distance between lines of text at font size (user units): factor × size, or more where
 * the font's hinted ascent + descent (the height of draw_text's box) needs it, as small sizes
 * do (12 px text has a 15 px box or more), with 5 % of size between boxes. */
double draw_line_pitch(cairo_t* cr, double size, double factor);
/* The advance width of s at font size (user units), for laying text out before drawing it. */
double draw_text_width(cairo_t* cr, double size, const char* s);
/* v rounded to a multiple of step, as a readout shows it: a value that rounds to zero is +0
 * (never "-0.0"), and one below 1e-9·step is 0 (never "8.3e-19"); NaN stays NaN. */
double draw_shown(double v, double step);

/*---- legibility: the frame's text unit, panels and the text record ----*/
/* The smallest text a frame may carry: DRAW_TEXT_MIN of the height of the image cr draws into
 * (16 px at 720p, 48 px at 2160p), returned in cr's user units (a view drawing under a scale
 * gets its own units back). Every view sizes its text as a multiple ≥ 1 of this, so a frame
 * stays legible at any size. A target that is not an image (no height to go by) gets
 * DRAW_EM_OTHER user units. */
#define DRAW_TEXT_MIN 0.0222
#define DRAW_EM_OTHER 12.0
double draw_em(cairo_t* cr);
/* A panel: the box (x, y, w, h, user units) a view or inset draws into. begin saves cr and clips
 * to the box; end restores. Panels nest (up to 8 deep); a text belongs to the innermost. */
void draw_panel_begin(cairo_t* cr, double x, double y, double w, double h);
void draw_panel_end(cairo_t* cr);

/* What a text-box record holds for one text (device pixels of cr's target). */
typedef struct draw_text_box {
  char text[80];
  double box[4];     /* x0, y0, x1, y1: the text's logical box (advance width × the font's
                        ascent + descent), through the transform (its bounding box) */
  double panel[4];   /* the innermost panel's box when it was drawn (the image when none) */
  double px;         /* the font's size (em) in device pixels */
} draw_text_box;

#define DRAW_TEXT_LOG_MAX 256
typedef struct draw_text_log {
  draw_text_box b[DRAW_TEXT_LOG_MAX];
  int n, dropped;   /* entries beyond the array are counted, never written */
} draw_text_log;
/* Record every text drawn on the calling thread into log (emptied), or stop with NULL. Off by
 * default: then a text costs one test of a thread-local pointer. For layout tests
 * (tests/unit/test_layout.c). */
void draw_text_log_attach(draw_text_log* log);
/* 1 while a record is attached on this thread (cached layers then draw their text every frame). */
int draw_text_log_active(void);
/* Categorical colour i (distinct for i < 10, then repeats). */
void draw_color(int i, double rgb[3]);
/* Sequential colour ramp for t in [0,1] (perceptually ordered, blue → yellow). */
void draw_ramp(double t, double rgb[3]);
/* The elevation ramp for t in [0,1] (dark olive → tan → near white, like a relief map): a
 * palette of its own, so a road coloured by height never reads as the speed key's viridis. */
void draw_ramp_elev(double t, double rgb[3]);
/* The colour scale of draw_ramp (elev 0) or draw_ramp_elev (elev 1) as a linear gradient from x0
 * (t = 0) to x1 (t = 1): its stops are the ramps' own, so the gradient is the very same scale.
 * The caller destroys it. A key drawn so is one fill, not one a step of the scale. */
cairo_pattern_t* draw_ramp_pattern(int elev, double x0, double x1);
void draw_set_rgb(cairo_t* cr, const double rgb[3]);

/*---- plots ----*/
#define DRAW_MAX_SERIES 48

typedef struct draw_series {
  const double* x;
  const double* y;
  int n;
  const char* label;   /* NULL: not in the legend */
  int color;           /* draw_color index, or -1 for black */
  int dash;            /* 0 solid, 1 dashed, 2 dotted */
  double width;        /* line width in pixels, 0 = 2 */
  int markers;         /* draw a dot at every point */
} draw_series;

typedef struct draw_plot {
  const char* title;
  const char* xlabel;
  const char* ylabel;
  draw_series s[DRAW_MAX_SERIES];
  int ns;
  int fixed_x, fixed_y;          /* use the limits below instead of autoscaling */
  double xmin, xmax, ymin, ymax;
  int legend;                    /* 0 none, 1 top-right, 2 top-left, 3 bottom-right, 4 bottom-left */
  int equal_aspect;              /* same scale on both axes */
  int zero_lines;                /* draw x = 0 and y = 0 */
  int log10_x;                   /* x data are log10 of the quantity: decade ticks labelled 10^x,
                                    grid at 2..9 × each decade (Bode plots) */
} draw_plot;

/* Add a series; returns its index. */
int draw_plot_add(draw_plot* p, const double* x, const double* y, int n, const char* label, int color, int dash);
/* Draw plot p into the box (x, y, w, h) of cr: frame, nice ticks, grid, labels, series, legend. */
void draw_plot_render(cairo_t* cr, double x, double y, double w, double h, draw_plot* p);
/* Map data to pixels for the last render of p (for annotations drawn on top). */
typedef struct draw_map { double x0, y0, w, h, xmin, xmax, ymin, ymax; } draw_map;
draw_map draw_plot_map(const draw_plot* p, double x, double y, double w, double h);
double draw_map_x(const draw_map* m, double v);
double draw_map_y(const draw_map* m, double v);

/* A "nice" tick step (1, 2, 2.5 or 5 × 10^k) giving about `target` ticks over range. */
double draw_nice_step(double range, int target);

#endif
