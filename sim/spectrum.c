/* spectrum.c — amplitude spectrum and peaks by FFTW (see spectrum.h). */
#include "sim/spectrum.h"

#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int sp_spectrum(const double* x, long n, double dt, int pad, sp_result* out, mt_err* e) {
  memset(out, 0, sizeof *out);
  if (n < 16) return mt_fail(e, MT_EINPUT, "spectrum: %ld samples are too few (at least 16)", n);
  if (!(dt > 0)) return mt_fail(e, MT_EINPUT, "spectrum: the sample interval must be > 0");
  if (pad < 1) pad = 1;
  long N = 1;
  while (N < n * (long)pad) N *= 2;
  /* least-squares line through the samples (mean and trend) */
  double st = 0, sx = 0, stt = 0, stx = 0;
  for (long i = 0; i < n; i++) {
    st += i;
    sx += x[i];
    stt += (double)i * i;
    stx += i * x[i];
  }
  double den = n * stt - st * st, b = den != 0 ? (n * stx - st * sx) / den : 0, a = (sx - b * st) / n;
  double* in = fftw_alloc_real(N);
  fftw_complex* X = fftw_alloc_complex(N / 2 + 1);
  fftw_plan p = fftw_plan_dft_r2c_1d((int)N, in, X, FFTW_ESTIMATE);
  double sw = 0;
  for (long i = 0; i < N; i++) {
    if (i < n) {
      double w = 0.5 - 0.5 * cos(2 * M_PI * i / (n - 1));
      sw += w;
      in[i] = (x[i] - a - b * i) * w;
    } else in[i] = 0;
  }
  fftw_execute(p);
  out->nbin = (int)(N / 2 + 1);
  out->df = 1 / (N * dt);
  out->resolution = 1 / (n * dt);
  out->amp = mt_alloc(sizeof(double) * out->nbin);
  for (int k = 0; k < out->nbin; k++) out->amp[k] = 2 * hypot(X[k][0], X[k][1]) / sw;
  fftw_destroy_plan(p);
  fftw_free(in);
  fftw_free(X);
  return MT_OK;
}

void sp_free(sp_result* r) {
  free(r->amp);
  memset(r, 0, sizeof *r);
}

static int cmp_peak(const void* a, const void* b) {
  const sp_peak *x = a, *y = b;
  return x->amp < y->amp ? 1 : x->amp > y->amp ? -1 : 0;
}

int sp_peaks(const sp_result* r, double min_hz, double max_hz, double rel, sp_peak* out, int max) {
  if (!(rel > 0)) rel = 0.05;
  if (!(min_hz > 0)) min_hz = 2 * r->resolution;
  int k0 = (int)ceil(min_hz / r->df), k1 = max_hz > 0 ? (int)floor(max_hz / r->df) : r->nbin - 1;
  if (k0 < 1) k0 = 1;
  if (k1 > r->nbin - 2) k1 = r->nbin - 2;
  double top = 0;
  for (int k = k0; k <= k1; k++) top = fmax(top, r->amp[k]);
  /* all local maxima, then the highest first; a peak closer than the record's resolution to a
   * higher one is its own side lobe or ripple and is dropped */
  int cap = 256, n = 0;
  sp_peak* all = mt_alloc(sizeof(sp_peak) * cap);
  for (int k = k0; k <= k1; k++) {
    const double* A = r->amp;
    if (!(A[k] > A[k - 1] && A[k] >= A[k + 1]) || A[k] < rel * top || A[k] <= 0) continue;
    double l0 = log(fmax(A[k - 1], 1e-300)), l1 = log(A[k]), l2 = log(fmax(A[k + 1], 1e-300));
    double d = l0 - 2 * l1 + l2, off = d < 0 ? 0.5 * (l0 - l2) / d : 0;
    if (fabs(off) > 0.5) off = 0;
    if (n == cap) {
      cap *= 2;
      all = mt_realloc(all, sizeof(sp_peak) * cap);
    }
    all[n].hz = (k + off) * r->df;
    all[n].amp = exp(l1 - 0.25 * (l0 - l2) * off);
    n++;
  }
  qsort(all, n, sizeof *all, cmp_peak);
  int m = 0;
  for (int i = 0; i < n && m < max; i++) {
    int near = 0;
    for (int j = 0; j < m; j++)
      if (fabs(out[j].hz - all[i].hz) < 1.5 * r->resolution) near = 1;
    if (!near) out[m++] = all[i];
  }
  free(all);
  return m;
}
