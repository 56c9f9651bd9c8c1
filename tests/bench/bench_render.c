/* bench_render.c — `make bench` lines for the renderer (issue 36, item 4): per view (plan, track,
 * side, rear, chase, grid) at 1280×720 and 1920×1080, with the teaching layer off and on
 * (takes/captions/countersteer.lua and --overlays all), the whole pipeline (draw + BGRA→YUV +
 * libx264 veryfast on the worker thread + MP4) against libx264 encoding the very same frames
 * alone (already drawn, copied into the encoder's buffers).
 *
 * The take is takes/countersteer.lua; the frames are its push right, NFRAMES frames from 2.5 s
 * at 30 frames/s (title, lower third, subtitle, callout and the push cue all on screen). The two
 * runs alternate MT_BENCH_REPS times (default 3) for each line, so both see the same spell of
 * load on a shared machine; the line prints the median of the per-repetition wall-clock ratios
 * (pipeline / encoder alone; aim ≤ 1.3) with their range, the median CPU-time ratio, and the
 * drawing's CPU per frame. MT_BENCH_VIEWS=side,grid limits the views.
 *
 * Then, per view and size with the teaching layer on, the drawing alone (no encoder) in the
 * thread's CPU time: the frame as `render` draws it (rv_cache's layers) against everything drawn
 * every frame (rv_cache.plain), interleaved in blocks of DBLOCK frames, medians over the blocks.
 * Last, the grid drawn alone on one thread and on two at once (render/pool.h's premise: the
 * drawing scales with the cores it gets). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "render/frames.h"
#include "render/render.h"
#include "takes/run.h"
#include "tests/bench/bench.h"

#define NFRAMES 60
#define T0 2.5

static double proc_cpu(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

typedef struct timing { double wall, cpu, draw_cpu; } timing;

/* The pipeline as `mototake render` runs it: each frame drawn into the sink's buffer. */
static int pipeline(rr_ctx* c, const char* out, timing* tm, mt_err* e) {
  int W = c->W, H = c->H;
  double a = bench_now(), ca = proc_cpu(), dcpu = 0;
  fo_sink* s = fo_open(out, W, H, 30, e);
  for (int i = 0; s && i < NFRAMES; i++) {
    unsigned char* buf = fo_buffer(s, e);
    if (!buf) break;
    cairo_surface_t* surf = cairo_image_surface_create_for_data(buf, CAIRO_FORMAT_ARGB32, W, H, 4 * W);
    cairo_t* cr = cairo_create(surf);
    double c0 = bench_cpu();
    rr_draw(c, cr, T0 + i / 30.0, e);
    cairo_destroy(cr);
    cairo_surface_flush(surf);
    dcpu += bench_cpu() - c0;
    cairo_surface_destroy(surf);
    fo_submit(s, e);
  }
  int rc = s ? fo_close(s, 1, NULL, e) : MT_EINTERNAL;
  *tm = (timing){bench_now() - a, proc_cpu() - ca, dcpu};
  return rc;
}

/* libx264 alone on the frames drawn beforehand. */
static int encoder_alone(const unsigned char* store, int W, int H, const char* out, timing* tm, mt_err* e) {
  double a = bench_now(), ca = proc_cpu();
  fo_sink* s = fo_open(out, W, H, 30, e);
  for (int i = 0; s && i < NFRAMES; i++) {
    unsigned char* buf = fo_buffer(s, e);
    if (!buf) break;
    memcpy(buf, store + (size_t)i * 4 * W * H, (size_t)4 * W * H);
    fo_submit(s, e);
  }
  int rc = s ? fo_close(s, 1, NULL, e) : MT_EINTERNAL;
  *tm = (timing){bench_now() - a, proc_cpu() - ca, 0};
  return rc;
}

