/* draw.c — Cairo figures, text, colours and line plots (see draw.h). */
#include "render/draw.h"

#include "base/cli.h"
#include "base/outfile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FONT "DejaVu Sans"

int draw_fig_new(draw_fig* f, int w, int h, mt_err* e) {
  memset(f, 0, sizeof *f);
  f->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
  if (cairo_surface_status(f->surface) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(f->surface);
    f->surface = NULL;
    return mt_fail(e, MT_EINTERNAL, "cannot create a %dx%d image", w, h);
  }
  f->cr = cairo_create(f->surface);
  f->w = w;
  f->h = h;
  cairo_set_source_rgb(f->cr, 1, 1, 1);
  cairo_paint(f->cr);
  cairo_select_font_face(f->cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  return MT_OK;
}

typedef struct membuf { unsigned char* p; size_t n, cap; } membuf;

static cairo_status_t write_mem(void* closure, const unsigned char* data, unsigned int len) {
  membuf* m = closure;
  if (m->n + len > m->cap) {
    while (m->n + len > m->cap) m->cap = m->cap ? m->cap * 2 : 65536;
    m->p = mt_realloc(m->p, m->cap);
  }
  memcpy(m->p + m->n, data, len);
  m->n += len;
  return CAIRO_STATUS_SUCCESS;
}

int draw_fig_save_png(draw_fig* f, const char* path, mt_err* e) {
  cairo_surface_flush(f->surface);
  membuf m = {0};
  cairo_status_t st = cairo_surface_write_to_png_stream(f->surface, write_mem, &m);
  if (st != CAIRO_STATUS_SUCCESS) {
    free(m.p);
    return mt_fail(e, MT_EINTERNAL, "%s: PNG encoding failed: %s", path, cairo_status_to_string(st));
  }
  int rc = mt_write_file_atomic(path, m.p, m.n, e);
  free(m.p);
  return rc;
}

void draw_fig_free(draw_fig* f) {
  if (f->cr) cairo_destroy(f->cr);
  if (f->surface) cairo_surface_destroy(f->surface);
  memset(f, 0, sizeof *f);
}

/* Decimal digits only (no sign, no spaces), saturating above 99999: sscanf's %d accepted
 * " 100x+100" and wrapped "4294967360" to 64 (found by tests/fuzz/fuzz_size.c). */
static const char* size_number(const char* s, int* v) {
  int n = 0, d = 0;
  for (; *s >= '0' && *s <= '9'; s++, d++) n = n > 99999 ? n : 10 * n + (*s - '0');
  if (d == 0) return NULL;
  *v = n;
  return s;
}

int draw_parse_size(const char* s, int* w, int* h) {
  int a, b;
  if (!s || !(s = size_number(s, &a)) || *s++ != 'x' || !(s = size_number(s, &b)) || *s) return -1;
  if (a < 64 || b < 64 || a > 8192 || b > 8192) return -1;
  *w = a;
  *h = b;
  return 0;
}

/*---- legibility: panels and the text record ----*/

/* Per thread: frames may be drawn on several threads; only a test attaches a record. The panel
 * stack is kept whether or not a record is attached (a few stores per panel). */
static _Thread_local draw_text_log* text_log;
#define PANEL_DEPTH 8
static _Thread_local double panel_box[PANEL_DEPTH][4];
static _Thread_local int panel_depth;

double draw_em(cairo_t* cr) {
  cairo_surface_t* s = cairo_get_target(cr);
  if (cairo_surface_get_type(s) != CAIRO_SURFACE_TYPE_IMAGE) return DRAW_EM_OTHER;
  double dx = 0, dy = 1;
  cairo_user_to_device_distance(cr, &dx, &dy);
  double scale = hypot(dx, dy);
  return scale > 0 ? DRAW_TEXT_MIN * cairo_image_surface_get_height(s) / scale : DRAW_EM_OTHER;
}

/* The device bounding box of the user-space box (x0, y0)-(x1, y1). */
static void device_bbox(cairo_t* cr, double x0, double y0, double x1, double y1, double b[4]) {
  double px[4] = {x0, x1, x1, x0}, py[4] = {y0, y0, y1, y1};
  b[0] = b[1] = INFINITY;
  b[2] = b[3] = -INFINITY;
  for (int i = 0; i < 4; i++) {
    cairo_user_to_device(cr, &px[i], &py[i]);
    b[0] = fmin(b[0], px[i]), b[1] = fmin(b[1], py[i]);
    b[2] = fmax(b[2], px[i]), b[3] = fmax(b[3], py[i]);
  }
}

void draw_panel_begin(cairo_t* cr, double x, double y, double w, double h) {
  cairo_save(cr);
  cairo_rectangle(cr, x, y, w, h);
  cairo_clip(cr);
  if (panel_depth < PANEL_DEPTH) device_bbox(cr, x, y, x + w, y + h, panel_box[panel_depth]);
  panel_depth++;
}

void draw_panel_end(cairo_t* cr) {
  if (panel_depth > 0) panel_depth--;
  cairo_restore(cr);
}

int draw_text_log_active(void) { return text_log != NULL; }

void draw_text_log_attach(draw_text_log* log) {
  text_log = log;
  if (log) log->n = log->dropped = 0;
}

/* Record a text whose logical box is (x0, y0)-(x1, y1) in user units, drawn at font size. */
static void record_text(cairo_t* cr, const char* s, double x0, double y0, double x1, double y1, double size) {
  if (text_log->n >= DRAW_TEXT_LOG_MAX) {
    text_log->dropped++;
    return;
  }
  draw_text_box* b = &text_log->b[text_log->n++];
  snprintf(b->text, sizeof b->text, "%s", s);
  device_bbox(cr, x0, y0, x1, y1, b->box);
  double dx = 0, dy = size;
  cairo_user_to_device_distance(cr, &dx, &dy);
  b->px = hypot(dx, dy);
  if (panel_depth > 0) {
    memcpy(b->panel, panel_box[panel_depth > PANEL_DEPTH ? PANEL_DEPTH - 1 : panel_depth - 1], sizeof b->panel);
  } else {
    cairo_surface_t* t = cairo_get_target(cr);
    int img = cairo_surface_get_type(t) == CAIRO_SURFACE_TYPE_IMAGE;
    b->panel[0] = b->panel[1] = 0;
    b->panel[2] = img ? cairo_image_surface_get_width(t) : 0;
    b->panel[3] = img ? cairo_image_surface_get_height(t) : 0;
  }
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 if it is not one (overlong forms,
 * surrogates and code points past U+10FFFF included). */
static int utf8_len(const unsigned char* p) {
  if (p[0] < 0x80) return 1;
  int n = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
  if (!n || p[0] > 0xf4) return 0;
  for (int i = 1; i < n; i++)
    if ((p[i] & 0xc0) != 0x80) return 0;
  if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) || (p[0] == 0xf0 && p[1] < 0x90) ||
      (p[0] == 0xf4 && p[1] >= 0x90))
    return 0;
  return n;
}

