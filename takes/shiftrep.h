/* shiftrep.h — measuring a take's gear changes and its wobble-band steering.
 *
 * Contract: pure analysis of a recorded take (it never re-simulates). band_* is the measure of
 * the riding-quality issue (../shared/tools/steer_band.py): the channel's mean removed, an FFT
 * of the whole signal at full rate (exact length, any n), every bin outside [lo, hi] Hz zeroed,
 * the inverse FFT, then the RMS in 1 s windows every 0.5 s. shiftrep_* finds every gear change
 * in a take and measures what it did to the machine (docs/drivetrain.md, "Gear changes").
 * Commands: `mototake take band` and `mototake take shifts` (app/take_cmd.c). */
#ifndef SHIFTREP_H
#define SHIFTREP_H

#include "takes/takefile.h"

/* Band-pass x[0..n) (sampled every dt s) to [lo, hi] Hz into out[0..n) (may alias x). */
void band_pass(const double* x, long n, double dt, double lo, double hi, double* out);
/* RMS of b over window start steps 0, w/2, w, … while start < n − w (w = round(1/dt)): the
 * count is returned, the values go to rms (caller gives n/(w/2) + 1 slots), starts to t0. */
long band_windows(const double* b, long n, double dt, double* rms, long* start);
/* RMS of b over steps [a, b_) clipped to [0, n). */
double band_rms(const double* b, long n, long a, long b_);

typedef struct band_summary {
  double worst;        /* deg, the largest window RMS */
  double worst_t;      /* s, that window's start */
  double share;        /* share of windows above the limit, 0..1 */
  long nwin;
} band_summary;
/* The steer_angle channel of an open take, band-passed and summarised. */
int band_of_take(take_reader* r, double lo, double hi, double limit, band_summary* out, mt_err* e);
/* The same over the windows that start at or after `from` seconds only (the band itself is still
 * of the whole take): what is left of a disturbance once it has had time to decay. */
int band_of_take_from(take_reader* r, double lo, double hi, double limit, double from, int quiet, band_summary* out,
                      mt_err* e);

typedef struct shift_event {
  double t;               /* s, the step the gear changed */
  int from, to;
  double rpm_before;      /* rpm at the last step in the old gear */
  double target_rpm;      /* rpm_before × ratio(to) / ratio(from): the rev-match target */
  double duration;        /* s until the clutch is back at 1 and the ignition cut at 0 */
  double rpm_end;         /* rpm when it ended */
  double match_end;       /* rpm the new gear asked for then (rear wheel speed × new total ratio) */
  double rpm_max;         /* rpm, highest in the 0.5 s after */
  double front_load_min;  /* N, least front load in the 0.5 s after */
  double rear_slip_min;   /* least rear slip ratio in the 0.5 s after */
  double chain_max;       /* N, highest chain force in the 0.5 s after */
  double ax_jump;         /* g, largest change of 50 ms-mean ax between neighbouring 50 ms, 0.1 s before to 0.5 s after */
  double ax_jump_before;  /* g, the same over the 0.6 s before that (what riding does without a shift) */
  double band_before;     /* deg, 6–12 Hz steer RMS over the 0.5 s before */
  double band_after;      /* deg, over the 0.5 s after */
} shift_event;

/* Every gear change of the take (at most max) into ev; returns the count or −1 with e set.
 * band_of_take_from and shiftrep_take show a progress bar on stderr over the steps read unless
 * quiet (base/progress.h); band_of_take never does. */
int shiftrep_take(take_reader* r, shift_event* ev, int max, int quiet, mt_err* e);

#endif
