/* modes_cmd.c — `mototake modes`: the linearised modes of a rig about trimmed steady states.
 *
 * One point (`--speed V [--lean DEG | --ay G]`): every mode, as before, with its name. A series
 * (`--speeds FROM:TO:STEP` straight or at one lean/ay, or `--speed V --ay|--lean FROM:TO:STEP`):
 * every point trimmed and linearised (sim/modes.h), the modes named across the series, a table,
 * JSON (jansson), the root locus and frequency/damping plots (render/locus.h). `--animate NAME`:
 * the mode shape as a looping motion of the whole rig (app/modes_anim.h). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "render/locus.h"
#include "base/cli.h"
#include "base/jsonout.h"
#include "sim/linear.h"
#include "sim/modes.h"
#include "sim/rider_straight.h"
#include "app/modes_anim.h"
#include "sim/trim.h"

#define MAX_POINTS 200
#define LOOP_OPEN "open loop (the machine alone, inputs held)"
#define LOOP_CLOSED "closed loop (the machine and the rider holding a straight line)"

static void json_mode(json_t* arr, const md_mode* m) {
  json_t* o = json_object();
  json_object_set_new(o, "name", json_string(md_names[m->name]));
  json_object_set_new(o, "re", json_real(m->re));
  json_object_set_new(o, "im", json_real(m->im));
  json_object_set_new(o, "hz", json_real(m->hz));
  json_object_set_new(o, "zeta", json_real(m->zeta));
  json_t* sh = json_object();
  for (int g = 0; g < MD_NG; g++) json_object_set_new(sh, md_group_names[g], json_real(m->share[g]));
  json_object_set_new(o, "shares", sh);
  json_array_append_new(arr, o);
}

static int shown(const md_mode* m, double fmax) {
  if (m->hz > fmax) return 0;
  if (m->hz == 0 && (m->re < -50 || fabs(m->re) < 1e-4)) return 0;
  return 1;
}

/* The trim's clutch in a point's JSON, where it slips (else nothing: the other points' JSON as before). */
static void json_clutch(json_t* o, const trim_result* t) {
  if (!t->clutch_slipping) return;
  json_object_set_new(o, "clutch_slipping", json_true());
  json_object_set_new(o, "clutch_engagement", json_real(t->clutch));
  json_object_set_new(o, "clutch_slip_rpm", json_real(t->clutch_slip_rpm));
}

/* The old single-point table (joint shares from lin_modes), with each mode's name appended; L:
 * the closed loop's controller (--loop closed), or NULL. The rows: sim/modes.h md_point_rows. */

static int single_point(vehicle* v, const lin_loop* L, md_point* p, double fmax, int json, mt_err* e) {
  const rig* r = v->rig;
  md_row rows[128];
  int k = md_point_rows(v, L, p, fmax, rows, 128, e);
  if (k < 0) return MT_EINTERNAL;
  const char* const* jn = md_joint_share_names;
  json_t *root = NULL, *arr = NULL;
  if (json) {
    root = json_object();
    json_object_set_new(root, "rig", json_string(r->name));
    json_object_set_new(root, "speed_mps", json_real(p->spec.speed));
    json_object_set_new(root, "lean_deg", json_real(p->trim.roll * 180 / MT_PI));
    json_object_set_new(root, "ay_g", json_real(p->ay_g));
    json_object_set_new(root, "loop", json_string(L ? "closed" : "open"));
    json_clutch(root, &p->trim);
    arr = json_array();
  } else {
    printf("modes of %s at %.2f m/s (%.1f km/h), lean %.1f deg: %.3f g; %s\n", r->name, p->spec.speed, p->spec.speed * 3.6,
           p->trim.roll * 180 / MT_PI, fabs(p->ay_g), L ? LOOP_CLOSED : LOOP_OPEN);
    char note[200];
    if (trim_clutch_note(&p->trim, note, sizeof note)) printf("  %s\n", note);
    printf("  %8s %10s %8s   %6s %6s %6s %6s %6s %8s %6s %6s  %s\n", "Hz", "re 1/s", "zeta", jn[0], jn[1], jn[2], jn[3], jn[4],
           jn[5], "roll", "yaw", "mode");
  }
  for (int i = 0; i < k; i++) {
    const md_row* w = &rows[i];
    const double* sh = w->joint;
    if (json) {
      json_t* o = json_object();
      json_object_set_new(o, "name", json_string(md_names[w->name]));
      json_object_set_new(o, "hz", json_real(w->hz));
      json_object_set_new(o, "re", json_real(w->re));
      json_object_set_new(o, "im", json_real(w->im));
      json_object_set_new(o, "zeta", json_real(w->zeta));
      for (int q = 0; q < MD_NJOINT_SHARE; q++) json_object_set_new(o, jn[q], json_real(sh[q]));
      if (w->matched) {
        json_object_set_new(o, "roll", json_real(w->roll));
        json_object_set_new(o, "yaw", json_real(w->yaw));
      }
      json_array_append_new(arr, o);
    } else {
      printf("  %8.2f %10.3f %8.3f   %6.2f %6.2f %6.2f %6.2f %6.2f %8.2f %6.2f %6.2f  %s\n", w->hz, w->re, w->zeta, sh[0],
             sh[1], sh[2], sh[3], sh[4], sh[5], w->roll, w->yaw, w->name != MD_OTHER ? md_names[w->name] : "");
    }
  }
  if (json) {
    json_object_set_new(root, "modes", arr);
    int rc = mt_json_print(stdout, root, JSON_COMPACT | JSON_REAL_PRECISION(10), "modes", e);
    json_decref(root);
    return rc;
  }
  return MT_OK;
}

