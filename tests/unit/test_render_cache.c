/* test_render_cache.c — issue 36 item 4: the layers the renderer keeps between frames draw the
 * same pixels as drawing everything every frame (rv_cache.plain, MOTOTAKE_RENDER_PLAIN=1).
 *
 * On the countersteering take with its captions and every overlay, the side view and the default
 * grid, HUD on: each frame is drawn the cached way and the plain way and compared byte for byte,
 * at two times (the second frame reuses the layer) and at three sizes in turn on one context
 * (rr_set_size: the layer must follow the new box). That the cached way was taken is checked too
 * (a layer exists after the frame), so the comparison cannot pass by falling back.
 *
 * The captions' wrapped lines, kept per item (render/captions.h cap_list.memo), likewise: a
 * frame drawn with the memo equals one drawn by a context without it (every text wrapped
 * afresh), at the title, the lower third and the subtitles, at three sizes in turn.
 *
 * The side and rear views fill the machine's translucent shapes without antialiasing and draw
 * their outlines opaque, pre-blended with the fill over the view's background
 * (rd_draw_shape_aliased): the countersteering machine drawn so stays within a few levels of
 * the same drawing with the fills antialiased and the outlines translucent (rd_draw_shape, as
 * before), in the views' FAST antialiasing — the outline hides the fill's stair-stepped edge.
 * Measured: at most 25 levels apart, none over 32; outlines not blended with what lies under
 * them (0.9 × their colour, opaque) put 5 415 of the side view's pixels over 32. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/rig_draw.h"
#include "takes/run.h"
#include "tests/unit/test.h"

static const char* cs_take(mt_err* e) { return mt_test_take("takes/countersteer", e); }

/* Frame t of c into s (W×H of c), the cached way or the plain way. */
static int draw(rr_ctx* c, cairo_surface_t* s, double t, int plain, mt_err* e) {
  c->cache.plain = plain;
  cairo_t* cr = cairo_create(s);
  int rc = rr_draw(c, cr, t, e);
  cairo_destroy(cr);
  cairo_surface_flush(s);
  c->cache.plain = 0;
  return rc;
}

/* Pixels that differ between two W×H ARGB32 surfaces. */
static long differing(cairo_surface_t* a, cairo_surface_t* b, int W, int H) {
  long n = 0;
  int sa = cairo_image_surface_get_stride(a), sb = cairo_image_surface_get_stride(b);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      n += memcmp(cairo_image_surface_get_data(a) + (size_t)y * sa + 4 * x, cairo_image_surface_get_data(b) + (size_t)y * sb + 4 * x, 4) != 0;
  return n;
}

MT_TEST(render_cache_layers_draw_the_plain_frames) {
  mt_err e = {0};
  const char* take = cs_take(&e);
  CHECK_MSG(take, "countersteer take: %s", e.msg);
  if (!take) return;
  char caps[4096];
  snprintf(caps, sizeof caps, "%s/takes/captions/countersteer.lua", mt_test_root());
  static const char* const VIEW[] = {"side", "grid"};
  static const int SIZE[][2] = {{1280, 720}, {1920, 1080}, {960, 540}};
  static const double T[] = {3.05, 3.5};
  for (int v = 0; v < 2; v++) {
    rr_opts o = {.view = VIEW[v], .span = 120, .hud = 1, .captions = caps, .overlays = "all"};
    rr_ctx c;
    int rc = rr_open(&c, take, NULL, &o, SIZE[0][0], SIZE[0][1], &e);
    CHECK_MSG(!rc, "%s: %s", VIEW[v], e.msg);
    if (rc) continue;
    c.o.t1 = c.k.duration;
    for (int z = 0; z < 3; z++) {
      int W = SIZE[z][0], H = SIZE[z][1];
      rr_set_size(&c, W, H);
      cairo_surface_t* a = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
      cairo_surface_t* b = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
      for (int i = 0; i < 2; i++) {
        int ok = !draw(&c, a, T[i], 0, &e) && !draw(&c, b, T[i], 1, &e);
        CHECK_MSG(ok, "%s %dx%d t %.2f: %s", VIEW[v], W, H, T[i], e.msg);
        CHECK_MSG(c.cache.hud && cairo_image_surface_get_height(c.cache.hud) == H, "%s %dx%d: the cached way drew no layer of the frame's height", VIEW[v], W, H);
        long d = ok ? differing(a, b, W, H) : -1;
        CHECK_MSG(d == 0, "%s %dx%d t %.2f: %ld pixels differ between the cached and the plain frame", VIEW[v], W, H, T[i], d);
      }
      cairo_surface_destroy(a);
      cairo_surface_destroy(b);
    }
    rr_close(&c);
  }
}

