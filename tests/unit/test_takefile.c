/* test_takefile.c — the take file round-trips every double bit for bit, including the odd ones. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/rig.h"
#include "takes/recorder.h"
#include "takes/takefile.h"
#include "tests/unit/test.h"

static double from_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}

static const double* odd_values(void) {
  static double odd[11];
  const double v[] = {0.0, -0.0, INFINITY, -INFINITY, from_bits(0x7ff8000000000001ull), from_bits(0x7ff4000000000abcull),
                      from_bits(1), -from_bits(12345), 1e308, -1e-308, M_PI};
  memcpy(odd, v, sizeof odd);
  return odd;
}

/* The round trip's value of column k of stream s at step i, as written: a pure function of
 * (stream, step, column), so the checks recompute every value on their own. Every step's row is
 * different from its neighbours' (step i shows in input 1 as i itself), so a reader that hands
 * back another step's row (a step-to-chunk mapping off by one) or another column disagrees. */
static double rt_written(int s, long i, int k) {
  const double* odd = odd_values();
  switch (s) {
  case TAKE_STATE: return (i + k) % 7 == 0 ? odd[(i + k) % 11] : sin(0.01 * i + k) * 1e3;
  case TAKE_INPUT: return k == 0 ? odd[i % 11] : (double)i;
  case TAKE_CTX: return cos(0.001 * i * (k + 1));
  default: return k == 0 ? i * 0.001 : 20 + sin(0.01 * i);   /* TAKE_CHAN */
  }
}

/* What the reader must give back: state and inputs bit for bit, the context and the channels
 * in float32 (their codecs), exactly. */
static double rt_stored(int s, long i, int k) {
  double v = rt_written(s, i, k);
  return s == TAKE_CTX || s == TAKE_CHAN ? (double)(float)v : v;
}

#define RT_N 2500   /* three chunks of TAKE_CHUNK_STEPS, the last partial */

static void rt_write(const char* path) {
  const char* in[] = {"a", "b"};
  const char* iu[] = {"1", "1"};
  const char* bn[] = {"root", "child"};
  const char* bp[] = {"", "root"};
  const char* cn[] = {"time", "v"};
  const char* cu[] = {"s", "m/s"};
  take_schema s = {0.001, 5, 2, in, iu, 2, bn, bp, 2, cn, cu, 1, NULL};
  take_source src[16];
  int nsrc;
  struct rig* rg = mt_test_sport_sources(src, 16, &nsrc);
  mt_err e = {0};
  take_writer* w = take_writer_open(path, &s, src, nsrc, "[\"bodies.steering.joints.steer.spring.c=1\"]", &e);
  rig_free(rg);
  CHECK_MSG(w, "%s", e.msg);
  for (long i = 0; i < RT_N; i++) {
    double st[5], ip[2], cx[REC_NCTX], ch[2];
    for (int k = 0; k < 5; k++) st[k] = rt_written(TAKE_STATE, i, k);
    for (int k = 0; k < 2; k++) ip[k] = rt_written(TAKE_INPUT, i, k);
    for (int k = 0; k < REC_NCTX; k++) cx[k] = rt_written(TAKE_CTX, i, k);
    for (int k = 0; k < 2; k++) ch[k] = rt_written(TAKE_CHAN, i, k);
    CHECK_MSG(take_writer_step(w, st, ip, cx, ch, &e) == MT_OK, "step %ld: %s", i, e.msg);
  }
  take_writer_event(w, 1234, "mark", "{\"label\":\"x\"}", &e);
  CHECK(take_writer_close(w, 1, "done", &e) == MT_OK);
}

/* Read steps [step0, step0 + n) of stream s in one take_read and compare every column of every
 * step with rt_stored, bit for bit. */
static void rt_check_span(take_reader* r, int s, long step0, long n, double* buf) {
  static const char* const NAME[] = {"state", "input", "pose", "chan", "ctx"};
  mt_err e = {0};
  int nc = take_ncols(r, s);
  CHECK_MSG(take_read(r, s, step0, n, buf, &e) == MT_OK, "%s %ld+%ld: %s", NAME[s], step0, n, e.msg);
  for (long i = 0; i < n; i++)
    for (int k = 0; k < nc; k++) {
      double want = rt_stored(s, step0 + i, k);
      CHECK_MSG(memcmp(&buf[i * nc + k], &want, 8) == 0, "%s step %ld column %d (read as %ld+%ld): %a != %a", NAME[s],
                step0 + i, k, step0, n, buf[i * nc + k], want);
    }
}

