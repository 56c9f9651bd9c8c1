/* bench_physprof.c — `bin/mt_bench physprof` (issue 18, branch loopC): one of the speed bench's two
 * physics references on its own, for a profiler (perf record, callgrind). Not part of `make bench`.
 *   MT_PROF=flat    the flat-road vehicle alone (sport1000 at 30 m/s with the bench rider),
 *                   MT_PROF_N steps (default 200000) after 20000 to settle
 *   MT_PROF=replay  the lap's own physics: the take MT_BENCH_TAKE (a recorded laguna_lap) replayed
 *                   through veh_step on its track, each step from the take's state with its
 *                   inputs, MT_PROF_REPS times (default 1)
 *   MT_PROF=both    the two interleaved in blocks of 2000 steps (the replay's take MT_BENCH_TAKE,
 *                   MT_PROF_REPS times), as the speed bench interleaves; with MT_PROF_LOG=FILE each
 *                   block's mode and CLOCK_MONOTONIC start and end go to FILE (one a line: "f|r
 *                   t0 t1"), so that `perf record -k CLOCK_MONOTONIC` samples can be split by it
 *   MT_PROF=lap     the ridden lap (takes/laguna_lap.lua, not recorded) interleaved with the flat-road
 *                   vehicle alone in blocks of 2000 steps, as the speed bench's first line;
 *                   MT_PROF_LOG as for both
 * Prints µs of thread CPU a step (for both and lap: the medians of the blocks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/vehicle_mj.h"
#include "base/luabox.h"
#include "sim/rider.h"
#include "sim/track.h"
#include "sim/trim.h"
#include "takes/recorder.h"
#include "takes/replay.h"
#include "takes/run.h"
#include "takes/takefile.h"
#include "tests/bench/bench.h"
#include "tests/bench/bench_flat.h"


static bench_rider p_br;   /* the flat-road vehicle's rider (bench_flat.h) */
static vehicle* flat_vehicle(rig** rp) { return bench_flat_vehicle(rp, &p_br, "physprof"); }

static void prof_flat(long n) {
  rig* r = NULL;
  mt_err e = {0};
  vehicle* v = flat_vehicle(&r);
  if (!v) return;
  for (int i = 0; i < 20000; i++)
    if (veh_step(v, &e)) break;
  double t0 = bench_cpu();
  for (long i = 0; i < n; i++)
    if (veh_step(v, &e)) break;
  printf("physprof flat: %ld steps, %.3f us a step\n", n, (bench_cpu() - t0) / n * 1e6);
  veh_free(v);
  rig_free(r);
}

static void prof_replay(const char* path, int reps) {
  mt_err e = {0};
  take_reader* tr = take_open(path, &e);
  if (!tr) {
    printf("physprof: %s\n", e.msg);
    return;
  }
  rig* rg = NULL;
  track* tk = NULL;
  vehicle* v = NULL;
  if (replay_rebuild(tr, 1, &rg, &tk, &e) == MT_OK && (v = veh_new(rg, track_road(tk), 0, &e))) {
    long n = take_nsteps(tr);
    int nx = take_ncols(tr, TAKE_STATE), ni = take_ncols(tr, TAKE_INPUT);
    double* X = malloc(sizeof(double) * (size_t)(nx + ni) * n);
    double* I = X + (size_t)nx * n;
    if (take_read(tr, TAKE_STATE, 0, n, X, &e) || take_read(tr, TAKE_INPUT, 0, n, I, &e)) {
      printf("physprof: %s\n", e.msg);
      n = 0;
    }
    double spent = 0;
    long done = 0;
    for (int rep = 0; rep < reps; rep++) {
      double t0 = bench_cpu();
      for (long i = 0; i < n; i++) {
        veh_set_state(v, X + (size_t)nx * i);
        v->d->time = i * rg->timestep;
        rec_input_apply(I + (size_t)ni * i, ni, &v->in);
        if (veh_step(v, &e)) break;
        done++;
      }
      spent += bench_cpu() - t0;
    }
    free(X);
    printf("physprof replay: %ld steps, %.3f us a step\n", done, done ? spent / done * 1e6 : 0);
  } else
    printf("physprof: %s\n", e.msg);
  veh_free(v);
  track_free(tk);
  rig_free(rg);
  take_close(tr);
}

