/* test_teach.c — issue 36 (T2): the teaching layer of `mototake render` (render/teach.h).
 *
 * On the shipped countersteering take (takes/countersteer.lua: +15 N·m on the bars from 3.0 to
 * 3.4 s, −15 N·m from 8.0 to 8.4 s): the take itself turns right after the positive push (the
 * sign docs/conventions.md gives), and the bar-push cue is drawn on the RIGHT grip then, on
 * the left after the negative one, pointing forward, as long as the torque says; the tyre-force
 * arrows are as long as the recorded Fy against the tyre model's friction limit (computed here
 * from the rig's tyre, not by the renderer's code), in the inset and on the road in the rear
 * view; captions are in exactly the frames of [t0, t1) and every other frame is byte for byte
 * the frame without them. The renderer's log (render/gauge_log.h) says where it drew; the
 * frame's pixels are probed there so that log and picture cannot part. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/draw.h"
#include "render/gauge_log.h"
#include "render/render.h"
#include "scene/rider_points.h"
#include "scene/take_bodies.h"
#include "sim/tyre.h"
#include "takes/run.h"
#include "tests/unit/test.h"

#define W 640
#define H 360

static const char* cs_take(mt_err* e) { return mt_test_take("takes/countersteer", e); }

/* Frame at t of `view` with the HUD off (the views take the whole frame), logged into log
 * (may be NULL). NULL on failure (e says why). */
static cairo_surface_t* frame(const char* take, const char* view, const char* captions, const char* overlays, double t,
                              rgl_log* log, mt_err* e) {
  rr_opts o = {.view = view, .span = 120, .hud = 0, .captions = captions, .overlays = overlays};
  rr_ctx c;
  if (rr_open(&c, take, NULL, &o, W, H, e)) return NULL;
  cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t* cr = cairo_create(s);
  rgl_attach(log);
  int rc = rr_draw(&c, cr, t, e);
  rgl_attach(NULL);
  cairo_destroy(cr);
  rr_close(&c);
  cairo_surface_flush(s);
  if (rc) cairo_surface_destroy(s), s = NULL;
  return s;
}

/* Frame at t of an open context (the take opened once for many frames). */
static cairo_surface_t* draw_at(rr_ctx* c, double t, mt_err* e) {
  cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t* cr = cairo_create(s);
  int rc = rr_draw(c, cr, t, e);
  cairo_destroy(cr);
  cairo_surface_flush(s);
  if (rc) cairo_surface_destroy(s), s = NULL;
  return s;
}

/* The side view with and without the caption file caps, open in c[1] and c[0]; 0 or −1. */
static int open_pair(rr_ctx c[2], const char* take, const char* caps, mt_err* e) {
  for (int i = 0; i < 2; i++) {
    rr_opts o = {.view = "side", .span = 120, .hud = 0, .captions = i ? caps : NULL};
    if (rr_open(&c[i], take, NULL, &o, W, H, e)) {
      if (i) rr_close(&c[0]);
      return -1;
    }
  }
  return 0;
}

static void rgb(cairo_surface_t* s, double x, double y, int out[3]) {
  int ix = (int)floor(x), iy = (int)floor(y);
  uint32_t p = ((uint32_t*)(cairo_image_surface_get_data(s) + (size_t)iy * cairo_image_surface_get_stride(s)))[ix];
  out[0] = p >> 16 & 255, out[1] = p >> 8 & 255, out[2] = p & 255;
}
/* the push arrow's orange (0.95, 0.45, 0) */
static int orange(cairo_surface_t* s, double x, double y) {
  int c[3];
  rgb(s, x, y, c);
  return c[0] > 200 && c[1] > 80 && c[1] < 150 && c[2] < 60;
}
/* the lateral force's green (0.05, 0.55, 0.2) */
static int green(cairo_surface_t* s, double x, double y) {
  int c[3];
  rgb(s, x, y, c);
  return c[1] > 100 && c[0] < 80 && c[2] < 100;
}

static double chan(const rs_take* k, const rs_state* st, const char* name) {
  for (int i = 0; i < k->s->nchan; i++)
    if (!strcmp(k->s->chan_names[i], name)) return st->chan[i];
  return NAN;
}