/* s as Cairo may show it: a text from a take (an event's name, a channel's) is a stranger's, and
 * invalid UTF-8 would put cr in an error state that blanks the rest of the frame, so any byte
 * that is not valid UTF-8, and any control character, becomes '?' (in buf, up to n − 1 bytes). */
static const char* showable(const char* s, char* buf, size_t n) {
  const unsigned char* p = (const unsigned char*)s;
  int clean = 1;
  for (const unsigned char* q = p; *q && clean;) {
    int l = utf8_len(q);
    clean = l > 0 && *q >= 0x20 && *q != 0x7f;
    q += l > 0 ? l : 1;
  }
  if (clean) return s;
  size_t o = 0;
  while (*p && o + 4 < n) {
    int l = utf8_len(p);
    if (l == 0 || *p < 0x20 || *p == 0x7f) {
      buf[o++] = '?';
      p++;
    } else {
      memcpy(buf + o, p, (size_t)l);
      o += (size_t)l;
      p += l;
    }
  }
  buf[o] = 0;
  return buf;
}

void draw_showable(const char* s, char* out, size_t n) {
  if (!n) return;
  const char* r = showable(s, out, n);
  if (r == s) {   /* clean: copy, cut at a character boundary */
    size_t o = 0;
    const unsigned char* p = (const unsigned char*)s;
    while (*p) {
      int l = utf8_len(p);
      if (o + (size_t)l >= n) break;
      memcpy(out + o, p, (size_t)l);
      o += (size_t)l;
      p += l;
    }
    out[o] = 0;
  }
}

