/* shiftrep.c — gear changes and wobble-band steering of a take (see shiftrep.h). */
#include "takes/shiftrep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/progress.h"
#include "sim/drivetrain.h"
#include "sim/rig.h"
#include "sim/track.h"
#include "takes/replay.h"

/*---- FFT: iterative radix-2, and Bluestein's chirp-z for any length ----*/

static void fft2(double* re, double* im, long m, int inverse) {
  for (long i = 1, j = 0; i < m; i++) {   /* bit reversal */
    long bit = m >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      double t = re[i]; re[i] = re[j]; re[j] = t;
      t = im[i]; im[i] = im[j]; im[j] = t;
    }
  }
  for (long len = 2; len <= m; len <<= 1) {
    double a = (inverse ? 2 : -2) * MT_PI / len;
    for (long k = 0; k < len / 2; k++) {
      /* twiddle computed directly (not by recurrence) to keep the error at rounding level */
      double wr = cos(a * k), wi = sin(a * k);
      for (long i = k; i < m; i += len) {
        long j = i + len / 2;
        double xr = re[j] * wr - im[j] * wi, xi = re[j] * wi + im[j] * wr;
        re[j] = re[i] - xr;
        im[j] = im[i] - xi;
        re[i] += xr;
        im[i] += xi;
      }
    }
  }
}

/* Forward DFT (X_k = Σ x_j e^{−2πi jk/n}) of any length n, in place. */
static void dft(double* re, double* im, long n) {
  long m = 1;
  while (m < 2 * n - 1) m <<= 1;
  if (m == n || n <= 1) {   /* a power of two (or trivial): directly */
    if (n > 1) fft2(re, im, n, 0);
    return;
  }
  double* ar = mt_alloc(sizeof(double) * m * 4);
  double *ai = ar + m, *br = ai + m, *bi = br + m;
  double* wr = mt_alloc(sizeof(double) * n * 2);
  double* wi = wr + n;
  for (long j = 0; j < n; j++) {
    /* chirp w_j = e^{−πi j²/n}, with j² reduced mod 2n so the angle stays exact */
    long long q = ((long long)j * j) % (2LL * n);
    double ang = -MT_PI * (double)q / n;
    wr[j] = cos(ang);
    wi[j] = sin(ang);
    ar[j] = re[j] * wr[j] - im[j] * wi[j];
    ai[j] = re[j] * wi[j] + im[j] * wr[j];
    br[j] = wr[j];   /* conj(w_j) */
    bi[j] = -wi[j];
    if (j > 0) {
      br[m - j] = wr[j];
      bi[m - j] = -wi[j];
    }
  }
  fft2(ar, ai, m, 0);
  fft2(br, bi, m, 0);
  for (long k = 0; k < m; k++) {
    double xr = ar[k] * br[k] - ai[k] * bi[k], xi = ar[k] * bi[k] + ai[k] * br[k];
    ar[k] = xr;
    ai[k] = xi;
  }
  fft2(ar, ai, m, 1);
  for (long k = 0; k < n; k++) {
    double cr = ar[k] / m, ci = ai[k] / m;
    re[k] = cr * wr[k] - ci * wi[k];
    im[k] = cr * wi[k] + ci * wr[k];
  }
  free(ar);
  free(wr);
}

void band_pass(const double* x, long n, double dt, double lo, double hi, double* out) {
  if (n <= 0) return;
  double mean = 0;
  for (long i = 0; i < n; i++) mean += x[i];
  mean /= n;
  double* re = mt_alloc(sizeof(double) * n * 2);
  double* im = re + n;
  for (long i = 0; i < n; i++) re[i] = x[i] - mean;
  dft(re, im, n);
  for (long k = 0; k < n; k++) {
    double f = (k <= n / 2 ? k : n - k) / (n * dt);
    if (f < lo || f > hi) re[k] = im[k] = 0;
  }
  /* inverse by conjugation: x = conj(DFT(conj(X))) / n; the result is real */
  for (long k = 0; k < n; k++) im[k] = -im[k];
  dft(re, im, n);
  for (long i = 0; i < n; i++) out[i] = re[i] / n;
  free(re);
}

double band_rms(const double* b, long n, long a, long b_) {
  if (a < 0) a = 0;
  if (b_ > n) b_ = n;
  if (b_ <= a) return 0;
  double s = 0;
  for (long i = a; i < b_; i++) s += b[i] * b[i];
  return sqrt(s / (b_ - a));
}

