/* ride_cmd.c — `mototake ride -o OUT.take [--rig R] [--track T] [--start M] [--speed V]
 * [--gear N] [--set KEY=VALUE...] [--assist A] [--ghost TAKE] [--size WxH] [--snapshot PNG]
 * [--events FILE --duration S] [--bench S]`: the options, the ride session (takes/ride.h), then
 * the window or the events file (app/ride_win.h), the take closed and the summary printed. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "app/ride_win.h"
#include "base/cli.h"
#include "takes/ride.h"

int cmd_ride(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "ride");
  cli_arg(&c, "o");
  cli_arg(&c, "rig");
  cli_arg(&c, "track");
  cli_arg(&c, "start");
  cli_arg(&c, "speed");
  cli_arg(&c, "gear");
  cli_multi(&c, "set");
  cli_arg(&c, "assist");
  cli_arg(&c, "ghost");
  cli_arg(&c, "size");
  cli_arg(&c, "snapshot");
  cli_arg(&c, "events");
  cli_arg(&c, "duration");
  cli_arg(&c, "bench");
  cli_flag(&c, "quiet");
  if (cli_parse(&c, argc, argv, 0, 0, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "ride: -o OUT.take is required");
    return cli_report(&e);
  }
  ride_opts o = {0};
  o.rig = cli_str(&c, "rig", "sport1000");
  o.track = cli_str(&c, "track", "laguna_seca");
  long gear;
  const cli_opt* so = cli_get(&c, "set");
  o.sets = so->values;
  o.nset = so->nvalues;
  double bench = 0, duration = 0;
  int W = 1024, H = 640;
  const char* size = cli_str(&c, "size", NULL);
  if (size && (sscanf(size, "%dx%d", &W, &H) != 2 || W < 320 || H < 240 || W > 4096 || H > 4096)) {
    mt_fail(&e, MT_EINPUT, "ride: --size '%.40s': expected WxH from 320x240 to 4096x4096", size);
    return cli_report(&e);
  }
  if (cli_double(&c, "start", 0, -1e6, 1e6, &o.station, &e) || cli_double(&c, "speed", 25, 0, 90, &o.speed, &e) ||
      cli_int(&c, "gear", -1, -1, 6, &gear, &e) || cli_double(&c, "assist", 0, 0, 1, &o.assist, &e) ||
      cli_double(&c, "bench", 0, 0, 3600, &bench, &e) || cli_double(&c, "duration", 10, 0.001, 3600, &duration, &e))
    return cli_report(&e);
  o.gear = (int)gear;
  const char* events = cli_str(&c, "events", NULL);
  if (events && access(events, R_OK) != 0) {
    mt_fail(&e, MT_EINPUT, "ride: --events %s: cannot read the file", events);
    return cli_report(&e);
  }
  const char* ghost = cli_str(&c, "ghost", NULL);
  if (ghost && access(ghost, R_OK) != 0) {
    mt_fail(&e, MT_EINPUT, "ride: --ghost %s: cannot read the take", ghost);
    return cli_report(&e);
  }
  ride_session s;
  int rc = ride_open(&s, &o, &e);
  if (rc) {
    ride_close(&s, NULL, NULL);
    return cli_report(&e);
  }
  /* the window needs a display: say so before anything is written */
  if (!events && ride_win_open_display(&e)) {
    ride_close(&s, NULL, NULL);
    return cli_report(&e);
  }
  ride_win_catch_signals();
  if ((rc = ride_record(&s, out, &e))) {
    (void)events;
    ride_close(&s, NULL, NULL);
    return cli_report(&e);
  }
  ride_win_stats sb = {0};
  sb.gap = NAN;
  double w0 = ride_win_now();
  if (events) rc = ride_win_events(&s, events, duration, cli_set(&c, "quiet"), &e);
  else {
    ride_win_opts wo = {W, H, ghost, cli_str(&c, "snapshot", NULL), bench, out};
    rc = ride_window(&s, &wo, &sb, &e);
  }
  double w1 = ride_win_now(), wall = w1 - w0;
  long steps = s.step;
  double dt = s.rg->timestep;
  char reason[160];
  int sig = ride_win_stop_signal();
  snprintf(reason, sizeof reason, "%s", sig ? (sig == SIGTERM ? "ended by SIGTERM" : "ended by SIGINT") : s.end);
  incident inc = s.inc;   /* the summary's, before ride_close lets the session go */
  int nfell = s.nfell, nrec = s.nrecover;
  double fell_t = s.first_fell_t;
  mt_err e2 = {0};
  int rc2 = ride_close(&s, reason, &e2);
  if (rc) return cli_report(&e);
  if (rc2) return cli_report(&e2);
  if (steps == 0) {
    printf("%s: not written: the ride never started (no physics step)\n", out);
    return 0;
  }
  printf("%s: %.3f s ridden in %ld steps, %.1f s wall; end: %s\n", out, steps * dt, steps, wall, reason);
  if (inc.n_off > 0)
    printf("  off track %d time%s: first at t = %.2f s, station %.0f m, offset %+.1f m (%s)\n", inc.n_off, inc.n_off > 1 ? "s" : "",
           inc.first_off_t, inc.first_off_s, inc.first_off_o, track_surface_name(inc.first_off_surface));
  if (nfell > 0) printf("  fell %d time%s: first at t = %.2f s\n", nfell, nfell > 1 ? "s" : "", fell_t);
  if (nrec > 0) printf("  put back on the track %d time%s (R)\n", nrec, nrec > 1 ? "s" : "");
  if (!events)
    printf("  display %.1f Hz over %ld frames, real-time factor %.2f while riding (lowest 1 s window "
           "%.2f), input latency (poll to step) max %.1f ms, mean %.1f ms over %ld frames with input; longest frame %.1f ms\n",
           sb.frames / fmax(wall, 1e-9), sb.frames, sb.run_wall > 0 ? steps * dt / sb.run_wall : 0,
           isfinite(sb.rtf_min) ? sb.rtf_min : 0, sb.lat_max * 1e3, sb.nlat ? sb.lat_sum / sb.nlat * 1e3 : 0, sb.nlat,
           sb.frame_max * 1e3);
  if (ghost) {
    if (isfinite(sb.gap)) printf("  ghost: time gap %+.3f s at the end (positive: behind %s)\n", sb.gap, ghost);
    else printf("  ghost: no time gap (the ride never reached a distance the ghost covered)\n");
  }
  return 0;
}