MT_TEST(teach_push_cue_on_the_pushed_grip_and_the_take_turns_that_way) {
  mt_err e = {0};
  const char* take = cs_take(&e);
  CHECK_MSG(take, "%s", e.msg);
  /* the take: +15 N·m at 3.2 s, and by 4 s leaning right and turned right (ISO: lean > 0 is
   * right, heading < 0 a turn to the right) */
  rs_take k;
  CHECK_MSG(!rs_open(&k, take, NULL, &e), "%s", e.msg);
  rs_state st;
  rs_state_init(&k, &st);
  rs_at(&k, 3.2, &st, &e);
  double tq = chan(&k, &st, "steer_torque");
  rs_at(&k, 4.0, &st, &e);
  double lean = chan(&k, &st, "lean"), heading = chan(&k, &st, "heading");
  rs_state_free(&st);
  rs_close(&k);
  CHECK_NEAR(tq, 15, 1e-9);
  CHECK_MSG(lean > 2 && heading < -1, "after pushing +15 N·m: lean %g deg, heading %g deg (wanted a right turn)", lean, heading);
  static const double T[2] = {3.2, 8.2};
  for (int i = 0; i < 2; i++) {
    rgl_log log;
    cairo_surface_t* s = frame(take, "chase", NULL, "bars", T[i], &log, &e);
    CHECK_MSG(s, "%s", e.msg);
    const rgl_entry *p = rgl_find(&log, "teach.push"), *sv = rgl_find(&log, "teach.steer");
    int ok = p && sv;
    double side = ok ? p->zero[0] - sv->zero[0] : 0, len = ok ? p->zero[1] - p->tip[1] : 0;
    double inset = ok ? (sv->box[2] - sv->box[0]) / 0.72 : 0;   /* the steer arc's radius is 0.36 of the inset */
    double midy = ok ? 0.5 * (p->zero[1] + p->tip[1]) : 0;
    int here = ok && orange(s, p->zero[0], midy), mirror = ok && orange(s, 2 * sv->zero[0] - p->zero[0], midy);
    cairo_surface_destroy(s);
    CHECK_MSG(ok, "no push cue logged at %g s", T[i]);
    CHECK_NEAR(p->value, i == 0 ? 15 : -15, 1e-6);
    /* right of the bars' pivot for the positive push, left for the negative */
    CHECK_MSG(i == 0 ? side > 0.2 * inset : side < -0.2 * inset, "push at %g s drawn %+.1f px from the pivot", T[i], side);
    /* forward (up), 15/30 of half the inset long */
    CHECK_NEAR(len, 15.0 / 30 * 0.5 * inset, 0.5);
    CHECK_MSG(here && !mirror, "orange at the pushed grip %d, at the other %d", here, mirror);
  }
}

