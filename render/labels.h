/* labels.h — labels placed where they neither overlap each other nor leave their panel
 * (module prefix rl_): corner names and the start line on the plan views, event names on the
 * timeline.
 *
 * Contract: a set holds one panel's box and the boxes already taken (user units of the cr the
 * labels are drawn with; the caller does not change the transform between calls). rl_place
 * draws a label (draw_text, with a translucent backing) at the first candidate position whose
 * logical box lies inside the panel and clear of every box taken, takes that box and returns
 * 1; with no such position it draws nothing and returns 0 — a label that cannot be placed is
 * left out (thinned), never drawn over another. At most RL_MAX boxes; beyond that nothing is
 * placed. */
#ifndef LABELS_H
#define LABELS_H

#include <cairo.h>

#define RL_MAX 64

typedef struct rl_set {
  double panel[4];          /* x0, y0, x1, y1 */
  double box[RL_MAX][4];    /* taken: x0, y0, x1, y1 */
  int n;
  int backing;              /* draw a translucent white box behind each label (rl_init: 1) */
} rl_set;

void rl_init(rl_set* s, double x, double y, double w, double h);
/* Mark a box (x, y, w, h) as taken (a key, a scale bar, a text drawn elsewhere). */
void rl_take(rl_set* s, double x, double y, double w, double h);
/* The logical box (x, y, w, h) of text at size anchored at (x, y) by (ax, ay), as draw_text puts it. */
void rl_box(cairo_t* cr, double x, double y, double size, double ax, double ay, const char* text, double out[4]);
/* 1 if the box (x, y, w, h) is inside the panel and clear of every box taken. */
int rl_free(const rl_set* s, const double b[4]);
/* Draw text at (x, y) anchored by (ax, ay) if its box is free (see above); 1 if drawn. */
int rl_place_at(rl_set* s, cairo_t* cr, double x, double y, double ax, double ay, double size, const char* text);
/* Draw text beside the point (x, y), gap away from it: right, left, above, below, then the four
 * diagonals, the first free; 1 if drawn. */
int rl_place(rl_set* s, cairo_t* cr, double x, double y, double gap, double size, const char* text);
/* rl_place trying first the positions nearest the screen direction (dx, dy) (y down). */
int rl_place_dir(rl_set* s, cairo_t* cr, double x, double y, double dx, double dy, double gap, double size, const char* text);

/* Boxes (x0, y0, x1, y1, device pixels of the frame) that a later layer will cover with text of
 * its own (the captions' subtitles and lower thirds: render/teach.h teach_reserve), for the
 * calling thread until the next call (n 0: none). rl_take_reserved marks those of them that
 * meet s's panel as taken, in the user units of cr; rl_reserved copies them (up to max). */
#define RL_RESERVE_MAX 16
void rl_reserve(const double (*box)[4], int n);
int rl_reserved(double (*out)[4], int max);
void rl_take_reserved(rl_set* s, cairo_t* cr);

#endif
