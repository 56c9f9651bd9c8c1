/* progress.c — the frame progress bar of long renders (see progress.h). */
#include "render/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double mono(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

void fprog_start(fprog* p, long n, int wanted) {
  p->on = wanted && (isatty(2) || getenv("MOTOTAKE_PROGRESS"));
  p->n = n;
  p->t0 = mono();
  p->last = -1;
}

void fprog_tick(fprog* p, long done) {
  if (!p->on) return;
  double t = mono();
  if (p->last >= 0 && t - p->last <= 0.1 && done != p->n) return;
  p->last = t;
  double el = t - p->t0, fps = el > 0 ? done / el : 0, eta = fps > 0 ? (p->n - done) / fps : 0;
  int width = 30, full = p->n > 0 ? (int)(width * done / p->n) : width;
  char bar[40];
  for (int k = 0; k < width; k++) bar[k] = k < full ? '#' : '.';
  bar[width] = 0;
  fprintf(stderr, "\r[%s] %ld/%ld frames  %.1f frames/s  ETA %.1f s ", bar, done, p->n, fps, eta);
  fflush(stderr);
}

void fprog_end(fprog* p) {
  if (p->on) fprintf(stderr, "\n");
}
