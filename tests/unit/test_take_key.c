/* test_take_key.c — take_content_key (takes/takefile.h): the web server's cache key for a take
 * (issue 29 finding 7). Equal for a byte-for-byte copy, different after any stored checksum or
 * record changes in place. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "sim/rig.h"
#include "takes/recorder.h"
#include "takes/takefile.h"
#include "tests/unit/test.h"

/* A two-chunk take (1500 steps) with one event, carrying the sport1000 (take_open rebuilds it). */
static int key_take(const char* path) {
  const char* in[] = {"a"};
  const char* iu[] = {"1"};
  const char* bn[] = {"root"};
  const char* bp[] = {""};
  const char* cn[] = {"time"};
  const char* cu[] = {"s"};
  take_schema s = {0.001, 3, 1, in, iu, 1, bn, bp, 1, cn, cu, 1, NULL};
  take_source src[16];
  int nsrc;
  struct rig* rg = mt_test_sport_sources(src, 16, &nsrc);
  if (!rg) return -1;
  mt_err e = {0};
  take_writer* w = take_writer_open(path, &s, src, nsrc, "[]", &e);
  rig_free(rg);
  if (!w) return -1;
  for (int i = 0; i < 1500; i++) {
    double st[3] = {i, 2.0 * i, 3}, ip[1] = {0.5}, cx[REC_NCTX] = {i * 0.001}, ch[1] = {i * 0.001};
    if (take_writer_step(w, st, ip, cx, ch, &e)) return -1;
  }
  take_writer_event(w, 10, "mark", "{}", &e);
  return take_writer_close(w, 1, "done", &e);
}

static int key_of(const char* path, char hex[65]) {
  mt_err e = {0};
  take_reader* r = take_open(path, &e);
  if (!r) return -1;
  int rc = take_content_key(r, hex, &e);
  take_close(r);
  return rc;
}

static int key_sql(const char* path, const char* q) {
  sqlite3* db;
  int rc = sqlite3_open(path, &db) == SQLITE_OK && sqlite3_exec(db, q, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
  sqlite3_close(db);
  return rc;
}

static int copy_file(const char* from, const char* to) {
  FILE* a = fopen(from, "rb");
  FILE* b = fopen(to, "wb");
  char buf[65536];
  size_t n;
  while (a && b && (n = fread(buf, 1, sizeof buf, a)) > 0) fwrite(buf, 1, n, b);
  int ok = a && b;
  if (a) fclose(a);
  if (b && fclose(b)) ok = 0;
  return ok ? 0 : -1;
}

MT_TEST(take_content_key_follows_checksums_and_records) {
  char p[512], q[512], k0[65], k1[65];
  snprintf(p, sizeof p, "%s/key.take", mt_test_tmpdir());
  snprintf(q, sizeof q, "%s/key_copy.take", mt_test_tmpdir());
  CHECK(key_take(p) == MT_OK);
  CHECK(copy_file(p, q) == 0);
  CHECK(key_of(p, k0) == MT_OK && key_of(q, k1) == MT_OK);
  CHECK(strlen(k0) == 64 && strspn(k0, "0123456789abcdef") == 64);
  CHECK_MSG(strcmp(k0, k1) == 0, "a copy: %s != %s", k0, k1);   /* a copy keeps the key, wherever it is */
  /* a chunk rewritten in place with another CRC (what damage or a re-encode leaves) */
  CHECK(key_sql(q, "UPDATE chunks SET crc32 = (crc32 | 1) - (crc32 & 1) WHERE stream = 'state' AND chunk = 1") == 0);
  CHECK(key_of(q, k1) == MT_OK);
  CHECK_MSG(strcmp(k0, k1) != 0, "a changed chunk CRC kept the key %s", k0);
  /* a metadata row added in place */
  CHECK(copy_file(p, q) == 0);
  CHECK(key_sql(q, "INSERT INTO meta VALUES ('note', 'added in place')") == 0);
  CHECK(key_of(q, k1) == MT_OK);
  CHECK_MSG(strcmp(k0, k1) != 0, "an added meta row kept the key %s", k0);
  /* an event's data changed in place */
  CHECK(copy_file(p, q) == 0);
  CHECK(key_sql(q, "UPDATE events SET json = '{\"x\":1}'") == 0);
  CHECK(key_of(q, k1) == MT_OK);
  CHECK_MSG(strcmp(k0, k1) != 0, "a changed event kept the key %s", k0);
}