/* Every step and every column of every stored stream, read three ways: the whole take in one
 * call, blocks of 333 steps (which straddle both chunk boundaries, at 1000 and 2000), and one
 * step at a time (steps 999, 1000, 1999, 2000 alone). About 30 000 values each way: cheap. */
static void rt_check_all(take_reader* r) {
  static const int S[] = {TAKE_STATE, TAKE_INPUT, TAKE_CTX, TAKE_CHAN};
  double* buf = malloc(sizeof(double) * RT_N * REC_NCTX);
  for (int si = 0; si < 4 && !mt_test_failed; si++) {
    int s = S[si];
    CHECK_MSG(take_ncols(r, s) == (s == TAKE_STATE ? 5 : s == TAKE_CTX ? REC_NCTX : 2), "stream %d: %d columns", s, take_ncols(r, s));
    rt_check_span(r, s, 0, RT_N, buf);
    for (long i = 0; i < RT_N && !mt_test_failed; i += 333) rt_check_span(r, s, i, i + 333 <= RT_N ? 333 : RT_N - i, buf);
    for (long i = 0; i < RT_N && !mt_test_failed; i++) rt_check_span(r, s, i, 1, buf);
  }
  free(buf);
}

MT_TEST(takefile_round_trips_bit_for_bit) {
  char path[512];
  snprintf(path, sizeof path, "%s/rt.take", mt_test_tmpdir());
  rt_write(path);
  if (mt_test_failed) return;
  mt_err e = {0};
  take_reader* r = take_open(path, &e);
  CHECK_MSG(r, "%s", e.msg);
  CHECK(take_nsteps(r) == RT_N && take_nchunks(r) == 3);
  const char* reason;
  CHECK(take_complete(r, &reason) && strcmp(reason, "done") == 0);
  CHECK(take_nevents(r) == 1 && take_event_at(r, 0)->step == 1234);
  CHECK(strcmp(take_schema_of(r)->body_parents[1], "root") == 0);
  rt_check_all(r);
  if (mt_test_failed) {
    take_close(r);
    return;
  }
  CHECK(take_read(r, TAKE_STATE, RT_N - 1, 2, NULL, &e) == MT_EINPUT);   /* beyond the end: an error */
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
  take_schema s = {0.001, 3, 1, in, iu, 2, bn, bp, 1, cn, cu, 1, NULL};
  take_source src[16];
  int nsrc;
  struct rig* rg = mt_test_sport_sources(src, 16, &nsrc);
  mt_err e = {0};
  take_writer* w = take_writer_open(path, &s, src, nsrc, "[]", &e);
  rig_free(rg);
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

/* Format 5: a value the step integrates is stored as the bits in which it differs from
 * x[t−1] + dt·x_rate[t]. The prediction must be two IEEE roundings in the writer and every
 * reader: a build that fused them into one (an FMA) would read takes wrongly. */
static double two_roundings(double p, double h, double v) {
  volatile double hv = h * v;   /* stored: the product is rounded on its own */
  return p + hv;
}

MT_TEST(takefile_rate_prediction_is_two_roundings) {
  uint64_t s = 0x9e3779b97f4a7c15ull;
  int fused_differs = 0;
  for (int i = 0; i < 200000; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    double p = ldexp((double)(s >> 11), -53) * 40 - 20, v = ldexp((double)((s * 31) >> 11), -53) * 200 - 100;
    double h = i % 2 ? 0.001 : 1.0 / 3;
    double a = take_rate_predict(p, h, v), b = two_roundings(p, h, v);
    CHECK_MSG(memcmp(&a, &b, 8) == 0, "%a + %a * %a: %a, two roundings %a", p, h, v, a, b);
    if (a != b) break;
    fused_differs += fma(h, v, p) != b;
  }
  CHECK_MSG(fused_differs > 1000, "only %d of the cases tell a fused multiply-add apart", fused_differs);
}

/* a take of nstate 6: x0 integrates x3, x1 integrates x4; x2, x5 are not rated */
static const int RATES6[6] = {3, 4, -1, -1, -1, -1};

static void rated_state(long i, double* st, const double* prev) {
  static const double odd[] = {NAN, INFINITY, -INFINITY, -0.0, 0.0, 1e308, -5e-324};
  st[3] = 30 * sin(0.003 * i) + (i % 97 == 5 ? odd[i % 7] : 0);   /* a rate with odd values now and then */
  st[4] = 2 * cos(0.01 * i);
  st[2] = i * 0.25;
  st[5] = i % 11 ? 1.5 : odd[i % 7];
  /* integrated as MuJoCo does (two roundings), except at steps a ride would not give */
  st[0] = i == 0 ? 1.25 : two_roundings(prev[0], 0.001, st[3]);
  st[1] = i == 0 ? -3.0 : two_roundings(prev[1], 0.001, st[4]);
  /* x0: off its integral at the last rows of blocks (63, 127: the next block's residuals are
   * zero after a nonzero one), at a chunk's last and first rows, NaN for a step, then values;
   * 190: the second-to-last row of its block; x1: at a chunk's second row, at block edges, a signed zero and a subnormal */
  static const long j0[] = {63, 127, 190, 999, 1000, 2000, 2499}, j1[] = {1, 64, 65, 1001, 1777};
  for (size_t k = 0; k < sizeof j0 / sizeof j0[0]; k++)
    if (i == j0[k]) st[0] = st[0] * (1 + 1e-15) + 0.5;
  for (size_t k = 0; k < sizeof j1 / sizeof j1[0]; k++)
    if (i == j1[k]) st[1] = k == 2 ? -0.0 : k == 4 ? -5e-324 : st[1] * (1 - 1e-15) - 0.25;
  if (i == 1500) st[0] = NAN;
  if (i > 1500 && i < 1510) st[0] = 7.0 - i;   /* after a NaN: values again */
}

static void write_rated(const char* path, const int* rate, long N) {
  const char* in[] = {"a"};
  const char* iu[] = {"1"};
  const char* bn[] = {"root"};
  const char* bp[] = {""};
  const char* cn[] = {"time"};
  const char* cu[] = {"s"};
  take_schema s = {0.001, 6, 1, in, iu, 1, bn, bp, 1, cn, cu, 0, rate};
  take_source src[16];
  int nsrc;
  struct rig* rg = mt_test_sport_sources(src, 16, &nsrc);
  mt_err e = {0};
  take_writer* w = take_writer_open(path, &s, src, nsrc, "[]", &e);
  rig_free(rg);
  CHECK_MSG(w, "%s", e.msg);
  if (!w) return;
  double st[6] = {0}, prev[6] = {0};
  for (long i = 0; i < N; i++) {
    rated_state(i, st, prev);
    memcpy(prev, st, sizeof st);
    double ip[1] = {0.5}, cx[REC_NCTX] = {i * 0.001};
    CHECK(take_writer_step(w, st, ip, cx, NULL, &e) == MT_OK);
  }
  CHECK_MSG(take_writer_close(w, 1, "done", &e) == MT_OK, "%s", e.msg);
}

static char* sql_text(const char* path, const char* q) {
  sqlite3* db;
  sqlite3_stmt* st;
  char* out = NULL;
  if (sqlite3_open(path, &db) == SQLITE_OK && sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK) {
    size_t n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {   /* every row's first column, as hex for blobs */
      const unsigned char* b = sqlite3_column_blob(st, 0);
      int len = sqlite3_column_bytes(st, 0);
      out = realloc(out, n + 2 * (size_t)len + 2);
      for (int k = 0; k < len; k++) n += (size_t)sprintf(out + n, "%02x", b[k]);
      out[n++] = '|';
      out[n] = 0;
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return out ? out : strdup("");
}

MT_TEST(takefile_rated_state_round_trips_bit_for_bit) {
  char path[512], plain[512];
  snprintf(path, sizeof path, "%s/rated.take", mt_test_tmpdir());
  snprintf(plain, sizeof plain, "%s/rated_general.take", mt_test_tmpdir());
  long N = 2500;   /* three chunks, the last partial; jumps at block and chunk edges */
  write_rated(path, RATES6, N);
  take_zero_blocks = 0;   /* the writer's shortcut off: the same chunks byte for byte */
  write_rated(plain, RATES6, N);
  take_zero_blocks = 1;
  char narrow[512];   /* and the columns one at a time instead of two neighbours at once */
  snprintf(narrow, sizeof narrow, "%s/rated_narrow.take", mt_test_tmpdir());
  take_wide = 0;
  write_rated(narrow, RATES6, N);
  take_wide = 1;
  char* a = sql_text(path, "SELECT data FROM chunks ORDER BY stream, chunk");
  char* b = sql_text(plain, "SELECT data FROM chunks ORDER BY stream, chunk");
  char* c0 = sql_text(narrow, "SELECT data FROM chunks ORDER BY stream, chunk");
  CHECK(strlen(a) > 100 && strcmp(a, b) == 0 && strcmp(a, c0) == 0);
  free(a);
  free(b);
  free(c0);
  a = sql_text(path, "SELECT CAST(value AS BLOB) FROM meta WHERE key = 'state_rates' UNION ALL "
                     "SELECT CAST(group_concat(DISTINCT codec) AS BLOB) FROM chunks WHERE stream = 'state'");
  CHECK_MSG(strcmp(a, "303a332c313a34|36|") == 0, "meta state_rates and the state's codecs: %s", a);   /* "0:3,1:4", "6" */
  free(a);
  mt_err e = {0};
  take_reader* r = take_open(path, &e);
  CHECK_MSG(r, "%s", e.msg);
  if (!r) return;
  CHECK(take_schema_of(r)->state_rate && take_schema_of(r)->state_rate[0] == 3 && take_schema_of(r)->state_rate[1] == 4 &&
        take_schema_of(r)->state_rate[2] == -1);
  double st[6] = {0}, prev[6] = {0}, got[6];
  long bad = 0;
  for (long i = 0; i < N; i++) {
    rated_state(i, st, prev);
    memcpy(prev, st, sizeof st);
    CHECK(take_read(r, TAKE_STATE, i, 1, got, &e) == MT_OK);
    if (memcmp(got, st, sizeof st) && bad++ < 5) CHECK_MSG(0, "step %ld: %a %a, wrote %a %a", i, got[0], got[1], st[0], st[1]);
  }
  CHECK(bad == 0);
  /* a cut keeps the table and the values */
  char cut[512];
  snprintf(cut, sizeof cut, "%s/rated_cut.take", mt_test_tmpdir());
  CHECK_MSG(take_write_cut(r, 990, 1020, cut, "test", &e) == MT_OK, "%s", e.msg);
  take_reader* c = take_open(cut, &e);
  CHECK_MSG(c && take_nsteps(c) == 1020 && take_schema_of(c)->state_rate && take_schema_of(c)->state_rate[1] == 4, "%s", e.msg);
  for (long i = 0; c && i < 1020; i++) {
    double want[6];
    CHECK(take_read(r, TAKE_STATE, 990 + i, 1, want, &e) == MT_OK && take_read(c, TAKE_STATE, i, 1, got, &e) == MT_OK);
    if (memcmp(got, want, sizeof got) && bad++ < 5) CHECK_MSG(0, "cut step %ld differs", i);
  }
  take_close(c);
  take_close(r);
}

MT_TEST(takefile_writer_refuses_a_rate_table_it_cannot_store) {
  static const int chain[6] = {3, 0, -1, -1, -1, -1};   /* x1's rate, x0, has a rate itself */
  static const int beyond[6] = {6, -1, -1, -1, -1, -1};
  const int* bad[] = {chain, beyond};
  for (int k = 0; k < 2; k++) {
    char path[512];
    snprintf(path, sizeof path, "%s/rated_bad%d.take", mt_test_tmpdir(), k);
    const char* in[] = {"a"};
    const char* iu[] = {"1"};
    const char* bn[] = {"root"};
    const char* bp[] = {""};
    take_schema s = {0.001, 6, 1, in, iu, 1, bn, bp, 0, NULL, NULL, 0, bad[k]};
    mt_err e = {0};
    CHECK(take_writer_open(path, &s, NULL, 0, "[]", &e) == NULL);
    CHECK_MSG(e.code == MT_EINTERNAL && strstr(e.msg, "is not an unrated state value"), "%s", e.msg);
    CHECK(access(path, F_OK) != 0);   /* nothing was created */
  }
}

/* The simulation's thread hands chunks to the writer in batches (up to 16, one transaction), and
 * sooner when a second of the run's time has passed at a chunk's end: a killed run loses at most
 * the last second it ran. What the file holds is read by a second connection while the writer is
 * still open, as `take info` on a live take does. */
static long committed_steps(const char* path) {
  sqlite3* db;
  long n = -1;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
    sqlite3_busy_timeout(db, 2000);
    sqlite3_stmt* st;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM chunks WHERE stream = 'state'", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
      n = 1000 * sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return n;
}

MT_TEST(takefile_writer_batches_chunks_but_not_for_more_than_a_second) {
  char path[512];
  snprintf(path, sizeof path, "%s/batched.take", mt_test_tmpdir());
  const char* in[] = {"a"};
  const char* iu[] = {"1"};
  const char* bn[] = {"root"};
  const char* bp[] = {""};
  take_schema s = {0.001, 6, 1, in, iu, 1, bn, bp, 0, NULL, NULL, 0, RATES6};
  take_source src[16];
  int nsrc;
  struct rig* rg = mt_test_sport_sources(src, 16, &nsrc);
  mt_err e = {0};
  take_writer* w = take_writer_open(path, &s, src, nsrc, "[]", &e);
  rig_free(rg);
  CHECK_MSG(w, "%s", e.msg);
  if (!w) return;
  double st[6] = {0}, prev[6] = {0}, ip[1] = {0}, cx[REC_NCTX] = {0};
  long i = 0;
  for (; i < 3000; i++) {   /* three chunks at once: still in the batch being filled */
    rated_state(i, st, prev);
    memcpy(prev, st, sizeof st);
    CHECK(take_writer_step(w, st, ip, cx, NULL, &e) == MT_OK);
  }
  struct timespec pause = {0, 300000000};
  nanosleep(&pause, NULL);
  CHECK_MSG(committed_steps(path) == 0, "%ld steps committed before the batch was handed over", committed_steps(path));
  struct timespec sec = {1, 0};
  nanosleep(&sec, NULL);   /* more than a second since the open: the next chunk's end hands over */
  for (; i < 4000; i++) {
    rated_state(i, st, prev);
    memcpy(prev, st, sizeof st);
    CHECK(take_writer_step(w, st, ip, cx, NULL, &e) == MT_OK);
  }
  long got = 0;
  for (int k = 0; k < 100 && (got = committed_steps(path)) < 4000; k++) nanosleep(&pause, NULL);
  CHECK_MSG(got == 4000, "%ld steps committed a second after the last hand-over, 4000 written", got);
  for (; i < 20500; i++) {   /* a full batch of 16 chunks at once, then a partial one at the close */
    rated_state(i, st, prev);
    memcpy(prev, st, sizeof st);
    CHECK(take_writer_step(w, st, ip, cx, NULL, &e) == MT_OK);
  }
  CHECK_MSG(take_writer_close(w, 1, "done", &e) == MT_OK, "%s", e.msg);
  take_reader* r = take_open(path, &e);
  CHECK_MSG(r && take_nsteps(r) == 20500 && take_nchunks(r) == 21, "%s", e.msg);
  double got6[6];
  memset(prev, 0, sizeof prev);
  long bad = 0;
  for (long t = 0; r && t < 20500; t++) {
    rated_state(t, st, prev);
    memcpy(prev, st, sizeof st);
    CHECK(take_read(r, TAKE_STATE, t, 1, got6, &e) == MT_OK);
    bad += memcmp(got6, st, sizeof st) != 0;
  }
  CHECK_MSG(bad == 0, "%ld steps differ", bad);
  take_close(r);
}
