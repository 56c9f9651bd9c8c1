/* bench_speed.c — `bin/mt_bench speed` (issue 18): steps/s and real-time factor of the vehicle alone,
 * the ridden Laguna lap not recorded and recorded (also with a busy loop on another core), a
 * per-stage breakdown in µs per step, the ratios the issue aims at, and take MB per simulated
 * minute. Printed, never asserted.
 *
 * The machine is shared: wall-clock time is whatever the other processes leave us. Rates are
 * therefore measured in the thread's own CPU time (CLOCK_THREAD_CPUTIME_ID), which other
 * processes do not inflate (much: caches are shared), and each micro-stage is the median of
 * MT_BENCH_REPS runs (default 3). The lap is ridden four ways per repetition (at least 3,
 * interleaved): not recorded and recorded, each alone and beside a busy loop. The recording cost
 * is the main thread's extra CPU plus all of the writer thread's CPU over the dry loop's CPU —
 * what recording costs when the writer has to share a core — and the wall-time ratios, alone
 * and beside a busy loop (recorded beside one against dry beside one); medians of the
 * per-repetition ratios.
 *
 * Stages: "MuJoCo" is the bare mj_step of the same model (no callback); "our forces" is the
 * vehicle step minus that; the rest are timed on their own over the same number of calls as
 * one lap makes: Magic Formula evaluations (2 per step), road queries (3 per step on Laguna),
 * the rider's decision, the events' `when` conditions of takes/laguna_lap.lua, the recorder's
 * sampling (rec_sample_instant as a recorded run calls it: channels, joint reactions; no poses) and the take encoding (the
 * writer thread's differences, shuffle and Zstandard of every chunk of the recorded lap). */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/vehicle_mj.h"
#include "base/luabox.h"
#include "sim/rider.h"
#include "sim/track.h"
#include "sim/trim.h"
#include "sim/tyre.h"
#include "takes/recorder.h"
#include "takes/replay.h"
#include "takes/run.h"
#include "takes/script.h"
#include "takes/takefile.h"
#include "tests/bench/bench.h"
#include "tests/bench/bench_flat.h"


