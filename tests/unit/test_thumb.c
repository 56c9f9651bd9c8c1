/* test_thumb.c — issue 34 item 5: the library's thumbnails (the web server's `render --view track
 * --size 320x240 --hud off` at the take's end) keep the scale bar and the colour keys off the
 * track. The track's pixel box (every road edge point through the view's fitted transform, which
 * the view keeps in its cache) must not meet the speed and height keys (their text out to the
 * ramps at the right edge) nor the scale bar (its text down to the bar at the bottom), measured by
 * the text record (render/draw.h). Two tracks: the chatter ride's ring and Laguna Seca (a piece). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/draw.h"
#include "render/render.h"
#include "sim/track.h"
#include "tests/unit/test.h"

/* The road's pixel box (x0, y0, x1, y1) through the whole-track view's transform. */
static void road_box(const track* t, const plan_xf* f, double b[4]) {
  b[0] = b[1] = INFINITY;
  b[2] = b[3] = -INFINITY;
  for (double s = 0, L = track_length(t); s <= L; s += 1) {
    double wl, wr, p[3], hd;
    track_widths(t, s, &wl, &wr);
    for (int k = 0; k < 2; k++) {
      track_eval(t, s, k ? wl : -wr, p, &hd);
      double x = f->ox + f->s * p[0], y = f->oy - f->s * p[1];
      b[0] = fmin(b[0], x), b[1] = fmin(b[1], y), b[2] = fmax(b[2], x), b[3] = fmax(b[3], y);
    }
  }
}

/* The first key or scale text whose box (widened to what it stands for) meets the road's box. */
static const draw_text_box* overlapping(const draw_text_log* log, const double road[4], int W, int H, double r[4]) {
  for (int i = 0; i < log->n; i++) {
    const draw_text_box* b = &log->b[i];
    int key = !strncmp(b->text, "trail speed", 11) || !strncmp(b->text, "road height", 11);
    int scale = strlen(b->text) > 2 && !strcmp(b->text + strlen(b->text) - 2, " m") && b->box[1] > H / 2;
    if (!key && !scale) continue;
    memcpy(r, b->box, sizeof b->box);
    if (key) r[2] = W;     /* the ramp right of the text */
    if (scale) r[3] = H;   /* the bar under the text */
    if (r[0] < road[2] && road[0] < r[2] && r[1] < road[3] && road[1] < r[3]) return b;
  }
  return NULL;
}

static void check_thumb(const char* name) {
  mt_err e = {0};
  const char* take = mt_test_take(name, &e);
  CHECK_MSG(take, "%s", e.msg);
  rr_ctx c;
  rr_opts o = {.view = "track", .hud = 0};
  CHECK_MSG(rr_open(&c, take, NULL, &o, 320, 240, &e) == 0, "%s", e.msg);
  cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 320, 240);
  cairo_t* cr = cairo_create(s);
  static draw_text_log log;
  draw_text_log_attach(&log);
  int rc = rr_draw(&c, cr, c.k.duration - 0.01, &e);
  draw_text_log_attach(NULL);
  cairo_destroy(cr);
  cairo_surface_destroy(s);
  double road[4], r[4];
  road_box(c.k.tk, &c.cache.wxf, road);
  const draw_text_box* b = overlapping(&log, road, 320, 240, r);
  rr_close(&c);
  CHECK_MSG(rc == 0, "%s", e.msg);
  int keys = 0;
  for (int i = 0; i < log.n; i++) keys += !strncmp(log.b[i].text, "trail speed", 11) || !strncmp(log.b[i].text, "road height", 11);
  CHECK_MSG(keys == 2, "%d keys drawn", keys);
  CHECK_MSG(!b, "%s: '%s' (%.1f,%.1f)-(%.1f,%.1f) meets the road's box (%.1f,%.1f)-(%.1f,%.1f)", name, b->text, r[0], r[1], r[2],
            r[3], road[0], road[1], road[2], road[3]);
}

MT_TEST(thumb_keys_and_scale_bar_off_the_track_ring) { check_thumb("takes/chatter"); }
MT_TEST(thumb_keys_and_scale_bar_off_the_track_laguna) { check_thumb("laguna_piece"); }
