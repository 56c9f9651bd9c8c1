/* test_jsonout.c — base/jsonout.h: a document jansson cannot format and a stream that cannot be
 * written are errors with a message, and a good document prints as json_dumps's text and "\n". */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonout.h"
#include "tests/unit/test.h"

MT_TEST(jsonout_unformattable_is_an_error) {
  char buf[64] = "";
  FILE* f = fmemopen(buf, sizeof buf, "w");
  CHECK(f != NULL);
  json_t* scalar = json_integer(1);   /* a scalar root: json_dumps gives NULL without JSON_ENCODE_ANY */
  mt_err e = {0};
  int rc = mt_json_print(f, scalar, JSON_COMPACT, "probe", &e);
  json_decref(scalar);
  fclose(f);
  CHECK(rc == MT_EINTERNAL && e.code == MT_EINTERNAL);
  CHECK_MSG(strcmp(e.msg, "probe: cannot format the JSON (non-finite value?)") == 0, "message: %s", e.msg);
  CHECK(buf[0] == 0);   /* nothing written */
  mt_err e2 = {0};
  CHECK(mt_json_text(NULL, 0, "probe", &e2) == NULL && e2.code == MT_EINTERNAL);
}

MT_TEST(jsonout_failed_write_is_an_error) {
  FILE* f = fopen("/dev/full", "w");   /* every write fails with ENOSPC, at the flush */
  CHECK(f != NULL);
  json_t* o = json_pack("{s:i}", "a", 1);
  mt_err e = {0};
  int rc = mt_json_print(f, o, JSON_COMPACT, "probe", &e);
  json_decref(o);
  fclose(f);
  CHECK(rc == MT_EINTERNAL);
  CHECK_MSG(strstr(e.msg, "probe: cannot write the JSON: ") == e.msg, "message: %s", e.msg);
}

MT_TEST(jsonout_prints_the_dump_and_a_newline) {
  char buf[64] = "";
  FILE* f = fmemopen(buf, sizeof buf, "w");
  CHECK(f != NULL);
  json_t* o = json_pack("{s:f,s:[i,i]}", "x", 0.1, "v", 1, 2);
  mt_err e = {0};
  CHECK(mt_json_print(f, o, JSON_COMPACT | JSON_REAL_PRECISION(10), "probe", &e) == MT_OK);
  char* want = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10));
  json_decref(o);
  fclose(f);
  CHECK(want != NULL);
  size_t n = strlen(want);
  int same = strncmp(buf, want, n) == 0 && buf[n] == '\n' && buf[n + 1] == 0;
  free(want);
  CHECK_MSG(same, "printed: %s", buf);
}
