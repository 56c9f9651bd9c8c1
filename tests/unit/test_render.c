/* test_render.c — the renderer: frame-time interpolation, PNG through libpng read back, and
 * pixel checks that the machine is drawn where the take says it is (plan marker, side hubs). */
#include <dlfcn.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/frames.h"
#include "render/rscene.h"
#include "render/views.h"
#include "takes/run.h"
#include "takes/takefile.h"
#include "tests/unit/test.h"

/* tests/data/render_skid.lua: 1.2 s round the 50 m skidpad at 15 m/s, leaned ~25 degrees. */
static const char* skid_take(mt_err* e) { return mt_test_take("render_skid", e); }

MT_TEST(render_poses_interpolate_between_steps_and_hit_them_exactly) {
  mt_err e = {0};
  const char* path = skid_take(&e);
  CHECK_MSG(path, "%s", e.msg);
  rs_take k;
  CHECK_MSG(!rs_open(&k, path, NULL, &e), "%s", e.msg);
  int nb = k.nb;
  double* raw = malloc(sizeof(double) * 14 * nb);
  CHECK(!take_read(k.r, TAKE_POSE, 400, 2, raw, &e));
  rs_state st;
  rs_state_init(&k, &st);
  /* at a recorded step: exactly the step */
  CHECK(!rs_at(&k, 400 * k.dt, &st, &e));
  for (int j = 0; j < 7 * nb; j++) CHECK_NEAR(st.pose[j], raw[j], 1e-9);
  /* half way: positions are the mean; the orientation is the normalised mean */
  CHECK(!rs_at(&k, 400.5 * k.dt, &st, &e));
  for (int b = 0; b < nb; b++) {
    for (int j = 0; j < 3; j++) CHECK_NEAR(st.pose[7 * b + j], 0.5 * (raw[7 * b + j] + raw[7 * nb + 7 * b + j]), 1e-9);
    double n = 0, q[4];
    for (int j = 0; j < 4; j++) {
      double a = raw[7 * b + 3 + j], c = raw[7 * nb + 7 * b + 3 + j];
      q[j] = a + c;
      n += q[j] * q[j];
    }
    for (int j = 0; j < 4; j++) CHECK_NEAR(st.pose[7 * b + 3 + j], q[j] / sqrt(n), 1e-9);
  }
  rs_state_free(&st);
  free(raw);
  rs_close(&k);
}

MT_TEST(render_png_is_8bit_rgb_and_reads_back_with_libpng) {
  int w = 67, h = 31;   /* odd sizes are fine for PNG */
  uint32_t* px = malloc(sizeof(uint32_t) * w * h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) px[y * w + x] = 0xff000000u | (uint32_t)(x * 3) << 16 | (uint32_t)(y * 7) << 8 | (uint32_t)((x ^ y) & 255);
  char path[4096];
  snprintf(path, sizeof path, "%s/rb.png", mt_test_tmpdir());
  mt_err e = {0};
  CHECK_MSG(!fo_write_png(path, (unsigned char*)px, w, h, 4 * w, 1, &e), "%s", e.msg);
  png_image img;
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  CHECK(png_image_begin_read_from_file(&img, path));
  CHECK(img.width == (png_uint_32)w && img.height == (png_uint_32)h);
  CHECK(img.format == PNG_FORMAT_RGB);   /* stored as 8-bit RGB, no alpha */
  unsigned char* rgb = malloc(3 * w * h);
  CHECK(png_image_finish_read(&img, NULL, rgb, 0, NULL));
  int bad = 0;
  for (int i = 0; i < w * h; i++)
    bad += rgb[3 * i] != ((px[i] >> 16) & 255) || rgb[3 * i + 1] != ((px[i] >> 8) & 255) || rgb[3 * i + 2] != (px[i] & 255);
  CHECK_MSG(bad == 0, "%d pixels differ", bad);
  free(rgb);
  free(px);
}

/* Text through Cairo's toy API loads fontconfig, whose caches LeakSanitizer reports at exit: give
 * them back once a test's surfaces are gone (FcFini looked up at run time: cairo loaded it). */
static void release_fonts(void) {
  cairo_debug_reset_static_data();
  void (*fini)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "FcFini");
  if (fini) fini();
}

/* Centroid of the pixels of a colour class within a box. */
static int centroid(cairo_surface_t* s, int x0, int y0, int x1, int y1, int (*is)(uint32_t), double* cx, double* cy) {
  int w = cairo_image_surface_get_width(s), stride = cairo_image_surface_get_stride(s);
  unsigned char* d = cairo_image_surface_get_data(s);
  double sx = 0, sy = 0;
  int n = 0;
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1 && x < w; x++)
      if (is(((uint32_t*)(d + (size_t)y * stride))[x])) {
        sx += x + 0.5;
        sy += y + 0.5;
        n++;
      }
  *cx = n ? sx / n : NAN;
  *cy = n ? sy / n : NAN;
  return n;
}
static int magenta(uint32_t v) { return ((v >> 16) & 255) > 200 && ((v >> 8) & 255) < 60 && (v & 255) > 200; }
static int green(uint32_t v) { return ((v >> 16) & 255) < 60 && ((v >> 8) & 255) > 200 && (v & 255) < 60; }

