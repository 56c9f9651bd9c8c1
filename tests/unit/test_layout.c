/* test_layout.c — issue 36, item 2: every view legible at 720p, 1080p, 4K, 540p and 4:3.
 *
 * One frame of tests/data/laguna_piece.lua (braking into the Andretti hairpin at 15 s) is drawn
 * through rr_draw — the whole frame `mototake render` makes, HUD and timeline included — for
 * each view (plan, track, side, rear, chase, and the grid with its default views) at the three
 * 16:9 sizes, at 960 × 540 and at 1024 × 768 (4:3: the grid's cells are narrowest there), with
 * the text record attached (render/draw.h). Every text drawn must be at least
 * DRAW_TEXT_MIN (2.22 %) of the frame's height, lie inside the panel it was drawn in, and
 * intersect no other text; the plan and track views draw a ghost (the same take, --compare) so
 * that the gap's line is laid out too. A second test holds every text's numbers to what a
 * readout shows: no exponent, and a unit (or a quantity word such as "gear" or "μ") for each. */
#include <ctype.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/ride_win.h"
#include "render/draw.h"
#include "render/render.h"
#include "render/views.h"
#include "tests/unit/test.h"

static const char* const VIEWS[] = {"plan", "track", "side", "rear", "chase", "grid"};
#define NVIEW (int)(sizeof VIEWS / sizeof VIEWS[0])
/* 16:9 at 720p, 1080p and 4K; 960 × 540, where the font's hinting makes a line's box 1.25 units
 * tall or more (small sizes); and 1024 × 768, a 4:3 */
static const int SIZES[][2] = {{1280, 720}, {1920, 1080}, {3840, 2160}, {960, 540}, {1024, 768}};
#define NSIZE (int)(sizeof SIZES / sizeof SIZES[0])
#define AT 15.0

static void release_fonts(void) {
  cairo_debug_reset_static_data();
  void (*fini)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "FcFini");
  if (fini) fini();
}

/* A take opened for drawing view (with the same take as a ghost in the plan views, so that the
 * gap's line is laid out too); 0, or −1 with e saying why. */
static int open_view(rr_ctx* c, const char* take, const char* view, mt_err* e) {
  int ghost = !strcmp(view, "plan") || !strcmp(view, "track");
  rr_opts o = {.view = view, .span = 120, .hud = 1};
  if (rr_open(c, take, ghost ? take : NULL, &o, 1280, 720, e)) return -1;
  c->o.t0 = 0;   /* as render does: the overview bar spans the whole take */
  c->o.t1 = c->k.duration;
  return 0;
}

/* One whole frame at W×H and time t with the record attached; 0, or −1 with e saying why. */
static int draw_recorded(rr_ctx* c, int W, int H, double t, draw_text_log* log, mt_err* e) {
  rr_set_size(c, W, H);
  cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t* cr = cairo_create(s);
  draw_text_log_attach(log);
  int rc = rr_draw(c, cr, t, e);
  draw_text_log_attach(NULL);
  cairo_destroy(cr);
  cairo_surface_destroy(s);
  return rc ? -1 : 0;
}

static int record_frame(const char* take, const char* view, int W, int H, double t, draw_text_log* log, mt_err* e) {
  rr_ctx c;
  if (open_view(&c, take, view, e)) return -1;
  int rc = draw_recorded(&c, W, H, t, log, e);
  rr_close(&c);
  return rc;
}

static int overlap(const double* a, const double* b) {
  const double tol = 0.01;   /* px: boxes that merely touch do not overlap */
  return a[0] + tol < b[2] && b[0] + tol < a[2] && a[1] + tol < b[3] && b[1] + tol < a[3];
}

