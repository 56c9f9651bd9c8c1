/* matfile.h — MATLAB .mat files (level 5, zlib-compressed) written through matio, under the
 * output rule of base/outfile.h. The format is matio's, not ours: this module only names
 * variables, shapes arrays and moves the finished file into place.
 *
 * Contract:
 *  - matf_open checks the target as every output is checked (outfile_open: no directory, link,
 *    device or input at the path), creates "PATH.tmpPID" exclusively and lets matio write there.
 *    matf_commit closes the file, checks that the temporary is still the file created (not
 *    replaced meanwhile) and renames it over the target; matf_abort removes it. Until commit the
 *    old target is untouched; on any failure it stays as it was. matio does not report failed
 *    writes, so commit first reads the whole file back (every variable, inflated): a short
 *    file is refused, never renamed into place.
 *  - matio's messages are kept from stderr (its logger is process-wide: one writer at a time).
 *  - Every variable name must be a valid MATLAB name (matf_valid_name); a put with another name
 *    is refused (MT_EINTERNAL: callers map names first with matf_name). Struct field names
 *    likewise. Numbers are written as double, bit for bit; strings as char rows (UTF-8 bytes).
 *  - The file is deterministic: the same variables give the same bytes (a fixed header text, no
 *    date).
 * Every failure is one message naming the path, with MT_EINPUT (the path cannot be written) or
 * MT_EINTERNAL (matio refused a variable). */
#ifndef MATFILE_H
#define MATFILE_H

#include <stddef.h>

#include "base/mt.h"
#include "base/outfile.h"

#define MATF_NAME_MAX 63   /* MATLAB's namelengthmax */

typedef struct matf {
  outfile of;
  void* mat;   /* matio's mat_t, NULL when closed */
  int nvar;    /* variables written */
} matf;

int matf_open(matf* m, const char* path, mt_err* e);
int matf_commit(matf* m, mt_err* e);
void matf_abort(matf* m);

/* 1 when s is a valid MATLAB name: a letter, then letters, digits and '_', at most
 * MATF_NAME_MAX characters, not a keyword (end, for, if, ...). */
int matf_valid_name(const char* s);
/* s made a valid MATLAB name into out (MATF_NAME_MAX + 1 bytes): every byte that is not an ASCII
 * letter, digit or '_' becomes '_'; a name that then does not start with a letter (or is empty,
 * or is a keyword) gets an 'x' in front; cut to MATF_NAME_MAX. A valid name is kept as it is. */
void matf_name(const char* s, char* out);

/* A real double array rows x cols from row-major data (MATLAB stores column-major: converted). */
int matf_put_matrix(matf* m, const char* name, const double* a, size_t rows, size_t cols, mt_err* e);
/* A column vector n x 1. */
int matf_put_column(matf* m, const char* name, const double* v, size_t n, mt_err* e);
/* A complex column vector n x 1 (re, im). */
int matf_put_complex(matf* m, const char* name, const double* re, const double* im, size_t n, mt_err* e);
/* A char row. */
int matf_put_string(matf* m, const char* name, const char* s, mt_err* e);
/* A cell column n x 1 of char rows. */
int matf_put_cellstr(matf* m, const char* name, const char* const* s, size_t n, mt_err* e);
/* A 1x1 struct whose field fields[i] (valid names, distinct) holds the char row values[i]. */
int matf_put_strstruct(matf* m, const char* name, const char* const* fields, const char* const* values, size_t n,
                       mt_err* e);

#endif
