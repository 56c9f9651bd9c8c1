/* script.c — reading take scripts (see script.h). */
#include "takes/script.h"
#include "takes/practice.h"

#include <lauxlib.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/luabox.h"
#include "sim/stunt.h"

static const char* const INPUT_NAMES[IN_NKIND] = {"steer_torque", "throttle", "front_brake", "rear_brake",
                                                  "clutch", "gear", "rider_lean_torque"};

int script_input_kind(const char* name) {
  for (int k = 0; k < IN_NKIND; k++)
    if (strcmp(INPUT_NAMES[k], name) == 0) return k;
  return -1;
}

static int read_points(lua_State* L, const lb_scope* s, take_script* ts, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, s, "points", 0, 1, &pushed, e)) return MT_EINPUT;
  int n = (int)luaL_len(L, -1);
  if (n < 1 || n > SCRIPT_MAX_POINTS) {
    lua_pop(L, 1);
    return lb_fail(s, "points", 0, e, "needs 1 to %d {x, speed} points, got %d", SCRIPT_MAX_POINTS, n);
  }
  lb_scope ps = lb_enter(s, "points", 0, s->label);
  for (int i = 0; i < n; i++) {
    int p2;
    if (lb_table(L, -1, &ps, NULL, i + 1, 1, &p2, e)) {
      lua_pop(L, 1);
      return MT_EINPUT;
    }
    lb_scope es = lb_enter(&ps, NULL, i + 1, s->label);
    int rc = lb_num(L, -1, &es, NULL, 1, 1, 0, &ts->pt_x[i], e) || lb_num(L, -1, &es, NULL, 2, 1, 0, &ts->pt_v[i], e);
    lua_pop(L, 1);
    if (!rc && ts->pt_v[i] < 0) rc = lb_fail(&ps, NULL, i + 1, e, "speed must be >= 0, got %g", ts->pt_v[i]);
    if (!rc && i > 0 && !(ts->pt_x[i] > ts->pt_x[i - 1])) rc = lb_fail(&ps, NULL, i + 1, e, "positions must increase");
    if (rc) {
      lua_pop(L, 1);
      return MT_EINPUT;
    }
  }
  ts->npoints = n;
  lua_pop(L, 1);
  return MT_OK;
}

