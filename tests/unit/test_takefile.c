/* test_takefile.c — the take file round-trips every double bit for bit, including the odd ones. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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
  take_schema s = {0.001, 5, 2, in, iu, 2, bn, bp, 2, cn, cu};
  take_source src[] = {{"rig", "r.lua", "return {}"}, {"track", "t.lua", "return {}"}};
  mt_err e = {0};
  take_writer* w = take_writer_open(path, &s, src, 2, "[\"k=1\"]", &e);
  CHECK_MSG(w, "%s", e.msg);
  const double odd[] = {0.0, -0.0, INFINITY, -INFINITY, from_bits(0x7ff8000000000001ull), from_bits(0x7ff4000000000abcull),
                        from_bits(1), -from_bits(12345), 1e308, -1e-308, M_PI};
  long N = 2500;   /* three chunks, the last partial */
  for (long i = 0; i < N; i++) {
    double st[5], ip[2], po[14], ch[2];
    for (int k = 0; k < 5; k++) st[k] = (i + k) % 7 == 0 ? odd[(i + k) % 11] : sin(0.01 * i + k) * 1e3;
    ip[0] = odd[i % 11];
    ip[1] = (double)i;
    for (int k = 0; k < 14; k++) po[k] = cos(0.001 * i * (k + 1));
    ch[0] = i * 0.001;
    ch[1] = 20 + sin(0.01 * i);
    CHECK(take_writer_step(w, st, ip, po, ch, &e) == MT_OK);
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
    double st[5], ip[2], po[14], ch[2];
    CHECK(take_read(r, TAKE_STATE, i, 1, st, &e) == MT_OK);
    CHECK(take_read(r, TAKE_INPUT, i, 1, ip, &e) == MT_OK);
    CHECK(take_read(r, TAKE_POSE, i, 1, po, &e) == MT_OK);
    CHECK(take_read(r, TAKE_CHAN, i, 1, ch, &e) == MT_OK);
    for (int k = 0; k < 5; k++) {
      double want = (i + k) % 7 == 0 ? odd[(i + k) % 11] : sin(0.01 * i + k) * 1e3;
      CHECK_MSG(memcmp(&st[k], &want, 8) == 0, "state %ld,%d: %a != %a", i, k, st[k], want);
    }
    CHECK(memcmp(&ip[0], &odd[i % 11], 8) == 0);
    for (int k = 0; k < 14; k++) {
      double want = cos(0.001 * i * (k + 1));
      CHECK(memcmp(&po[k], &want, 8) == 0);
    }
    CHECK(ch[1] == (double)(float)(20 + sin(0.01 * i)));   /* channels: float32 precision, exactly */
  }
  CHECK(take_read(r, TAKE_STATE, N - 1, 2, NULL, &e) == MT_EINPUT);   /* beyond the end: an error */
  take_close(r);
}
