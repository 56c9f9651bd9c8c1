/* test_when_fast.c — `when` conditions compiled to C (takes/script.c, issue 18): a condition
 * whose source is exactly `function(c) return c.NAME OP NUMBER end` is evaluated as a C
 * comparison, and only when every condition of the script is; each test holds that shortcut to
 * the Lua call it replaces (script_when_fast_enabled = 0), event for event. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "takes/script.h"
#include "tests/unit/test.h"

/* the conditions, one event each (all compilable) */
static const char* CONDS[] = {
    "c.lap >= 1",   "c.lap >= 2",       "c.speed > 25",  "c.pitch < -35",    "c.rear == 0",
    "c.x ~= 1.5",   "c.x <= 2.5e1",     "c.x >= 1e-3",   "c.x == -0",        "c.x > 9007199254740992",
    "c.x < -1.25E+2", "c.x == -0.0",   "c.speed >= 25.000000000000004", "c.x ~= 0", "c.pitch <= -35",
};
#define NCOND (int)(sizeof CONDS / sizeof CONDS[0])

/* names: x twice (the view reads the last of a name) */
static const char* NAMES[] = {"time", "lap", "x", "speed", "pitch", "rear", "x"};
#define NNAME 7

static take_script* load_conds(int fast, const char* const* conds, int n, char* buf, size_t bn) {
  int o = snprintf(buf, bn, "return {\n  rig = 'sport1000', track = 'straight', duration = 10,\n  events = {\n");
  for (int i = 0; i < n; i++)
    o += snprintf(buf + o, bn - o, "    { when = function(c) return %s end, mark = 'e%d' },\n", conds[i], i);
  snprintf(buf + o, bn - o, "  },\n}\n");
  int was = script_when_fast_enabled;
  script_when_fast_enabled = fast;
  mt_err e = {0};
  take_script* s = script_load_text("conds.lua", buf, &e);
  script_when_fast_enabled = was;
  return s;
}

/* every event that fires on these values (fired cleared first): a bit each; -2 on an error */
static long fire_all(take_script* s, int fast, const double* v, int nv) {
  unsigned char fired[SCRIPT_MAX_EVENTS] = {0};
  long bits = 0;
  mt_err e = {0};
  int was = script_when_fast_enabled;
  script_when_fast_enabled = fast;
  for (int g = 0; g < SCRIPT_MAX_EVENTS; g++) {
    int k = script_next_event(s, 0, NAMES, v, nv, v[0], fired, &e);
    if (k == -2) {
      bits = -2;
      break;
    }
    if (k < 0) break;
    bits |= 1L << k;
  }
  script_when_fast_enabled = was;
  return bits;
}

MT_TEST(when_fast_matches_lua_conditions) {
  static char b1[8192], b2[8192];
  take_script* f = load_conds(1, CONDS, NCOND, b1, sizeof b1);
  take_script* l = load_conds(0, CONDS, NCOND, b2, sizeof b2);
  CHECK(f && l);
  if (!f || !l) return;
  const double probe[] = {0.0, -0.0, 1.0, 2.0, 1.5, 25.0, nextafter(25.0, 30), 25.000000000000004, -35.0,
                          nextafter(-35.0, 0), nextafter(-35.0, -40), 1e-3, nextafter(1e-3, 0), 9007199254740992.0,
                          9007199254740994.0, -125.0, nextafter(-125.0, 0), 0.999999, 1e300, -1e300, NAN, INFINITY,
                          -INFINITY, 5e-324};
  const int np = (int)(sizeof probe / sizeof probe[0]);
  int n = 0, diff = 0, any = 0;
  for (int a = 0; a < np; a++)
    for (int b = 0; b < np; b += 3) {   /* each channel sweeps the probes, against others */
      double v[NNAME];
      for (int k = 0; k < NNAME; k++) v[k] = probe[(a + k * b) % np];
      long bf = fire_all(f, 1, v, NNAME), bl = fire_all(l, 0, v, NNAME);
      if (bf != bl && !diff++)
        snprintf(mt_test_msg, sizeof mt_test_msg, "values %d/%d: C fired %lx, Lua %lx", a, b, (unsigned long)bf,
                 (unsigned long)bl);
      any |= bf != 0;
      n++;
    }
  CHECK(f->when_fast == 1 && l->when_fast == 0);   /* the comparison is not vacuous */
  for (int i = 0; i < NCOND; i++) CHECK(f->event[i].fast_op != SCRIPT_OP_NONE);
  CHECK(f->event[2].fast_k == 3 && f->event[5].fast_k == 6);   /* speed; the last "x" */
  CHECK(diff == 0);
  CHECK(any && n > 100);
  script_free(f);
  script_free(l);
}

