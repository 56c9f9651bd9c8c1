/* main.c — the unit-test runner: run every registered test (or those whose names contain
 * argv[1]), one line each, then "N passed, N failed". Exit 1 if any failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/luabox.h"
#include "sim/rig.h"
#include "tests/unit/test.h"

typedef struct entry { const char* name; mt_test_fn fn; } entry;
static entry g_tests[1024];
static int g_n;
int mt_test_failed;
char mt_test_msg[1024];
static char g_tmp[256];

void mt_test_register(const char* name, mt_test_fn fn) {
  if (g_n < 1024) g_tests[g_n++] = (entry){name, fn};
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

rig* mt_test_load_sport(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/rigs/sport1000.lua", mt_test_root());
  mt_err e = {0};
  rig* r = rig_load(path, NULL, 0, &e);
  if (!r) fprintf(stderr, "%s\n", e.msg);
  return r;
}

static int cmp(const void* a, const void* b) {
  return strcmp(((const entry*)a)->name, ((const entry*)b)->name);
}

int main(int argc, char** argv) {
  const char* filter = argc > 1 ? argv[1] : NULL;
  const char* tag = getenv("MT_TEST_TAG");   /* e.g. "asan" for the sanitizer run */
  qsort(g_tests, g_n, sizeof g_tests[0], cmp);
  int pass = 0, fail = 0;
  for (int i = 0; i < g_n; i++) {
    if (filter && !strstr(g_tests[i].name, filter)) continue;
    mt_test_failed = 0;
    mt_test_msg[0] = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    g_tests[i].fn();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    if (mt_test_failed) {
      printf("FAIL %s%s%s: %s\n", tag ? tag : "", tag ? ":" : "", g_tests[i].name, mt_test_msg);
      fail++;
    } else {
      printf("ok   %s%s%s (%.0f ms)\n", tag ? tag : "", tag ? ":" : "", g_tests[i].name, ms);
      pass++;
    }
    fflush(stdout);
  }
  if (g_tmp[0]) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_tmp);
  }
  printf("%d passed, %d failed\n", pass, fail);
  return fail ? 1 : 0;
}
