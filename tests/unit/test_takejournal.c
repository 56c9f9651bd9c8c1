/* test_takejournal.c — take_journal_judge (takes/takejournal.h) on hand-made journals beside a
 * hand-made take: which journals SQLite may roll back, which are refused. */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "takes/takejournal.h"
#include "tests/unit/test.h"

enum { PG = 8192, SECTOR = 512 };

static void put32(unsigned char* p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16), p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* A database of 8 KiB pages with application_id 0x1234abcd, and its page count. */
static long make_take(const char* path) {
  remove(path);
  sqlite3* db = NULL;
  if (sqlite3_open(path, &db) != SQLITE_OK) return -1;
  int rc = sqlite3_exec(db, "PRAGMA page_size=8192; PRAGMA application_id=305441741; CREATE TABLE t(x);"
                            "INSERT INTO t VALUES(zeroblob(20000));", NULL, NULL, NULL);
  sqlite3_close(db);
  FILE* f = fopen(path, "rb");
  if (rc != SQLITE_OK || !f) return -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f) / PG;
  fclose(f);
  return n;
}

/* A journal: header (nonce 7, original page count norig, page size page), then, when pgno > 0,
 * one record of that page whose bytes 68..71 hold appid, its checksum right or off by one. */
static int make_journal(const char* path, uint32_t norig, uint32_t page, uint32_t pgno, uint32_t appid, int bad_sum) {
  static unsigned char buf[SECTOR + 8 + PG];
  memset(buf, 0, sizeof buf);
  static const unsigned char magic[8] = {0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7};
  memcpy(buf, magic, 8);
  put32(buf + 8, 0xffffffffu);
  put32(buf + 12, 7);
  put32(buf + 16, norig);
  put32(buf + 20, SECTOR);
  put32(buf + 24, page);
  size_t len = SECTOR;
  if (pgno) {
    unsigned char* r = buf + SECTOR;
    put32(r, pgno);
    put32(r + 4 + 68, appid);
    r[4 + 200] = 9;   /* a byte the checksum samples (every 200th from the end) */
    uint32_t sum = 7;
    for (int i = PG - 200; i > 0; i -= 200) sum += r[4 + i];
    put32(r + 4 + PG, sum + (bad_sum ? 1 : 0));
    len += 8 + PG;
  }
  FILE* f = fopen(path, "wb");
  if (!f) return -1;
  size_t w = fwrite(buf, 1, len, f);
  return fclose(f) == 0 && w == len ? 0 : -1;
}

MT_TEST(takejournal_owns_only_the_takes_own_journal) {
  char take[512], j[600], why[200];
  snprintf(take, sizeof take, "%s/tj.take", mt_test_tmpdir());
  snprintf(j, sizeof j, "%s-journal", take);
  long np = make_take(take);
  CHECK(np >= 2);
  remove(j);
  CHECK(take_journal_judge(take, j, why, sizeof why) == TJ_NONE);
  /* page 1 first, the take's id, a right checksum: the take's own */
  CHECK(make_journal(j, (uint32_t)np, PG, 1, 0x1234abcd, 0) == 0);
  CHECK(take_journal_judge(take, j, why, sizeof why) == TJ_OWN);
  /* another take's id: foreign, and said so */
  CHECK(make_journal(j, (uint32_t)np, PG, 1, 0x1234abce, 0) == 0);
  CHECK(take_journal_judge(take, j, why, sizeof why) == TJ_FOREIGN);
  CHECK(strstr(why, "application id 1234abce, the take's is 1234abcd") != NULL);
  /* first record not page 1: cannot be proven */
  CHECK(make_journal(j, (uint32_t)np, PG, 2, 0x1234abcd, 0) == 0);
  CHECK(take_journal_judge(take, j, why, sizeof why) == TJ_FOREIGN);
  /* another page size */
  CHECK(make_journal(j, (uint32_t)np, 4096, 1, 0x1234abcd, 0) == 0);
  CHECK(take_journal_judge(take, j, why, sizeof why) == TJ_FOREIGN);
  /* no valid record (a bad checksum ends SQLite's playback): harmless only when the original
   * page count is the take's, since SQLite still sets the file's length to it */
  CHECK(make_journal(j, (uint32_t)np, PG, 1, 0x1234abce, 1) == 0);
  CHECK(take_journal_judge(take, j, why, sizeof why) == TJ_OWN);
  CHECK(make_journal(j, (uint32_t)np, PG, 0, 0, 0) == 0);
  CHECK(take_journal_judge(take, j, why, sizeof why) == TJ_OWN);
  CHECK(make_journal(j, (uint32_t)np - 1, PG, 0, 0, 0) == 0);
  CHECK(take_journal_judge(take, j, why, sizeof why) == TJ_FOREIGN);
  CHECK(strstr(why, "would cut the take") != NULL);
  /* an empty journal is not hot */
  FILE* f = fopen(j, "wb");
  CHECK(f != NULL);
  fclose(f);
  CHECK(take_journal_judge(take, j, why, sizeof why) == TJ_INERT);
  remove(j);
}
