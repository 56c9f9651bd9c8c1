/* lapsim_cmd.c — `mototake lapsim`: the machine's minimum lap time on a track's line
 * (sim/lapsim.h's QSS lap, takes/lapmin.h binds the line). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "base/progress.h"
#include "sim/brake_lift.h"
#include "takes/lapmin.h"

/* The same lap cornering within the machine's own steady turn (sim/lapsim.h lapsim_machine_turns):
 * its time, and the turn's hold at a few of the grid's speeds against the point mass's μy·n·g. */
typedef struct turns {
  int ok;
  lapsim_result s;
  lapsim_machine* m;
} turns;

/* The limits as the machine has them on its springs, beside the QSS lap's rigid ones, at a few
 * speeds: where the rear lifts braking (sim/brake_lift.h) and where the steady turn of the
 * machine, its rider sitting still, ends at a fold with a tyre saturated (sim/trim.h; the turn
 * table's, measured at these speeds among its others). NAN where one cannot be measured. */
enum { RIDDEN_N = 4 };
static const double RIDDEN_KMH[RIDDEN_N] = {54, 108, 162, 216};   /* 15, 30, 45, 60 m/s: on the turn grid */
typedef struct ridden { double lift_g[RIDDEN_N], fold_deg[RIDDEN_N]; } ridden;

static void ridden_limits(const rig* r, const turns* tu, ridden* out) {
  for (int i = 0; i < RIDDEN_N; i++) {
    double V = RIDDEN_KMH[i] / 3.6;
    brake_lift bl;
    mt_err e1 = {0};
    out->lift_g[i] = brake_lift_at_speed(r, V, &bl, &e1) == MT_OK && bl.lifted ? bl.decel / MT_G : NAN;
    int k = (int)lround((V - LAPSIM_TURN_V0) / LAPSIM_TURN_DV);
    out->fold_deg[i] = tu->m && k >= 0 && k < LAPSIM_NT && tu->m->turn_roll[k] > 0 ? tu->m->turn_roll[k] * 180 / MT_PI : NAN;
  }
}

enum { TURN_SHOW_N = 5 };
static const int TURN_SHOW[TURN_SHOW_N] = {0, 3, 6, 8, 10};   /* 10, 25, 40, 50, 60 m/s */

static double turn_speed(int k) { return LAPSIM_TURN_V0 + k * LAPSIM_TURN_DV; }

static void print_turns(const turns* tu, double grip) {
  if (!tu->ok) {
    printf("  steady turns  (no fold found: the machine's own cornering limit could not be measured)\n");
    return;
  }
  int mm = (int)(tu->s.time / 60);
  printf("  steady turns  minimum lap %d:%06.3f cornering within the machine's own steady turn (sim/trim.h), which holds", mm,
         tu->s.time - 60 * mm);
  for (int i = 0; i < TURN_SHOW_N; i++) printf("%s %.3f", i ? " /" : "", grip * tu->m->turn_ay[TURN_SHOW[i]] / MT_G);
  printf(" g at");
  for (int i = 0; i < TURN_SHOW_N; i++) printf("%s %.0f", i ? " /" : "", 3.6 * turn_speed(TURN_SHOW[i]));
  printf(" km/h, against mu_y·n·g");
  for (int i = 0; i < TURN_SHOW_N; i++) {
    double V = turn_speed(TURN_SHOW[i]);
    printf("%s %.3f", i ? " /" : "", grip * tu->m->mu_y * (1 - V * V * tu->m->lift / MT_G));
  }
  printf(" g\n");
}

