/* test_script.c — take scripts: parsing, open-loop inputs, events, located errors. */
#include <math.h>
#include <string.h>

#include "takes/script.h"
#include "tests/unit/test.h"

static const char* GOOD =
    "return {\n"
    "  rig = 'sport1000', track = 'straight', duration = 10,\n"
    "  overrides = { ['rear_shock.k'] = 60000 },\n"
    "  start = { station = 50, speed = 20, gear = 3 },\n"
    "  rider = { line = 1.5, speed = { by = 'time', points = {{0, 20}, {10, 30}} } },\n"
    "  inputs = { { at = 2, steer_torque = 40, hold = 0.05 },\n"
    "             { at = 3, throttle = 1, ramp = 0.5 },\n"
    "             { at = 5, gear = 2 } },\n"
    "  events = { { when = function(c) return c.speed > 25 end, mark = 'fast' },\n"
    "             { at = 8, stop = 'done' } },\n"
    "}\n";

MT_TEST(script_parses_everything) {
  mt_err e = {0};
  take_script* s = script_load_text("good.lua", GOOD, &e);
  CHECK_MSG(s, "%s", e.msg);
  CHECK(strcmp(s->rig, "sport1000") == 0 && strcmp(s->track, "straight") == 0);
  CHECK_NEAR(s->duration, 10, 0);
  CHECK(s->noverride == 1 && strcmp(s->overrides[0], "rear_shock.k=60000") == 0);
  CHECK_NEAR(s->start_station, 50, 0);
  CHECK(s->start_gear == 3);
  CHECK(s->line_kind == SCRIPT_LINE_OFFSET);
  CHECK_NEAR(s->line_offset, 1.5, 0);
  CHECK_NEAR(script_target_speed(s, 0, 5), 25, 1e-12);
  CHECK(s->ninput == 3 && s->nevent == 2);
  script_free(s);
}

MT_TEST(script_inputs_overlay) {
  mt_err e = {0};
  take_script* s = script_load_text("good.lua", GOOD, &e);
  CHECK(s);
  double rider[IN_NKIND] = {1.0, 0.2, 0, 0, 1, 4, 0}, out[IN_NKIND];
  script_inputs_at(s, 1.0, rider, out);
  CHECK(memcmp(rider, out, sizeof out) == 0);                /* nothing active yet */
  script_inputs_at(s, 2.01, rider, out);
  CHECK_NEAR(out[IN_STEER], 41.0, 1e-12);                    /* torque pulses add to the rider's */
  script_inputs_at(s, 2.06, rider, out);
  CHECK_NEAR(out[IN_STEER], 1.0, 1e-12);                     /* ... and let go after the hold */
  script_inputs_at(s, 3.25, rider, out);
  CHECK_NEAR(out[IN_THROTTLE], 0.2 + 0.5 * 0.8, 1e-12);      /* halfway up the ramp */
  script_inputs_at(s, 6, rider, out);
  CHECK_NEAR(out[IN_THROTTLE], 1.0, 1e-12);
  CHECK_NEAR(out[IN_GEAR], 2, 0);
  script_free(s);
}

MT_TEST(script_events_fire_once) {
  mt_err e = {0};
  take_script* s = script_load_text("good.lua", GOOD, &e);
  CHECK(s);
  const char* names[] = {"time", "speed"};
  unsigned char fired[SCRIPT_MAX_EVENTS] = {0};
  double v1[] = {1, 20}, v2[] = {1.5, 26}, v3[] = {8.5, 26};
  CHECK(script_next_event(s, 0, names, v1, 2, 1, fired, &e) == -1);
  CHECK(script_next_event(s, 0, names, v2, 2, 1.5, fired, &e) == 0);
  CHECK(strcmp(s->event[0].mark, "fast") == 0);
  CHECK(script_next_event(s, 0, names, v2, 2, 1.5, fired, &e) == -1);   /* once */
  CHECK(script_next_event(s, 0, names, v3, 2, 8.5, fired, &e) == 1);
  CHECK(strcmp(s->event[1].stop, "done") == 0);
  script_free(s);
}

static void bad(const char* src, const char* want, const char* line) {
  mt_err e = {0};
  take_script* s = script_load_text("bad.lua", src, &e);
  if (s) script_free(s);
  (void)line;
  CHECK_MSG(s == NULL && strstr(e.msg, want), "wanted '%s' in '%s'", want, e.msg);
}

