/* jsonout.c — JSON documents to text, checked (see jsonout.h). */
#include "base/jsonout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

char* mt_json_text(const json_t* o, size_t flags, const char* what, mt_err* e) {
  char* txt = json_dumps(o, flags);
  if (!txt) mt_fail(e, MT_EINTERNAL, "%s: cannot format the JSON (non-finite value?)", what);
  return txt;
}

int mt_json_print(FILE* f, const json_t* o, size_t flags, const char* what, mt_err* e) {
  char* txt = mt_json_text(o, flags, what, e);
  if (!txt) return MT_EINTERNAL;
  errno = 0;
  /* the flush is part of the check: a buffered line's write error shows only there */
  int bad = fputs(txt, f) == EOF || fputc('\n', f) == EOF || fflush(f) != 0;
  free(txt);
  if (bad) return mt_fail(e, MT_EINTERNAL, "%s: cannot write the JSON: %s", what, errno ? strerror(errno) : "write error");
  return MT_OK;
}
