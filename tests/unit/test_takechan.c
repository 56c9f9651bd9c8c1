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

static int record_at(const char* spath, const char* out, int store, mt_err* e) {
  run_opts o = {0};
  o.script = spath;
  o.out = out;
  o.quiet = 1;
  o.store_chan = store;
  run_result res;
  return run_take(&o, &res, e);
}

static int record(const char* script, const char* out, int store, mt_err* e) {
  char spath[4096];
  snprintf(spath, sizeof spath, "%s/takes/%s", mt_test_root(), script);
  return record_at(spath, out, store, e);
}

static long file_size(const char* p) {
  struct stat st;
  return stat(p, &st) ? -1 : (long)st.st_size;
}

/* takes/stoppie.lua cut at 1.6 s (the rear wheel up at 1.2 s), written as OUT; 0, or −1 if the
 * script does not read or its duration is not 6 s. */
static int short_stoppie(const char* out) {
  char path[4096], text[8192];
  snprintf(path, sizeof path, "%s/takes/stoppie.lua", mt_test_root());
  FILE* f = fopen(path, "r");
  if (!f) return -1;
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = 0;
  const char* from = "duration = 6,";
  char* at = strstr(text, from);
  if (!at || !(f = fopen(out, "w"))) return -1;
  fprintf(f, "%.*sduration = 1.6,%s", (int)(at - text), text, at + strlen(from));
  return fclose(f) ? -1 : 0;
}

/* takes/lowside.lua without its rider (the trim's steady turn held open loop), the front brake
 * grabbed at 0.3 s: it falls at 0.75 s and slides on the contact spheres to 1.5 s. */
static int short_lowside(const char* out) {
  FILE* f = fopen(out, "w");
  if (!f) return -1;
  fputs("return {\n  rig = \"sport1000\", track = \"skidpad100\", start = { station = 0, speed = 20, lean = -23 },\n"
        "  duration = 1.5, inputs = { { at = 0.3, front_brake = 1, ramp = 0.05, hold = 10 } },\n}\n", f);
  return fclose(f) ? -1 : 0;
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
  /* under the sanitizers (make test's second run) each path once, not the whole rides (a ride with
   * the rider builds its table, seconds there): the stoppie cut at 1.6 s, stored only (takechan
   * rebuilds the stunt's channels), a lowside without the rider as the pair (the default take's
   * reading path rebuilds the fall and slide), 40 steps out of order */
  const char* tag = getenv("MT_TEST_TAG");
  int quick = tag && strcmp(tag, "asan") == 0;
  for (size_t q = 0; q < sizeof scripts / sizeof *scripts; q++) {
    char a[4096], b[4096], spath[4096];
    snprintf(a, sizeof a, "%s/tc_stored_%zu.take", mt_test_tmpdir(), q);
    snprintf(b, sizeof b, "%s/tc_ctx_%zu.take", mt_test_tmpdir(), q);
    if (quick) {
      snprintf(spath, sizeof spath, "%s/tc_short_%s", mt_test_tmpdir(), scripts[q]);
      CHECK_MSG(!(q == 0 ? short_stoppie(spath) : short_lowside(spath)), "%s: could not write its short ride", scripts[q]);
    } else {
      snprintf(spath, sizeof spath, "%s/takes/%s", mt_test_root(), scripts[q]);
    }
    int pair = !quick || q == 1;   /* the default take recorded too */
    mt_err e = {0};
    CHECK_MSG(record_at(spath, a, 1, &e) == MT_OK, "%s: %s", scripts[q], e.msg);
    if (pair) CHECK_MSG(record_at(spath, b, 0, &e) == MT_OK, "%s: %s", scripts[q], e.msg);
    take_reader* ra = take_open(a, &e);
    take_reader* rb = ra && pair ? take_open(b, &e) : NULL;
    CHECK_MSG(ra && (rb || !pair), "%s", e.msg);
    if (!ra || (!rb && pair)) {
      take_close(ra);
      return;
    }
    CHECK(take_stored(ra, TAKE_CHAN) && (!pair || (!take_stored(rb, TAKE_CHAN) && take_stored(rb, TAKE_CTX))));
    long n = take_nsteps(ra);
    int nc = take_schema_of(ra)->nchan;
    CHECK(n > 1000 && (!pair || take_nsteps(rb) == n) && nc == rec_nchan());
    double* stored = malloc(sizeof(double) * n * nc);
    double* rebuilt = malloc(sizeof(double) * n * nc);
    CHECK(take_read(ra, TAKE_CHAN, 0, n, stored, &e) == MT_OK);
    if (quick) {   /* the short ride still reaches its event: the rear wheel up in the stunt, or the fall */
      int ks = rec_chan_index("stunt"), kr = rec_chan_index("rear_contact"), kl = rec_chan_index("lean");
      long seen = 0;
      for (long i = 0; i < n; i++)
        seen += q == 0 ? stored[i * nc + ks] != 0 && stored[i * nc + kr] == 0 : fabs(stored[i * nc + kl]) > 75;
      CHECK_MSG(ks >= 0 && kr >= 0 && kl >= 0 && seen > 100, "%s: %ld of %ld steps %s", scripts[q], seen, n,
                q == 0 ? "in the stoppie with the rear wheel up" : "fallen past 75 degrees");
    }
    if (pair) {
      /* the default take, read as any reader reads it */
      CHECK_MSG(take_read(rb, TAKE_CHAN, 0, n, rebuilt, &e) == MT_OK, "%s", e.msg);
      long diff = 0;
      for (long i = 0; i < n; i++) diff += memcmp(stored + i * nc, rebuilt + i * nc, sizeof(double) * nc) != 0;
      CHECK_MSG(diff == 0, "%s: %ld of %ld steps' rebuilt channels differ from the stored", scripts[q], diff, n);
    }
    /* the stored take rebuilt by takechan, in order and out of order (a prime stride) */
    takechan* tc = takechan_new(ra, &e);
    CHECK_MSG(tc, "%s", e.msg);
    long fb = -1;
    int fk = -1;
    long m1 = tc ? rebuilt_mismatches(ra, tc, stored, 0, 1, n, &fb, &fk, &e) : -1;
    CHECK_MSG(m1 == 0, "%s, in order: %ld of %ld steps differ, the first %ld at channel %s", scripts[q], m1, n, fb,
              fk >= 0 && fk < nc ? rec_channels()[fk].name : "?");
    /* 400 steps out of order (each a jump: the look-ups restart; each a chunk decoded anew; 40 quick) */
    long jumps = quick ? 40 : 400;
    long m2 = tc ? rebuilt_mismatches(ra, tc, stored, 17, 7919, jumps, &fb, &fk, &e) : -1;
    CHECK_MSG(m2 == 0, "%s, out of order: %ld of %ld steps differ, the first %ld at channel %s", scripts[q], m2, jumps, fb,
              fk >= 0 && fk < nc ? rec_channels()[fk].name : "?");
    printf("    %s: %ld steps, %d channels rebuilt bit for bit; take %.2f MB storing them", scripts[q], n, nc, file_size(a) / 1e6);
    if (pair) printf(", %.2f MB (format 4)", file_size(b) / 1e6);
    printf("\n");
    if (pair) CHECK(file_size(b) < file_size(a));
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
