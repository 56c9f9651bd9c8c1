/* fuzz_captions.c — libFuzzer target: a caption file's text (render/captions.h) through
 * cap_load_text (the sandbox, the readers, the field checks) and cap_check; when it loads, every
 * item drawn at its start, middle and end into a small frame (wrapping, stacking, fades).
 * A refusal must say why in one line; an accepted list must keep its items' invariants. */
// fuzz-seeds: takes/captions/*.lua
#include <cairo.h>
#include <dlfcn.h>

#include "render/captions.h"
#include "tests/fuzz/fuzz_lua_common.h"

/* Cairo's and fontconfig's caches are kept for the process: freed at exit so that the leak
 * check at the end of a run reports only ours (as tests/unit/test_layout.c does). */
static void release_fonts(void) {
  cairo_debug_reset_static_data();
  void (*fini)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "FcFini");
  if (fini) fini();
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static int once;
  if (!once++) atexit(release_fonts);
  fuzz_lua_setup();
  char* text = fuzz_text(data, size);
  mt_err e = {0};
  cap_list l;
  static const char* const names[] = {"frame", "steering", "front_wheel"};
  static const char* const marks[] = {"push right", "push left"};
  static const double mark_t[] = {3, 8};
  if (cap_load_text("fuzz.lua", text, &l, &e) == MT_OK && cap_check(&l, 20, names, 3, marks, mark_t, 2, &e) == MT_OK) {
    cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 160, 90);
    cairo_t* cr = cairo_create(s);
    for (int i = 0; i < l.n; i++) {
      const cap_item* it = &l.item[i];
      if (!(it->t0 >= 0 && it->t1 > it->t0 && it->t0 < 20) || !it->text[0] || it->style < 0 || it->style >= CAP_NSTYLE) abort();
      for (int k = 0; k < 3; k++) cap_draw(cr, &l, it->t0 + k * 0.5 * (it->t1 - it->t0), 160, 90, 120, 70);
    }
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) abort();   /* e.g. text Cairo refuses (invalid UTF-8) */
    cairo_destroy(cr);
    cairo_surface_destroy(s);
  } else if (e.code == MT_OK || !e.msg[0] || strchr(e.msg, '\n')) {
    abort();   /* a refusal must say why, in one line */
  }
  cap_free(&l);   /* loaded and refused by cap_check, or empty */
  free(text);
  return 0;
}
