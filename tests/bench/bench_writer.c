/* bench_writer.c — `bin/mt_bench writer` (issue 18): the take writer thread's CPU per step,
 * measured on its own. Printed, never asserted.
 *
 * The Laguna lap (takes/laguna_lap.lua) is recorded once (or MT_BENCH_TAKE names a take to
 * use); its state, input and context streams are read into memory, and then written again
 * through take_writer_step into a fresh take MT_BENCH_REPS times (default 7), as a recording
 * writes them: the same schema, chunks and commits. The main thread only copies each step
 * into the chunk buffer; everything else the process spends is the writer thread's (process
 * CPU time minus the main thread's, from the first step to the join in take_writer_close).
 * The median and the range over the repetitions are printed in µs of CPU per step: the
 * writer's whole cost, the part that recording adds to a ride when the writer has to share a
 * core, without the two separate rides a comparison of dry and recorded laps needs. Other
 * processes on the machine inflate CPU time much less than wall time, but caches are shared:
 * compare builds by alternating runs. MT_BENCH_KEEP=PATH keeps the last take written.
 * MT_BENCH_WIDE=0 and MT_BENCH_ZERO_BLOCKS=0 turn the transform's two shortcuts off (takefile.h
 * take_wide, take_zero_blocks; the same chunks) to measure what each saves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "takes/recorder.h"
#include "takes/run.h"
#include "takes/takefile.h"
#include "base/luabox.h"
#include "tests/bench/bench.h"

static double clk(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

MT_BENCH(writer) {
  const char* env = getenv("MT_BENCH_REPS");
  int reps = env ? atoi(env) : 7;
  if (reps < 1) reps = 1;
  if (reps > 50) reps = 50;
  char tmp[] = "/tmp/mt_bench_writer.XXXXXX";
  if (!mkdtemp(tmp)) return;
  char lap[4200], out[4200];
  snprintf(lap, sizeof lap, "%s/lap.take", tmp);
  snprintf(out, sizeof out, "%s/again.take", tmp);
  if (getenv("MT_BENCH_WIDE")) take_wide = atoi(getenv("MT_BENCH_WIDE")) != 0;
  if (getenv("MT_BENCH_ZERO_BLOCKS")) take_zero_blocks = atoi(getenv("MT_BENCH_ZERO_BLOCKS")) != 0;
  double pace = getenv("MT_BENCH_PACE_US") ? atof(getenv("MT_BENCH_PACE_US")) : 0;
  const char* src = getenv("MT_BENCH_TAKE");
  mt_err e = {0};
  if (!src) {
    char script[4096];
    snprintf(script, sizeof script, "%s/takes/laguna_lap.lua", luabox_project_root());
    run_opts o = {0};
    o.script = script;
    o.out = lap;
    o.quiet = 1;
    run_result res;
    if (run_take(&o, &res, &e)) {
      printf("writer: recording the lap failed: %s\n", e.msg);
      return;
    }
    src = lap;
  }
  take_reader* r = take_open(src, &e);
  if (!r) {
    printf("writer: %s\n", e.msg);
    return;
  }
  long n = take_nsteps(r);
  const take_schema* sc0 = take_schema_of(r);
  take_schema sc = *sc0;
  sc.store_chan = 0;   /* as a recording does (format 4: channels rebuilt by readers) */
  int ns = sc.nstate, ni = sc.ninput;
  double* st = malloc(sizeof(double) * ns * (n + 1));
  double* in = malloc(sizeof(double) * ni * (n + 1));
  double* cx = malloc(sizeof(double) * REC_NCTX * (n + 1));
  if (!st || !in || !cx || n < 1 || take_read(r, TAKE_STATE, 0, n, st, &e) || take_read(r, TAKE_INPUT, 0, n, in, &e) ||
      take_read(r, TAKE_CTX, 0, n, cx, &e)) {
    printf("writer: reading %s: %s\n", src, e.msg);
    take_close(r);
    free(st), free(in), free(cx);
    return;
  }
  double wr[50], mn[50], mb = 0;
  int ok = 0;
  for (int k = 0; k < reps; k++) {
    unlink(out);
    take_writer* w = take_writer_open(out, &sc, NULL, 0, "[]", &e);
    if (!w) {
      printf("writer: %s\n", e.msg);
      break;
    }
    double p0 = clk(CLOCK_PROCESS_CPUTIME_ID), m0 = clk(CLOCK_THREAD_CPUTIME_ID);
    int rc = 0;
    for (long i = 0; i < n && !rc; i++) {
      rc = take_writer_step(w, st + (size_t)i * ns, in + (size_t)i * ni, cx + (size_t)i * REC_NCTX, NULL, &e);
      if (pace > 0) {   /* the main thread busy for pace µs, as a ride's step keeps it */
        double t = clk(CLOCK_MONOTONIC) + pace * 1e-6;
        while (clk(CLOCK_MONOTONIC) < t) {
        }
      }
    }
    double m1 = clk(CLOCK_THREAD_CPUTIME_ID);
    if (rc) {
      take_writer_discard(w);
      printf("writer: %s\n", e.msg);
      break;
    }
    /* the close hands over the last chunk and joins the thread; its own commit (the status, the
     * fsync) is the main thread's and is not counted: a recording pays it once, at the end */
    double mc0 = clk(CLOCK_THREAD_CPUTIME_ID);
    rc = take_writer_close(w, 1, NULL, &e);
    double p1 = clk(CLOCK_PROCESS_CPUTIME_ID), mc1 = clk(CLOCK_THREAD_CPUTIME_ID);
    if (rc) {
      printf("writer: %s\n", e.msg);
      break;
    }
    wr[k] = ((p1 - p0) - (m1 - m0) - (mc1 - mc0)) / n;
    mn[k] = (m1 - m0) / n;
    struct stat sb;
    if (stat(out, &sb) == 0) mb = sb.st_size / 1e6;
    ok++;
  }
  if (ok) {
    qsort(wr, ok, sizeof *wr, bench_cmp_double);
    qsort(mn, ok, sizeof *mn, bench_cmp_double);
    printf("writer: %ld steps (%s), %d runs: writer thread %.3f us of CPU a step (median; %.3f to %.3f), "
           "main thread's copies %.3f us; take %.2f MB, %.2f MB per simulated minute\n",
           n, getenv("MT_BENCH_TAKE") ? src : "the Laguna lap", ok, wr[ok / 2] * 1e6, wr[0] * 1e6, wr[ok - 1] * 1e6,
           mn[ok / 2] * 1e6, mb, mb / (n * sc.timestep / 60));
  }
  take_close(r);
  free(st), free(in), free(cx);
  const char* keep = getenv("MT_BENCH_KEEP");   /* the last take written, e.g. to compare chunks across builds */
  if (keep && ok && rename(out, keep) != 0) printf("writer: cannot keep the take as %s\n", keep);
  unlink(out);
  unlink(lap);
  rmdir(tmp);
}