/* The first layout fault of one frame's record, in msg; 0 if none. */
static int layout_fault(const draw_text_log* log, int W, int H, char* msg, size_t n) {
  if (log->n == 0 || log->dropped) return snprintf(msg, n, "%d texts recorded, %d dropped", log->n, log->dropped), 1;
  double min = DRAW_TEXT_MIN * H * (1 - 1e-9);
  for (int i = 0; i < log->n; i++) {
    const draw_text_box* b = &log->b[i];
    if (b->px < min) return snprintf(msg, n, "'%s' is %.1f px, under %.1f (2.2 %% of %d)", b->text, b->px, min, H), 1;
    const double* p = b->panel;
    if (p[0] < -0.01 || p[1] < -0.01 || p[2] > W + 0.01 || p[3] > H + 0.01)
      return snprintf(msg, n, "'%s': its panel (%.1f,%.1f)-(%.1f,%.1f) leaves the frame", b->text, p[0], p[1], p[2], p[3]), 1;
    if (b->box[0] < p[0] - 0.01 || b->box[1] < p[1] - 0.01 || b->box[2] > p[2] + 0.01 || b->box[3] > p[3] + 0.01)
      return snprintf(msg, n, "'%s' (%.1f,%.1f)-(%.1f,%.1f) is cut by its panel (%.1f,%.1f)-(%.1f,%.1f)", b->text, b->box[0],
                      b->box[1], b->box[2], b->box[3], p[0], p[1], p[2], p[3]),
             1;
    for (int j = 0; j < i; j++)
      if (overlap(b->box, log->b[j].box))
        return snprintf(msg, n, "'%s' (%.1f,%.1f)-(%.1f,%.1f) overlaps '%s' (%.1f,%.1f)-(%.1f,%.1f)", b->text, b->box[0], b->box[1],
                        b->box[2], b->box[3], log->b[j].text, log->b[j].box[0], log->b[j].box[1], log->b[j].box[2], log->b[j].box[3]),
               1;
  }
  return 0;
}

MT_TEST(layout_every_view_at_720p_1080p_4k_540p_and_4_3_texts_legible_inside_panels_apart) {
  mt_err e = {0};
  static draw_text_log log;
  const char* take = mt_test_take("laguna_piece", &e);
  CHECK_MSG(take, "%s", e.msg);
  /* under the sanitizers (make test's second run) every view kind once, not the sweep (each view
   * opened reads the 24 s take, seconds there): the track view with its ghost at 720p, the grid (its
   * chase, plan, side and rear cells, the same drawing) at 540p and at 4:3 */
  const char* tag = getenv("MT_TEST_TAG");
  int quick = tag && strcmp(tag, "asan") == 0;
  for (int v = 0; v < NVIEW && !mt_test_failed; v++) {
    int grid = !strcmp(VIEWS[v], "grid");
    if (quick && !grid && strcmp(VIEWS[v], "track")) continue;
    rr_ctx c;   /* one take and its caches for the four sizes (rr_set_size) */
    CHECK_MSG(open_view(&c, take, VIEWS[v], &e) == 0, "%s: %s", VIEWS[v], e.msg);
    char msg[600] = "";
    for (int z = 0; z < NSIZE && !msg[0]; z++) {
      if (quick && (grid ? z < 3 : z > 0)) continue;
      int W = SIZES[z][0], H = SIZES[z][1];
      char why[512];
      if (draw_recorded(&c, W, H, AT, &log, &e)) snprintf(msg, sizeof msg, "--view %s at %dx%d: %s", VIEWS[v], W, H, e.msg);
      else if (layout_fault(&log, W, H, why, sizeof why))
        snprintf(msg, sizeof msg, "--view %s at %dx%d, %d texts: %s", VIEWS[v], W, H, log.n, why);
    }
    rr_close(&c);
    CHECK_MSG(!msg[0], "%s", msg);
  }
  release_fonts();
}

/* The ride window's instruments (app/ride_win.c): the same panel, in the box the window gives it,
 * at its default 1024 × 640 and other window sizes; its texts legible, inside, apart. It was a
 * fixed 170 px wide, where "117 km/h" ran into "gear 3" and "optimum 8.0°" was cut. */
