/* main.c — the unit-test runner: run every registered test (or those whose names contain
 * argv[1]), one line each, then "N passed, N failed". Exit 1 if any failed.
 * A test that evaluated no CHECK fails ("asserted nothing"): it could not have failed. More
 * registrations than MT_TEST_MAX fail the run before any test runs: a dropped test would
 * otherwise vanish from the count without a word. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/luabox.h"
#include "sim/rig.h"
#include "takes/run.h"
#include "takes/takefile.h"
#include "tests/unit/test.h"

typedef struct entry { const char* name; mt_test_fn fn; } entry;
static entry g_tests[MT_TEST_MAX];
static int g_n;          /* tests in g_tests */
static int g_dropped;    /* registrations past MT_TEST_MAX: the run fails at start */
int mt_test_failed;
long mt_test_checks;
char mt_test_msg[1024];
static char g_tmp[256];

void mt_test_register(const char* name, mt_test_fn fn) {
  if (g_n < MT_TEST_MAX) g_tests[g_n++] = (entry){name, fn};
  else g_dropped++;
}

const char* mt_test_root(void) { return luabox_project_root(); }

const char* mt_test_tmpdir(void) {
  if (!g_tmp[0]) {
    snprintf(g_tmp, sizeof g_tmp, "/tmp/mototake-unit-XXXXXX");
    if (!mkdtemp(g_tmp)) {
      perror("mkdtemp");
      exit(1);
    }
  }
  return g_tmp;
}

rig* mt_test_load_rig(const char* name, const char* const* sets, int nset) {
  char path[4096];
  snprintf(path, sizeof path, "%s/rigs/%s.lua", mt_test_root(), name);
  mt_err e = {0};
  rig* r = rig_load(path, sets, nset, &e);
  if (!r) fprintf(stderr, "%s\n", e.msg);
  return r;
}

rig* mt_test_load_sport(void) { return mt_test_load_rig("sport1000", NULL, 0); }

rig* mt_test_sport_sources(take_source* src, int max, int* n) {
  rig* rg = mt_test_load_sport();
  *n = 0;
  if (!rg || max < 2) return rg;
  src[(*n)++] = (take_source){"rig", "sport1000.lua", rg->source};
  for (int i = 0; i < rg->nmodule && *n < max - 1; i++)
    src[(*n)++] = (take_source){"module", rg->modules[i].name, rg->modules[i].text};
  src[(*n)++] = (take_source){"track", "t.lua", "return {}"};
  return rg;
}

const char* mt_test_take(const char* name, mt_err* e) {
  static char made[16][4096], names[16][64];
  static int n;
  for (int i = 0; i < n; i++)
    if (!strcmp(names[i], name)) return made[i];
  if (n == 16 || strlen(name) >= sizeof names[0]) {
    mt_fail(e, MT_EINTERNAL, "mt_test_take: %s: more than 16 test takes, or a long name", name);
    return NULL;
  }
  char script[4096];
  /* tests/data/NAME.lua, or a shipped script by its path from the root ("takes/countersteer") */
  snprintf(script, sizeof script, strchr(name, '/') ? "%s/%s.lua" : "%s/tests/data/%s.lua", mt_test_root(), name);
  char file[64];
  snprintf(file, sizeof file, "%s", name);
  for (char* c = file; *c; c++)
    if (*c == '/') *c = '_';
  snprintf(made[n], sizeof made[n], "%s/%s.take", mt_test_tmpdir(), file);
  run_opts o = {0};
  o.script = script;
  o.out = made[n];
  o.quiet = 1;
  run_result res;
  if (run_take(&o, &res, e)) return NULL;
  snprintf(names[n], sizeof names[n], "%s", name);
  return made[n++];
}

static int cmp(const void* a, const void* b) {
  return strcmp(((const entry*)a)->name, ((const entry*)b)->name);
}

/* Run one test; 1 if it passed. Prints its ok/FAIL line. */
static int run_one(const entry* t, const char* tag) {
  mt_test_failed = 0;
  mt_test_checks = 0;
  mt_test_msg[0] = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  t->fn();
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  if (!mt_test_failed && mt_test_checks == 0) {
    snprintf(mt_test_msg, sizeof mt_test_msg, "asserted nothing (no CHECK ran), so it cannot fail");
    mt_test_failed = 1;
  }
  if (mt_test_failed)
    printf("FAIL %s%s%s: %s\n", tag ? tag : "", tag ? ":" : "", t->name, mt_test_msg);
  else
    printf("ok   %s%s%s (%.0f ms, %ld checks)\n", tag ? tag : "", tag ? ":" : "", t->name, ms,
           mt_test_checks);
  fflush(stdout);
  return !mt_test_failed;
}

/* The font caches Cairo's text calls fill (cairo's static data, fontconfig's configuration) are
 * kept for the life of the process: released once here, after the last test, so that the run
 * under LeakSanitizer does not depend on every test that draws text releasing them itself. */
static void release_fonts(void) {
  void (*reset)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "cairo_debug_reset_static_data");
  void (*fini)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "FcFini");
  if (reset) reset();
  if (fini) fini();
}

int main(int argc, char** argv) {
  const char* filter = argc > 1 ? argv[1] : NULL;
  const char* tag = getenv("MT_TEST_TAG");   /* e.g. "asan" for the sanitizer run */
  if (g_dropped) {
    printf("FAIL %s%sunit_runner: %d tests registered, the table holds %d (raise MT_TEST_MAX in "
           "tests/unit/test.h)\n0 passed, 1 failed\n", tag ? tag : "", tag ? ":" : "",
           g_n + g_dropped, MT_TEST_MAX);
    return 1;
  }
  qsort(g_tests, g_n, sizeof g_tests[0], cmp);
  int pass = 0, fail = 0;
  for (int i = 0; i < g_n; i++) {
    if (filter && !strstr(g_tests[i].name, filter)) continue;
    if (run_one(&g_tests[i], tag)) pass++;
    else fail++;
  }
  if (g_tmp[0]) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_tmp);
  }
  release_fonts();
  printf("%d passed, %d failed\n", pass, fail);
  return fail ? 1 : 0;
}
