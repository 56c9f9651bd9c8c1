/* test_dynlib.c — base/dynlib.h: a library opened on first use fills every slot or none, its
 * failures name the library, the file and the missing name, and the first result is kept. */
#include <math.h>
#include <string.h>

#include "base/dynlib.h"
#include "tests/unit/test.h"

MT_TEST(dynlib_fills_every_slot_with_the_named_function) {
  __typeof__(cos)* c = NULL;
  __typeof__(hypot)* h = NULL;
  const dl_sym syms[] = {{"cos", (void**)&c}, {"hypot", (void**)&h}};
  dl_lib lib = {"the maths library", 0, ""};
  mt_err e = {0};
  CHECK_MSG(dl_open(&lib, "libm.so.6", syms, 2, &e) == MT_OK, "%s", e.msg);
  CHECK(c && h && c(0.0) == 1.0 && h(3, 4) == 5.0);
  c = NULL;   /* a second call returns the first result at once, without looking again */
  CHECK(dl_open(&lib, "libm.so.6", syms, 2, &e) == MT_OK && c == NULL);
}

MT_TEST(dynlib_a_missing_name_fills_nothing_and_is_named) {
  __typeof__(cos)* c = NULL;
  void* x = NULL;
  const dl_sym syms[] = {{"cos", (void**)&c}, {"mt_no_such_function", &x}};
  dl_lib lib = {"the maths library", 0, ""};
  mt_err e = {0};
  CHECK(dl_open(&lib, "libm.so.6", syms, 2, &e) == MT_EINTERNAL);
  CHECK_MSG(c == NULL && x == NULL, "a slot was filled although a name is missing");
  CHECK_MSG(strstr(e.msg, "the maths library") && strstr(e.msg, "libm.so.6") && strstr(e.msg, "mt_no_such_function"),
            "message: %s", e.msg);
  mt_err e2 = {0};   /* the failure is kept: the same message again, nothing filled */
  CHECK(dl_open(&lib, "libm.so.6", syms, 2, &e2) == MT_EINTERNAL && strcmp(e.msg, e2.msg) == 0 && c == NULL);
}

MT_TEST(dynlib_a_missing_library_is_named_with_how_to_get_it) {
  void* x = NULL;
  const dl_sym syms[] = {{"f", &x}};
  dl_lib lib = {"FFmpeg's libavcodec", 0, ""};
  mt_err e = {0};
  CHECK(dl_open(&lib, "libmt-not-installed.so.0", syms, 1, &e) == MT_EINTERNAL && x == NULL);
  CHECK_MSG(strstr(e.msg, "cannot load FFmpeg's libavcodec (libmt-not-installed.so.0)") && strstr(e.msg, "make deps") &&
                !strchr(e.msg, '\n'),
            "message: %s", e.msg);
}