/* --all: every shown mode of every point with its group shares (to see what the names rest on). */
static void print_all(const md_point* pts, int n, const double* xs, const char* xunit, double fmax) {
  for (int i = 0; i < n; i++) {
    if (!pts[i].ok) continue;
    printf("%s %g (%.3f g):\n", xunit, xs[i], fabs(pts[i].ay_g));
    printf("  %8s %10s %8s ", "Hz", "re 1/s", "zeta");
    for (int g = 0; g < MD_NG; g++) printf(" %7.7s", md_group_names[g]);
    printf("  mode\n");
    for (int k = 0; k < pts[i].nmode; k++) {
      const md_mode* m = &pts[i].mode[k];
      if (!shown(m, fmax)) continue;
      printf("  %8.2f %10.3f %8.3f ", m->hz, m->re, m->zeta);
      for (int g = 0; g < MD_NG; g++) printf(" %7.2f", m->share[g]);
      printf("  %s\n", m->name == MD_OTHER ? "" : md_names[m->name]);
    }
  }
}

static void print_table(const md_point* pts, int n, const double* xs, const char* xcol) {
  printf("%10s %7s |", xcol, "lean");
  printf(" %17s | %17s | %9s | %17s\n", "weave Hz   zeta", "wobble Hz   zeta", "capsize", "chatter Hz   zeta");
  for (int i = 0; i < n; i++) {
    const md_point* p = &pts[i];
    if (!p->ok) {
      printf("%10g %7s | not trimmed: %s\n", xs[i], "-", p->why);
      continue;
    }
    printf("%10g %7.1f |", xs[i], p->trim.roll * 180 / MT_PI);
    for (int nm = 0; nm < MD_NNAMED; nm++) {
      const md_mode* m = md_find(p, nm);
      if (nm == MD_CAPSIZE) {
        if (m) printf(" %9.3f |", m->re);
        else printf(" %9s |", "-");
      } else if (m) printf(" %8.2f %8.3f%s", m->hz, m->zeta, nm == MD_CHATTER ? "\n" : " |");
      else printf(" %8s %8s%s", "-", "-", nm == MD_CHATTER ? "\n" : " |");
    }
  }
  /* below the table (its rows stay as parsers read them): the points trimmed with the clutch slipping */
  for (int i = 0; i < n; i++) {
    char note[200];
    if (pts[i].ok && trim_clutch_note(&pts[i].trim, note, sizeof note)) printf("%10g: %s\n", xs[i], note);
  }
}

/*---- cmd_modes's stages, in the order it runs them ----*/

/* What was asked, the options parsed and checked. */
typedef struct modes_args {
  double uf;                  /* m/s per unit of the speeds given (--unit) */
  const char* uname;          /* "m/s" or "km/h" */
  double fmax;                /* Hz: modes above it are not shown */
  double sv[MAX_POINTS];      /* the speeds, in the unit given */
  double lv[MAX_POINTS];      /* the leans (deg) or lateral accelerations (g) */
  int ns, nl, np;             /* how many of each; np: the points (the series is one or the other) */
  int turn;                   /* 1: --ay (lateral accelerations), 0: leans */
  const char* lat;            /* "ay" or "lean" */
  const char* anim;           /* --animate NAME, or NULL */
  int aname;                  /* its mode (MD_*) */
  const char* out;            /* -o: the plot of a series, or the animation */
  const char* abcd;           /* --abcd: the point's continuous model (.json or .m), or NULL */
  mode_anim_opts ao;
  int json, all;
  int closed;                 /* --loop closed: the rider in the loop (sim/rider_straight.h) */
  rider_straight* rs;         /* that rider (closed) */
  lin_loop L;                 /* its loop at the last point solved */
} modes_args;

