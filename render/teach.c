/* teach.c — captions, callouts and overlays on a frame (see teach.h). */
#include "render/teach.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/draw.h"
#include "render/force_overlay.h"
#include "render/labels.h"

/* a view's boxes to avoid: every reserved caption box and the two force labels */
_Static_assert(sizeof((co_proj*)0)->avoid / sizeof((co_proj*)0)->avoid[0] >= RL_RESERVE_MAX + 2, "co_proj.avoid too small");

int teach_parse_overlays(const char* s, int* bits, mt_err* e) {
  *bits = 0;
  if (!s) return MT_OK;
  char buf[256];
  if (strlen(s) >= sizeof buf) return mt_fail(e, MT_EINPUT, "render: --overlays: too long (bars, forces, all or none)");
  snprintf(buf, sizeof buf, "%s", s);
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (!strcmp(tok, "bars")) *bits |= TEACH_BARS;
    else if (!strcmp(tok, "forces")) *bits |= TEACH_FORCES;
    else if (!strcmp(tok, "all")) *bits |= TEACH_BARS | TEACH_FORCES;
    else if (strcmp(tok, "none"))
      return mt_fail(e, MT_EINPUT, "render: --overlays: unknown overlay '%.40s' (bars, forces, all or none)", tok);
  }
  return MT_OK;
}

/* A mark event's label (its JSON's "label", written by the take's runner) and time; 0 when the
 * event is not a mark or its JSON does not parse (a take's text is a stranger's). */
static int mark_label(const take_event* ev, double dt, char out[64], double* t) {
  if (strcmp(ev->kind, "mark") || !ev->json) return 0;
  json_t* j = json_loads(ev->json, 0, NULL);
  const char* s = j ? json_string_value(json_object_get(j, "label")) : NULL;
  if (s) snprintf(out, 64, "%s", s);
  *t = ev->step * dt;
  json_decref(j);
  return s != NULL;
}

int teach_open(teach_ctx* t, const rs_take* k, const char* captions, const char* overlays, mt_err* e) {
  memset(t, 0, sizeof *t);
  if (teach_parse_overlays(overlays, &t->overlays, e)) return MT_EINPUT;
  co_places_init(&t->places, k);
  if (!captions) return MT_OK;
  if (cap_load(captions, &t->cap, e)) return MT_EINPUT;
  const char** names = mt_alloc(sizeof *names * (k->nb + 1));
  for (int b = 0; b < k->nb; b++) names[b] = k->body[b].name ? k->body[b].name : "";
  int ne = take_nevents(k->r), nm = 0;
  char(*marks)[64] = mt_alloc(sizeof *marks * (ne + 1));
  const char** mp = mt_alloc(sizeof *mp * (ne + 1));
  double* mt = mt_alloc(sizeof *mt * (ne + 1));
  for (int i = 0; i < ne; i++) nm += mark_label(take_event_at(k->r, i), k->dt, marks[nm], &mt[nm]);
  for (int i = 0; i < nm; i++) mp[i] = marks[i];
  int rc = cap_check(&t->cap, k->duration, names, k->nb, mp, mt, nm, e);
  free(names);
  free(marks);
  free(mp);
  free(mt);
  if (rc) cap_free(&t->cap);
  return rc ? MT_EINPUT : MT_OK;
}

void teach_close(teach_ctx* t) {
  cap_free(&t->cap);
  memset(t, 0, sizeof *t);
}

/* The view's projection for the callouts and overlays (0: a view they do not draw in). */
static int view_proj(cairo_t* cr, int view, rv_cache* cache, const rs_take* k, const rs_state* st, chase_scene* chase,
                     double span, double x, double y, double w, double h, co_proj* pr) {
  memset(pr, 0, sizeof *pr);
  pr->x = x, pr->y = y, pr->w = w, pr->h = h;
  switch (view) {
    case TEACH_SIDE: pr->kind = CO_ORTHO, pr->ortho = rv_side_xf(k, st, x, y, w, h); return 1;
    case TEACH_REAR: pr->kind = CO_ORTHO, pr->ortho = rv_rear_xf(k, st, x, y, w, h); return 1;
    case TEACH_PLAN: pr->kind = CO_PLAN, pr->plan = rv_plan_xf(cr, cache, k, st, x, y, w, h, span); return 1;
    case TEACH_TRACK: pr->kind = CO_PLAN, pr->plan = rv_plan_xf(cr, cache, k, st, x, y, w, h, 0); return 1;
    case TEACH_CHASE:
      if (!chase) return 0;
      pr->kind = CO_PERSP;
      chase_view_at(chase, st->t, &pr->persp);
      return 1;
  }
  return 0;
}