/* The shipped scripts' conditions: laguna_lap's, wheelie's second and stoppie's first. */
MT_TEST(when_fast_shipped_conditions) {
  static const char* C[] = {"c.lap >= 1", "c.lap >= 2", "c.pitch < -35", "c.rear == 0"};
  static char b1[4096], b2[4096];
  take_script* f = load_conds(1, C, 4, b1, sizeof b1);
  take_script* l = load_conds(0, C, 4, b2, sizeof b2);
  CHECK(f && l);
  if (!f || !l) return;
  int diff = 0;
  for (int i = 0; i < 4000; i++) {   /* a ramp through every threshold */
    double v[NNAME] = {i * 1e-3, floor(i / 1000.0), 0, 0, -40 + i * 1e-2, (double)(i % 2), 0};
    diff += fire_all(f, 1, v, NNAME) != fire_all(l, 0, v, NNAME);
  }
  CHECK(f->when_fast && diff == 0);
  script_free(f);
  script_free(l);
}

MT_TEST(when_fast_match_accepts_and_refuses) {
  mt_err e = {0};
  take_script* s = script_load_text("g.lua", "return { rig = 'sport1000', track = 'straight', duration = 1 }\n", &e);
  CHECK(s);
  if (!s) return;
  struct { const char* line; int ok; const char* name; int op; double val; } T[] = {
      {"    { when = function(c) return c.lap >= 1 end, mark = 'x' },", 1, "lap", SCRIPT_OP_GE, 1},
      {"function (ch) return ch . speed>25 end", 1, "speed", SCRIPT_OP_GT, 25},
      {"{when=function(c)\treturn c.pitch < -35 end}", 1, "pitch", SCRIPT_OP_LT, -35},
      {"function(c) return c.x ~= 2.5e-1 end -- a function", 0, "", 0, 0},       /* "function" twice */
      {"function(c) return c.x ~= 2.5e-1 end, f = function(c) end", 0, "", 0, 0},
      {"function(c) return c.lap >= 1 and c.x > 0 end", 0, "", 0, 0},
      {"function(c) return d.lap >= 1 end", 0, "", 0, 0},
      {"function(c) return c.lap >= k end", 0, "", 0, 0},
      {"function(c) return c.lap >= 0x10 end", 0, "", 0, 0},
      {"function(c) return c.lap >= 1end", 0, "", 0, 0},
      {"function(c) return c.lap >= 1 endx", 0, "", 0, 0},
      {"function(c) return c.lap >= - 1 end", 0, "", 0, 0},
      {"function(c) return c.lap >= 1; end", 0, "", 0, 0},
      {"function(c) return c.lap >= 1 .. '' end", 0, "", 0, 0},
      {"function(c) return c.lap >= 9007199254740993 end", 0, "", 0, 0},   /* beyond 2^53 */
      {"function(c, d) return c.lap >= 1 end", 0, "", 0, 0},
      {"function(c) return c.lap >= 1e end", 0, "", 0, 0},
      {"function(c) return c.lap => 1 end", 0, "", 0, 0},
      {"myfunction(c) return c.lap >= 1 end", 0, "", 0, 0},
      {"function(c) return c.lap == 1.5", 0, "", 0, 0},
  };
  for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
    char name[64] = "";
    int op = 0;
    double val = 0;
    int m = script_when_match(s->L, T[i].line, strlen(T[i].line), name, &op, &val);
    CHECK_MSG(m == T[i].ok, "%s: %d", T[i].line, m);
    if (m && T[i].ok) CHECK_MSG(!strcmp(name, T[i].name) && op == T[i].op && val == T[i].val, "%s", T[i].line);
  }
  script_free(s);
}

