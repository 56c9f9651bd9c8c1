/* test_luabox_limits.c — limits a script cannot escape (issue 11): pcall/xpcall, message
 * handlers, __close and __gc; the wall clock; bounded pattern work; results read back as plain
 * tables; the memory cap bounds the process's real memory. */
#include <lauxlib.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/csv.h"
#include "base/luabox.h"
#include "tests/unit/test.h"

static double secs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int run_lim(const char* src, luabox_limits lim, mt_err* e) {
  lua_State* L = luabox_new(&lim);
  int rc = luabox_run(L, src, strlen(src), "t.lua", 0, e);
  luabox_close(L);
  return rc;
}

static const luabox_limits SMALL = {.mem_bytes = 16 << 20, .instructions = 2000000, .seconds = 5};

MT_TEST(luabox_limit_not_swallowed_by_pcall_in_a_loop) {
  mt_err e = {0};
  double t0 = secs();
  CHECK(run_lim("while true do pcall(function() while true do end end) end", SMALL, &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "t.lua:1:") && strstr(e.msg, "within 2 million instructions"), "message: %s", e.msg);
  CHECK_MSG(secs() - t0 < 10, "took %.2f s", secs() - t0);
}

MT_TEST(luabox_limit_not_swallowed_by_xpcall_handler) {
  mt_err e = {0};
  CHECK(run_lim("while true do xpcall(function() error('x') end, function() while true do end end) end", SMALL, &e) ==
        MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "within 2 million instructions"), "message: %s", e.msg);
  mt_err_clear(&e);
  /* the handler of a limit error is not the script's: it would run with the hook off */
  CHECK(run_lim("local ok, m = xpcall(function() while true do end end, function(m) return 'caught' end)\n"
                "while true do end", SMALL, &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "t.lua:1:") && strstr(e.msg, "instructions"), "message: %s", e.msg);
}

MT_TEST(luabox_limit_not_swallowed_by_close) {
  mt_err e = {0};
  CHECK(run_lim("while true do pcall(function()\n"
                "  local x <close> = setmetatable({}, {__close = function() while true do end end})\n"
                "  error('e') end) end", SMALL, &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "instructions"), "message: %s", e.msg);
}

MT_TEST(luabox_pcall_and_xpcall_still_work) {
  mt_err e = {0};
  CHECK_MSG(run_lim("local ok, m = pcall(error, 'boom'); assert(not ok and m == 'boom')\n"
                    "local a, b, c = pcall(function(x, y) return x + y, 'two' end, 1, 2); assert(a and b == 3 and c == 'two')\n"
                    "local ok2, r = xpcall(function(x) error({code = x}) end, function(err) return err.code * 2 end, 21)\n"
                    "assert(not ok2 and r == 42)\n"
                    "local ok3, v = xpcall(function(x) return x end, print, 7); assert(ok3 and v == 7)",
                    SMALL, &e) == MT_OK, "message: %s", e.msg);
}

MT_TEST(luabox_gc_metamethod_refused) {
  mt_err e = {0};
  CHECK(run_lim("setmetatable({}, {__gc = function() while true do end end})", SMALL, &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "t.lua:1:") && strstr(e.msg, "__gc is not allowed"), "message: %s", e.msg);
  mt_err_clear(&e);
  CHECK(run_lim("local t = setmetatable({}, {__index = function(t, k) return k .. '!' end}); assert(t.a == 'a!')", SMALL,
                &e) == MT_OK);
}

MT_TEST(luabox_wall_clock_stops_few_instruction_heavy_work) {
  /* string.rep does its work in C: a billion instructions would take minutes; the clock stops it */
  mt_err e = {0};
  luabox_limits lim = {.mem_bytes = 64 << 20, .instructions = 1000000000L, .seconds = 0.3};
  double t0 = secs();
  CHECK(run_lim("while true do local s = string.rep('x', 1 << 20) end", lim, &e) == MT_EINPUT);
  double dt = secs() - t0;
  CHECK_MSG(strstr(e.msg, "within 0.3 s"), "message: %s", e.msg);
  CHECK_MSG(dt >= 0.3 && dt < 5, "took %.2f s", dt);   /* generous: the machine may be busy */
  mt_err_clear(&e);
  /* a few instructions, each doing much work in C, inside pcall: still stopped, still in time */
  t0 = secs();
  CHECK(run_lim("while true do pcall(string.rep, 'x', 32 << 20) end", lim, &e) == MT_EINPUT);
  dt = secs() - t0;
  CHECK_MSG(strstr(e.msg, "within 0.3 s"), "message: %s", e.msg);
  CHECK_MSG(dt >= 0.3 && dt < 5, "took %.2f s", dt);   /* generous: the machine may be busy */
}

