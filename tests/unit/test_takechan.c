/* test_takechan.c — take format 4 rebuilds the channels from the state, inputs and context
 * (takes/takechan.h, issue 18).
 *
 * Each shipped script is recorded twice: storing every channel as the loop samples it (run
 * --store-channels) and as format 4 does by default (the context only). Held bit for bit:
 *  - the rebuilt channels (takechan, every step in order, and again reading steps out of order)
 *    against the stored ones: every channel of every step, float32 as stored;
 *  - the default take's channels (take_read, rebuilt) against the stored ones: the two runs ride
 *    the same (sampling never moves the simulation), so these agree too;
 *  - the default take is smaller.
 * The scripts cover the stunt loop and its channel (stoppie), a fall and a slide on the
 * contact spheres (lowside); tests/cli/take.sh compares the Laguna lap's (gear shifts, laps, the
 * track's road) the same way through `take channels`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "takes/recorder.h"
#include "takes/run.h"
#include "takes/takechan.h"
#include "takes/takefile.h"
#include "tests/unit/test.h"

static int record(const char* script, const char* out, int store, mt_err* e) {
  char spath[4096];
  snprintf(spath, sizeof spath, "%s/takes/%s", mt_test_root(), script);
  run_opts o = {0};
  o.script = spath;
  o.out = out;
  o.quiet = 1;
  o.store_chan = store;
  run_result res;
  return run_take(&o, &res, e);
}

static long file_size(const char* p) {
  struct stat st;
  return stat(p, &st) ? -1 : (long)st.st_size;
}

/* Count the steps whose rebuilt channels differ (bit for bit) from want[n·nc]; first bad in *fb. */
static long rebuilt_mismatches(take_reader* r, takechan* tc, const double* want, long from, long stride, long count,
                               long* fb, int* fk, mt_err* e) {
  const take_schema* s = take_schema_of(r);
  int nx = s->nstate, ni = s->ninput, nc = s->nchan;
  long n = take_nsteps(r), bad = 0;
  if (count > n) count = n;
  double* row = malloc(sizeof(double) * (nx + ni + REC_NCTX + nc));
  double *x = row, *u = x + nx, *c = u + ni, *ch = c + REC_NCTX;
  for (long k = 0; k < count; k++) {
    long i = (from + k * stride) % n;
    if (take_read(r, TAKE_STATE, i, 1, x, e) || take_read(r, TAKE_INPUT, i, 1, u, e) || take_read(r, TAKE_CTX, i, 1, c, e)) {
      bad = -1;
      break;
    }
    if (takechan_fill(tc, i, x, u, c, ch, e)) {
      bad = -1;
      break;
    }
    if (memcmp(ch, want + i * nc, sizeof(double) * nc)) {
      if (!bad) {
        *fb = i;
        for (*fk = 0; *fk < nc && !memcmp(&ch[*fk], &want[i * nc + *fk], 8); (*fk)++) {}
      }
      bad++;
    }
  }
  free(row);
  return bad;
}

