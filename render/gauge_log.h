/* gauge_log.h — what the instruments drew, reported as they draw it (module prefix rgl_), so
 * that tests can hold every number, bar, needle and dot against the take's own channels.
 *
 * Contract: when a log is attached to the calling thread (rgl_attach), every instrument of the
 * views — the HUD's (render/views.c rv_hud), the slip gauges' (render/slip_gauges.c), the side
 * and rear views' readouts (with the rear view's lean line and crown dot), the timeline's (with
 * its progress bar) and the plan view's scale bar, speed key and gap to the ghost — appends one entry per thing it draws: its name
 * ("hud.front_brake"), its kind, the value it shows in the unit it prints, and where it is, in
 * DEVICE pixels of the surface (the views scale and translate; the log undoes nothing for the
 * reader). The entry is written from the same variables the drawing uses, so a value drawn in
 * the wrong gauge or a gauge drawn in the wrong place shows in the log, and the tests also probe
 * the frame's pixels at the logged geometry so that log and picture cannot part unnoticed.
 * With no log attached (the program) a call costs one test of a thread-local pointer; entries
 * beyond RGL_MAX are counted in `dropped`, never written past the end. */
#ifndef GAUGE_LOG_H
#define GAUGE_LOG_H

#include <cairo.h>

#define RGL_MAX 64

enum {
  RGL_TEXT,     /* a number as printed: box = the text's ink box (x0, y0, x1, y1) */
  RGL_VBAR,     /* a bar filling upwards from its zero: box = the track; zero and tip on its centre line */
  RGL_HBAR,     /* a bar from a zero mark left or right: box = the track; zero and tip on its centre line */
  RGL_NEEDLE,   /* a dial's needle: zero = the pivot, tip = the needle's end */
  RGL_DOT       /* a dot in a diagram: box = the diagram (its circle's square), tip = the dot's centre */
};

typedef struct rgl_entry {
  char name[40];
  int kind;
  double value;      /* what it shows: the number printed (RGL_TEXT: the first), or the bar's
                        fraction before clamping, the needle's reading, the dot's |μ| */
  char text[96];     /* RGL_TEXT: the text as drawn */
  double box[4];     /* device pixels: x0, y0, x1, y1 */
  double zero[2];    /* device pixels: the bar's zero point, the needle's pivot (else the box's centre) */
  double tip[2];     /* device pixels: where the bar's fill ends, the needle's end, the dot's centre */
} rgl_entry;

typedef struct rgl_log {
  rgl_entry e[RGL_MAX];
  int n;
  int dropped;
} rgl_log;

/* Attach log to the calling thread (emptied), or detach with NULL. */
void rgl_attach(rgl_log* log);
/* Draw text as draw_text does and, when a log is attached, log it with value. */
void rgl_text(cairo_t* cr, const char* name, double value, double x, double y, double size, double ax, double ay,
              const char* text);
/* rgl_text with the text formatted by printf's fmt. */
void rgl_textf(cairo_t* cr, const char* name, double value, double x, double y, double size, double ax, double ay,
               const char* fmt, ...) __attribute__((format(printf, 9, 10)));
/* Log a bar, needle or dot drawn in cr's user coordinates: box (x, y, w, h), its zero point and tip. */
void rgl_mark(cairo_t* cr, const char* name, int kind, double value, double x, double y, double w, double h, double zx,
              double zy, double tx, double ty);
/* The entry named name in log, or NULL. */
const rgl_entry* rgl_find(const rgl_log* log, const char* name);

#endif