MT_TEST(teach_tyre_force_arrows_as_long_as_the_channels_against_the_tyre_limit) {
  mt_err e = {0};
  const char* take = cs_take(&e);
  CHECK_MSG(take, "%s", e.msg);
  const double t = 3.5;   /* leaned 7.5 degrees right just after the push: both tyres push sideways */
  rs_take k;
  CHECK_MSG(!rs_open(&k, take, NULL, &e), "%s", e.msg);
  rs_state st;
  rs_state_init(&k, &st);
  rs_at(&k, t, &st, &e);
  static const char* const WN[2] = {"front", "rear"};
  double fy[2], big[2], rscale = 0;
  for (int w = 0; w < 2; w++) {
    char n[32];
    snprintf(n, sizeof n, "%s_fy", WN[w]);
    fy[w] = chan(&k, &st, n);
    snprintf(n, sizeof n, "%s_load", WN[w]);
    double fz = chan(&k, &st, n);
    snprintf(n, sizeof n, "%s_camber", WN[w]);
    tyre_forces_t f;
    tyre_forces(&k.rg->wheel[w].tyre, fz, 0, 0, chan(&k, &st, n) * MT_PI / 180, &f);
    big[w] = fmax(fabs(f.dx), fabs(f.dy));
  }
  rscale = rv_rear_xf(&k, &st, 0, 0, W, H).s;   /* the rear view's px per m, the whole frame */
  rs_state_free(&st);
  rs_close(&k);
  rgl_log log;
  cairo_surface_t* s = frame(take, "chase", NULL, "forces", t, &log, &e);
  CHECK_MSG(s, "%s", e.msg);
  for (int w = 0; w < 2; w++) {
    char n[40];
    snprintf(n, sizeof n, "teach.%s_fy", WN[w]);
    const rgl_entry* a = rgl_find(&log, n);
    snprintf(n, sizeof n, "teach.%s_grip", WN[w]);
    const rgl_entry* g = rgl_find(&log, n);
    if (!a || !g) cairo_surface_destroy(s);
    CHECK_MSG(a && g, "%s: no force arrow or ellipse logged", WN[w]);
    double r = 0.5 * (g->box[2] - g->box[0]), want = fabs(fy[w]) * r / big[w], dx = a->tip[0] - a->zero[0];
    int px = green(s, a->zero[0] + 0.3 * dx, a->zero[1]);
    if (fabs(want) < 3 || !px) cairo_surface_destroy(s);
    CHECK_MSG(fabs(want) >= 3, "%s: Fy %g N gives a %g px arrow: too short to test", WN[w], fy[w], want);
    CHECK_NEAR(a->value, fy[w], 1e-6);
    CHECK_NEAR(fabs(dx), want, 0.01);
    CHECK_MSG(fy[w] > 0 ? dx < 0 : dx > 0, "%s: Fy %g N (positive: to the left) drawn %+.1f px across", WN[w], fy[w], dx);
    CHECK_MSG(px, "%s: no green on the arrow's shaft", WN[w]);
  }
  cairo_surface_destroy(s);
  /* on the road in the rear view: 0.4 m a kN at the view's scale, to the left for Fy > 0 */
  s = frame(take, "rear", NULL, "forces", t, &log, &e);
  CHECK_MSG(s, "%s", e.msg);
  cairo_surface_destroy(s);
  for (int w = 0; w < 2; w++) {
    char n[40];
    snprintf(n, sizeof n, "teach.%s_fy3d", WN[w]);
    const rgl_entry* a = rgl_find(&log, n);
    CHECK_MSG(a, "%s: no force arrow on the road", n);
    double want = fabs(fy[w]) / 1000 * 0.4 * rscale, dx = a->tip[0] - a->zero[0];
    CHECK_NEAR(hypot(dx, a->tip[1] - a->zero[1]), want, 0.01 * want + 0.2);
    CHECK_MSG(fy[w] > 0 ? dx < 0 : dx > 0, "%s: Fy %g N drawn %+.1f px across", n, fy[w], dx);
  }
}

/* Pixels of a and b that differ inside the box (x0, y0, x1, y1). */
static long differ(cairo_surface_t* a, cairo_surface_t* b, int x0, int y0, int x1, int y1) {
  long n = 0;
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++) {
      int p[3], q[3];
      rgb(a, x, y, p);
      rgb(b, x, y, q);
      n += p[0] != q[0] || p[1] != q[1] || p[2] != q[2];
    }
  return n;
}