void draw_text(cairo_t* cr, double x, double y, double size, double ax, double ay, const char* text) {
  char safe[512];
  const char* s = showable(text, safe, sizeof safe);
  cairo_save(cr);
  cairo_set_font_size(cr, size);
  cairo_font_extents_t fe;
  cairo_font_extents(cr, &fe);
  /* The text turned into glyphs once, for its width and for showing it (cairo_text_extents and
   * cairo_show_text each did it again: a sixth of a text's cost). */
  cairo_scaled_font_t* sf = cairo_get_scaled_font(cr);
  cairo_glyph_t* g = NULL;
  int ng = 0;
  if (cairo_scaled_font_text_to_glyphs(sf, 0, 0, s, -1, &g, &ng, NULL, NULL, NULL) != CAIRO_STATUS_SUCCESS) {
    cairo_restore(cr);
    return;
  }
  cairo_text_extents_t te;
  cairo_scaled_font_glyph_extents(sf, g, ng, &te);
  /* Anchor on the advance width and the font's ascent/descent, so labels line up. */
  double tw = te.x_advance, th = fe.ascent + fe.descent, gx = x - ax * tw, gy = y - ay * th + fe.ascent;
  for (int i = 0; i < ng; i++) g[i].x += gx, g[i].y += gy;
  cairo_show_glyphs(cr, g, ng);
  cairo_glyph_free(g);
  if (text_log) record_text(cr, s, gx, y - ay * th, gx + tw, y - ay * th + th, size);
  cairo_restore(cr);
}

double draw_text_width(cairo_t* cr, double size, const char* text) {
  char safe[512];
  const char* s = showable(text, safe, sizeof safe);
  cairo_save(cr);
  cairo_set_font_size(cr, size);
  cairo_text_extents_t te;
  cairo_text_extents(cr, s, &te);
  cairo_restore(cr);
  return te.x_advance;
}

double draw_line_pitch(cairo_t* cr, double size, double factor) {
  cairo_save(cr);
  cairo_set_font_size(cr, size);
  cairo_font_extents_t fe;
  cairo_font_extents(cr, &fe);
  cairo_restore(cr);
  return fmax(factor * size, fe.ascent + fe.descent + 0.05 * size);
}

double draw_shown(double v, double step) {
  if (!isfinite(v) || !(step > 0)) return v;
  double r = round(v / step) * step;
  return r == 0 ? 0.0 : r;   /* -0.0 == 0: both become +0 */
}

void draw_textf(cairo_t* cr, double x, double y, double size, double ax, double ay, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  draw_text(cr, x, y, size, ax, ay, buf);
}

void draw_text_rot(cairo_t* cr, double x, double y, double size, double angle, const char* s) {
  cairo_save(cr);
  cairo_translate(cr, x, y);
  cairo_rotate(cr, -angle);
  draw_text(cr, 0, 0, size, 0.5, 0.5, s);
  cairo_restore(cr);
}

void draw_color(int i, double rgb[3]) {
  /* Okabe–Ito-like qualitative palette, readable by colour-blind viewers, then greys. */
  static const double pal[10][3] = {
      {0.000, 0.447, 0.698}, {0.835, 0.369, 0.000}, {0.000, 0.620, 0.451}, {0.800, 0.475, 0.655},
      {0.902, 0.624, 0.000}, {0.337, 0.706, 0.914}, {0.600, 0.100, 0.100}, {0.941, 0.894, 0.259},
      {0.300, 0.300, 0.300}, {0.550, 0.350, 0.150}};
  if (i < 0) {
    rgb[0] = rgb[1] = rgb[2] = 0;
    return;
  }
  memcpy(rgb, pal[i % 10], sizeof pal[0]);
}

/* Piecewise-linear approximation of viridis through 6 stops. */
static const double VIRIDIS[6][3] = {{0.267, 0.005, 0.329}, {0.231, 0.322, 0.545}, {0.129, 0.569, 0.549},
                                     {0.369, 0.788, 0.384}, {0.741, 0.875, 0.149}, {0.993, 0.906, 0.144}};
/* The road's relief: green low, sand, pale high. */
static const double RELIEF[4][3] = {{0.30, 0.38, 0.26}, {0.55, 0.52, 0.36}, {0.76, 0.66, 0.50}, {0.95, 0.93, 0.89}};

