/* run_cmd.c — `mototake run`. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "base/cli.h"
#include "sim/track_surface.h"
#include "sim/trim.h"
#include "takes/run.h"

/* The flying lap corner by corner (takes/corners.h): each corner's largest lean with the rider's
 * hang-off taken back (the machine's own lean in brackets) against the machine's steady-turn
 * limit at the speed there, and the difference; a corner the lap never reached is left out. */
static void print_corners(const run_result* r) {
  int any = 0;
  for (int i = 0; i < r->ncorner; i++) {
    const run_corner* c = &r->corner[i];
    if (!(c->speed > 0)) continue;
    printf(any ? ", "
               : "  corners (the flying lap; seated lean (the machine's) against the steady turn's limit at its speed [the plan's most "
                 "lateral acceleration against what that turn holds]): ");
    printf("%s %.1f (%.1f) of ", c->name, c->seated * 180 / MT_PI, c->lean * 180 / MT_PI);
    if (c->fold) printf("%.1f deg at %.0f km/h: %+.1f", c->fold_roll * 180 / MT_PI, c->speed * 3.6, (c->seated - c->fold_roll) * 180 / MT_PI);
    else printf("no fold at %.0f km/h", c->speed * 3.6);
    if (c->plan_over > 0) printf(" [plan %.0f %%]", 100 * c->plan_over);
    any = 1;
  }
  if (any) printf("\n");
}

/* The race profile's corner speeds (takes/practice.h): each lap of practice (the corner it changed,
 * the speed it tried there, and that corner's lean against its limit after it, or "no lap"), and
 * the speeds the take rides. */
static void print_practice(const run_result* r) {
  if (!r->has_corner_speed) return;
  if (r->practice_laps > 0) {
    printf("  practice: %d lap%s, %d lapped (", r->practice_laps, r->practice_laps == 1 ? "" : "s", r->practice_lapped);
    for (int k = 0; k < r->practice_laps && k < PRACTICE_MAX_LAPS; k++) {
      const practice_try* t = &r->practice_log[k];
      if (k) printf("; ");
      if (t->corner < 0 || t->corner >= r->ncorner) printf("the plan: %s", t->lapped ? "lapped" : "no lap");
      else if (t->lapped) printf("%s %+.2f m/s: %+.1f deg", r->corner[t->corner].name, t->speed, t->shortfall);
      else printf("%s %+.2f m/s: no lap", r->corner[t->corner].name, t->speed);
    }
    printf(")");
    if (r->practice_lap_time > 0) {
      int m = (int)(r->practice_lap_time / 60);
      printf("; the take rides the last that lapped (%d:%06.3f)", m, r->practice_lap_time - 60 * m);
    }
  } else printf("  corner speeds: as given");
  int any = 0;
  for (int i = 0; i < r->ncorner; i++)
    if (r->corner_speed[i] != 0) printf("%s%s %+.2f m/s", any++ ? ", " : ", over the plan in the turn: ", r->corner[i].name, r->corner_speed[i]);
  printf(any ? "\n" : ", every corner at the plan's speed\n");
}

