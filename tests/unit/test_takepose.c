/* test_takepose.c — take format 3 stores no pose stream; readers rebuild the poses from the state
 * stream (takes/takepose.h), and format-2 takes, which stored them, still read (issue 18).
 *
 * tests/data/stoppie_format2.take is 0.25 s of takes/stoppie.lua recorded (and cut) by mototake
 * 0.1.0 git 12bbe228cd93, format 2: its pose chunks hold what that build's recording loop sampled
 * (MuJoCo kinematics inside mj_step1 plus veh_link_poses). The poses rebuilt from its stored states
 * must match them: bit for bit with that build, and within 1e-9 (m, quaternion units) for any
 * later build whose kinematics round differently (docs/takefile.md). */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "takes/recorder.h"
#include "takes/takefile.h"
#include "takes/takepose.h"
#include "tests/unit/test.h"

static long sql_long(const char* path, const char* q) {
  sqlite3* db;
  long v = -1;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
    sqlite3_stmt* st;
    if (sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return v;
}

static void sql_exec(const char* path, const char* q) {
  sqlite3* db;
  CHECK(sqlite3_open(path, &db) == SQLITE_OK);
  char* m = NULL;
  CHECK_MSG(sqlite3_exec(db, q, NULL, NULL, &m) == SQLITE_OK, "%s", m ? m : "");
  sqlite3_free(m);
  sqlite3_close(db);
}

static void fixture(char* path, size_t n) { snprintf(path, n, "%s/tests/data/stoppie_format2.take", mt_test_root()); }

/* poses of every step of r: stored (format 2) or rebuilt (format 3) */
static double* all_poses(take_reader* r, mt_err* e) {
  long n = take_nsteps(r);
  double* p = malloc(sizeof(double) * take_ncols(r, TAKE_POSE) * n);
  if (take_read(r, TAKE_POSE, 0, n, p, e)) {
    free(p);
    return NULL;
  }
  return p;
}

MT_TEST(takepose_rebuilt_poses_match_the_poses_a_format2_take_stored) {
  char path[4096];
  fixture(path, sizeof path);
  mt_err e = {0};
  take_reader* r = take_open(path, &e);
  CHECK_MSG(r, "%s", e.msg);
  if (!r) return;
  CHECK(strcmp(take_meta(r, "format_version"), "2") == 0);
  long n = take_nsteps(r);
  int nx = take_ncols(r, TAKE_STATE), np = take_ncols(r, TAKE_POSE);
  CHECK(n == 250 && np == 7 * 13);
  double* stored = all_poses(r, &e);
  CHECK_MSG(stored, "%s", e.msg);
  takepose* tp = takepose_new(r, &e);
  CHECK_MSG(tp, "%s", e.msg);
  if (!stored || !tp) return;
  double* x = malloc(sizeof(double) * nx);
  double* p = malloc(sizeof(double) * np);
  double worst = 0;
  long exact = 0;
  for (long i = 0; i < n; i++) {
    CHECK(take_read(r, TAKE_STATE, i, 1, x, &e) == MT_OK);
    takepose_fill(tp, x, p);
    exact += memcmp(p, stored + i * np, sizeof(double) * np) == 0;
    for (int j = 0; j < np; j++) worst = fmax(worst, fabs(p[j] - stored[i * np + j]));
  }
  printf("      %ld of %ld steps bit-exact, largest difference %.3g\n", exact, n, worst);
  CHECK_MSG(worst <= 1e-9, "rebuilt poses differ from the stored ones by %g", worst);
  /* the poses move: a rebuild that ignored the state would not match */
  CHECK(fabs(stored[(n - 1) * np] - stored[0]) > 1.0);
  free(x);
  free(p);
  free(stored);
  takepose_free(tp);
  take_close(r);
}

MT_TEST(takepose_format3_stores_no_poses_and_reads_them_back) {
  char src[4096], path[4096];
  fixture(src, sizeof src);
  snprintf(path, sizeof path, "%s/f3.take", mt_test_tmpdir());
  mt_err e = {0};
  take_reader* r2 = take_open(src, &e);
  CHECK_MSG(r2, "%s", e.msg);
  if (!r2) return;
  long n = take_nsteps(r2);
  int np = take_ncols(r2, TAKE_POSE), nx = take_ncols(r2, TAKE_STATE);
  CHECK_MSG(take_write_cut(r2, 0, n, path, "test", &e) == MT_OK, "%s", e.msg);   /* written in the current format */
  CHECK(sql_long(path, "SELECT count(*) FROM chunks WHERE stream = 'pose'") == 0);
  CHECK(sql_long(path, "SELECT count(*) FROM chunks WHERE stream = 'state'") == 1);
  CHECK(sql_long(path, "SELECT count(*) FROM columns WHERE stream = 'pose'") == np);   /* the bodies stay named */
  CHECK(sql_long(path, "PRAGMA user_version") == TAKE_FORMAT_VERSION);
  /* format 4: the channels' context is stored (taken from the format-2 take's channels), the
   * channels themselves are not */
  CHECK(sql_long(path, "SELECT count(*) FROM chunks WHERE stream = 'chan'") == 0);
  CHECK(sql_long(path, "SELECT count(*) FROM chunks WHERE stream = 'ctx'") == 1);
  {
    int nc = take_ncols(r2, TAKE_CHAN);
    double* ch = malloc(sizeof(double) * nc * n);
    double* cx = malloc(sizeof(double) * REC_NCTX * n);
    CHECK(take_read(r2, TAKE_CHAN, 0, n, ch, &e) == MT_OK);
    take_reader* r4 = take_open(path, &e);
    CHECK_MSG(r4 && take_read(r4, TAKE_CTX, 0, n, cx, &e) == MT_OK, "%s", e.msg);
    long same = 0;
    for (long i = 0; i < n; i++)
      for (int k = 0; k < REC_NCTX; k++) same += memcmp(&cx[i * REC_NCTX + k], &ch[i * nc + rec_ctx_channel(k)], 8) == 0;
    CHECK_MSG(same == n * REC_NCTX, "%ld of %ld context values as the format-2 take's channels", same, n * REC_NCTX);
    take_close(r4);
    free(ch);
    free(cx);
  }
  take_reader* r3 = take_open(path, &e);
  CHECK_MSG(r3, "%s", e.msg);
  if (!r3) return;
  CHECK(take_nsteps(r3) == n && take_schema_of(r3)->nbody == 13);
  CHECK_MSG(take_check_all(r3, &e) == MT_OK, "%s", e.msg);
  double *a = all_poses(r2, &e), *b = all_poses(r3, &e);
  CHECK_MSG(a && b, "%s", e.msg);
  double* xa = malloc(sizeof(double) * nx * n);
  double* xb = malloc(sizeof(double) * nx * n);
  CHECK(take_read(r2, TAKE_STATE, 0, n, xa, &e) == MT_OK && take_read(r3, TAKE_STATE, 0, n, xb, &e) == MT_OK);
  CHECK(memcmp(xa, xb, sizeof(double) * nx * n) == 0);   /* the state stream, bit for bit */
  double worst = 0;
  for (long k = 0; a && b && k < n * np; k++) worst = fmax(worst, fabs(a[k] - b[k]));
  CHECK_MSG(worst <= 1e-9, "%g", worst);
  /* reading in pieces gives what reading at once gives */
  double one[7 * 13];
  CHECK(take_read(r3, TAKE_POSE, n - 1, 1, one, &e) == MT_OK);
  CHECK(b && memcmp(one, b + (n - 1) * np, sizeof one) == 0);
  free(a);
  free(b);
  free(xa);
  free(xb);
  take_close(r2);
  take_close(r3);

  /* hostile: a pose chunk in a take of format 3 or later is refused at open, naming the stream */
  sql_exec(path, "INSERT INTO chunks SELECT 'pose', chunk, step0, nsteps, ncols, codec, raw_bytes, crc32, data FROM chunks "
                 "WHERE stream = 'state'");
  e = (mt_err){0};
  CHECK(take_open(path, &e) == NULL);
  char want[128];
  snprintf(want, sizeof want, "f3.take: stream 'pose': a take of format %d stores no pose chunks", TAKE_FORMAT_VERSION);
  CHECK_MSG(strstr(e.msg, want), "%s", e.msg);
  sql_exec(path, "DELETE FROM chunks WHERE stream = 'pose'");
  /* a rig source that is no machine: no reader can replay the take, so take_open refuses it
   * with one line (issue 29: what one command refuses, every command refuses) */
  sql_exec(path, "UPDATE sources SET text = 'error(\"broken\")' WHERE kind = 'rig'");
  e = (mt_err){0};
  CHECK(take_open(path, &e) == NULL);
  CHECK_MSG(strstr(e.msg, "f3.take: sources: the embedded rig does not load: ") && strstr(e.msg, "broken") && !strchr(e.msg, '\n'),
            "%s", e.msg);
}