static int read_rider(lua_State* L, const lb_scope* top, take_script* ts, mt_err* e) {
  lua_getfield(L, -1, "rider");
  if (lua_isnil(L, -1) || (lua_isboolean(L, -1) && !lua_toboolean(L, -1))) {
    lua_pop(L, 1);
    ts->has_rider = 0;
    return MT_OK;
  }
  lua_pop(L, 1);
  int pushed;
  if (lb_table(L, -1, top, "rider", 0, 1, &pushed, e)) return MT_EINPUT;
  ts->has_rider = 1;
  lb_scope s = lb_enter(top, "rider", 0, "rider");
  static const char* const known[] = {"line", "preview", "preview_span", "lateral", "grip", "auto_gear", "posture", "steer",
                                      "top_speed", "margin", "profile", "stunt", "pitch", "speed", "practice", NULL};
  int rc = lb_check_keys(L, -1, &s, known, e);
  /* line */
  lua_getfield(L, -1, "line");
  if (lua_isnil(L, -1)) {
    ts->line_kind = SCRIPT_LINE_CENTRE;
  } else if (lua_type(L, -1) == LUA_TNUMBER) {
    ts->line_kind = SCRIPT_LINE_OFFSET;
    ts->line_offset = lua_tonumber(L, -1);
    if (!isfinite(ts->line_offset)) rc = lb_fail(&s, "line", 0, e, "offset must be finite");
  } else if (lua_type(L, -1) == LUA_TSTRING) {
    const char* l = lua_tostring(L, -1);
    if (strcmp(l, "centre") == 0 || strcmp(l, "center") == 0) ts->line_kind = SCRIPT_LINE_CENTRE;
    else if (strcmp(l, "racing") == 0) ts->line_kind = SCRIPT_LINE_RACING;
    else rc = lb_fail(&s, "line", 0, e, "expected \"racing\", \"centre\" or an offset in metres, got \"%s\"", l);
  } else {
    rc = lb_fail(&s, "line", 0, e, "expected \"racing\", \"centre\" or an offset in metres, got %s", luaL_typename(L, -1));
  }
  lua_pop(L, 1);
  if (!rc) rc = lb_num(L, -1, &s, "preview", 0, 0, 0.6, &ts->preview, e);
  if (!rc && !(ts->preview >= 0 && ts->preview <= 5)) rc = lb_fail(&s, "preview", 0, e, "must be within [0, 5] s, got %g", ts->preview);
  if (!rc) rc = lb_num(L, -1, &s, "preview_span", 0, 0, 0, &ts->preview_span, e);
  if (!rc && !(ts->preview_span >= 0 && ts->preview_span <= 2)) rc = lb_fail(&s, "preview_span", 0, e, "must be within [0, 2] s, got %g", ts->preview_span);
  if (!rc) rc = lb_num(L, -1, &s, "lateral", 0, 0, 0.5, &ts->lateral, e);
  if (!rc && !(ts->lateral > 0 && ts->lateral <= 5)) rc = lb_fail(&s, "lateral", 0, e, "must be within (0, 5] rad/s, got %g", ts->lateral);
  if (!rc) rc = lb_num(L, -1, &s, "grip", 0, 0, 0.9, &ts->grip, e);
  if (!rc && !(ts->grip > 0.1 && ts->grip <= 1.5)) rc = lb_fail(&s, "grip", 0, e, "must be within (0.1, 1.5], got %g", ts->grip);
  if (!rc) rc = lb_bool(L, -1, &s, "auto_gear", 0, 1, &ts->auto_gear, e);
  if (!rc) rc = lb_bool(L, -1, &s, "posture", 0, 1, &ts->posture, e);   /* false: the rider sits still (sim/posture.h) */
  const char* sk;
  if (!rc) rc = lb_str(L, -1, &s, "steer", 0, "gains", &sk, e);
  if (!rc) {
    if (!strcmp(sk, "lqr")) ts->steer_lqr = 1;
    else if (strcmp(sk, "gains")) rc = lb_fail(&s, "steer", 0, e, "expected \"gains\" or \"lqr\", got \"%s\"", sk);
  }
  if (!rc) rc = lb_num(L, -1, &s, "top_speed", 0, 0, 45, &ts->top_speed, e);
  if (!rc) rc = lb_num(L, -1, &s, "margin", 0, 0, 2.5, &ts->margin, e);
  if (!rc && !(ts->margin >= 0 && ts->margin < 20)) rc = lb_fail(&s, "margin", 0, e, "must be within [0, 20) m");
  if (!rc && !(ts->top_speed > 0 && ts->top_speed < 120)) rc = lb_fail(&s, "top_speed", 0, e, "must be within (0, 120) m/s");
  const char* prof;
  if (!rc) rc = lb_str(L, -1, &s, "profile", 0, "cautious", &prof, e);
  if (!rc) {
    if (!strcmp(prof, "race")) {
      ts->race = 1;
      lb_key k[2] = {{"rider", 0}, {"profile", 0}};
      ts->race_line = s.src ? lb_line(s.src, k, 2) : 0;
    }
    else if (strcmp(prof, "cautious")) rc = lb_fail(&s, "profile", 0, e, "expected \"cautious\" or \"race\", got \"%s\"", prof);
  }
  if (!rc && ts->race) {   /* the race profile has no speed cap: a top_speed beside it is a mistake */
    int ty = lua_getfield(L, -1, "top_speed");
    lua_pop(L, 1);
    if (ty != LUA_TNIL) rc = lb_fail(&s, "top_speed", 0, e, "not with profile = \"race\" (the race profile has no speed cap)");
  }
  /* practice: dry laps before the take that learn the fast corners' speeds (takes/practice.h) */
  double np = 0;
  if (!rc) rc = lb_num(L, -1, &s, "practice", 0, 0, 0, &np, e);
  if (!rc && !(np >= 0 && np <= PRACTICE_MAX_LAPS && np == floor(np)))
    rc = lb_fail(&s, "practice", 0, e, "must be a whole number of laps within [0, %d], got %g", PRACTICE_MAX_LAPS, np);
  if (!rc && np > 0 && !ts->race) rc = lb_fail(&s, "practice", 0, e, "only with profile = \"race\" (it learns the race profile's corner speeds)");
  if (!rc) ts->practice = (int)np;
  /* stunt: a balance loop from the start (sim/stunt.h) */
  const char* st;
  if (!rc) rc = lb_str(L, -1, &s, "stunt", 0, "none", &st, e);
  if (!rc && (ts->stunt = stunt_kind(st)) < 0) rc = lb_fail(&s, "stunt", 0, e, "expected \"wheelie\", \"stoppie\" or \"none\", got \"%s\"", st);
  if (!rc) rc = lb_num(L, -1, &s, "pitch", 0, 0, NAN, &ts->stunt_pitch, e);
  if (!rc && !isnan(ts->stunt_pitch)) ts->stunt_pitch *= MT_PI / 180;
  if (!rc && ts->stunt != STUNT_NONE) {
    stunt_state tmp;
    mt_err e2 = {0};
    if (stunt_start(&tmp, ts->stunt, isnan(ts->stunt_pitch) ? stunt_default_pitch(ts->stunt) : ts->stunt_pitch, &e2))
      rc = lb_fail(&s, "pitch", 0, e, "%s", e2.msg);
  } else if (!rc && !isnan(ts->stunt_pitch) && !(fabs(ts->stunt_pitch) < 60 * MT_PI / 180 && ts->stunt_pitch != 0)) {
    rc = lb_fail(&s, "pitch", 0, e, "must be within (-60, 60) degrees and not 0");
  }
  /* speed */
  if (!rc) {
    int ty = lua_getfield(L, -1, "speed");
    if (ty == LUA_TNUMBER) {
      ts->speed_kind = SCRIPT_SPEED_CONST;
      ts->speed_const = lua_tonumber(L, -1);
      if (!(ts->speed_const >= 0 && ts->speed_const < 120)) rc = lb_fail(&s, "speed", 0, e, "must be within [0, 120) m/s");
      lua_pop(L, 1);
    } else if (ty == LUA_TSTRING && strcmp(lua_tostring(L, -1), "auto") == 0) {
      ts->speed_kind = SCRIPT_SPEED_AUTO;
      lua_pop(L, 1);
    } else if (ty == LUA_TTABLE) {
      lb_scope ss = lb_enter(&s, "speed", 0, "rider speed");
      static const char* const known_speed[] = {"by", "points", NULL};
      const char* by;
      rc = lb_check_keys(L, -1, &ss, known_speed, e) || lb_str(L, -1, &ss, "by", 1, NULL, &by, e);
      if (!rc) {
        if (strcmp(by, "station") == 0) ts->speed_kind = SCRIPT_SPEED_STATION;
        else if (strcmp(by, "time") == 0) ts->speed_kind = SCRIPT_SPEED_TIME;
        else rc = lb_fail(&ss, "by", 0, e, "expected \"station\" or \"time\", got \"%s\"", by);
      }
      if (!rc) rc = read_points(L, &ss, ts, e);
      lua_pop(L, 1);
    } else if (ty == LUA_TNIL) {
      ts->speed_kind = SCRIPT_SPEED_AUTO;
      lua_pop(L, 1);
    } else {
      lua_pop(L, 1);
      rc = lb_fail(&s, "speed", 0, e, "expected a number, \"auto\" or {by = ..., points = ...}");
    }
  }
  lua_pop(L, 1);
  return rc;
}