MT_TEST(layout_ride_window_instruments_legible_inside_their_panel_apart) {
  static const int WIN[][2] = {{1024, 640}, {800, 600}, {1280, 800}, {1920, 1080}};
  mt_err e = {0};
  static draw_text_log log;
  const char* take = mt_test_take("laguna_piece", &e);
  CHECK_MSG(take, "%s", e.msg);
  rr_ctx c;
  CHECK_MSG(open_view(&c, take, "side", &e) == 0, "%s", e.msg);
  CHECK_MSG(rs_at(&c.k, AT, &c.st, &e) == 0, "%s", e.msg);
  char msg[600] = "";
  for (size_t z = 0; z < sizeof WIN / sizeof WIN[0] && !msg[0]; z++) {
    int W = WIN[z][0], H = WIN[z][1];
    double b[4];
    ride_win_hud_box(W, H, b);
    CHECK_MSG(b[2] > 0 && b[0] + b[2] <= W, "%dx%d: the panel %.0f px wide at x %.0f", W, H, b[2], b[0]);
    cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_t* cr = cairo_create(s);
    draw_text_log_attach(&log);
    rv_hud(cr, &c.k, &c.st, b[0], b[1], b[2], b[3]);
    draw_text_log_attach(NULL);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    char why[512];
    if (layout_fault(&log, W, H, why, sizeof why)) snprintf(msg, sizeof msg, "ride window %dx%d, %d texts: %s", W, H, log.n, why);
  }
  rr_close(&c);
  CHECK_MSG(!msg[0], "%s", msg);
  release_fonts();
}

/*---- numbers as a readout shows them ----*/

/* After a number: a unit, or " to " and another number (a key's range). */
static int unit_follows(const char* p) {
  static const char* const UNITS[] = {"km/h", "m/s", "mm", "m", "s", "°", "kN", "N·m", "N", "%", "rpm", "kPa", "rad/s"};
  if (!strncmp(p, " to ", 4) && (isdigit((unsigned char)p[4]) || p[4] == '-' || p[4] == '+')) return 1;
  if (*p == ' ') p++;
  for (size_t i = 0; i < sizeof UNITS / sizeof UNITS[0]; i++)
    if (!strncmp(p, UNITS[i], strlen(UNITS[i]))) return 1;
  return 0;
}

/* Before a number: a word that names a count or a dimensionless quantity. */
static int quantity_before(const char* s, const char* p) {
  static const char* const WORDS[] = {"gear ", "μ ", "lap ", "contacts ", "×"};
  for (size_t i = 0; i < sizeof WORDS / sizeof WORDS[0]; i++) {
    size_t n = strlen(WORDS[i]);
    if ((size_t)(p - s) >= n && !strncmp(p - n, WORDS[i], n)) return 1;
  }
  return 0;
}

/* The first number of s printed with an exponent or without its unit, in msg; 0 if none. A
 * number starts at a digit (after an optional sign) not preceded by a letter: "T10" is a name. */
static int number_fault(const char* s, char* msg, size_t n) {
  for (const char* p = s; *p; p++) {
    if (!isdigit((unsigned char)*p) || (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '_'))) continue;
    const char* start = p > s && (p[-1] == '-' || p[-1] == '+') ? p - 1 : p;
    while (isdigit((unsigned char)*p) || *p == '.') p++;
    if ((*p == 'e' || *p == 'E') && (isdigit((unsigned char)p[1]) || p[1] == '-' || p[1] == '+'))
      return snprintf(msg, n, "'%s': an exponent at '%s'", s, start), 1;
    if (!unit_follows(p) && !quantity_before(s, start)) return snprintf(msg, n, "'%s': no unit after '%.*s'", s, (int)(p - start), start), 1;
    p--;
  }
  return 0;
}

