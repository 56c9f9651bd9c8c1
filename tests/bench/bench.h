/* bench.h — registration for the benchmarks in tests/bench/ (one .c file each). */
#ifndef MT_BENCH_H
#define MT_BENCH_H
typedef void (*bench_fn)(void);
void bench_register(const char* name, bench_fn fn);
double bench_now(void);
#define MT_BENCH(name)                                                        \
  static void name(void);                                                     \
  __attribute__((constructor)) static void breg_##name(void) { bench_register(#name, name); } \
  static void name(void)
#endif