/* The race profile's lines: the lap against the machine's minimum, and the margins to its limits. */
static void print_race(const run_result* r) {
  int mm = (int)(r->min_lap / 60), lm = (int)(r->lap_time / 60);
  if (r->lap_time > 0)
    printf("  race: lap %d:%06.3f, minimum lap %d:%06.3f (sim/lapsim.h, 100 %% grip), %+.2f %%\n", lm, r->lap_time - 60 * lm,
           mm, r->min_lap - 60 * mm, 100 * (r->lap_time / r->min_lap - 1));
  else printf("  race: no complete lap, minimum lap %d:%06.3f (sim/lapsim.h, 100 %% grip)\n", mm, r->min_lap - 60 * mm);
  /* lapsim's stoppie limit is a rigid machine's; on its springs the machine dives and its rear
   * lifts sooner (sim/brake_lift.h): the braking against the lesser of that and the grip */
  char lift[200] = "";
  if (r->has_lift) {
    int grip_lesser = r->brake_limit < r->lift_limit;
    snprintf(lift, sizeof lift, ", %.0f %% of %.3f g where the rear lifts as the machine dives at %.0f km/h%s",
             100 * r->peak_brake / (grip_lesser ? r->brake_limit : r->lift_limit), grip_lesser ? r->brake_limit : r->lift_limit,
             r->peak_brake_speed * 3.6, grip_lesser ? " (the grip is the lesser limit)" : "");
  }
  /* and its lean limit is a point mass's: the machine's own steady turn saturates a tyre sooner */
  char fold[160] = "";
  if (r->lean_fold)
    snprintf(fold, sizeof fold, "; the machine's steady turn saturates its %s tyre beyond %.1f deg at %.0f km/h: %+.1f",
             r->lean_fold == TRIM_FOLD_FRONT ? "front" : "rear", r->lean_fold_roll * 180 / MT_PI, r->max_lean_seated_speed * 3.6,
             (r->max_lean_seated - r->lean_fold_roll) * 180 / MT_PI);
  /* and its wheelie limit a rigid machine's: on its springs the front lifts sooner (sim/drive_lift.h) */
  char front[160] = "";
  if (r->has_front_lift)
    snprintf(front, sizeof front, ", %.0f %% of %.3f g where the front lifts as the machine squats at %.0f km/h",
             100 * r->peak_drive / r->front_lift, r->front_lift, r->front_lift_speed * 3.6);
  printf("  margins: lean %.1f deg of %.1f (%+.1f deg; %.1f deg, %+.1f, with the rider's hang-off taken back%s); braking %.3f g of %.3f g (%.0f %%)%s, rear load down to %.0f %%; "
         "drive %.3f g of the wheelie's %.3f g%s, front load down to %.0f %%\n",
         r->max_lean * 180 / MT_PI, r->lean_limit * 180 / MT_PI, (r->max_lean - r->lean_limit) * 180 / MT_PI,
         r->max_lean_seated * 180 / MT_PI, (r->max_lean_seated - r->lean_limit) * 180 / MT_PI, fold, r->peak_brake,
         r->brake_limit, 100 * r->peak_brake / r->brake_limit, lift, 100 * r->rear_share_min, r->peak_drive, r->wheelie_limit,
         front, 100 * r->front_share_min);
  /* the same minimum within the machine's own steady turns, and the plan's ask against them */
  if (r->has_turns) {
    int tm = (int)(r->min_lap_turns / 60);
    printf("  steady turns: the minimum cornering within the machine's own steady turn (sim/lapsim.h) is %d:%06.3f",
           tm, r->min_lap_turns - 60 * tm);
    if (r->lap_time > 0) printf(", the lap %+.2f %%", 100 * (r->lap_time / r->min_lap_turns - 1));
    printf("; the plan asks up to %.0f %% of the lateral acceleration it holds", 100 * r->plan_over);
    if (r->plan_over_corner >= 0) printf(" (%s, %.0f km/h)", r->corner[r->plan_over_corner].name, r->plan_over_speed * 3.6);
    else printf(" (at %.0f km/h)", r->plan_over_speed * 3.6);
    printf("\n");
  }
  printf("  engine: throttle up to %.2f (%.1f s full), %.0f rpm, %.2f s on the rev limiter, gears up to %d\n",
         r->max_throttle, r->full_throttle_time, r->max_rpm, r->limiter_time, r->top_gear);
  /* where the upshifts came: on the limiter (its fuel cut begun), or short of it leaned over */
  printf("  upshifts: %d on the rev limiter", r->ups_cut);
  if (r->ups_cut) printf(" (%.0f-%.0f rpm)", r->ups_cut_rpm[0], r->ups_cut_rpm[1]);
  printf(", %d short of it", r->ups_short);
  if (r->ups_short) printf(" (%.0f-%.0f rpm)", r->ups_short_rpm[0], r->ups_short_rpm[1]);
  if (r->short_lean > 0) printf("; the racer shifts short only leaned past %.1f deg", r->short_lean * 180 / MT_PI);
  printf("\n");
  print_corners(r);
  print_practice(r);
}

/* The laps in one statement. r->laps counts the line's crossings: the first starts the timed lap
 * (before it the run-up of a flying start, or a standing start's lap), each later one ends a lap;
 * "laps 2" beside "flying lap complete" read as two laps where one was timed (issue 34). */
static void print_laps(const run_result* r) {
  int timed = r->laps - 1;
  if (r->laps == 1) printf("  the line crossed once: no lap timed line to line\n");
  if (timed < 1) return;
  double t = r->lap_time;
  printf("  %d lap%s timed line to line (the line crossed %d times), %slap time %d:%06.3f\n", timed, timed > 1 ? "s" : "",
         r->laps, timed > 1 ? "first " : "", (int)(t / 60), t - 60 * (int)(t / 60));
}

