/* luabox.c — the sandboxed Lua state and the located-field readers.
 *
 * Why a sandbox: tracks, rigs and take scripts are data that happens to be executable; a take
 * file carries them to other machines, so running one must not touch files, processes or the
 * network, must not run forever and must not eat the machine's memory. Lua makes this cheap:
 * we open only the pure libraries and route every allocation through one counting allocator. */
#include "base/luabox.h"
#include "base/outfile.h"

#include <ctype.h>
#include <lauxlib.h>
#include <lualib.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LB_DEFAULT_MEM ((size_t)256 << 20)
#define LB_DEFAULT_INSTR 500000000L
#define LB_DEFAULT_SECONDS 10.0
#define LB_HOOK_EVERY 1000
#define LB_MAX_PATHS 16
#define LB_BLOCK_OVERHEAD 16      /* malloc's bookkeeping per block, counted against the cap */
#define LB_BIG_BLOCK (64 << 10)   /* allocations this large also check the wall clock */
#define LB_MAX_DEPTH 200          /* tables nested deeper than this are refused when read back */
#define LB_MAX_C_LOOP 10000000   /* elements one table.move/insert/remove may touch */
#define LB_PATTERN_WORK 1e8       /* matcher steps a single string.find/match/gmatch/gsub may need */

typedef struct box {
  size_t used, cap;
  long budget, spent;
  double seconds, deadline;  /* wall-clock limit per protected call, and when the current one ends (0: not yet read) */
  int in_call;               /* inside luabox_pcall (the allocator may then refuse on time) */
  int dead;                  /* a limit was hit: every hook and every pcall re-raises until the host resumes */
  char why[300];             /* the limit message, kept for the host (a handler may not return it) */
  char* paths[LB_MAX_PATHS];
  int npaths;
  luabox_source* sources;   /* every module file `require` read, in order (takes embed them) */
  int nsources;
  int sealed;               /* luabox_seal: require serves only module texts, never files */
} box;

static box* box_of(lua_State* L) {
  void* ud;
  lua_getallocf(L, &ud);
  return ud;
}

/* The allocator is the memory cap: Lua turns a NULL into a catchable "not enough memory". */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The cap bounds the process's real memory, not just Lua's count: every block is charged
 * LB_BLOCK_OVERHEAD more than it asks for, and a growing realloc is charged the old and the new
 * block together (realloc may copy, and then both exist for a moment). */
static void* box_alloc(void* ud, void* ptr, size_t osize, size_t nsize) {
  box* b = ud;
  size_t old = ptr ? osize + LB_BLOCK_OVERHEAD : 0;
  if (nsize == 0) {
    free(ptr);
    b->used -= old;
    return NULL;
  }
  size_t neu = nsize + LB_BLOCK_OVERHEAD;
  if (neu > old && b->used + neu > b->cap) return NULL;   /* old + new both live during the copy */
  /* Big blocks are where C functions do much work for few instructions (string.rep, concat):
   * check the clock here too. Lua turns the NULL into an error the box's pcall re-raises. */
  if (nsize >= LB_BIG_BLOCK && b->in_call && b->deadline == 0) b->deadline = now_s() + b->seconds;
  if (nsize >= LB_BIG_BLOCK && b->in_call && (b->dead || now_s() > b->deadline)) {
    if (!b->dead) snprintf(b->why, sizeof b->why, "script did not finish within %g s (too much work?)", b->seconds);
    b->dead = 1;
    return NULL;
  }
  void* q = realloc(ptr, nsize);
  if (!q) return NULL;
  b->used = b->used - old + neu;
  return q;
}

static int box_panic(lua_State* L);


/* Raise the limit error. Once a limit is hit the box stays dead: the hook raises again within
 * LB_HOOK_EVERY instructions wherever the script is (a pcall that swallowed the error, a message
 * handler, a __close), and the box's pcall/xpcall re-raise, so nothing inside can go on. */
static int box_die(lua_State* L) {
  box* b = box_of(L);
  lua_pushstring(L, b->why);
  return lua_error(L);
}