/* The insets of the chase view: the bars, then the front and rear friction ellipses, squares
 * of a fifth of the cell's height but at least 4.8 caption units (their text keeps its size):
 * a column down the cell's right edge (beside the machine, which the camera keeps centred)
 * when it fits, else a row along the bottom right; above the subtitles' band (CAP_BAND). */
static void insets(const teach_ctx* t, cairo_t* cr, const rs_take* k, const rs_state* st, double x, double y, double w, double h,
                   double u, double vh) {
  int n = (t->overlays & TEACH_BARS ? 1 : 0) + (t->overlays & TEACH_FORCES ? 2 : 0);
  int band = cap_has(&t->cap, CAP_SUB) && y + h >= vh - 1;
  double gap = 0.3 * u, bottom = y + h - gap - (band ? CAP_BAND * u : 0);
  double s = fmax(0.2 * h, 4.8 * u), room = bottom - y - 3 * u;   /* the top 3 units: the view's title */
  int column = n * (s + gap) <= room;
  if (!column) s = fmin(s, fmin(room, (w - gap) / n - gap));
  for (int i = 0, kind = 0; i < n; i++, kind++) {
    double ix = column ? x + w - gap - s : x + w - (n - i) * (s + gap), iy = column ? bottom - (n - i) * (s + gap) + gap : bottom - s;
    if (!(t->overlays & TEACH_BARS) && kind == 0) kind = 1;
    if (kind == 0) tf_bars_inset(cr, k, st, ix, iy, s, u);
    else tf_friction_inset(cr, k, st, kind == 1 ? RIG_FRONT : RIG_REAR, ix, iy, s, u);
  }
}

void teach_cell(const teach_ctx* t, cairo_t* cr, int view, rv_cache* cache, const rs_take* k, const rs_state* st,
                chase_scene* chase, double span, double x, double y, double w, double h, double H, double vh) {
  if (!t->overlays && !t->cap.n) return;
  co_proj pr;
  if (!view_proj(cr, view, cache, k, st, chase, span, x, y, w, h, &pr)) return;
  double u = cap_unit(H);
  pr.navoid = rl_reserved(pr.avoid, RL_RESERVE_MAX);   /* the captions' boxes (teach_reserve); room left for the force labels */
  draw_panel_begin(cr, x, y, w, h);   /* clipped to the cell; its text held inside it */
  /* the forces on the road where the road is seen (rear, chase); the push at the grip where
   * forward is not along the line of sight (side, chase); the insets in the chase view only,
   * beside the machine the camera keeps centred (the side and rear views fill with it) */
  if ((t->overlays & TEACH_FORCES) && (view == TEACH_REAR || view == TEACH_CHASE)) tf_ground_forces(cr, &pr, k, st, u);
  if ((t->overlays & TEACH_BARS) && (view == TEACH_SIDE || view == TEACH_CHASE)) tf_push_arrow(cr, &pr, &t->places, k, st, u);
  co_draw(cr, &pr, &t->places, k, st, &t->cap, st->t, H);
  if (view == TEACH_CHASE && t->overlays) insets(t, cr, k, st, x, y, w, h, u, vh);
  draw_panel_end(cr);
}

void teach_reserve(const teach_ctx* t, cairo_t* cr, double time, double H, double vw, double vh) {
  double b[CAP_BOXES_MAX][4], m = 0.25 * cap_unit(H);   /* a margin: a label beside a caption, not touching it */
  int n = cap_boxes(cr, &t->cap, time, H, vw, vh, b, CAP_BOXES_MAX);
  for (int i = 0; i < n; i++) b[i][0] -= m, b[i][1] -= m, b[i][2] += m, b[i][3] += m;
  rl_reserve((const double(*)[4])b, n);
}

void teach_frame(const teach_ctx* t, cairo_t* cr, double time, double W, double H, double vw, double vh) {
  cap_draw(cr, &t->cap, time, W, H, vw, vh);
  rl_reserve(NULL, 0);   /* the frame is done: the next one reserves its own */
}
