/* captions.c — the caption sidecar and the timed text (see captions.h).
 *
 * Stages: read_item (one table: keys, times, style, texts, callout target), cap_load (the file
 * in a small sandbox, every item), cap_check (against the take); drawing: wrap (greedy, at
 * spaces, by the font's advance widths), one block per style stacked from its anchor. */
#include "render/captions.h"

#include <jansson.h>
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/luabox.h"
#include "render/draw.h"

static const char* const STYLE[CAP_NSTYLE] = {"title", "lower", "subtitle", "callout"};
static const char* const NAMED_AT[CAP_AT_NAMED] = {"front_contact", "rear_contact", "bars", "left_grip", "right_grip", "rider"};
static const char* const KEYS[] = {"t0", "t1", "style", "text", "line", "at", "mark", NULL};

/*---- reading ----*/

/* A text field: at most CAP_TEXT − 1 bytes of valid UTF-8 without control characters (Cairo
 * refuses invalid UTF-8 by putting the whole context in an error state: nothing after it would
 * draw). jansson's json_string validates the UTF-8. */
static int read_text(lua_State* L, const lb_scope* s, const char* f, int required, char* out, mt_err* e) {
  const char* v;
  if (lb_str(L, -1, s, f, required, "", &v, e)) return MT_EINPUT;
  size_t n = strlen(v);
  if (required && n == 0) return lb_fail(s, f, 0, e, "must not be empty");
  if (n >= CAP_TEXT) return lb_fail(s, f, 0, e, "longer than %d bytes (%zu)", CAP_TEXT - 1, n);
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f) return lb_fail(s, f, 0, e, "has a control character at byte %zu (one line: use `line` for a second)", i + 1);
  json_t* j = json_string(v);
  if (!j) return lb_fail(s, f, 0, e, "is not valid UTF-8");
  json_decref(j);
  memcpy(out, v, n + 1);
  return MT_OK;
}

/* A callout's `at`: a named place or a body (a string), or a world point {x, y, z}. */
static int read_at(lua_State* L, const lb_scope* s, cap_item* it, mt_err* e) {
  int ty = lua_getfield(L, -1, "at");
  lua_pop(L, 1);
  if (ty == LUA_TNIL) return lb_fail(s, "at", 0, e, "a callout needs `at` (front_contact, rear_contact, bars, left_grip, right_grip, rider, a body's name or {x, y, z})");
  if (ty == LUA_TTABLE) {
    int pushed;
    if (lb_table(L, -1, s, "at", 0, 1, &pushed, e)) return MT_EINPUT;
    lb_scope ps = lb_enter(s, "at", 0, NULL);
    int rc = luaL_len(L, -1) != 3 ? lb_fail(s, "at", 0, e, "a point needs 3 numbers {x, y, z} (m, world)") : MT_OK;
    for (int k = 0; k < 3 && !rc; k++) rc = lb_num(L, -1, &ps, NULL, k + 1, 1, 0, &it->point[k], e);
    lua_pop(L, 1);
    it->at = CAP_AT_POINT;
    return rc;
  }
  const char* v;
  if (lb_str(L, -1, s, "at", 1, NULL, &v, e)) return MT_EINPUT;
  for (int k = 0; k < CAP_AT_NAMED; k++)
    if (!strcmp(v, NAMED_AT[k])) return it->at = k, MT_OK;
  if (!*v || strlen(v) >= sizeof it->body) return lb_fail(s, "at", 0, e, "'%.60s' is not a place or a body's name", v);
  it->at = CAP_AT_BODY;
  snprintf(it->body, sizeof it->body, "%s", v);
  return MT_OK;
}