static double mono(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void prof_both(const char* path, int reps, const char* logp) {
  mt_err e = {0};
  rig* fr = NULL;
  vehicle* fv = flat_vehicle(&fr);
  if (!fv) return;
  for (int i = 0; i < 20000; i++)
    if (veh_step(fv, &e)) break;
  take_reader* tr = take_open(path, &e);
  if (!tr) {
    printf("physprof: %s\n", e.msg);
    veh_free(fv);   /* the flat-road vehicle is not leaked on a take that does not open */
    rig_free(fr);
    return;
  }
  rig* rg = NULL;
  track* tk = NULL;
  vehicle* v = NULL;
  FILE* lg = logp ? fopen(logp, "w") : NULL;
  if (replay_rebuild(tr, 1, &rg, &tk, &e) == MT_OK && (v = veh_new(rg, track_road(tk), 0, &e))) {
    long n = take_nsteps(tr);
    int nx = take_ncols(tr, TAKE_STATE), ni = take_ncols(tr, TAKE_INPUT);
    double* X = malloc(sizeof(double) * (size_t)(nx + ni) * n);
    double* I = X + (size_t)nx * n;
    if (take_read(tr, TAKE_STATE, 0, n, X, &e) || take_read(tr, TAKE_INPUT, 0, n, I, &e)) {
      printf("physprof: %s\n", e.msg);
      n = 0;
    }
    const long B = 2000;
    long nb = n / B * reps;
    double* rt = calloc(3 * (size_t)(nb + 1), sizeof(double));
    double *ft = rt + nb + 1, *ra = ft + nb + 1;
    long k = 0;
    for (int rep = 0; rep < reps; rep++)
      for (long b0 = 0; b0 + B <= n; b0 += B, k++) {
        double m0 = mono(), t0 = bench_cpu();
        for (long i = b0; i < b0 + B; i++) {
          veh_set_state(v, X + (size_t)nx * i);
          v->d->time = i * rg->timestep;
          rec_input_apply(I + (size_t)ni * i, ni, &v->in);
          if (veh_step(v, &e)) break;
        }
        double t1 = bench_cpu(), m1 = mono();
        for (long i = 0; i < B; i++)
          if (veh_step(fv, &e)) break;
        double t2 = bench_cpu(), m2 = mono();
        if (lg) fprintf(lg, "r %.9f %.9f\nf %.9f %.9f\n", m0, m1, m1, m2);
        rt[k] = (t1 - t0) / B;
        ft[k] = (t2 - t1) / B;
        ra[k] = ft[k] / rt[k];
      }
    qsort(rt, k, sizeof *rt, bench_cmp_double);
    qsort(ft, k, sizeof *ft, bench_cmp_double);
    qsort(ra, k, sizeof *ra, bench_cmp_double);
    if (k)
      printf("physprof both: %ld block pairs of %ld steps: replay %.3f, flat %.3f us a step (medians); flat/replay %.1f %% (quartiles %.1f-%.1f)\n",
             k, B, rt[k / 2] * 1e6, ft[k / 2] * 1e6, ra[k / 2] * 100, ra[k / 4] * 100, ra[3 * k / 4] * 100);
    free(rt);
    free(X);
  } else
    printf("physprof: %s\n", e.msg);
  if (lg) fclose(lg);
  veh_free(v);
  track_free(tk);
  rig_free(rg);
  take_close(tr);
  veh_free(fv);
  rig_free(fr);
}

typedef struct lap_blk {
  vehicle* v;
  FILE* lg;
  int started;
  double mark, mmark;
  long n;
  double ride[4000], veh[4000], ratio[4000];
} lap_blk;

static void lap_blk_step(void* data) {
  lap_blk* b = data;
  double t = bench_cpu(), m = mono();
  if (!b->started) {
    b->started = 1;
    b->mark = t;
    b->mmark = m;
    return;
  }
  if (b->n >= 4000) return;
  mt_err e = {0};
  for (int i = 0; i < 2000; i++)
    if (veh_step(b->v, &e)) break;
  double t2 = bench_cpu(), m2 = mono();
  if (b->lg) fprintf(b->lg, "r %.9f %.9f\nf %.9f %.9f\n", b->mmark, m, m, m2);
  b->ride[b->n] = (t - b->mark) / 2000;
  b->veh[b->n] = (t2 - t) / 2000;
  b->ratio[b->n] = b->veh[b->n] / b->ride[b->n];
  b->n++;
  b->mark = bench_cpu();
  b->mmark = mono();
}

static void prof_lap(int reps, const char* logp) {
  rig* fr = NULL;
  mt_err e = {0};
  lap_blk* b = calloc(1, sizeof *b);
  b->v = flat_vehicle(&fr);
  if (!b->v) return;
  for (int i = 0; i < 20000; i++)
    if (veh_step(b->v, &e)) break;
  b->lg = logp ? fopen(logp, "w") : NULL;
  char script[4096];
  snprintf(script, sizeof script, "%s/takes/laguna_lap.lua", luabox_project_root());
  for (int rep = 0; rep < reps; rep++) {
    run_opts o = {0};
    o.script = script;
    o.quiet = 1;
    b->started = 0;
    run_bench_blocks = (run_blocks){2000, lap_blk_step, b};
    run_result res;
    int rc = run_take(&o, &res, &e);
    run_bench_blocks = (run_blocks){0, NULL, NULL};
    if (rc) {
      printf("physprof: %s\n", e.msg);
      break;
    }
  }
  long k = b->n;
  qsort(b->ride, k, sizeof(double), bench_cmp_double);
  qsort(b->veh, k, sizeof(double), bench_cmp_double);
  qsort(b->ratio, k, sizeof(double), bench_cmp_double);
  if (k)
    printf("physprof lap: %ld block pairs of 2000 steps: ridden %.3f, flat %.3f us a step (medians); flat/ridden %.1f %% (quartiles %.1f-%.1f)\n",
           k, b->ride[k / 2] * 1e6, b->veh[k / 2] * 1e6, b->ratio[k / 2] * 100, b->ratio[k / 4] * 100, b->ratio[3 * k / 4] * 100);
  if (b->lg) fclose(b->lg);
  veh_free(b->v);
  rig_free(fr);
  free(b);
}

MT_BENCH(physprof) {
  const char* w = getenv("MT_PROF");
  if (w && !strcmp(w, "flat"))
    prof_flat(getenv("MT_PROF_N") ? atol(getenv("MT_PROF_N")) : 200000);
  else if (w && !strcmp(w, "replay") && getenv("MT_BENCH_TAKE"))
    prof_replay(getenv("MT_BENCH_TAKE"), getenv("MT_PROF_REPS") ? atoi(getenv("MT_PROF_REPS")) : 1);
  else if (w && !strcmp(w, "lap"))
    prof_lap(getenv("MT_PROF_REPS") ? atoi(getenv("MT_PROF_REPS")) : 1, getenv("MT_PROF_LOG"));
  else if (w && !strcmp(w, "both") && getenv("MT_BENCH_TAKE"))
    prof_both(getenv("MT_BENCH_TAKE"), getenv("MT_PROF_REPS") ? atoi(getenv("MT_PROF_REPS")) : 1, getenv("MT_PROF_LOG"));
  else
    printf("physprof: MT_PROF=lap|both|flat [MT_PROF_N=steps] or MT_PROF=replay MT_BENCH_TAKE=take [MT_PROF_REPS=n]\n");
}