MT_TEST(render_plan_marker_centroid_within_2px_of_the_takes_position) {
  mt_err e = {0};
  const char* path = skid_take(&e);
  CHECK_MSG(path, "%s", e.msg);
  rs_take k;
  CHECK_MSG(!rs_open(&k, path, NULL, &e), "%s", e.msg);
  rv_cache c;
  rv_cache_init(&c, &k);
  rs_state st;
  rs_state_init(&k, &st);
  double* raw = malloc(sizeof(double) * 7 * k.nb);
  cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 640, 480);
  cairo_t* cr = cairo_create(s);
  static const double spans[] = {0, 40};   /* the whole track, and following at 16 px/m */
  static const long steps[] = {300, 900};
  for (int m = 0; m < 2; m++) {
    CHECK(!take_read(k.r, TAKE_POSE, steps[m], 1, raw, &e));
    CHECK(!rs_at(&k, steps[m] * k.dt, &st, &e));
    rv_plan(cr, &c, &k, &st, NULL, NULL, 0, 0, 640, 480, spans[m]);
    cairo_surface_flush(s);
    plan_xf f = rv_plan_xf(cr, &c, &k, &st, 0, 0, 640, 480, spans[m]);
    double X = raw[7 * k.root], Y = raw[7 * k.root + 1];   /* the take's own record of the frame */
    double px = f.ox + f.s * X, py = f.oy - f.s * Y, cx, cy;
    int n = centroid(s, 0, 0, 640, 480, magenta, &cx, &cy);
    CHECK_MSG(n > 40, "span %g: only %d marker pixels", spans[m], n);
    CHECK_MSG(hypot(cx - px, cy - py) < 2, "span %g: marker centroid (%.2f, %.2f), pose at (%.2f, %.2f)", spans[m], cx, cy, px, py);
  }
  cairo_destroy(cr);
  cairo_surface_destroy(s);
  free(raw);
  rs_state_free(&st);
  rv_cache_free(&c);
  rs_close(&k);
  release_fonts();
}

MT_TEST(render_side_view_wheel_centres_where_the_poses_put_them) {
  mt_err e = {0};
  const char* path = skid_take(&e);
  CHECK_MSG(path, "%s", e.msg);
  rs_take k;
  CHECK_MSG(!rs_open(&k, path, NULL, &e), "%s", e.msg);
  rs_state st;
  rs_state_init(&k, &st);
  long step = 700;
  double* raw = malloc(sizeof(double) * 7 * k.nb);
  CHECK(!take_read(k.r, TAKE_POSE, step, 1, raw, &e));
  CHECK(!rs_at(&k, step * k.dt, &st, &e));
  int W = 800, H = 450;
  cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t* cr = cairo_create(s);
  rv_side(cr, &k, &st, NULL, NULL, 0, 0, W, H);
  cairo_surface_flush(s);
  rd_view v = rv_side_xf(&k, &st, 0, 0, W, H);
  int fw = -1, rw = -1;
  for (int b = 0; b < k.nb; b++) {
    if (!strcmp(k.s->body_names[b], "front_wheel")) fw = b;
    if (!strcmp(k.s->body_names[b], "rear_wheel")) rw = b;
  }
  CHECK(fw >= 0 && rw >= 0);
  double hub[2][2];
  for (int i = 0; i < 2; i++) {
    const double* p = raw + 7 * (i ? rw : fw);
    double ex, ey, cx, cy;
    rd_project(&v, p, &ex, &ey);
    int n = centroid(s, (int)ex - 20, (int)ey - 20, (int)ex + 20, (int)ey + 20, green, &cx, &cy);
    CHECK_MSG(n > 10, "wheel %d: %d hub pixels near (%.1f, %.1f)", i, n, ex, ey);
    CHECK_MSG(hypot(cx - ex, cy - ey) < 1.5, "wheel %d: hub drawn at (%.2f, %.2f), pose projects to (%.2f, %.2f)", i, cx, cy, ex, ey);
    hub[i][0] = cx;
    hub[i][1] = cy;
  }
  /* independent of the view's centring: the hubs are the wheel centres' ground-plane distance
   * apart along the heading, and the front one is ahead (to the right) */
  double hd = atan2(raw[7 * fw + 1] - raw[7 * rw + 1], raw[7 * fw] - raw[7 * rw]);
  double along = hypot(raw[7 * fw] - raw[7 * rw], raw[7 * fw + 1] - raw[7 * rw + 1]) * cos(hd - rv_heading(&k, &st));
  CHECK_MSG(fabs((hub[0][0] - hub[1][0]) - v.s * along) < 2, "hubs %.2f px apart, poses say %.2f px", hub[0][0] - hub[1][0], v.s * along);
  CHECK_MSG(fabs((hub[1][1] - hub[0][1]) - v.s * (raw[7 * fw + 2] - raw[7 * rw + 2])) < 2, "hub heights differ by %.2f px",
            hub[1][1] - hub[0][1]);
  cairo_destroy(cr);
  cairo_surface_destroy(s);
  free(raw);
  rs_state_free(&st);
  rs_close(&k);
  release_fonts();
}

