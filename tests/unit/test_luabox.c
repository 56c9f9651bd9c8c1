/* test_luabox.c — the sandbox: what is removed, limits, units, located errors. */
#include <lauxlib.h>
#include <string.h>

#include "base/luabox.h"
#include "tests/unit/test.h"

static int run(const char* src, mt_err* e) {
  lua_State* L = luabox_new(&(luabox_limits){.mem_bytes = 16 << 20, .instructions = 20000000});
  int rc = luabox_run(L, src, strlen(src), "t.lua", 0, e);
  luabox_close(L);
  return rc;
}

MT_TEST(luabox_no_io_os_dofile) {
  mt_err e = {0};
  CHECK(run("assert(io == nil and os == nil and dofile == nil and loadfile == nil and debug == nil)", &e) == MT_OK);
  CHECK(run("assert(string.dump == nil and package == nil)", &e) == MT_OK);
  mt_err_clear(&e);
  CHECK(run("io.open('/etc/passwd')", &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "t.lua:1:") != NULL, "message: %s", e.msg);
}

MT_TEST(luabox_load_text_only) {
  mt_err e = {0};
  CHECK(run("local f = load('return 1+1'); assert(f() == 2)", &e) == MT_OK);
  /* "\27Lua" is the binary-chunk signature: must be refused */
  CHECK(run("local f, err = load('\\27Lua....'); assert(f == nil and err:find('binary'))", &e) == MT_OK);
}

MT_TEST(luabox_endless_loop_stopped) {
  mt_err e = {0};
  CHECK(run("local x = 0\nwhile true do x = x + 1 end", &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "t.lua:2:") && strstr(e.msg, "endless loop"), "message: %s", e.msg);
}

MT_TEST(luabox_memory_capped) {
  mt_err e = {0};
  CHECK(run("local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1000) .. i end", &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "memory") != NULL, "message: %s", e.msg);
}

MT_TEST(luabox_units) {
  mt_err e = {0};
  CHECK(run("assert(units.feet(269) == 269 * 0.3048)\n"
            "assert(math.abs(units.kmh(36) - 10) < 1e-12)\n"
            "assert(math.abs(units.mph(1) - 0.44704) < 1e-15)\n"
            "assert(math.abs(units.deg(180) - math.pi) < 1e-15)\n"
            "assert(math.abs(units.rpm(60) - 2*math.pi) < 1e-15)\n"
            "assert(require('units') == units)", &e) == MT_OK);
}

MT_TEST(luabox_require_confined) {
  mt_err e = {0};
  CHECK(run("require('../../etc/passwd')", &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "invalid module name"), "message: %s", e.msg);
  mt_err_clear(&e);
  CHECK(run("require('no_such_module_here')", &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "not found"), "message: %s", e.msg);
}

MT_TEST(luabox_random_is_reproducible) {
  lua_State* L1 = luabox_new(NULL);
  lua_State* L2 = luabox_new(NULL);
  mt_err e = {0};
  const char* s = "return math.random()";
  CHECK(luabox_run(L1, s, strlen(s), "a", 1, &e) == MT_OK);
  CHECK(luabox_run(L2, s, strlen(s), "b", 1, &e) == MT_OK);
  double a = lua_tonumber(L1, -1), b = lua_tonumber(L2, -1);
  luabox_close(L1);
  luabox_close(L2);
  CHECK(a == b);
}

MT_TEST(luabox_syntax_error_names_line) {
  mt_err e = {0};
  CHECK(run("local a = 1\nlocal b = = 2\n", &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "t.lua:2:") != NULL, "message: %s", e.msg);
}

MT_TEST(luabox_line_locator) {
  const char* src =
      "-- a comment { with braces }\n"
      "local x = f({ 1, 2 })\n"
      "return {\n"
      "  name = \"x { y\",\n"
      "  segments = {\n"
      "    {units.feet(10), 2, 3},\n"
      "    { length = 5,\n"
      "      curvature = 0.1 },\n"
      "    {7, 8, 9},\n"
      "  },\n"
      "}\n";
  CHECK_NEAR(lb_line(src, (lb_key[]){{"segments", 0}}, 1), 5, 0);
  CHECK_NEAR(lb_line(src, (lb_key[]){{"segments", 0}, {NULL, 1}}, 2), 6, 0);
  CHECK_NEAR(lb_line(src, (lb_key[]){{"segments", 0}, {NULL, 2}, {"curvature", 0}}, 3), 8, 0);
  CHECK_NEAR(lb_line(src, (lb_key[]){{"segments", 0}, {NULL, 3}, {NULL, 2}}, 3), 9, 0);
  CHECK_NEAR(lb_line(src, (lb_key[]){{"name", 0}}, 1), 4, 0);
}

MT_TEST(luabox_reader_errors_located) {
  const char* src = "return {\n  segments = {\n    {length = 'ten'},\n  }\n}\n";
  lua_State* L = luabox_new(NULL);
  mt_err e = {0};
  CHECK(luabox_run(L, src, strlen(src), "trk.lua", 1, &e) == MT_OK);
  lb_scope top = {.file = "trk.lua", .src = src};
  int pushed;
  CHECK(lb_table(L, -1, &top, "segments", 0, 1, &pushed, &e) == MT_OK && pushed);
  int pushed2;
  CHECK(lb_table(L, -1, &top, NULL, 1, 1, &pushed2, &e) == MT_OK && pushed2);
  lb_scope seg = lb_enter(&top, "segments", 0, NULL);
  seg = lb_enter(&seg, NULL, 1, "segment 1");
  double v;
  CHECK(lb_num(L, -1, &seg, "length", 1, 1, 0, &v, &e) == MT_EINPUT);
  luabox_close(L);
  CHECK_MSG(strcmp(e.msg, "trk.lua:3: segment 1: field 'length': expected a number, got string") == 0,
            "message: %s", e.msg);
}