MT_TEST(teach_captions_in_exactly_the_frames_of_t0_to_t1) {
  mt_err e = {0};
  const char* take = cs_take(&e);
  CHECK_MSG(take, "%s", e.msg);
  char caps[4200];
  snprintf(caps, sizeof caps, "%s/caps.lua", mt_test_tmpdir());
  FILE* f = fopen(caps, "w");
  CHECK(f);
  fputs("return {\n  { t0 = 1.0, t1 = 1.5, style = \"subtitle\", text = \"Push the right bar forward to turn right\" },\n"
        "  { t0 = 2.0, t1 = 2.5, style = \"title\", text = \"Countersteering\", line = \"push right, go right\" },\n}\n", f);
  fclose(f);
  /* frames of a 30 fps render around each edge: before t0, at t0, inside, the last inside, at t1 */
  static const double T[] = {29 / 30.0, 1.0, 1.25, 44 / 30.0, 1.5, 59 / 30.0, 2.0, 2.25, 74 / 30.0, 2.5};
  static const int IN_SUB[] = {0, 1, 1, 1, 0, 0, 0, 0, 0, 0}, IN_TITLE[] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 0};
  rr_ctx c[2];
  CHECK_MSG(!open_pair(c, take, caps, &e), "%s", e.msg);
  char why[200] = "";
  for (size_t i = 0; i < sizeof T / sizeof T[0] && !why[0]; i++) {
    cairo_surface_t *a = draw_at(&c[1], T[i], &e), *b = draw_at(&c[0], T[i], &e);
    if (!a || !b) {
      snprintf(why, sizeof why, "%s", e.msg);
      if (a) cairo_surface_destroy(a);
      if (b) cairo_surface_destroy(b);
      break;
    }
    /* the subtitle band: the bottom fifth, the middle 80 %; the title: the whole frame */
    long band = differ(a, b, W / 10, 4 * H / 5, 9 * W / 10, H), all = differ(a, b, 0, 0, W, H);
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
    if (IN_TITLE[i] && !(all > W * H / 2)) snprintf(why, sizeof why, "t = %.4f s: the title card changed only %ld pixels", T[i], all);
    else if (!IN_TITLE[i] && IN_SUB[i] && !(band > 2000 && all == band))
      snprintf(why, sizeof why, "t = %.4f s: the subtitle changed %ld pixels in its band, %ld in all", T[i], band, all);
    else if (!IN_TITLE[i] && !IN_SUB[i] && all != 0) snprintf(why, sizeof why, "t = %.4f s: outside every caption, yet %ld pixels differ", T[i], all);
  }
  rr_close(&c[0]);
  rr_close(&c[1]);
  CHECK_MSG(!why[0], "%s", why);
}

/*---- legibility of the teaching layer (render/draw.h's text record, as test_layout.c) ----*/

/* The frame's texts: each at least DRAW_TEXT_MIN of the height, inside its
 * panel and the frame, apart from every text of the frame (the captions too: the views keep
 * their labels out of the captions' boxes, render/teach.h teach_reserve). 0, or 1 with msg. */
static int texts_fault(const draw_text_log* log, int Wd, int Hd, char* msg, size_t n) {
  for (int i = 0; i < log->n; i++) {
    const draw_text_box* b = &log->b[i];
    const double *p = b->panel, *x = b->box, tol = 0.01;
    if (b->px < DRAW_TEXT_MIN * Hd * (1 - 1e-9)) return snprintf(msg, n, "'%s' is %.1f px high", b->text, b->px), 1;
    if (x[0] < fmax(p[0], 0) - tol || x[1] < fmax(p[1], 0) - tol || x[2] > fmin(p[2], Wd) + tol || x[3] > fmin(p[3], Hd) + tol)
      return snprintf(msg, n, "'%s' (%.0f,%.0f)-(%.0f,%.0f) leaves its panel or the frame", b->text, x[0], x[1], x[2], x[3]), 1;
    for (int j = 0; j < log->n; j++) {
      const double* y = log->b[j].box;
      if (j != i && x[0] + tol < y[2] && y[0] + tol < x[2] && x[1] + tol < y[3] && y[1] + tol < x[3])
        return snprintf(msg, n, "'%s' overlaps '%s'", b->text, log->b[j].text), 1;
    }
  }
  return 0;
}

/* Frame t of c at W×H (rr_set_size: the take and its scenes are kept) into log. */
static int record(rr_ctx* c, int Wd, int Hd, double t, draw_text_log* log, mt_err* e) {
  rr_set_size(c, Wd, Hd);
  cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Wd, Hd);
  cairo_t* cr = cairo_create(s);
  draw_text_log_attach(log);
  int rc = rr_draw(c, cr, t, e);
  draw_text_log_attach(NULL);
  cairo_destroy(cr);
  cairo_surface_destroy(s);
  return rc ? -1 : 0;
}