static int read_inputs(lua_State* L, const lb_scope* top, take_script* ts, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, top, "inputs", 0, 0, &pushed, e)) return MT_EINPUT;
  if (!pushed) return MT_OK;
  int n = (int)luaL_len(L, -1);
  if (n > SCRIPT_MAX_INPUTS) {
    lua_pop(L, 1);
    return lb_fail(top, "inputs", 0, e, "at most %d inputs", SCRIPT_MAX_INPUTS);
  }
  lb_scope ls = lb_enter(top, "inputs", 0, NULL);
  for (int i = 0; i < n; i++) {
    static char lab[SCRIPT_MAX_INPUTS][32];
    snprintf(lab[i], sizeof lab[i], "input %d", i + 1);
    int p2;
    if (lb_table(L, -1, &ls, NULL, i + 1, 1, &p2, e)) {
      lua_pop(L, 1);
      return MT_EINPUT;
    }
    lb_scope s = lb_enter(&ls, NULL, i + 1, lab[i]);
    script_input* in = &ts->input[i];
    const char* known[IN_NKIND + 4] = {"at", "ramp", "hold"};   /* and the inputs' own names */
    for (int k = 0; k < IN_NKIND; k++) known[3 + k] = INPUT_NAMES[k];
    int rc = lb_check_keys(L, -1, &s, known, e) || lb_num(L, -1, &s, "at", 0, 1, 0, &in->at, e) ||
             lb_num(L, -1, &s, "ramp", 0, 0, 0, &in->ramp, e) || lb_num(L, -1, &s, "hold", 0, 0, 0, &in->hold, e);
    if (!rc && (in->at < 0 || in->ramp < 0 || in->hold < 0)) rc = lb_fail(&s, "at", 0, e, "at, ramp and hold must be >= 0");
    int found = 0;
    for (int k = 0; k < IN_NKIND && !rc; k++) {
      lua_getfield(L, -1, INPUT_NAMES[k]);
      int present = !lua_isnil(L, -1);
      lua_pop(L, 1);
      if (!present) continue;
      if (found) {
        rc = lb_fail(&s, INPUT_NAMES[k], 0, e, "one input per entry (this one already sets %s)", INPUT_NAMES[in->kind]);
        break;
      }
      found = 1;
      in->kind = k;
      rc = lb_num(L, -1, &s, INPUT_NAMES[k], 0, 1, 0, &in->value, e);
      if (!rc && (k == IN_THROTTLE || k == IN_FRONT_BRAKE || k == IN_REAR_BRAKE || k == IN_CLUTCH) &&
          !(in->value >= 0 && in->value <= 1))
        rc = lb_fail(&s, INPUT_NAMES[k], 0, e, "must be within [0, 1], got %g", in->value);
      if (!rc && k == IN_GEAR && !(in->value >= 0 && in->value <= 6 && in->value == floor(in->value)))
        rc = lb_fail(&s, INPUT_NAMES[k], 0, e, "must be a gear 0..6, got %g", in->value);
      if (!rc && k == IN_STEER && fabs(in->value) > 500)
        rc = lb_fail(&s, INPUT_NAMES[k], 0, e, "more than 500 N·m is not a rider, got %g", in->value);
    }
    if (!rc && !found)
      rc = lb_fail(&s, NULL, 0, e, "names no input (steer_torque, throttle, front_brake, rear_brake, clutch, gear, rider_lean_torque)");
    lua_pop(L, 1);
    if (rc) {
      lua_pop(L, 1);
      return MT_EINPUT;
    }
    ts->ninput = i + 1;
  }
  lua_pop(L, 1);
  return MT_OK;
}

/* `linear = { states = {...}, inputs = {...}, outputs = {...} }`: each element a name or
 * {name, perturbation}. The table is on the stack top. */
static int read_linear(lua_State* L, const lb_scope* sc, lin_spec* out, mt_err* e) {
  static const char* const kinds[3] = {"states", "inputs", "outputs"};
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    int ok = lua_type(L, -2) == LUA_TSTRING;
    for (int k = 0; ok && k < 3; k++) ok = strcmp(lua_tostring(L, -2), kinds[k]) != 0;
    if (lua_type(L, -2) != LUA_TSTRING || ok) {
      lua_pop(L, 2);
      return lb_fail(sc, NULL, 0, e, "field 'linear': expects { states = {...}, inputs = {...}, outputs = {...} }");
    }
    lua_pop(L, 1);
  }
  for (int k = 0; k < 3; k++) {
    int pushed;
    if (lb_table(L, -1, sc, kinds[k], 0, 0, &pushed, e)) return MT_EINPUT;
    if (!pushed) continue;
    int n = (int)luaL_len(L, -1), rc = MT_OK;
    for (int i = 1; i <= n && !rc; i++) {
      int ty = lua_rawgeti(L, -1, i);
      const char* name = NULL;
      double h = 0;
      if (ty == LUA_TSTRING) {
        name = lua_tostring(L, -1);
      } else if (ty == LUA_TTABLE && k != LIN_OUTPUT) {
        lua_rawgeti(L, -1, 1);
        lua_rawgeti(L, -2, 2);
        name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        int isnum = lua_type(L, -1) == LUA_TNUMBER;
        h = isnum ? lua_tonumber(L, -1) : NAN;
        lua_pop(L, 2);
        if (name && !(isnum && isfinite(h) && h > 0)) {
          rc = lb_fail(sc, kinds[k], i, e, "the perturbation of '%s' must be a number > 0", name);
          name = NULL;
        }
      }
      if (!rc && (!name || !name[0] || strlen(name) >= sizeof(((lin_item*)0)->name)))
        rc = lb_fail(sc, kinds[k], i, e, k == LIN_OUTPUT ? "expects a channel name" : "expects a name or {name, perturbation}");
      if (!rc) lin_spec_add(out, k, name, h);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (rc) return rc;
  }
  return MT_OK;
}

/* An event's `linearise = { name = "...", loop = "open" | "closed" }` (on the stack top): the
 * keys, the name's type and the loop (ev->lin_closed); the name itself is read as the string form. */
static int read_linearise_table(lua_State* L, const lb_scope* sc, script_event* ev, mt_err* e) {
  static const char* const known[] = {"name", "loop", NULL};
  if (lb_check_keys(L, -1, sc, known, e)) return MT_EINPUT;
  const char* loop;
  if (lb_str(L, -1, sc, "loop", 0, "open", &loop, e)) return MT_EINPUT;
  if (strcmp(loop, "open") && strcmp(loop, "closed"))
    return lb_fail(sc, "loop", 0, e, "expected \"open\" (the machine alone, inputs held) or \"closed\" (the machine and "
                   "the rider's controller), got '%s'", loop);
  ev->lin_closed = !strcmp(loop, "closed");
  int ty = lua_getfield(L, -1, "name");
  lua_pop(L, 1);
  if (ty != LUA_TNIL && ty != LUA_TSTRING) return lb_fail(sc, "name", 0, e, "expected a file name for MATLAB");
  return MT_OK;
}

