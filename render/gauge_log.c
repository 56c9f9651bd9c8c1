/* gauge_log.c — the instruments' log (see gauge_log.h). */
#include "render/gauge_log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "render/draw.h"

/* per thread: frames may be drawn on several threads; only a test attaches a log */
static _Thread_local rgl_log* sink;

void rgl_attach(rgl_log* log) {
  sink = log;
  if (log) log->n = log->dropped = 0;
}

static rgl_entry* add(const char* name, int kind, double value) {
  if (!sink) return NULL;
  if (sink->n >= RGL_MAX) {
    sink->dropped++;
    return NULL;
  }
  rgl_entry* e = &sink->e[sink->n++];
  memset(e, 0, sizeof *e);
  snprintf(e->name, sizeof e->name, "%s", name);
  e->kind = kind;
  e->value = value;
  return e;
}

static void to_device(cairo_t* cr, double x, double y, double* out) {
  cairo_user_to_device(cr, &x, &y);
  out[0] = x;
  out[1] = y;
}

/* The box (x, y, w, h) in user units as device x0, y0, x1, y1 (the views only scale and
 * translate, so two corners are the box). */
static void box_to_device(cairo_t* cr, double x, double y, double w, double h, double* b) {
  to_device(cr, x, y, b);
  to_device(cr, x + w, y + h, b + 2);
  for (int k = 0; k < 2; k++)
    if (b[k] > b[k + 2]) {
      double t = b[k];
      b[k] = b[k + 2];
      b[k + 2] = t;
    }
}

void rgl_text(cairo_t* cr, const char* name, double value, double x, double y, double size, double ax, double ay,
              const char* text) {
  draw_text(cr, x, y, size, ax, ay, text);
  rgl_entry* e = add(name, RGL_TEXT, value);
  if (!e) return;
  snprintf(e->text, sizeof e->text, "%s", text);
  /* the ink box as draw_text places the text (same font size and anchor) */
  cairo_save(cr);
  cairo_set_font_size(cr, size);
  cairo_text_extents_t te;
  cairo_font_extents_t fe;
  cairo_text_extents(cr, text, &te);
  cairo_font_extents(cr, &fe);
  double ox = x - ax * te.x_advance, oy = y - ay * (fe.ascent + fe.descent) + fe.ascent;   /* the baseline origin */
  box_to_device(cr, ox + te.x_bearing, oy + te.y_bearing, te.width, te.height, e->box);
  cairo_restore(cr);
  e->zero[0] = e->tip[0] = (e->box[0] + e->box[2]) / 2;
  e->zero[1] = e->tip[1] = (e->box[1] + e->box[3]) / 2;
}

void rgl_textf(cairo_t* cr, const char* name, double value, double x, double y, double size, double ax, double ay,
               const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  rgl_text(cr, name, value, x, y, size, ax, ay, buf);
}

void rgl_mark(cairo_t* cr, const char* name, int kind, double value, double x, double y, double w, double h, double zx,
              double zy, double tx, double ty) {
  rgl_entry* e = add(name, kind, value);
  if (!e) return;
  box_to_device(cr, x, y, w, h, e->box);
  to_device(cr, zx, zy, e->zero);
  to_device(cr, tx, ty, e->tip);
}

const rgl_entry* rgl_find(const rgl_log* log, const char* name) {
  for (int i = 0; i < log->n; i++)
    if (!strcmp(log->e[i].name, name)) return &log->e[i];
  return NULL;
}