MT_TEST(teach_overlay_and_caption_texts_legible_inside_and_apart_at_720p_1080p_4k) {
  mt_err e = {0};
  const char* take = cs_take(&e);
  CHECK_MSG(take, "%s", e.msg);
  char caps[4200];
  snprintf(caps, sizeof caps, "%s/caps_layout.lua", mt_test_tmpdir());
  FILE* f = fopen(caps, "w");
  CHECK(f);
  fputs("return {\n  { t0 = 3, t1 = 4, style = \"lower\", text = \"Push right\", line = \"15 N·m on the right grip for 0.4 s, at 72 km/h\" },\n"
        "  { t0 = 3, t1 = 4, style = \"subtitle\", text = \"The tyres run out to the left from under the machine: it leans right, and turns right\" },\n"
        "  { t0 = 3, t1 = 4, style = \"subtitle\", text = \"A second subtitle stacks above the first\" },\n}\n", f);
  fclose(f);
  static const int SZ[3][2] = {{1280, 720}, {1920, 1080}, {3840, 2160}};
  static const char* const V[3] = {"chase", "rear", "grid"};
  static draw_text_log log;
  /* under the sanitizers (make test's second run) each view and each case once, not the sweep (each
   * view opened reads the take, seconds there): the chase view without captions at 720p, the rear
   * view with them at 1080p, the grid with them at 4K */
  const char* tag = getenv("MT_TEST_TAG");
  int quick = tag && strcmp(tag, "asan") == 0;
  for (int v = 0; v < 3; v++) {
    /* with = 0: the overlays' texts among the view's own, every text of the frame legible and
     * apart; with = 1: the same with captions (no callouts): the views' labels keep out of
     * the captions' boxes (or are left out), so every text of the frame is still apart */
    for (int with = 0; with < 2; with++) {
      if (quick && with != (v > 0)) continue;
      rr_opts o = {.view = V[v], .span = 120, .hud = 1, .captions = with ? caps : NULL, .overlays = "all"};
      rr_ctx c;
      CHECK_MSG(!rr_open(&c, take, NULL, &o, 1280, 720, &e), "%s", e.msg);
      c.o.t1 = c.k.duration;
      char msg[300] = "";
      int bad = 0, z = 0;
      for (; z < 3 && !bad; z++) {
        if (quick && z != v) continue;
        if (record(&c, SZ[z][0], SZ[z][1], 3.5, &log, &e)) {
          bad = 1, snprintf(msg, sizeof msg, "%s", e.msg);
          break;
        }
        int caps_drawn = 0;   /* the lower third's title and the two subtitles' first lines */
        for (int i = 0; i < log.n; i++)
          caps_drawn += !strcmp(log.b[i].text, "Push right") || !strncmp(log.b[i].text, "The tyres", 9) || !strncmp(log.b[i].text, "A second", 8);
        if (with && caps_drawn < 3) bad = 1, snprintf(msg, sizeof msg, "%d of the 3 captions drawn", caps_drawn);
        if (!bad) bad = log.dropped || texts_fault(&log, SZ[z][0], SZ[z][1], msg, sizeof msg);
        if (bad) break;
      }
      rr_close(&c);
      CHECK_MSG(!bad, "--view %s --overlays all%s at %dx%d: %s", V[v], with ? " with captions" : "", z < 3 ? SZ[z][0] : 0,
                z < 3 ? SZ[z][1] : 0, msg);
    }
  }
}

/*---- callouts follow their point ----*/

/* The right grip in the world at st: the rig's grip point (rig coordinates) carried by the
 * steering body's recorded pose (a body's pose is where its frame origin is). */
static int right_grip(const rs_take* k, const rs_state* st, double out[3]) {
  sc_rider_points pts;
  sc_rider_points_get(k->rg, &pts);
  int b = -1;
  for (int i = 0; i < k->nb; i++)
    if (!strcmp(k->body[i].name, "steering")) b = i;
  if (b < 0 || !pts.have_grip) return 0;
  double o[3], local[3];
  ex_take_body_origin(k->rg, "steering", o);
  for (int j = 0; j < 3; j++) local[j] = pts.grip[1][j] - o[j];
  rs_pose_point(st->pose + 7 * b, local, out);
  return 1;
}