/* The series: speeds × (one lean or ay), or one speed × leans or ays; every value in range. */
static int parse_series(cli* c, modes_args* a, mt_err* e) {
  const char* unit = cli_str(c, "unit", "mps");
  if (!strcmp(unit, "mps")) a->uf = 1;
  else if (!strcmp(unit, "kmh")) a->uf = 1 / 3.6;
  else return mt_fail(e, MT_EINPUT, "modes: --unit: expected kmh or mps, got '%s'", unit);
  a->uname = a->uf == 1 ? "m/s" : "km/h";
  if (cli_set(c, "lean") && cli_set(c, "ay")) return mt_fail(e, MT_EINPUT, "modes: give --lean or --ay, not both");
  if (!cli_set(c, "speed") && !cli_set(c, "speeds"))
    return mt_fail(e, MT_EINPUT, "modes: --speed is required (m/s, or --unit kmh), or --speeds FROM:TO:STEP");
  if (cli_set(c, "speed") && cli_set(c, "speeds")) return mt_fail(e, MT_EINPUT, "modes: give --speed or --speeds, not both");
  if (cli_double(c, "max-hz", 60, 0.1, 500, &a->fmax, e)) return MT_EINPUT;
  double *sv = a->sv, *lv = a->lv;
  int turn = a->turn = cli_set(c, "ay");
  const char* lat = a->lat = turn ? "ay" : "lean";
  a->nl = 1;
  a->ns = md_parse_range(cli_set(c, "speeds") ? cli_str(c, "speeds", "") : cli_str(c, "speed", ""),
                         cli_set(c, "speeds") ? "modes: --speeds" : "modes: --speed", sv, MAX_POINTS, e);
  if (a->ns < 0) return MT_EINPUT;
  if (cli_set(c, lat)) {
    a->nl = md_parse_range(cli_str(c, lat, ""), turn ? "modes: --ay" : "modes: --lean", lv, MAX_POINTS, e);
    if (a->nl < 0) return MT_EINPUT;
  } else lv[0] = 0;
  int ns = a->ns, nl = a->nl;
  if (ns > 1 && nl > 1)
    return mt_fail(e, MT_EINPUT, "modes: sweep either the speed (--speeds) or the %s (--speed V --%s FROM:TO:STEP), not both",
                   lat, lat);
  if (cli_set(c, "speed") && ns > 1) return mt_fail(e, MT_EINPUT, "modes: --speed takes one speed; a range goes to --speeds");
  for (int i = 0; i < ns; i++)
    if (md_check_speed(sv[i], a->uf, a->uname, e)) return MT_EINPUT;
  for (int i = 0; i < nl; i++)
    if (md_check_lateral(turn, lv[i], e)) return MT_EINPUT;
  a->np = ns > nl ? ns : nl;
  /* open by default: the machine's own modes, those the memo and the literature's stability
   * results are about and every figure of docs/vehicle.md, docs/wobble.md; closed: the ridden one's */
  const char* loop = cli_str(c, "loop", "open");
  if (strcmp(loop, "open") && strcmp(loop, "closed"))
    return mt_fail(e, MT_EINPUT, "modes: --loop: expected open (the machine alone) or closed (with the rider), got '%s'", loop);
  a->closed = !strcmp(loop, "closed");
  for (int i = 0; a->closed && i < nl; i++)
    if (turn || lv[i] != 0)
      return mt_fail(e, MT_EINPUT, "modes: --loop closed: straight running only (the rider holds a straight line); for a "
                     "turn, linearise = { loop = \"closed\" } in a take (docs/linear.md)");
  return MT_OK;
}

/* md_solve_loop's start for --loop closed: the trimmed vehicle handed to the rider. */
static void start_rider(void* data, vehicle* v, const trim_result* tr, lin_loop* L) {
  modes_args* a = data;
  rider_straight_start(a->rs, v, tr, L);
  a->L = *L;
}

