/* linear_out.c — eigenvalues of a linear model, and its M-file and JSON (see linear.h). */
#include "sim/linear.h"
#include "base/jsonout.h"
#include "base/matfile.h"
#include "base/outfile.h"

#include <complex.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lin_eig(const lin_model* lm, double* re, double* im, mt_err* e) {
  int n = lm->n;
  if (n == 0) return MT_OK;
  double* a = mt_alloc(sizeof(double) * (size_t)n * n);
  memcpy(a, lm->A, sizeof(double) * (size_t)n * n);
  int info = LAPACKE_dgeev(LAPACK_ROW_MAJOR, 'N', 'N', n, a, n, re, im, NULL, n, NULL, n);
  free(a);
  if (info != 0) return mt_fail(e, MT_EINTERNAL, "linearise: the eigenvalue solve (dgeev) failed (info %d)", info);
  return MT_OK;
}

int lin_freq_response(const lin_model* lm, int out, int in, double omega, double G[2], mt_err* e) {
  int n = lm->n;
  if (out < 0 || out >= lm->m || in < 0 || in >= lm->r) return mt_fail(e, MT_EINTERNAL, "lin_freq_response: no such input/output");
  lapack_complex_double* a = mt_alloc(sizeof(lapack_complex_double) * ((size_t)n * n + n + 1));
  lapack_complex_double* b = a + (size_t)n * n;
  lapack_int* piv = mt_alloc(sizeof(lapack_int) * (n + 1));
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) a[(size_t)i * n + j] = lapack_make_complex_double(-lm->A[(size_t)i * n + j], 0);
    a[(size_t)i * n + i] = lapack_make_complex_double(-lm->A[(size_t)i * n + i], omega);
    b[i] = lapack_make_complex_double(lm->B[(size_t)i * lm->r + in], 0);
  }
  int info = n ? LAPACKE_zgesv(LAPACK_ROW_MAJOR, n, 1, a, n, piv, b, 1) : 0;
  int rc = MT_OK;
  if (info != 0) {
    rc = mt_fail(e, MT_EINTERNAL, "lin_freq_response: jwI - A is singular at w = %g rad/s (info %d)", omega, info);
  } else {
    double re = lm->D[(size_t)out * lm->r + in], im = 0;
    for (int j = 0; j < n; j++) {
      double c = lm->C[(size_t)out * n + j];
      re += c * creal(b[j]);
      im += c * cimag(b[j]);
    }
    G[0] = re;
    G[1] = im;
  }
  free(a);
  free(piv);
  return rc;
}

/*---- M-file ----*/

static void m_matrix(mt_sb* b, const char* name, const double* a, int rows, int cols) {
  if (rows == 0 || cols == 0) {
    mt_sbprintf(b, "%s = zeros(%d, %d);\n", name, rows, cols);
    return;
  }
  mt_sbprintf(b, "%s = [\n", name);
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < cols; j++) mt_sbprintf(b, "%s%.17g", j ? " " : "  ", a[(size_t)i * cols + j]);
    mt_sbprintf(b, "%s\n", i + 1 < rows ? ";" : "");
  }
  mt_sbprintf(b, "];\n");
}

static void m_vars(mt_sb* b, const char* tag, const char* what, const lin_var* v, int n, int pert) {
  mt_sbprintf(b, "%% %s: %d %s\n", tag, n, what);
  for (int i = 0; i < n; i++) {
    mt_sbprintf(b, "%%   %s(%d) %-28s [%s]", tag, i + 1, v[i].name, v[i].units);
    if (pert) mt_sbprintf(b, "  perturbation %.6g  value %.9g", v[i].perturb, v[i].value);
    else mt_sbprintf(b, "  value %.9g", v[i].value);
    mt_sbprintf(b, "\n");
  }
}