MT_TEST(layout_every_number_drawn_has_a_unit_and_no_exponent) {
  mt_err e = {0};
  static draw_text_log log;
  const char* take = mt_test_take("laguna_piece", &e);
  CHECK_MSG(take, "%s", e.msg);
  static const double TIMES[] = {0.0, AT};   /* at rest on the line (zeros: no "-0.0", no "8.3e-19") and braking */
  int numbers = 0;
  static const char* const V2[] = {"grid", "track"};   /* the grid holds the side, rear and plan views, HUD and timeline */
  for (int v = 0; v < 2 && !mt_test_failed; v++) {
    rr_ctx c;
    CHECK_MSG(open_view(&c, take, V2[v], &e) == 0, "%s: %s", V2[v], e.msg);
    char msg[600] = "";
    for (int ti = 0; ti < 2 && !msg[0]; ti++) {
      if (draw_recorded(&c, 1280, 720, TIMES[ti], &log, &e)) snprintf(msg, sizeof msg, "--view %s: %s", V2[v], e.msg);
      for (int i = 0; i < log.n && !msg[0]; i++) {
        char why[256];
        numbers += strpbrk(log.b[i].text, "0123456789") != NULL;
        if (number_fault(log.b[i].text, why, sizeof why)) snprintf(msg, sizeof msg, "--view %s at %g s: %s", V2[v], TIMES[ti], why);
      }
    }
    rr_close(&c);
    CHECK_MSG(!msg[0], "%s", msg);
  }
  CHECK_MSG(numbers >= 30, "only %d texts with numbers: the check saw too little", numbers);
  release_fonts();
}

/*---- the timeline's event names ----*/

static int count_texts(const draw_text_log* log, const char* prefix) {
  int n = 0;
  for (int i = 0; i < log->n; i++) n += !strncmp(log->b[i].text, prefix, strlen(prefix));
  return n;
}

/* tests/data/layout_marks.lua: twenty "nudge" marks 20 ms apart are one name, "nudge ×20";
 * "apex" 10 ms before "exit" goes to the second row; "exit" finds no place and is left out; the
 * frame's layout holds (a smear of overlapping names was the complaint). */
MT_TEST(layout_timeline_event_names_one_per_run_stacked_or_thinned_never_overlapping) {
  mt_err e = {0};
  static draw_text_log log;
  const char* take = mt_test_take("layout_marks", &e);
  CHECK_MSG(take, "%s", e.msg);
  CHECK_MSG(record_frame(take, "grid", 1280, 720, 0.7, &log, &e) == 0, "%s", e.msg);
  char msg[512];
  CHECK_MSG(!layout_fault(&log, 1280, 720, msg, sizeof msg), "%s", msg);
  CHECK_MSG(count_texts(&log, "nudge ×20") == 1 && count_texts(&log, "nudge") == 1, "%d 'nudge ×20', %d 'nudge…' texts",
            count_texts(&log, "nudge ×20"), count_texts(&log, "nudge"));
  CHECK_MSG(count_texts(&log, "apex") == 1, "%d 'apex' texts", count_texts(&log, "apex"));
  const draw_text_box *run = NULL, *apex = NULL;
  for (int i = 0; i < log.n; i++) {
    if (!strcmp(log.b[i].text, "nudge ×20")) run = &log.b[i];
    if (!strcmp(log.b[i].text, "apex")) apex = &log.b[i];
  }
  CHECK(run && apex);
  CHECK_MSG(apex->box[1] >= run->box[3] - 0.01, "'apex' (top %.1f) is not on the row below 'nudge ×20' (bottom %.1f)", apex->box[1],
            run->box[3]);
  CHECK_MSG(count_texts(&log, "exit") == 0, "'exit' drawn though no row has room for it");
  release_fonts();
}

/* An event's or a channel's name comes from a take, a stranger's file: bytes that are not UTF-8
 * would put the Cairo context in an error state and blank the rest of the frame. draw_text shows
 * them as '?' and the context stays usable. */
