/* bench_render.c — `make bench` lines for the renderer: frames/s of the whole pipeline (draw +
 * BGRA→YUV + libx264 veryfast on the worker thread + MP4) per view at 1280×720 and 1920×1080,
 * and, in the same run, libx264 encoding the very same frames alone (already drawn, copied into
 * the encoder's buffers): the ratio pipeline time / encoder-alone time (1.0 = drawing is free). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "render/frames.h"
#include "render/render.h"
#include "takes/run.h"
#include "tests/bench/bench.h"

#define NFRAMES 60

static double cpu_now(int thread) {
  struct timespec t;
  clock_gettime(thread ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int one(const char* take, const char* view, int W, int H, unsigned char* store, const char* dir) {
  mt_err e = {0};
  rr_opts o = {view, NULL, 120, 1, NULL, 0, 0, NULL, NULL, NULL};
  rr_ctx c;
  if (rr_open(&c, take, NULL, &o, W, H, &e)) {
    printf("render %-5s %4dx%-4d: %s\n", view, W, H, e.msg);
    return 1;
  }
  c.o.t1 = c.k.duration;
  char out[4200];
  snprintf(out, sizeof out, "%s/bench.mp4", dir);
  double t0 = 30, draw = 0, dcpu = 0, busy = 0;
  /* the frames, drawn once untimed and kept for the encoder-alone run */
  for (int i = 0; i < NFRAMES; i++) {
    cairo_surface_t* surf = cairo_image_surface_create_for_data(store + (size_t)i * 4 * W * H, CAIRO_FORMAT_ARGB32, W, H, 4 * W);
    cairo_t* cr = cairo_create(surf);
    rr_draw(&c, cr, t0 + i / 30.0, &e);
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
  }
  /* the pipeline, as `mototake render` runs it (drawing the same frames again) */
  double a = bench_now(), ca = cpu_now(0);
  fo_sink* s = fo_open(out, W, H, 30, &e);
  for (int i = 0; s && i < NFRAMES; i++) {
    unsigned char* buf = fo_buffer(s, &e);
    cairo_surface_t* surf = cairo_image_surface_create_for_data(buf, CAIRO_FORMAT_ARGB32, W, H, 4 * W);
    cairo_t* cr = cairo_create(surf);
    double d0 = bench_now(), c0 = cpu_now(1);
    rr_draw(&c, cr, t0 + i / 30.0, &e);
    cairo_destroy(cr);
    cairo_surface_flush(surf);
    draw += bench_now() - d0;
    dcpu += cpu_now(1) - c0;
    cairo_surface_destroy(surf);
    fo_submit(s, &e);
  }
  fo_close(s, 1, &busy, &e);
  double pipe = bench_now() - a, pipe_cpu = cpu_now(0) - ca;
  /* the encoder alone on the same frames */
  a = bench_now();
  ca = cpu_now(0);
  s = fo_open(out, W, H, 30, &e);
  for (int i = 0; s && i < NFRAMES; i++) {
    unsigned char* buf = fo_buffer(s, &e);
    memcpy(buf, store + (size_t)i * 4 * W * H, (size_t)4 * W * H);
    fo_submit(s, &e);
  }
  fo_close(s, 1, NULL, &e);
  double enc = bench_now() - a, enc_cpu = cpu_now(0) - ca;
  /* wall-clock figures move with the machine's load; the CPU-time ratio much less */
  printf("render %-5s %4dx%-4d: pipeline %5.1f frames/s, libx264 alone %5.1f frames/s: ratio %.2f (CPU time %.2f); "
         "drawing %.1f ms CPU/frame (%.1f ms wall)\n",
         view, W, H, NFRAMES / pipe, NFRAMES / enc, pipe / enc, pipe_cpu / enc_cpu, 1000 * dcpu / NFRAMES, 1000 * draw / NFRAMES);
  unlink(out);
  rr_close(&c);
  return 0;
}

MT_BENCH(render) {
  char dir[] = "/tmp/mt-bench-render-XXXXXX";
  if (!mkdtemp(dir)) return;
  char take[4200], script[] = "takes/laguna_lap.lua";
  snprintf(take, sizeof take, "%s/lap.take", dir);
  run_opts o = {0};
  o.script = script;
  o.out = take;
  o.quiet = 1;
  run_result res;
  mt_err e = {0};
  if (run_take(&o, &res, &e)) {
    printf("render: %s\n", e.msg);
    return;
  }
  unsigned char* store = malloc((size_t)NFRAMES * 4 * 1920 * 1080);
  static const char* views[] = {"plan", "side", "rear", "grid", "chase"};
  static const int sizes[][2] = {{1280, 720}, {1920, 1080}};
  for (int z = 0; z < 2; z++)
    for (size_t v = 0; v < sizeof views / sizeof *views; v++) {
      one(take, views[v], sizes[z][0], sizes[z][1], store, dir);
    }
  free(store);
  unlink(take);
  rmdir(dir);
}