static void ramp_at(const double (*st)[3], int n, double t, double rgb[3]) {
  t = mt_clamp(isfinite(t) ? t : 0, 0, 1) * (n - 1);
  int i = (int)t;
  if (i >= n - 1) i = n - 2;
  double u = t - i;
  for (int k = 0; k < 3; k++) rgb[k] = st[i][k] * (1 - u) + st[i + 1][k] * u;
}

void draw_ramp(double t, double rgb[3]) { ramp_at(VIRIDIS, 6, t, rgb); }

void draw_ramp_elev(double t, double rgb[3]) { ramp_at(RELIEF, 4, t, rgb); }

cairo_pattern_t* draw_ramp_pattern(int elev, double x0, double x1) {
  const double(*st)[3] = elev ? RELIEF : VIRIDIS;
  int n = elev ? 4 : 6;
  cairo_pattern_t* p = cairo_pattern_create_linear(x0, 0, x1, 0);
  for (int i = 0; i < n; i++) cairo_pattern_add_color_stop_rgb(p, (double)i / (n - 1), st[i][0], st[i][1], st[i][2]);
  return p;
}

void draw_set_rgb(cairo_t* cr, const double rgb[3]) { cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]); }

double draw_nice_step(double range, int target) {
  if (!(range > 0) || !isfinite(range)) return 1;
  double raw = range / (target > 0 ? target : 5);
  double p = pow(10, floor(log10(raw)));
  double m = raw / p;
  double nice = m < 1.5 ? 1 : m < 2.25 ? 2 : m < 3.5 ? 2.5 : m < 7.5 ? 5 : 10;
  return nice * p;
}

int draw_plot_add(draw_plot* p, const double* x, const double* y, int n, const char* label, int color, int dash) {
  if (p->ns >= DRAW_MAX_SERIES) return -1;
  draw_series* s = &p->s[p->ns];
  memset(s, 0, sizeof *s);
  s->x = x;
  s->y = y;
  s->n = n;
  s->label = label;
  s->color = color;
  s->dash = dash;
  return p->ns++;
}

#define MARGIN_L 78
#define MARGIN_R 18
#define MARGIN_T 36
#define MARGIN_B 52

