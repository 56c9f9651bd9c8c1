/* pool.c — a take's frames drawn by several threads (see pool.h). */
#include "render/pool.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct pool {
  fo_sink* sink;
  const rp_job* j;
  pthread_mutex_t mu;   /* guards next, done, failed, err */
  long next, done;      /* the next frame to hand out; frames submitted */
  int failed;
  mt_err err;           /* the first error */
} pool;

typedef struct lane {
  pool* p;
  rr_ctx* c;
} lane;

int rp_ring(int threads) { return threads + 2 <= FO_MAX_BUF ? threads + 2 : FO_MAX_BUF; }

int rp_auto_threads(void) {
  long n = (sysconf(_SC_NPROCESSORS_ONLN) + 2) / 3;
  return n < 1 ? 1 : n > RP_MAX_THREADS ? RP_MAX_THREADS : (int)n;
}

/* Record the first error and fail the sink: every thread waiting for a slot wakes and stops. */
static void fail(pool* p, const mt_err* e) {
  pthread_mutex_lock(&p->mu);
  if (!p->failed) {
    p->failed = 1;
    p->err = *e;
  }
  pthread_mutex_unlock(&p->mu);
  fo_fail(p->sink, e);
}

/* The next frame to draw, or −1 when there is none or the pool has failed. */
static long take_frame(pool* p) {
  pthread_mutex_lock(&p->mu);
  long i = !p->failed && p->next < p->j->n ? p->next++ : -1;
  pthread_mutex_unlock(&p->mu);
  return i;
}

static int draw_one(lane* l, long i, mt_err* e) {
  pool* p = l->p;
  const rp_job* j = p->j;
  long at = j->first + i;
  if (j->stop && *j->stop)
    return mt_fail(e, MT_EINPUT, "render: interrupted at frame %ld of %ld; %s not written", at, j->total > 0 ? j->total : j->n, j->out);
  unsigned char* buf = fo_buffer_at(p->sink, at, e);
  if (!buf) return e->code ? e->code : MT_EINTERNAL;
  cairo_surface_t* surf = cairo_image_surface_create_for_data(buf, CAIRO_FORMAT_ARGB32, l->c->W, l->c->H, 4 * l->c->W);
  cairo_t* cr = cairo_create(surf);
  int rc = rr_draw(l->c, cr, j->t0 + i * j->dt, e);
  cairo_destroy(cr);
  cairo_surface_flush(surf);
  cairo_surface_destroy(surf);
  return rc ? rc : fo_submit_at(p->sink, at, e);
}

/* One thread's frames; the caller's (tick) also moves the progress bar. */
static void run_lane(lane* l, int tick) {
  pool* p = l->p;
  for (long i; (i = take_frame(p)) >= 0;) {
    mt_err e = {0};
    if (draw_one(l, i, &e)) {
      fail(p, &e);
      break;
    }
    pthread_mutex_lock(&p->mu);
    long done = ++p->done;
    pthread_mutex_unlock(&p->mu);
    if (tick && p->j->prog) fprog_tick(p->j->prog, p->j->first + done);
  }
}

static void* lane_main(void* arg) {
  run_lane(arg, 0);
  return NULL;
}

int rp_render(rr_ctx* c, fo_sink* sink, const rp_job* j, mt_err* e) {
  int k = j->threads < 1 ? 1 : j->threads > RP_MAX_THREADS ? RP_MAX_THREADS : j->threads;
  if (k > j->n) k = j->n > 0 ? (int)j->n : 1;
  pool p = {.sink = sink, .j = j};
  pthread_mutex_init(&p.mu, NULL);
  rr_ctx extra[RP_MAX_THREADS - 1];
  lane lanes[RP_MAX_THREADS];
  pthread_t th[RP_MAX_THREADS];
  int opened = 0, started = 0, rc = MT_OK;
  for (; opened < k - 1; opened++)
    if ((rc = rr_open(&extra[opened], j->take, j->compare, &c->o, c->W, c->H, e))) break;
  if (!rc) {
    lanes[0] = (lane){&p, c};
    for (int i = 1; i < k; i++) {
      lanes[i] = (lane){&p, &extra[i - 1]};
      if (pthread_create(&th[i], NULL, lane_main, &lanes[i])) break;   /* fewer threads: the rest is drawn by those started */
      started++;
    }
    run_lane(&lanes[0], 1);
    for (int i = 1; i <= started; i++) pthread_join(th[i], NULL);
    if (p.failed) rc = (*e = p.err).code ? p.err.code : MT_EINTERNAL;
  } else {
    fo_fail(sink, e);
  }
  for (int i = 0; i < opened; i++) rr_close(&extra[i]);
  pthread_mutex_destroy(&p.mu);
  return rc;
}
