/* csv.c — RFC 4180 field quoting (see csv.h). */
#include "base/csv.h"

#include <string.h>

static int needs_quotes(const char* s) { return s[strcspn(s, ",\"\r\n")] != 0; }

void csv_field(FILE* f, const char* s) {
  if (!needs_quotes(s)) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

size_t csv_quote(char* out, size_t n, const char* s) {
  size_t k = 0;
#define PUT(c) do { if (k + 1 < n) out[k] = (c); k++; } while (0)
  if (!needs_quotes(s)) {
    for (; *s; s++) PUT(*s);
  } else {
    PUT('"');
    for (; *s; s++) {
      if (*s == '"') PUT('"');
      PUT(*s);
    }
    PUT('"');
  }
#undef PUT
  if (n) out[k < n ? k : n - 1] = 0;
  return k;
}

int csv_next(const char** pp, char* out, size_t n) {
  const char* p = *pp;
  size_t k = 0;
#define PUT(c) do { if (k + 1 < n) out[k] = (c); k++; } while (0)
  if (!*p) {
    if (n) out[0] = 0;
    return 0;
  }
  int rc = 1;
  if (*p == '"') {
    for (p++;; p++) {
      if (!*p) {
        rc = -1;   /* not closed */
        break;
      }
      if (*p == '"') {
        if (p[1] == '"') {
          PUT('"');
          p++;
          continue;
        }
        p++;
        if (*p && *p != ',') rc = -1;   /* text after the closing quote */
        break;
      }
      PUT(*p);
    }
  } else {
    for (; *p && *p != ','; p++) PUT(*p);
  }
#undef PUT
  if (n) out[k < n ? k : n - 1] = 0;
  if (rc > 0 && *p == ',') p++;
  *pp = p;
  return rc;
}