/* What stays in Lua: a script with any condition not of the form, over several lines, from a
 * string chunk or on an unknown channel has no C condition at all, and behaves as before. */
MT_TEST(when_fast_only_when_every_condition_compiles) {
  static const char* SRC[] = {
      /* one condition of another form: both stay in Lua */
      "return { rig='sport1000', track='straight', duration=1, events = {\n"
      "  { when = function(c) return c.lap >= 1 end, mark = 'a' },\n"
      "  { when = function(c) return c.time > 1.5 and c.lap == 0 end, mark = 'b' } } }\n",
      /* over two lines */
      "return { rig='sport1000', track='straight', duration=1, events = {\n"
      "  { when = function(c)\n return c.lap >= 1 end, mark = 'a' } } }\n",
      /* made by load: another chunk, whose line 1 is not the script's line 1 (which matches) */
      "local t = 'function(c) return c.lap >= 1 end' return { rig='sport1000', track='straight', duration=1, "
      "events = { { when = load('return fu'..'nction(c) return not (c.lap >= 1) end')(), mark = 'a' } } }\n",
      /* not a channel: Lua raises the comparison's error */
      "return { rig='sport1000', track='straight', duration=1, events = {\n"
      "  { when = function(c) return c.nosuch >= 1 end, mark = 'a' } } }\n",
  };
  for (int i = 0; i < 4; i++) {
    mt_err e = {0};
    take_script* s = script_load_text("k.lua", SRC[i], &e);
    CHECK_MSG(s, "%d: %s", i, e.msg);
    if (!s) continue;
    double v[NNAME] = {2, 1, 0, 0, 0, 0, 0};
    long b = fire_all(s, 1, v, NNAME);
    CHECK_MSG(s->when_compiled && !s->when_fast, "%d", i);
    for (int k = 0; k < s->nevent; k++) CHECK(s->event[k].fast_op == SCRIPT_OP_NONE);
    CHECK_MSG(b == (i == 3 ? -2 : i == 2 ? 0 : 1), "%d: %ld", i, b);
    script_free(s);
  }
}

/* A lazily sampled channel (script_channel_source) is made current before the C condition
 * reads it, as before the Lua condition's read: the same fills. */
static int g_fills;
static void count_fill(void* data) {
  (void)data;
  g_fills++;
}

MT_TEST(when_fast_fills_lazy_channels) {
  static const char* C[] = {"c.pitch < -35", "c.lap >= 2"};
  static char b1[4096], b2[4096];
  unsigned char lazy[NNAME] = {0, 0, 0, 0, 1, 0, 0};   /* pitch sampled on demand */
  int fills[2] = {0, 0};
  long fb[2] = {0, 0};
  for (int fast = 0; fast < 2; fast++) {
    take_script* s = load_conds(fast, C, 2, fast ? b1 : b2, sizeof b1);
    CHECK(s);
    if (!s) return;
    script_channel_source(s, lazy, count_fill, NULL);
    g_fills = 0;
    for (int i = 0; i < 50; i++) {
      double v[NNAME] = {i * 1e-3, i / 20.0, 0, 0, -30 - i * 0.2, 0, 0};
      fb[fast] = fb[fast] * 3 + fire_all(s, fast, v, NNAME);
    }
    fills[fast] = g_fills;
    CHECK(s->when_fast == fast);
    script_free(s);
  }
  CHECK_MSG(fills[0] == fills[1] && fills[1] > 0, "fills: Lua %d, C %d", fills[0], fills[1]);
  CHECK(fb[0] == fb[1]);
}