long band_windows(const double* b, long n, double dt, double* rms, long* start) {
  long w = lround(1 / dt), h = w / 2 > 0 ? w / 2 : 1, k = 0;
  for (long i = 0; i < n - w; i += h) {
    rms[k] = band_rms(b, n, i, i + w);
    if (start) start[k] = i;
    k++;
  }
  return k;
}

static int chan(const take_schema* s, const char* name, mt_err* e) {
  for (int i = 0; i < s->nchan; i++)
    if (strcmp(s->chan_names[i], name) == 0) return i;
  mt_fail(e, MT_EINPUT, "the take has no channel '%s'", name);
  return -1;
}

/* Read channel columns of the whole take: out[k] gets channel names[k], n steps; bar ticks the
 * steps read (from 0). */
static double* read_chans(take_reader* r, const char* const* names, int nn, double** cols, long* n, fprog* bar, mt_err* e) {
  const take_schema* s = take_schema_of(r);
  int idx[16];
  for (int k = 0; k < nn; k++)
    if ((idx[k] = chan(s, names[k], e)) < 0) return NULL;
  *n = take_nsteps(r);
  if (*n < 2) {
    mt_fail(e, MT_EINPUT, "the take has %ld steps: too short to measure", *n);
    return NULL;
  }
  double* all = mt_alloc(sizeof(double) * s->nchan * TAKE_CHUNK_STEPS);
  double* data = mt_alloc(sizeof(double) * nn * *n);
  for (long a = 0; a < *n; a += TAKE_CHUNK_STEPS) {
    long m = *n - a < TAKE_CHUNK_STEPS ? *n - a : TAKE_CHUNK_STEPS;
    if (take_read(r, TAKE_CHAN, a, m, all, e)) {
      free(all);
      free(data);
      return NULL;
    }
    for (long i = 0; i < m; i++)
      for (int k = 0; k < nn; k++) data[k * *n + a + i] = all[i * s->nchan + idx[k]];
    fprog_tick(bar, a + m);
  }
  free(all);
  for (int k = 0; k < nn; k++) cols[k] = data + k * *n;
  return data;
}

int band_of_take(take_reader* r, double lo, double hi, double limit, band_summary* out, mt_err* e) {
  return band_of_take_from(r, lo, hi, limit, 0, 1, out, e);
}

int band_of_take_from(take_reader* r, double lo, double hi, double limit, double from, int quiet, band_summary* out,
                      mt_err* e) {
  const char* names[] = {"steer_angle"};
  double* col[1];
  long n;
  fprog bar;   /* the steps read: the band pass itself is a fraction of that */
  fprog_start_work(&bar, take_nsteps(r), "take band", !quiet);
  double* data = read_chans(r, names, 1, col, &n, &bar, e);
  fprog_end(&bar);
  if (!data) return e->code;
  double dt = take_schema_of(r)->timestep;
  band_pass(col[0], n, dt, lo, hi, col[0]);
  long w = lround(1 / dt);
  double* rms = mt_alloc(sizeof(double) * (n / (w / 2 > 0 ? w / 2 : 1) + 2));
  long* st = mt_alloc(sizeof(long) * (n / (w / 2 > 0 ? w / 2 : 1) + 2));
  long k = band_windows(col[0], n, dt, rms, st);
  memset(out, 0, sizeof *out);
  long above = 0, used = 0;
  for (long i = 0; i < k; i++) {
    if (st[i] * dt < from - 1e-9) continue;
    used++;
    if (rms[i] > out->worst) {
      out->worst = rms[i];
      out->worst_t = st[i] * dt;
    }
    if (rms[i] > limit) above++;
  }
  out->nwin = used;
  out->share = used > 0 ? (double)above / used : 0;
  free(rms);
  free(st);
  free(data);
  return MT_OK;
}

static double mean(const double* x, long n, long a, long b) {
  if (a < 0) a = 0;
  if (b > n) b = n;
  double s = 0;
  for (long i = a; i < b; i++) s += x[i];
  return b > a ? s / (b - a) : 0;
}

/* Largest |mean over [t, t+h) − mean over [t−h, t)| for t in [a, b). */
static double jump(const double* x, long n, long a, long b, long h) {
  double best = 0;
  for (long t = a; t < b; t++) {
    if (t - h < 0 || t + h > n) continue;
    double d = fabs(mean(x, n, t, t + h) - mean(x, n, t - h, t));
    if (d > best) best = d;
  }
  return best;
}

