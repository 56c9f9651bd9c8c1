/* matfile.c — MATLAB .mat files through matio (see matfile.h). */
#include "base/matfile.h"
#include "base/dynlib.h"

#include <matio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* matio (and HDF5 under it) is opened when the first MAT file is written (base/dynlib.h: linked,
 * it cost every command's start). Each slot has the function's own prototype. */
#define MIO_FUNCS(X) \
  X(Mat_Close) X(Mat_CreateVer) X(Mat_LogInitFunc) X(Mat_Open) X(Mat_VarCreate) X(Mat_VarCreateStruct) \
  X(Mat_VarFree) X(Mat_VarReadNext) X(Mat_VarSetCell) X(Mat_VarSetStructFieldByIndex) X(Mat_VarWrite)
#define MIO_SYM(f) {#f, (void**)&mio.f},
static struct {
  MIO_FUNCS(DL_SLOT)
} mio;
static dl_lib mio_lib = {"matio", 0, ""};

static int mio_load(mt_err* e) {
  static const dl_sym syms[] = {MIO_FUNCS(MIO_SYM)};
  return dl_open(&mio_lib, MT_SONAME_MATIO, syms, DL_LEN(syms), e);
}

/* matio reports through a logger, by default on stderr; ours keeps the first complaint for our
 * own one-line error (matio's words are not the user's: a reader failing on a short file). */
static char mat_complaint[256];

static void mat_log(int level, char* msg) {
  if (level <= 4 && !mat_complaint[0]) snprintf(mat_complaint, sizeof mat_complaint, "%s", msg);   /* error..warning */
}

/* Level 5 with compressed variables (MATLAB's -v7; Octave and SciPy's loadmat read it; v7.3 is
 * HDF5, of which Octave 7.3 lost a cell array: docs/takes.md). Our own header text: matio's
 * default carries the date, and two exports of the same data should be the same bytes. */
int matf_open(matf* m, const char* path, mt_err* e) {
  m->mat = NULL;
  m->nvar = 0;
  m->of.fd = -1;
  m->of.active = 0;
  if (mio_load(e)) return e->code;
  mio.Mat_LogInitFunc("mototake", mat_log);
  if (outfile_open(&m->of, path, OUTFILE_TEMP, e)) return e->code;
  char hdr[116];
  snprintf(hdr, sizeof hdr, "MATLAB 5.0 MAT-file, Platform: any, Created by: mototake %s with libmatio %s", mt_version(),
           MATIO_VERSION_STR);
  /* matio opens by path: the temporary outfile_open created exclusively (truncated, not replaced) */
  m->mat = mio.Mat_CreateVer(m->of.tmp, hdr, MAT_FT_MAT5);
  if (!m->mat) {
    outfile_abort(&m->of);
    return mt_fail(e, MT_EINPUT, "%s: cannot write (matio could not create the file)", path);
  }
  return MT_OK;
}

/* The temporary at its name is still the file outfile_open created (its fd): nothing replaced
 * it with a link or another file while matio wrote by name. */
static int same_file(const matf* m) {
  struct stat a, b;
  return fstat(m->of.fd, &a) == 0 && lstat(m->of.tmp, &b) == 0 && S_ISREG(b.st_mode) && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino;
}

/* Read the whole temporary back: every variable written, each inflated without a complaint.
 * matio does not report failed writes (a full disk or a file size limit left a truncated file
 * and success), so the file is only trusted once it reads back. */
static int reads_back(const matf* m) {
  mat_complaint[0] = 0;
  mat_t* r = mio.Mat_Open(m->of.tmp, MAT_ACC_RDONLY);
  int n = 0;
  for (matvar_t* v; r && (v = mio.Mat_VarReadNext(r)) != NULL; n++) mio.Mat_VarFree(v);
  if (r) mio.Mat_Close(r);
  return r && n == m->nvar && !mat_complaint[0];
}

int matf_commit(matf* m, mt_err* e) {
  int bad = mio.Mat_Close(m->mat) != 0;
  m->mat = NULL;
  const char* why = bad ? "" : !same_file(m) ? " (the temporary was replaced)" : !reads_back(m) ? " (it does not read back: disk full?)" : NULL;
  if (why) {
    outfile_abort(&m->of);
    return mt_fail(e, MT_EINPUT, "%s: write failed%s", m->of.path, why);
  }
  return outfile_commit(&m->of, e);
}

void matf_abort(matf* m) {
  if (m->mat) mio.Mat_Close(m->mat);
  m->mat = NULL;
  outfile_abort(&m->of);
}

/*---- names ----*/

static const char* const keywords[] = {"break",  "case",      "catch",      "classdef", "continue", "else",  "elseif",
                                       "end",    "for",       "function",   "global",   "if",       "otherwise",
                                       "parfor", "persistent", "return",    "spmd",     "switch",   "try",
                                       "while",  NULL};

static int is_keyword(const char* s) {
  for (int i = 0; keywords[i]; i++)
    if (!strcmp(s, keywords[i])) return 1;
  return 0;
}

