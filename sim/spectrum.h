/* spectrum.h — the amplitude spectrum of a sampled signal and its peaks (module prefix sp_),
 * the linear-analysis memo's first method (spectral analysis of time histories), by FFTW.
 *
 * Contract: the signal (n samples every dt) has its mean and linear trend removed, is multiplied
 * by a Hann window and zero-padded to `pad` times its length rounded up to a power of two; the
 * one-sided amplitude spectrum is |X(f)|·2/Σw (a sine of amplitude A shows a peak of height A).
 * Peaks are the local maxima above min_hz (default: 2/T, T the record's length: below that the
 * window's own lobe dominates) that stand at least `rel` (default 0.05) of the highest one; each
 * is refined by a parabola through the logarithms of the three bins around it (for a Hann
 * window this puts a pure tone within a small fraction of a bin). Sorted by amplitude, highest
 * first. No allocation beyond sp_spectrum's own; deterministic. */
#ifndef SPECTRUM_H
#define SPECTRUM_H

#include "base/mt.h"

typedef struct sp_result {
  int nbin;              /* bins 0 .. nbin−1 at f = k·df */
  double df;             /* Hz per bin (after zero padding) */
  double resolution;     /* 1/T: the record's own resolution (Hz) */
  double* amp;           /* nbin amplitudes, in the signal's unit */
} sp_result;

typedef struct sp_peak { double hz, amp; } sp_peak;

/* The spectrum of x[n] sampled every dt; pad >= 1 (zero padding factor). MT_EINPUT when n < 16. */
int sp_spectrum(const double* x, long n, double dt, int pad, sp_result* out, mt_err* e);
void sp_free(sp_result* r);
/* Up to max peaks between min_hz and max_hz (max_hz <= 0: Nyquist), at least rel of the highest. */
int sp_peaks(const sp_result* r, double min_hz, double max_hz, double rel, sp_peak* out, int max);

#endif