MT_TEST(script_bad_input_located) {
  bad("return { rig = 'a', track = 'b' }", "bad.lua:1: field 'duration': missing", NULL);
  if (mt_test_failed) return;
  bad("return { rig = 'a', track = 'b', duration = -1 }", "field 'duration': must be within", NULL);
  if (mt_test_failed) return;
  bad("return { rig = 'a', track = 'b', duration = 5,\n inputs = { { at = 1, throttle = 2 } } }",
      "bad.lua:2: input 1: field 'throttle': must be within [0, 1], got 2", NULL);
  if (mt_test_failed) return;
  bad("return { rig = 'a', track = 'b', duration = 5,\n events = {\n { at = 1 } } }",
      "bad.lua:3: event 1: an event needs an action", NULL);
  if (mt_test_failed) return;
  bad("return { rig = 'a', track = 'b', duration = 5, rider = { line = 'wiggly' } }",
      "rider: field 'line': expected \"racing\", \"centre\" or an offset", NULL);
  if (mt_test_failed) return;
  bad("return { rig = 'a', track = 'b', duration = 5, start = { speed = 'fast' } }",
      "start: field 'speed': expected a number, got string", NULL);
}

/* A misspelt optional field changes the ride if it passes silently (a `previw` rides the default
 * preview): every table of a script refuses a field it does not know, with its line. */
MT_TEST(script_misspelt_fields_refused_in_every_table) {
  static const char* const cases[][2] = {
      {"return { rig = 'a', track = 'b', duration = 5,\n overides = {} }", "bad.lua:2: field 'overides': unknown field"},
      {"return { rig = 'a', track = 'b', duration = 5,\n start = { staton = 5 } }", "bad.lua:2: start: field 'staton': unknown field"},
      {"return { rig = 'a', track = 'b', duration = 5,\n rider = { previw = 0.3 } }", "bad.lua:2: rider: field 'previw': unknown field"},
      {"return { rig = 'a', track = 'b', duration = 5,\n rider = { speed = { by = 'time', pionts = {} } } }",
       "bad.lua:2: rider speed: field 'pionts': unknown field"},
      {"return { rig = 'a', track = 'b', duration = 5,\n inputs = { { at = 1, throttle = 1, hodl = 1 } } }",
       "bad.lua:2: input 1: field 'hodl': unknown field"},
      {"return { rig = 'a', track = 'b', duration = 5,\n events = { { at = 1, mrk = 'x' } } }", "bad.lua:2: event 1: field 'mrk': unknown field"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    bad(cases[i][0], cases[i][1], NULL);
    if (mt_test_failed) return;
  }
}

MT_TEST(script_condition_that_loops_is_an_error) {
  const char* src = "return { rig = 'a', track = 'b', duration = 5,\n"
                    " events = { { when = function(c) while true do end end, mark = 'x' } } }";
  mt_err e = {0};
  take_script* s = script_load_text("loop.lua", src, &e);
  CHECK_MSG(s, "%s", e.msg);
  const char* names[] = {"time"};
  double v[] = {0};
  unsigned char fired[SCRIPT_MAX_EVENTS] = {0};
  CHECK(script_next_event(s, 0, names, v, 1, 0, fired, &e) == -2);
  CHECK_MSG(strstr(e.msg, "loop.lua:2:") && strstr(e.msg, "did not finish"), "%s", e.msg);
  script_free(s);
}

MT_TEST(script_when_channel_view_reads_each_steps_values_lists_them_and_is_read_only) {
  /* The condition's argument is a view over the caller's array (issue 18: no per-step table
   * refill): a value changed in the array is what the next call reads, pairs(c) gives every
   * channel in order with its value, an unknown name is nil, and assigning is an error. */
  mt_err e = {0};
  take_script* s = script_load_text("view.lua",
      "local keep\n"
      "return { rig = 'sport1000', track = 'straight', duration = 1,\n"
      "  events = { { when = function(c)\n"
      "      keep = keep or c\n"
      "      local names = ''\n"
      "      for k, v in pairs(c) do names = names .. k .. '=' .. v .. ';' end\n"
      "      return keep == c and c.nosuch == nil and c.speed > 25 and names == 'time=1.5;speed=26.0;lap=2.0;'\n"
      "    end, mark = 'seen' },\n"
      "    { when = function(c) c.speed = 1 end, mark = 'never' } } }\n", &e);
  CHECK_MSG(s != NULL, "%s", e.msg);
  if (!s) return;
  const char* names[] = {"time", "speed", "lap"};
  unsigned char fired[SCRIPT_MAX_EVENTS] = {0};
  double vals[] = {1, 20, 2};
  fired[1] = 1;   /* the assigning condition: later */
  CHECK(script_next_event(s, 0, names, vals, 3, 1, fired, &e) == -1);
  vals[0] = 1.5;   /* the same array, new values: read by the next call */
  vals[1] = 26;
  CHECK_MSG(script_next_event(s, 0, names, vals, 3, 1.5, fired, &e) == 0, "%s", e.msg);
  fired[1] = 0;
  CHECK(script_next_event(s, 0, names, vals, 3, 1.5, fired, &e) == -2);
  CHECK_MSG(strstr(e.msg, "view.lua:9:") && strstr(e.msg, "read-only (assigning 'speed')"), "%s", e.msg);
  script_free(s);
}

/* the step at which the first event fires when the script is stepped at 1 ms with c.time = step/1000 */
static long fire_step(take_script* s, int* which) {
  const char* names[] = {"time"};
  unsigned char fired[SCRIPT_MAX_EVENTS] = {0};
  mt_err e = {0};
  for (long i = 0; i < 2000; i++) {
    double v[] = {i / 1000.0};
    int k = script_next_event(s, i, names, v, 1, v[0], fired, &e);
    if (k >= 0) {
      *which = k;
      return i;
    }
    if (k == -2) return -2;
  }
  return -1;
}

MT_TEST(script_events_rate_evaluates_conditions_on_whole_periods_from_the_start) {
  /* issue 18 point 2: events_rate = 50 evaluates `when` conditions every 20 steps of 1 ms (steps
   * 0, 20, 40, ...): c.time >= 0.503 fires at step 520, not 503; an event's own `every` overrides
   * the script's rate; `at` events are still checked every step; without the field, every step. */
  const char* fmt = "return { rig = 'a', track = 'b', duration = 5,%s\n"
                    "  events = { { when = function(c) return c.time >= 0.503 end,%s mark = 'x' } } }";
  struct { const char *top, *ev; long want; } cases[] = {
      {"", "", 503}, {" events_rate = 50,", "", 520}, {" events_rate = 50,", " every = 0.1,", 600},
      {"", " every = 0.25,", 750}, {" events_rate = 300,", "", 504}, {" events_rate = 1000,", "", 503},
      {" events_rate = 1e-300,", "", -1}};   /* a period beyond any take: evaluated at step 0 only */
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    char src[512];
    snprintf(src, sizeof src, fmt, cases[c].top, cases[c].ev);
    mt_err e = {0};
    take_script* s = script_load_text("rate.lua", src, &e);
    CHECK_MSG(s, "%s", e.msg);
    if (!s) return;
    CHECK_MSG(script_events_resolve(s, 0.001, &e) == MT_OK, "%s", e.msg);
    int k = -1;
    long got = fire_step(s, &k);
    CHECK_MSG(got == cases[c].want && (cases[c].want < 0 || k == 0), "case %zu ('%s' '%s'): fired at step %ld, wanted %ld", c, cases[c].top,
              cases[c].ev, got, cases[c].want);
    script_free(s);
  }
  mt_err e = {0};
  take_script* s = script_load_text("at.lua", "return { rig = 'a', track = 'b', duration = 5, events_rate = 50,\n"
                                              "  events = { { at = 0.503, mark = 'x' } } }", &e);
  CHECK_MSG(s, "%s", e.msg);
  if (!s) return;
  CHECK(script_events_resolve(s, 0.001, &e) == MT_OK);
  int k = -1;
  CHECK(fire_step(s, &k) == 503);
  script_free(s);
}