static int read_item(lua_State* L, const lb_scope* top, int i, cap_item* it, mt_err* e) {
  int pushed, rc;
  if ((rc = lb_table(L, -1, top, NULL, i, 1, &pushed, e))) return rc;
  char lab[32];
  snprintf(lab, sizeof lab, "caption %d", i);
  lb_scope s = lb_enter(top, NULL, i, lab);
  memset(it, 0, sizeof *it);
  it->src_line = lb_line(top->src, &(lb_key){NULL, i}, 1);
  const char* style;
  rc = lb_check_keys(L, -1, &s, KEYS, e) || lb_num(L, -1, &s, "t0", 0, 1, 0, &it->t0, e) ||
       lb_num(L, -1, &s, "t1", 0, 1, 0, &it->t1, e) || lb_str(L, -1, &s, "style", 0, "subtitle", &style, e);
  const char* mark = "";
  if (!rc) rc = lb_str(L, -1, &s, "mark", 0, "", &mark, e);
  if (!rc && strlen(mark) >= sizeof it->mark) rc = lb_fail(&s, "mark", 0, e, "longer than %zu bytes", sizeof it->mark - 1);
  if (!rc) snprintf(it->mark, sizeof it->mark, "%s", mark);
  if (!rc && it->t0 < 0 && !it->mark[0]) rc = lb_fail(&s, "t0", 0, e, "must be ≥ 0 s (take time), got %g", it->t0);
  if (!rc && !(it->t1 > it->t0)) rc = lb_fail(&s, "t1", 0, e, "must be after t0 (%g s), got %g", it->t0, it->t1);
  if (!rc) {
    it->style = -1;
    for (int k = 0; k < CAP_NSTYLE; k++)
      if (!strcmp(style, STYLE[k])) it->style = k;
    if (it->style < 0) rc = lb_fail(&s, "style", 0, e, "unknown style '%.40s' (title, lower, subtitle, callout)", style);
  }
  if (!rc) rc = read_text(L, &s, "text", 1, it->text, e) || read_text(L, &s, "line", 0, it->line, e);
  if (!rc && it->style == CAP_CALLOUT) rc = read_at(L, &s, it, e);
  else if (!rc && lua_getfield(L, -1, "at") != LUA_TNIL) {
    lua_pop(L, 1);
    rc = lb_fail(&s, "at", 0, e, "only a callout is pinned to a place (style = \"callout\")");
  } else if (!rc) lua_pop(L, 1);
  lua_pop(L, 1);
  return rc ? MT_EINPUT : MT_OK;
}

/* An item's text (0) and line (1) as last wrapped, with what they were wrapped for. Wrapping
 * measures the text word by word (cairo_text_extents), and a caption was wrapped twice a frame
 * (teach_reserve's boxes, then the drawing) although it changes only with the frame's size:
 * kept, it is wrapped once per size (docs/render.md "Speed"). */
typedef struct memo_key {
  char family[64];
  int slant, weight;
  double size, maxw;
} memo_key;
struct cap_memo {
  memo_key key[2];
  int ok[2];
  cap_lines lines[2];
};

