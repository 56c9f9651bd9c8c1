/* take_cmd.c — `mototake take info | channels | cut | verify`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "base/cli.h"
#include "base/csv.h"
#include "base/outfile.h"
#include "base/progress.h"
#include "sim/track.h"
#include "sim/vehicle.h"
#include "takes/recorder.h"
#include "takes/replay.h"
#include "takes/slip_simhub.h"
#include "takes/incident.h"
#include "takes/ride.h"
#include "takes/takefile.h"
#include "takes/take_sample.h"
#include "takes/verify.h"
#include "app/take_mat.h"

static long file_size(const char* p) {
  struct stat st;
  return stat(p, &st) == 0 ? (long)st.st_size : 0;
}

/* Untrusted text of a take for the terminal: control characters (a crafted take may carry escape
 * sequences) are shown as \xNN, never written raw. */
static const char* tty_safe(const char* t, char* buf, size_t n) {
  size_t o = 0;
  for (const unsigned char* p = (const unsigned char*)(t ? t : ""); *p && o + 5 < n; p++) {
    if (*p < 0x20 || *p == 0x7f) o += (size_t)snprintf(buf + o, n - o, "\\x%02x", *p);
    else buf[o++] = (char)*p;
  }
  buf[o] = 0;
  return buf;
}

/* A JSON string of untrusted text: jansson refuses bytes that are not UTF-8; such text is kept
 * with each byte ≥ 0x80 shown as '?' (the take stays readable, the JSON stays valid). */
static json_t* jstr(const char* t) {
  json_t* j = json_string(t ? t : "");
  if (j) return j;
  char* c = strdup(t);
  if (!c) return json_null();
  for (char* p = c; *p; p++)
    if ((unsigned char)*p >= 0x80) *p = '?';
  j = json_string(c);
  free(c);
  return j ? j : json_null();
}

/* `take info --json`: one object, built with jansson (it escapes the take's untrusted strings). */
static int take_info_json(take_reader* r, const char* path, int complete, const char* reason, long n, long size,
                          double dur, double per_min, const char* const* m, size_t nm, mt_err* e) {
  const take_schema* s = take_schema_of(r);
  json_t* o = json_object();
  json_t* src = json_array();
  json_object_set_new(o, "file", jstr(path));
  json_object_set_new(o, "complete", json_boolean(complete));
  json_object_set_new(o, "end", jstr(reason));
  json_object_set_new(o, "steps", json_integer(n));
  json_object_set_new(o, "timestep_s", json_real(s->timestep));
  json_object_set_new(o, "duration_s", json_real(dur));
  json_object_set_new(o, "file_bytes", json_integer(size));
  json_object_set_new(o, "bytes_per_minute", json_real(round(per_min)));
  json_object_set_new(o, "bodies", json_integer(s->nbody));
  json_object_set_new(o, "channels", json_integer(s->nchan));
  json_object_set_new(o, "format_version", json_integer(take_meta(r, "format_version") ? atol(take_meta(r, "format_version")) : 0));
  json_object_set_new(o, "channels_stored", json_boolean(take_stored(r, TAKE_CHAN)));
  json_object_set_new(o, "poses_stored", json_boolean(take_stored(r, TAKE_POSE)));
  json_object_set_new(o, "inputs", json_integer(s->ninput));
  json_object_set_new(o, "state", json_integer(s->nstate));
  for (size_t i = 0; i < nm; i++)
    if (take_meta(r, m[i])) json_object_set_new(o, m[i], jstr(take_meta(r, m[i])));
  for (int i = 0; i < take_nsources(r); i++) {
    const char *k, *nmv, *t;
    take_source_at(r, i, &k, &nmv, &t);
    json_t* one = json_object();
    json_object_set_new(one, "kind", jstr(k));
    json_object_set_new(one, "name", jstr(nmv));
    json_object_set_new(one, "bytes", json_integer((json_int_t)strlen(t)));
    json_array_append_new(src, one);
  }
  json_object_set_new(o, "sources", src);
  json_object_set_new(o, "events", json_integer(take_nevents(r)));
  char inc[1024];
  incident_summary(r, inc, sizeof inc);
  json_object_set_new(o, "incidents", json_string(inc));
  char* txt = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
  json_decref(o);
  if (!txt) return mt_fail(e, MT_EINTERNAL, "%s: out of memory writing JSON", path);
  puts(txt);
  free(txt);
  return MT_OK;
}

