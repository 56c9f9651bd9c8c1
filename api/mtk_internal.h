/* mtk_internal.h — shared by the library's own files (the api folder), never installed. */
#ifndef MTK_INTERNAL_H
#define MTK_INTERNAL_H

#include "base/mt.h"

/* Keep e's message as this thread's last error (mtk_last_error) and return its code (never MTK_OK). */
int api_fail(const mt_err* e);
/* Forget the last error (each public entry point calls it first). */
void api_clear_error(void);

#endif