static int alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int word(unsigned char c) { return alpha(c) || (c >= '0' && c <= '9') || c == '_'; }

int matf_valid_name(const char* s) {
  size_t n = strlen(s);
  if (n == 0 || n > MATF_NAME_MAX || !alpha((unsigned char)s[0]) || is_keyword(s)) return 0;
  for (size_t i = 0; i < n; i++)
    if (!word((unsigned char)s[i])) return 0;
  return 1;
}

void matf_name(const char* s, char* out) {
  char t[MATF_NAME_MAX + 2];
  size_t k = 0;
  for (; s[k] && k < MATF_NAME_MAX; k++) t[k] = word((unsigned char)s[k]) ? s[k] : '_';
  t[k] = 0;
  if (!alpha((unsigned char)t[0]) || is_keyword(t)) snprintf(out, MATF_NAME_MAX + 1, "x%s", t);
  else memcpy(out, t, k + 1);
}

/*---- variables ----*/

/* Write v (freed here) under the checked name. */
static int put(matf* m, const char* name, matvar_t* v, mt_err* e) {
  if (!v) return mt_fail(e, MT_EINTERNAL, "%s: matio could not make variable '%s'", m->of.path, name);
  int rc = mio.Mat_VarWrite(m->mat, v, MAT_COMPRESSION_ZLIB);
  mio.Mat_VarFree(v);
  m->nvar++;
  if (rc) return mt_fail(e, MT_EINPUT, "%s: write failed at variable '%s'", m->of.path, name);
  return MT_OK;
}

static int check_name(const matf* m, const char* name, mt_err* e) {
  if (!matf_valid_name(name)) return mt_fail(e, MT_EINTERNAL, "%s: '%s' is not a MATLAB name", m->of.path, name);
  return MT_OK;
}

int matf_put_matrix(matf* m, const char* name, const double* a, size_t rows, size_t cols, mt_err* e) {
  if (check_name(m, name, e)) return e->code;
  double* c = mt_alloc(sizeof(double) * (rows * cols + 1));
  for (size_t i = 0; i < rows; i++)
    for (size_t j = 0; j < cols; j++) c[j * rows + i] = a[i * cols + j];
  size_t dims[2] = {rows, cols};
  int rc = put(m, name, mio.Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, c, MAT_F_DONT_COPY_DATA), e);
  free(c);
  return rc;
}

int matf_put_column(matf* m, const char* name, const double* v, size_t n, mt_err* e) {
  if (check_name(m, name, e)) return e->code;
  size_t dims[2] = {n, 1};
  return put(m, name, mio.Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, (void*)(uintptr_t)v, MAT_F_DONT_COPY_DATA), e);
}

int matf_put_complex(matf* m, const char* name, const double* re, const double* im, size_t n, mt_err* e) {
  if (check_name(m, name, e)) return e->code;
  size_t dims[2] = {n, 1};
  mat_complex_split_t z = {(void*)(uintptr_t)re, (void*)(uintptr_t)im};
  return put(m, name, mio.Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, &z, MAT_F_DONT_COPY_DATA | MAT_F_COMPLEX), e);
}

/* A char row of s's bytes (copied: the variable owns it); the empty string 0x0, as MATLAB's ''
 * (a 1x0 char is not strcmp-equal to ''). */
static matvar_t* char_row(const char* name, const char* s) {
  size_t n = strlen(s), dims[2] = {n ? 1 : 0, n};
  return mio.Mat_VarCreate(name, MAT_C_CHAR, MAT_T_UTF8, 2, dims, (void*)(uintptr_t)s, 0);
}

int matf_put_string(matf* m, const char* name, const char* s, mt_err* e) {
  if (check_name(m, name, e)) return e->code;
  return put(m, name, char_row(name, s), e);
}

int matf_put_cellstr(matf* m, const char* name, const char* const* s, size_t n, mt_err* e) {
  if (check_name(m, name, e)) return e->code;
  size_t dims[2] = {n, 1};
  matvar_t* c = mio.Mat_VarCreate(name, MAT_C_CELL, MAT_T_CELL, 2, dims, NULL, 0);
  for (size_t i = 0; c && i < n; i++) mio.Mat_VarSetCell(c, (int)i, char_row(NULL, s[i]));
  return put(m, name, c, e);
}

int matf_put_strstruct(matf* m, const char* name, const char* const* fields, const char* const* values, size_t n,
                       mt_err* e) {
  if (check_name(m, name, e)) return e->code;
  for (size_t i = 0; i < n; i++)
    if (check_name(m, fields[i], e)) return e->code;
  size_t dims[2] = {1, 1};
  matvar_t* s = mio.Mat_VarCreateStruct(name, 2, dims, (const char**)fields, (unsigned)n);
  /* by index: by name is a search of the fields for each one (a take may bring 10^6 meta rows) */
  for (size_t i = 0; s && i < n; i++) mio.Mat_VarSetStructFieldByIndex(s, i, 0, char_row(fields[i], values[i]));
  return put(m, name, s, e);
}
