/* pool.h — a take's frames drawn by several threads at once (module prefix rp_), so that the
 * drawing keeps pace with an encoder that has many cores (`mototake render --threads N`).
 *
 * One thread draws a frame in 3–6 ms (the grid at 720p with the teaching layer) while libx264
 * spreads each frame over every core: on two cores the two take the same time, on eight the
 * encoder would wait for a single drawing thread most of the time (docs/render.md "Speed").
 *
 * Contract: rp_render draws frames i = 0..n−1 at take time t0 + i·dt into the sink, which must
 * have been opened with fo_open_ring(..., rp_ring(threads), ...). Thread 0 is the caller, with
 * the context c as rr_open left it; each other thread draws with its own context, opened here
 * from the same take, compare take, options and size (rr_open is not run concurrently: it reads
 * rigs and scripts through code with static scratch). Frames go to whichever thread is free,
 * lowest first, and reach the sink in order; rr_draw is deterministic and keeps nothing between
 * frames that changes a pixel (render.h), so the output is the same bytes for any thread count
 * (tests/unit/test_pool.c). The first error, or an interruption (*stop set), ends every thread
 * and fails the sink (fo_fail), so fo_close(ok = 0) then leaves no file; e has the one line. */
#ifndef POOL_H
#define POOL_H

#include <signal.h>
#include "base/progress.h"
#include "render/frames.h"
#include "render/render.h"

#define RP_MAX_THREADS 8

typedef struct rp_job {
  const char* take;              /* what c was opened with (rr_open's take and compare) */
  const char* compare;
  double t0, dt;                 /* frame i at take time t0 + i·dt */
  long n;
  long first, total;             /* frame i is the sink's frame first + i of total (0: n), e.g. a lesson's part */
  int threads;                   /* 1..RP_MAX_THREADS */
  const char* out;               /* the output's name, for the interruption's message */
  volatile sig_atomic_t* stop;   /* NULL, or set by a signal handler: stop at the next frame */
  fprog* prog;                   /* NULL or the progress bar, ticked by the caller's thread */
} rp_job;

/* The sink's ring for that many drawing threads: each drawing one frame, the worker encoding
 * one, and one waiting. */
int rp_ring(int threads);
/* The default thread count: one per three online cores, rounded up (2 cores: 1, 4: 2, 8: 3), up to
 * RP_MAX_THREADS. A thread draws a 720p grid about as fast as libx264 encodes it on three cores. */
int rp_auto_threads(void);
int rp_render(rr_ctx* c, fo_sink* sink, const rp_job* j, mt_err* e);

#endif
