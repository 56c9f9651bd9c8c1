/* locus.c — see locus.h. */
#include "render/locus.h"

int lc_plot(const lc_series* s, const char* path, mt_err* e) { return mt_fail(e, MT_EINTERNAL, "not yet"); }
