/* progress.c — the progress bar of long commands (see progress.h). */
#include "base/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define FPROG_PERIOD 0.1   /* s between lines: fast enough to look alive, few enough to cost nothing */
#define FPROG_SETTLE 0.5   /* s before an ETA is shown */
#define FPROG_WIDTH 30     /* the bar's cells (tests/cli and the web server's parser rely on it) */

static double mono(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int fprog_wanted(int wanted) { return wanted && (isatty(2) || getenv("MOTOTAKE_PROGRESS")); }

static void start(fprog* p, int kind, double n, const char* label, int wanted) {
  p->on = fprog_wanted(wanted);
  p->tty = isatty(2);
  p->width = 0;
  p->kind = kind;
  p->n = n;
  p->label = label;
  p->t0 = mono();
  p->last = -1;
}

void fprog_start(fprog* p, long n, int wanted) { start(p, FPROG_FRAMES, n, NULL, wanted); }
void fprog_start_sim(fprog* p, double duration, int wanted) { start(p, FPROG_SIM, duration, NULL, wanted); }
void fprog_start_work(fprog* p, double n, const char* label, int wanted) { start(p, FPROG_WORK, n, label, wanted); }

/* The line after the bar: the kind's counts, rate and the time left at the rate so far. Returns
 * the characters written. */
static int tail(const fprog* p, double done, double el) {
  double rate = el > 0 ? done / el : 0, eta = rate > 0 ? (p->n - done) / rate : 0;
  if (eta < 0 || done >= p->n) eta = 0;
  /* the first ticks' rate is mostly the start's cost: no ETA from it (a 6 s take's verify said 681 s) */
  int guess = el < FPROG_SETTLE && done < p->n;
  if (p->kind == FPROG_FRAMES)
    return fprintf(stderr, guess ? "%ld/%ld frames  %.1f frames/s  ETA ? " : "%ld/%ld frames  %.1f frames/s  ETA %.1f s ",
                   (long)done, (long)p->n, rate, eta);
  else if (p->kind == FPROG_SIM)
    return fprintf(stderr, "%6.1f / %.1f s  %5.0fx real time  ETA %d:%02d ", done, p->n, rate, (int)eta / 60, (int)eta % 60);
  int pct = (int)(100 * (p->n > 0 ? done / p->n : 1));
  return fprintf(stderr, guess ? "%s  %3d%%  ETA ? " : "%s  %3d%%  ETA %.1f s ", p->label, pct, eta);
}

static void draw(fprog* p, double done, double t) {
  p->last = t;
  double cells = p->n > 0 ? FPROG_WIDTH * done / p->n : FPROG_WIDTH;   /* 30·7/10 is 21, 30·(7/10) 20.99… */
  int full = cells >= FPROG_WIDTH ? FPROG_WIDTH : cells <= 0 ? 0 : (int)cells;
  char bar[FPROG_WIDTH + 1];
  for (int k = 0; k < FPROG_WIDTH; k++) bar[k] = k < full ? '#' : '.';
  bar[FPROG_WIDTH] = 0;
  fprintf(stderr, "\r[%s] ", bar);
  int w = tail(p, done, t - p->t0);
  /* on a terminal, blank what a longer line before left (a file's reader takes the last line as is) */
  if (p->tty && w < p->width) fprintf(stderr, "%*s", p->width - w, "");
  if (w > p->width) p->width = w;
  fflush(stderr);
}

void fprog_tick(fprog* p, double done) {
  if (!p->on) return;
  double t = mono();
  if (p->last >= 0 && t - p->last <= FPROG_PERIOD && done < p->n) return;
  draw(p, done, t);
}

void fprog_show(fprog* p, double done) {
  if (p->on) draw(p, done, mono());
}

void fprog_end(fprog* p) {
  if (p->on) fprintf(stderr, "\n");
}