static void bad_resolve(const char* src, double dt, const char* want) {
  mt_err e = {0};
  take_script* s = script_load_text("bad.lua", src, &e);
  if (!s) {
    snprintf(mt_test_msg, sizeof mt_test_msg, "load failed: %s", e.msg);
    mt_test_failed = 1;
    return;
  }
  int rc = script_events_resolve(s, dt, &e);
  script_free(s);
  CHECK_MSG(rc == MT_EINPUT && strstr(e.msg, want), "wanted '%s' in '%s'", want, e.msg);
}

MT_TEST(script_events_rate_bad_values_located) {
  bad("return { rig = 'a', track = 'b', duration = 5,\n events_rate = 0 }",
      "bad.lua:2: field 'events_rate': must be a rate > 0 Hz", NULL);
  if (mt_test_failed) return;
  bad("return { rig = 'a', track = 'b', duration = 5,\n events_rate = 'fast' }",
      "bad.lua:2: field 'events_rate': expected a number, got string", NULL);
  if (mt_test_failed) return;
  bad("return { rig = 'a', track = 'b', duration = 5, events = {\n { when = function(c) return true end,\n every = -0.01, mark = 'x' } } }",
      "bad.lua:3: event 1: field 'every': must be a period > 0 s", NULL);
  if (mt_test_failed) return;
  bad("return { rig = 'a', track = 'b', duration = 5, events = {\n { at = 1, every = 0.01, mark = 'x' } } }",
      "bad.lua:2: event 1: field 'every': applies to a `when` condition", NULL);
  if (mt_test_failed) return;
  bad_resolve("return { rig = 'a', track = 'b', duration = 5,\n\n events_rate = 2000 }", 0.001,
              "bad.lua:3: field 'events_rate': 2000 Hz is faster than the rig's steps (0.001 s, 1000 Hz)");
  if (mt_test_failed) return;
  bad_resolve("return { rig = 'a', track = 'b', duration = 5, events = {\n { when = function(c) return true end,\n"
              " mark = 'x',\n every = 0.0005 } } }", 0.001,
              "bad.lua:4: event 1: field 'every': 0.0005 s is shorter than the rig's step (0.001 s)");
}
