/* test_lazy.c — the ride loop's on-demand work (issue 18) changes no value.
 *
 * A dry run writes only the channels the runner knows itself (time, station, offset, distance,
 * lap, ax, ay, stunt) and samples the vehicle (poses, channels, joint reactions) only in a step
 * where an event condition reads another channel. The runner also keeps the road's last answer,
 * which the frame's query after the step repeats. Checked here:
 *  - the context channels are the ones named, and rec_sample_context writes the values rec_sample
 *    writes there, bit for bit, touching nothing else;
 *  - a condition that reads lazily sampled channels (a joint reaction, from the post-constraint
 *    pass; a joint angle, read from the state at t; a body-axes reaction) in a dry run sees the
 *    values the recording of the same ride stored in that step (to the take's float32 rounding,
 *    while one step moves each of them by more than that), and that dry run sampled only that
 *    one step;
 *  - a dry run whose conditions read only c.lap samples no step; a recorded one samples every
 *    step; the road's repeated question is answered from memory once a step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/vehicle_mj.h"
#include "sim/rig.h"
#include "sim/vehicle.h"
#include "takes/recorder.h"
#include "takes/run.h"
#include "takes/takefile.h"
#include "tests/unit/test.h"

MT_TEST(lazy_context_channels_are_named_and_written_as_rec_sample_writes_them) {
  int nc = rec_nchan();
  unsigned char mask[256];
  rec_context_mask(mask);
  const char* names[] = {"time", "station", "offset", "distance", "lap", "ax", "ay", "stunt"};
  int n = 0;
  for (int k = 0; k < nc; k++) n += mask[k];
  CHECK_MSG(n == 8, "%d context channels", n);
  for (int i = 0; i < 8; i++) {
    int k = rec_chan_index(names[i]);
    CHECK_MSG(k >= 0 && mask[k], "%s", names[i]);
  }
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  CHECK_MSG(v, "%s", e.msg);
  for (int i = 0; i < 20; i++) veh_step(v, &e);
  rec_context c = {123.25, -1.5, 4567.125, 3, -2.75, 6.5, 1};
  double* a = malloc(sizeof(double) * nc * 2);
  double* b = a + nc;
  rec_sample(v, &c, a);
  for (int k = 0; k < nc; k++) b[k] = NAN;
  rec_sample_context(&c, v->d->time, b);
  int bad = -1;
  for (int k = 0; k < nc; k++)
    if (mask[k] ? memcmp(&a[k], &b[k], sizeof a[k]) != 0 : !isnan(b[k])) bad = k;
  free(a);
  veh_free(v);
  rig_free(r);
  CHECK_MSG(bad < 0, "channel %s differs", rec_channels()[bad].name);
}

/* The ride of `duration` (a number, in Lua) with the lap's event and extra_event. */
static int write_script_of(const char* path, const char* extra_event, const char* duration) {
  FILE* f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f,
          "return {\n"
          "  rig = \"sport1000\", track = \"laguna_seca\",\n"
          "  start = { station = -300, speed = 30, gear = -1 }, duration = %s,\n"
          "  rider = { line = \"centre\", preview = 0.35, speed = \"auto\", grip = 0.7, top_speed = 33, auto_gear = true },\n"
          "  events = {\n"
          "    { when = function(c) return c.lap >= 1 end, mark = \"lap\" },\n"
          "%s"
          "  },\n"
          "}\n",
          duration, extra_event);
  return fclose(f);
}

static int write_script(const char* path, const char* extra_event) { return write_script_of(path, extra_event, "0.6"); }