static double median(double* x, int n) {
  qsort(x, n, sizeof *x, bench_cmp_double);
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

static bench_rider g_br;   /* the flat-road vehicle's rider (bench_flat.h) */

/* a trimmed sport1000 at 30 m/s on a flat road, with the bench rider */
static vehicle* make_vehicle(rig** rp) { return bench_flat_vehicle(rp, &g_br, "speed bench"); }

typedef struct lap_run {
  int ok;
  double steps, sim, wall, cpu_loop, cpu_writer, mb;
  long samples;   /* steps whose channels the loop sampled from the vehicle */
  char msg[256];
} lap_run;

/* The ridden loop against the vehicle alone, interleaved (as bench_vstep.c does): the not recorded
 * lap calls blk_step after every BLK_STEPS of its steps (run_opts.block), which takes the lap's
 * CPU time since the last call and then steps the flat-road vehicle alone BLK_STEPS times, timed
 * on its own; each pair of blocks saw the same spell of the machine's load. The first call only
 * starts the clock (the lap's first block holds its setup), a last partial block is dropped. */
#define BLK_STEPS 2000
#define BLK_MAX 4000
typedef struct blk_run {
  vehicle* v;         /* the flat-road vehicle alone, with the bench rider */
  double mark;        /* CPU time at the end of the last block pair */
  int started;
  int n;              /* block pairs */
  double ride[BLK_MAX], veh[BLK_MAX], ratio[BLK_MAX];   /* s per step; vehicle / ridden */
} blk_run;

static void blk_step(void* data) {
  blk_run* b = data;
  double t = bench_cpu();
  if (!b->started) {
    b->started = 1;
    b->mark = t;
    return;
  }
  if (b->n >= BLK_MAX) return;
  mt_err e = {0};
  for (int i = 0; i < BLK_STEPS; i++)
    if (veh_step(b->v, &e)) break;
  double t2 = bench_cpu();
  b->ride[b->n] = (t - b->mark) / BLK_STEPS;
  b->veh[b->n] = (t2 - t) / BLK_STEPS;
  b->ratio[b->n] = b->veh[b->n] / b->ride[b->n];
  b->n++;
  b->mark = bench_cpu();
}

/* CPU time the vehicle-alone blocks from block `from` on took (s) */
static double blk_veh_cpu(const blk_run* b, int from) {
  double s = 0;
  for (int i = from; i < b->n; i++) s += b->veh[i] * BLK_STEPS;
  return s;
}

static lap_run ride_lap_blocks(const char* out, int busy, blk_run* blk);
static lap_run ride_lap(const char* out, int busy) { return ride_lap_blocks(out, busy, NULL); }

static lap_run ride_lap_blocks(const char* out, int busy, blk_run* blk) {
  lap_run L = {0};
  char script[4096];
  snprintf(script, sizeof script, "%s/takes/laguna_lap.lua", luabox_project_root());
  pid_t child = -1;
  if (busy) {   /* a busy loop beside us: the writer thread has to share the second core with it */
    child = fork();
    if (child == 0) {
      volatile unsigned long x = 0;
      for (;;) x++;
    }
  }
  run_opts o = {0};
  o.script = script;
  o.out = out;
  o.quiet = 1;
  if (blk) {
    blk->started = 0;
    run_bench_blocks = (run_blocks){BLK_STEPS, blk_step, blk};
  }
  run_result res;
  mt_err e = {0};
  int rc = run_take(&o, &res, &e);
  if (blk) run_bench_blocks = (run_blocks){0, NULL, NULL};
  if (child > 0) {
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
  }
  if (rc) {
    snprintf(L.msg, sizeof L.msg, "%s", e.msg);
    return L;
  }
  L.ok = 1;
  L.steps = res.steps;
  L.sim = res.sim_time;
  L.wall = res.wall;
  L.cpu_loop = res.cpu_loop;
  L.cpu_writer = res.cpu_writer;
  L.samples = res.samples;
  struct stat st;
  if (out && stat(out, &st) == 0) L.mb = st.st_size / 1e6;
  return L;
}

/* Recording against not recording, interleaved (as the ridden loop against the vehicle alone):
 * the recorded lap and a not recorded one run in two threads that take turns, BLK_STEPS steps
 * each, so that every pair of blocks saw the same spell of the machine's load; only one of the
 * two simulation threads runs at a time (the MuJoCo callbacks are the process's), while the
 * recorded lap's take writer thread runs whenever it has chunks, as in a ride. Each block's CPU
 * time is the simulation thread's own clock; the writer's is its own thread's clock
 * (run_result.cpu_writer). A lap that ends hands the turn over for good. MT_BENCH_DUO_DRY=1 runs
 * both laps not recorded: the method's zero (both terms about 0, the blocks' quartiles within
 * about ±1 %). */
typedef struct duo {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int turn;        /* the lane that may run: 0 the recorded lap, 1 the not recorded one */
  int done[2], started[2], n[2];
  int cpu_id;      /* the CPU both simulation threads are kept on */
  double mark[2];
  double cpu[2][BLK_MAX];   /* s of the thread's CPU per block */
} duo;
static _Thread_local int t_lane;

static void duo_wait(duo* d, int me) {   /* with d->mu held */
  while (d->turn != me && !d->done[1 - me]) pthread_cond_wait(&d->cv, &d->mu);
}

static void duo_block(void* data) {
  duo* d = data;
  int me = t_lane;
  double c = bench_cpu();
  if (d->started[me] && d->n[me] < BLK_MAX) d->cpu[me][d->n[me]++] = c - d->mark[me];
  if (!d->started[me]) {
    /* The first block holds the lap's setup: left out. Both simulation threads are then kept on
     * the first CPU: a thread woken on a core that was idle ran its block up to 30 % slower,
     * and two laps that were both not recorded differed by that (the take writer's thread, made
     * in the setup, still runs on any CPU). */
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(d->cpu_id, &one);
    pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    d->started[me] = 1;
  }
  pthread_mutex_lock(&d->mu);
  d->turn = 1 - me;
  pthread_cond_broadcast(&d->cv);
  duo_wait(d, me);
  pthread_mutex_unlock(&d->mu);
  d->mark[me] = bench_cpu();
}

typedef struct duo_arg {
  duo* d;
  int lane;
  const char* out;
  lap_run res;
} duo_arg;

static void* duo_main(void* p) {
  duo_arg* a = p;
  t_lane = a->lane;
  pthread_mutex_lock(&a->d->mu);
  duo_wait(a->d, a->lane);
  pthread_mutex_unlock(&a->d->mu);
  a->res = ride_lap(a->out, 0);
  pthread_mutex_lock(&a->d->mu);
  a->d->done[a->lane] = 1;
  a->d->turn = 1 - a->lane;
  pthread_cond_broadcast(&a->d->cv);
  pthread_mutex_unlock(&a->d->mu);
  return NULL;
}

typedef struct duo_result {
  int ok;
  double main;     /* the recorded lap's simulation thread's extra CPU over the dry one's: sums of the paired blocks */
  double q1, q3;   /* quartiles of the blocks' ratios, recorded / dry, less 1 */
  double writer;   /* the writer thread's CPU over the dry lap's loop's */
  double wus;      /* the writer thread's CPU, us a step */
  char msg[300];
} duo_result;

/* One recorded and one not recorded lap interleaved (busy: beside a busy loop in another process) */
static duo_result duo_laps(const char* out, int busy) {
  duo_result R = {0};
  duo* d = calloc(1, sizeof *d);
  pthread_mutex_init(&d->mu, NULL);
  pthread_cond_init(&d->cv, NULL);
  d->cpu_id = sched_getcpu() >= 0 ? sched_getcpu() : 0;
  pid_t child = -1;
  if (busy) {   /* forked before the threads start */
    child = fork();
    if (child == 0) {
      volatile unsigned long x = 0;
      for (;;) x++;
    }
  }
  unlink(out);
  duo_arg a[2] = {{d, 0, getenv("MT_BENCH_DUO_DRY") ? NULL : out, {0}}, {d, 1, NULL, {0}}};
  run_bench_blocks = (run_blocks){BLK_STEPS, duo_block, d};
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setstacksize(&at, 16u << 20);
  pthread_t th[2];
  int made = 0;
  for (; made < 2; made++)
    if (pthread_create(&th[made], &at, duo_main, &a[made])) break;
  if (made < 2) {   /* a lane that never started is done: the other must not wait for its turn */
    pthread_mutex_lock(&d->mu);
    for (int i = made; i < 2; i++) d->done[i] = 1;
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->mu);
  }
  for (int i = 0; i < made; i++) pthread_join(th[i], NULL);
  pthread_attr_destroy(&at);
  run_bench_blocks = (run_blocks){0, NULL, NULL};
  if (child > 0) {
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
  }
  int n = d->n[0] < d->n[1] ? d->n[0] : d->n[1];
  if (made < 2 || !a[0].res.ok || !a[1].res.ok || n < 4) {
    snprintf(R.msg, sizeof R.msg, "%s%s%s", made < 2 ? "could not start a thread " : "", a[0].res.msg, a[1].res.msg);
  } else {
    double s0 = 0, s1 = 0, *q = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) {
      s0 += d->cpu[0][i];
      s1 += d->cpu[1][i];
      q[i] = d->cpu[0][i] / d->cpu[1][i] - 1;
    }
    qsort(q, n, sizeof *q, bench_cmp_double);
    R.ok = 1;
    R.main = s0 / s1 - 1;
    R.q1 = q[n / 4];
    R.q3 = q[(3 * n) / 4];
    R.writer = a[0].res.cpu_writer / a[1].res.cpu_loop;
    R.wus = 1e6 * a[0].res.cpu_writer / a[0].res.steps;
    free(q);
  }
  pthread_cond_destroy(&d->cv);
  pthread_mutex_destroy(&d->mu);
  free(d);
  return R;
}