/* What is written: --animate (one point, -o an animation) or -o (a series' plot, a .png). */
static int parse_outputs(cli* c, modes_args* a, mt_err* e) {
  a->json = cli_set(c, "json");
  a->abcd = cli_str(c, "abcd", NULL);
  if (a->abcd) {
    size_t L = strlen(a->abcd);
    if (a->np > 1 || cli_set(c, "animate") || a->closed)
      return mt_fail(e, MT_EINPUT, "modes: --abcd needs one point (--speed V) of the open loop, without --animate");
    if (!((L > 5 && !strcasecmp(a->abcd + L - 5, ".json")) || (L > 2 && !strcasecmp(a->abcd + L - 2, ".m"))))
      return mt_fail(e, MT_EINPUT, "modes: --abcd %s: the model is written as .json or .m", a->abcd);
  }
  a->all = cli_set(c, "all");
  const char* anim = a->anim = cli_str(c, "animate", NULL);
  a->aname = -1;
  if (anim) {
    a->aname = md_name_index(anim);
    if (a->aname < 0)
      return mt_fail(e, MT_EINPUT, "modes: --animate: unknown mode '%s' (weave, wobble, capsize or chatter)", anim);
    if (a->np > 1) return mt_fail(e, MT_EINPUT, "modes: --animate needs one point (--speed V), not a sweep");
    if (!cli_set(c, "o")) return mt_fail(e, MT_EINPUT, "modes: --animate needs -o OUT.glb|OUT.gltf|OUT.mp4");
  }
  const char* out = a->out = cli_str(c, "o", NULL);
  if (out && !anim && a->np > 1) {
    size_t L = strlen(out);
    if (L < 4 || strcasecmp(out + L - 4, ".png")) return mt_fail(e, MT_EINPUT, "modes: -o %s: the plot is a .png", out);
  } else if (out && !anim) {
    return mt_fail(e, MT_EINPUT, "modes: -o needs a sweep (--speeds, or --%s FROM:TO:STEP) or --animate", a->lat);
  }
  mode_anim_opts* ao = &a->ao;
  mode_anim_defaults(ao);
  ao->quiet = cli_set(c, "quiet");
  if (anim && (cli_double(c, "cycles", ao->cycles, 1, 20, &ao->cycles, e) ||
               cli_double(c, "amplitude", 0, 0, 30, &ao->amplitude_deg, e) ||
               cli_double(c, "fps", ao->fps, 5, 120, &ao->fps, e)))
    return MT_EINPUT;
  if (anim && mode_anim_check_path(out, e)) return MT_EINPUT;
  return MT_OK;
}

/* --abcd: the continuous model about the trimmed point (v still at it) with the default selection
 * (sim/modes.h md_abcd_default; libmototake's mtk_modes_new gives the same), written as a take's
 * linearise event writes it (sim/linear.h). */
static int write_abcd(vehicle* v, const md_point* p, const char* path, mt_err* e) {
  lin_spec s = {0};
  md_abcd_default(&s);
  lin_model lm;
  int rc = lin_abcd(v, &s, &lm, e);
  lin_spec_clear(&s);
  if (rc) return rc;
  char title[256];
  snprintf(title, sizeof title, "modes of %s at %.17g m/s, lean %.17g deg (mototake modes --abcd)", v->rig->name, p->spec.speed,
           p->trim.roll * 180 / MT_PI);
  size_t L = strlen(path);
  rc = !strcasecmp(path + L - 2, ".m") ? lin_write_mfile(&lm, path, title, e) : lin_write_json(&lm, path, title, e);
  lin_model_free(&lm);
  return rc;
}

/* Trim and linearise every point (xs: each one's x in the table and plot). A point that cannot
 * be trimmed is reported and skipped in a series, an error alone. One point without --animate
 * prints its table here, while the vehicle still holds its trim. */
