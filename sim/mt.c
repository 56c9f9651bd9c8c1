/* mt.c — the shared error record, allocation that cannot return NULL, atomic file writes. */
#include "sim/mt.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MT_GIT_REV
#define MT_GIT_REV "unknown"
#endif

const char* mt_version(void) { return "0.1.0"; }
const char* mt_git_rev(void) { return MT_GIT_REV; }

int mt_fail(mt_err* e, int code, const char* fmt, ...) {
  if (!e) return code;
  if (e->code != MT_OK) return e->code;   /* the first, most specific error wins */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
  /* One line: a user error message must never spill over several lines. */
  for (char* p = e->msg; *p; p++)
    if (*p == '\n' || *p == '\r') *p = ' ';
  e->code = code;
  return code;
}

void mt_err_clear(mt_err* e) {
  e->code = MT_OK;
  e->msg[0] = 0;
}

static void oom(void) {
  fputs("mototake: out of memory\n", stderr);
  exit(MT_EINTERNAL);
}

void* mt_alloc(size_t n) {
  void* p = calloc(1, n ? n : 1);
  if (!p) oom();
  return p;
}

void* mt_realloc(void* p, size_t n) {
  void* q = realloc(p, n ? n : 1);
  if (!q) oom();
  return q;
}

char* mt_strdup(const char* s) {
  size_t n = strlen(s) + 1;
  char* d = mt_alloc(n);
  memcpy(d, s, n);
  return d;
}

char* mt_read_file(const char* path, size_t* len, mt_err* e) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    mt_fail(e, MT_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char* buf = mt_alloc(cap);
  for (;;) {
    if (n + 1 >= cap) buf = mt_realloc(buf, cap *= 2);
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    mt_fail(e, MT_EINPUT, "%s: read error", path);
    return NULL;
  }
  buf[n] = 0;
  if (len) *len = n;
  return buf;
}

void mt_tmp_name(char* out, size_t n, const char* path) {
  snprintf(out, n, "%s.tmp%ld", path, (long)getpid());
}

int mt_write_file_atomic(const char* path, const void* data, size_t len, mt_err* e) {
  char tmp[4096];
  mt_tmp_name(tmp, sizeof tmp, path);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return mt_fail(e, MT_EINPUT, "%s: cannot write: %s", path, strerror(errno));
  const char* p = data;
  size_t left = len;
  while (left) {
    ssize_t w = write(fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      int er = errno;
      close(fd);
      unlink(tmp);
      return mt_fail(e, MT_EINPUT, "%s: write failed: %s", path, strerror(er));
    }
    p += w;
    left -= (size_t)w;
  }
  if (fsync(fd) != 0 || close(fd) != 0) {
    unlink(tmp);
    return mt_fail(e, MT_EINPUT, "%s: write failed: %s", path, strerror(errno));
  }
  if (rename(tmp, path) != 0) {
    int er = errno;
    unlink(tmp);
    return mt_fail(e, MT_EINPUT, "%s: cannot rename into place: %s", path, strerror(er));
  }
  return MT_OK;
}

int mt_isfinite(double x) { return isfinite(x); }

double mt_clamp(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }
