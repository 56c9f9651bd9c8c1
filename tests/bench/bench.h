/* bench.h — registration for the benchmarks in tests/bench/ (one .c file each). */
#ifndef MT_BENCH_H
#define MT_BENCH_H
typedef void (*bench_fn)(void);
void bench_register(const char* name, bench_fn fn);
double bench_now(void);
/* the calling thread's CPU seconds (CLOCK_THREAD_CPUTIME_ID): what other processes inflate least */
double bench_cpu(void);
/* qsort's comparison of doubles, ascending */
int bench_cmp_double(const void* a, const void* b);
#define MT_BENCH(name)                                                        \
  static void name(void);                                                     \
  __attribute__((constructor)) static void breg_##name(void) { bench_register(#name, name); } \
  static void name(void)
#endif
