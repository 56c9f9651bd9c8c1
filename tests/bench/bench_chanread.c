/* bench_chanread.c — `MT_BENCH_TAKE=LAP.take bin/mt_bench chanread` (issue 35, item 5): the C
 * reader alone reading every channel of a take at full rate, the baseline of
 * tests/bench/python.sh's Python figure. Printed, never asserted.
 *
 * What is timed is what libmototake's mtk_take_channels does for all channels, without the
 * library and Python around it: take_open (the hardened reader and the rig-step check), then
 * take_read of the channel stream a second of steps at a time into one block buffer (format 4
 * on: every step's channels rebuilt from its state, inputs and context). The calling thread's CPU
 * seconds (bench_cpu: other processes inflate it least), the best of MT_BENCH_REPS (default 3). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "takes/take_replay.h"
#include "tests/bench/bench.h"

/* One open-and-read of every channel; returns the thread CPU seconds, or −1 (message printed). */
static double read_all(const char* path, long* steps, int* nchan) {
  mt_err e = {0};
  double c0 = bench_cpu();
  take_reader* r = take_open(path, &e);
  if (!r) {
    printf("chanread: %s\n", e.msg);
    return -1;
  }
  const take_schema* s = take_schema_of(r);
  long n = take_nsteps(r), blk = (long)ceil(1 / s->timestep);
  double* buf = malloc(sizeof(double) * s->nchan * blk);
  int rc = MT_OK;
  for (long i = 0; i < n && !rc; i += blk) rc = take_read(r, TAKE_CHAN, i, n - i < blk ? n - i : blk, buf, &e);
  double c1 = bench_cpu();
  *steps = n;
  *nchan = s->nchan;
  free(buf);
  take_close(r);
  if (rc) printf("chanread: %s\n", e.msg);
  return rc ? -1 : c1 - c0;
}

MT_BENCH(chanread) {
  const char* path = getenv("MT_BENCH_TAKE");
  if (!path) {
    printf("chanread: set MT_BENCH_TAKE to a take (tests/bench/python.sh records the Laguna lap)\n");
    return;
  }
  const char* env = getenv("MT_BENCH_REPS");
  int reps = env && atoi(env) > 0 ? atoi(env) : 3;
  double best = INFINITY;
  long n = 0;
  int nc = 0;
  for (int k = 0; k < reps; k++) {
    double t = read_all(path, &n, &nc);
    if (t < 0) return;
    if (t < best) best = t;
  }
  /* the line tests/bench/python.sh reads: keep "C reader: S s" */
  printf("chanread: %d channels x %ld steps at full rate, C reader: %.3f s CPU (best of %d, open included)\n", nc, n, best,
         reps);
}