static double median(double* v, int n) {
  qsort(v, n, sizeof *v, bench_cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void one(const char* take, const char* caps, const char* view, int teach, int W, int H, unsigned char* store,
                const char* dir, int reps) {
  mt_err e = {0};
  rr_opts o = {view, NULL, 120, 1, NULL, 0, 0, NULL, teach ? caps : NULL, teach ? "all" : NULL};
  rr_ctx c;
  if (rr_open(&c, take, NULL, &o, W, H, &e)) {
    printf("render %-5s %4dx%-4d: %s\n", view, W, H, e.msg);
    return;
  }
  c.o.t1 = c.k.duration;
  char out[4200];
  snprintf(out, sizeof out, "%s/bench.mp4", dir);
  for (int i = 0; i < NFRAMES; i++) {   /* the frames, drawn once untimed, for the encoder alone */
    cairo_surface_t* surf = cairo_image_surface_create_for_data(store + (size_t)i * 4 * W * H, CAIRO_FORMAT_ARGB32, W, H, 4 * W);
    cairo_t* cr = cairo_create(surf);
    rr_draw(&c, cr, T0 + i / 30.0, &e);
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
  }
  double r[16], rc[16], dr[16], ew[16];
  int n = 0;
  for (int k = 0; k < reps && k < 16; k++) {
    timing p, x;
    if (k % 2 ? pipeline(&c, out, &p, &e) || encoder_alone(store, W, H, out, &x, &e)
              : encoder_alone(store, W, H, out, &x, &e) || pipeline(&c, out, &p, &e)) {
      printf("render %-5s %4dx%-4d: %s\n", view, W, H, e.msg);
      break;
    }
    r[n] = p.wall / x.wall, rc[n] = p.cpu / x.cpu, dr[n] = 1000 * p.draw_cpu / NFRAMES, ew[n] = NFRAMES / x.wall;
    n++;
  }
  if (n) {
    double lo = r[0], hi = r[0];
    for (int k = 1; k < n; k++) lo = r[k] < lo ? r[k] : lo, hi = r[k] > hi ? r[k] : hi;
    double mr = median(r, n), mc = median(rc, n), md = median(dr, n), me = median(ew, n);
    printf("render %-5s %4dx%-4d teach %-3s: ratio %.2f (%.2f-%.2f, %d reps; CPU time %.2f), libx264 alone %5.1f frames/s, "
           "drawing %.1f ms CPU/frame\n",
           view, W, H, teach ? "on" : "off", mr, lo, hi, n, mc, me, md);
  }
  fflush(stdout);
  unlink(out);
  rr_close(&c);
}

#define DBLOCK 20
#define NDBLOCK 5

/* Drawing CPU per frame (ms), cached and plain ways interleaved block by block. */
static void draw_alone(const char* take, const char* caps, const char* view, int W, int H, unsigned char* store) {
  mt_err e = {0};
  rr_opts o = {view, NULL, 120, 1, NULL, 0, 0, NULL, caps, "all"};
  rr_ctx c;
  if (rr_open(&c, take, NULL, &o, W, H, &e)) {
    printf("draw %-5s %4dx%-4d: %s\n", view, W, H, e.msg);
    return;
  }
  c.o.t1 = c.k.duration;
  cairo_surface_t* surf = cairo_image_surface_create_for_data(store, CAIRO_FORMAT_ARGB32, W, H, 4 * W);
  double ms[2][NDBLOCK];
  for (int b = 0; b < NDBLOCK; b++)
    for (int k = 0; k < 2; k++) {
      int plain = (b + k) % 2;
      c.cache.plain = plain;
      double c0 = bench_cpu();
      for (int i = 0; i < DBLOCK; i++) {
        cairo_t* cr = cairo_create(surf);
        rr_draw(&c, cr, T0 + (b * DBLOCK + i) % NFRAMES / 30.0, &e);
        cairo_destroy(cr);
      }
      ms[plain][b] = 1000 * (bench_cpu() - c0) / DBLOCK;
    }
  cairo_surface_destroy(surf);
  printf("draw %-5s %4dx%-4d teach on : %.2f ms CPU/frame as render draws it, %.2f ms with every part drawn every frame\n", view,
         W, H, median(ms[0], NDBLOCK), median(ms[1], NDBLOCK));
  fflush(stdout);
  rr_close(&c);
}

/* Drawing alone on k threads at once, each with its own context and its own frames (what
 * render/pool.h runs beside the encoder): frames/s by the wall clock, to see the drawing scale
 * with the cores it is given. */
typedef struct dlane { rr_ctx c; unsigned char* buf; int first, n, W, H; } dlane;

static void* dlane_main(void* arg) {
  dlane* l = arg;
  mt_err e = {0};
  cairo_surface_t* surf = cairo_image_surface_create_for_data(l->buf, CAIRO_FORMAT_ARGB32, l->W, l->H, 4 * l->W);
  for (int i = 0; i < l->n; i++) {
    cairo_t* cr = cairo_create(surf);
    rr_draw(&l->c, cr, T0 + (l->first + i) % NFRAMES / 30.0, &e);
    cairo_destroy(cr);
  }
  cairo_surface_destroy(surf);
  return NULL;
}

static void draw_threads(const char* take, const char* caps, const char* view, int W, int H, unsigned char* store) {
  double fps[3] = {0};
  for (int k = 1; k <= 2; k++) {
    dlane l[2];
    int ok = 1;
    for (int i = 0; i < k; i++) {
      mt_err e = {0};
      rr_opts o = {view, NULL, 120, 1, NULL, 0, 0, NULL, caps, "all"};
      if (rr_open(&l[i].c, take, NULL, &o, W, H, &e)) {
        printf("draw threads %-5s: %s\n", view, e.msg);
        for (int j = 0; j < i; j++) rr_close(&l[j].c);
        return;
      }
      l[i].c.o.t1 = l[i].c.k.duration;
      l[i].buf = store + (size_t)i * 4 * W * H;
      l[i].first = i * 2 * NFRAMES / k, l[i].n = 2 * NFRAMES / k, l[i].W = W, l[i].H = H;
    }
    double a = bench_now();
    pthread_t th[2];
    for (int i = 1; i < k; i++) ok &= !pthread_create(&th[i], NULL, dlane_main, &l[i]);
    dlane_main(&l[0]);
    for (int i = 1; i < k && ok; i++) pthread_join(th[i], NULL);
    fps[k] = 2 * NFRAMES / (bench_now() - a);
    for (int i = 0; i < k; i++) rr_close(&l[i].c);
  }
  printf("draw %-5s %4dx%-4d teach on : drawing alone %.0f frames/s on one thread, %.0f on two (x%.2f; %ld cores)\n", view, W, H,
         fps[1], fps[2], fps[2] / fps[1], sysconf(_SC_NPROCESSORS_ONLN));
  fflush(stdout);
}

MT_BENCH(render) {
  char dir[] = "/tmp/mt-bench-render-XXXXXX";
  if (!mkdtemp(dir)) return;
  char take[4200], script[] = "takes/countersteer.lua", caps[] = "takes/captions/countersteer.lua";
  snprintf(take, sizeof take, "%s/cs.take", dir);
  run_opts ro = {0};
  ro.script = script;
  ro.out = take;
  ro.quiet = 1;
  run_result res;
  mt_err e = {0};
  if (run_take(&ro, &res, &e)) {
    printf("render: %s\n", e.msg);
    rmdir(dir);
    return;
  }
  int reps = getenv("MT_BENCH_REPS") ? atoi(getenv("MT_BENCH_REPS")) : 3;
  const char* only = getenv("MT_BENCH_VIEWS");
  unsigned char* store = malloc((size_t)NFRAMES * 4 * 1920 * 1080);
  static const char* views[] = {"plan", "track", "side", "rear", "chase", "grid"};
  static const int sizes[][2] = {{1280, 720}, {1920, 1080}};
  for (int z = 0; store && z < 2; z++)
    for (size_t v = 0; v < sizeof views / sizeof *views; v++)
      for (int teach = 0; teach < 2; teach++)
        if (!only || strstr(only, views[v])) one(take, caps, views[v], teach, sizes[z][0], sizes[z][1], store, dir, reps);
  for (int z = 0; store && z < 2; z++)
    for (size_t v = 0; v < sizeof views / sizeof *views; v++)
      if (!only || strstr(only, views[v])) draw_alone(take, caps, views[v], sizes[z][0], sizes[z][1], store);
  for (int z = 0; store && z < 2; z++)
    if (!only || strstr(only, "grid")) draw_threads(take, caps, "grid", sizes[z][0], sizes[z][1], store);
  free(store);
  unlink(take);
  rmdir(dir);
}