/* An event's `linearise`: true, "Name" (the files' name) or { name = "Name", loop = "open" |
 * "closed" } (the table's name read as the string form). The event's table on the stack top. */
static int read_linearise(lua_State* L, const lb_scope* s, const char* label, script_event* ev, mt_err* e) {
  int rc = MT_OK, lty = lua_getfield(L, -1, "linearise");
  if (lty == LUA_TTABLE) {   /* { name = "...", loop = "open" | "closed" }: read as the string form plus the loop */
    lb_scope lz = lb_enter(s, "linearise", 0, label);
    rc = read_linearise_table(L, &lz, ev, e);
    lty = lua_getfield(L, -1, "name");
    lua_remove(L, -2);
    if (rc || lty == LUA_TNIL) {   /* no name: numbered (true); an error: nothing more to read */
      lua_pop(L, 1);
      lua_pushboolean(L, !rc);
      lty = LUA_TBOOLEAN;
    }
  }
  if (lty == LUA_TSTRING) {
    const char* nm = lua_tostring(L, -1);
    /* MATLAB loads an M-file by its name as a command: a letter, then letters, digits, '_' */
    size_t len = strlen(nm), ok = len > 0 && len < sizeof ev->lin_name && isalpha((unsigned char)nm[0]);
    for (size_t q = 0; q < len && ok; q++) ok = isalnum((unsigned char)nm[q]) || nm[q] == '_';
    if (!ok) rc = lb_fail(s, "linearise", 0, e, "expected true or a file name for MATLAB: a letter, then letters, digits or '_' "
                          "(no folders, no extension), at most %zu characters", sizeof ev->lin_name - 1);
    snprintf(ev->lin_name, sizeof ev->lin_name, "%s", ok ? nm : "");
    ev->linearise = 1;
  } else if (lty == LUA_TBOOLEAN) {
    ev->linearise = lua_toboolean(L, -1);
  } else if (lty != LUA_TNIL) {
    rc = lb_fail(s, "linearise", 0, e, "expected true, a file name or { name = ..., loop = \"open\" | \"closed\" }");
  }
  lua_pop(L, 1);
  return rc;
}

static int read_events(lua_State* L, const lb_scope* top, take_script* ts, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, top, "events", 0, 0, &pushed, e)) return MT_EINPUT;
  if (!pushed) return MT_OK;
  int n = (int)luaL_len(L, -1);
  if (n > SCRIPT_MAX_EVENTS) {
    lua_pop(L, 1);
    return lb_fail(top, "events", 0, e, "at most %d events", SCRIPT_MAX_EVENTS);
  }
  lb_scope ls = lb_enter(top, "events", 0, NULL);
  for (int i = 0; i < n; i++) {
    static char lab[SCRIPT_MAX_EVENTS][32];
    snprintf(lab[i], sizeof lab[i], "event %d", i + 1);
    int p2;
    if (lb_table(L, -1, &ls, NULL, i + 1, 1, &p2, e)) {
      lua_pop(L, 1);
      return MT_EINPUT;
    }
    lb_scope s = lb_enter(&ls, NULL, i + 1, lab[i]);
    script_event* ev = &ts->event[i];
    ev->when_ref = LUA_NOREF;
    ev->at = -1;
    ev->line = lb_line(ts->source, s.path, s.depth);
    static const char* const known[] = {"when", "at", "every", "mark", "stop", "set", "linearise", "linear", NULL};
    if (lb_check_keys(L, -1, &s, known, e)) {
      lua_pop(L, 2);   /* the event and the events */
      return MT_EINPUT;
    }
    int rc = MT_OK;
    int ty = lua_getfield(L, -1, "when");
    if (ty == LUA_TFUNCTION) {
      ev->when_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    } else {
      lua_pop(L, 1);
      if (ty != LUA_TNIL) rc = lb_fail(&s, "when", 0, e, "expected a function(c) returning true when the event fires");
      if (!rc) rc = lb_num(L, -1, &s, "at", 0, 0, -1, &ev->at, e);
      if (!rc && ty == LUA_TNIL && ev->at < 0) rc = lb_fail(&s, "at", 0, e, "an event needs `when = function(c) ... end` or `at = time`");
    }
    if (!rc) rc = lb_num(L, -1, &s, "every", 0, 0, 0, &ev->every, e);
    int ety = rc ? LUA_TNIL : lua_getfield(L, -1, "every");
    if (!rc) lua_pop(L, 1);
    if (ety != LUA_TNIL) {   /* given: a period for a `when` condition */
      lb_key k[10];
      int nk = s.depth < 9 ? s.depth : 9;
      memcpy(k, s.path, sizeof(lb_key) * nk);
      k[nk++] = (lb_key){"every", 0};
      ev->every_line = lb_line(ts->source, k, nk);
      if (ev->when_ref == LUA_NOREF) rc = lb_fail(&s, "every", 0, e, "applies to a `when` condition (an `at` event is checked every step)");
      else if (!(ev->every > 0)) rc = lb_fail(&s, "every", 0, e, "must be a period > 0 s (how often the condition is evaluated), got %g", ev->every);
    }
    const char* str;
    if (!rc) rc = lb_str(L, -1, &s, "mark", 0, "", &str, e);
    if (!rc) snprintf(ev->mark, sizeof ev->mark, "%s", str);
    if (!rc) rc = lb_str(L, -1, &s, "stop", 0, "", &str, e);
    if (!rc) snprintf(ev->stop, sizeof ev->stop, "%s", str);
    if (!rc) rc = read_linearise(L, &s, lab[i], ev, e);
    int p4;
    if (!rc) rc = lb_table(L, -1, &s, "linear", 0, 0, &p4, e);
    if (!rc && p4) {
      lb_scope ls2 = lb_enter(&s, "linear", 0, lab[i]);
      ev->lin = mt_alloc(sizeof *ev->lin);
      ev->lin_line = lb_line(ts->source, ls2.path, ls2.depth);
      if (!ev->lin_line) ev->lin_line = ev->line;
      rc = read_linear(L, &ls2, ev->lin, e);
      lua_pop(L, 1);
    }
    int p3;
    if (!rc) rc = lb_table(L, -1, &s, "set", 0, 0, &p3, e);
    if (!rc && p3) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING && !strcmp(lua_tostring(L, -2), "rider.stunt")) {
          int kind = lua_type(L, -1) == LUA_TSTRING ? stunt_kind(lua_tostring(L, -1)) : -1;
          if (kind < 0 || ev->nset >= SCRIPT_MAX_SETS) {
            lua_pop(L, 2);
            rc = lb_fail(&s, "set", 0, e, kind < 0 ? "rider.stunt expects \"wheelie\", \"stoppie\" or \"none\""
                                                   : "at most %d settings per event", SCRIPT_MAX_SETS);
            break;
          }
          snprintf(ev->set_key[ev->nset], 64, "rider.stunt");
          ev->set_val[ev->nset++] = kind;
          lua_pop(L, 1);
          continue;
        }
        if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1))) {
          lua_pop(L, 2);
          rc = lb_fail(&s, "set", 0, e, "expects {[\"name\"] = number, ...}");
          break;
        }
        if (ev->nset >= SCRIPT_MAX_SETS) {
          lua_pop(L, 2);
          rc = lb_fail(&s, "set", 0, e, "at most %d settings per event", SCRIPT_MAX_SETS);
          break;
        }
        const char* key = lua_tostring(L, -2);
        int known = !strcmp(key, "rider.speed") || !strcmp(key, "rider.offset") || !strcmp(key, "rider.preview") ||
                    !strcmp(key, "rider.pitch") ||
                    (!strncmp(key, "input.", 6) && script_input_kind(key + 6) >= 0);
        if (!known) {
          lua_pop(L, 2);
          rc = lb_fail(&s, "set", 0, e, "cannot set '%s' (rider.speed, rider.offset, rider.preview, rider.stunt, rider.pitch, input.<input>)", key);
          break;
        }
        snprintf(ev->set_key[ev->nset], 64, "%s", key);
        ev->set_val[ev->nset++] = lua_tonumber(L, -1);
        lua_pop(L, 1);
      }
      if (!rc) lua_pop(L, 1);
    }
    for (int q = 0; q < ev->nset && !rc; q++) {
      if (strcmp(ev->set_key[q], "rider.pitch")) continue;
      double pr = ev->set_val[q] * MT_PI / 180;
      if (!(fabs(pr) < 60 * MT_PI / 180 && pr != 0)) rc = lb_fail(&s, "set", 0, e, "rider.pitch must be within (-60, 60) degrees and not 0");
      for (int u = 0; u < ev->nset && !rc; u++) {
        if (strcmp(ev->set_key[u], "rider.stunt") || ev->set_val[u] == STUNT_NONE) continue;
        stunt_state tmp;
        mt_err e2 = {0};
        if (stunt_start(&tmp, (int)ev->set_val[u], pr, &e2)) rc = lb_fail(&s, "set", 0, e, "%s", e2.msg);
      }
    }
    if (!rc && !ev->mark[0] && !ev->stop[0] && !ev->nset && !ev->linearise && !ev->lin)
      rc = lb_fail(&s, NULL, 0, e, "an event needs an action: mark, stop, set, linear or linearise");
    lua_pop(L, 1);
    if (rc) {
      lua_pop(L, 1);
      return MT_EINPUT;
    }
    ts->nevent = i + 1;
  }
  lua_pop(L, 1);
  return MT_OK;
}