int cmd_run(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "run");
  cli_arg(&c, "o");
  cli_multi(&c, "set");
  cli_arg(&c, "sets");
  cli_flag(&c, "quiet");
  cli_flag(&c, "dry-run");
  cli_flag(&c, "store-channels");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out && !cli_set(&c, "dry-run")) {
    mt_fail(&e, MT_EINPUT, "run: -o OUT.take is required (or --dry-run to ride without recording)");
    return cli_report(&e);
  }
  const cli_opt* so = cli_get(&c, "set");
  /* --sets FILE: an override set as the web pages save it ({"sets": ["KEY=VALUE", ...]}), put
   * before the command line's own --set (which win, coming later) */
  const char* vals[2 * CLI_MAX_MULTI];
  int nvals = 0;
  json_t* file = NULL;
  const char* sf = cli_str(&c, "sets", NULL);
  if (sf) {
    json_error_t je;
    file = json_load_file(sf, JSON_REJECT_DUPLICATES, &je);
    json_t* arr = file ? json_object_get(file, "sets") : NULL;
    if (!file) mt_fail(&e, MT_EINPUT, "%s:%d: %s", sf, je.line, je.text);
    else if (!json_is_array(arr) || json_array_size(arr) > CLI_MAX_MULTI)
      mt_fail(&e, MT_EINPUT, "%s: field 'sets': an array of at most %d \"KEY=VALUE\" strings", sf, CLI_MAX_MULTI);
    for (size_t i = 0; !e.code && i < json_array_size(arr); i++) {
      const char* t = json_string_value(json_array_get(arr, i));
      if (!t || !strchr(t, '=')) mt_fail(&e, MT_EINPUT, "%s: field 'sets'[%zu]: not a \"KEY=VALUE\" string", sf, i);
      else vals[nvals++] = t;
    }
    if (e.code) {
      json_decref(file);
      return cli_report(&e);
    }
  }
  for (int i = 0; i < so->nvalues; i++) vals[nvals++] = so->values[i];
  run_opts o = {.script = c.pos[0], .out = cli_set(&c, "dry-run") ? NULL : out, .sets = vals, .nset = nvals, .quiet = cli_set(&c, "quiet"),
                .store_chan = cli_set(&c, "store-channels")};
  if (!out) out = "(dry run)";
  run_result r;
  int rc = run_take(&o, &r, &e);
  if (r.steps > 0 && !cli_set(&c, "quiet")) {
    printf("%s: %.2f s simulated in %ld steps, %.2f s wall (%.0fx real time)\n", out, r.sim_time, r.steps, r.wall,
           r.wall > 0 ? r.sim_time / r.wall : 0);
    printf("  end: %s%s\n", r.end_reason, r.complete ? "" : " (take marked incomplete)");
    printf("  speed %.1f–%.1f km/h, max lean %.1f deg, max offset %.2f m%s\n", r.min_speed * 3.6, r.max_speed * 3.6,
           r.max_lean * 180 / MT_PI, r.max_offset, r.left_track ? ", LEFT THE TRACK" : "");
    if (r.has_plan)
      printf("  grip: tyres' peak mu %.2f lateral, %.2f longitudinal; planned peak a_y %.3f g, braking %.3f g, drive "
             "%.3f g; achieved a_y %.3f g, braking %.3f g, drive %.3f g, lean %.1f deg\n",
             r.mu_y, r.mu_x, r.plan_ay, r.plan_brake, r.plan_drive, r.peak_ay, r.peak_brake, r.peak_drive,
             r.max_lean * 180 / MT_PI);
    if (r.has_plan)
      printf("  planned lap %d:%06.3f (the profile's time over one lap of the line)\n", (int)(r.plan_time / 60),
             r.plan_time - 60 * (int)(r.plan_time / 60));
    if (r.has_min) print_race(&r);
    if (r.off_track > 0)
      printf("  off track %d time%s: first at t = %.2f s, station %.0f m, offset %+.1f m (%s)\n", r.off_track,
             r.off_track > 1 ? "s" : "", r.off_time, r.off_station, r.off_offset, track_surface_name(r.off_surface));
    if (r.fell_time >= 0) printf("  fell at t = %.2f s, slid %.1f m on the road after it\n", r.fell_time, r.slide_distance);
    print_laps(&r);
  }
  json_decref(file);
  return rc ? cli_report(&e) : 0;
}