MT_TEST(render_rear_view_draws_the_rider_skeleton_not_the_primitives) {
  /* with a skeleton (scene/skeleton.h) the views leave out the rig's rider primitives (the
   * pelvis and torso bodies' shapes, the frame's legs) and draw the posed skeleton: its hands on
   * the grips, and the helmet where the Head bone puts it (the rear view: darker than the
   * background there, which nothing else covers) */
  mt_err e = {0};
  const char* path = skid_take(&e);
  CHECK_MSG(path, "%s", e.msg);
  rs_take k;
  CHECK_MSG(!rs_open(&k, path, NULL, &e), "%s", e.msg);
  CHECK(k.sk);
  int blue = 0;
  for (int b = 0; b < k.nb; b++) {
    if (!strcmp(k.body[b].name, "rider_pelvis") || !strcmp(k.body[b].name, "rider_torso")) CHECK(k.body[b].nshape == 0);
    for (int q = 0; q < k.body[b].nshape; q++) blue += k.body[b].shape[q].rgba[2] > 0.5 && k.body[b].shape[q].rgba[0] < 0.2;
  }
  CHECK_MSG(blue == 0, "%d rider-coloured primitives still drawn", blue);
  rs_state st;
  rs_state_init(&k, &st);
  CHECK(!rs_at(&k, 0.7, &st, &e) && st.skp);
  CHECK(st.skp->hand_miss[0] <= 0.005 && st.skp->hand_miss[1] <= 0.005);
  int W = 800, H = 450;
  cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t* cr = cairo_create(s);
  rv_rear(cr, &k, &st, NULL, NULL, 0, 0, W, H);
  cairo_surface_flush(s);
  rd_view v = rv_rear_xf(&k, &st, 0, 0, W, H);
  const sk_bone_pose* hb = &st.skp->bone[SK_HEAD];
  double top[3], ex, ey;   /* half-way up the head bone: inside the helmet */
  for (int j = 0; j < 3; j++) top[j] = 0.5 * (hb->head[j] + hb->tail[j]);
  rd_project(&v, top, &ex, &ey);
  uint32_t px = ((uint32_t*)(cairo_image_surface_get_data(s) + (size_t)(int)ey * cairo_image_surface_get_stride(s)))[(int)ex];
  double lum = (((px >> 16) & 255) + ((px >> 8) & 255) + (px & 255)) / (3 * 255.0);
  printf("  helmet at (%.0f, %.0f): luminance %.3f\n", ex, ey, lum);
  CHECK_MSG(ex > 0 && ex < W && ey > 0 && ey < H && lum < 0.85, "no helmet at (%.0f, %.0f): luminance %.3f", ex, ey, lum);
  cairo_destroy(cr);
  cairo_surface_destroy(s);
  rs_state_free(&st);
  rs_close(&k);
}

MT_TEST(render_rider_follows_a_live_state) {
  /* the ride window fills a state by hand (pose and channels, no rs_at): rs_rider_live poses
   * the skeleton on it — the hips and hands where rs_at's skeleton has them for that pose (the
   * head may differ: the look point comes from the heading, not the history) */
  mt_err e = {0};
  const char* path = skid_take(&e);
  CHECK_MSG(path, "%s", e.msg);
  rs_take k;
  CHECK_MSG(!rs_open(&k, path, NULL, &e), "%s", e.msg);
  rs_state a, b;
  rs_state_init(&k, &a), rs_state_init(&k, &b);
  CHECK(!rs_at(&k, 0.2, &a, &e) && !rs_at(&k, 1.0, &b, &e));
  memcpy(a.pose, b.pose, sizeof(double) * 7 * k.nb);   /* the live pose: t = 1.0 s's */
  rs_rider_live(&k, &a, 0, 1);
  static const int bones[] = {SK_HIPS, SK_LHAND, SK_RHAND, SK_LFOOT, SK_RFOOT};
  for (int i = 0; i < 5; i++) {
    const double *p = a.skp->bone[bones[i]].head, *q = b.skp->bone[bones[i]].head;
    double d = sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
    CHECK_MSG(d < 1e-9, "bone %d: %.3g m from rs_at's", bones[i], d);
  }
  CHECK(a.skp->released == 0);
  rs_state_free(&a), rs_state_free(&b);
  rs_close(&k);
}