static take_script* load_common(lua_State* L, take_script* ts, mt_err* e) {
  lb_scope top = {.file = ts->path, .src = ts->source};
  if (!lua_istable(L, -1)) {
    mt_fail(e, MT_EINPUT, "%s: a take script must return a table", ts->path);
    goto fail;
  }
  /* a misspelt optional field must not pass silently: every table a script gives is checked */
  static const char* const known_top[] = {"rig", "track", "duration", "start", "overrides", "rider", "inputs", "events",
                                          "events_rate", "linear", NULL};
  if (lb_check_keys(L, -1, &top, known_top, e)) goto fail;
  const char* s;
  if (lb_str(L, -1, &top, "rig", 1, NULL, &s, e)) goto fail;
  snprintf(ts->rig, sizeof ts->rig, "%s", s);
  if (lb_str(L, -1, &top, "track", 1, NULL, &s, e)) goto fail;
  snprintf(ts->track, sizeof ts->track, "%s", s);
  if (lb_num(L, -1, &top, "duration", 0, 1, 0, &ts->duration, e)) goto fail;
  if (!(ts->duration > 0 && ts->duration <= 3600)) {
    lb_fail(&top, "duration", 0, e, "must be within (0, 3600] s, got %g", ts->duration);
    goto fail;
  }
  int pushed;
  if (lb_table(L, -1, &top, "start", 0, 0, &pushed, e)) goto fail;
  ts->start_gear = -1;
  if (pushed) {
    lb_scope ss = lb_enter(&top, "start", 0, "start");
    double g = -1;   /* read below even when an earlier field failed */
    static const char* const known_start[] = {"station", "offset", "speed", "lean", "gear", NULL};
    int rc = lb_check_keys(L, -1, &ss, known_start, e) || lb_num(L, -1, &ss, "station", 0, 0, 0, &ts->start_station, e) ||
             lb_num(L, -1, &ss, "offset", 0, 0, 0, &ts->start_offset, e) ||
             lb_num(L, -1, &ss, "speed", 0, 0, 0, &ts->start_speed, e) ||
             lb_num(L, -1, &ss, "lean", 0, 0, 0, &ts->start_lean, e) || lb_num(L, -1, &ss, "gear", 0, 0, -1, &g, e);
    if (!rc && !(ts->start_speed >= 0 && ts->start_speed < 120)) rc = lb_fail(&ss, "speed", 0, e, "must be within [0, 120) m/s");
    if (!rc && !(g == -1 || (g >= 0 && g <= 6 && g == floor(g)))) rc = lb_fail(&ss, "gear", 0, e, "must be 0..6");
    if (!rc && fabs(ts->start_lean) > 60) rc = lb_fail(&ss, "lean", 0, e, "must be within ±60 degrees");
    ts->start_gear = (int)g;
    lua_pop(L, 1);
    if (rc) goto fail;
  }
  if (lb_table(L, -1, &top, "overrides", 0, 0, &pushed, e)) goto fail;
  if (pushed) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TNUMBER) {
        lua_pop(L, 3);
        lb_fail(&top, "overrides", 0, e, "expects {[\"key\"] = number, ...}");
        goto fail;
      }
      char buf[256];
      snprintf(buf, sizeof buf, "%s=%.17g", lua_tostring(L, -2), lua_tonumber(L, -1));
      ts->overrides = mt_realloc(ts->overrides, sizeof(char*) * (ts->noverride + 1));
      ts->overrides[ts->noverride++] = mt_strdup(buf);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  if (read_rider(L, &top, ts, e) || read_inputs(L, &top, ts, e) || read_events(L, &top, ts, e)) goto fail;
  if (lb_num(L, -1, &top, "events_rate", 0, 0, 0, &ts->events_rate, e)) goto fail;
  if (lua_getfield(L, -1, "events_rate") != LUA_TNIL) {
    ts->events_rate_line = lb_line(ts->source, &(lb_key){"events_rate", 0}, 1);
    if (!(ts->events_rate > 0)) {
      lua_pop(L, 1);
      lb_fail(&top, "events_rate", 0, e, "must be a rate > 0 Hz (how often `when` conditions are evaluated; omit it for every step), got %g",
              ts->events_rate);
      goto fail;
    }
  }
  lua_pop(L, 1);
  if (lb_table(L, -1, &top, "linear", 0, 0, &pushed, e)) goto fail;
  if (pushed) {
    lb_scope ls = lb_enter(&top, "linear", 0, NULL);
    ts->lin_line = lb_line(ts->source, ls.path, ls.depth);
    int rc = read_linear(L, &ls, &ts->lin, e);
    lua_pop(L, 1);
    if (rc) goto fail;
  }
  for (int i = 0; i < ts->nevent && !ts->has_rider; i++)
    for (int q = 0; q < ts->event[i].nset; q++)
      if (!strncmp(ts->event[i].set_key[q], "rider.stunt", 11) || !strcmp(ts->event[i].set_key[q], "rider.pitch")) {
        mt_fail(e, MT_EINPUT, "%s:%d: event %d: field 'set': %s needs a rider (rider = false here)", ts->path, ts->event[i].line,
                i + 1, ts->event[i].set_key[q]);
        goto fail;
      }
  lua_pop(L, 1);
  ts->L = L;
  return ts;