static void limits(draw_plot* p) {
  if (p->fixed_x && p->fixed_y) return;
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (int i = 0; i < p->ns; i++)
    for (int k = 0; k < p->s[i].n; k++) {
      double x = p->s[i].x[k], y = p->s[i].y[k];
      if (!isfinite(x) || !isfinite(y)) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  if (!(x1 >= x0)) { x0 = 0; x1 = 1; }
  if (!(y1 >= y0)) { y0 = 0; y1 = 1; }
  if (x1 == x0) { x0 -= 1; x1 += 1; }
  if (y1 == y0) { y0 -= 1; y1 += 1; }
  if (!p->fixed_x) {
    p->xmin = x0;
    p->xmax = x1;
  }
  if (!p->fixed_y) {
    /* Round the y range out to ticks, with a little headroom. */
    double st = draw_nice_step(y1 - y0, 6);
    p->ymin = floor(y0 / st) * st;
    p->ymax = ceil(y1 / st) * st;
    if (p->ymax - y1 < 0.02 * (y1 - y0)) p->ymax += st;
    if (y0 - p->ymin < 0.02 * (y1 - y0) && y0 < 0) p->ymin -= st;
  }
}

draw_map draw_plot_map(const draw_plot* p, double x, double y, double w, double h) {
  draw_map m = {x + MARGIN_L, y + MARGIN_T, w - MARGIN_L - MARGIN_R, h - MARGIN_T - MARGIN_B,
                p->xmin, p->xmax, p->ymin, p->ymax};
  if (p->equal_aspect) {
    double sx = m.w / (m.xmax - m.xmin), sy = m.h / (m.ymax - m.ymin);
    if (sx > sy) {
      double cx = 0.5 * (m.xmin + m.xmax), half = 0.5 * m.w / sy;
      m.xmin = cx - half;
      m.xmax = cx + half;
    } else {
      double cy = 0.5 * (m.ymin + m.ymax), half = 0.5 * m.h / sx;
      m.ymin = cy - half;
      m.ymax = cy + half;
    }
  }
  return m;
}

double draw_map_x(const draw_map* m, double v) { return m->x0 + (v - m->xmin) / (m->xmax - m->xmin) * m->w; }
double draw_map_y(const draw_map* m, double v) { return m->y0 + m->h - (v - m->ymin) / (m->ymax - m->ymin) * m->h; }

static void fmt_tick(char* buf, size_t n, double v, double step) {
  if (fabs(v) < step * 1e-9) v = 0;
  int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
  if (fabs(step * pow(10, dec) - round(step * pow(10, dec))) > 1e-6) dec++;
  if (fabs(v) >= 1e5 || (fabs(v) > 0 && fabs(v) < 1e-3)) snprintf(buf, n, "%.3g", v);
  else snprintf(buf, n, "%.*f", dec, v);
}

void draw_plot_render(cairo_t* cr, double x, double y, double w, double h, draw_plot* p) {
  limits(p);
  draw_map m = draw_plot_map(p, x, y, w, h);
  cairo_save(cr);
  /* grid and ticks */
  double xs = draw_nice_step(m.xmax - m.xmin, (int)(m.w / 90) > 2 ? (int)(m.w / 90) : 3);
  double ys = draw_nice_step(m.ymax - m.ymin, (int)(m.h / 60) > 2 ? (int)(m.h / 60) : 3);
  cairo_set_line_width(cr, 1);
  char buf[64];
  if (p->log10_x) {   /* decades labelled, 2..9 × each decade as grid */
    for (double dcd = floor(m.xmin); dcd <= m.xmax + 1e-9; dcd += 1)
      for (int k = 1; k <= 9; k++) {
        double v = dcd + log10(k);
        if (v < m.xmin - 1e-9 || v > m.xmax + 1e-9) continue;
        double px = round(draw_map_x(&m, v)) + 0.5;
        cairo_set_source_rgb(cr, k == 1 ? 0.8 : 0.92, k == 1 ? 0.8 : 0.92, k == 1 ? 0.8 : 0.92);
        cairo_move_to(cr, px, m.y0);
        cairo_line_to(cr, px, m.y0 + m.h);
        cairo_stroke(cr);
        if (k != 1 && k != 2 && k != 5) continue;
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        snprintf(buf, sizeof buf, "%g", k * pow(10, dcd));
        draw_text(cr, px, m.y0 + m.h + 5, 12, 0.5, 0, buf);
      }
  }
  for (double v = ceil(m.xmin / xs) * xs; !p->log10_x && v <= m.xmax + xs * 1e-9; v += xs) {
    double px = round(draw_map_x(&m, v)) + 0.5;
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_move_to(cr, px, m.y0);
    cairo_line_to(cr, px, m.y0 + m.h);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    fmt_tick(buf, sizeof buf, v, xs);
    draw_text(cr, px, m.y0 + m.h + 5, 12, 0.5, 0, buf);
  }
  for (double v = ceil(m.ymin / ys) * ys; v <= m.ymax + ys * 1e-9; v += ys) {
    double py = round(draw_map_y(&m, v)) + 0.5;
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_move_to(cr, m.x0, py);
    cairo_line_to(cr, m.x0 + m.w, py);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    fmt_tick(buf, sizeof buf, v, ys);
    draw_text(cr, m.x0 - 6, py, 12, 1, 0.5, buf);
  }
  if (p->zero_lines) {
    cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
    if (m.xmin < 0 && m.xmax > 0) {
      cairo_move_to(cr, draw_map_x(&m, 0), m.y0);
      cairo_line_to(cr, draw_map_x(&m, 0), m.y0 + m.h);
    }
    if (m.ymin < 0 && m.ymax > 0) {
      cairo_move_to(cr, m.x0, draw_map_y(&m, 0));
      cairo_line_to(cr, m.x0 + m.w, draw_map_y(&m, 0));
    }
    cairo_stroke(cr);
  }
  /* series, clipped to the plot box */
  cairo_save(cr);
  cairo_rectangle(cr, m.x0, m.y0, m.w, m.h);
  cairo_clip(cr);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  for (int i = 0; i < p->ns; i++) {
    draw_series* s = &p->s[i];
    double rgb[3];
    draw_color(s->color, rgb);
    draw_set_rgb(cr, rgb);
    cairo_set_line_width(cr, s->width > 0 ? s->width : 2);
    double d1[] = {8, 5}, d2[] = {2, 4};
    if (s->dash == 1) cairo_set_dash(cr, d1, 2, 0);
    else if (s->dash == 2) cairo_set_dash(cr, d2, 2, 0);
    else cairo_set_dash(cr, NULL, 0, 0);
    int pen = 0;
    for (int k = 0; k < s->n; k++) {
      if (!isfinite(s->x[k]) || !isfinite(s->y[k])) {
        pen = 0;
        continue;
      }
      double px = draw_map_x(&m, s->x[k]), py = draw_map_y(&m, s->y[k]);
      if (pen) cairo_line_to(cr, px, py);
      else cairo_move_to(cr, px, py);
      pen = 1;
    }
    cairo_stroke(cr);
    if (s->markers)
      for (int k = 0; k < s->n; k++) {
        if (!isfinite(s->x[k]) || !isfinite(s->y[k])) continue;
        cairo_arc(cr, draw_map_x(&m, s->x[k]), draw_map_y(&m, s->y[k]), 3, 0, 2 * MT_PI);
        cairo_fill(cr);
      }
  }
  cairo_set_dash(cr, NULL, 0, 0);
  cairo_restore(cr);
  /* frame and labels */
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  cairo_set_line_width(cr, 1.2);
  cairo_rectangle(cr, m.x0 + 0.5, m.y0 + 0.5, m.w, m.h);
  cairo_stroke(cr);
  if (p->title) draw_text(cr, m.x0 + m.w / 2, y + 8, 15, 0.5, 0, p->title);
  if (p->xlabel) draw_text(cr, m.x0 + m.w / 2, m.y0 + m.h + 26, 13, 0.5, 0, p->xlabel);
  if (p->ylabel) draw_text_rot(cr, x + 16, m.y0 + m.h / 2, 13, MT_PI / 2, p->ylabel);
  /* legend */
  if (p->legend) {
    int nl = 0;
    double lw = 0;
    cairo_set_font_size(cr, 12);
    for (int i = 0; i < p->ns; i++)
      if (p->s[i].label) {
        cairo_text_extents_t te;
        cairo_text_extents(cr, p->s[i].label, &te);
        if (te.x_advance > lw) lw = te.x_advance;
        nl++;
      }
    if (nl) {
      double bw = lw + 46, bh = nl * 17 + 8;
      double bx = (p->legend == 2 || p->legend == 4) ? m.x0 + 8 : m.x0 + m.w - bw - 8;
      double by = (p->legend <= 2) ? m.y0 + 8 : m.y0 + m.h - bh - 8;
      cairo_set_source_rgba(cr, 1, 1, 1, 0.88);
      cairo_rectangle(cr, bx, by, bw, bh);
      cairo_fill_preserve(cr);
      cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
      cairo_set_line_width(cr, 1);
      cairo_stroke(cr);
      int k = 0;
      for (int i = 0; i < p->ns; i++) {
        if (!p->s[i].label) continue;
        double rgb[3];
        draw_color(p->s[i].color, rgb);
        draw_set_rgb(cr, rgb);
        double d1[] = {8, 5}, d2[] = {2, 4};
        if (p->s[i].dash == 1) cairo_set_dash(cr, d1, 2, 0);
        else if (p->s[i].dash == 2) cairo_set_dash(cr, d2, 2, 0);
        cairo_set_line_width(cr, 2.5);
        double ly = by + 12 + k * 17;
        cairo_move_to(cr, bx + 6, ly);
        cairo_line_to(cr, bx + 32, ly);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        draw_text(cr, bx + 38, ly, 12, 0, 0.5, p->s[i].label);
        k++;
      }
    }
  }
  cairo_restore(cr);
}

void draw_arrow(cairo_t* cr, double x0, double y0, double x1, double y1, double head) {
  double dx = x1 - x0, dy = y1 - y0, L = hypot(dx, dy);
  if (L < 1) return;
  dx /= L;
  dy /= L;
  cairo_move_to(cr, x0, y0);
  cairo_line_to(cr, x1 - dx * head * 0.7, y1 - dy * head * 0.7);
  cairo_stroke(cr);
  cairo_move_to(cr, x1, y1);
  cairo_line_to(cr, x1 - dx * head - dy * head * 0.45, y1 - dy * head + dx * head * 0.45);
  cairo_line_to(cr, x1 - dx * head + dy * head * 0.45, y1 - dy * head - dx * head * 0.45);
  cairo_close_path(cr);
  cairo_fill(cr);
}
