/* fuzz_track.c — libFuzzer target: a track file's text through track_load_text (the sandbox, the
 * readers, the segment checks, closure, layout) and, when it loads, a few queries. */
// fuzz-seeds: sim/tracks/*.lua tests/data/hostile/*.lua
#include "sim/track.h"
#include "tests/fuzz/fuzz_lua_common.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz_lua_setup();
  char* text = fuzz_text(data, size);
  mt_err e = {0};
  track* t = track_load_text("fuzz.lua", text, &e);
  if (t) {
    double p[3], h, L = track_length(t);
    for (int i = 0; i <= 16; i++) track_eval(t, L * i / 16, 0, p, &h);
    track_free(t);
  } else if (e.code == MT_OK || !e.msg[0] || strchr(e.msg, '\n')) {
    abort();   /* a refusal must say why, in one line */
  }
  free(text);
  return 0;
}