fail:
  luabox_close(L);
  ts->L = NULL;
  script_free(ts);
  return NULL;
}

take_script* script_load_text(const char* name, const char* text, mt_err* e) {
  take_script* ts = mt_alloc(sizeof *ts);
  ts->path = mt_strdup(name);
  ts->source = mt_strdup(text);
  lua_State* L = luabox_new(NULL);
  if (luabox_run(L, text, strlen(text), name, 1, e)) {
    luabox_close(L);
    script_free(ts);
    return NULL;
  }
  return load_common(L, ts, e);
}

take_script* script_load(const char* path, mt_err* e) {
  take_script* ts = mt_alloc(sizeof *ts);
  ts->path = mt_strdup(path);
  lua_State* L = luabox_new(NULL);
  if (luabox_run_file(L, path, 1, &ts->source, e)) {
    luabox_close(L);
    script_free(ts);
    return NULL;
  }
  return load_common(L, ts, e);
}

void script_free(take_script* s) {
  if (!s) return;
  if (s->L) luabox_close(s->L);
  for (int i = 0; i < s->nevent; i++)
    if (s->event[i].lin) {
      lin_spec_clear(s->event[i].lin);
      free(s->event[i].lin);
    }
  lin_spec_clear(&s->lin);
  for (int i = 0; i < s->noverride; i++) free(s->overrides[i]);
  free(s->overrides);
  free(s->path);
  free(s->source);
  free(s);
}

static double interp(const double* x, const double* v, int n, double at) {
  if (n == 1 || at <= x[0]) return v[0];
  if (at >= x[n - 1]) return v[n - 1];
  int i = 0;
  while (i < n - 2 && at > x[i + 1]) i++;
  double u = (at - x[i]) / (x[i + 1] - x[i]);
  return v[i] + u * (v[i + 1] - v[i]);
}

double script_target_speed(const take_script* s, double station, double t) {
  switch (s->speed_kind) {
    case SCRIPT_SPEED_CONST: return s->speed_const;
    case SCRIPT_SPEED_STATION: return interp(s->pt_x, s->pt_v, s->npoints, station);
    case SCRIPT_SPEED_TIME: return interp(s->pt_x, s->pt_v, s->npoints, t);
    default: return s->start_speed;   /* "auto" is resolved by the runner from the track */
  }
}

void script_inputs_at(const take_script* s, double t, const double rider[IN_NKIND], double out[IN_NKIND]) {
  for (int k = 0; k < IN_NKIND; k++) out[k] = rider[k];
  /* Later entries win; each acts from `at`, ramps from the rider's value, holds, then lets go. */
  for (int i = 0; i < s->ninput; i++) {
    const script_input* in = &s->input[i];
    if (t < in->at) continue;
    double end = in->at + in->ramp + in->hold;
    if (in->hold > 0 && t >= end) continue;
    double u = in->ramp > 0 ? mt_clamp((t - in->at) / in->ramp, 0, 1) : 1;
    if (in->kind == IN_GEAR) out[in->kind] = in->value;
    else if (in->kind == IN_STEER || in->kind == IN_RIDER_LEAN) out[in->kind] = rider[in->kind] + u * in->value;
    else out[in->kind] = rider[in->kind] + u * (in->value - rider[in->kind]);
  }
}

/*---- the channel view of event conditions ----*/

/* make channel k of this step current (a lazily sampled one: script_channel_source) */
static void chan_need(take_script* s, lua_Integer k) {
  if (s->chan_fill && s->chan_lazy[k]) s->chan_fill(s->chan_fill_data);
}

/* upvalue 1: the name -> index table; upvalue 2: the take_script (light userdata) */
static int chan_index(lua_State* L) {
  take_script* s = lua_touserdata(L, lua_upvalueindex(2));
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNUMBER) return 1;   /* not a channel: nil */
  lua_Integer k = lua_tointeger(L, -1);
  if (s->chan_values && k >= 0 && k < s->chan_n) {
    chan_need(s, k);
    lua_pushnumber(L, s->chan_values[k]);
  } else lua_pushnil(L);
  return 1;
}

