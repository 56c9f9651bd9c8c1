/* fuzz_lua_common.h — shared by the Lua-loader fuzz targets: small limits, input as text. */
#ifndef FUZZ_LUA_COMMON_H
#define FUZZ_LUA_COMMON_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/luabox.h"

/* Limits small enough for many executions per second; the hostile cases stay hostile. */
static void fuzz_lua_setup(void) {
  static int done;
  if (done) return;
  done = 1;
  luabox_set_defaults(&(luabox_limits){.mem_bytes = 32 << 20, .instructions = 2000000, .seconds = 2});
}

/* The input as a NUL-terminated string (loaders take text; an embedded NUL ends it, as in a take). */
static char* fuzz_text(const uint8_t* data, size_t size) {
  char* s = malloc(size + 1);
  if (!s) abort();
  memcpy(s, data, size);
  s[size] = 0;
  return s;
}

#endif