MT_TEST(takechan_rebuilds_every_channel_the_recording_loop_sampled) {
  const char* scripts[] = {"stoppie.lua", "lowside.lua"};
  for (size_t q = 0; q < sizeof scripts / sizeof *scripts; q++) {
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/tc_stored_%zu.take", mt_test_tmpdir(), q);
    snprintf(b, sizeof b, "%s/tc_ctx_%zu.take", mt_test_tmpdir(), q);
    mt_err e = {0};
    CHECK_MSG(record(scripts[q], a, 1, &e) == MT_OK, "%s: %s", scripts[q], e.msg);
    CHECK_MSG(record(scripts[q], b, 0, &e) == MT_OK, "%s: %s", scripts[q], e.msg);
    take_reader* ra = take_open(a, &e);
    take_reader* rb = ra ? take_open(b, &e) : NULL;
    CHECK_MSG(ra && rb, "%s", e.msg);
    if (!ra || !rb) {
      take_close(ra);
      return;
    }
    CHECK(take_stored(ra, TAKE_CHAN) && !take_stored(rb, TAKE_CHAN) && take_stored(rb, TAKE_CTX));
    long n = take_nsteps(ra);
    int nc = take_schema_of(ra)->nchan;
    CHECK(n > 1000 && take_nsteps(rb) == n && nc == rec_nchan());
    double* stored = malloc(sizeof(double) * n * nc);
    double* rebuilt = malloc(sizeof(double) * n * nc);
    CHECK(take_read(ra, TAKE_CHAN, 0, n, stored, &e) == MT_OK);
    /* the default take, read as any reader reads it */
    CHECK_MSG(take_read(rb, TAKE_CHAN, 0, n, rebuilt, &e) == MT_OK, "%s", e.msg);
    long diff = 0;
    for (long i = 0; i < n; i++) diff += memcmp(stored + i * nc, rebuilt + i * nc, sizeof(double) * nc) != 0;
    CHECK_MSG(diff == 0, "%s: %ld of %ld steps' rebuilt channels differ from the stored", scripts[q], diff, n);
    /* the stored take rebuilt by takechan, in order and out of order (a prime stride) */
    takechan* tc = takechan_new(ra, &e);
    CHECK_MSG(tc, "%s", e.msg);
    long fb = -1;
    int fk = -1;
    long m1 = tc ? rebuilt_mismatches(ra, tc, stored, 0, 1, n, &fb, &fk, &e) : -1;
    CHECK_MSG(m1 == 0, "%s, in order: %ld of %ld steps differ, the first %ld at channel %s", scripts[q], m1, n, fb,
              fk >= 0 && fk < nc ? rec_channels()[fk].name : "?");
    /* 400 steps out of order (each a jump: the look-ups restart; each a chunk decoded anew) */
    long m2 = tc ? rebuilt_mismatches(ra, tc, stored, 17, 7919, 400, &fb, &fk, &e) : -1;
    CHECK_MSG(m2 == 0, "%s, out of order: %ld of 400 steps differ, the first %ld at channel %s", scripts[q], m2, fb,
              fk >= 0 && fk < nc ? rec_channels()[fk].name : "?");
    printf("    %s: %ld steps, %d channels rebuilt bit for bit; take %.2f MB storing them, %.2f MB (format 4)\n", scripts[q],
           n, nc, file_size(a) / 1e6, file_size(b) / 1e6);
    CHECK(file_size(b) < file_size(a));
    takechan_free(tc);
    free(stored);
    free(rebuilt);
    take_close(ra);
    take_close(rb);
  }
}

/* A take whose machine cannot be rebuilt still opens; reading its channels fails with one line
 * naming the take and the stream; one whose channel list is another build's is refused by name. */
MT_TEST(takechan_refuses_what_it_cannot_rebuild) {
  char a[4096];
  snprintf(a, sizeof a, "%s/tc_bad.take", mt_test_tmpdir());
  mt_err e = {0};
  CHECK_MSG(record("stoppie.lua", a, 0, &e) == MT_OK, "%s", e.msg);
  char cmd[8300];
  snprintf(cmd, sizeof cmd, "sqlite3 '%s' \"update columns set name='spede' where stream='chan' and name='speed'\"", a);
  CHECK(system(cmd) == 0);
  take_reader* r = take_open(a, &e);
  CHECK_MSG(r, "%s", e.msg);
  if (!r) return;
  double* ch = malloc(sizeof(double) * take_ncols(r, TAKE_CHAN));
  e = (mt_err){0};
  CHECK(take_read(r, TAKE_CHAN, 5, 1, ch, &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "tc_bad.take: stream 'chan': rebuilding the machine from the embedded sources: the take's channel 8 is "
                          "'spede', this mototake's 'speed'"),
            "%s", e.msg);
  double x[64];
  CHECK(take_read(r, TAKE_STATE, 5, 1, x, &e) == MT_OK);   /* the rest still reads */
  free(ch);
  take_close(r);
}