static void print_text(const rig* r, const track* t, const char* line, double grip, const lapsim_machine* m,
                       const lapsim_result* s, const turns* tu, const ridden* rl_) {
  int mm = (int)(s->time / 60);
  printf("minimum lap %d:%06.3f  %s on %s, %s line, %.0f %% of the tyres' grip (QSS)\n", mm, s->time - 60 * mm, r->name,
         track_name(t), line, 100 * grip);
  printf("  machine       %.2f kg, CoM %.4f m ahead of the rear contact, %.4f m high, wheelbase %.4f m\n", m->mass, m->b,
         m->h, m->p);
  printf("  tyres         mu %.3f lateral, %.3f longitudinal (peaks)\n", m->mu_y, m->mu_x);
  printf("  limits        lean %.1f deg at mu_y·g, braking %.3f g (grip %.3f g, stoppie %.3f g), wheelie %.3f g\n",
         s->lean_limit * 180 / MT_PI, s->brake_limit / MT_G, m->mu_x, m->a_stoppie / MT_G,
         m->a_wheelie / MT_G);
  ridden rl = *rl_;
  printf("  on springs    at");
  for (int i = 0; i < RIDDEN_N; i++) printf("%s %.0f", i ? " /" : "", RIDDEN_KMH[i]);
  printf(" km/h the rear lifts braking at");
  for (int i = 0; i < RIDDEN_N; i++) printf("%s %.3f", i ? " /" : "", rl.lift_g[i]);
  printf(" g and the steady turn saturates a tyre beyond");
  for (int i = 0; i < RIDDEN_N; i++) printf("%s %.1f", i ? " /" : "", rl.fold_deg[i]);
  printf(" deg (sim/brake_lift.h, sim/trim.h)\n");
  print_turns(tu, grip);
  printf("  speed         %.1f .. %.1f km/h (top: gear %d at %.0f rpm; rev limit in top gear at %.1f km/h)\n",
         3.6 * s->v_min, 3.6 * s->v_max, s->gear_top, s->rpm_max, 3.6 * m->v_rev);
  printf("  peaks         a_y %.3f g, lean %.1f deg, braking %.3f g, drive %.3f g (tyres' force / mass)\n",
         s->ay_peak / MT_G, s->lean_max * 180 / MT_PI, s->brake_peak / MT_G, s->drive_peak / MT_G);
}

static void print_json(const rig* r, const track* t, const char* line, double grip, const lapsim_machine* m,
                       const lapsim_result* s, const turns* tu, const ridden* rl_) {
  printf("{\"rig\":\"%s\",\"track\":\"%s\",\"line\":\"%s\",\"grip\":%.6g,\"lap_time_s\":%.6f,\"v_min_ms\":%.6g,"
         "\"v_max_ms\":%.6g,\"ay_peak_g\":%.6g,\"brake_peak_g\":%.6g,\"drive_peak_g\":%.6g,\"lean_max_deg\":%.6g,"
         "\"lean_limit_deg\":%.6g,\"brake_limit_g\":%.6g,\"wheelie_g\":%.6g,\"stoppie_g\":%.6g,\"mu_y\":%.6g,"
         "\"mu_x\":%.6g,\"gear_top\":%d,\"rpm_top\":%.6g,\"v_rev_ms\":%.6g",
         r->name, track_name(t), line, grip, s->time, s->v_min, s->v_max, s->ay_peak / MT_G, s->brake_peak / MT_G,
         s->drive_peak / MT_G, s->lean_max * 180 / MT_PI, s->lean_limit * 180 / MT_PI, s->brake_limit / MT_G,
         m->a_wheelie / MT_G, m->a_stoppie / MT_G, m->mu_y, m->mu_x, s->gear_top, s->rpm_max, m->v_rev);
  /* the limits on springs (null where one could not be measured) */
  ridden rl = *rl_;
  const char* keys[3] = {"ridden_kmh", "lift_g", "fold_deg"};
  const double* vals[3] = {RIDDEN_KMH, rl.lift_g, rl.fold_deg};
  for (int k = 0; k < 3; k++) {
    printf(",\"%s\":[", keys[k]);
    for (int i = 0; i < RIDDEN_N; i++) isfinite(vals[k][i]) ? printf("%s%.6g", i ? "," : "", vals[k][i]) : printf("%snull", i ? "," : "");
    printf("]");
  }
  /* the lap within the machine's own steady turns, and the turn's hold (null: no fold there) */
  tu->ok ? printf(",\"lap_time_turns_s\":%.6f", tu->s.time) : printf(",\"lap_time_turns_s\":null");
  printf(",\"turn_kmh\":[");
  for (int k = 0; k < LAPSIM_NT; k++) printf("%s%.6g", k ? "," : "", 3.6 * turn_speed(k));
  printf("],\"turn_ay_g\":[");
  for (int k = 0; k < LAPSIM_NT; k++)
    tu->ok && tu->m->turn_ay[k] > 0 ? printf("%s%.6g", k ? "," : "", grip * tu->m->turn_ay[k] / MT_G) : printf("%snull", k ? "," : "");
  /* the lateral friction the lap corners with there (the gaps filled from the neighbours) */
  printf("],\"turn_mu\":[");
  for (int k = 0; k < LAPSIM_NT; k++) tu->ok ? printf("%s%.6g", k ? "," : "", tu->m->mu_turn[k]) : printf("%snull", k ? "," : "");
  printf("]}\n");
}

