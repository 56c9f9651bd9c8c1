/* take_mat.h — `take channels -o X.mat`: a take's channels as a MATLAB level-5 file (through
 * base/matfile.h, matio), the layout of docs/takes.md, "Channels as a .mat":
 *   time      rows x 1 double, s (the CSV's first column)
 *   NAME      rows x 1 double per column, the take's channel name made a MATLAB name
 *             (matf_name: other characters -> '_', an 'x' before a name not starting with a letter)
 *   units     struct: units.time = 's', units.NAME = the channel's units string
 *   names     struct: names.NAME = the take's own channel name (the mapping, both ways)
 *   meta      struct of strings: every metadata row of the take, keys made MATLAB names; of
 *             keys that map alike the first (in the take's order) keeps the name, the others
 *             get _2, _3, ... (again if that meets another key; a take needing more than 8
 *             such rounds is refused, MT_EINPUT)
 * Contract: two columns whose MATLAB names are equal, or a column named like one of the file's
 * own variables (time, units, names, meta), are refused (MT_EINPUT, one line naming the take and
 * both names) by take_mat_check, before anything is read or written. */
#ifndef TAKE_MAT_H
#define TAKE_MAT_H

#include "base/progress.h"
#include "takes/takefile.h"

typedef struct take_mat_cols {
  int n;                           /* columns after time */
  const char* const* names;        /* the take's names of the columns */
  const char* const* units;
  long rows;
  void (*fill)(void* ctx, int c, double* out);   /* column c's rows (c = -1: time) into out */
  void* ctx;
} take_mat_cols;

int take_mat_check(const take_reader* r, const take_mat_cols* tc, mt_err* e);
/* Write out (the output rule: a temporary renamed into place). The bar runs from n to 2n. */
int take_mat_write(const char* out, const take_reader* r, const take_mat_cols* tc, fprog* bar, long n, mt_err* e);

#endif