MT_TEST(teach_callout_follows_the_right_grip_in_the_side_and_chase_views) {
  mt_err e = {0};
  const char* take = cs_take(&e);
  CHECK_MSG(take, "%s", e.msg);
  char caps[4200];
  snprintf(caps, sizeof caps, "%s/caps_callout.lua", mt_test_tmpdir());
  FILE* f = fopen(caps, "w");
  CHECK(f);
  fputs("return {\n  { t0 = 3, t1 = 6, style = \"callout\", text = \"push here\", at = \"right_grip\" },\n}\n", f);
  fclose(f);
  rs_take k;
  CHECK_MSG(!rs_open(&k, take, NULL, &e), "%s", e.msg);
  rs_state st;
  rs_state_init(&k, &st);
  chase_scene* cs = chase_scene_new(k.r, NULL, &e);
  static const double T[] = {3.2, 5.0, 6.0};   /* leaning right, upright again, after t1 */
  static const char* const V[] = {"side", "chase"};
  int fails = 0;
  char why[300] = "";
  for (int v = 0; v < 2 && cs; v++)
    for (int i = 0; i < 3; i++) {
      double g[3], want[2];
      rs_at(&k, T[i], &st, &e);
      if (!right_grip(&k, &st, g)) {
        fails++, snprintf(why, sizeof why, "no grips in the rig");
        continue;
      }
      if (v == 0) {
        rd_view rv = rv_side_xf(&k, &st, 0, 0, W, H);
        rd_project(&rv, g, &want[0], &want[1]);
      } else {
        chase_view cv;
        chase_view_at(cs, T[i], &cv);
        chase_project(&cv, W, H, g, want);
      }
      rgl_log log;
      cairo_surface_t* s = frame(take, V[v], caps, NULL, T[i], &log, &e);
      if (!s) {
        fails++, snprintf(why, sizeof why, "%s", e.msg);
        continue;
      }
      const rgl_entry* c = rgl_find(&log, "callout.1");
      int ring = 0;
      if (c) {   /* the amber ring round the point (radius 0.45 of the caption unit, 3 % of H) */
        int px[3];
        rgb(s, c->tip[0] + 0.45 * 0.03 * H, c->tip[1], px);
        ring = px[0] > 180 && px[1] > 110 && px[2] < 90;
      }
      cairo_surface_destroy(s);
      if (T[i] >= 6.0) {
        if (c) fails++, snprintf(why, sizeof why, "%s at %g s: a callout after its t1", V[v], T[i]);
      } else if (!c || hypot(c->tip[0] - want[0], c->tip[1] - want[1]) > 0.5 || !ring || c->box[0] < 0 || c->box[2] > W ||
                 c->box[1] < 0 || c->box[3] > H) {
        fails++;
        snprintf(why, sizeof why, "%s at %g s: callout %s at (%.1f, %.1f), the grip at (%.1f, %.1f), ring %d", V[v], T[i],
                 c ? "drawn" : "missing", c ? c->tip[0] : NAN, c ? c->tip[1] : NAN, want[0], want[1], ring);
      }
    }
  if (cs) chase_scene_free(cs);
  rs_state_free(&st);
  rs_close(&k);
  CHECK_MSG(cs, "no chase scene");
  CHECK_MSG(!fails, "%d faults; the last: %s", fails, why);
}

/* --engine blender lays the HUD over Blender's picture with rr_draw_picture: the captions too
 * (the subtitle's band changes inside [t0, t1), nothing outside). */