MT_TEST(lazy_condition_reads_the_recorded_values_and_a_dry_run_samples_only_when_asked) {
  char spath[4096], tpath[4096], s2path[4096];
  snprintf(spath, sizeof spath, "%s/lazy_a.lua", mt_test_tmpdir());
  snprintf(s2path, sizeof s2path, "%s/lazy_b.lua", mt_test_tmpdir());
  snprintf(tpath, sizeof tpath, "%s/lazy_a.take", mt_test_tmpdir());
  CHECK(write_script(spath, "") == 0);
  /* recorded (take format 4): the take stores the context, so the loop samples no more than a dry
   * run does (readers rebuild the channels, takes/takechan.h) */
  run_opts o = {0};
  o.script = spath;
  o.out = tpath;
  o.quiet = 1;
  run_result rec, dry, dry2;
  mt_err e = {0};
  CHECK_MSG(run_take(&o, &rec, &e) == MT_OK, "%s", e.msg);
  CHECK_MSG(rec.steps == 600 && rec.samples == 0, "%ld steps, %ld sampled", rec.steps, rec.samples);
  /* dry, conditions reading c.lap only: none sampled; the frame's road query repeats the
   * contact pre-check's every step but the first (its hint is the trim's, the runner's none) */
  o.out = NULL;
  CHECK_MSG(run_take(&o, &dry, &e) == MT_OK, "%s", e.msg);
  CHECK_MSG(dry.steps == 600 && dry.samples == 0, "%ld steps, %ld sampled", dry.steps, dry.samples);
  CHECK_MSG(dry.road_reused >= dry.steps - 1 && dry.road_queries >= 4 * dry.steps,
            "%ld of %ld road queries reused in %ld steps", dry.road_reused, dry.road_queries, dry.steps);
  CHECK(rec.road_reused == dry.road_reused && rec.road_queries == dry.road_queries);
  /* the recorded values of step N */
  take_reader* r = take_open(tpath, &e);
  CHECK_MSG(r, "%s", e.msg);
  int nc = take_ncols(r, TAKE_CHAN);
  const long N = 400;
  double* C = malloc(sizeof(double) * nc * 2);
  int rc = take_read(r, TAKE_CHAN, N - 1, 2, C, &e);
  take_close(r);
  const char* chk[] = {"steer_joint_fx", "swingarm_angle", "rear_axle_body_fz", "front_load"};
  double val[4], ulp = ldexp(1, -23);
  char cond[2048] = "";
  int moved = 1;
  for (int i = 0; i < 4 && !rc; i++) {
    int k = rec_chan_index(chk[i]);
    val[i] = C[nc + k];
    /* a stale value (the step before) would be told apart from the take's float32 rounding */
    if (!(fabs(C[nc + k] - C[k]) > 4 * ulp * fabs(val[i]))) moved = 0;
    size_t l = strlen(cond);
    snprintf(cond + l, sizeof cond - l, " and math.abs(c.%s - (%.17g)) <= %.17g", chk[i], val[i], ulp * fabs(val[i]));
  }
  free(C);
  CHECK_MSG(rc == 0, "%s", e.msg);
  CHECK(moved);
  char ev[2600];
  snprintf(ev, sizeof ev, "    { when = function(c) return c.time >= %.17g%s end, stop = \"matched\" },\n", (N - 0.5) * 0.001, cond);
  CHECK(write_script(s2path, ev) == 0);
  o.script = s2path;
  CHECK_MSG(run_take(&o, &dry2, &e) == MT_OK, "%s", e.msg);
  CHECK_MSG(!strcmp(dry2.end_reason, "matched") && dry2.steps == N + 1, "%s after %ld steps", dry2.end_reason, dry2.steps);
  CHECK_MSG(dry2.samples == 1, "%ld steps sampled", dry2.samples);
}

/* The bench's hand-over (takes/run.h run_bench_blocks) after every `steps` steps of the loop, as
 * (i + 1) % steps == 0 had it (branch loopC: a count down, no division a step): the number of
 * calls in a 600-step ride for block lengths that divide it, do not, exceed it, and 1; each call
 * sees the loop's steps so far (the ride's CPU clock is not readable here, its call count is). */
static long g_blk_calls;
static void blk_count(void* data) {
  (void)data;
  g_blk_calls++;
}

