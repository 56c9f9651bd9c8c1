/* fuzz_script.c — libFuzzer target: a take script's text through script_load_text, then its
 * event conditions called once with an empty channel table (as `run` does every step). */
// fuzz-seeds: takes/*.lua tests/data/*.lua tests/data/hostile/*.lua
#include "takes/script.h"
#include "tests/fuzz/fuzz_lua_common.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz_lua_setup();
  char* text = fuzz_text(data, size);
  mt_err e = {0};
  take_script* s = script_load_text("fuzz.lua", text, &e);
  if (s) {
    unsigned char fired[256] = {0};
    const char* names[1] = {"speed"};
    double values[1] = {20};
    mt_err e2 = {0};
    if (script_events_resolve(s, 0.001, &e2) == MT_OK)
      for (int k = 0; k < 3; k++)
        if (script_next_event(s, k, names, values, 1, 0.001 * k, fired, &e2) == -2) break;
    script_free(s);
  } else if (e.code == MT_OK || !e.msg[0] || strchr(e.msg, '\n')) {
    abort();
  }
  free(text);
  return 0;
}
