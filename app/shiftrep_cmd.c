/* shiftrep_cmd.c — `mototake take band` and `mototake take shifts` (see takes/shiftrep.h). */
#include <stdio.h>
#include <stdlib.h>

#include "base/cli.h"
#include "takes/shiftrep.h"

int cmd_take_band(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "take band");
  cli_arg(&c, "lo");
  cli_arg(&c, "hi");
  cli_arg(&c, "limit");
  cli_arg(&c, "from");
  cli_flag(&c, "quiet");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  double lo, hi, limit, from;
  if (cli_double(&c, "lo", 6, 0, 1e6, &lo, &e) || cli_double(&c, "hi", 12, 0, 1e6, &hi, &e) ||
      cli_double(&c, "limit", 0.5, 0, 1e6, &limit, &e) || cli_double(&c, "from", 0, 0, 1e6, &from, &e))
    return cli_report(&e);
  if (!(hi > lo)) {
    mt_fail(&e, MT_EINPUT, "take band: --hi (%g) must be above --lo (%g)", hi, lo);
    return cli_report(&e);
  }
  take_reader* r = take_open(c.pos[0], &e);
  if (!r) return cli_report(&e);
  band_summary b;
  int rc = band_of_take_from(r, lo, hi, limit, from, cli_set(&c, "quiet"), &b, &e);
  take_close(r);
  if (rc) return cli_report(&e);
  if (from > 0 && b.nwin == 0) {
    mt_fail(&e, MT_EINPUT, "take band: no 1 s window starts at or after --from %g s in %s", from, c.pos[0]);
    return cli_report(&e);
  }
  printf("%g-%g Hz steer RMS: worst %.3f deg at t = %.1f s; %.0f%% of 1 s windows above %g deg\n", lo, hi, b.worst,
         b.worst_t, 100 * b.share, limit);
  return 0;
}

int cmd_take_shifts(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "take shifts");
  cli_flag(&c, "quiet");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  take_reader* r = take_open(c.pos[0], &e);
  if (!r) return cli_report(&e);
  enum { MAXEV = 4096 };
  shift_event* ev = mt_alloc(sizeof(shift_event) * MAXEV);
  int n = shiftrep_take(r, ev, MAXEV, cli_set(&c, "quiet"), &e);
  take_close(r);
  if (n < 0) {
    free(ev);
    return cli_report(&e);
  }
  printf("%8s %5s %7s %7s %6s %7s %7s %7s %8s %8s %7s %6s %6s %6s %6s\n", "t_s", "shift", "rpm", "target", "dur_ms",
         "rpm_end", "match", "rpm_max", "front_N", "rslip", "chain_N", "ax_g", "ax0_g", "band0", "band1");
  for (int i = 0; i < n; i++) {
    const shift_event* x = &ev[i];
    printf("%8.3f %2d->%-2d %7.0f %7.0f %6.0f %7.0f %7.0f %7.0f %8.0f %8.3f %7.0f %6.3f %6.3f %6.2f %6.2f\n", x->t, x->from, x->to,
           x->rpm_before, x->target_rpm, 1000 * x->duration, x->rpm_end, x->match_end, x->rpm_max, x->front_load_min,
           x->rear_slip_min, x->chain_max, x->ax_jump, x->ax_jump_before, x->band_before, x->band_after);
  }
  printf("%d gear changes\n", n);
  free(ev);
  return 0;
}