MT_TEST(luabox_pattern_work_bounded) {
  mt_err e = {0};
  double t0 = secs();
  CHECK(run_lim("return string.find(string.rep('a', 3000), string.rep('a*', 40) .. 'b')", SMALL, &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "string.find: pattern") && strstr(e.msg, "3000-byte string"), "message: %s", e.msg);
  mt_err_clear(&e);
  CHECK(run_lim("return (string.rep('a', 60)):match(string.rep('a?', 60) .. string.rep('a', 60) .. 'b')", SMALL, &e) ==
        MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "string.match: pattern"), "message: %s", e.msg);
  mt_err_clear(&e);
  /* found by fuzz_rig: each of 2^20 paths compares 60 more items (27 s before the item factor) */
  CHECK(run_lim("return string.match(string.rep('a', 60), string.rep('a?', 20) .. string.rep('a', 60) .. 'b')", SMALL,
                &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "string.match: pattern"), "message: %s", e.msg);
  CHECK_MSG(secs() - t0 < 10, "took %.2f s", secs() - t0);
  mt_err_clear(&e);
  /* ordinary uses pass, with the results Lua gives */
  CHECK_MSG(run_lim("local k, v = ('lean = 45'):match('^(%w+)%s*=%s*(%w+)$'); assert(k == 'lean' and v == '45')\n"
                    "local s = string.rep('a b  ', 4000); local r, n = s:gsub('%s+', ' '); assert(n == 8000)\n"
                    "assert(string.find(string.rep('x', 1e6) .. 'a*b', 'a*b', 1, true) == 1e6 + 1)\n"
                    "local c = 0; for w in ('one two three'):gmatch('%a+') do c = c + 1 end; assert(c == 3)\n"
                    "assert(('x'):rep(3) == 'xxx' and ('abc'):upper() == 'ABC')",
                    SMALL, &e) == MT_OK, "message: %s", e.msg);
  /* the string metatable is locked */
  CHECK(run_lim("assert(getmetatable('') == false)", SMALL, &e) == MT_OK);
}

MT_TEST(luabox_c_loops_bounded) {
  mt_err e = {0};
  CHECK_MSG(run_lim("assert(string.rep('', 1e15) == '' and string.rep('', 1e15, '') == '')\n"
                    "assert(string.rep('ab', 3, ',') == 'ab,ab,ab')\n"
                    "local t = {1, 2, 3}; table.insert(t, 1, 0); assert(table.remove(t) == 3 and t[1] == 0)\n"
                    "assert(table.remove(t, 1) == 0 and #t == 2)\n"
                    "local u = table.move({1, 2, 3}, 1, 3, 2, {}); assert(u[2] == 1 and u[4] == 3)",
                    SMALL, &e) == MT_OK, "message: %s", e.msg);
  CHECK(run_lim("table.move({}, 1, 1e15, 1, {})", SMALL, &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "t.lua:1: table.move: 1e+15 elements"), "message: %s", e.msg);
}

MT_TEST(luabox_results_are_plain_copies) {
  lua_State* L = luabox_new(NULL);
  mt_err e = {0};
  const char* src =
      "local t = {a = 1, sub = {b = 2}}; t.self = t\n"
      "setmetatable(t.sub, {__index = function() error('boom') end, __len = function() while true do end end})\n"
      "return setmetatable(t, {__index = function() while true do end end, __newindex = error})";
  CHECK_MSG(luabox_run(L, src, strlen(src), "t.lua", 1, &e) == MT_OK, "message: %s", e.msg);
  CHECK(lua_getmetatable(L, -1) == 0);
  CHECK(lua_getfield(L, -1, "missing") == LUA_TNIL);   /* would loop or raise outside pcall before */
  lua_pop(L, 1);
  CHECK(lua_getfield(L, -1, "a") == LUA_TNUMBER && lua_tonumber(L, -1) == 1);
  lua_pop(L, 1);
  CHECK(lua_getfield(L, -1, "sub") == LUA_TTABLE);
  CHECK(lua_getfield(L, -1, "nope") == LUA_TNIL);
  lua_pop(L, 1);
  CHECK(luaL_len(L, -1) == 0);
  CHECK(lua_getfield(L, -1, "b") == LUA_TNUMBER && lua_tonumber(L, -1) == 2);
  lua_pop(L, 2);
  CHECK(lua_getfield(L, -1, "self") == LUA_TTABLE && lua_rawequal(L, -1, -2));   /* cycles kept */
  lua_pop(L, 2);
  luabox_close(L);
}

