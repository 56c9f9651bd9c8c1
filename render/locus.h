/* locus.h — plots of a steady-state series' modes (module prefix lc_): the root locus (real part
 * against imaginary part, every point coloured by the series variable on a ramp, the named modes
 * joined and labelled, the stability boundary re = 0 drawn), and beside it the named modes'
 * frequency and damping ratio against the series variable. One PNG, written atomically. */
#ifndef LOCUS_H
#define LOCUS_H

#include "sim/modes.h"

typedef struct lc_series {
  const md_point* pts;
  int n;
  const double* x;          /* the series variable of each point (speed in the chosen unit, or g) */
  const char* xlabel;       /* e.g. "speed (km/h)" */
  const char* title;        /* e.g. "sport1000: straight running, 10–200 km/h" */
  double max_hz;            /* the locus shows 0 .. max_hz */
} lc_series;

int lc_plot(const lc_series* s, const char* path, mt_err* e);

#endif
