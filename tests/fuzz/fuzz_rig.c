/* fuzz_rig.c — libFuzzer target: a rig file's text through rig_load_text (modules such as the
 * engine and tyre presets are still found in the project's rigs/ folder). */
// fuzz-seeds: rigs/*.lua rigs/tyres/*.lua tests/data/hostile/*.lua
#include "sim/rig.h"
#include "tests/fuzz/fuzz_lua_common.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz_lua_setup();
  char* text = fuzz_text(data, size);
  mt_err e = {0};
  rig* r = rig_load_text("fuzz.lua", text, NULL, 0, NULL, 0, &e);
  if (r) rig_free(r);
  else if (e.code == MT_OK || !e.msg[0] || strchr(e.msg, '\n')) abort();
  free(text);
  return 0;
}
