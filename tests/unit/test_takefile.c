/* test_takefile.c — the take file round-trips every double bit for bit, including the odd ones. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "takes/recorder.h"
#include "takes/takefile.h"
#include "tests/unit/test.h"

static double from_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}

MT_TEST(takefile_round_trips_bit_for_bit) {
  char path[512];
  snprintf(path, sizeof path, "%s/rt.take", mt_test_tmpdir());
  const char* in[] = {"a", "b"};
  const char* iu[] = {"1", "1"};
  const char* bn[] = {"root", "child"};
  const char* bp[] = {"", "root"};
  const char* cn[] = {"time", "v"};
  const char* cu[] = {"s", "m/s"};
  take_schema s = {0.001, 5, 2, in, iu, 2, bn, bp, 2, cn, cu, 1};
  take_source src[] = {{"rig", "r.lua", "return {}"}, {"track", "t.lua", "return {}"}};
  mt_err e = {0};
  take_writer* w = take_writer_open(path, &s, src, 2, "[\"k=1\"]", &e);
  CHECK_MSG(w, "%s", e.msg);
  const double odd[] = {0.0, -0.0, INFINITY, -INFINITY, from_bits(0x7ff8000000000001ull), from_bits(0x7ff4000000000abcull),
                        from_bits(1), -from_bits(12345), 1e308, -1e-308, M_PI};
  long N = 2500;   /* three chunks, the last partial */
  for (long i = 0; i < N; i++) {
    double st[5], ip[2], cx[REC_NCTX], ch[2];
    for (int k = 0; k < 5; k++) st[k] = (i + k) % 7 == 0 ? odd[(i + k) % 11] : sin(0.01 * i + k) * 1e3;
    ip[0] = odd[i % 11];
    ip[1] = (double)i;
    for (int k = 0; k < REC_NCTX; k++) cx[k] = cos(0.001 * i * (k + 1));
    ch[0] = i * 0.001;
    ch[1] = 20 + sin(0.01 * i);
    CHECK(take_writer_step(w, st, ip, cx, ch, &e) == MT_OK);
  }
  take_writer_event(w, 1234, "mark", "{\"label\":\"x\"}", &e);
  CHECK(take_writer_close(w, 1, "done", &e) == MT_OK);
  take_reader* r = take_open(path, &e);
  CHECK_MSG(r, "%s", e.msg);
  CHECK(take_nsteps(r) == N);
  const char* reason;
  CHECK(take_complete(r, &reason) && strcmp(reason, "done") == 0);
  CHECK(take_nevents(r) == 1 && take_event_at(r, 0)->step == 1234);
  CHECK(strcmp(take_schema_of(r)->body_parents[1], "root") == 0);
  for (long i = 0; i < N; i += 7) {
    double st[5], ip[2], cx[REC_NCTX], ch[2];
    CHECK(take_read(r, TAKE_STATE, i, 1, st, &e) == MT_OK);
    CHECK(take_read(r, TAKE_CTX, i, 1, cx, &e) == MT_OK);
    for (int k = 0; k < REC_NCTX; k++) CHECK(cx[k] == (double)(float)cos(0.001 * i * (k + 1)));   /* the context: float32 */
    CHECK(take_read(r, TAKE_INPUT, i, 1, ip, &e) == MT_OK);
    CHECK(take_read(r, TAKE_CHAN, i, 1, ch, &e) == MT_OK);
    for (int k = 0; k < 5; k++) {
      double want = (i + k) % 7 == 0 ? odd[(i + k) % 11] : sin(0.01 * i + k) * 1e3;
      CHECK_MSG(memcmp(&st[k], &want, 8) == 0, "state %ld,%d: %a != %a", i, k, st[k], want);
    }
    CHECK(memcmp(&ip[0], &odd[i % 11], 8) == 0);
    CHECK(ch[1] == (double)(float)(20 + sin(0.01 * i)));   /* channels: float32 precision, exactly */
  }
  CHECK(take_read(r, TAKE_STATE, N - 1, 2, NULL, &e) == MT_EINPUT);   /* beyond the end: an error */
  /* format 3 stores no poses: a reader rebuilds them from the rig in the take, and this one's
   * rig ("return {}") is no machine — one clear error naming the take and the stream */
  double po[14];
  e = (mt_err){0};
  CHECK(take_read(r, TAKE_POSE, 0, 1, po, &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "rt.take: stream 'pose': rebuilding the machine from the embedded sources: "), "%s", e.msg);
  take_close(r);
}