static void box_hook(lua_State* L, lua_Debug* ar) {
  (void)ar;
  box* b = box_of(L);
  if (b->dead) {
    box_die(L);
    return;
  }
  b->spent += LB_HOOK_EVERY;
  int out_of_instr = b->spent > b->budget;
  double now = now_s();
  if (b->deadline == 0) b->deadline = now + b->seconds;   /* armed at the call's first hook */
  if (out_of_instr || now > b->deadline) {
    lua_Debug d;
    char where[300] = "";
    if (lua_getstack(L, 0, &d) && lua_getinfo(L, "Sl", &d) && d.currentline > 0)
      snprintf(where, sizeof where, "%s:%d: ", d.short_src, d.currentline);
    if (out_of_instr)
      snprintf(b->why, sizeof b->why, "%sscript did not finish within %ld million instructions (endless loop?)",
               where, b->budget / 1000000);
    else
      snprintf(b->why, sizeof b->why, "%sscript did not finish within %g s (endless loop or too much work?)",
               where, b->seconds);
    b->dead = 1;
    box_die(L);
  }
}

/*---- pcall and xpcall that cannot swallow a limit ----*/

static int lb_pcall(lua_State* L) {
  luaL_checkany(L, 1);
  int st = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
  if (box_of(L)->dead) return box_die(L);
  lua_pushboolean(L, st == LUA_OK);
  lua_insert(L, 1);
  return lua_gettop(L);
}

/* A message handler runs before the stack unwinds; when the error came from the hook, Lua runs
 * it with hooks disabled. So the script's handler is only called for ordinary errors, through
 * this C handler, and never once a limit has been hit. */