MT_TEST(lazy_bench_blocks_hand_over_after_every_n_steps) {
  char spath[4096];
  snprintf(spath, sizeof spath, "%s/lazy_blk.lua", mt_test_tmpdir());
  /* under the sanitizers (make test's second run) a 200-step ride without blocks and with blocks of
   * 7 (hand-overs, the last block cut short), not the six: each ride builds the rider's table there */
  const char* tag = getenv("MT_TEST_TAG");
  int quick = tag && strcmp(tag, "asan") == 0;
  long nstep = quick ? 200 : 600;
  CHECK(write_script_of(spath, "", quick ? "0.2" : "0.6") == 0);
  run_opts o = {0};
  o.script = spath;
  o.quiet = 1;
  long sizes[] = {0, 1, 7, 599, 600, 601};
  if (quick) sizes[1] = 7;
  run_result ref = {0};
  mt_err e = {0};
  for (size_t k = 0; k < (quick ? 2 : sizeof sizes / sizeof *sizes); k++) {
    g_blk_calls = 0;
    run_bench_blocks = (run_blocks){sizes[k], blk_count, NULL};
    run_result res;
    int rc = run_take(&o, &res, &e);
    run_bench_blocks = (run_blocks){0, NULL, NULL};
    CHECK_MSG(rc == MT_OK, "%s", e.msg);
    long want = sizes[k] > 0 ? res.steps / sizes[k] : 0;
    CHECK_MSG(res.steps == nstep && g_blk_calls == want, "blocks of %ld: %ld calls in %ld steps, want %ld", sizes[k], g_blk_calls,
              res.steps, want);
    if (k == 0) ref = res;
    CHECK_MSG(!memcmp(&res.max_speed, &ref.max_speed, sizeof ref.max_speed) && !memcmp(&res.peak_ay, &ref.peak_ay, sizeof ref.peak_ay),
              "blocks of %ld: the ride differs", sizes[k]);
  }
}

/* The frame's yaw's cos and sin computed once a step in the controller and read by the LQR
 * rider's measurement and the loop's ax, ay (branch loopC: run_yaw_cs_shared) against each
 * computing its own: the same ride recorded both ways stores the same states, inputs and context
 * (ax, ay among it), every value bit for bit. */
MT_TEST(lazy_shared_yaw_cos_sin_record_the_same_take) {
  char spath[4096], tp[2][4096];
  snprintf(spath, sizeof spath, "%s/lazy_cs.lua", mt_test_tmpdir());
  CHECK(write_script(spath, "") == 0);
  mt_err e = {0};
  for (int k = 0; k < 2; k++) {
    snprintf(tp[k], sizeof tp[k], "%s/lazy_cs%d.take", mt_test_tmpdir(), k);
    run_opts o = {0};
    o.script = spath;
    o.out = tp[k];
    o.quiet = 1;
    run_result res;
    run_yaw_cs_shared = k == 0;
    int rc = run_take(&o, &res, &e);
    run_yaw_cs_shared = 1;
    CHECK_MSG(rc == MT_OK && res.steps == 600, "%s", e.msg);
  }
  take_reader* tr[2];
  for (int k = 0; k < 2; k++) {
    tr[k] = take_open(tp[k], &e);
    CHECK_MSG(tr[k], "%s", e.msg);
  }
  long n = take_nsteps(tr[0]), compared = 0;
  CHECK(n == take_nsteps(tr[1]) && n >= 599);
  int streams[3] = {TAKE_STATE, TAKE_INPUT, TAKE_CTX};
  for (int q = 0; q < 3; q++) {
    int nc = take_ncols(tr[0], streams[q]);
    CHECK(nc > 0 && nc == take_ncols(tr[1], streams[q]));
    double* a = malloc(sizeof(double) * nc * n * 2);
    double* b = a + (size_t)nc * n;
    CHECK(take_read(tr[0], streams[q], 0, n, a, &e) == 0 && take_read(tr[1], streams[q], 0, n, b, &e) == 0);
    int same = !memcmp(a, b, sizeof(double) * nc * n);
    long moving = 0;   /* the context's values change along the ride (ax, ay among them) */
    for (long i = 1; i < n; i++)
      for (int c = 0; c < nc; c++) moving += a[i * nc + c] != a[(i - 1) * nc + c];
    free(a);
    CHECK_MSG(same && moving > n, "stream %d: %s, %ld changes", streams[q], same ? "the same" : "differs", moving);
    compared += (long)nc * n;
  }
  for (int k = 0; k < 2; k++) take_close(tr[k]);
  CHECK(compared > 10000);
}