/* The vehicle alone on the lap itself: the machine, road and track rebuilt from a recorded take,
 * each step started from the take's state with its inputs applied, then veh_step — the lap's
 * physics and road queries without rider, path, events, sampling or the loop's bookkeeping.
 * µs of CPU per step in the step loop (the state and input copies included), 0 on failure.
 * With ib (branch loopC), interleaved as the ridden lap is: after every BLK_STEPS replayed steps
 * the flat-road vehicle alone ib->v steps BLK_STEPS times, each block timed on its own, and the
 * pairs go to ib (ride[] the replay's, veh[] the vehicle alone's, ratio[] vehicle / replay). */
static double replay_per_step(const char* path, blk_run* ib) {
  mt_err e = {0};
  take_reader* tr = take_open(path, &e);
  if (!tr) return 0;
  rig* rg = NULL;
  track* tk = NULL;
  vehicle* v = NULL;
  double per = 0, spent = 0, blk_acc = 0;
  long done = 0;
  int in_blk = 0, nb = 0;
  if (replay_rebuild(tr, 1, &rg, &tk, &e) == MT_OK && (v = veh_new(rg, track_road(tk), 0, &e))) {
    long n = take_nsteps(tr);
    int nx = take_ncols(tr, TAKE_STATE), ni = take_ncols(tr, TAKE_INPUT);
    double* X = malloc(sizeof(double) * (size_t)(nx + ni) * TAKE_CHUNK_STEPS);
    double* I = X + (size_t)nx * TAKE_CHUNK_STEPS;
    for (long c0 = 0; c0 < n && X; c0 += TAKE_CHUNK_STEPS) {
      long k = n - c0 < TAKE_CHUNK_STEPS ? n - c0 : TAKE_CHUNK_STEPS;
      if (take_read(tr, TAKE_STATE, c0, k, X, &e) || take_read(tr, TAKE_INPUT, c0, k, I, &e)) break;
      double t0 = bench_cpu();
      for (long i = 0; i < k; i++) {
        veh_set_state(v, X + (size_t)nx * i);
        v->d->time = (c0 + i) * rg->timestep;
        rec_input_apply(I + (size_t)ni * i, ni, &v->in);
        if (veh_step(v, &e)) break;
        done++;
        if (ib && ++in_blk == BLK_STEPS) {   /* the vehicle alone's block is not in spent */
          double t1 = bench_cpu();
          mt_err e2 = {0};
          for (int j = 0; j < BLK_STEPS; j++)
            if (veh_step(ib->v, &e2)) break;
          double t2 = bench_cpu();
          spent += t1 - t0;
          blk_acc += t1 - t0;
          if (nb++ > 0 && ib->n < BLK_MAX) {   /* the first block holds the machine's first steps */
            ib->ride[ib->n] = blk_acc / BLK_STEPS;
            ib->veh[ib->n] = (t2 - t1) / BLK_STEPS;
            ib->ratio[ib->n] = ib->veh[ib->n] / ib->ride[ib->n];
            ib->n++;
          }
          in_blk = 0;
          blk_acc = 0;
          t0 = bench_cpu();
        }
      }
      double t3 = bench_cpu();
      spent += t3 - t0;
      blk_acc += t3 - t0;   /* a block spans chunks: their reads are left out */
    }
    free(X);
    if (done == n) per = spent / n;
  }
  veh_free(v);
  track_free(tk);
  rig_free(rg);
  take_close(tr);
  return per;
}

