/* test_matfile.c — base/matfile.h's names: the mapping documented in docs/takes.md ("Channels as
 * CSV and as a MATLAB .mat"), that every mapped name is valid, and that a put with an invalid
 * name is refused before matio sees it (the file then never replaces anything). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/matfile.h"
#include "tests/unit/test.h"

MT_TEST(matfile_names_mapped_as_documented) {
  static const char* const cases[][2] = {
      {"speed", "speed"},         {"front.fx", "front_fx"},   {"2nd gear", "x2nd_gear"}, {"end", "xend"},
      {"_lead", "x_lead"},        {"", "x"},                  {"Müller", "M__ller"},     {"for", "xfor"},
      {"endx", "endx"},           {"a-b c", "a_b_c"},
  };
  char out[MATF_NAME_MAX + 1];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    matf_name(cases[i][0], out);
    CHECK_MSG(strcmp(out, cases[i][1]) == 0, "'%s' -> '%s', want '%s'", cases[i][0], out, cases[i][1]);
    CHECK_MSG(matf_valid_name(out), "'%s' is not valid", out);
  }
  char long_name[200];
  memset(long_name, 'a', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = 0;
  matf_name(long_name, out);
  CHECK(strlen(out) == MATF_NAME_MAX && matf_valid_name(out));
  long_name[0] = '9';   /* the x in front, still cut to 63 */
  matf_name(long_name, out);
  CHECK(strlen(out) == MATF_NAME_MAX && out[0] == 'x' && matf_valid_name(out));
  CHECK(!matf_valid_name("end") && !matf_valid_name("a.b") && !matf_valid_name("1a") && !matf_valid_name(""));
}

MT_TEST(matfile_invalid_name_refused_old_file_kept) {
  char path[512];
  snprintf(path, sizeof path, "%s/names.mat", mt_test_tmpdir());
  FILE* f = fopen(path, "w");
  CHECK(f != NULL);
  fputs("old", f);
  fclose(f);
  matf m;
  mt_err e = {0};
  CHECK(matf_open(&m, path, &e) == MT_OK);
  double v[2] = {1, 2};
  CHECK(matf_put_column(&m, "ok_name", v, 2, &e) == MT_OK);
  int rc = matf_put_column(&m, "a.b", v, 2, &e);
  CHECK_MSG(rc == MT_EINTERNAL && strstr(e.msg, "'a.b' is not a MATLAB name"), "rc %d: %s", rc, e.msg);
  matf_abort(&m);
  struct stat st;
  CHECK(stat(path, &st) == 0 && st.st_size == 3);   /* the old file, untouched */
  char tmp[600];
  snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid());
  CHECK(stat(tmp, &st) != 0);   /* no temporary left */
}