/* Frame t of c into s; c's captions wrapped afresh when c has no memo. */
static int draw_caps(rr_ctx* c, cairo_surface_t* s, double t, mt_err* e) { return draw(c, s, t, 0, e); }

MT_TEST(render_cache_caption_memo_draws_the_fresh_wraps) {
  mt_err e = {0};
  const char* take = cs_take(&e);
  CHECK_MSG(take, "countersteer take: %s", e.msg);
  if (!take) return;
  char caps[4096];
  snprintf(caps, sizeof caps, "%s/takes/captions/countersteer.lua", mt_test_root());
  static const int SIZE[][2] = {{1280, 720}, {1920, 1080}, {960, 540}};
  static const double T[] = {1.0, 3.05, 3.5};   /* the title; the lower third and each subtitle */
  rr_opts o = {.view = "side", .span = 120, .hud = 1, .captions = caps, .overlays = "all"};
  rr_ctx c[2];
  int rc = rr_open(&c[0], take, NULL, &o, SIZE[0][0], SIZE[0][1], &e);
  if (!rc && (rc = rr_open(&c[1], take, NULL, &o, SIZE[0][0], SIZE[0][1], &e))) rr_close(&c[0]);
  CHECK_MSG(!rc, "open: %s", e.msg);
  if (rc) return;
  free(c[1].teach.cap.memo);   /* c[1]: no memo, every caption wrapped afresh every frame */
  c[1].teach.cap.memo = NULL;
  for (int k = 0; k < 2; k++) c[k].o.t1 = c[k].k.duration;
  for (int z = 0; z < 3; z++) {
    int W = SIZE[z][0], H = SIZE[z][1];
    cairo_surface_t* a = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_surface_t* b = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    for (int k = 0; k < 2; k++) rr_set_size(&c[k], W, H);
    for (int i = 0; i < 3; i++) {
      int ok = !draw_caps(&c[0], a, T[i], &e) && !draw_caps(&c[1], b, T[i], &e);
      CHECK_MSG(ok, "%dx%d t %.2f: %s", W, H, T[i], e.msg);
      long d = ok ? differing(a, b, W, H) : -1;
      CHECK_MSG(d == 0, "%dx%d t %.2f: %ld pixels differ between the frame with the caption memo and without", W, H, T[i], d);
    }
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
  }
  /* the title's two texts, the lower third's two, the two subtitles: kept, so the memo was used */
  CHECK_MSG(cap_memo_kept(&c[0].teach.cap) >= 6 && cap_memo_kept(&c[1].teach.cap) == 0, "memo entries kept: %d with the memo, %d without",
            cap_memo_kept(&c[0].teach.cap), cap_memo_kept(&c[1].teach.cap));
  rr_close(&c[0]);
  rr_close(&c[1]);
}

/* The machine of c (the side or rear view of its state), every shape at opacity 0.45 over a
 * light ground, its fills aliased or not. */
static void machine(rr_ctx* c, cairo_surface_t* s, int aliased, int rear) {
  static const double BG[3] = {0.94, 0.95, 0.97};
  cairo_t* cr = cairo_create(s);
  cairo_set_source_rgb(cr, BG[0], BG[1], BG[2]);
  cairo_paint(cr);
  cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST);   /* as draw_bodies (render/views.c) */
  cairo_set_tolerance(cr, 0.25);
  int W = cairo_image_surface_get_width(s), H = cairo_image_surface_get_height(s);
  rd_view v = rear ? rv_rear_xf(&c->k, &c->st, 0, 0, W, H) : rv_side_xf(&c->k, &c->st, 0, 0, W, H);
  for (int b = 0; b < c->k.nb; b++)
    for (int q = 0; q < c->k.body[b].nshape; q++)
      if (aliased) rd_draw_shape_aliased(cr, &v, &c->k.body[b].shape[q], c->st.pose + 7 * b, 0.45, 0, BG);
      else rd_draw_shape(cr, &v, &c->k.body[b].shape[q], c->st.pose + 7 * b, 0.45, 0);
  cairo_destroy(cr);
  cairo_surface_flush(s);
}

