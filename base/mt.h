/* mt.h — what every mototake module shares: exit codes, the error record, small helpers.
 *
 * Errors travel as values, not as exits: a library function that can fail takes an
 * `mt_err*` and returns MT_OK, MT_EINPUT (the user's file or arguments are wrong) or
 * MT_EINTERNAL (we, the machine or a library failed). Only the CLI turns them into an exit
 * status (0, 2, 1) and a single line on stderr. Messages name their place the way Lua does,
 * "file:line: what: why", so an error in a track, rig or take script points at the line. */
#ifndef MT_H
#define MT_H

#include <stddef.h>
#include <stdarg.h>

enum { MT_OK = 0, MT_EINTERNAL = 1, MT_EINPUT = 2 };

typedef struct mt_err {
  int code;            /* MT_OK when nothing went wrong */
  char msg[1024];      /* one line, no trailing newline */
} mt_err;

/* Record an error (first one wins: later calls do not overwrite a set error) and return code. */
int mt_fail(mt_err* e, int code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
void mt_err_clear(mt_err* e);

/* Allocation that never returns NULL: out of memory is an internal failure and exits 1. */
void* mt_alloc(size_t n);             /* zeroed */
void* mt_realloc(void* p, size_t n);
char* mt_strdup(const char* s);

/* A growing text buffer: mt_sb b = {0}; mt_sbprintf(&b, ...); b.p is NUL-terminated after the
 * first call (NULL before), the caller frees it. */
typedef struct mt_sb { char* p; size_t n, cap; } mt_sb;
void mt_sbprintf(mt_sb* b, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/* The temporary name every atomic writer uses for path: "PATH.tmpPID" (the convention the output
 * rule, base/outfile.h, cleans up after). Reading and writing whole files is there too: this
 * module sits below it and calls nothing above it. */
void mt_tmp_name(char* out, size_t n, const char* path);

/* Program version and the git revision it was built from. */
const char* mt_version(void);
const char* mt_git_rev(void);

/* Levenshtein distance of two short strings (for "did you mean" in error messages). */
int mt_edit_distance(const char* a, const char* b);

/* Numbers: finite check and clamping used everywhere input is validated. */
int mt_isfinite(double x);
/* inline: the rider and the vehicle clamp several times a step (the same comparisons as ever) */
static inline double mt_clamp(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* memset(p, 0, n) for a small struct cleared at every step: the same bytes, written with 16-byte
 * stores. (For a struct of 100-200 bytes GCC's memset is a `rep stos`, whose start-up costs more
 * than the stores.) The stores go through a vector type that may alias anything. */
static inline void mt_zero(void* p, size_t n) {
  typedef unsigned long long mt_zv __attribute__((vector_size(16), may_alias, aligned(1)));
  char* c = (char*)p;
  size_t i = 0;
#pragma GCC unroll 16
  for (; i + 16 <= n; i += 16) *(mt_zv*)(c + i) = (mt_zv){0, 0};
  for (; i < n; i++) c[i] = 0;
}

#define MT_PI 3.14159265358979323846
#define MT_G  9.80665
#define MT_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif
