/* bench_chase.c — the chase view's drawing speed (render/chase.h): frames per second of
 * chase_draw alone (wall clock, and per second of this process's CPU time) at 1280×720 and
 * 1920×1080 for each camera of rigs/cameras.lua, over a spread of times in
 * a take (MT_CHASE_TAKE, made by tests/bench/chase.sh). MT_CHASE_PNG=DIR also saves one frame
 * per camera (DIR/chase_NAME.png, at MT_CHASE_T s or 30 % into the take, with the take
 * MT_CHASE_GHOST as a ghost if set) for looking at. */
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "render/chase.h"
#include "tests/bench/bench.h"

static double cpu_now(void) {   /* this process's CPU time: the cost on a machine shared with other jobs */
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

MT_BENCH(chase) {
  const char* path = getenv("MT_CHASE_TAKE");
  if (!path) {
    printf("chase: set MT_CHASE_TAKE to a take (tests/bench/chase.sh does)\n");
    return;
  }
  mt_err e = {0};
  take_reader* r = take_open(path, &e);
  if (!r) {
    printf("chase: %s\n", e.msg);
    return;
  }
  double T = (take_nsteps(r) - 1) * take_schema_of(r)->timestep;
  const char* names[16];
  int nc = sc_camera_names(names, 16);
  const char* png = getenv("MT_CHASE_PNG");
  const int N = 120;
  for (int size = 0; size < 2; size++) {
    const int W = size ? 1920 : 1280, H = size ? 1080 : 720;
    cairo_surface_t* sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t* cr = cairo_create(sf);
    for (int c = 0; c < nc; c++) {
      chase_scene* s = chase_scene_new(r, names[c], &e);
      if (!s) {
        printf("chase %s: %s\n", names[c], e.msg);
        continue;
      }
      double t0 = bench_now(), c0 = cpu_now();
      for (int i = 0; i < N; i++)
        if (chase_draw(s, cr, W, H, T * (i + 0.5) / N, NULL, &e)) printf("chase %s: %s\n", names[c], e.msg);
      cairo_surface_flush(sf);
      double dt = bench_now() - t0, dc = cpu_now() - c0;
      printf("chase %-10s %dx%d: %6.1f frames/s (%6.1f per CPU-second; %d frames over the take)\n", names[c], W, H, N / dt, N / dc, N);
      if (png && !size) {
        char out[1024];
        double tp = getenv("MT_CHASE_T") ? atof(getenv("MT_CHASE_T")) : 0.3 * T;
        chase_scene* g = NULL;   /* MT_CHASE_GHOST: a second take drawn as a ghost */
        take_reader* gr = getenv("MT_CHASE_GHOST") ? take_open(getenv("MT_CHASE_GHOST"), &e) : NULL;
        if (gr) g = chase_scene_new(gr, names[c], &e);
        chase_draw(s, cr, W, H, tp, g, &e);
        chase_scene_free(g);
        if (gr) take_close(gr);
        snprintf(out, sizeof out, "%s/chase_%s.png", png, names[c]);
        cairo_surface_write_to_png(sf, out);
      }
      chase_scene_free(s);
    }
    cairo_destroy(cr);
    cairo_surface_destroy(sf);
  }
  take_close(r);
}