int cmd_take_info(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "take info");
  cli_flag(&c, "json");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  take_reader* r = take_open(c.pos[0], &e);
  if (!r) return cli_report(&e);
  const take_schema* s = take_schema_of(r);
  const char* reason;
  int complete = take_complete(r, &reason);
  long n = take_nsteps(r), size = file_size(c.pos[0]);
  double dur = n * s->timestep;
  double per_min = dur > 0 ? size / dur * 60 : 0;
  const char* m[] = {"program_version", "git_revision", "platform", "integrator", "rig", "track", "created", "cut_from"};
  char b1[1024], b2[1024], b3[1024];
  if (cli_set(&c, "json")) {
    int rc = take_info_json(r, c.pos[0], complete, reason, n, size, dur, per_min, m, MT_ARRAY_LEN(m), &e);
    take_close(r);
    return rc ? cli_report(&e) : 0;
  } else {
    printf("take %s: %s%s%s\n", tty_safe(c.pos[0], b1, sizeof b1), complete ? "complete" : "INCOMPLETE", reason[0] ? " — " : "",
           tty_safe(reason, b2, sizeof b2));
    printf("  %ld steps of %.4g s: %.3f s recorded (%.0f Hz)\n", n, s->timestep, dur, 1 / s->timestep);
    for (size_t i = 0; i < MT_ARRAY_LEN(m); i++)
      if (take_meta(r, m[i])) printf("  %-16s %s\n", m[i], tty_safe(take_meta(r, m[i]), b1, sizeof b1));
    printf("  overrides        %s\n", tty_safe(take_overrides(r) ? take_overrides(r) : "[]", b1, sizeof b1));
    printf("  file             %.2f MB (%.1f MB per simulated minute)\n", size / 1e6, per_min / 1e6);
    printf("  streams          state %d values, inputs %d, poses of %d bodies (%s), %d channels (%s)\n", s->nstate, s->ninput,
           s->nbody, take_stored(r, TAKE_POSE) ? "stored" : "rebuilt from the state", s->nchan,
           take_stored(r, TAKE_CHAN) ? "stored" : "rebuilt from the state, inputs and 8 context values");
    printf("  bodies          ");
    for (int i = 0; i < s->nbody; i++) printf(" %s", tty_safe(s->body_names[i], b1, sizeof b1));
    printf("\n  sources\n");
    for (int i = 0; i < take_nsources(r); i++) {
      const char *k, *nm, *t;
      take_source_at(r, i, &k, &nm, &t);
      printf("    %-7s %-40s %zu bytes\n", tty_safe(k, b1, sizeof b1), tty_safe(nm, b2, sizeof b2), strlen(t));
    }
    printf("  channels\n   ");
    for (int i = 0; i < s->nchan; i++) printf(" %s [%s]%s", tty_safe(s->chan_names[i], b1, sizeof b1), tty_safe(s->chan_units[i], b2, sizeof b2),
                                           i % 6 == 5 ? "\n   " : ",");
    char inc[1024];
    incident_summary(r, inc, sizeof inc);   /* numbers and our own words only: nothing of the take's text */
    printf("\n  incidents        %s\n", inc[0] ? inc : "none recorded (no off-track, fall or restart events in the take)");
    printf("  events (%d)\n", take_nevents(r));
    for (int i = 0; i < take_nevents(r); i++) {
      const take_event* ev = take_event_at(r, i);
      printf("    t = %8.3f s  %-10s %s\n", ev->step * s->timestep, tty_safe(ev->kind, b1, sizeof b1),
             tty_safe(ev->json, b3, sizeof b3));
    }
  }
  take_close(r);
  return 0;
}


