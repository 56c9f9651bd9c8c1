/* labels.c — placing labels clear of each other and inside their panel (see labels.h). */
#include "render/labels.h"

#include <string.h>

#include "render/draw.h"

void rl_init(rl_set* s, double x, double y, double w, double h) {
  s->panel[0] = x, s->panel[1] = y, s->panel[2] = x + w, s->panel[3] = y + h;
  s->n = 0;
  s->backing = 1;
}

void rl_take(rl_set* s, double x, double y, double w, double h) {
  if (s->n >= RL_MAX) return;
  double* b = s->box[s->n++];
  b[0] = x, b[1] = y, b[2] = x + w, b[3] = y + h;
}

void rl_box(cairo_t* cr, double x, double y, double size, double ax, double ay, const char* text, double out[4]) {
  cairo_save(cr);
  cairo_set_font_size(cr, size);
  cairo_text_extents_t te;
  cairo_font_extents_t fe;
  cairo_text_extents(cr, text, &te);
  cairo_font_extents(cr, &fe);
  cairo_restore(cr);
  double w = te.x_advance, h = fe.ascent + fe.descent;   /* as draw_text anchors */
  out[0] = x - ax * w, out[1] = y - ay * h, out[2] = w, out[3] = h;
}

int rl_free(const rl_set* s, const double b[4]) {
  double x0 = b[0], y0 = b[1], x1 = b[0] + b[2], y1 = b[1] + b[3];
  if (x0 < s->panel[0] || y0 < s->panel[1] || x1 > s->panel[2] || y1 > s->panel[3]) return 0;
  for (int i = 0; i < s->n; i++) {
    const double* o = s->box[i];
    if (x0 < o[2] && o[0] < x1 && y0 < o[3] && o[1] < y1) return 0;
  }
  return s->n < RL_MAX;
}

int rl_place_at(rl_set* s, cairo_t* cr, double x, double y, double ax, double ay, double size, const char* text) {
  double b[4];
  rl_box(cr, x, y, size, ax, ay, text, b);
  if (!rl_free(s, b)) return 0;
  /* a translucent backing keeps the label readable over the road and the trail */
  double pad = 0.12 * size;
  if (s->backing) {
    cairo_save(cr);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.72);
    cairo_rectangle(cr, b[0] - pad, b[1], b[2] + 2 * pad, b[3]);
    cairo_fill(cr);
    cairo_restore(cr);
  }
  draw_text(cr, x, y, size, ax, ay, text);
  rl_take(s, b[0] - pad, b[1], b[2] + 2 * pad, b[3]);
  return 1;
}

/* offset direction (dx, dy) and anchor (ax, ay): right, left, above, below, the diagonals */
static const double CAND[8][4] = {{1, 0, 0, 0.5},     {-1, 0, 1, 0.5},     {0, -1, 0.5, 1},  {0, 1, 0.5, 0},
                                  {0.7, -0.7, 0, 1}, {-0.7, -0.7, 1, 1}, {0.7, 0.7, 0, 0}, {-0.7, 0.7, 1, 0}};

int rl_place(rl_set* s, cairo_t* cr, double x, double y, double gap, double size, const char* text) {
  for (int i = 0; i < 8; i++)
    if (rl_place_at(s, cr, x + CAND[i][0] * gap, y + CAND[i][1] * gap, CAND[i][2], CAND[i][3], size, text)) return 1;
  return 0;
}

int rl_place_dir(rl_set* s, cairo_t* cr, double x, double y, double dx, double dy, double gap, double size, const char* text) {
  int order[8];
  double score[8];
  for (int i = 0; i < 8; i++) {   /* insertion sort by alignment with (dx, dy): stable, deterministic */
    score[i] = CAND[i][0] * dx + CAND[i][1] * dy;
    int j = i;
    for (; j > 0 && score[order[j - 1]] < score[i]; j--) order[j] = order[j - 1];
    order[j] = i;
  }
  for (int k = 0; k < 8; k++) {
    const double* c = CAND[order[k]];
    if (rl_place_at(s, cr, x + c[0] * gap, y + c[1] * gap, c[2], c[3], size, text)) return 1;
  }
  return 0;
}

/*---- boxes reserved for a later layer ----*/

static _Thread_local double reserved[RL_RESERVE_MAX][4];
static _Thread_local int nreserved;

void rl_reserve(const double (*box)[4], int n) {
  nreserved = n < 0 ? 0 : n > RL_RESERVE_MAX ? RL_RESERVE_MAX : n;
  for (int i = 0; i < nreserved; i++) memcpy(reserved[i], box[i], sizeof reserved[i]);
}

int rl_reserved(double (*out)[4], int max) {
  int n = nreserved < max ? nreserved : max;
  for (int i = 0; i < n; i++) memcpy(out[i], reserved[i], sizeof reserved[i]);
  return n;
}

void rl_take_reserved(rl_set* s, cairo_t* cr) {
  for (int i = 0; i < nreserved; i++) {
    double x0 = reserved[i][0], y0 = reserved[i][1], x1 = reserved[i][2], y1 = reserved[i][3];
    cairo_device_to_user(cr, &x0, &y0);   /* the views draw in frame pixels; a scale would be honoured */
    cairo_device_to_user(cr, &x1, &y1);
    if (x0 < s->panel[2] && s->panel[0] < x1 && y0 < s->panel[3] && s->panel[1] < y1) rl_take(s, x0, y0, x1 - x0, y1 - y0);
  }
}