MT_TEST(teach_captions_over_a_picture_from_blender) {
  mt_err e = {0};
  const char* take = cs_take(&e);
  CHECK_MSG(take, "%s", e.msg);
  char caps[4200];
  snprintf(caps, sizeof caps, "%s/caps_pic.lua", mt_test_tmpdir());
  FILE* f = fopen(caps, "w");
  CHECK(f);
  fputs("return {\n  { t0 = 1.0, t1 = 1.5, style = \"subtitle\", text = \"Over the photoreal picture\" },\n}\n", f);
  fclose(f);
  static const double T[2] = {1.25, 1.6};
  long band[2][2];
  for (int with = 0; with < 2; with++) {
    rr_opts o = {.view = "chase", .span = 120, .hud = 1, .captions = with ? caps : NULL};
    rr_ctx c;
    CHECK_MSG(!rr_open(&c, take, NULL, &o, W, H, &e), "%s", e.msg);
    int pw, ph;
    rr_view_area(&c, &pw, &ph);
    cairo_surface_t* pic = cairo_image_surface_create(CAIRO_FORMAT_RGB24, pw, ph);
    cairo_t* pc = cairo_create(pic);
    cairo_set_source_rgb(pc, 0.5, 0.6, 0.7);   /* a plain picture: the caption's box shows on it */
    cairo_paint(pc);
    cairo_destroy(pc);
    for (int i = 0; i < 2; i++) {
      cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
      cairo_t* cr = cairo_create(s);
      rr_draw_picture(&c, cr, T[i], pic, &e);
      cairo_destroy(cr);
      cairo_surface_flush(s);
      long n = 0;   /* dark pixels in the subtitle's band at the bottom of the picture */
      for (int y = ph - ph / 6; y < ph; y++)
        for (int x = pw / 10; x < 9 * pw / 10; x++) {
          int p[3];
          rgb(s, x, y, p);
          n += p[0] + p[1] + p[2] < 200;
        }
      band[with][i] = n;
      cairo_surface_destroy(s);
    }
    cairo_surface_destroy(pic);
    rr_close(&c);
  }
  CHECK_MSG(band[0][0] == 0 && band[0][1] == 0, "dark pixels on the plain picture without captions: %ld, %ld", band[0][0], band[0][1]);
  CHECK_MSG(band[1][0] > 1000 && band[1][1] == 0, "with the subtitle: %ld dark pixels inside [t0, t1), %ld after", band[1][0], band[1][1]);
}

/* A caption following the take's mark "push right" (the script's `at = 3.0`; the take records
 * the step it fired at): t0 = −0.5, t1 = +1 show it in the frames of [m − 0.5, m + 1) of the
 * take, m the mark's recorded time. */
MT_TEST(teach_caption_follows_a_mark_of_the_take) {
  mt_err e = {0};
  const char* take = cs_take(&e);
  CHECK_MSG(take, "%s", e.msg);
  char caps[4200];
  snprintf(caps, sizeof caps, "%s/caps_mark.lua", mt_test_tmpdir());
  FILE* f = fopen(caps, "w");
  CHECK(f);
  fputs("return {\n  { mark = \"push right\", t0 = -0.5, t1 = 1, style = \"subtitle\", text = \"Here it comes\" },\n}\n", f);
  fclose(f);
  rs_take k;
  CHECK_MSG(!rs_open(&k, take, NULL, &e), "%s", e.msg);
  double m = NAN;
  for (int i = 0; i < take_nevents(k.r) && isnan(m); i++) {
    const take_event* ev = take_event_at(k.r, i);
    if (!strcmp(ev->kind, "mark") && strstr(ev->json, "\"push right\"")) m = ev->step * k.dt;
  }
  rs_close(&k);
  CHECK_MSG(m > 2.9 && m < 3.1, "the take's mark 'push right' at %g s", m);
  const double T[] = {m - 0.55, m - 0.5, m + 0.95, m + 1.0};
  static const int IN[] = {0, 1, 1, 0};
  rr_ctx c[2];
  CHECK_MSG(!open_pair(c, take, caps, &e), "%s", e.msg);
  char why[200] = "";
  for (int i = 0; i < 4 && !why[0]; i++) {
    cairo_surface_t *a = draw_at(&c[1], T[i], &e), *b = draw_at(&c[0], T[i], &e);
    long all = a && b ? differ(a, b, 0, 0, W, H) : -1;
    if (a) cairo_surface_destroy(a);
    if (b) cairo_surface_destroy(b);
    if (all < 0) snprintf(why, sizeof why, "%s", e.msg);
    else if (IN[i] ? all <= 1000 : all != 0)
      snprintf(why, sizeof why, "t = %g s: %ld pixels differ (%s the caption's frames)", T[i], all, IN[i] ? "inside" : "outside");
  }
  rr_close(&c[0]);
  rr_close(&c[1]);
  CHECK_MSG(!why[0], "%s", why);
}