/* Parse --from/--to (seconds) into a step range within the take (takes/take_sample.h). */
static int step_range(const cli* c, const take_reader* r, long* a, long* b, mt_err* e) {
  double dur = take_nsteps(r) * take_schema_of(r)->timestep, from, to;
  if (cli_double(c, "from", 0, -1e9, 1e9, &from, e) || cli_double(c, "to", dur, -1e9, 1e9, &to, e)) return MT_EINPUT;
  return take_step_range(r, c->command, from, to, a, b, e);
}

/*---- take channels: the rows (full rate or resampled), then CSV or .mat ----*/

/* The rows an export writes: every step of the range a..a+n, or (rate > 0) the exact multiples
 * of 1/rate within it, each row at a step i and a weight w towards step i + 1. */
typedef struct rowgrid {
  long a, n, rows;
  double dt, rate;
  take_resample rs;   /* rate > 0: takes/take_sample.h, the rows the library fills too */
} rowgrid;

static void grid_init(rowgrid* g, long a, long n, double dt, double rate) {
  *g = (rowgrid){.a = a, .n = n, .dt = dt, .rate = rate, .rows = n};
  if (rate > 0) {
    take_resample_init(&g->rs, a, n, dt, rate);
    g->rows = g->rs.rows;
  }
}

/* Row k's time; its step *i (within the range) and weight *w. */
static double grid_at(const rowgrid* g, long k, long* i, double* w) {
  if (g->rate <= 0) {
    *i = k, *w = 0;
    return (g->a + k) * g->dt;
  }
  double t, u;
  take_resample_row(&g->rs, k, &t, i, w, &u);
  return t;
}

/* Column c (stride values per step) at step i, weight w: linear interpolation when resampling,
 * the recorded value itself at full rate. */
static double grid_val(const rowgrid* g, const double* v, int stride, int c, long i, double w) {
  double v0 = v[i * stride + c];
  if (g->rate <= 0) return v0;
  double v1 = g->n > 1 ? v[(i + 1) * stride + c] : v0;
  return take_resample_lerp(v0, v1, w);
}

/* What an export writes: the selected channels (a channel named "time" is the time column
 * itself, not repeated), then --simhub's columns. */
typedef struct chan_out {
  const take_schema* s;
  const int* sel;
  int ns;
  const double* ch;         /* s->nchan per step */
  const double* hv;         /* nh per step */
  int nh;
  const rec_channel* hc;
  const int* from;          /* .mat only: each written column's source (mat_columns) */
  rowgrid g;
} chan_out;

static int is_time(const chan_out* co, int k) { return !strcmp(co->s->chan_names[co->sel[k]], "time"); }

/* The rows as CSV into out, or to standard output when out is "-" (a pipe into another tool:
 * then there is no file to keep or remove, and a write error is the one line). */