static int solve_points(vehicle* v, md_point* pts, double* xs, modes_args* a, int quiet, mt_err* e) {
  int np = a->np, ns = a->ns, nl = a->nl, turn = a->turn;
  const double *sv = a->sv, *lv = a->lv;
  int rc = MT_OK, nok = 0, tty = isatty(2);
  for (int i = 0; i < np; i++) {
    md_point* p = &pts[i];
    p->spec.speed = (ns > 1 ? sv[i] : sv[0]) * a->uf;
    p->spec.turn = turn;
    double l = nl > 1 ? lv[i] : lv[0];
    if (turn) p->spec.ay = l;
    else p->spec.lean = l;
    xs[i] = ns > 1 ? sv[i] : (np > 1 ? l : sv[0]);
    if (!quiet && tty) fprintf(stderr, "\rmodes: point %d/%d ", i + 1, np);
    mt_err pe = {0};
    int prc = md_solve_loop(v, p, 1e-6, a->anim != NULL, a->closed ? start_rider : NULL, a, &pe);
    if (prc == MT_EINPUT) {
      if (np == 1) {
        rc = MT_EINPUT, *e = pe;
        break;
      }
      if (!quiet && tty) fprintf(stderr, "\n");
      fprintf(stderr, "mototake: modes: point %d (%g %s, %s %g%s) not trimmed: %s\n", i + 1, p->spec.speed / a->uf, a->uname,
              a->lat, l, turn ? " g" : " deg", pe.msg);
      continue;
    }
    if (prc) {
      rc = prc;
      *e = pe;
      break;
    }
    nok++;
    if (np == 1 && !a->anim && !rc) {   /* keep the trimmed state for the joint-share table */
      md_name(pts, 1);
      if (a->all && !a->json) print_all(pts, 1, xs, a->uname, a->fmax);
      rc = single_point(v, a->closed ? &a->L : NULL, p, a->fmax, a->json, e);
      if (!rc && a->abcd) rc = write_abcd(v, p, a->abcd, e);
    }
  }
  if (!quiet) fprintf(stderr, "%smodes: %d of %d points trimmed and linearised\n", tty ? "\r" : "", nok, np);
  if (!rc && np > 1 && nok == 0) {
    mt_fail(e, MT_EINPUT, "modes: no point of the series could be trimmed");
    rc = MT_EINPUT;
  }
  return rc;
}

/* A series as JSON: every point, trimmed or why not, with its shown modes. */
static int series_json(const rig* r, const md_point* pts, const modes_args* a, mt_err* e) {
  json_t* root = json_object();
  json_object_set_new(root, "rig", json_string(r->name));
  json_object_set_new(root, "series", json_string(a->ns > 1 ? "speed" : a->lat));
  json_object_set_new(root, "loop", json_string(a->closed ? "closed" : "open"));
  json_t* arr = json_array();
  for (int i = 0; i < a->np; i++) {
    const md_point* p = &pts[i];
    json_t* po = json_object();
    json_object_set_new(po, "speed_mps", json_real(p->spec.speed));
    json_object_set_new(po, "speed_kmh", json_real(p->spec.speed * 3.6));
    if (a->turn) json_object_set_new(po, "ay_target_g", json_real(p->spec.ay));
    else json_object_set_new(po, "lean_target_deg", json_real(p->spec.lean));
    json_object_set_new(po, "ok", json_boolean(p->ok));
    if (!p->ok) json_object_set_new(po, "error", json_string(p->why));
    else {
      json_object_set_new(po, "lean_deg", json_real(p->trim.roll * 180 / MT_PI));
      json_object_set_new(po, "ay_g", json_real(p->ay_g));
      json_clutch(po, &p->trim);
      json_t* ma = json_array();
      for (int k = 0; k < p->nmode; k++)
        if (shown(&p->mode[k], a->fmax)) json_mode(ma, &p->mode[k]);
      json_object_set_new(po, "modes", ma);
    }
    json_array_append_new(arr, po);
  }
  json_object_set_new(root, "points", arr);
  int rc = mt_json_print(stdout, root, JSON_COMPACT | JSON_REAL_PRECISION(10), "modes", e);
  json_decref(root);
  return rc;
}

/* A series' root locus and frequency/damping plot (render/locus.h) into a->out. */
static int series_plot(const rig* r, const md_point* pts, const double* xs, const modes_args* a, mt_err* e) {
  int ns = a->ns, nl = a->nl, turn = a->turn;
  const double *sv = a->sv, *lv = a->lv;
  const char* uname = a->uname;
  char xlabel[64], title[256];
  if (ns > 1) snprintf(xlabel, sizeof xlabel, "speed (%s)", uname);
  else snprintf(xlabel, sizeof xlabel, turn ? "lateral acceleration (g)" : "lean (deg)");
  if (ns > 1)
    snprintf(title, sizeof title, "%s: %s, %g to %g %s", r->name,
             turn ? "steady turns" : (lv[0] != 0 ? "steady turns" : "straight running"), sv[0], sv[ns - 1], uname);
  else
    snprintf(title, sizeof title, "%s: steady turns at %g %s, %s from %g to %g%s", r->name, sv[0], uname, a->lat, lv[0], lv[nl - 1],
             turn ? " g" : " deg");
  lc_series ls = {pts, a->np, xs, xlabel, title, fmin(a->fmax, 60)};
  int rc = lc_plot(&ls, a->out, e);
  if (!rc) printf("wrote %s\n", a->out);
  return rc;
}