MT_TEST(layout_invalid_utf8_and_control_characters_drawn_as_question_marks) {
  static draw_text_log log;
  cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 200, 100);
  cairo_t* cr = cairo_create(s);
  draw_text_log_attach(&log);
  draw_text(cr, 10, 10, 16, 0, 0, "caf\xe9 \xc3\xa9t\xe9\x01");   /* Latin-1 é, a good é, a cut sequence and a control */
  draw_text(cr, 10, 40, 16, 0, 0, "ok");
  draw_text_log_attach(NULL);
  CHECK_MSG(cairo_status(cr) == CAIRO_STATUS_SUCCESS, "cairo: %s", cairo_status_to_string(cairo_status(cr)));
  CHECK_MSG(log.n == 2 && !strcmp(log.b[0].text, "caf? \xc3\xa9t??"), "%d texts, the first '%s'", log.n, log.b[0].text);
  char out[6];
  draw_showable("ab\xc3\xa9\xc3\xa9", out, sizeof out);   /* 6 bytes and the 0 do not fit in 6: cut at a character */
  CHECK_MSG(!strcmp(out, "ab\xc3\xa9"), "'%s' (%zu bytes), not cut after the first é", out, strlen(out));
  cairo_destroy(cr);
  cairo_surface_destroy(s);
  release_fonts();
}

/* The record is worth what its boxes are: under a view's scale and translation (the HUD's), a
 * text's recorded box holds every dark pixel drawn and is not much larger than their extent,
 * its size is the device size, and its panel is the panel's device box. */
MT_TEST(layout_text_record_boxes_hold_the_ink_they_name) {
  static draw_text_log log;
  const int W = 400, H = 200;
  cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t* cr = cairo_create(s);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_translate(cr, 50, 30);
  cairo_scale(cr, 1.5, 1.5);
  draw_text_log_attach(&log);
  draw_panel_begin(cr, 10, 10, 200, 80);
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_text(cr, 110, 50, 20, 0.5, 0.5, "Hgjy 42°");
  draw_panel_end(cr);
  draw_text_log_attach(NULL);
  cairo_surface_flush(s);
  CHECK_MSG(log.n == 1, "%d texts recorded", log.n);
  const draw_text_box* b = &log.b[0];
  CHECK_MSG(fabs(b->px - 30) < 1e-9, "size %.3f px, drawn at 20 × 1.5 = 30", b->px);
  CHECK_MSG(fabs(b->panel[0] - 65) < 1e-9 && fabs(b->panel[1] - 45) < 1e-9 && fabs(b->panel[2] - 365) < 1e-9 && fabs(b->panel[3] - 165) < 1e-9,
            "panel (%.1f,%.1f)-(%.1f,%.1f), not (65,45)-(365,165)", b->panel[0], b->panel[1], b->panel[2], b->panel[3]);
  int x0 = W, y0 = H, x1 = -1, y1 = -1, outside = 0;
  const unsigned char* d = cairo_image_surface_get_data(s);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      uint32_t p = ((const uint32_t*)(d + (size_t)y * cairo_image_surface_get_stride(s)))[x];
      if (((p >> 16) & 255) + ((p >> 8) & 255) + (p & 255) > 3 * 128) continue;   /* not ink */
      if (x < x0) x0 = x;
      if (y < y0) y0 = y;
      if (x > x1) x1 = x;
      if (y > y1) y1 = y;
      outside += x < b->box[0] - 1 || x + 1 > b->box[2] + 1 || y < b->box[1] - 1 || y + 1 > b->box[3] + 1;
    }
  CHECK_MSG(x1 >= 0 && outside == 0, "%d ink pixels outside the recorded box (%.1f,%.1f)-(%.1f,%.1f)", outside, b->box[0], b->box[1],
            b->box[2], b->box[3]);
  CHECK_MSG(x1 - x0 + 1 > 0.85 * (b->box[2] - b->box[0]) && y1 - y0 + 1 > 0.7 * (b->box[3] - b->box[1]),
            "ink (%d,%d)-(%d,%d) fills too little of the recorded box (%.1f,%.1f)-(%.1f,%.1f)", x0, y0, x1, y1, b->box[0], b->box[1],
            b->box[2], b->box[3]);
  cairo_destroy(cr);
  cairo_surface_destroy(s);
  release_fonts();
}

/*---- captions and overlays with the views' own text ----*/