static int chan_newindex(lua_State* L) {
  luaL_where(L, 1);
  lua_pushfstring(L, "the channel table is read-only (assigning '%s')", luaL_tolstring(L, 2, NULL));
  lua_remove(L, -2);
  lua_concat(L, 2);
  return lua_error(L);
}

/* pairs(c): (name, value) in channel order */
static int chan_next(lua_State* L) {
  take_script* s = lua_touserdata(L, lua_upvalueindex(2));
  lua_Integer k = 0;
  if (!lua_isnil(L, 2)) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNUMBER) return luaL_error(L, "invalid key to 'next'");
    k = lua_tointeger(L, -1) + 1;
  }
  if (!s->chan_values || k >= s->chan_n) {
    lua_pushnil(L);
    return 1;
  }
  chan_need(s, k);
  lua_pushstring(L, s->chan_names[k]);
  lua_pushnumber(L, s->chan_values[k]);
  return 2;
}

static int chan_pairs(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

/* The view, made once per take and kept in the registry (the conditions may hold on to it). */
static void chan_view_push(lua_State* L, take_script* s) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, "mt.channels") == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_createtable(L, 0, 0);                         /* the view: always empty */
  lua_createtable(L, 0, 4);                         /* its metatable */
  lua_createtable(L, 0, s->chan_n);                 /* name -> index */
  for (int k = 0; k < s->chan_n; k++) {
    lua_pushinteger(L, k);
    lua_setfield(L, -2, s->chan_names[k]);
  }
  lua_pushvalue(L, -1);
  lua_pushlightuserdata(L, s);
  lua_pushcclosure(L, chan_index, 2);
  lua_setfield(L, -3, "__index");
  lua_pushcfunction(L, chan_newindex);
  lua_setfield(L, -3, "__newindex");
  lua_pushvalue(L, -1);
  lua_pushlightuserdata(L, s);
  lua_pushcclosure(L, chan_next, 2);
  lua_pushcclosure(L, chan_pairs, 1);
  lua_setfield(L, -3, "__pairs");
  lua_pop(L, 1);
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, "mt.channels");
}

void script_channel_source(take_script* s, const unsigned char* lazy, void (*fill)(void* data), void* data) {
  s->chan_lazy = fill ? lazy : NULL;
  s->chan_fill = lazy ? fill : NULL;
  s->chan_fill_data = data;
}

/* "file:line" (or "file" when the line is not known: a generated table) */
static const char* where(const take_script* s, int line, char* buf, size_t n) {
  if (line > 0) snprintf(buf, n, "%s:%d", s->path, line);
  else snprintf(buf, n, "%s", s->path);
  return buf;
}

int script_events_resolve(take_script* s, double dt, mt_err* e) {
  const double tol = 1e-9;   /* a period of exactly one step, whatever the rounding of 1/rate */
  char wb[4200];
  if (s->events_rate > 0 && 1 / (s->events_rate * dt) < 1 - tol) {
    return mt_fail(e, MT_EINPUT, "%s: field 'events_rate': %g Hz is faster than the rig's steps (%g s, %g Hz): at most %g",
                   where(s, s->events_rate_line, wb, sizeof wb), s->events_rate, dt, 1 / dt, 1 / dt);
  }
  for (int i = 0; i < s->nevent; i++) {
    script_event* ev = &s->event[i];
    double per = ev->every > 0 ? ev->every : s->events_rate > 0 ? 1 / s->events_rate : 0;
    ev->every_steps = 1;
    if (ev->when_ref == LUA_NOREF || per == 0) continue;
    if (per / dt < 1 - tol)
      return mt_fail(e, MT_EINPUT, "%s: event %d: field 'every': %g s is shorter than the rig's step (%g s)",
                     where(s, ev->every_line ? ev->every_line : ev->line, wb, sizeof wb), i + 1, ev->every, dt);
    ev->every_steps = (long)fmin(floor(per / dt + 0.5), 1e15);   /* longer than any take: step 0 only */
  }
  return MT_OK;
}

/*---- `when` conditions compiled to C (issue 18) ----*/

int script_when_fast_enabled = 1;

static int ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
static const char* skip_blank(const char* p) {
  while (*p == ' ' || *p == '\t') p++;
  return p;
}
/* an identifier at p: its length (0: none) */
static int ident_len(const char* p) {
  int n = 0;
  if (!ident_start(p[0])) return 0;
  while (ident_char(p[n])) n++;
  return n;
}
/* the keyword kw at p, not followed by an identifier character: the text after it, or NULL */
static const char* keyword(const char* p, const char* kw) {
  size_t n = strlen(kw);
  return strncmp(p, kw, n) == 0 && !ident_char(p[n]) ? p + n : NULL;
}

/* Match one source line against `function(P) return P.NAME OP NUMBER end` (blanks between the
 * tokens; NUMBER a decimal literal with an optional '-', fraction and exponent, then `end`). The line must
 * hold the text "function" exactly once: the condition was defined on this line, so that one is
 * its keyword and what follows is its whole body, whatever else (strings, comments, other table
 * fields) the line holds. 1 on a match: the name (copied to name[64]), op and the literal's value
 * as Lua reads it (lua_stringtonumber: an integer beyond ±2^53 is refused, its double would not
 * compare as Lua's integer does). */
