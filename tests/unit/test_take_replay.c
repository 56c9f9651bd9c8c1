/* test_take_replay.c — the reader serves what the file stores and never builds a simulator; the
 * replay layer (takes/take_replay.h) adds the rig-step check and the rebuilt streams on top. */
#include <stdio.h>
#include <string.h>

#include "sim/rig.h"
#include "takes/recorder.h"
#include "takes/takefile.h"
#include "tests/unit/test.h"

/* A take of 1200 steps whose rig is the sport1000 but whose schema is not its machine (3 state
 * values, 2 bodies), stored at time step h: the poses (format 3 on) and channels (format 4 on)
 * are not in the file, and rebuilding them fails. */
static void odd_take(const char* path, double h) {
  const char* in[] = {"a"};
  const char* iu[] = {"1"};
  const char* bn[] = {"root", "child"};
  const char* bp[] = {"", "root"};
  const char* cn[] = {"time"};
  const char* cu[] = {"s"};
  take_schema s = {h, 3, 1, in, iu, 2, bn, bp, 1, cn, cu, 0, NULL};
  take_source src[16];
  int nsrc;
  struct rig* rg = mt_test_sport_sources(src, 16, &nsrc);
  mt_err e = {0};
  take_writer* w = take_writer_open(path, &s, src, nsrc, "[]", &e);
  rig_free(rg);
  CHECK_MSG(w, "%s", e.msg);
  for (int i = 0; i < 1200; i++) {
    double st[3] = {i, 2.0 * i, 3}, ip[1] = {0.5}, cx[REC_NCTX] = {i * h};
    CHECK_MSG(take_writer_step(w, st, ip, cx, NULL, &e) == MT_OK, "%s", e.msg);
  }
  CHECK(take_writer_close(w, 1, "done", &e) == MT_OK);
}

/* take_read_stored refuses the streams the file does not hold (MT_EINTERNAL) without building
 * anything (nothing attached to the reader); take_read rebuilds them, keeping its machines with
 * the reader, and says so when the take's machine does not fit. */
MT_TEST(take_reader_serves_stored_streams_and_builds_no_machine) {
  char path[512];
  snprintf(path, sizeof path, "%s/layers.take", mt_test_tmpdir());
  odd_take(path, 0.001);
  if (mt_test_failed) return;
  mt_err e = {0};
  take_reader* r = take_reader_open(path, &e);
  CHECK_MSG(r, "%s", e.msg);
  CHECK(!take_stored(r, TAKE_POSE) && !take_stored(r, TAKE_CHAN) && take_stored(r, TAKE_STATE));
  double row[16];
  int rc_pose = take_read_stored(r, TAKE_POSE, 0, 1, row, &e);
  int pose_msg = strstr(e.msg, "stream 'pose'") && strstr(e.msg, "is not stored") != NULL;
  e = (mt_err){0};
  int rc_chan = take_read_stored(r, TAKE_CHAN, 5, 1, row, &e);
  int rc_state = take_read_stored(r, TAKE_STATE, 1100, 1, row, &e);
  void* built = take_attached(r);
  e = (mt_err){0};
  int rc_rebuilt = take_read(r, TAKE_POSE, 0, 1, row, &e);
  int rebuilt_msg = strstr(e.msg, "layers.take: stream 'pose': rebuilding the machine from the embedded sources: ") != NULL;
  void* kept = take_attached(r);
  take_close(r);
  CHECK(rc_pose == MT_EINTERNAL && pose_msg);
  CHECK(rc_chan == MT_EINTERNAL);
  CHECK(rc_state == MT_OK && row[0] == 1100 && row[1] == 2200);
  CHECK(built == NULL);   /* the reader built nothing */
  CHECK(rc_rebuilt == MT_EINPUT && rebuilt_msg);
  CHECK(kept != NULL);    /* take_read keeps its (partly built) machines with the reader */
}

/* The rig-step check needs the machine, so it is take_open's (the replay layer's), run for every
 * command; the reader alone opens such a take, never loading its rig. */
MT_TEST(take_open_refuses_a_step_not_the_rigs_the_reader_does_not_load_it) {
  char path[512];
  snprintf(path, sizeof path, "%s/step2.take", mt_test_tmpdir());
  odd_take(path, 0.002);   /* the sport1000 steps at 0.001 s */
  if (mt_test_failed) return;
  mt_err e = {0};
  take_reader* r = take_reader_open(path, &e);
  CHECK_MSG(r, "%s", e.msg);
  CHECK(take_schema_of(r)->timestep == 0.002);
  take_close(r);
  e = (mt_err){0};
  r = take_open(path, &e);
  CHECK(r == NULL);
  CHECK_MSG(e.code == MT_EINPUT && strstr(e.msg, "step2.take: meta timestep '0.002' is not the take's rig's step"), "%s", e.msg);
}

static int freed;
static void count_free(void* p) { freed += p != NULL; }

/* The attach slot: the reader frees what is attached at take_close, and the old one when another
 * is attached. */
MT_TEST(take_attach_is_freed_on_replace_and_at_close) {
  char path[512];
  snprintf(path, sizeof path, "%s/attach.take", mt_test_tmpdir());
  odd_take(path, 0.001);
  if (mt_test_failed) return;
  mt_err e = {0};
  take_reader* r = take_reader_open(path, &e);
  CHECK_MSG(r, "%s", e.msg);
  static int a, b;
  freed = 0;
  take_attach(r, &a, count_free);
  take_attach(r, &b, count_free);
  int after_replace = freed;
  void* now = take_attached(r);
  take_close(r);
  CHECK(after_replace == 1 && now == &b);
  CHECK(freed == 2);
}