/* The file at path, or (text not NULL) that text under the name path; src is freed here. */
static int load(const char* path, char* src, cap_list* l, mt_err* e) {
  memset(l, 0, sizeof *l);
  snprintf(l->path, sizeof l->path, "%s", path);
  /* a list of captions needs little: a small box, so a hostile file fails fast */
  luabox_limits lim = {.mem_bytes = 32u << 20, .instructions = 20000000, .seconds = 2};
  lua_State* L = luabox_new(&lim);
  int rc = MT_OK;
  if (src ? luabox_run(L, src, strlen(src), path, 1, e) : luabox_run_file(L, path, 1, &src, e)) {
    rc = MT_EINPUT;
    goto done;
  }
  lb_scope top = {.file = path, .src = src};
  if (!lua_istable(L, -1)) {
    rc = mt_fail(e, MT_EINPUT, "%s: a caption file returns a list of captions ({ {t0 = 0, t1 = 2, text = \"...\"}, ... })", path);
    goto done;
  }
  int n = (int)luaL_len(L, -1);
  if (n < 1 || n > CAP_MAX) {
    rc = mt_fail(e, MT_EINPUT, "%s: needs 1 to %d captions, got %d", path, CAP_MAX, n);
    goto done;
  }
  lua_pushnil(L);   /* a list: keys 1..n only (a named field or a stray key is a mistake) */
  while (!rc && lua_next(L, -2)) {
    int okk = lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 && lua_tointeger(L, -2) <= n;
    char key[64];
    snprintf(key, sizeof key, "%s", lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?");
    lua_pop(L, 1);
    if (!okk) {
      lua_pop(L, 1);
      rc = lb_fail(&top, key, 0, e, "unexpected: a caption file is a list of captions, no named fields");
    }
  }
  if (rc) goto done;
  l->item = mt_alloc(sizeof *l->item * n);
  l->memo = mt_alloc(sizeof *l->memo * n);   /* zeroed: every entry empty */
  for (int i = 0; i < n && !rc; i++) rc = read_item(L, &top, i + 1, &l->item[i], e);
  l->n = n;
done:
  free(src);
  luabox_close(L);
  if (rc) cap_free(l);
  return rc ? (e->code ? e->code : MT_EINPUT) : MT_OK;
}

int cap_load(const char* path, cap_list* l, mt_err* e) { return load(path, NULL, l, e); }
int cap_load_text(const char* name, const char* text, cap_list* l, mt_err* e) { return load(name, mt_strdup(text), l, e); }

/* Item it's times moved by the time of its mark; MT_EINPUT naming the mark when the take has none. */
static int resolve_mark(const cap_list* l, int i, cap_item* it, const char* const* marks, const double* mark_t, int nmark, mt_err* e) {
  for (int m = 0; m < nmark; m++)
    if (!strcmp(marks[m], it->mark)) {
      it->t0 += mark_t[m], it->t1 += mark_t[m];
      it->mark[0] = 0;   /* resolved: plain take times from here on */
      return MT_OK;
    }
  return mt_fail(e, MT_EINPUT, "%s:%d: caption %d: field 'mark': no mark '%s' in this take (`mototake take info` lists its events)",
                 l->path, it->src_line, i + 1, it->mark);
}

int cap_check(cap_list* l, double duration, const char* const* names, int nb, const char* const* marks, const double* mark_t,
              int nmark, mt_err* e) {
  for (int i = 0; i < l->n; i++) {
    cap_item* it = &l->item[i];
    if (it->mark[0] && resolve_mark(l, i, it, marks, mark_t, nmark, e)) return MT_EINPUT;
    if (!(it->t0 >= 0 && it->t0 < duration))
      return mt_fail(e, MT_EINPUT, "%s:%d: caption %d: field 't0': %g s is not within the take (0 .. %.3f s)", l->path, it->src_line,
                     i + 1, it->t0, duration);
    if (it->style != CAP_CALLOUT || it->at != CAP_AT_BODY) continue;
    int ok = 0;
    for (int b = 0; b < nb && !ok; b++) ok = !strcmp(names[b], it->body);
    if (!ok)
      return mt_fail(e, MT_EINPUT, "%s:%d: caption %d: field 'at': no body '%s' in this take (`mototake take info` lists them)", l->path,
                     it->src_line, i + 1, it->body);
  }
  return MT_OK;
}

void cap_free(cap_list* l) {
  free(l->item);
  free(l->memo);
  l->item = NULL;
  l->memo = NULL;
  l->n = 0;
}

double cap_alpha(const cap_item* it, double t) {
  if (!(t >= it->t0 && t < it->t1)) return 0;
  /* from CAP_FADE_MIN, never 0, so that every frame in [t0, t1) shows the item: a frame at t0
   * is its first, one at t1 the first without it */
  double f = fmin(CAP_FADE, 0.25 * (it->t1 - it->t0));
  return mt_clamp(CAP_FADE_MIN + (1 - CAP_FADE_MIN) * fmin((t - it->t0) / f, (it->t1 - t) / f), CAP_FADE_MIN, 1);
}

int cap_has(const cap_list* l, int style) {
  for (int i = 0; l && i < l->n; i++)
    if (l->item[i].style == style) return 1;
  return 0;
}

double cap_unit(double H) { return 0.03 * H; }

/*---- drawing ----*/

#define BOX_RGB 0.07, 0.08, 0.11
#define BOX_A 0.8
static const double ACCENT[3] = {1.0, 0.72, 0.1};

static double advance(cairo_t* cr, const char* s) {
  cairo_text_extents_t te;
  cairo_text_extents(cr, s, &te);
  return te.x_advance;
}

void cap_wrap(cairo_t* cr, const char* s, double size, double maxw, cap_lines* out) {
  cairo_save(cr);
  cairo_set_font_size(cr, size);
  out->size = size;
  out->n = 0;
  char cur[CAP_TEXT] = "", cand[2 * CAP_TEXT];
  const char* p = s;
  while (*p && out->n < CAP_MAX_LINES) {
    while (*p == ' ') p++;
    const char* q = p;
    while (*q && *q != ' ') q++;
    if (q == p) break;
    snprintf(cand, sizeof cand, "%s%s%.*s", cur, *cur ? " " : "", (int)(q - p), p);
    if (*cur && advance(cr, cand) > maxw) {
      snprintf(out->line[out->n], CAP_TEXT, "%s", cur);
      out->w[out->n] = advance(cr, cur);
      out->n++;
      snprintf(cur, sizeof cur, "%.*s", (int)(q - p), p);
    } else {
      snprintf(cur, sizeof cur, "%s", cand);
    }
    p = q;
  }
  if (*cur && out->n < CAP_MAX_LINES) {
    snprintf(out->line[out->n], CAP_TEXT, "%s", cur);
    out->w[out->n] = advance(cr, cur);
    out->n++;
  }
  cairo_restore(cr);
}

static double line_h(double size) { return 1.25 * size; }


/* The key for wrapping at size and maxw with cr's font; 0 when the font is not a toy face
 * (nothing to compare it by: not kept). */
static int memo_key_of(cairo_t* cr, double size, double maxw, memo_key* k) {
  cairo_font_face_t* f = cairo_get_font_face(cr);
  if (cairo_font_face_get_type(f) != CAIRO_FONT_TYPE_TOY) return 0;
  memset(k, 0, sizeof *k);   /* compared with memcmp: padding and the name's tail zeroed */
  snprintf(k->family, sizeof k->family, "%s", cairo_toy_font_face_get_family(f));
  k->slant = cairo_toy_font_face_get_slant(f);
  k->weight = cairo_toy_font_face_get_weight(f);
  k->size = size;
  k->maxw = maxw;
  return 1;
}

/* cap_wrap(cr, s, size, maxw) through the memo's entry `slot` (m NULL: no memo). */
static const cap_lines* wrap_memo(cairo_t* cr, struct cap_memo* m, int slot, const char* s, double size, double maxw, cap_lines* tmp) {
  memo_key k;
  if (!m || !memo_key_of(cr, size, maxw, &k)) {
    cap_wrap(cr, s, size, maxw, tmp);
    return tmp;
  }
  if (!m->ok[slot] || memcmp(&m->key[slot], &k, sizeof k)) {
    cap_wrap(cr, s, size, maxw, &m->lines[slot]);
    m->key[slot] = k;
    m->ok[slot] = 1;
  }
  return &m->lines[slot];
}

double cap_lines_width(const cap_lines* a) {
  double w = 0;
  for (int i = 0; i < a->n; i++) w = fmax(w, a->w[i]);
  return w;
}

/* Lines of a, in white at opacity al, from (x, y) (top), anchored left (ax 0) or centred (0.5). */
static double draw_lines(cairo_t* cr, const cap_lines* a, double x, double y, double ax, double al, const double* rgb) {
  for (int i = 0; i < a->n; i++) {
    cairo_set_source_rgba(cr, rgb ? rgb[0] : 1, rgb ? rgb[1] : 1, rgb ? rgb[2] : 1, al);
    draw_text(cr, x, y + i * line_h(a->size), a->size, ax, 0, a->line[i]);
  }
  return a->n * line_h(a->size);
}

/* A title card: the whole frame dimmed, the text large and centred, the line under it. */
static void draw_title(cairo_t* cr, const cap_item* it, struct cap_memo* mm, double al, double W, double H) {
  double u = cap_unit(H);
  cairo_set_source_rgba(cr, BOX_RGB, 0.88 * al);
  cairo_rectangle(cr, 0, 0, W, H);
  cairo_fill(cr);
  cap_lines ta, tb;
  const cap_lines* a = wrap_memo(cr, mm, 0, it->text, 2.4 * u, 0.86 * W, &ta);
  const cap_lines* b = wrap_memo(cr, mm, 1, it->line, 1.3 * u, 0.8 * W, &tb);
  double h = a->n * line_h(a->size) + (b->n ? 0.6 * u + b->n * line_h(b->size) : 0), y = 0.5 * (H - h);
  y += draw_lines(cr, a, 0.5 * W, y, 0.5, al, NULL);
  cairo_set_source_rgba(cr, ACCENT[0], ACCENT[1], ACCENT[2], al);
  cairo_rectangle(cr, 0.5 * W - 2 * u, y + 0.2 * u, 4 * u, 0.15 * u);
  cairo_fill(cr);
  draw_lines(cr, b, 0.5 * W, y + 0.6 * u, 0.5, al, NULL);
}

/* A lower third at the bottom y (its box's bottom edge) of the views, drawn when draw is 1;
 * its box (x0, y0, x1, y1) in box; returns its top. */
static double draw_lower(cairo_t* cr, const cap_item* it, struct cap_memo* mm, double al, double bottom, double vw, double H, int draw, double box[4]) {
  double u = cap_unit(H), m = 0.6 * u;
  cap_lines ta, tb;
  const cap_lines* a = wrap_memo(cr, mm, 0, it->text, 1.5 * u, 0.45 * vw, &ta);
  const cap_lines* b = wrap_memo(cr, mm, 1, it->line, 1.05 * u, 0.45 * vw, &tb);
  double bw = fmax(cap_lines_width(a), cap_lines_width(b)) + 2 * m + 0.3 * u, bh = a->n * line_h(a->size) + b->n * line_h(b->size) + 2 * m;
  double x = 1.2 * u, y = bottom - bh;
  box[0] = x, box[1] = y, box[2] = x + bw, box[3] = bottom;
  if (!draw) return y;
  cairo_set_source_rgba(cr, BOX_RGB, BOX_A * al);
  cairo_rectangle(cr, x, y, bw, bh);
  cairo_fill(cr);
  cairo_set_source_rgba(cr, ACCENT[0], ACCENT[1], ACCENT[2], al);
  cairo_rectangle(cr, x, y, 0.3 * u, bh);
  cairo_fill(cr);
  double ty = y + m + draw_lines(cr, a, x + 0.3 * u + m, y + m, 0, al, NULL);
  static const double grey[3] = {0.85, 0.87, 0.9};
  draw_lines(cr, b, x + 0.3 * u + m, ty, 0, al, grey);
  return y;
}

/* A subtitle centred on the views with its box's bottom at `bottom`, drawn when draw is 1; its
 * box in box; returns its top. */
static double draw_sub(cairo_t* cr, const cap_item* it, struct cap_memo* mm, double al, double bottom, double vw, double H, int draw, double box[4]) {
  double u = cap_unit(H), m = 0.4 * u;
  cap_lines ta;
  const cap_lines* a = wrap_memo(cr, mm, 0, it->text, 1.2 * u, 0.86 * vw, &ta);
  double bw = cap_lines_width(a) + 2 * m, bh = a->n * line_h(a->size) + 2 * m, y = bottom - bh;
  box[0] = 0.5 * (vw - bw), box[1] = y, box[2] = 0.5 * (vw + bw), box[3] = bottom;
  if (!draw) return y;
  cairo_set_source_rgba(cr, BOX_RGB, BOX_A * al);
  cairo_rectangle(cr, 0.5 * (vw - bw), y, bw, bh);
  cairo_fill(cr);
  draw_lines(cr, a, 0.5 * vw, y + m, 0.5, al, NULL);
  return y;
}

/* The subtitles and lower thirds visible at t, laid out (and drawn when draw is 1): one walk
 * for drawing and for cap_boxes, so that the boxes the views keep clear are the boxes drawn.
 * Their boxes go to out (up to max); returns how many. */
static int lay_out(cairo_t* cr, const cap_list* l, double t, double H, double vw, double vh, int draw, double (*out)[4], int max) {
  double u = cap_unit(H), box[4];
  /* subtitles from the bottom of the views up; lower thirds from just above the subtitles'
   * band (CAP_BAND) up; each item's box above the last */
  double sub_y = vh - 1.0 * u, low_y = vh - (CAP_BAND + 0.3) * u;
  int n = 0;
  for (int i = 0; i < l->n; i++) {
    const cap_item* it = &l->item[i];
    double al = cap_alpha(it, t);
    if (al <= 0 || (it->style != CAP_SUB && it->style != CAP_LOWER)) continue;
    struct cap_memo* mm = l->memo ? &l->memo[i] : NULL;
    if (it->style == CAP_SUB) sub_y = draw_sub(cr, it, mm, al, sub_y, vw, H, draw, box) - 0.3 * u;
    else low_y = draw_lower(cr, it, mm, al, low_y, vw, H, draw, box) - 0.3 * u;
    if (n < max) memcpy(out[n++], box, sizeof box);
  }
  return n;
}

int cap_memo_kept(const cap_list* l) {
  int n = 0;
  for (int i = 0; l && l->memo && i < l->n; i++) n += l->memo[i].ok[0] + l->memo[i].ok[1];
  return n;
}

int cap_boxes(cairo_t* cr, const cap_list* l, double t, double H, double vw, double vh, double (*out)[4], int max) {
  if (!l || !l->n) return 0;
  cairo_save(cr);
  int n = lay_out(cr, l, t, H, vw, vh, 0, out, max);
  cairo_restore(cr);
  return n;
}

void cap_draw(cairo_t* cr, const cap_list* l, double t, double W, double H, double vw, double vh) {
  if (!l || !l->n) return;
  cairo_save(cr);
  double none[1][4];
  draw_panel_begin(cr, 0, 0, vw, vh);   /* subtitles and lower thirds belong to the views */
  lay_out(cr, l, t, H, vw, vh, 1, none, 0);
  draw_panel_end(cr);
  for (int i = 0; i < l->n; i++) {   /* titles last: over everything */
    double al = cap_alpha(&l->item[i], t);
    if (al > 0 && l->item[i].style == CAP_TITLE) draw_title(cr, &l->item[i], l->memo ? &l->memo[i] : NULL, al, W, H);
  }
  cairo_restore(cr);
}