/* The largest difference of one channel (0–255) between a and b, each averaged over 3 × 3
 * pixels first, and how many pixels differ by more than lim: the same ink, placed to within a
 * pixel, compares equal. */
static int max_diff_blurred(cairo_surface_t* a, cairo_surface_t* b, int W, int H, int lim, long* over) {
  int m = 0, sa = cairo_image_surface_get_stride(a);
  const unsigned char *da = cairo_image_surface_get_data(a), *db = cairo_image_surface_get_data(b);
  *over = 0;
  for (int y = 1; y < H - 1; y++)
    for (int x = 1; x < W - 1; x++) {
      int d = 0;
      for (int k = 0; k < 3; k++) {
        int s1 = 0, s2 = 0;
        for (int j = -1; j <= 1; j++)
          for (int i = -1; i <= 1; i++) {
            s1 += da[(size_t)(y + j) * sa + 4 * (x + i) + k];
            s2 += db[(size_t)(y + j) * sa + 4 * (x + i) + k];
          }
        int dk = abs(s1 - s2) / 9;
        d = dk > d ? dk : d;
      }
      m = d > m ? d : m;
      *over += d > lim;
    }
  return m;
}

/* The largest difference of one channel (0–255) between a and b, and how many pixels differ by more than lim. */
static int max_diff(cairo_surface_t* a, cairo_surface_t* b, int W, int H, int lim, long* over) {
  int m = 0, sa = cairo_image_surface_get_stride(a);
  *over = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      const unsigned char *p = cairo_image_surface_get_data(a) + (size_t)y * sa + 4 * x, *q = cairo_image_surface_get_data(b) + (size_t)y * sa + 4 * x;
      int d = 0;
      for (int k = 0; k < 3; k++) d = abs(p[k] - q[k]) > d ? abs(p[k] - q[k]) : d;
      m = d > m ? d : m;
      *over += d > lim;
    }
  return m;
}

MT_TEST(render_cache_aliased_shape_fill_hidden_by_its_outline) {
  mt_err e = {0};
  const char* take = cs_take(&e);
  CHECK_MSG(take, "countersteer take: %s", e.msg);
  if (!take) return;
  rr_opts o = {.view = "side", .span = 120, .hud = 1};
  rr_ctx c;
  int rc = rr_open(&c, take, NULL, &o, 1280, 720, &e);
  if (!rc && (rc = rs_at(&c.k, 3.5, &c.st, &e))) rr_close(&c);
  CHECK_MSG(!rc, "open: %s", e.msg);
  if (rc) return;
  int W = 1280, H = 720;
  cairo_surface_t* a = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_surface_t* b = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  for (int rear = 0; rear < 2; rear++) {
    machine(&c, a, 1, rear);
    machine(&c, b, 0, rear);
    long over, drawn;
    max_diff(a, b, W, H, 255, &drawn);
    cairo_surface_t* bg = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_t* cr = cairo_create(bg);
    cairo_set_source_rgb(cr, 0.94, 0.95, 0.97);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_flush(bg);
    max_diff(a, bg, W, H, 0, &drawn);   /* pixels the machine covers */
    cairo_surface_destroy(bg);
    int m = max_diff_blurred(a, b, W, H, 32, &over);
    /* The aliased drawing (fills, and the straight-sided shapes' outlines, without
     * antialiasing) puts the same ink as the antialiased one to within a pixel: averaged over
     * 3 × 3 pixels, measured: side 368 of 64 074 pixels over 32 levels (at most 65), rear 69
     * of 17 321 (at most 45). Each pixel compared unaveraged, 2 247 are over 32 in the side view: an aliased
     * 1.2 px line is one or two pixels wide where the antialiased one is spread over two or
     * three. With an outline too thin to hide the stair-stepped fill (0.2 px) the side view
     * has 4 492 over. */
    CHECK_MSG(drawn > 10000 && over <= drawn / 100,
              "%s: %ld of the machine's %ld pixels differ by more than 32 levels from the antialiased drawing, averaged over 3 x 3 pixels (at most %d; 1 %% allowed)",
              rear ? "rear" : "side", over, drawn, m);
  }
  cairo_surface_destroy(a);
  cairo_surface_destroy(b);
  rr_close(&c);
}