int lin_write_mfile(const lin_model* lm, const char* path, const char* title, mt_err* e) {
  mt_sb b = {0};
  mt_sbprintf(&b, "%% %s\n", title && title[0] ? title : "linear model");
  mt_sbprintf(&b, "%% Linearised by mototake %s (%s) at t = %.6f s by central differences.\n", mt_version(), mt_git_rev(), lm->time);
  mt_sbprintf(&b, "%% dx/dt = MatrixA*x + MatrixB*u,  y = MatrixC*x + MatrixD*u  (continuous time, SI units;\n");
  mt_sbprintf(&b, "%% x, u, y are deviations from the operating point's values listed below)\n");
  if (lm->closed)
    mt_sbprintf(&b, "%% CLOSED loop: the machine and the rider's controller (its states rider.* appended to x; the\n"
                    "%% inputs are disturbances added to the rider's decision)\n");
  else
    mt_sbprintf(&b, "%% OPEN loop: the machine alone, its inputs held (the rider's controller not called)\n");
  m_vars(&b, "SV", "state variables", lm->x, lm->n, 1);
  m_vars(&b, "IN", "inputs", lm->u, lm->r, 1);
  m_vars(&b, "OUT", "outputs", lm->y, lm->m, 0);
  m_matrix(&b, "MatrixA", lm->A, lm->n, lm->n);
  m_matrix(&b, "MatrixB", lm->B, lm->n, lm->r);
  m_matrix(&b, "MatrixC", lm->C, lm->m, lm->n);
  m_matrix(&b, "MatrixD", lm->D, lm->m, lm->r);
  int rc = mt_write_file_atomic(path, b.p, b.n, e);
  free(b.p);
  return rc;
}

/*---- JSON ----*/

static json_t* j_vars(const lin_var* v, int n, int pert) {
  json_t* a = json_array();
  for (int i = 0; i < n; i++) {
    json_t* o = json_object();
    json_object_set_new(o, "name", json_string(v[i].name));
    json_object_set_new(o, "units", json_string(v[i].units));
    json_object_set_new(o, "value", json_real(v[i].value));
    if (pert) json_object_set_new(o, "perturbation", json_real(v[i].perturb));
    json_array_append_new(a, o);
  }
  return a;
}

static json_t* j_matrix(const double* a, int rows, int cols) {
  json_t* m = json_array();
  for (int i = 0; i < rows; i++) {
    json_t* r = json_array();
    for (int j = 0; j < cols; j++) json_array_append_new(r, json_real(a[(size_t)i * cols + j]));
    json_array_append_new(m, r);
  }
  return m;
}

int lin_write_json(const lin_model* lm, const char* path, const char* title, mt_err* e) {
  json_t* o = json_object();
  json_object_set_new(o, "title", json_string(title ? title : ""));
  json_object_set_new(o, "time", json_real(lm->time));
  json_object_set_new(o, "loop", json_string(lm->closed ? "closed" : "open"));
  json_object_set_new(o, "states", j_vars(lm->x, lm->n, 1));
  json_object_set_new(o, "inputs", j_vars(lm->u, lm->r, 1));
  json_object_set_new(o, "outputs", j_vars(lm->y, lm->m, 0));
  json_object_set_new(o, "A", j_matrix(lm->A, lm->n, lm->n));
  json_object_set_new(o, "B", j_matrix(lm->B, lm->n, lm->r));
  json_object_set_new(o, "C", j_matrix(lm->C, lm->m, lm->n));
  json_object_set_new(o, "D", j_matrix(lm->D, lm->m, lm->r));
  double* re = mt_alloc(sizeof(double) * 2 * (lm->n + 1));
  double* im = re + lm->n + 1;
  int rc = lin_eig(lm, re, im, e);
  if (!rc) {
    json_t* ev = json_array();
    for (int i = 0; i < lm->n; i++) {
      json_t* z = json_object();
      json_object_set_new(z, "re", json_real(re[i]));
      json_object_set_new(z, "im", json_real(im[i]));
      json_array_append_new(ev, z);
    }
    json_object_set_new(o, "eigenvalues", ev);
  }
  if (lm->nroot > 0) {   /* the one-step map's roots, with frequency and damping ratio */
    json_t* sr = json_array();
    for (int i = 0; i < lm->nroot; i++) {
      double a = lm->root_re[i], b = lm->root_im[i], mag = hypot(a, b);
      json_t* z = json_object();
      json_object_set_new(z, "re", json_real(a));
      json_object_set_new(z, "im", json_real(b));
      json_object_set_new(z, "hz", json_real(b / (2 * MT_PI)));
      json_object_set_new(z, "zeta", json_real(mag > 0 ? -a / mag : 0));
      json_array_append_new(sr, z);
    }
    json_object_set_new(o, "step_roots", sr);
  }
  free(re);
  char* txt = rc ? NULL : mt_json_text(o, JSON_INDENT(1) | JSON_REAL_PRECISION(17), "linearise", e);
  json_decref(o);
  if (!rc && !txt) rc = e->code;
  if (!rc) {
    size_t n = strlen(txt);
    txt[n] = 0;
    rc = mt_write_file_atomic(path, txt, n, e);
  }
  free(txt);
  return rc;
}

