/* lapmin.c — the minimum lap on a track's line (see lapmin.h). */
#include "takes/lapmin.h"

#include <stdlib.h>

static void centre(const void* self, double s, double* x, double* y, double* h) {
  double p[3];
  track_eval(self, s, 0, p, h);
  *x = p[0];
  *y = p[1];
}
static void widths(const void* self, double s, double* l, double* r) { track_widths(self, s, l, r); }
static double grade(const void* self, double s) { return track_grade(self, s); }

path_road lapmin_track_road(const track* t) {
  return (path_road){t, track_length(t), track_closed(t), centre, widths, grade};
}

path* lapmin_line(const track* t, int kind, double offset, double margin) {
  path_road pr = lapmin_track_road(t);
  return path_build(&pr, kind, offset, margin, 2.0);   /* the runner's step (takes/run.c) */
}

int lapmin_run(const lapsim_machine* m, const path* p, double grip, int along_line, double* v, lapsim_result* res) {
  return lapmin_run_k(m, p, NULL, grip, along_line, v, res);
}

int lapmin_run_k(const lapsim_machine* m, const path* p, const double* k, double grip, int along_line, double* v,
                 lapsim_result* res) {
  /* the line's own length per sample: the chords path_build keeps for path_locate */
  double* dl = along_line ? malloc(sizeof(double) * (p->n > 0 ? p->n : 1)) : NULL;
  double* w = v ? v : malloc(sizeof(double) * (p->n > 0 ? p->n : 1));
  if (!w || (along_line && !dl)) {
    free(dl);
    if (!v) free(w);
    return MT_EINTERNAL;
  }
  for (int i = 0; along_line && i < p->n; i++) dl[i] = p->seg[PATH_SEG_N * i + PATH_SEG_L];
  lapsim_line ln = {p->n, p->closed, p->ds, k ? k : p->k, p->kv, p->gr, dl};
  int rc = lapsim_run(m, &ln, grip, w, res);
  free(dl);
  if (!v) free(w);
  return rc;
}