/* A series: the modes named across it, as JSON or a table (--all: every mode), and the plot. */
static int report_series(const rig* r, md_point* pts, const double* xs, const modes_args* a, mt_err* e) {
  int ns = a->ns, np = a->np, turn = a->turn;
  md_name(pts, np);
  char xcol[32];
  snprintf(xcol, sizeof xcol, "%s", ns > 1 ? a->uname : (turn ? "ay g" : "lean deg"));
  if (a->json) {
    int rc = series_json(r, pts, a, e);
    if (rc) return rc;
  } else {
    printf("modes of %s: %s; %s\n", r->name,
           ns > 1 ? (turn ? "steady turns over speed" : (a->lv[0] != 0 ? "steady turns over speed" : "straight running over speed"))
                  : "steady turns at one speed", a->closed ? LOOP_CLOSED : LOOP_OPEN);
    if (a->all) print_all(pts, np, xs, xcol, a->fmax);
    print_table(pts, np, xs, xcol);
  }
  return a->out ? series_plot(r, pts, xs, a, e) : MT_OK;
}

/* --animate: the named mode's shape at the one point, as a looping motion (app/modes_anim.h). */
static int animate(vehicle* v, md_point* pts, const modes_args* a, const char* rig_arg, mt_err* e) {
  const md_point* p = &pts[0];
  md_name(pts, 1);
  const md_mode* m = md_find(p, a->aname);
  if (!m)
    return mt_fail(e, MT_EINPUT, "modes: no %s mode found at %g %s (run `mototake modes %s --speed %g --all` to see the modes)",
                   a->anim, a->sv[0], a->uname, rig_arg, a->sv[0]);
  return mode_anim_write(v, p, m, &a->ao, a->out, e);
}

int cmd_modes(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "modes");
  const char* args[] = {"speed", "speeds", "lean", "ay", "unit", "max-hz", "o", "animate", "cycles", "amplitude", "fps", "loop", "abcd"};
  for (size_t i = 0; i < MT_ARRAY_LEN(args); i++) cli_arg(&c, args[i]);
  cli_flag(&c, "json");
  cli_flag(&c, "all");
  cli_flag(&c, "quiet");
  cli_multi(&c, "set");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  modes_args a = {0};   /* a.rs is freed at the end, set only with --loop closed */
  if (parse_series(&c, &a, &e) || parse_outputs(&c, &a, &e)) return cli_report(&e);

  char path[4096];
  rig_resolve(c.pos[0], path, sizeof path);
  const cli_opt* o = cli_get(&c, "set");
  rig* r = rig_load(path, o ? o->values : NULL, o ? o->nvalues : 0, &e);
  if (!r) return cli_report(&e);
  road rd = {0};
  vehicle* v = veh_new(r, rd, 0, &e);
  if (!v) {
    rig_free(r);
    return cli_report(&e);
  }
  md_point* pts = mt_alloc(sizeof(md_point) * a.np);
  memset(pts, 0, sizeof(md_point) * a.np);
  double xs[MAX_POINTS];
  int rc = MT_OK;
  if (a.closed) {   /* the rider's trim table for this rig (its --set included), once */
    a.rs = mt_alloc(sizeof *a.rs);
    rc = rider_straight_init(a.rs, r, &e);
  }
  if (!rc) rc = solve_points(v, pts, xs, &a, cli_set(&c, "quiet") || a.np < 4, &e);
  rider_straight_stop(v);
  if (!rc && a.np > 1) rc = report_series(r, pts, xs, &a, &e);
  if (!rc && a.anim) rc = animate(v, pts, &a, c.pos[0], &e);
  for (int i = 0; i < a.np; i++) md_point_free(&pts[i]);
  free(pts);
  free(a.rs);
  veh_free(v);
  rig_free(r);
  return rc ? cli_report(&e) : 0;
}