static int xpcall_handler(lua_State* L) {
  box* b = box_of(L);
  if (b->dead) {
    lua_pushstring(L, b->why);
    return 1;
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

static int lb_xpcall(lua_State* L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, xpcall_handler, 1);
  lua_replace(L, 2);
  lua_pushvalue(L, 1);          /* f */
  lua_rotate(L, 3, 1);          /* handler at 2, f at 3, args after */
  int st = lua_pcall(L, n - 2, LUA_MULTRET, 2);
  if (box_of(L)->dead) return box_die(L);
  lua_pushboolean(L, st == LUA_OK);
  lua_replace(L, 2);            /* status over the handler */
  return lua_gettop(L) - 1;
}

/* setmetatable without __gc: finalizers run with the hook off (at collection or at close),
 * so a finalizer that never returns could not be stopped. */
static int lb_setmetatable(lua_State* L) {
  if (lua_type(L, 2) == LUA_TTABLE) {
    lua_pushstring(L, "__gc");
    if (lua_rawget(L, 2) != LUA_TNIL) return luaL_error(L, "setmetatable: __gc is not allowed in mototake's Lua");
    lua_pop(L, 1);
  }
  lua_getfield(L, LUA_REGISTRYINDEX, "mt.setmetatable");
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

/*---- string functions with bounded work ----*/

/* Lua's pattern matcher is C and runs without the hook, and it backtracks: ("a*"):rep(40).."b"
 * against 3000 a's would run for ages. Before a match we bound its work from the pattern's shape:
 * with k quantified items (*, +, -) the matcher's positions form a non-decreasing k-tuple, at most
 * C(n+k, k) of them per start; each '?' doubles that; %b and back-references scan up to n; and an
 * unanchored pattern is tried from n+1 starts. A quantified last item does not backtrack (the
 * match is made as soon as it stops), so it adds one scan instead of a factor. Each state may
 * compare every item of the pattern: the product is multiplied by the item count + 1 (the fuzzer
 * found ("a?"):rep(20) .. ("a"):rep(60) .. "b" taking 27 s without this factor). Patterns whose bound exceeds LB_PATTERN_WORK are
 * refused with a message, before any work is done. */
static double pattern_work(const char* p, size_t lp, size_t n) {
  double w = (lp && p[0] == '^') ? 1.0 : (double)n + 1.0;
  size_t i = (lp && p[0] == '^') ? 1 : 0;
  int k = 0;
  double items = 0;   /* each state compares up to every remaining item */
  while (i < lp) {
    char c = p[i];
    size_t item = i;
    if (c == '(' || c == ')') { i++; continue; }
    items++;
    if (c == '%' && i + 1 < lp) {
      char d = p[i + 1];
      if (d == 'b') { w *= (double)n + 1.0; i += 4; continue; }
      if (d >= '1' && d <= '9') { w *= (double)n + 1.0; i += 2; continue; }
      if (d == 'f') {
        i += 2;
        if (i < lp && p[i] == '[') {
          i++;
          if (i < lp && p[i] == '^') i++;
          if (i < lp) i++;                     /* a first ']' is literal */
          while (i < lp && p[i] != ']') i += (p[i] == '%' && i + 1 < lp) ? 2 : 1;
          i++;
        }
        continue;
      }
      i += 2;
    } else if (c == '[') {
      i++;
      if (i < lp && p[i] == '^') i++;
      if (i < lp) i++;
      while (i < lp && p[i] != ']') i += (p[i] == '%' && i + 1 < lp) ? 2 : 1;
      i++;
    } else if (c == '$' && i + 1 == lp) {
      break;
    } else {
      i++;
    }
    (void)item;
    if (i < lp && (p[i] == '*' || p[i] == '+' || p[i] == '-')) {
      i++;
      size_t j = i;
      while (j < lp && p[j] == ')') j++;
      if (j == lp) {
        w += (double)n + 1.0;              /* last item: one scan, then the match is made */
      } else {
        k++;
        w *= ((double)n + k) / k;          /* builds C(n+k, k) */
      }
    } else if (i < lp && p[i] == '?') {
      w *= 2;
      i++;
    }
  }
  return w * (items + 1);
}

static int has_specials(const char* p, size_t lp) {
  for (size_t i = 0; i < lp; i++)
    if (strchr("^$*+?.([%-", p[i])) return 1;
  return 0;
}

/* upvalue 1: the original function; upvalue 2: its name; plain_arg: the argument that makes
 * find plain (4), or 0. */
static int bounded_match(lua_State* L) {
  size_t n, lp;
  const char* s = luaL_checklstring(L, 1, &n);
  const char* p = luaL_checklstring(L, 2, &lp);
  (void)s;
  int plain = (int)lua_tointeger(L, lua_upvalueindex(3));
  int check = !(plain && (lua_toboolean(L, plain) || !has_specials(p, lp)));
  if (check) {
    double w = pattern_work(p, lp, n);
    if (w > LB_PATTERN_WORK) {
      char pat[48];
      snprintf(pat, sizeof pat, "%.*s%s", lp > 40 ? 40 : (int)lp, p, lp > 40 ? "..." : "");
      for (char* q = pat; *q; q++)
        if ((unsigned char)*q < 32) *q = '?';
      char msg[300];
      snprintf(msg, sizeof msg, "%s: pattern '%s' on a %zu-byte string may need %.3g steps (limit %.3g): "
               "use a shorter string or a simpler pattern", lua_tostring(L, lua_upvalueindex(2)), pat, n, w,
               LB_PATTERN_WORK);
      return luaL_error(L, "%s", msg);
    }
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

/* Loops in C that neither allocate nor call Lua: string.rep of an empty string, table.move and
 * table.insert/remove shifting a huge length (a border of a sparse table can be huge). The hook
 * never runs inside them, so their counts are bounded before the call. */
static int call_original(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

static int too_many(lua_State* L, const char* fn, lua_Number count) {
  return luaL_error(L, "%s: %f elements in one call is more than the limit of %d", fn, count, LB_MAX_C_LOOP);
}

static int bounded_rep(lua_State* L) {
  size_t l, lsep = 0;
  luaL_checklstring(L, 1, &l);
  lua_Integer n = luaL_checkinteger(L, 2);
  luaL_optlstring(L, 3, "", &lsep);
  if (l + lsep == 0 || n <= 0) {   /* the result is empty, however many times */
    lua_pushliteral(L, "");
    return 1;
  }
  return call_original(L);         /* the result's size, so the memory cap, bounds the loop */
}

static int bounded_move(lua_State* L) {
  lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
  if (e >= f && (lua_Number)e - (lua_Number)f >= LB_MAX_C_LOOP) return too_many(L, "table.move", (lua_Number)e - f + 1);
  return call_original(L);
}

static int bounded_insert(lua_State* L) {
  if (lua_gettop(L) == 3) {
    lua_Integer n = luaL_len(L, 1), pos = luaL_checkinteger(L, 2);
    if ((lua_Number)n - (lua_Number)pos >= LB_MAX_C_LOOP) return too_many(L, "table.insert", (lua_Number)n - pos + 1);
  }
  return call_original(L);
}

static int bounded_remove(lua_State* L) {
  lua_Integer n = luaL_len(L, 1), pos = luaL_optinteger(L, 2, n);
  if ((lua_Number)n - (lua_Number)pos >= LB_MAX_C_LOOP) return too_many(L, "table.remove", (lua_Number)n - pos + 1);
  return call_original(L);
}

static void wrap(lua_State* L, const char* lib, const char* name, lua_CFunction f) {
  lua_getglobal(L, lib);
  lua_getfield(L, -1, name);
  lua_pushcclosure(L, f, 1);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

static void bound_string_functions(lua_State* L) {
  wrap(L, "string", "rep", bounded_rep);
  wrap(L, "table", "move", bounded_move);
  wrap(L, "table", "insert", bounded_insert);
  wrap(L, "table", "remove", bounded_remove);
  static const struct { const char* name; int plain; } F[] = {
    {"find", 4}, {"match", 0}, {"gmatch", 0}, {"gsub", 0}};
  lua_getglobal(L, "string");
  for (size_t i = 0; i < MT_ARRAY_LEN(F); i++) {
    lua_getfield(L, -1, F[i].name);
    lua_pushfstring(L, "string.%s", F[i].name);
    lua_pushinteger(L, F[i].plain);
    lua_pushcclosure(L, bounded_match, 3);
    lua_setfield(L, -2, F[i].name);
  }
  lua_pop(L, 1);
  /* Lock the string metatable: a script must not make `("x").y` or s:find run its code in our reads. */
  lua_pushliteral(L, "");
  if (lua_getmetatable(L, -1)) {
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/*---- restricted base functions ----*/

/* load: text chunks only, and never with an environment that escapes the box's globals. */
static int lb_load(lua_State* L) {
  size_t n;
  const char* s = luaL_checklstring(L, 1, &n);
  const char* name = luaL_optstring(L, 2, "=(load)");
  if (luaL_loadbufferx(L, s, n, name, "t") != LUA_OK) {
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;
  }
  return 1;
}

static int lb_print(lua_State* L) {
  int n = lua_gettop(L);
  for (int i = 1; i <= n; i++) {
    size_t l;
    const char* s = luaL_tolstring(L, i, &l);
    if (i > 1) fputc('\t', stderr);
    fwrite(s, 1, l, stderr);
    lua_pop(L, 1);
  }
  fputc('\n', stderr);
  return 0;
}

static int valid_modname(const char* s) {
  if (!*s || *s == '.') return 0;
  for (; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '.')) return 0;
  return 1;
}

/* require(name): built-in modules from package.preload-like registry table, else
 * <dir>/<name with dots as slashes>.lua in one of the box's folders. Cached. */
static int lb_require(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
  lua_settop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, "mt.loaded");         /* 2 */
  if (lua_getfield(L, 2, name) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, "mt.preload");        /* 3 */
  if (lua_getfield(L, 3, name) == LUA_TFUNCTION) {         /* 4 */
    lua_remove(L, 3);                                       /* loader now at 3 */
  } else {
    lua_pop(L, 2);
    if (!valid_modname(name)) return luaL_error(L, "require: invalid module name '%s'", name);
    box* b = box_of(L);
    /* Modules given as text (a take's embedded sources) come before any file. */
    lua_getfield(L, LUA_REGISTRYINDEX, "mt.vfs");
    int vty = lua_getfield(L, -1, name);
    if (vty == LUA_TSTRING) {
      size_t len;
      const char* text = lua_tolstring(L, -1, &len);
      char chunk[600];
      snprintf(chunk, sizeof chunk, "@%s.lua", name);
      int rc = luaL_loadbufferx(L, text, len, chunk, "t");
      if (rc != LUA_OK) return lua_error(L);
      lua_replace(L, 3);
      lua_settop(L, 3);
      goto call;
    }
    lua_pop(L, 2);
    char rel[512], path[4096];
    snprintf(rel, sizeof rel, "%s", name);
    for (char* p = rel; *p; p++)
      if (*p == '.') *p = '/';
    int found = 0;
    for (int i = b->npaths - 1; i >= 0 && !found; i--) {
      snprintf(path, sizeof path, "%s/%s.lua", b->paths[i], rel);
      if (access(path, R_OK) == 0) found = 1;
    }
    if (!found && b->sealed) return luaL_error(L, "require: module '%s' is not embedded (no file is read)", name);
    if (!found) return luaL_error(L, "require: module '%s' not found in the project's search path", name);
    mt_err e = {0};
    size_t len;
    char* src = mt_read_file(path, &len, &e);
    if (!src) return luaL_error(L, "require: %s", e.msg);
    char chunk[4100];
    snprintf(chunk, sizeof chunk, "@%s", path);
    int rc = luaL_loadbufferx(L, src, len, chunk, "t");
    if (rc != LUA_OK) {
      free(src);
      return lua_error(L);                                  /* loader at 3 */
    }
    b->sources = mt_realloc(b->sources, sizeof(luabox_source) * (b->nsources + 1));
    b->sources[b->nsources].name = mt_strdup(name);
    b->sources[b->nsources].text = src;
    b->nsources++;
  }
call:
  lua_pushstring(L, name);
  lua_call(L, 1, 1);                                        /* result at 3 */
  if (lua_isnil(L, 3)) {
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
  }
  lua_pushvalue(L, 3);
  lua_setfield(L, 2, name);
  return 1;
}

void luabox_push_require(lua_State* L) { lua_pushcfunction(L, lb_require); }

/*---- units: conversions to SI, as the Slipstream manual's track files use them ----*/
typedef struct unit_def { const char* name; double factor; } unit_def;
static const unit_def UNITS[] = {
  {"m", 1.0}, {"meter", 1.0}, {"metre", 1.0}, {"mm", 1e-3}, {"cm", 1e-2}, {"km", 1000.0},
  {"feet", 0.3048}, {"foot", 0.3048}, {"ft", 0.3048}, {"inch", 0.0254}, {"inches", 0.0254},
  {"mile", 1609.344}, {"miles", 1609.344}, {"yard", 0.9144},
  {"kmh", 1.0 / 3.6}, {"mph", 0.44704}, {"knot", 1852.0 / 3600.0}, {"ms", 1.0},
  {"deg", MT_PI / 180.0}, {"degrees", MT_PI / 180.0}, {"rad", 1.0},
  {"rpm", 2.0 * MT_PI / 60.0},
  {"kg", 1.0}, {"g", 1e-3}, {"pound", 0.45359237}, {"pounds", 0.45359237}, {"lb", 0.45359237},
  {"slug", 14.5939029}, {"slugft2", 1.3558179619}, {"ft2", 0.09290304}, {"in2", 0.00064516},
  {"cc", 1e-6}, {"litre", 1e-3}, {"liter", 1e-3},
  {"N", 1.0}, {"kN", 1000.0}, {"lbf", 4.4482216153}, {"Nm", 1.0}, {"lbft", 1.3558179483},
  {"kW", 1000.0}, {"hp", 745.69987158}, {"ps", 735.49875},
  {"bar", 1e5}, {"kPa", 1e3}, {"psi", 6894.757293},
  {"percent", 0.01}, {"s", 1.0}, {"minute", 60.0}, {"hour", 3600.0},
};

static int unit_conv(lua_State* L) {
  double f = lua_tonumber(L, lua_upvalueindex(1));
  lua_Number x = luaL_checknumber(L, 1);
  lua_pushnumber(L, x * f);
  return 1;
}

static int open_units(lua_State* L) {
  lua_newtable(L);
  for (size_t i = 0; i < MT_ARRAY_LEN(UNITS); i++) {
    lua_pushnumber(L, UNITS[i].factor);
    lua_pushcclosure(L, unit_conv, 1);
    lua_setfield(L, -2, UNITS[i].name);
  }
  /* Temperatures are affine, not factors. */
  lua_pushnumber(L, 273.15);
  lua_setfield(L, -2, "celsius_offset");
  return 1;
}

static void preload(lua_State* L, const char* name, lua_CFunction f) {
  lua_getfield(L, LUA_REGISTRYINDEX, "mt.preload");
  lua_pushcfunction(L, f);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

static luabox_limits g_defaults;   /* zero fields: the built-in defaults */

void luabox_set_defaults(const luabox_limits* lim) { g_defaults = lim ? *lim : (luabox_limits){0}; }

lua_State* luabox_new(const luabox_limits* lim) {
  box* b = mt_alloc(sizeof *b);
  if (!lim) lim = &g_defaults;
  b->cap = lim && lim->mem_bytes ? lim->mem_bytes : LB_DEFAULT_MEM;
  b->budget = lim && lim->instructions ? lim->instructions : LB_DEFAULT_INSTR;
  b->seconds = lim && lim->seconds > 0 ? lim->seconds : LB_DEFAULT_SECONDS;
  b->deadline = now_s() + b->seconds;
  lua_State* L = lua_newstate(box_alloc, b);
  if (!L) {
    free(b);
    return NULL;
  }
  static const luaL_Reg libs[] = {
    {LUA_GNAME, luaopen_base}, {LUA_TABLIBNAME, luaopen_table}, {LUA_STRLIBNAME, luaopen_string},
    {LUA_MATHLIBNAME, luaopen_math}, {LUA_UTF8LIBNAME, luaopen_utf8}, {NULL, NULL}};
  for (const luaL_Reg* l = libs; l->func; l++) {
    luaL_requiref(L, l->name, l->func, 1);
    lua_pop(L, 1);
  }
  /* Remove what reaches outside the box or loads binary code. */
  static const char* banned[] = {"dofile", "loadfile", "collectgarbage", NULL};
  for (const char** p = banned; *p; p++) {
    lua_pushnil(L);
    lua_setglobal(L, *p);
  }
  lua_getglobal(L, "string");
  lua_pushnil(L);
  lua_setfield(L, -2, "dump");
  lua_pop(L, 1);
  lua_pushcfunction(L, lb_load);
  lua_setglobal(L, "load");
  lua_pushcfunction(L, lb_print);
  lua_setglobal(L, "print");
  lua_pushcfunction(L, lb_pcall);
  lua_setglobal(L, "pcall");
  lua_pushcfunction(L, lb_xpcall);
  lua_setglobal(L, "xpcall");
  lua_getglobal(L, "setmetatable");
  lua_setfield(L, LUA_REGISTRYINDEX, "mt.setmetatable");
  lua_pushcfunction(L, lb_setmetatable);
  lua_setglobal(L, "setmetatable");
  bound_string_functions(L);
  lua_atpanic(L, box_panic);
  /* math.random is seeded from the clock by default; a take must replay bit for bit. */
  if (luaL_dostring(L, "math.randomseed(0)") != LUA_OK) lua_pop(L, 1);

  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, "mt.loaded");
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, "mt.preload");
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, "mt.vfs");
  preload(L, "units", open_units);
  lua_pushcfunction(L, lb_require);
  lua_setglobal(L, "require");
  /* units is also a global, as in the Slipstream manual's examples. */
  open_units(L);
  lua_pushvalue(L, -1);
  lua_setglobal(L, "units");
  lua_getfield(L, LUA_REGISTRYINDEX, "mt.loaded");
  lua_insert(L, -2);
  lua_setfield(L, -2, "units");
  lua_pop(L, 1);

  char p[4200];
  const char* root = luabox_project_root();
  const char* sub[] = {"rigs", "sim/tracks", "takes"};
  for (size_t i = 0; i < MT_ARRAY_LEN(sub); i++) {
    snprintf(p, sizeof p, "%s/%s", root, sub[i]);
    luabox_add_path(L, p);
  }
  lua_sethook(L, box_hook, LUA_MASKCOUNT, LB_HOOK_EVERY);
  return L;
}

void luabox_close(lua_State* L) {
  if (!L) return;
  box* b = box_of(L);
  lua_close(L);
  for (int i = 0; i < b->npaths; i++) free(b->paths[i]);
  for (int i = 0; i < b->nsources; i++) {
    free(b->sources[i].name);
    free(b->sources[i].text);
  }
  free(b->sources);
  free(b);
}

void luabox_add_path(lua_State* L, const char* dir) {
  box* b = box_of(L);
  if (b->sealed) return;
  for (int i = 0; i < b->npaths; i++)
    if (strcmp(b->paths[i], dir) == 0) return;
  if (b->npaths < LB_MAX_PATHS) b->paths[b->npaths++] = mt_strdup(dir);
}

const luabox_source* luabox_sources(lua_State* L, int* n) {
  box* b = box_of(L);
  *n = b->nsources;
  return b->sources;
}

void luabox_add_module_text(lua_State* L, const char* name, const char* text) {
  lua_getfield(L, LUA_REGISTRYINDEX, "mt.vfs");
  lua_pushstring(L, text);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

void luabox_reset_budget(lua_State* L, long instructions) {
  box* b = box_of(L);
  b->spent = 0;
  if (instructions > 0) b->budget = instructions;
}

void luabox_set_seconds(lua_State* L, double seconds) {
  box* b = box_of(L);
  if (seconds > 0) b->seconds = seconds;
}

static int traceback_msg(lua_State* L) {
  /* Keep the message as Lua made it ("file:line: msg"). A non-string error object only gets its
   * type name: calling its __tostring would run script code inside the message handler. */
  if (!lua_isstring(L, 1)) lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  return 1;
}

/*---- reading results back: plain copies ----*/

/* Replace the value on top of the stack by a copy made with raw reads only: tables lose their
 * metatables (so no __index, __len, __newindex, __pairs can run when C reads them), shared and
 * cyclic tables stay shared, other values are kept as they are. Nesting deeper than
 * LB_MAX_DEPTH is an error. Runs inside lua_pcall (it allocates). */
static void plain_copy(lua_State* L, int memo, int depth) {
  if (lua_type(L, -1) != LUA_TTABLE) return;
  if (depth > LB_MAX_DEPTH) luaL_error(L, "tables nested deeper than %d levels", LB_MAX_DEPTH);
  luaL_checkstack(L, 6, "tables nested too deeply");
  lua_pushvalue(L, -1);
  if (lua_rawget(L, memo) == LUA_TTABLE) {   /* already copied */
    lua_remove(L, -2);
    return;
  }
  lua_pop(L, 1);
  int orig = lua_gettop(L);
  lua_newtable(L);
  int copy = orig + 1;
  lua_pushvalue(L, orig);
  lua_pushvalue(L, copy);
  lua_rawset(L, memo);
  lua_pushnil(L);
  while (lua_next(L, orig)) {              /* key, value */
    plain_copy(L, memo, depth + 1);
    lua_pushvalue(L, -2);                  /* key, value', key */
    lua_insert(L, -2);                     /* key, key, value' */
    lua_rawset(L, copy);
  }
  lua_remove(L, orig);
}

static int plain_copy_all(lua_State* L) {
  int n = lua_gettop(L);
  lua_newtable(L);
  int memo = n + 1;
  for (int i = 1; i <= n; i++) {
    lua_pushvalue(L, i);
    plain_copy(L, memo, 0);
    lua_replace(L, i);
  }
  lua_settop(L, n);
  return n;
}

/* Last line of defence: a Lua error raised outside any protected call would abort (exit 134).
 * Every read of user data is protected; should one be missed, say so in one line and exit 2. */
static int box_panic(lua_State* L) {
  const char* m = lua_tostring(L, -1);
  fprintf(stderr, "mototake: Lua error outside a protected call: %s\n", m ? m : "(no message)");
  fflush(stderr);
  _exit(MT_EINPUT);
}

int luabox_pcall(lua_State* L, int nargs, int nres, mt_err* e) {
  int base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, traceback_msg);
  lua_insert(L, base);
  box* b = box_of(L);
  b->spent = 0;
  b->dead = 0;
  /* The clock starts at the call's first hook or big allocation: a short call (an event
   * condition, every step) never reads it. Those come within LB_HOOK_EVERY instructions. */
  b->deadline = 0;
  int top0 = base - 1;                      /* below the function */
  int outer = b->in_call;
  b->in_call = 1;
  int rc = lua_pcall(L, nargs, nres, base);
  lua_remove(L, base);
  if (rc == LUA_OK) {
    /* The results as plain tables, so the host's lua_getfield/lua_geti/luaL_len cannot run script code. */
    int nr = lua_gettop(L) - top0;
    int need = 0;
    for (int i = 1; i <= nr; i++) need |= lua_type(L, top0 + i) == LUA_TTABLE;
    if (need) {
      lua_pushcfunction(L, plain_copy_all);
      lua_insert(L, top0 + 1);
      rc = lua_pcall(L, nr, nr, 0);
    }
  }
  b->in_call = outer;
  if (rc != LUA_OK) {
    const char* m = lua_tostring(L, -1);
    if (b->dead) mt_fail(e, MT_EINPUT, "%s", b->why);
    else if (rc == LUA_ERRMEM) mt_fail(e, MT_EINPUT, "script exceeded its memory limit of %zu MiB", b->cap >> 20);
    else mt_fail(e, MT_EINPUT, "%s", m ? m : "error");
    lua_settop(L, top0);
    return MT_EINPUT;
  }
  return MT_OK;
}

int luabox_run(lua_State* L, const char* src, size_t len, const char* chunkname, int nres, mt_err* e) {
  char name[4200];
  snprintf(name, sizeof name, "@%s", chunkname);
  /* A leading #! line is allowed, as lua(1) allows it. */
  if (len >= 1 && src[0] == '#') {
    const char* nl = memchr(src, '\n', len);
    size_t skip = nl ? (size_t)(nl - src) : len;
    /* keep line numbers: replace the line by a comment of the same length */
    char* copy = mt_alloc(len + 3);
    copy[0] = '-';
    copy[1] = '-';
    memcpy(copy + 2, src + skip, len - skip);
    int rc = luaL_loadbufferx(L, copy, len - skip + 2, name, "t");
    free(copy);
    if (rc != LUA_OK) goto loaderr;
  } else if (luaL_loadbufferx(L, src, len, name, "t") != LUA_OK) {
    goto loaderr;
  }
  {
    int rc = luabox_pcall(L, 0, nres, e);
    /* Messages Lua did not locate (memory, limits hit in C, error objects) still name the file. */
    size_t cl = strlen(chunkname);
    /* (Lua abbreviates long names to "...tail": those are located already.) */
    if (rc && !(strncmp(e->msg, chunkname, cl) == 0 && e->msg[cl] == ':') && strncmp(e->msg, "...", 3) != 0) {
      char m[sizeof e->msg];
      snprintf(m, sizeof m, "%s: %s", chunkname, e->msg);
      snprintf(e->msg, sizeof e->msg, "%s", m);
    }
    return rc;
  }
loaderr: {
  const char* m = lua_tostring(L, -1);
  mt_fail(e, MT_EINPUT, "%s", m ? m : "load error");
  lua_pop(L, 1);
  return MT_EINPUT;
}
}

int luabox_run_file(lua_State* L, const char* path, int nres, char** srcout, mt_err* e) {
  size_t len;
  char* src = mt_read_file(path, &len, e);
  if (!src) return MT_EINPUT;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  char* s = strrchr(dir, '/');
  if (s) *s = 0;
  else snprintf(dir, sizeof dir, ".");
  luabox_add_path(L, dir);
  int rc = luabox_run(L, src, len, path, nres, e);
  if (srcout) *srcout = src;
  else free(src);
  return rc;
}

void luabox_seal(lua_State* L) {
  box* b = box_of(L);
  for (int i = 0; i < b->npaths; i++) free(b->paths[i]);
  b->npaths = 0;
  b->sealed = 1;
}
