/* take_cmd.c — `mototake take info | channels | cut | verify`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "sim/cli.h"
#include "sim/csv.h"
#include "sim/outfile.h"
#include "sim/track.h"
#include "sim/vehicle.h"
#include "takes/recorder.h"
#include "takes/replay.h"
#include "takes/slip_simhub.h"
#include "takes/stunt_replay.h"
#include "takes/ride.h"
#include "takes/takefile.h"

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
    printf("\n  events (%d)\n", take_nevents(r));
    for (int i = 0; i < take_nevents(r); i++) {
      const take_event* ev = take_event_at(r, i);
      printf("    t = %8.3f s  %-10s %s\n", ev->step * s->timestep, tty_safe(ev->kind, b1, sizeof b1),
             tty_safe(ev->json, b3, sizeof b3));
    }
  }
  take_close(r);
  return 0;
}


/* Parse --from/--to (seconds) into a step range within the take. */
static int step_range(const cli* c, const take_reader* r, long* a, long* b, mt_err* e) {
  double dt = take_schema_of(r)->timestep, dur = take_nsteps(r) * dt, from, to;
  if (cli_double(c, "from", 0, -1e9, 1e9, &from, e) || cli_double(c, "to", dur, -1e9, 1e9, &to, e)) return MT_EINPUT;
  if (from < 0 || to > dur + 1e-9 || from >= to)
    return mt_fail(e, MT_EINPUT, "%s: --from %g --to %g is not a range within the take (0 .. %.3f s)", c->command, from, to, dur);
  *a = (long)llround(from / dt);
  *b = (long)llround(to / dt);
  if (*b > take_nsteps(r)) *b = take_nsteps(r);
  return MT_OK;
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
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "take channels: -o FILE.csv is required");
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
      int k = -1;
      for (int i = 0; i < s->nchan; i++)
        if (strcmp(s->chan_names[i], t) == 0) k = i;
      if (k < 0) {
        int best = 0;
        for (int i = 1; i < s->nchan; i++)
          if (mt_edit_distance(t, s->chan_names[i]) < mt_edit_distance(t, s->chan_names[best])) best = i;
        rc = mt_fail(&e, MT_EINPUT, "take channels: --channels: no channel '%s' (nearest: %s; see mototake take info)", t,
                     s->chan_names[best]);
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
  if (!rc && cli_set(&c, "rate") && !(rate > 0)) rc = mt_fail(&e, MT_EINPUT, "take channels: --rate must be > 0");
  /* Resampling above the recorded rate adds no information, only rows (1e6 Hz meant gigabytes). */
  if (!rc && rate > 0 && rate * s->timestep > 1 + 1e-9)
    rc = mt_fail(&e, MT_EINPUT, "take channels: --rate: %g Hz is above the take's recorded rate of %g Hz", rate,
                 1 / s->timestep);
  if (rc) {
    take_close(r);
    return cli_report(&e);
  }
  /* read the range once */
  long n = b - a;
  double* ch = mt_alloc(sizeof(double) * s->nchan * (n + 1));
  rc = take_read(r, TAKE_CHAN, a, n, ch, &e);
  /* --simhub: the motion under SimHub's names after the channels (takes/slip_simhub.h) */
  int nh = cli_set(&c, "simhub") ? slip_simhub_ncol() : 0;
  const rec_channel* hc = slip_simhub_cols();
  double* hv = nh ? mt_alloc(sizeof(double) * nh * (n + 1)) : NULL;
  if (!rc && nh) rc = slip_simhub_read(r, c.pos[0], a, n, hv, &e);
  outfile of = {.fd = -1};   /* the output rule (sim/outfile.h) */
  FILE* f = NULL;
  if (!rc && !(rc = outfile_open(&of, out, OUTFILE_TEMP, &e)) && !(f = fdopen(dup(of.fd), "w")))
    rc = mt_fail(&e, MT_EINPUT, "%s: cannot write", out);
  if (!rc) {
    double dt = s->timestep;
    fprintf(f, "time");
    for (int k = 0; k < ns; k++)
      if (strcmp(s->chan_names[sel[k]], "time")) {
        fputc(',', f);
        csv_field(f, s->chan_names[sel[k]]);
      }
    for (int k = 0; k < nh; k++) {
      fputc(',', f);
      csv_field(f, hc[k].name);
    }
    fprintf(f, "\ns");
    for (int k = 0; k < ns; k++)
      if (strcmp(s->chan_names[sel[k]], "time")) {
        fputc(',', f);
        csv_field(f, s->chan_units[sel[k]]);
      }
    for (int k = 0; k < nh; k++) {
      fputc(',', f);
      csv_field(f, hc[k].units);
    }
    fprintf(f, "\n");
    if (rate > 0) {
      /* resample by linear interpolation at exact multiples of 1/rate */
      double t0 = a * dt, t1 = (b - 1) * dt;
      for (long q = (long)ceil(t0 * rate - 1e-9);; q++) {
        double t = q / rate;
        if (t > t1 + 1e-12) break;
        double u = t / dt - a;
        long i = (long)floor(u);
        if (i >= n - 1) i = n - 2;
        if (i < 0) i = 0;
        double w = n > 1 ? u - i : 0;
        fprintf(f, "%.9g", t);
        for (int k = 0; k < ns; k++) {
          if (!strcmp(s->chan_names[sel[k]], "time")) continue;
          double v0 = ch[i * s->nchan + sel[k]], v1 = n > 1 ? ch[(i + 1) * s->nchan + sel[k]] : v0;
          fprintf(f, ",%.9g", v0 + w * (v1 - v0));
        }
        for (int k = 0; k < nh; k++) {
          double v0 = hv[i * nh + k], v1 = n > 1 ? hv[(i + 1) * nh + k] : v0;
          fprintf(f, ",%.9g", v0 + w * (v1 - v0));
        }
        fprintf(f, "\n");
      }
    } else {
      for (long i = 0; i < n; i++) {
        fprintf(f, "%.9g", (a + i) * dt);
        for (int k = 0; k < ns; k++)
          if (strcmp(s->chan_names[sel[k]], "time")) fprintf(f, ",%.9g", ch[i * s->nchan + sel[k]]);
        for (int k = 0; k < nh; k++) fprintf(f, ",%.9g", hv[i * nh + k]);
        fprintf(f, "\n");
      }
    }
    if (fclose(f) != 0) rc = mt_fail(&e, MT_EINPUT, "%s: write failed", out);
    if (!rc) rc = outfile_commit(&of, &e);
  }
  if (rc) outfile_abort(&of);
  free(ch);
  free(hv);
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

/*---- verify: rebuild the machine from the take alone and re-simulate ----
 * Everything is checked before "bit-exact" is said: every chunk of every stream decodes and
 * matches its CRC-32, PRAGMA quick_check passes, the schema and metadata passed take_open's
 * checks, the column names and units are the ones the rebuilt machine records, and while
 * re-simulating, every step's state (bit for bit), every body's pose (bit for bit) and every
 * channel (as stored, float32) are compared with the recording. The station and offset on the
 * road and the accelerations are re-derived as the runner derives them; lap and distance too,
 * from row 0's (lap_count below). The rider's stunt loop of a run take is run again beside the
 * replay, from the script's start and its recorded events (takes/stunt_replay.h), and its stunt
 * compared after every step; a ride has no stunts, so a ride take's must be 0. A take cut during
 * a stunt has lost the loop's state: its stunt is taken from the recording and the report says so. */

static int check_names(const char* path, const char* stream, int n, const char* const* names, const char* const* units,
                       int nwant, const rec_channel* want, int prefix_ok, mt_err* e) {
  if (n > nwant || (!prefix_ok && n != nwant))
    return mt_fail(e, MT_EINPUT, "%s: stream '%s' has %d columns, this mototake records %d", path, stream, n, nwant);
  for (int i = 0; i < n; i++)
    if (strcmp(names[i], want[i].name) || strcmp(units[i], want[i].units))
      return mt_fail(e, MT_EINPUT, "%s: stream '%s': column %d is '%.60s' [%.20s], this mototake records '%s' [%s]", path,
                     stream, i, names[i], units[i], want[i].name, want[i].units);
  return MT_OK;
}

static const char* const POSE_PART[7] = {"x", "y", "z", "qw", "qx", "qy", "qz"};

static int same_float(double a, double b) {
  float fa = (float)a, fb = (float)b;
  return memcmp(&fa, &fb, sizeof fa) == 0;
}

/* The first context value (k < REC_NCTX) that differs, as float32 bits, from the recorded
 * channel it copies (chan[rec_ctx_channel(k)], nc channels); −1 when all agree. */
static int ctx_mismatch(const double* cx, const double* chan, int nc) {
  for (int k = 0; k < REC_NCTX; k++) {
    int j = rec_ctx_channel(k);
    if (j >= nc || !same_float(cx[k], chan[j])) return k;
  }
  return -1;
}

/* The runner's bookkeeping channels lap and distance, re-derived as the recorders derive them
 * (takes/run.c, takes/ride.c): lap += 1 when the station wraps forwards on a closed track (a ride
 * also counts one down when it wraps backwards, and a restart sets it back to 0), and
 * distance = lap * L + station − start station. The first recorded row is the origin — a cut keeps
 * its original's lap and distance, as it keeps its clock — so row 0's lap and distance are taken
 * from the recording (lap must be a whole number there) and every later row is derived from the
 * re-simulated station. */
typedef struct lap_count {
  int closed, ride;         /* ride: counts laps down too (a take with a "ride" source, cut or not) */
  double L, start, prev_s;  /* start: the station the distance counts from, as row 0 implies it */
  double lap;
} lap_count;

static int has_source(take_reader* r, const char* kind) {
  for (int i = 0; i < take_nsources(r); i++) {
    const char *k, *nm, *t;
    take_source_at(r, i, &k, &nm, &t);
    if (!strcmp(k, kind)) return 1;
  }
  return 0;
}

/* Row 0: the recorded lap0, distance0 and the re-simulated station s0 set the origin. */
static void lap_count_origin(lap_count* lc, double lap0, double d0, double s0) {
  lc->lap = lap0 == nearbyint(lap0) ? lap0 : NAN;   /* NAN: the check below reports it */
  lc->start = lc->lap * lc->L + s0 - d0;
  lc->prev_s = s0;
}

/* A later row at re-simulated station s (restart: a ride's restart event before this step).
 * Returns the re-derived distance; lc->lap is the re-derived lap. */
static double lap_count_step(lap_count* lc, double s, int restart) {
  if (restart) lc->lap = 0, lc->prev_s = lc->start;
  if (lc->closed && s < lc->prev_s - 0.5 * lc->L) lc->lap++;
  if (lc->ride && lc->closed && s > lc->prev_s + 0.5 * lc->L) lc->lap--;
  lc->prev_s = s;
  return lc->lap * lc->L + s - lc->start;
}

/* Does the recorded distance d agree with the re-derived d_re? Both come from float32 storage:
 * d is the float32 of the recorder's double, and d_re carries row 0's float32 rounding (d0)
 * through the origin, so they differ by at most half a float32 ulp of each, 2^-24 (|d| + |d0|),
 * plus double rounding (a few 1e-12 m at a few km). The tolerance 1e-6 (|d| + |d0|), at least
 * 1e-6 m, is 8 times that bound; at 1 km of distance it allows 1 mm. */
static int distance_agrees(double d, double d_re, double d0) {
  return fabs(d - d_re) <= 1e-6 * fmax(1, fabs(d) + fabs(d0));
}

/* What verify found. Same build (program version and git revision equal to the recording's):
 * the first divergence ends the check — it is a defect or a changed take. Another build: its
 * physics may round differently, so the re-simulation carries on from its own state after the
 * first divergence and measures how far each channel drifts over the whole take. */
typedef struct verify_report {
  long first_bad;          /* first diverging step, −1 none */
  char what[512];          /* what diverged there, with both numbers */
  long checked;            /* steps whose state was compared */
  int other_build;         /* the take names another program version or git revision */
  char rec_by[160], rep_by[160];
  long resimulated;        /* steps re-simulated in all (another build: to the end or to a failure) */
  char stopped[300];       /* another build: why the re-simulation ended early ("" ran to the end) */
  char drift[600];         /* another build: the largest difference of the headline channels over the take */
  int ctx_only;            /* format 4: the context compared, the other channels rebuilt from the state */
  int stunt_unknown;       /* a cut during a stunt: the stunt channel is the recording's, not re-derived */
} verify_report;

/* Open the stunt replay with row 0's recorded stunt (the stream verify compares: chan, or the
 * context of a format-4 take), read into the scratch row chan. */
static int stunt_open_at_row0(stunt_replay* sr, take_reader* r, const char* path, int ctx_only, double* chan, int nc,
                              int c_stunt, double dt, mt_err* e) {
  int rc;
  if (ctx_only) {
    double cx[REC_NCTX];
    if ((rc = take_read(r, TAKE_CTX, 0, 1, cx, e))) return rc;
    for (int k = 0; k < nc; k++) chan[k] = NAN;
    rec_ctx_scatter(cx, chan);
  } else if ((rc = take_read(r, TAKE_CHAN, 0, 1, chan, e)))
    return rc;
  return stunt_replay_open(sr, r, path, chan[c_stunt], dt, e);
}

static int take_verify(const char* path, verify_report* vr, mt_err* e) {
  take_reader* r = take_open(path, e);
  if (!r) return MT_EINPUT;
  memset(vr, 0, sizeof *vr);
  vr->first_bad = -1;
  long* first_bad = &vr->first_bad;
  long* checked = &vr->checked;
  char* what = vr->what;
  size_t nwhat = sizeof vr->what;
  {
    const char *pv = take_meta(r, "program_version"), *gr = take_meta(r, "git_revision");
    snprintf(vr->rec_by, sizeof vr->rec_by, "mototake %.40s (git %.40s)", pv ? pv : "?", gr ? gr : "?");
    snprintf(vr->rep_by, sizeof vr->rep_by, "mototake %s (git %s)", mt_version(), mt_git_rev());
    vr->other_build = !pv || !gr || strcmp(pv, mt_version()) || strcmp(gr, mt_git_rev());
  }
  double* dmax = NULL;    /* another build, after the divergence: per channel max |Δ|, its step, recorded min, max */
  rig* rg = NULL;
  track* tk = NULL;
  vehicle* v = NULL;
  const take_schema* s = take_schema_of(r);
  long n = take_nsteps(r);
  /* a take still being recorded is refused: verify reads it all, and a reader must never hold
   * the writer up for long */
  int rc = take_live(r) ? mt_fail(e, MT_EINPUT, "%s: still being recorded by another mototake run; verify it when the run ends",
                                  path)
                        : MT_OK;
  if (!rc) rc = take_check_all(r, e);
  if (!rc && n < 1) rc = mt_fail(e, MT_EINPUT, "%s: nothing to verify: the take holds no steps", path);
  if (!rc && (rc = replay_rebuild(r, 1, &rg, &tk, e))) {
    char why[sizeof e->msg];
    snprintf(why, sizeof why, "%s", e->msg);
    snprintf(e->msg, sizeof e->msg, "%s: rebuilding from the embedded sources: %s", path, why);
  }
  if (!rc) {
    v = veh_new(rg, track_road(tk), 0, e);
    if (!v) rc = e->code;
  }
  if (!rc && veh_state_size(v) != s->nstate)
    rc = mt_fail(e, MT_EINPUT, "%s: the take's state has %d values, the rebuilt machine %d", path, s->nstate, veh_state_size(v));
  /* the rebuilt rig's timestep is the take's: take_open holds every take to it */
  if (!rc) rc = check_names(path, "input", s->ninput, s->input_names, s->input_units, rec_ninput(), rec_inputs(), 1, e);
  if (!rc) rc = check_names(path, "chan", s->nchan, s->chan_names, s->chan_units, rec_nchan(), rec_channels(), 0, e);
  if (!rc && s->nbody != rec_nbody(rg))
    rc = mt_fail(e, MT_EINPUT, "%s: stream 'pose' has %d bodies, the rebuilt machine %d", path, s->nbody, rec_nbody(rg));
  for (int b = 0; !rc && b < s->nbody; b++)
    if (strcmp(s->body_names[b], rec_body_name(rg, b)) || strcmp(s->body_parents[b], rec_body_parent(rg, b)))
      rc = mt_fail(e, MT_EINPUT, "%s: body %d is '%.60s' (parent '%.60s'), the rebuilt machine's '%s' (parent '%s')", path, b,
                   s->body_names[b], s->body_parents[b], rec_body_name(rg, b), rec_body_parent(rg, b));
  if (!rc) {
    int nx = s->nstate, np = 7 * s->nbody, nc = s->nchan;
    int c_lap = rec_chan_index("lap"), c_dist = rec_chan_index("distance"), c_stunt = rec_chan_index("stunt");
    double* x = mt_alloc(sizeof(double) * (nx * 4 + 2 * np + 2 * nc + s->ninput + 1));
    double *pose = x + 2 * nx, *chan = pose + 2 * np, *in = chan + 2 * nc, *xt = in + s->ninput + 1, *xscr = xt + nx;
    dmax = mt_alloc(sizeof(double) * 4 * nc);
    double *dstep = dmax + nc, *cmin = dstep + nc, *cmax = cmin + nc;
    for (int k = 0; k < nc; k++) dmax[k] = dstep[k] = 0, cmin[k] = INFINITY, cmax[k] = -INFINITY;
    int drifting = 0;     /* another build past its first divergence */
    int ctx_only = vr->ctx_only = !take_stored(r, TAKE_CHAN);
    unsigned char is_ctx[256] = {0};
    for (int k = 0; k < REC_NCTX; k++)
      if (rec_ctx_channel(k) < nc && rec_ctx_channel(k) < 256) is_ctx[rec_ctx_channel(k)] = 1;
    rc = take_read(r, TAKE_STATE, 0, 1, x, e);
    if (!rc) {
      veh_set_state(v, x);
      v->d->time = 0;
    }
    int hint = -1;
    double t0 = 0, d0 = 0;
    lap_count lc = {track_closed(tk), has_source(r, "ride"), track_length(tk), 0, 0, 0};
    int rq = 0;                /* the next ride event the lap count has not seen */
    int ride_take = lc.ride;   /* a ride has no stunts: its stunt channel is 0 throughout (takes/ride.c) */
    stunt_replay sr = {0};     /* a run take's stunt loop, followed beside the replay */
    if (!rc && !ride_take && c_stunt >= 0) rc = stunt_open_at_row0(&sr, r, path, ctx_only, chan, nc, c_stunt, s->timestep, e);
    if (!rc) stunt_replay_attach(&sr, v, in, s->ninput);
    vr->stunt_unknown = sr.on && !sr.known;
    /* a take ridden by hand (takes/ride.h): its inputs are re-derived from the recorded events */
    ride_replay rr;
    int ride = rc ? 0 : ride_replay_open(&rr, r, rg, x, v, e);
    double rin[32];
    if (ride < 0) {
      char why[sizeof e->msg];
      snprintf(why, sizeof why, "%s", e->msg);
      snprintf(e->msg, sizeof e->msg, "%s: %s", path, why);
      rc = MT_EINPUT, ride = 0;
    }
    for (long i = 0; i < n && !rc; i++) {
      /* step i: the inputs of row i take state i to state i + 1; pose and channel row i are
       * sampled after that step (takes/run.c) */
      if ((rc = take_read(r, TAKE_INPUT, i, 1, in, e))) break;
      if (ride && i == 0) ride_replay_before(&rr, v, 0);
      if (!ride) rec_input_apply(in, s->ninput, &v->in);
      v->d->time = i * s->timestep;
      veh_get_state(v, xt);
      if ((rc = veh_step(v, e))) {
        if (!drifting) break;
        snprintf(vr->stopped, sizeof vr->stopped, "the re-simulation failed at step %ld: %.200s", i, e->msg);
        rc = MT_OK;
        break;
      }
      vr->resimulated = i + 1;
      if (ride && !drifting) {
        rec_input_values(&v->in, rin);
        int k = 0;
        while (k < s->ninput && memcmp(&rin[k], &in[k], sizeof(double)) == 0) k++;
        if (k < s->ninput) {
          *first_bad = i;
          snprintf(what, nwhat, "input %s re-ridden from the events: recorded %.17g, re-ridden %.17g", s->input_names[k], in[k], rin[k]);
          if (!vr->other_build) break;
          drifting = 1;
        }
      }
      if ((rc = take_read(r, TAKE_POSE, i, 1, pose, e))) break;
      /* format 4 stores the context, not the channels: a rebuilt channel is this re-simulation's own
       * computation from the same state, so only the context is compared (until a drift, when the
       * rebuilt channels are the recording's reference) */
      if (ctx_only && !drifting) {
        double cx[REC_NCTX];
        if ((rc = take_read(r, TAKE_CTX, i, 1, cx, e))) break;
        for (int k = 0; k < nc; k++) chan[k] = NAN;
        rec_ctx_scatter(cx, chan);
      } else if ((rc = take_read(r, TAKE_CHAN, i, 1, chan, e)))
        break;
      /* the runner's context, as takes/run.c derives it */
      const double* fp = v->d->xpos + 3 * v->bid[rg->b_frame];
      road_point rp;
      v->road.query(v->road.self, fp[0], fp[1], hint, &rp);
      hint = rp.hint;
      double roll, pitch, yaw;
      veh_frame_euler(v, &roll, &pitch, &yaw);
      int fd = v->dadr[rg->body[0].joint0];
      rec_context ctx = {0};
      ctx.station = rp.s;
      ctx.offset = rp.offset;
      ctx.ax = v->d->qacc[fd] * cos(yaw) + v->d->qacc[fd + 1] * sin(yaw);
      ctx.ay = -v->d->qacc[fd] * sin(yaw) + v->d->qacc[fd + 1] * cos(yaw);
      ctx.lap = c_lap >= 0 ? (int)chan[c_lap] : 0;
      ctx.distance = c_dist >= 0 ? chan[c_dist] : 0;
      ctx.stunt = c_stunt >= 0 ? (int)chan[c_stunt] : 0;
      rec_sample_instant(v, xt, xscr, &ctx, pose + np, chan + nc);
      /* time: a cut keeps its original's clock, so the first row sets the origin */
      if (i == 0) t0 = chan[0];
      /* lap and distance: likewise, re-derived from row 0's (copied into ctx above, which
       * is what the sampled channels read; the re-derived values are checked below) */
      double lap_re = 0, d_re = 0;
      if (c_lap >= 0 && c_dist >= 0) {
        if (i == 0) lap_count_origin(&lc, chan[c_lap], d0 = chan[c_dist], rp.s);
        else {
          int restart = 0;   /* a ride's restart event applied before this step (ride_replay_before) */
          for (; ride && rq < rr.nev && rr.ev[rq].step <= i; rq++) restart |= rr.ev[rq].step == i && rr.ev[rq].type == RIDE_EV_RESTART;
          d_re = lap_count_step(&lc, rp.s, restart);
        }
        lap_re = lc.lap;
        if (i == 0) d_re = chan[c_dist];
      }
      chan[nc] = t0 + i * s->timestep;
      if (!drifting && memcmp(pose, pose + np, sizeof(double) * np) != 0) {
        int k = 0;
        while (k < np && memcmp(&pose[k], &pose[np + k], sizeof(double)) == 0) k++;
        *first_bad = i;
        snprintf(what, nwhat, "pose %s (body %s): recorded %.17g, re-simulated %.17g", POSE_PART[k % 7],
                 s->body_names[k / 7], pose[k], pose[np + k]);
        if (!vr->other_build) break;
        drifting = 1;
      }
      int kbad = -1;
      for (int k = 0; k < nc && kbad < 0 && !drifting; k++) {
        if (ctx_only && !is_ctx[k]) continue;
        if (k == 0 ? !(fabs(chan[0] - chan[nc]) <= 1e-6 * fmax(1, fabs(chan[nc])) && t0 >= 0 &&
                       fabs(t0 / s->timestep - nearbyint(t0 / s->timestep)) < 1e-3)
                   : !same_float(chan[k], chan[nc + k]))
          kbad = k;
      }
      if (kbad >= 0) {
        *first_bad = i;
        snprintf(what, nwhat, "channel %s: recorded %.9g, re-simulated %.9g", s->chan_names[kbad], chan[kbad], chan[nc + kbad]);
        if (!vr->other_build || kbad == 0) break;
        drifting = 1;
      }
      /* the bookkeeping channels, re-derived (lap exactly, distance to its float32 rounding) */
      if (!drifting && c_lap >= 0 && c_dist >= 0) {
        double st_re = c_stunt < 0 ? 0 : sr.on && sr.known ? stunt_replay_kind(&sr) : ride_take ? 0 : chan[c_stunt];
        int kb = !(chan[c_lap] == lap_re) ? c_lap : !distance_agrees(chan[c_dist], d_re, d0) ? c_dist
               : c_stunt >= 0 && chan[c_stunt] != st_re ? c_stunt : -1;
        if (kb >= 0) {
          double re = kb == c_lap ? lap_re : kb == c_dist ? d_re : st_re;
          *first_bad = i;
          snprintf(what, nwhat, "channel %s: recorded %.9g, re-derived %.9g", s->chan_names[kb], chan[kb], re);
          if (!vr->other_build) break;
          drifting = 1;
        }
      }
      /* a take that stores the channels stores the context too: each context value must be the
       * stored channel it copies (compared above with the re-simulation), bit for bit as float32
       * — else a context chunk from another take would pass unseen */
      if (!ctx_only && take_stored(r, TAKE_CTX) && !drifting) {
        double cx[REC_NCTX];
        if ((rc = take_read(r, TAKE_CTX, i, 1, cx, e))) break;
        int k = ctx_mismatch(cx, chan, nc);
        if (k >= 0) {
          int j = rec_ctx_channel(k);
          *first_bad = i;
          snprintf(what, nwhat, "context %s: recorded %.9g, the stored channel %.9g, re-simulated %.9g", s->chan_names[j], cx[k],
                   chan[j], chan[nc + j]);
          if (!vr->other_build) break;
          drifting = 1;
        }
      }
      if (drifting) {   /* another build: measure the drift of every channel, never stop on it */
        for (int k = 1; k < nc; k++) {
          if (k == c_lap || k == c_dist || k == c_stunt || !isfinite(chan[k])) continue;
          double d = fabs((double)(float)chan[nc + k] - chan[k]);
          if (chan[k] < cmin[k]) cmin[k] = chan[k];
          if (chan[k] > cmax[k]) cmax[k] = chan[k];
          if (!(d <= dmax[k])) dmax[k] = isfinite(d) ? d : INFINITY, dstep[k] = (double)i;
        }
        if (ride) ride_replay_before(&rr, v, i + 1);
        continue;
      }
      /* the events before the next step (a restart sets the state the next row records; a
       * script's event sets the stunt after the step it fired in was sampled) */
      if (ride) ride_replay_before(&rr, v, i + 1);
      if (sr.on && (rc = stunt_replay_after(&sr, i, e))) break;
      if (i + 1 < n) {
        if ((rc = take_read(r, TAKE_STATE, i + 1, 1, x, e))) break;
        veh_get_state(v, x + nx);
        (*checked)++;
        if (memcmp(x, x + nx, sizeof(double) * nx) != 0) {
          int k = 0;
          while (k < nx && memcmp(&x[k], &x[nx + k], sizeof(double)) == 0) k++;
          *first_bad = i + 1;
          /* name the state component: qpos, qvel or act of which joint */
          int nq = v->m->nq, nv = v->m->nv;
          const char* part = k < nq ? "position" : k < nq + nv ? "velocity" : "tyre state";
          int idx = k < nq ? k : k < nq + nv ? k - nq : k - nq - nv;
          const char* joint = "";
          if (k < nq + nv)
            for (int j = 0; j < v->m->njnt; j++) {
              int a0 = k < nq ? v->m->jnt_qposadr[j] : v->m->jnt_dofadr[j];
              if (a0 <= idx) joint = mj_id2name(v->m, mjOBJ_JOINT, j);
            }
          snprintf(what, nwhat, "%s of %s (state value %d): recorded %.17g, re-simulated %.17g", part, joint[0] ? joint : "act",
                   k, x[k], x[nx + k]);
          if (!vr->other_build) break;
          drifting = 1;
        }
      }
    }
    if (drifting && !rc) {
      /* the channels a reader judges a ride by; each with its largest |recorded − re-simulated| */
      static const char* const HEAD[] = {"x", "y", "speed", "lean", "heading", "steer_angle", "rpm"};
      size_t o = 0;
      for (size_t h = 0; h < MT_ARRAY_LEN(HEAD); h++) {
        int k = rec_chan_index(HEAD[h]);
        if (k <= 0 || k >= nc || o + 80 > sizeof vr->drift) continue;
        o += (size_t)snprintf(vr->drift + o, sizeof vr->drift - o, "%s%s %.3g %s (t = %.3f s)", o ? ", " : "", s->chan_names[k],
                              dmax[k], s->chan_units[k], dstep[k] * s->timestep);
      }
    }
    if (ride) ride_replay_close(&rr);
    stunt_replay_free(&sr);
    v->control = NULL;
    free(x);
  }
  free(dmax);
  veh_free(v);
  track_free(tk);
  rig_free(rg);
  take_close(r);
  return rc;
}

int cmd_take_verify(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "take verify");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  verify_report vr;
  int rc = take_verify(c.pos[0], &vr, &e);
  if (rc) return cli_report(&e);
  if (vr.first_bad >= 0 && !vr.other_build) {
    printf("%s: DIVERGES at step %ld: %s\n", c.pos[0], vr.first_bad, vr.what);
    return 1;
  }
  if (vr.first_bad >= 0) {
    const take_schema* s = NULL;
    take_reader* r = take_open(c.pos[0], &e);   /* for the channel's name, unit and the timestep */
    if (!r) return cli_report(&e);
    s = take_schema_of(r);
    printf("%s: recorded by %s, replayed by %s: the builds differ, so the physics may round differently\n", c.pos[0],
           vr.rec_by, vr.rep_by);
    printf("  first divergence at step %ld (t = %.3f s): %s\n", vr.first_bad, vr.first_bad * s->timestep, vr.what);
    if (vr.stopped[0]) printf("  %s\n", vr.stopped);
    else printf("  re-simulated all %ld steps from the take's inputs\n", vr.resimulated);
    if (vr.drift[0]) printf("  largest differences over the take: %s\n", vr.drift);
    take_close(r);
    return 1;
  }
  if (vr.ctx_only)   /* format 4: channels are rebuilt from the state, inputs and context (docs/takefile.md) */
    printf("%s: bit-exact: %ld steps re-simulated from the take alone match the recording (state and context of every step, "
           "so the poses and channels rebuilt from them; every chunk checked)\n", c.pos[0], vr.checked);
  else
    printf("%s: bit-exact: %ld steps re-simulated from the take alone match the recording (state, poses and channels of every step; every chunk checked)\n", c.pos[0], vr.checked);
  if (vr.other_build) printf("  recorded by %s, replayed by %s: bit-exact across builds\n", vr.rec_by, vr.rep_by);
  if (vr.stunt_unknown)
    printf("  the stunt channel is the recording's, not re-derived: the take was cut during a stunt, whose loop's state "
           "before the cut it does not hold\n");
  return 0;
}
