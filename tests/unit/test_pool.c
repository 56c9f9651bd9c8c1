/* test_pool.c — several threads at once: vehicles stepped on two threads as on one (MuJoCo's
 * callbacks are process-wide; sim/vehicle.c dispatches them to the calling thread's vehicle), and
 * the output sink's ring (render/frames.h): frames submitted out of order reach the worker in
 * order, and a failed sink wakes a thread waiting for a slot (render/pool.h's drawing threads).
 * The bytes of a render with one and with several drawing threads: tests/cli/render.sh. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/frames.h"
#include "sim/trim.h"
#include "sim/vehicle.h"
#include "sim/vehicle_mj.h"
#include "tests/unit/test.h"

#define NSTEP 1500

/* sport1000 trimmed upright at 20 m/s on the flat, nobody riding: it steps through every force
 * stage of the control callback (tyres, drive, aero, ...), and starts to fall over. */
static vehicle* trimmed(const rig* r, mt_err* e) {
  vehicle* v = veh_new(r, (road){0}, 0, e);
  if (!v) return NULL;
  trim_spec s = {0};
  s.speed = 20;
  s.fix_roll = 1;
  s.gear = -1;
  trim_result tr;
  if (trim_solve(v, &s, &tr, e)) {
    veh_free(v);
    return NULL;
  }
  return v;
}

typedef struct lane_run { vehicle* v; int rc; } lane_run;

static void* step_lane(void* arg) {
  lane_run* l = arg;
  mt_err e = {0};
  for (int i = 0; i < NSTEP && !l->rc; i++) l->rc = veh_step(l->v, &e);
  return NULL;
}

MT_TEST(pool_vehicles_step_on_two_threads_as_on_one) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* ref = trimmed(r, &e);
  CHECK_MSG(ref, "%s", e.msg);
  lane_run one = {ref, 0};
  step_lane(&one);
  CHECK_MSG(!one.rc, "the reference run failed");
  /* the same two runs side by side, three times: with one process-wide "vehicle being
   * evaluated" either thread's callback would find the other's vehicle and skip its forces */
  int same = 1;
  for (int trial = 0; trial < 3 && same; trial++) {
    lane_run l[2] = {{trimmed(r, &e), 0}, {trimmed(r, &e), 0}};
    CHECK(l[0].v && l[1].v);
    pthread_t th;
    CHECK(!pthread_create(&th, NULL, step_lane, &l[1]));
    step_lane(&l[0]);
    pthread_join(th, NULL);
    for (int k = 0; k < 2; k++) {
      CHECK_MSG(!l[k].rc, "trial %d: thread %d's run failed", trial, k);
      same &= !memcmp(l[k].v->d->qpos, ref->d->qpos, sizeof(double) * ref->m->nq) &&
              !memcmp(l[k].v->d->qvel, ref->d->qvel, sizeof(double) * ref->m->nv);
    }
    veh_free(l[0].v);
    veh_free(l[1].v);
    CHECK_MSG(same, "trial %d: a run on two threads ended in another state than on one", trial);
  }
  veh_free(ref);
  rig_free(r);
}

static unsigned char* slurp(const char* path, size_t* n) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  unsigned char* b = malloc(1 << 16);
  *n = fread(b, 1, 1 << 16, f);
  fclose(f);
  return b;
}

/* An 8 × 4 BGRA frame in frame i's own colour (blue 40·i, opaque). */
static void paint_frame(unsigned char* b, long i) {
  for (int p = 0; p < 8 * 4; p++) b[4 * p] = (unsigned char)(40 * i), b[4 * p + 1] = 0, b[4 * p + 2] = 0, b[4 * p + 3] = 255;
}

/* The sink's ring: frames 0..5 of a PNG sequence handed over 1, 0, 3, 2, 5, 4 land under their
 * own numbers, each file its own frame's colour. */