/* the line's kind from --line: "racing" or "centre" */
static int line_kind(const char* s, int* kind, mt_err* e) {
  if (!strcmp(s, "racing")) *kind = PATH_RACING;
  else if (!strcmp(s, "centre")) *kind = PATH_CENTRE;
  else return mt_fail(e, MT_EINPUT, "lapsim: --line: expected \"racing\" or \"centre\", got \"%s\"", s);
  return MT_OK;
}

static int run(rig* r, track* t, const cli* c, fprog* bar, mt_err* e) {
  double grip, margin;
  int kind = PATH_RACING, rc;
  const char* line = cli_str(c, "line", "racing");
  if ((rc = cli_double(c, "grip", 1, 0.1, 1.5, &grip, e)) || (rc = cli_double(c, "margin", 2.5, 0, 20, &margin, e)) ||
      (rc = line_kind(line, &kind, e)))
    return rc;
  /* a lap goes round and back to where it began: an open track's ends never meet, and the
   * passes would ride its whole length at the rev limit (no braking is ever needed) */
  if (!track_closed(t))
    return mt_fail(e, MT_EINPUT, "lapsim: track %s is open (its ends %.0f m apart along it): a lap needs a closed track",
                   track_name(t), track_length(t));
  lapsim_machine* m = malloc(sizeof *m);
  path* p = lapmin_line(t, kind, 0, margin);
  lapsim_result s;
  if (!m || !p) rc = mt_fail(e, MT_EINTERNAL, "lapsim: out of memory");
  if (!rc) {
    lapsim_machine_from_rig(r, m);
    rc = lapmin_run(m, p, grip, 1, NULL, &s);
    if (rc) mt_fail(e, rc, "lapsim: track %s: the line has fewer than two samples", track_name(t));
  }
  fprog_tick(bar, 1);
  turns tu = {0};
  if (!rc && (tu.m = malloc(sizeof *tu.m))) {   /* the same machine, cornering within its own steady turn */
    *tu.m = *m;
    mt_err e2 = {0};
    tu.ok = lapsim_machine_turns(r, tu.m, &e2) == MT_OK && tu.m->nturn > 0 && lapmin_run(tu.m, p, grip, 1, NULL, &tu.s) == MT_OK;
  }
  fprog_tick(bar, 2);
  ridden rl;
  if (!rc) ridden_limits(r, &tu, &rl);
  fprog_tick(bar, 3);
  fprog_end(bar);
  if (!rc) (cli_set(c, "json") ? print_json : print_text)(r, t, line, grip, m, &s, &tu, &rl);
  if (p) path_free(p);
  free(tu.m);
  free(m);
  return rc;
}

int cmd_lapsim(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "lapsim");
  cli_arg(&c, "line");
  cli_arg(&c, "grip");
  cli_arg(&c, "margin");
  cli_multi(&c, "set");
  cli_flag(&c, "json");
  cli_flag(&c, "quiet");
  if (cli_parse(&c, argc, argv, 2, 2, &e)) return cli_report(&e);
  if (c.help) return 0;
  char path[4096];
  rig_resolve(c.pos[0], path, sizeof path);
  const cli_opt* o = cli_get(&c, "set");
  rig* r = rig_load(path, o ? (const char**)o->values : NULL, o ? o->nvalues : 0, &e);
  if (!r) return cli_report(&e);
  track_resolve(c.pos[1], path, sizeof path);
  track* t = track_load(path, &e);
  /* the line and the lap, the lap within the steady turns, the limits on springs (their folds from the turn table): 1.3 s of CPU */
  fprog bar;
  if (t) fprog_start_work(&bar, 3, "lapsim", !cli_set(&c, "quiet"));
  int rc = t ? run(r, t, &c, &bar, &e) : e.code;
  if (t) track_free(t);
  rig_free(r);
  return rc ? cli_report(&e) : 0;
}