enum { C_GEAR, C_RPM, C_CLUTCH, C_FLOAD, C_RSLIP, C_CHAIN, C_AX, C_STEER, C_WREAR, C_N };

int shiftrep_take(take_reader* r, shift_event* ev, int max, int quiet, mt_err* e) {
  const char* names[C_N] = {"gear", "rpm", "clutch", "front_load", "rear_slip_ratio", "chain_force", "ax", "steer_angle",
                            "rear_wheel_speed"};
  const take_schema* s = take_schema_of(r);
  /* the ignition cut, where the take records it (takes before the quickshifter do not) */
  int icut = -1;
  for (int i = 0; i < s->ninput; i++)
    if (strcmp(s->input_names[i], "ignition_cut") == 0) icut = i;
  double* c[C_N];
  long n;
  fprog bar;   /* the channels' steps read (rebuilt from the state); the stored inputs after them are quick */
  fprog_start_work(&bar, take_nsteps(r), "take shifts", !quiet);
  double* data = read_chans(r, names, C_N, c, &n, &bar, e);
  if (!data) {
    fprog_end(&bar);
    return -1;
  }
  rig* rg = NULL;
  track* tk = NULL;
  if (replay_rebuild(r, 1, &rg, &tk, e)) {
    fprog_end(&bar);
    free(data);
    return -1;
  }
  double dt = s->timestep;
  double* cut = mt_alloc(sizeof(double) * n);
  if (icut >= 0) {
    double* in = mt_alloc(sizeof(double) * s->ninput * TAKE_CHUNK_STEPS);
    for (long a = 0; a < n; a += TAKE_CHUNK_STEPS) {
      long m = n - a < TAKE_CHUNK_STEPS ? n - a : TAKE_CHUNK_STEPS;
      if (take_read(r, TAKE_INPUT, a, m, in, e)) {
        fprog_end(&bar);
        free(in);
        free(cut);
        free(data);
        rig_free(rg);
        track_free(tk);
        return -1;
      }
      for (long i = 0; i < m; i++) cut[a + i] = in[i * s->ninput + icut];
    }
    free(in);
  }
  fprog_end(&bar);
  double* band = mt_alloc(sizeof(double) * n);
  band_pass(c[C_STEER], n, dt, 6, 12, band);
  long half = lround(0.5 / dt), h50 = lround(0.05 / dt), h100 = lround(0.1 / dt);
  int k = 0;
  for (long i = 1; i < n && k < max; i++) {
    if (c[C_GEAR][i] == c[C_GEAR][i - 1]) continue;
    shift_event* x = &ev[k++];
    memset(x, 0, sizeof *x);
    x->t = i * dt;
    x->from = (int)c[C_GEAR][i - 1];
    x->to = (int)c[C_GEAR][i];
    x->rpm_before = c[C_RPM][i - 1];
    double gf = drive_gear_ratio(&rg->drive, x->from), gt = drive_gear_ratio(&rg->drive, x->to);
    x->target_rpm = gf > 0 ? x->rpm_before * gt / gf : 0;
    long j = i;
    while (j < n && (c[C_CLUTCH][j] < 1 || cut[j] > 0) && c[C_GEAR][j] == x->to) j++;
    if (j >= n) j = n - 1;
    x->duration = (j - i) * dt;
    x->rpm_end = c[C_RPM][j];
    x->match_end = c[C_WREAR][j] * gt * 30 / MT_PI;
    long b = i + half < n ? i + half : n;
    x->rpm_max = c[C_RPM][i];
    x->front_load_min = c[C_FLOAD][i];
    x->rear_slip_min = c[C_RSLIP][i];
    x->chain_max = c[C_CHAIN][i];
    for (long q = i; q < b; q++) {
      x->rpm_max = fmax(x->rpm_max, c[C_RPM][q]);
      x->front_load_min = fmin(x->front_load_min, c[C_FLOAD][q]);
      x->rear_slip_min = fmin(x->rear_slip_min, c[C_RSLIP][q]);
      x->chain_max = fmax(x->chain_max, c[C_CHAIN][q]);
    }
    x->ax_jump = jump(c[C_AX], n, i - h100, b, h50) / MT_G;
    x->ax_jump_before = jump(c[C_AX], n, i - h100 - (b - i + h100), i - h100, h50) / MT_G;
    x->band_before = band_rms(band, n, i - half, i);
    x->band_after = band_rms(band, n, i, i + half);
  }
  free(band);
  free(cut);
  free(data);
  rig_free(rg);
  track_free(tk);
  return k;
}
