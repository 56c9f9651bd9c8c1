/* mtk_base.c — the library's version and its per-thread last error (api/mototake.h). */
#include "api/mototake.h"
#include "api/mtk_internal.h"

#include <stdio.h>
#include <string.h>

#include "base/mt.h"

static _Thread_local char last_error[1024];
static _Thread_local int last_code;

const char* mtk_version(void) { return mt_version(); }
const char* mtk_git_revision(void) { return mt_git_rev(); }
const char* mtk_last_error(void) { return last_error; }
int mtk_last_code(void) { return last_code; }

int api_fail(const mt_err* e) {
  int code = e->code == MT_OK ? MT_EINTERNAL : e->code;
  snprintf(last_error, sizeof last_error, "%s", e->msg[0] ? e->msg : "internal error");
  last_code = code;
  return code;
}

void api_clear_error(void) {
  last_error[0] = 0;
  last_code = MTK_OK;
}