MT_TEST(luabox_deep_nesting_refused) {
  lua_State* L = luabox_new(NULL);
  mt_err e = {0};
  const char* src = "local t = {} for i = 1, 100000 do t = {t} end return t";
  CHECK(luabox_run(L, src, strlen(src), "t.lua", 1, &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "t.lua: tables nested deeper than 200 levels"), "message: %s", e.msg);
  luabox_close(L);
}

static long status_kib(const char* key) {   /* a "Vm…:   N kB" line of /proc/self/status */
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  size_t n = strlen(key);
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, key, n) == 0) v = atol(line + n);
  if (f) fclose(f);
  return v;
}

/* Resident memory a child adds while it runs src in a box capped at cap bytes, in bytes. The
 * child inherits the test runner's heap, free blocks included (earlier tests freed a lot), so it
 * first gives free memory back (malloc_trim) and resets its peak (clear_refs 5), then reports
 * its peak resident size above where it started. */
static long child_growth(const char* src, size_t cap) {
  int fd[2];
  if (pipe(fd) != 0) return -1;
  pid_t p = fork();
  if (p == 0) {
    close(fd[0]);
    malloc_trim(0);
    FILE* c = fopen("/proc/self/clear_refs", "w");
    if (c) {
      fputs("5", c);
      fclose(c);
    }
    long rss0 = status_kib("VmRSS:");
    lua_State* L = luabox_new(&(luabox_limits){.mem_bytes = cap, .instructions = 400000000L, .seconds = 20});
    mt_err e = {0};
    luabox_run(L, src, strlen(src), "m.lua", 0, &e);
    long grow = (status_kib("VmHWM:") - rss0) * 1024L;
    if (write(fd[1], &grow, sizeof grow) != (ssize_t)sizeof grow) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  long grow = -1;
  if (read(fd[0], &grow, sizeof grow) != (ssize_t)sizeof grow) grow = -1;
  close(fd[0]);
  int st;
  waitpid(p, &st, 0);
  return grow;
}

MT_TEST(luabox_memory_cap_bounds_real_memory) {
  /* Many small tables: malloc's per-block overhead made the old count ~30% short of the truth. */
  size_t cap = 32 << 20;
  long grow = child_growth("local t = {} for i = 1, 1e9 do t[#t + 1] = {i} end", cap);
  CHECK(grow >= 0);
#ifdef __SANITIZE_ADDRESS__
  /* AddressSanitizer keeps freed blocks in quarantine and adds shadow memory: resident memory
   * measures it, not us. The bound is checked by the plain build of this test. */
  return;
#endif
  CHECK_MSG(grow <= (long)cap, "peak %ld KiB above the start with a cap of %zu KiB", grow >> 10, cap >> 10);
  CHECK_MSG(grow > (long)cap / 2, "the script did not reach the cap: %ld KiB", grow >> 10);
}

MT_TEST(csv_quote_rfc4180) {
  char b[64];
  CHECK(csv_quote(b, sizeof b, "speed") == 5 && strcmp(b, "speed") == 0);
  CHECK(csv_quote(b, sizeof b, "a,b") == 5 && strcmp(b, "\"a,b\"") == 0);
  CHECK(strcmp((csv_quote(b, sizeof b, "say \"hi\""), b), "\"say \"\"hi\"\"\"") == 0);
  CHECK(strcmp((csv_quote(b, sizeof b, "two\nlines"), b), "\"two\nlines\"") == 0);
  CHECK(strcmp((csv_quote(b, sizeof b, "cr\r"), b), "\"cr\r\"") == 0);
  CHECK(csv_quote(b, 4, "a,b") == 5 && strcmp(b, "\"a,") == 0);   /* truncated, length still reported */
}