static int write_csv(const char* out, const chan_out* co, fprog* bar, mt_err* e) {
  const take_schema* s = co->s;
  outfile of = {.fd = -1};   /* the output rule (base/outfile.h) */
  FILE* f = NULL;
  int to_stdout = !strcmp(out, "-");
  if (to_stdout) {
    f = stdout;
  } else {
    if (outfile_open(&of, out, OUTFILE_TEMP, e)) return e->code;
    if (!(f = fdopen(dup(of.fd), "w"))) {
      outfile_abort(&of);
      return mt_fail(e, MT_EINPUT, "%s: cannot write", out);
    }
  }
  fprintf(f, "time");
  for (int k = 0; k < co->ns; k++)
    if (!is_time(co, k)) fputc(',', f), csv_field(f, s->chan_names[co->sel[k]]);
  for (int k = 0; k < co->nh; k++) fputc(',', f), csv_field(f, co->hc[k].name);
  fprintf(f, "\ns");
  for (int k = 0; k < co->ns; k++)
    if (!is_time(co, k)) fputc(',', f), csv_field(f, s->chan_units[co->sel[k]]);
  for (int k = 0; k < co->nh; k++) fputc(',', f), csv_field(f, co->hc[k].units);
  fprintf(f, "\n");
  for (long q = 0; q < co->g.rows; q++) {
    long i;
    double w, t = grid_at(&co->g, q, &i, &w);
    fprintf(f, "%.9g", t);
    for (int k = 0; k < co->ns; k++)
      if (!is_time(co, k)) fprintf(f, ",%.9g", grid_val(&co->g, co->ch, s->nchan, co->sel[k], i, w));
    for (int k = 0; k < co->nh; k++) fprintf(f, ",%.9g", grid_val(&co->g, co->hv, co->nh, k, i, w));
    fprintf(f, "\n");
    fprog_tick(bar, co->g.n + i + w);   /* the second half of the work: the row's step in the range */
  }
  if (to_stdout) return fflush(f) != 0 || ferror(f) ? mt_fail(e, MT_EINPUT, "take channels: standard output: write failed") : MT_OK;
  int rc = fclose(f) != 0 ? mt_fail(e, MT_EINPUT, "%s: write failed", out) : MT_OK;
  if (!rc) rc = outfile_commit(&of, e);
  if (rc) outfile_abort(&of);
  return rc;
}

static int is_mat(const char* out) {
  size_t n = strlen(out);
  return n > 4 && !strcasecmp(out + n - 4, ".mat");
}

/* The .mat's columns in order (time excluded): names, units and where each comes from (a
 * channel index >= 0, or -1 - k for --simhub's column k), for app/take_mat.h. */
static int mat_columns(const chan_out* co, const char** names, const char** units, int* from) {
  int nc = 0;
  for (int k = 0; k < co->ns; k++)
    if (!is_time(co, k))
      names[nc] = co->s->chan_names[co->sel[k]], units[nc] = co->s->chan_units[co->sel[k]], from[nc++] = co->sel[k];
  for (int k = 0; k < co->nh; k++) names[nc] = co->hc[k].name, units[nc] = co->hc[k].units, from[nc++] = -1 - k;
  return nc;
}

/* take_mat's fill: column c (-1: time) of every row. */
static void mat_fill(void* ctx, int c, double* out) {
  const chan_out* co = ctx;
  for (long q = 0; q < co->g.rows; q++) {
    long i;
    double w, t = grid_at(&co->g, q, &i, &w);
    int k = c < 0 ? 0 : co->from[c];
    out[q] = c < 0 ? t : k >= 0 ? grid_val(&co->g, co->ch, co->s->nchan, k, i, w) : grid_val(&co->g, co->hv, co->nh, -1 - k, i, w);
  }
}

/* The .mat's columns, checked as MATLAB names before anything is read (NULL with e set). */
static take_mat_cols* mat_plan(const take_reader* r, chan_out* co, mt_err* e) {
  int max = co->ns + co->nh + 1;
  take_mat_cols* tc = mt_alloc(sizeof *tc + (sizeof(char*) * 2 + sizeof(int)) * max);
  const char** names = (const char**)(tc + 1);
  const char** units = names + max;
  int* from = (int*)(units + max);
  *tc = (take_mat_cols){.n = mat_columns(co, names, units, from), .names = names, .units = units, .fill = mat_fill, .ctx = co};
  co->from = from;
  if (take_mat_check(r, tc, e)) {
    free(tc);
    return NULL;
  }
  return tc;
}