int script_when_match(lua_State* L, const char* line, size_t len, char name[64], int* op, double* val) {
  char buf[512];
  if (len >= sizeof buf) return 0;
  memcpy(buf, line, len);
  buf[len] = 0;
  const char* f = strstr(buf, "function");
  if (!f || strstr(f + 1, "function")) return 0;
  if (f > buf && ident_char(f[-1])) return 0;
  const char* p = keyword(f, "function");
  if (!p || *(p = skip_blank(p)) != '(') return 0;
  p = skip_blank(p + 1);
  int np = ident_len(p);
  if (!np) return 0;
  const char* par = p;
  p = skip_blank(p + np);
  if (*p != ')') return 0;
  p = skip_blank(p + 1);
  if (!(p = keyword(p, "return"))) return 0;
  p = skip_blank(p);
  if (ident_len(p) != np || strncmp(p, par, np) != 0) return 0;
  p = skip_blank(p + np);
  if (*p != '.') return 0;
  p = skip_blank(p + 1);
  int nn = ident_len(p);
  if (!nn || nn >= 64 || keyword(p, "end") || keyword(p, "and") || keyword(p, "or") || keyword(p, "not")) return 0;
  memcpy(name, p, nn);
  name[nn] = 0;
  p = skip_blank(p + nn);
  int o = SCRIPT_OP_NONE, w = 2;
  if (p[0] == '>' && p[1] == '=') o = SCRIPT_OP_GE;
  else if (p[0] == '<' && p[1] == '=') o = SCRIPT_OP_LE;
  else if (p[0] == '=' && p[1] == '=') o = SCRIPT_OP_EQ;
  else if (p[0] == '~' && p[1] == '=') o = SCRIPT_OP_NE;
  else if (p[0] == '>') o = SCRIPT_OP_GT, w = 1;
  else if (p[0] == '<') o = SCRIPT_OP_LT, w = 1;
  if (!o) return 0;
  p = skip_blank(p + w);
  const char* num = p;   /* -?digits[.digits][(e|E)[+-]digits] */
  if (*p == '-') p++;
  int nd = 0;
  while (*p >= '0' && *p <= '9') p++, nd++;
  if (*p == '.') {
    p++;
    while (*p >= '0' && *p <= '9') p++, nd++;
  }
  if (!nd) return 0;
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if (!(*p >= '0' && *p <= '9')) return 0;
    while (*p >= '0' && *p <= '9') p++;
  }
  char nb[64];
  size_t nl = (size_t)(p - num);
  if (nl >= sizeof nb) return 0;
  memcpy(nb, num, nl);
  nb[nl] = 0;
  p = skip_blank(p);
  if (!keyword(p, "end")) return 0;
  int top = lua_gettop(L);
  if (lua_stringtonumber(L, nb) != nl + 1) {
    lua_settop(L, top);
    return 0;
  }
  int isint = lua_isinteger(L, -1);
  lua_Integer iv = isint ? lua_tointeger(L, -1) : 0;
  *val = lua_tonumber(L, -1);
  lua_settop(L, top);
  if (isint && (iv > ((lua_Integer)1 << 53) || iv < -((lua_Integer)1 << 53))) return 0;
  *op = o;
  return 1;
}

/* Compile every `when` condition that script_when_match accepts, with its channel index (the
 * last of that name, as the view's name table keeps it); s->when_fast only when all are. */
static void when_compile(take_script* s, const char* const* names, int n) {
  s->when_compiled = 1;
  s->when_fast = 0;
  int all = script_when_fast_enabled && s->source && s->L, any = 0;
  for (int i = 0; i < s->nevent; i++) {
    script_event* ev = &s->event[i];
    ev->fast_op = SCRIPT_OP_NONE;
    if (ev->when_ref == LUA_NOREF || !all) continue;
    any = 1;
    lua_State* L = s->L;
    lua_Debug ar;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ev->when_ref);
    if (!lua_getinfo(L, ">Su", &ar)) {
      all = 0;
      continue;
    }
    char chunk[4200];
    snprintf(chunk, sizeof chunk, "@%s", s->path);
    /* the script's own chunk, one line (not the first when it was a #! line), one plain parameter */
    if (strcmp(ar.source, chunk) != 0 || ar.linedefined < 1 || ar.linedefined != ar.lastlinedefined || ar.nups != 0 ||
        ar.nparams != 1 || ar.isvararg || (ar.linedefined == 1 && s->source[0] == '#')) {
      all = 0;
      continue;
    }
    const char* l = s->source;
    for (int k = 1; k < ar.linedefined && l; k++) {
      l = strchr(l, '\n');
      if (l) l++;
    }
    char name[64];
    int op;
    double val;
    if (!l || !script_when_match(L, l, strcspn(l, "\n"), name, &op, &val)) {
      all = 0;
      continue;
    }
    int k = -1;
    for (int j = 0; j < n; j++)
      if (strcmp(names[j], name) == 0) k = j;
    if (k < 0) {   /* not a channel: c.NAME is nil, and Lua's comparison raises the error */
      all = 0;
      continue;
    }
    ev->fast_op = op;
    ev->fast_k = k;
    ev->fast_val = val;
  }
  s->when_fast = all && any;
  if (!s->when_fast)
    for (int i = 0; i < s->nevent; i++) s->event[i].fast_op = SCRIPT_OP_NONE;
}

/* What the compiled condition returns: Lua's comparison of two numbers (NaN compares false
 * except with ~=; a float and an integer literal within ±2^53 compare as their doubles). */
static int when_fast_eval(take_script* s, const script_event* ev) {
  chan_need(s, ev->fast_k);   /* as reading c.NAME does */
  double x = s->chan_values[ev->fast_k], v = ev->fast_val;
  switch (ev->fast_op) {
    case SCRIPT_OP_LT: return x < v;
    case SCRIPT_OP_LE: return x <= v;
    case SCRIPT_OP_GT: return x > v;
    case SCRIPT_OP_GE: return x >= v;
    case SCRIPT_OP_EQ: return x == v;
    default: return x != v;
  }
}

int script_next_event(take_script* s, long step, const char* const* names, const double* values, int n, double t,
                      unsigned char* fired, mt_err* e) {
  s->chan_values = values;   /* this step's values: what the view reads */
  s->chan_names = names;
  if (s->chan_n == 0) s->chan_n = n;
  if (!s->when_compiled) when_compile(s, names, s->chan_n);
  for (int i = 0; i < s->nevent; i++) {
    if (fired[i]) continue;
    script_event* ev = &s->event[i];
    int fire = 0;
    if (ev->when_ref == LUA_NOREF) {
      fire = t >= ev->at;
    } else if (ev->every_steps > 1 && step % ev->every_steps) {
      continue;   /* not this condition's step (events_rate, every) */
    } else if (ev->fast_op && values) {   /* (no values: the view reads nil, Lua raises the error) */
      fire = when_fast_eval(s, ev);
    } else {
      lua_State* L = s->L;
      lua_rawgeti(L, LUA_REGISTRYINDEX, ev->when_ref);
      chan_view_push(L, s);
      luabox_reset_budget(L, 10000000);   /* a condition that loops is an error, not a hang */
      if (luabox_pcall(L, 1, 1, e)) return -2;
      fire = lua_toboolean(L, -1);
      lua_pop(L, 1);
    }
    if (fire) {
      fired[i] = 1;
      return i;
    }
  }
  return -1;
}