/* Issue 11: a take is untrusted. A pose stream whose `columns` rows are not seven per body (13
 * for two bodies) made take_read write 13 values per step into a buffer sized for 7 (export);
 * now take_open refuses it, naming the stream. Run under ASan by make test. */
#include <sqlite3.h>

static void tiny_take(const char* path) {
  const char* in[] = {"a"};
  const char* iu[] = {"1"};
  const char* bn[] = {"root", "child"};
  const char* bp[] = {"", "root"};
  const char* cn[] = {"time"};
  const char* cu[] = {"s"};
  take_schema s = {0.001, 3, 1, in, iu, 2, bn, bp, 1, cn, cu, 1};
  take_source src[] = {{"rig", "r.lua", "return {}"}, {"track", "t.lua", "return {}"}};
  mt_err e = {0};
  take_writer* w = take_writer_open(path, &s, src, 2, "[]", &e);
  CHECK_MSG(w, "%s", e.msg);
  if (!w) return;
  for (int i = 0; i < 1500; i++) {
    double st[3] = {i, 2.0 * i, 3}, ip[1] = {0.5}, cx[REC_NCTX] = {i * 0.001}, ch[1] = {i * 0.001};
    take_writer_step(w, st, ip, cx, ch, &e);
  }
  CHECK(take_writer_close(w, 1, "done", &e) == MT_OK);
}

static void sql(const char* path, const char* q) {
  sqlite3* db;
  CHECK(sqlite3_open(path, &db) == SQLITE_OK);
  char* m = NULL;
  CHECK_MSG(sqlite3_exec(db, q, NULL, NULL, &m) == SQLITE_OK, "%s", m ? m : "");
  sqlite3_free(m);
  sqlite3_close(db);
}

MT_TEST(takefile_refuses_counts_that_disagree) {
  char path[512];
  snprintf(path, sizeof path, "%s/hostile.take", mt_test_tmpdir());
  mt_err e = {0};
  tiny_take(path);
  take_reader* r = take_open(path, &e);
  CHECK_MSG(r && take_nsteps(r) == 1500 && take_nchunks(r) == 2, "%s", e.msg);
  if (r) CHECK_MSG(take_check_all(r, &e) == MT_OK, "%s", e.msg);
  take_close(r);
  /* 13 pose columns for two bodies */
  sql(path, "DELETE FROM columns WHERE stream = 'pose' AND idx = 13");
  e = (mt_err){0};
  r = take_open(path, &e);
  CHECK(r == NULL);
  CHECK_MSG(strstr(e.msg, "stream 'pose': 13 columns, not seven per body"), "%s", e.msg);
  if (r) {   /* the old reader opened it: the export's read overflowed */
    double* pose = malloc(sizeof(double) * 7 * take_schema_of(r)->nbody * 1500);
    take_read(r, TAKE_POSE, 0, 1500, pose, &e);
    free(pose);
    take_close(r);
  }
  /* a chunk header that disagrees with the columns */
  /* a fresh name each time: a file this process has read is refused as an output */
  snprintf(path, sizeof path, "%s/hostile2.take", mt_test_tmpdir());
  tiny_take(path);
  sql(path, "UPDATE chunks SET ncols = 2 WHERE stream = 'input' AND chunk = 1");
  e = (mt_err){0};
  r = take_open(path, &e);
  CHECK(r == NULL);
  CHECK_MSG(strstr(e.msg, "stream 'input': chunk 1 has 2 columns, the schema says 1"), "%s", e.msg);
  take_close(r);
  /* a status that claims steps the chunks do not hold, and a negative one */
  /* a fresh name each time: a file this process has read is refused as an output */
  snprintf(path, sizeof path, "%s/hostile3.take", mt_test_tmpdir());
  tiny_take(path);
  sql(path, "UPDATE status SET nsteps = 2000");
  e = (mt_err){0};
  r = take_open(path, &e);
  CHECK(r == NULL && strstr(e.msg, "status: nsteps 2000, the chunks hold 1500 steps"));
  take_close(r);
}