int cmd_take_channels(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "take channels");
  cli_arg(&c, "o");
  cli_arg(&c, "rate");
  cli_arg(&c, "channels");
  cli_arg(&c, "from");
  cli_arg(&c, "to");
  cli_flag(&c, "simhub");
  cli_flag(&c, "quiet");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "take channels: -o FILE.csv (or FILE.mat) is required");
    return cli_report(&e);
  }
  take_reader* r = take_open(c.pos[0], &e);
  if (!r) return cli_report(&e);
  const take_schema* s = take_schema_of(r);
  int sel[512], ns = 0, rc = MT_OK;
  const char* list = cli_str(&c, "channels", NULL);
  if (list) {
    /* the list is one CSV record (RFC 4180), so a name the CSV writes quoted can be asked for */
    char t[4096];
    const char* lp = list;
    for (int got; !rc && (got = csv_next(&lp, t, sizeof t)) != 0;) {
      if (got < 0) {
        rc = mt_fail(&e, MT_EINPUT, "take channels: --channels: a quoted name is not closed or has text after its quote");
        break;
      }
      if (!t[0]) continue;   /* empty fields are skipped, as before */
      int k = take_chan_find(s, t, &e);
      if (k < 0) {
        rc = MT_EINPUT;
      } else if (ns < 512) {
        sel[ns++] = k;
      }
    }
  } else {
    for (int i = 0; i < s->nchan && i < 512; i++) sel[ns++] = i;
  }
  long a = 0, b = 0;
  double rate = 0;
  if (!rc) rc = step_range(&c, r, &a, &b, &e);
  if (!rc) rc = cli_double(&c, "rate", 0, 0, 1e6, &rate, &e);
  if (!rc) rc = take_rate_ok(s, "take channels", cli_set(&c, "rate"), rate, &e);
  /* --simhub: the motion under SimHub's names after the channels (takes/slip_simhub.h) */
  int nh = cli_set(&c, "simhub") ? slip_simhub_ncol() : 0;
  chan_out co = {.s = s, .sel = sel, .ns = ns, .nh = nh, .hc = slip_simhub_cols()};
  take_mat_cols* mat = NULL;   /* a .mat's names are checked before the take is read */
  if (!rc && is_mat(out) && !(mat = mat_plan(r, &co, &e))) rc = e.code;
  if (rc) {
    take_close(r);
    return cli_report(&e);
  }
  /* read the range once, a second of steps at a time for the bar: reading is the first half of
   * the work, writing the rows the second (base/progress.h) */
  long n = b - a;
  double* ch = mt_alloc(sizeof(double) * s->nchan * (n + 1));
  fprog bar;
  fprog_start_work(&bar, 2.0 * n, "take channels", !cli_set(&c, "quiet"));
  rc = take_read_bar(r, TAKE_CHAN, a, n, ch, &bar, 0, &e);
  double* hv = nh ? mt_alloc(sizeof(double) * nh * (n + 1)) : NULL;
  if (!rc && nh) rc = slip_simhub_read(r, c.pos[0], a, n, hv, &e);
  co.ch = ch, co.hv = hv;
  grid_init(&co.g, a, n, s->timestep, rate);
  if (mat) mat->rows = co.g.rows;
  if (!rc) rc = mat ? take_mat_write(out, r, mat, &bar, n, &e) : write_csv(out, &co, &bar, &e);
  if (!rc) fprog_tick(&bar, 2.0 * n);
  fprog_end(&bar);
  free(ch);
  free(hv);
  free(mat);
  take_close(r);
  return rc ? cli_report(&e) : 0;
}

int cmd_take_cut(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "take cut");
  cli_arg(&c, "o");
  cli_arg(&c, "from");
  cli_arg(&c, "to");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "take cut: -o PART.take is required");
    return cli_report(&e);
  }
  take_reader* r = take_open(c.pos[0], &e);
  if (!r) return cli_report(&e);
  long a, b;
  int rc = step_range(&c, r, &a, &b, &e);
  if (!rc) {
    char note[4200];
    snprintf(note, sizeof note, "%s steps %ld..%ld", c.pos[0], a, b);
    rc = take_write_cut(r, a, b - a, out, note, &e);
  }
  take_close(r);
  return rc ? cli_report(&e) : 0;
}

/*---- verify (takes/verify.h) ----*/

int cmd_take_verify(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "take verify");
  cli_flag(&c, "quiet");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  int rc = take_verify_report(c.pos[0], cli_set(&c, "quiet"), &e);
  return e.code ? cli_report(&e) : rc;
}