MT_BENCH(speed) {
  int reps = getenv("MT_BENCH_REPS") ? atoi(getenv("MT_BENCH_REPS")) : 3;
  if (reps < 1 || reps > 50) reps = 3;
  rig* r = NULL;
  vehicle* v = make_vehicle(&r);
  if (!v) return;
  const int N = 20000;
  double vb_ratio[50 * 50];   /* vehicle step over bare step, per pair of interleaved blocks (all reps) */
  int nvb = 0;
  double t_veh[50], t_bare[50], t_mf[50], t_road[50], t_rider[50], t_ev[50], t_ev100[50], t_evlua[50], t_rec[50], t_dry[50], w_dry[50];
  lap_run dry = {0};   /* the ridden lap, not recorded: one per rep, between the micro-stages */
  mt_err e = {0};
  /* road: Laguna, three queries a step along the centre line at 40 m/s */
  char tpath[4096], spath[4096];
  snprintf(spath, sizeof spath, "%s/takes/laguna_lap.lua", luabox_project_root());
  take_script* sc = script_load(spath, &e);
  if (!sc) {
    printf("speed bench: %s\n", e.msg);
    return;
  }
  track_resolve(sc->track, tpath, sizeof tpath);
  track* trk = track_load(tpath, &e);
  if (!trk) {
    printf("speed bench: %s\n", e.msg);
    return;
  }
  road rd = track_road(trk);
  double Ltr = track_length(trk);
  int nc = rec_nchan();
  const char* names[256];
  double* chv = calloc(nc, sizeof(double));
  for (int i = 0; i < nc; i++) names[i] = rec_channels()[i].name;
  int nx = veh_state_size(v), nb = rec_nbody(r);
  double* xs = malloc(sizeof(double) * (2 * nx + 7 * nb + nc));
  double *xscr = xs + nx, *poses = xscr + nx, *chs = poses + 7 * nb;
  rec_context ctx = {0};
  /* a recorded lap whose states and inputs each rep replays (replay_per_step) */
  char rdir[] = "/tmp/mt_bench_speed_ref_XXXXXX", refp[64] = "";
  lap_run ref = {0};
  if (mkdtemp(rdir)) {
    snprintf(refp, sizeof refp, "%s/ref.take", rdir);
    ref = ride_lap(refp, 0);
  }
  double t_rep[50];
  blk_run* blk = calloc(1, sizeof *blk);
  blk->v = v;
  blk_run* rblk = calloc(1, sizeof *rblk);   /* the replayed lap's blocks against the same vehicle alone */
  rblk->v = v;
  int nblk0 = 0;
  for (int rep = 0; rep < reps; rep++) {
    /* the vehicle step, with the bench rider: as many steps as 2/3 of the lap, so that it and the
     * lap below see the same spell of the machine's load */
    /* and the bare MuJoCo step (the same model, no callbacks), interleaved with it in blocks of
     * 2000 steps as `mt_bench vstep` does, each block of the bare step from the vehicle's state
     * then: the ratio is the median of the blocks' ratios (timed one after the other, the two
     * saw different spells of the machine's state, and the ratio swung from 1.2x to 1.5x) */
    const int NV = 100000, VB = 2000;
    mjData* d2 = mj_makeData(v->m);
    double tv = 0, tb = 0;
    int nq = 0;
    for (int k = 0; k < NV / VB; k++) {
      double t0 = bench_cpu();
      for (int i = 0; i < VB; i++)
        if (veh_step(v, &e)) break;
      double a = bench_cpu() - t0, b = bench_bare_block(v, d2, VB);
      tv += a;
      tb += b;
      if (b > 0) vb_ratio[nvb++] = a / b;
      nq++;
    }
    t_veh[rep] = tv / (nq * VB);
    t_bare[rep] = tb / (nq * VB);
    mj_deleteData(d2);
    double t0;
    /* Magic Formula: two wheels a step over a spread of operating points, side by side as the
     * vehicle step evaluates them (the cornering stiffness, then the forces: tyre.h's pairs) */
    const tyre_params* tp[2] = {&r->wheel[0].tyre, &r->wheel[1].tyre};
    double acc = 0;
    t0 = bench_cpu();
    for (int i = 0; i < N; i++) {
      tyre_forces_t tf[2];
      double u = (i % 997) / 997.0;
      double fz[2] = {1200 + 800 * u, 1200 + 800 * u}, k[2] = {0.1 * (u - 0.5), 0.1 * (u - 0.5)};
      double al[2] = {0.15 * (0.5 - u), 0.15 * (0.5 - u)}, g[2] = {0.9 * u, 0.9 * u}, ky[2];
      tyre_kya2(tp, fz, g, ky);
      tyre_forces_kya2(tp, fz, k, al, g, ky, tf);
      acc += tf[0].fy + tf[1].fy;
    }
    t_mf[rep] = (bench_cpu() - t0) / N;
    /* road queries: front and rear contact, under the frame */
    int h[3] = {-1, -1, -1};
    t0 = bench_cpu();
    for (int i = 0; i < N; i++) {
      double s = fmod(i * 0.04 * 7, Ltr), p[3], hd;   /* 7x the lap's step: more of the track per rep */
      track_eval(trk, s, 0.5, p, &hd);
      acc += p[0];
    }
    double t_eval = bench_cpu() - t0;
    t0 = bench_cpu();
    for (int i = 0; i < N; i++) {
      double s = fmod(i * 0.04 * 7, Ltr), p[3], hd;
      track_eval(trk, s, 0.5, p, &hd);
      for (int k = 0; k < 3; k++) {
        road_point rp;
        double dx = (k == 0 ? 0.7 : k == 1 ? -0.7 : 0) * cos(hd), dy = (k == 0 ? 0.7 : k == 1 ? -0.7 : 0) * sin(hd);
        rd.query(rd.self, p[0] + dx, p[1] + dy, h[k], &rp);
        h[k] = rp.hint;
        acc += rp.z;
      }
    }
    t_road[rep] = (bench_cpu() - t0 - t_eval) / N;
    /* the rider's decision */
    rider_target tg = {0};
    tg.speed = 30;
    tg.roll_mode = 1;
    tg.auto_gear = 1;
    t0 = bench_cpu();
    for (int i = 0; i < N; i++) rider_control(&g_br.p, &g_br.s, v, &tg, r->timestep);
    t_rider[rep] = (bench_cpu() - t0) / N;
    /* the lap's `when` conditions, with the channels of this step */
    unsigned char fired[SCRIPT_MAX_EVENTS] = {0};
    t0 = bench_cpu();
    for (int i = 0; i < N; i++) {
      chv[0] = i * 0.001;
      if (script_next_event(sc, i, names, chv, nc, chv[0], fired, &e) == -2) break;
    }
    t_ev[rep] = (bench_cpu() - t0) / N;
    /* the same conditions at events_rate = 100 (issue 18 point 2: evaluated every 10th step) */
    memset(fired, 0, sizeof fired);
    sc->events_rate = 100;
    script_events_resolve(sc, r->timestep, &e);
    t0 = bench_cpu();
    for (int i = 0; i < N; i++) {
      chv[0] = i * 0.001;
      if (script_next_event(sc, i, names, chv, nc, chv[0], fired, &e) == -2) break;
    }
    t_ev100[rep] = (bench_cpu() - t0) / N;
    sc->events_rate = 0;
    script_events_resolve(sc, r->timestep, &e);
    /* the same conditions called in Lua (as before they were compiled to C: script.h) */
    memset(fired, 0, sizeof fired);
    script_when_fast_enabled = 0;
    sc->when_compiled = 0;
    t0 = bench_cpu();
    for (int i = 0; i < N; i++) {
      chv[0] = i * 0.001;
      if (script_next_event(sc, i, names, chv, nc, chv[0], fired, &e) == -2) break;
    }
    t_evlua[rep] = (bench_cpu() - t0) / N;
    script_when_fast_enabled = 1;
    sc->when_compiled = 0;
    /* the recorder's sampling of one instant */
    veh_get_state(v, xs);
    t0 = bench_cpu();
    for (int i = 0; i < N; i++) rec_sample_instant(v, xs, xscr, &ctx, NULL, chs);   /* as takes/run.c */
    t_rec[rep] = (bench_cpu() - t0) / N;
    if (acc == 12345.678) printf(" ");   /* keep the loops' results alive */
    /* the ridden lap, not recorded, right after this rep's vehicle-alone run: the ratio's two
     * rates come from interleaved runs, so a burst of load elsewhere cannot favour one of them.
     * Its rate is the loop's own CPU time (run_result.cpu_loop: no setup, no other thread). */
    lap_run d = ride_lap_blocks(NULL, 0, blk);
    if (!d.ok) {
      printf("speed: laguna lap failed: %s\n", d.msg);
      return;
    }
    t_dry[rep] = (d.cpu_loop - blk_veh_cpu(blk, nblk0)) / d.steps;   /* the lap's own loop, less the blocks of the vehicle alone */
    nblk0 = blk->n;
    w_dry[rep] = d.wall;
    dry = d;
    t_rep[rep] = ref.ok ? replay_per_step(refp, rblk) : 0;   /* and the lap's physics alone, interleaved too */
  }
  double replayed = median(t_rep, reps);
  if (refp[0]) {
    unlink(refp);
    rmdir(rdir);
  }
  double veh = median(t_veh, reps), bare = median(t_bare, reps), mf = median(t_mf, reps), rq = median(t_road, reps),
         rid = median(t_rider, reps), ev = median(t_ev, reps), rs = median(t_rec, reps);
  double per_dry = median(t_dry, reps);
  dry.wall = median(w_dry, reps);
  printf("speed: vehicle alone (sport1000, 30 m/s, flat road, bench rider): %.0f steps/s CPU, %.0fx real time; "
         "bare MuJoCo step of the same model %.0f steps/s: ours costs %.2fx (aim <= 1.3x; median of %d interleaved blocks' "
         "ratios)\n",
         1 / veh, r->timestep / veh, 1 / bare, median(vb_ratio, nvb), nvb);
  /* the lap: not recorded and recorded, each alone and beside a busy loop, interleaved, lreps
   * times (at least 3): medians of the per-repetition ratios */
  char tmp[] = "/tmp/mt_bench_speed_XXXXXX";
  char out[64];
  if (!mkdtemp(tmp)) return;
  snprintf(out, sizeof out, "%s/lap.take", tmp);
  int lreps = reps < 3 ? 3 : reps;
  lap_run d0 = {0}, rec = {0}, dryb = {0}, busy = {0};
  double r_cost[50], r_main[50], r_wr[50], r_wall[50], r_wallb[50], r_costb[50], m_cpu[50], w_cpu[50];
  for (int k = 0; k < lreps; k++) {
    d0 = ride_lap(NULL, 0);
    unlink(out);
    rec = ride_lap(out, 0);
    dryb = ride_lap(NULL, 1);
    unlink(out);
    busy = ride_lap(out, 1);
    if (!d0.ok || !rec.ok || !dryb.ok || !busy.ok) {
      printf("speed: laguna lap failed: %s%s%s%s\n", d0.msg, rec.msg, dryb.msg, busy.msg);
      return;
    }
    /* recording cost in CPU: what the main thread spends beyond the dry loop plus all the writer
     * thread spends — what the ride pays when the writer has to share its core */
    r_cost[k] = (rec.cpu_loop - d0.cpu_loop + rec.cpu_writer) / d0.cpu_loop;
    r_main[k] = rec.cpu_loop / d0.cpu_loop - 1;
    r_wr[k] = rec.cpu_writer / d0.cpu_loop;
    r_costb[k] = (busy.cpu_loop - dryb.cpu_loop + busy.cpu_writer) / dryb.cpu_loop;
    r_wall[k] = rec.wall / d0.wall - 1;
    r_wallb[k] = busy.wall / dryb.wall - 1;
    m_cpu[k] = rec.cpu_loop;
    w_cpu[k] = rec.cpu_writer;
  }
  printf("speed: laguna lap, ridden, not recorded: %.0f steps/s CPU (%.0fx real time); %.2f s wall for %.1f s (%.0fx); "
         "medians of %d runs, each after a vehicle-alone run\n",
         1 / per_dry, r->timestep / per_dry, dry.wall, dry.sim, dry.sim / dry.wall, reps);
  double mc = median(m_cpu, lreps), wc = median(w_cpu, lreps);
  printf("speed: laguna lap, ridden, recorded: main thread %.0f steps/s CPU (%.0fx real time), writer thread %.2f s CPU "
         "for the main thread's %.2f s (writer/main %.2f; %.2f us of CPU a step, the dry loop %.2f us a step)\n",
         rec.steps / mc, rec.sim / mc, wc, mc, wc / mc, 1e6 * wc / rec.steps, 1e6 * per_dry);
  int nbk = blk->n > 0 ? blk->n : 1;   /* (none: a lap shorter than two blocks; the line reads 0) */
  double q_ride = median(blk->ride, nbk), q_veh = median(blk->veh, nbk), q_ratio = median(blk->ratio, nbk);
  qsort(blk->ratio, nbk, sizeof(double), bench_cmp_double);
  printf("speed: ridden loop at %.0f %% of the vehicle-alone rate (CPU; aim >= 85 %%; median of %d interleaved blocks of "
         "%d steps, the ridden lap's and the flat-road vehicle alone's: quartiles %.0f-%.0f %%; %.3f against %.3f us a step)\n",
         100 * q_ratio, nbk, BLK_STEPS, 100 * blk->ratio[nbk / 4], 100 * blk->ratio[(3 * nbk) / 4], q_veh * 1e6, q_ride * 1e6);
  printf("speed: the same from the runs one after the other (the lap's medians against the vehicle alone's 100000 steps "
         "before each): %.0f %%\n", 100 * veh / per_dry);
  if (replayed > 0)
    printf("speed: the lap's own physics (its states and inputs replayed through veh_step on the track: %.2f us a step) "
           "runs at %.0f %% of the flat-road vehicle-alone rate; the ridden loop at %.0f %% of it (rider, path, events, "
           "loop; medians of %d)\n", replayed * 1e6, 100 * veh / replayed, 100 * replayed / per_dry, reps);
  /* the same two ratios from interleaved blocks (branch loopC: the lines above compare runs one
   * after the other, which the machine's load moves by several points) */
  int nrb = rblk->n > 0 ? rblk->n : 1;
  double r_rep = median(rblk->ratio, nrb), q_rep = median(rblk->ride, nrb), q_rveh = median(rblk->veh, nrb);
  double r_ride = q_ratio;   /* the first line's: vehicle alone over the ridden lap, per step */
  if (replayed > 0 && rblk->n > 0) {
    qsort(rblk->ratio, nrb, sizeof(double), bench_cmp_double);
    printf("speed: interleaved: the lap's own physics at %.0f %% of the flat-road vehicle-alone rate (median of %d blocks of "
           "%d steps: quartiles %.0f-%.0f %%; %.3f against %.3f us a step), the ridden loop at %.0f %% of the lap's physics "
           "(the two medians' ratio)\n",
           100 * r_rep, nrb, BLK_STEPS, 100 * rblk->ratio[nrb / 4], 100 * rblk->ratio[(3 * nrb) / 4], q_rveh * 1e6, q_rep * 1e6,
           100 * r_ride / r_rep);
  }
  printf("speed: recording cost (medians of %d): CPU %+.1f %% (main thread %+.1f %%, writer %+.1f %% of the dry loop's CPU), "
         "%+.1f %% beside a busy loop; wall %+.1f %%, beside a busy loop %+.1f %% (against a dry lap beside one) (whole laps one "
         "after the other; for the aim, the interleaved line next)\n",
         lreps, 100 * median(r_cost, lreps), 100 * median(r_main, lreps), 100 * median(r_wr, lreps),
         100 * median(r_costb, lreps), 100 * median(r_wall, lreps), 100 * median(r_wallb, lreps));
  /* the same cost from interleaved laps (the line above compares whole laps run one after the
   * other, whose main-thread term swings by tens of percent with the machine's load) */
  double i_main[50], i_wr[50], i_cost[50], i_mainb[50], i_wrb[50], i_costb[50], i_q1[50], i_q3[50], i_wus[50], i_wusb[50];
  int ni = 0;
  for (int k = 0; k < lreps; k++) {
    duo_result a = duo_laps(out, 0), b = duo_laps(out, 1);
    if (!a.ok || !b.ok) {
      printf("speed: interleaved laps failed: %s%s\n", a.msg, b.msg);
      break;
    }
    i_main[ni] = a.main;
    i_wr[ni] = a.writer;
    i_cost[ni] = a.main + a.writer;
    i_q1[ni] = a.q1;
    i_q3[ni] = a.q3;
    i_wus[ni] = a.wus;
    i_mainb[ni] = b.main;
    i_wrb[ni] = b.writer;
    i_costb[ni] = b.main + b.writer;
    i_wusb[ni] = b.wus;
    ni++;
  }
  if (ni > 0) {
    double lo = i_cost[0], hi = i_cost[0], lob = i_costb[0], hib = i_costb[0];
    for (int k = 1; k < ni; k++) {
      lo = fmin(lo, i_cost[k]);
      hi = fmax(hi, i_cost[k]);
      lob = fmin(lob, i_costb[k]);
      hib = fmax(hib, i_costb[k]);
    }
    double q1 = median(i_q1, ni), q3 = median(i_q3, ni);
    printf("speed: recording cost, interleaved (a recorded and a not recorded lap taking turns every %d steps; medians of %d "
           "pairs of laps): CPU %+.1f %% (range %+.1f to %+.1f; main thread %+.1f %%, its blocks' quartiles %+.1f to %+.1f %%; "
           "writer %+.1f %%, %.2f us a step); beside a busy loop %+.1f %% (range %+.1f to %+.1f; main thread %+.1f %%, writer "
           "%+.1f %%, %.2f us a step) (aim <= 15 %%)\n",
           BLK_STEPS, ni, 100 * median(i_cost, ni), 100 * lo, 100 * hi, 100 * median(i_main, ni), 100 * q1, 100 * q3,
           100 * median(i_wr, ni), median(i_wus, ni), 100 * median(i_costb, ni), 100 * lob, 100 * hib,
           100 * median(i_mainb, ni), 100 * median(i_wrb, ni), median(i_wusb, ni));
  }
  printf("speed: take %.1f MB for %.1f s: %.1f MB per simulated minute (aim < 35)\n", busy.mb, busy.sim, busy.mb / (busy.sim / 60));
  /* encoding: every stored chunk of the recorded lap through the take's codecs (the pose stream is
   * not stored from take format 3: readers rebuild it from the state) */
  double enc = 0;
  take_reader* tr = take_open(out, &e);
  if (tr) {
    static const int codec[TAKE_NSTREAM] = {4, 4, 0, 0, 5};   /* as takes/take_codec.c take_stream_codec; 0: not stored (poses, channels: format 4) */
    long n = take_nsteps(tr);
    for (int s = 0; s < TAKE_NSTREAM; s++) {
      if (!codec[s]) continue;
      int ncol = take_ncols(tr, s);
      double* row = malloc(sizeof(double) * ncol * TAKE_CHUNK_STEPS * 2);
      double* col = row + (size_t)ncol * TAKE_CHUNK_STEPS;
      for (long c0 = 0; c0 < n; c0 += TAKE_CHUNK_STEPS) {
        long k = n - c0 < TAKE_CHUNK_STEPS ? n - c0 : TAKE_CHUNK_STEPS;
        if (take_read(tr, s, c0, k, row, &e)) break;
        for (int c = 0; c < ncol; c++)
          for (long i = 0; i < k; i++) col[(size_t)c * k + i] = row[i * ncol + c];
        size_t len;
        unsigned long crc;
        double t0 = bench_cpu();
        free(take_chunk_encode(col, ncol, k, codec[s], &len, &crc));
        enc += bench_cpu() - t0;
      }
      free(row);
    }
    enc /= n;
    take_close(tr);
  }
  unlink(out);
  rmdir(tmp);
  double forces = veh - bare - rid;
  /* a dry run samples the vehicle only in steps whose conditions read such a channel (takes/run.c) */
  double sampled = dry.samples / dry.steps;
  printf("speed: per step (us of CPU): MuJoCo %.2f | our forces %.2f (of which Magic Formula %.2f) | road queries %.2f | "
         "rider %.2f | events %.2f | recorder sampling %.2f (in %.0f %% of the not recorded lap's steps) | "
         "rest of the ridden loop %.2f | "
         "encoding %.2f (writer thread: difference, shuffle, Zstandard; SQLite and hand-over besides: %.2f)\n",
         bare * 1e6, forces * 1e6, mf * 1e6, rq * 1e6, rid * 1e6, ev * 1e6, rs * 1e6, 100 * sampled,
         (per_dry - veh - rq - ev - rs * sampled) * 1e6, enc * 1e6, (wc / rec.steps - enc) * 1e6);
  printf("speed: the lap's `when` conditions: %.3f us a step evaluated every step, %.3f us at events_rate = 100 "
         "(every 10th step; docs/takes.md); %.3f us a step called in Lua (not compiled to C: takes/script.h)\n",
         ev * 1e6, median(t_ev100, reps) * 1e6, median(t_evlua, reps) * 1e6);
  if (replayed > 0)   /* the rest, split by the replayed lap (the two parts add up to it) */
    printf("speed: rest of the ridden loop, split by the replayed lap: the lap's physics beyond the flat road's %.2f us "
           "(road queries not counted), the ridden loop's own rider, path and bookkeeping %.2f us\n",
           (replayed - veh - rq) * 1e6, (per_dry - replayed - ev - rs * sampled) * 1e6);
  if (replayed > 0 && rblk->n > 0)   /* the same split from the interleaved ratios, in µs of the vehicle alone's median */
    printf("speed: the same split from the interleaved ratios (the vehicle alone %.3f us a step): the lap's physics beyond "
           "the flat road's %.2f us (road queries not counted), the ridden loop's own %.2f us\n",
           q_veh * 1e6, (q_veh / r_rep - q_veh - rq) * 1e6, (q_veh / r_ride - q_veh / r_rep - ev - rs * sampled) * 1e6);
  free(rblk);
  free(blk);
  free(xs);
  free(chv);
  track_free(trk);
  script_free(sc);
  veh_free(v);
  rig_free(r);
}
