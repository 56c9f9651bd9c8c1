/* bench_main.c — `bin/mt_bench NAME`: speed figures for `make bench` (never asserted in tests).
 * Benchmarks register like unit tests; each prints its own lines. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tests/bench/bench.h"

static struct { const char* name; bench_fn fn; } g_b[64];
static int g_n;

void bench_register(const char* name, bench_fn fn) {
  if (g_n < 64) {
    g_b[g_n].name = name;
    g_b[g_n].fn = fn;
    g_n++;
  }
}

double bench_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

double bench_cpu(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int bench_cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  int ran = 0;
  for (int i = 0; i < g_n; i++)
    if (argc < 2 || strstr(g_b[i].name, argv[1])) {
      g_b[i].fn();
      ran++;
    }
  return ran ? 0 : 2;
}