/*---- .mat (matio, through base/matfile.h) ----*/

/* names, units, operating-point values and perturbations of n variables */
static int mat_vars(matf* mf, const char* tag, const char* unit_tag, const char* value_tag, const char* pert_tag,
                    const lin_var* v, int n, mt_err* e) {
  const char** nm = mt_alloc(sizeof(char*) * 2 * (n + 1));
  const char** un = nm + n + 1;
  double* val = mt_alloc(sizeof(double) * 2 * (n + 1));
  double* pert = val + n + 1;
  for (int i = 0; i < n; i++) nm[i] = v[i].name, un[i] = v[i].units, val[i] = v[i].value, pert[i] = v[i].perturb;
  int rc = matf_put_cellstr(mf, tag, nm, n, e);
  if (!rc) rc = matf_put_cellstr(mf, unit_tag, un, n, e);
  if (!rc) rc = matf_put_column(mf, value_tag, val, n, e);
  if (!rc && pert_tag) rc = matf_put_column(mf, pert_tag, pert, n, e);
  free(nm);
  free(val);
  return rc;
}

/* eigenvalues of A (as the JSON's) and, when known, the one-step map's roots: complex columns */
static int mat_roots(matf* mf, const lin_model* lm, mt_err* e) {
  double* re = mt_alloc(sizeof(double) * 2 * (lm->n + 1));
  double* im = re + lm->n + 1;
  int rc = lin_eig(lm, re, im, e);
  if (!rc) rc = matf_put_complex(mf, "eigenvalues", re, im, lm->n, e);
  if (!rc && lm->nroot > 0) rc = matf_put_complex(mf, "step_roots", lm->root_re, lm->root_im, lm->nroot, e);
  free(re);
  return rc;
}

int lin_write_mat(const lin_model* lm, const char* path, const char* title, double speed, mt_err* e) {
  matf mf;
  if (matf_open(&mf, path, e)) return e->code;
  int rc = matf_put_matrix(&mf, "A", lm->A, lm->n, lm->n, e);
  if (!rc) rc = matf_put_matrix(&mf, "B", lm->B, lm->n, lm->r, e);
  if (!rc) rc = matf_put_matrix(&mf, "C", lm->C, lm->m, lm->n, e);
  if (!rc) rc = matf_put_matrix(&mf, "D", lm->D, lm->m, lm->r, e);
  if (!rc) rc = mat_vars(&mf, "states", "state_units", "x0", "state_perturbations", lm->x, lm->n, e);
  if (!rc) rc = mat_vars(&mf, "inputs", "input_units", "u0", "input_perturbations", lm->u, lm->r, e);
  if (!rc) rc = mat_vars(&mf, "outputs", "output_units", "y0", NULL, lm->y, lm->m, e);
  if (!rc) rc = mat_roots(&mf, lm, e);
  if (!rc) rc = matf_put_matrix(&mf, "time", &lm->time, 1, 1, e);
  if (!rc && speed == speed) rc = matf_put_matrix(&mf, "speed", &speed, 1, 1, e);
  if (!rc) rc = matf_put_string(&mf, "loop", lm->closed ? "closed" : "open", e);
  if (!rc) rc = matf_put_string(&mf, "title", title ? title : "", e);
  if (!rc) return matf_commit(&mf, e);
  matf_abort(&mf);
  return rc;
}