MT_TEST(takefile_chunk_codec_round_trips_and_rejects_garbage) {
  /* every codec: encode then decode gives the values back bit for bit (float32 for codecs 3, 5) */
  double v[3 * 50];
  for (int k = 0; k < 150; k++) v[k] = k % 17 == 0 ? -0.0 : sin(0.1 * k) * 1e3 + k;
  for (int codec = 0; codec <= 5; codec++) {
    if (codec == 1) continue;
    size_t len = 0;
    unsigned long crc = 0, crc2 = 0;
    unsigned char* blob = take_chunk_encode(v, 3, 50, codec, &len, &crc);
    CHECK(blob != NULL);
    double out[150];
    CHECK(take_chunk_decode(blob, len, codec, 3, 50, out, &crc2) == 0);
    CHECK_MSG(crc == crc2, "codec %d: %lx %lx", codec, crc, crc2);
    for (int k = 0; k < 150; k++) {
      double want = codec == 3 || codec == 5 ? (double)(float)v[k] : v[k];
      CHECK(memcmp(&out[k], &want, 8) == 0);
    }
    /* too short, wrong shape, unknown codec: refused, never read past */
    CHECK(take_chunk_decode(blob, len / 2, codec, 3, 50, out, &crc2) != 0);
    CHECK(take_chunk_decode(blob, len, codec, 3, 49, out, &crc2) != 0);
    CHECK(take_chunk_decode(blob, len, 7, 3, 50, out, &crc2) != 0);
    free(blob);
  }
}

MT_TEST(takefile_chunk_codec_any_length_and_bits) {
  /* The encoder takes each column in blocks of 64 values and those eight (four for float32) at a
   * time: every length around those sizes, and values of any bit pattern (the second differences
   * wrap), decode bit for bit through the reader's own decoder (the format's reference). */
  static const long lens[] = {1, 2, 3, 7, 8, 9, 15, 63, 64, 65, 127, 128, 129, 333, 999, 1000};
  enum { NC = 3 };
  double* v = malloc(sizeof(double) * NC * 1000);
  double* out = malloc(sizeof(double) * NC * 1000);
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
    long n = lens[li];
    for (int codec = 4; codec <= 5; codec++) {
      for (long k = 0; k < NC * n; k++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;   /* xorshift64 */
        if (codec == 4) memcpy(&v[k], &s, 8);         /* any 64 bits, NaNs and infinities too */
        else v[k] = (double)(int64_t)(s >> 20) * 1e-6;   /* finite: float32 as stored */
      }
      size_t len = 0;
      unsigned long crc = 0, crc2 = 0;
      unsigned char* blob = take_chunk_encode(v, NC, n, codec, &len, &crc);
      CHECK(blob != NULL);
      CHECK(blob && take_chunk_decode(blob, len, codec, NC, n, out, &crc2) == 0);
      CHECK_MSG(crc == crc2, "codec %d, %ld values: crc %lx %lx", codec, n, crc, crc2);
      for (long k = 0; k < NC * n; k++) {
        double want = codec == 5 ? (double)(float)v[k] : v[k];
        CHECK_MSG(memcmp(&out[k], &want, 8) == 0, "codec %d, %ld values: value %ld differs", codec, n, k);
      }
      free(blob);
    }
  }
  free(v);
  free(out);
}

MT_TEST(takefile_killed_take_drops_events_past_its_steps) {
  /* A killed run commits an event before the chunk holding its step: the incomplete take opens
   * with the events of the steps it holds; a complete take with such an event is refused. */
  char path[512];
  snprintf(path, sizeof path, "%s/killed_events.take", mt_test_tmpdir());
  tiny_take(path);
  sql(path, "INSERT INTO events(step, kind, json) VALUES(1499, 'mark', '{}'), (1700, 'mark', '{}')");
  mt_err e = {0};
  take_reader* r = take_open(path, &e);
  CHECK_MSG(r == NULL && strstr(e.msg, "step 1700 is outside the take"), "complete take: %s", e.msg);
  sql(path, "UPDATE status SET complete = 0, reason = 'killed'");
  e = (mt_err){0};
  r = take_open(path, &e);
  CHECK_MSG(r != NULL, "%s", e.msg);
  int n = take_nevents(r);
  long s0 = n > 0 ? take_event_at(r, n - 1)->step : -1;
  take_close(r);
  CHECK_MSG(s0 == 1499, "%d events, last at step %ld", n, s0);
}