/* Issue 36, item 2: a subtitle, a lower third and a callout at once, with --overlays all, in
 * every view at 720p, 1080p and 4K: ALL the frame's texts, captions included, legible, inside
 * their panels and apart (a subtitle that hides a force label is a layout bug). Title cards
 * are left out: they dim the whole frame on purpose, nothing under them is meant to be read. */
MT_TEST(layout_captions_callout_and_overlays_apart_from_every_view_text) {
  mt_err e = {0};
  static draw_text_log log;
  const char* take = mt_test_take("laguna_piece", &e);
  CHECK_MSG(take, "%s", e.msg);
  char caps[4200];
  snprintf(caps, sizeof caps, "%s/caps_all_styles.lua", mt_test_tmpdir());
  FILE* f = fopen(caps, "w");
  CHECK(f);
  fputs("return {\n"
        "  { t0 = 14, t1 = 16, style = \"lower\", text = \"Andretti hairpin\", line = \"front brake 38 %, then push right\" },\n"
        "  { t0 = 14, t1 = 16, style = \"subtitle\", text = \"Brake upright and hard, then push the right grip to lean in\" },\n"
        "  { t0 = 14, t1 = 16, style = \"callout\", at = \"front_contact\", text = \"front contact\" },\n}\n", f);
  fclose(f);
  int callouts = 0;   /* "front contact" labels drawn: a callout left out everywhere would pass too easily */
  /* under the sanitizers (make test's second run) every view kind once, not the sweep (each view
   * opened reads the 24 s take, seconds there): the track view at 720p, the grid (its chase, plan,
   * side and rear cells, the same drawing) at the three sizes */
  const char* tag = getenv("MT_TEST_TAG");
  int quick = tag && strcmp(tag, "asan") == 0;
  for (int v = 0; v < NVIEW && !mt_test_failed; v++) {
    int grid = !strcmp(VIEWS[v], "grid");
    if (quick && !grid && strcmp(VIEWS[v], "track")) continue;
    rr_opts o = {.view = VIEWS[v], .span = 120, .hud = 1, .captions = caps, .overlays = "all"};
    rr_ctx c;
    CHECK_MSG(!rr_open(&c, take, NULL, &o, 1280, 720, &e), "%s: %s", VIEWS[v], e.msg);
    c.o.t0 = 0, c.o.t1 = c.k.duration;
    char msg[600] = "";
    for (int z = 0; z < (quick && !grid ? 1 : 3) && !msg[0]; z++) {   /* the three 16:9 sizes */
      int W = SIZES[z][0], H = SIZES[z][1], subs = 0;
      char why[512];
      if (draw_recorded(&c, W, H, AT, &log, &e)) snprintf(msg, sizeof msg, "--view %s at %dx%d: %s", VIEWS[v], W, H, e.msg);
      else if (layout_fault(&log, W, H, why, sizeof why))
        snprintf(msg, sizeof msg, "--view %s at %dx%d, %d texts: %s", VIEWS[v], W, H, log.n, why);
      for (int i = 0; i < log.n; i++) {
        subs += !strncmp(log.b[i].text, "Brake upright", 13) || !strcmp(log.b[i].text, "Andretti hairpin");
        callouts += !strcmp(log.b[i].text, "front contact");
      }
      if (!msg[0] && subs < 2) snprintf(msg, sizeof msg, "--view %s at %dx%d: the subtitle or lower third not drawn", VIEWS[v], W, H);
    }
    rr_close(&c);
    CHECK_MSG(!msg[0], "%s", msg);
  }
  /* 18 frames can show it (side, rear, chase: 3 sizes each; the grid's 3 such cells at 3 sizes);
   * one with no room clear of the captions leaves it out (the grid's side cell: 15 drawn); quick,
   * the grid's 3 cells at 3 sizes: 9, 6 drawn */
  CHECK_MSG(callouts >= (quick ? 4 : 12), "the callout's label drawn in only %d of %d frames", callouts, quick ? 9 : 18);
  release_fonts();
}