/* A callout's label longer than its grid cell is wide wraps inside the cell. */
MT_TEST(teach_long_callout_label_wraps_inside_its_grid_cell) {
  mt_err e = {0};
  const char* take = cs_take(&e);
  CHECK_MSG(take, "%s", e.msg);
  char caps[4200];
  snprintf(caps, sizeof caps, "%s/caps_long.lua", mt_test_tmpdir());
  FILE* f = fopen(caps, "w");
  CHECK(f);
  fputs("return {\n  { t0 = 0, t1 = 5, style = \"callout\", at = \"rider\", text = \"a very long label for a callout that would not fit in "
        "a grid cell on one line, so it wraps onto several\" },\n}\n",
        f);
  fclose(f);
  rgl_log log;
  rr_opts o = {.view = "grid", .grid = "chase,side,rear,plan", .span = 120, .hud = 1, .captions = caps};
  rr_ctx c;
  CHECK_MSG(!rr_open(&c, take, NULL, &o, W, H, &e), "%s", e.msg);
  int vw, vh;
  rr_view_area(&c, &vw, &vh);
  cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t* cr = cairo_create(s);
  rgl_attach(&log);
  int rc = rr_draw(&c, cr, 1.0, &e);
  rgl_attach(NULL);
  cairo_destroy(cr);
  cairo_surface_destroy(s);
  rr_close(&c);
  CHECK_MSG(!rc, "%s", e.msg);
  const rgl_entry* a = rgl_find(&log, "callout.1");   /* the first cell's: chase, at the top left */
  double cw = floor(vw / 2.0), ch = floor(vh / 2.0);
  CHECK_MSG(a, "no callout in the chase cell");
  CHECK_MSG(a->box[0] >= 0 && a->box[2] <= cw && a->box[1] >= 0 && a->box[3] <= ch, "label (%.1f,%.1f)-(%.1f,%.1f) leaves the cell %.0fx%.0f",
            a->box[0], a->box[1], a->box[2], a->box[3], cw, ch);
}

MT_TEST(teach_rear_force_labels_on_a_light_plate_over_the_rider) {
  /* The rear view's lateral-force labels lie over the machine when the captions push them up
   * (the countersteering push at 3.3 s): each on a light plate, so that a 2 px ring just outside
   * its ink is light everywhere, where the same ring without the overlays has the machine's dark
   * drawing in it (for one label at least: else the check could not fail). */
  mt_err e = {0};
  const char* take = cs_take(&e);
  CHECK_MSG(take, "%s", e.msg);
  rgl_log log;
  cairo_surface_t* s = frame(take, "rear", "takes/captions/countersteer.lua", "forces", 3.3, &log, &e);
  CHECK_MSG(s, "%s", e.msg);
  cairo_surface_t* bare = s ? frame(take, "rear", "takes/captions/countersteer.lua", NULL, 3.3, NULL, &e) : NULL;
  CHECK_MSG(bare, "%s", e.msg);
  static const char* const N[2] = {"teach.front_fy3d.text", "teach.rear_fy3d.text"};
  long over = 0;
  for (int w = 0; s && bare && w < 2; w++) {
    const rgl_entry* a = rgl_find(&log, N[w]);
    CHECK_MSG(a, "%s: no label", N[w]);
    if (!a) continue;
    int x0 = (int)floor(a->box[0]) - 2, x1 = (int)ceil(a->box[2]) + 1, y0 = (int)floor(a->box[1]) - 2, y1 = (int)ceil(a->box[3]) + 1;
    long ring = 0, dark = 0, under = 0;
    for (int y = y0; y <= y1; y++)
      for (int x = x0; x <= x1; x++) {
        if (x > x0 + 1 && x < x1 - 1 && y > y0 + 1 && y < y1 - 1) continue;   /* the ring only */
        if (x < 0 || y < 0 || x >= W || y >= H) continue;
        int p[3], q[3];
        rgb(s, x, y, p);
        rgb(bare, x, y, q);
        ring++;
        dark += p[0] < 200 || p[1] < 200 || p[2] < 200;
        under += q[0] < 150 || q[1] < 150 || q[2] < 150;   /* the machine's drawing, not the light ground */
      }
    over = under > over ? under : over;
    CHECK_MSG(ring > 100 && dark == 0, "%s: %ld of %ld pixels around the label are not light (%ld dark without the overlays)", N[w], dark,
              ring, under);
  }
  CHECK_MSG(over > 20, "neither label lies over the machine here (at most %ld dark ring pixels without the overlays)", over);
  if (s) cairo_surface_destroy(s);
  if (bare) cairo_surface_destroy(bare);
}