MT_TEST(pool_sink_takes_frames_in_order_when_submitted_out_of_order) {
  char dir[4200], pat[4300], name[4300];   /* the runner's scratch folder (tests/unit/test.h) */
  snprintf(dir, sizeof dir, "%s/pool_seq", mt_test_tmpdir());
  CHECK(!mkdir(dir, 0700));
  snprintf(pat, sizeof pat, "%s/%%02d.png", dir);
  mt_err e = {0};
  fo_sink* s = fo_open_ring(pat, 8, 4, 30, 4, &e);
  CHECK_MSG(s, "%s", e.msg);
  static const int order[6] = {1, 0, 3, 2, 5, 4};
  for (int k = 0; k < 6; k++) {
    long i = order[k];
    unsigned char* b = fo_buffer_at(s, i, &e);
    CHECK(b);
    paint_frame(b, i);
    CHECK(!fo_submit_at(s, i, &e));
    if (k % 2 == 0) {   /* frame i handed over before frame i − 1 is drawn: time for the worker to take the wrong one */
      struct timespec pause = {0, 20 * 1000 * 1000};
      nanosleep(&pause, NULL);
    }
  }
  CHECK(!fo_close(s, 1, NULL, &e));
  for (int i = 0; i < 6; i++) {   /* each file against frame i's buffer written alone */
    unsigned char one[8 * 4 * 4];
    paint_frame(one, i);
    char alone[4300];
    snprintf(alone, sizeof alone, "%s/alone.png", dir);
    CHECK(!fo_write_png(alone, one, 8, 4, 32, 1, &e));
    snprintf(name, sizeof name, "%s/%02d.png", dir, i);
    size_t na = 0, nb = 0;
    unsigned char* a = slurp(name, &na);
    unsigned char* b = slurp(alone, &nb);
    int same = a && b && na == nb && !memcmp(a, b, na);
    free(a);
    free(b);
    unlink(alone);
    unlink(name);
    CHECK_MSG(same, "frame %d's file does not hold frame %d", i, i);
  }
  rmdir(dir);
}

typedef struct waiter { fo_sink* s; long i; unsigned char* got; int done; } waiter;

static void* wait_slot(void* arg) {
  waiter* w = arg;
  mt_err e = {0};
  w->got = fo_buffer_at(w->s, w->i, &e);
  w->done = 1;
  return NULL;
}

/* A thread waiting for frame 2's slot in a ring of two, frame 0 never handed over: fo_fail
 * wakes it, its call fails, and fo_close(ok = 0) leaves no file. */
MT_TEST(pool_failed_sink_wakes_a_waiting_thread) {
  char dir[4200], path[4300];
  snprintf(dir, sizeof dir, "%s/pool_fail", mt_test_tmpdir());
  CHECK(!mkdir(dir, 0700));
  snprintf(path, sizeof path, "%s/a.mp4", dir);
  mt_err e = {0};
  fo_sink* s = fo_open_ring(path, 64, 64, 30, 2, &e);
  CHECK_MSG(s, "%s", e.msg);
  waiter w = {s, 2, NULL, 0};
  pthread_t th;
  CHECK(!pthread_create(&th, NULL, wait_slot, &w));
  struct timespec pause = {0, 50 * 1000 * 1000};
  nanosleep(&pause, NULL);
  CHECK_MSG(!w.done, "frame 2's slot was given while frames 0 and 1 were not done");
  mt_err why = {0};
  mt_fail(&why, MT_EINPUT, "render: interrupted at frame 0 of 3; a.mp4 not written");
  fo_fail(s, &why);
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 10;
  int joined = !pthread_timedjoin_np(th, NULL, &until);
  CHECK_MSG(joined, "the waiting thread was still waiting 10 s after fo_fail");
  CHECK(w.done && !w.got);
  fo_close(s, 0, NULL, &e);
  CHECK_MSG(access(path, F_OK) != 0, "%s was left", path);
  rmdir(dir);
}
