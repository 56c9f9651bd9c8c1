/* sweep.c — a grid of takes run by our own process pool, indexed in SQLite (takes/sweep.h).
 *
 * The pool keeps up to `jobs` children: each point runs `mototake run` and then, when asked,
 * `mototake take verify` (this very executable, from /proc/self/exe, so a sanitizer build
 * starts itself; fork and exec, no shell). Children are reaped with waitpid; a point's row is written only when its
 * last child ended, in one transaction, so the index never holds a half-finished point. On
 * SIGINT or SIGTERM the running children get SIGTERM (a take being written is left readable
 * and marked incomplete), are reaped and are not recorded: the next run does them again. */
#include "takes/sweep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/cli.h"
#include "sim/rig.h"
#include "sim/vehicle.h"
#include "takes/replay.h"
#include "takes/run.h"
#include "takes/script.h"
#include "takes/shiftrep.h"
#include "takes/takefile.h"
#include "takes/verify.h"

static const sweep_column COLUMNS[] = {
    {"status", "", "ok: the take is complete (and verified when asked); failed: see error"},
    {"duration", "s", "simulated time recorded"},
    {"lap_time", "s", "first complete lap (NULL: none)"},
    {"max_lean", "deg", "largest |lean|"},
    {"max_ay_g", "g", "largest |a_y| / 9.81: tyres' lateral force / mass, low-passed 0.1 s (as run's achieved a_y)"},
    {"min_speed", "m/s", "lowest speed"},
    {"max_speed", "m/s", "highest speed"},
    {"max_offset", "m", "largest |offset| from the centre line"},
    {"fell", "", "1: went past 75 deg of lean"},
    {"left_track", "", "1: ended off the road"},
    {"band_max", "deg", "worst 1 s RMS of the 6-12 Hz steer angle"},
    {"band_share", "", "share of 1 s windows above 0.5 deg in that band"},
    {"marks", "", "mark events"},
    {"verify", "", "bit-exact, failed (exit N) or skipped"},
    {"wall_run", "s", "wall time of the run"},
    {"wall_verify", "s", "wall time of the verification"},
    {"end_reason", "", "why the take ended"},
    {"error", "", "why the point failed (the run's last line)"},
};

const sweep_column* sweep_columns(int* n) {
  *n = (int)MT_ARRAY_LEN(COLUMNS);
  return COLUMNS;
}

/*---- the grid ----*/

int sweep_parse_vary(const char* spec, sweep_axis* a, mt_err* e) {
  memset(a, 0, sizeof *a);
  const char* eq = strchr(spec, '=');
  if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof a->key)
    return mt_fail(e, MT_EINPUT, "sweep: --vary '%s': expected KEY=A:B:N (e.g. payload.mass=0:40:5)", spec);
  memcpy(a->key, spec, (size_t)(eq - spec));
  char buf[256];
  snprintf(buf, sizeof buf, "%s", eq + 1);
  char* c1 = strchr(buf, ':');
  char* c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  if (!c1 || !c2 || strchr(c2 + 1, ':'))
    return mt_fail(e, MT_EINPUT, "sweep: --vary '%s': expected KEY=A:B:N (from A to B in N points)", spec);
  *c1 = *c2 = 0;
  long n;
  if (cli_parse_double(buf, &a->lo) || cli_parse_double(c1 + 1, &a->hi))
    return mt_fail(e, MT_EINPUT, "sweep: --vary '%s': A and B must be plain decimal numbers", spec);
  if (cli_parse_long(c2 + 1, &n) || n < 1 || n > 10000)
    return mt_fail(e, MT_EINPUT, "sweep: --vary '%s': N must be a whole number in 1..10000", spec);
  a->n = (int)n;
  return MT_OK;
}

int sweep_grid_init(sweep_grid* g, const char* script, mt_err* e) {
  snprintf(g->script, sizeof g->script, "%s", script);
  if (!realpath(script, g->script_abs)) return mt_fail(e, MT_EINPUT, "sweep: %s: %s", script, strerror(errno));
  g->npoints = 1;
  for (int k = 0; k < g->naxis; k++) {
    for (int j = 0; j < k; j++)
      if (strcmp(g->ax[j].key, g->ax[k].key) == 0)
        return mt_fail(e, MT_EINPUT, "sweep: --vary %s is given twice", g->ax[k].key);
    g->npoints *= g->ax[k].n;
    if (g->npoints > SWEEP_MAX_POINTS)
      return mt_fail(e, MT_EINPUT, "sweep: the grid has more than %d points", SWEEP_MAX_POINTS);
  }
  /* every key must be a parameter of the script's rig (after the script's own overrides) */
  take_script* s = script_load(script, e);
  if (!s) return MT_EINPUT;
  g->duration = s->duration;
  char path[4096];
  rig_resolve(s->rig, path, sizeof path);
  rig_params ps = {0};
  rig* r = rig_load_params(path, (const char* const*)s->overrides, s->noverride, &ps, e);
  script_free(s);
  if (!r) return MT_EINPUT;
  rig_free(r);
  int rc = MT_OK;
  for (int k = 0; k < g->naxis && !rc; k++) {
    int found = 0;
    for (int i = 0; i < ps.n && !found; i++) found = strcmp(ps.p[i].key, g->ax[k].key) == 0;
    if (!found)
      rc = mt_fail(e, MT_EINPUT, "sweep: --vary %s: no such numeric parameter of rig %s (`mototake rig info %s --params` lists them)",
                   g->ax[k].key, path, path);
  }
  rig_params_free(&ps);
  return rc;
}

double sweep_value(const sweep_grid* g, long i, int k) {
  long stride = 1;
  for (int j = g->naxis - 1; j > k; j--) stride *= g->ax[j].n;
  const sweep_axis* a = &g->ax[k];
  long idx = (i / stride) % a->n;
  if (a->n == 1) return a->lo;
  if (idx == a->n - 1) return a->hi;
  return a->lo + (a->hi - a->lo) * (double)idx / (double)(a->n - 1);
}

void sweep_value_text(double v, char* out, size_t n) {
  for (int prec = 6; prec <= 17; prec++) {
    snprintf(out, n, "%.*g", prec, v);
    if (strtod(out, NULL) == v) return;
  }
}

/*---- the index ----*/

static int db_fail(mt_err* e, sqlite3* db, const char* what) {
  return mt_fail(e, MT_EINTERNAL, "sweep: index: %s: %s", what, db ? sqlite3_errmsg(db) : "cannot open");
}

static char* index_path(const char* dir, char* out, size_t n) {
  snprintf(out, n, "%s/index.sqlite", dir);
  return out;
}

static sqlite3* db_open(const char* dir, int create, mt_err* e) {
  char p[4200];
  sqlite3* db = NULL;
  int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  if (sqlite3_open_v2(index_path(dir, p, sizeof p), &db, flags, NULL) != SQLITE_OK) {
    mt_fail(e, create ? MT_EINTERNAL : MT_EINPUT, "sweep: %s: %s", p, db ? sqlite3_errmsg(db) : "cannot open");
    sqlite3_close(db);
    return NULL;
  }
  sqlite3_busy_timeout(db, 5000);
  return db;
}

static const char* SCHEMA =
    "CREATE TABLE IF NOT EXISTS sweep(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS axes(axis INTEGER PRIMARY KEY, key TEXT NOT NULL, lo REAL NOT NULL, hi REAL NOT NULL,"
    " n INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS params(point INTEGER NOT NULL, axis INTEGER NOT NULL, key TEXT NOT NULL,"
    " value REAL NOT NULL, PRIMARY KEY(point, axis));"
    "CREATE TABLE IF NOT EXISTS points(point INTEGER PRIMARY KEY, take TEXT NOT NULL, status TEXT NOT NULL,"
    " run_exit INTEGER, error TEXT, end_reason TEXT, complete INTEGER, duration REAL, lap_time REAL, max_lean REAL,"
    " max_ay_g REAL, min_speed REAL, max_speed REAL, max_offset REAL, fell INTEGER, left_track INTEGER,"
    " band_max REAL, band_share REAL, marks INTEGER, verify TEXT, wall_run REAL, wall_verify REAL, finished TEXT);";

int sweep_load_grid(const char* dir, sweep_grid* g, mt_err* e) {
  memset(g, 0, sizeof *g);
  char p[4200];
  struct stat st;
  if (stat(index_path(dir, p, sizeof p), &st) != 0)
    return mt_fail(e, MT_EINPUT, "sweep: %s: no sweep index here (%s)", dir, strerror(errno));
  sqlite3* db = db_open(dir, 0, e);
  if (!db) return MT_EINPUT;
  sqlite3_stmt* q = NULL;
  int rc = MT_OK;
  if (sqlite3_prepare_v2(db, "SELECT key, value FROM sweep", -1, &q, NULL) != SQLITE_OK) {
    rc = mt_fail(e, MT_EINPUT, "sweep: %s: not a sweep index (%s)", p, sqlite3_errmsg(db));
    goto done;
  }
  while (sqlite3_step(q) == SQLITE_ROW) {
    const char* k = (const char*)sqlite3_column_text(q, 0);
    const char* v = (const char*)sqlite3_column_text(q, 1);
    if (!k || !v) continue;
    if (!strcmp(k, "script")) snprintf(g->script, sizeof g->script, "%s", v);
    if (!strcmp(k, "script_abs")) snprintf(g->script_abs, sizeof g->script_abs, "%s", v);
  }
  sqlite3_finalize(q);
  q = NULL;
  if (sqlite3_prepare_v2(db, "SELECT key, lo, hi, n FROM axes ORDER BY axis", -1, &q, NULL) != SQLITE_OK) {
    rc = mt_fail(e, MT_EINPUT, "sweep: %s: not a sweep index (%s)", p, sqlite3_errmsg(db));
    goto done;
  }
  g->npoints = 1;
  while (sqlite3_step(q) == SQLITE_ROW && g->naxis < SWEEP_MAX_AXES) {
    sweep_axis* a = &g->ax[g->naxis++];
    snprintf(a->key, sizeof a->key, "%s", (const char*)sqlite3_column_text(q, 0));
    a->lo = sqlite3_column_double(q, 1);
    a->hi = sqlite3_column_double(q, 2);
    a->n = sqlite3_column_int(q, 3);
    if (a->n < 1 || a->n > 10000) {
      rc = mt_fail(e, MT_EINPUT, "sweep: %s: axes: bad n %d", p, a->n);
      goto done;
    }
    g->npoints *= a->n;
    if (g->npoints > SWEEP_MAX_POINTS) {
      rc = mt_fail(e, MT_EINPUT, "sweep: %s: axes: too many points", p);
      goto done;
    }
  }
  if (!g->script[0] || g->naxis == 0) rc = mt_fail(e, MT_EINPUT, "sweep: %s: not a sweep index (no script or axes)", p);
done:
  sqlite3_finalize(q);
  sqlite3_close(db);
  return rc;
}

static int same_grid(const sweep_grid* a, const sweep_grid* b) {
  if (strcmp(a->script_abs, b->script_abs) || a->naxis != b->naxis) return 0;
  for (int k = 0; k < a->naxis; k++)
    if (strcmp(a->ax[k].key, b->ax[k].key) || a->ax[k].lo != b->ax[k].lo || a->ax[k].hi != b->ax[k].hi ||
        a->ax[k].n != b->ax[k].n)
      return 0;
  return 1;
}

/* mkdir -p */
static int make_dirs(const char* dir) {
  char p[PATH_MAX];
  if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) return (errno = ENAMETOOLONG), -1;
  for (char* s = p + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      if (mkdir(p, 0777) != 0 && errno != EEXIST) return -1;
      *s = '/';
    }
  if (mkdir(p, 0777) != 0 && errno != EEXIST) return -1;
  struct stat st;
  if (stat(p, &st) != 0) return -1;
  if (!S_ISDIR(st.st_mode)) return (errno = ENOTDIR), -1;
  return 0;
}

/* Whether a name in DIR is one the sweep writes: a point's take or log or a file its run writes
 * beside the take ("pNNNN." or "pNNNN_", NNNN a point of the grid: a linearisation's M-file),
 * the index's journal, or what --emit writes (a later --emit into the folder, index made, does
 * not check again). */
static int sweep_name(const sweep_grid* g, const char* nm) {
  const char* fixed[] = {"index.sqlite-journal", "jobs.txt", "sweep.slurm", "README.txt"};
  for (size_t k = 0; k < MT_ARRAY_LEN(fixed); k++)
    if (!strcmp(nm, fixed[k])) return 1;
  if (nm[0] != 'p') return 0;
  size_t nd = strspn(nm + 1, "0123456789");
  if (nd < 4 || nd > 9 || (nm[1 + nd] != '.' && nm[1 + nd] != '_')) return 0;
  return strtol(nm + 1, NULL, 10) < g->npoints;
}

/* A folder without a sweep index holds nothing of a sweep: any file there under a name the sweep
 * writes is someone else's, and the sweep would replace it (issue 29 finding 4). Refused, naming
 * the first one found; nothing in the folder is touched. */
static int refuse_foreign(const sweep_grid* g, const char* dir, mt_err* e) {
  DIR* d = opendir(dir);
  if (!d) return mt_fail(e, MT_EINPUT, "sweep: -o %s: %s", dir, strerror(errno));
  struct dirent* de;
  char found[256] = "";
  while (!found[0] && (de = readdir(d)))
    if (sweep_name(g, de->d_name)) snprintf(found, sizeof found, "%s", de->d_name);
  closedir(d);
  if (!found[0]) return MT_OK;
  return mt_fail(e, MT_EINPUT, "sweep: -o %s: %s/%s is not from a sweep (there is no index.sqlite beside it); refusing to overwrite it: use an empty or new folder",
                 dir, dir, found);
}

int sweep_prepare(const sweep_grid* g, const char* dir, mt_err* e) {
  if (make_dirs(dir) != 0) return mt_fail(e, MT_EINPUT, "sweep: -o %s: %s", dir, strerror(errno));
  char p[4200];
  struct stat st;
  if (stat(index_path(dir, p, sizeof p), &st) != 0 && refuse_foreign(g, dir, e)) return e->code;
  if (stat(index_path(dir, p, sizeof p), &st) == 0) {
    sweep_grid old;
    if (sweep_load_grid(dir, &old, e)) return e->code;
    if (!same_grid(&old, g))
      return mt_fail(e, MT_EINPUT, "sweep: %s holds a different sweep (script %s, %d axes); use another -o DIR", p,
                     old.script_abs, old.naxis);
    return MT_OK;
  }
  sqlite3* db = db_open(dir, 1, e);
  if (!db) return e->code;
  int rc = MT_OK;
  sqlite3_stmt *qa = NULL, *qp = NULL, *qm = NULL;
  if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) || sqlite3_exec(db, SCHEMA, NULL, NULL, NULL) ||
      sqlite3_prepare_v2(db, "INSERT INTO sweep VALUES(?, ?)", -1, &qm, NULL) ||
      sqlite3_prepare_v2(db, "INSERT INTO axes VALUES(?, ?, ?, ?, ?)", -1, &qa, NULL) ||
      sqlite3_prepare_v2(db, "INSERT INTO params VALUES(?, ?, ?, ?)", -1, &qp, NULL)) {
    rc = db_fail(e, db, "create");
    goto done;
  }
  char created[32], npts[32];
  time_t tt = time(NULL);
  strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", gmtime(&tt));
  snprintf(npts, sizeof npts, "%ld", g->npoints);
  const char* meta[][2] = {{"script", g->script}, {"script_abs", g->script_abs}, {"created", created},
                           {"program_version", mt_version()}, {"git_revision", mt_git_rev()}, {"npoints", npts}};
  for (size_t i = 0; i < MT_ARRAY_LEN(meta) && !rc; i++) {
    sqlite3_bind_text(qm, 1, meta[i][0], -1, SQLITE_STATIC);
    sqlite3_bind_text(qm, 2, meta[i][1], -1, SQLITE_STATIC);
    if (sqlite3_step(qm) != SQLITE_DONE) rc = db_fail(e, db, "sweep");
    sqlite3_reset(qm);
  }
  for (int k = 0; k < g->naxis && !rc; k++) {
    sqlite3_bind_int(qa, 1, k);
    sqlite3_bind_text(qa, 2, g->ax[k].key, -1, SQLITE_STATIC);
    sqlite3_bind_double(qa, 3, g->ax[k].lo);
    sqlite3_bind_double(qa, 4, g->ax[k].hi);
    sqlite3_bind_int(qa, 5, g->ax[k].n);
    if (sqlite3_step(qa) != SQLITE_DONE) rc = db_fail(e, db, "axes");
    sqlite3_reset(qa);
  }
  for (long i = 0; i < g->npoints && !rc; i++)
    for (int k = 0; k < g->naxis && !rc; k++) {
      sqlite3_bind_int64(qp, 1, i);
      sqlite3_bind_int(qp, 2, k);
      sqlite3_bind_text(qp, 3, g->ax[k].key, -1, SQLITE_STATIC);
      sqlite3_bind_double(qp, 4, sweep_value(g, i, k));
      if (sqlite3_step(qp) != SQLITE_DONE) rc = db_fail(e, db, "params");
      sqlite3_reset(qp);
    }
  /* the view: one column per varied key (keys are rig parameter names: letters, digits, _ and .) */
  if (!rc) {
    size_t cap = 256 + (size_t)g->naxis * 400;
    char* v = mt_alloc(cap);
    strcpy(v, "CREATE VIEW results AS SELECT ");
    for (int k = 0; k < g->naxis; k++) {
      char col[600];
      snprintf(col, sizeof col,
               "(SELECT value FROM params WHERE params.point = points.point AND axis = %d) AS \"%s\", ", k, g->ax[k].key);
      strcat(v, col);
    }
    strcat(v, "points.* FROM points ORDER BY point");
    if (sqlite3_exec(db, v, NULL, NULL, NULL)) rc = db_fail(e, db, "view");
    free(v);
  }
  if (!rc && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL)) rc = db_fail(e, db, "commit");
done:
  sqlite3_finalize(qa);
  sqlite3_finalize(qp);
  sqlite3_finalize(qm);
  sqlite3_close(db);
  return rc;
}

/*---- metrics of a take ----*/

int sweep_take_metrics(const char* path, sweep_metrics* m, mt_err* e) {
  memset(m, 0, sizeof *m);
  m->lap_time = m->band_max = m->band_share = NAN;
  take_reader* r = take_open(path, e);
  if (!r) return e->code;
  const take_schema* s = take_schema_of(r);
  const char* reason = NULL;
  m->complete = take_complete(r, &reason);
  snprintf(m->end_reason, sizeof m->end_reason, "%s", reason ? reason : "");
  long n = take_nsteps(r);
  m->duration = n * s->timestep;
  int ct = -1, cs = -1, cl = -1, cfy = -1, cry = -1, co = -1, clap = -1;
  for (int c = 0; c < s->nchan; c++) {
    const char* nm = s->chan_names[c];
    if (!strcmp(nm, "time")) ct = c;
    else if (!strcmp(nm, "speed")) cs = c;
    else if (!strcmp(nm, "lean")) cl = c;
    else if (!strcmp(nm, "front_fy")) cfy = c;
    else if (!strcmp(nm, "rear_fy")) cry = c;
    else if (!strcmp(nm, "offset")) co = c;
    else if (!strcmp(nm, "lap")) clap = c;
  }
  m->min_speed = INFINITY;
  m->max_speed = -INFINITY;
  /* a_y as `mototake run` reports the achieved figure (takes/run.c): the tyres' lateral forces
   * over the machine's mass (the model as ridden, overrides and payload included), low-passed with
   * a 0.1 s time constant step by step from 0, its largest magnitude; NULL when the take lacks
   * the tyre force channels */
  double ay_mass = NAN, ay_f = 0, ay_lp = s->timestep / (0.1 + s->timestep);
  if (cfy >= 0 && cry >= 0) {
    rig* rg = NULL;
    track* tk = NULL;
    mt_err re = {0};
    vehicle* v = NULL;   /* compiled, for the very mass run.c divides by (MuJoCo's total) */
    if (replay_rebuild(r, 1, &rg, &tk, &re) == MT_OK && (v = veh_new(rg, track_road(tk), 0, &re)))
      ay_mass = veh_mass(v);
    veh_free(v);
    rig_free(rg);
    track_free(tk);
  }
  m->max_ay_g = isfinite(ay_mass) ? 0 : NAN;
  double lap_prev = NAN, t_first = NAN;
  const long B = TAKE_CHUNK_STEPS;
  double* buf = mt_alloc(sizeof(double) * (size_t)B * (size_t)s->nchan);
  int rc = MT_OK;
  for (long s0 = 0; s0 < n && !rc; s0 += B) {
    long k = n - s0 < B ? n - s0 : B;
    if ((rc = take_read(r, TAKE_CHAN, s0, k, buf, e))) break;
    for (long i = 0; i < k; i++) {
      const double* row = buf + i * s->nchan;
      if (cs >= 0) {
        m->min_speed = fmin(m->min_speed, row[cs]);
        m->max_speed = fmax(m->max_speed, row[cs]);
      }
      if (cl >= 0) m->max_lean = fmax(m->max_lean, fabs(row[cl]));
      if (isfinite(ay_mass)) {
        ay_f += ay_lp * ((row[cfy] + row[cry]) / ay_mass - ay_f);
        m->max_ay_g = fmax(m->max_ay_g, fabs(ay_f) / MT_G);
      }
      if (co >= 0) m->max_offset = fmax(m->max_offset, fabs(row[co]));
      if (clap >= 0 && ct >= 0) {
        /* the lap counter steps up at each crossing of the line: the first lap is the time
         * between the first two steps (as `mototake run` measures it) */
        if (!isnan(lap_prev) && row[clap] > lap_prev) {
          if (isnan(t_first)) t_first = row[ct];
          else if (isnan(m->lap_time)) m->lap_time = row[ct] - t_first;
        }
        lap_prev = row[clap];
      }
    }
  }
  free(buf);
  if (n == 0 || cs < 0) m->min_speed = m->max_speed = NAN;
  for (int i = 0; i < take_nevents(r); i++) {
    const take_event* ev = take_event_at(r, i);
    const char* js = ev->json ? ev->json : "";
    if (!strcmp(ev->kind, "mark")) {
      m->marks++;
      if (strstr(js, "\"label\":\"fell\"")) m->fell = 1;
    } else if (!strcmp(ev->kind, "end")) {
      if (strstr(js, "\"fell over\"")) m->fell = 1;
      if (strstr(js, "\"left the track\"")) m->left_track = 1;
    }
  }
  if (!rc && n >= 2000) {
    band_summary b;
    mt_err be = {0};
    if (band_of_take(r, 6, 12, 0.5, &b, &be) == MT_OK && b.nwin > 0) {
      m->band_max = b.worst;
      m->band_share = b.share;
    }
  }
  take_close(r);
  return rc;
}

/*---- the pool ----*/

static volatile sig_atomic_t g_stop;
static void on_stop(int sig) { g_stop = sig; }

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

enum { PH_FREE, PH_RUN, PH_VERIFY };

typedef struct slot {
  int phase;
  pid_t pid;
  long point;
  double t0, wall_run;
  int run_exit;
} slot;

/* A point's work in a child process: job(arg), whose return is the child's exit status, as the
 * command's would be (`mototake run`, `mototake take verify`); its stdout and stderr go to log
 * (truncated when trunc). The child is forked and calls the takes layer itself (run_take,
 * take_verify_report), as a new process of this program would, without exec: a start of
 * this program (the dynamic linker and the 179 libraries it loads) costs 0.05 s of CPU, and a
 * point's run and verification, two starts, were about a quarter of a short take's CPU
 * (docs/sweep.md). The sweep holds nothing a command reads:
 * it runs no vehicle and no Lua while points run, its SQLite index is used by this parent only
 * (the child never touches it, and leaves by _exit), and stdio is flushed before the fork so that
 * no buffered output is written twice. The child asks the kernel for SIGTERM when the sweep dies
 * (PR_SET_PDEATHSIG), so even a SIGKILLed sweep leaves no rider behind, only a readable take
 * marked incomplete, and takes SIGINT and SIGTERM as a new process would. */
static pid_t spawn_job(int (*job)(const void* arg), const void* arg, const char* log, int trunc, mt_err* e) {
  int fd = open(log, O_WRONLY | O_CREAT | O_CLOEXEC | (trunc ? O_TRUNC : O_APPEND), 0666);
  if (fd < 0) {
    mt_fail(e, MT_EINPUT, "sweep: %s: %s", log, strerror(errno));
    return -1;
  }
  pid_t parent = getpid();
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(fd);
    mt_fail(e, MT_EINTERNAL, "sweep: fork: %s", strerror(errno));
    return -1;
  }
  if (pid == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent) _exit(127);
    int nul = open("/dev/null", O_RDONLY);
    if (nul < 0 || dup2(nul, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) _exit(127);
    close(nul);
    close(fd);
    int rc = job(arg);
    fflush(NULL);
    _exit(rc);
  }
  close(fd);
  return pid;
}

typedef struct pool {
  const sweep_grid* g;
  const char* dir;
  const sweep_opts* o;
  sqlite3* db;
  sqlite3_stmt* ins;
  unsigned char* done;    /* per point: has a row */
  long ndone, nrecorded, nfailed, total_left;
  double t0;
} pool;

static void take_name(const pool* P, long i, const char* ext, char* out, size_t n) {
  snprintf(out, n, "%s/p%04ld.%s", P->dir, i, ext);
}

/* An error of a child's job, as the command would report it: one line on stderr (its log) and
 * the error's code as the exit status. */
static int job_report(const mt_err* e) {
  if (e->code == MT_OK) return 0;
  fprintf(stderr, "mototake: %s\n", e->msg);
  return e->code;
}

/* A point's run: `mototake run SCRIPT -o TAKE --quiet --store-channels --set KEY=V ...`. */
static int run_job(const void* arg) {
  const run_opts* o = arg;
  run_result r;
  mt_err e = {0};
  run_take(o, &r, &e);
  return job_report(&e);
}

/* A point's verification: `mototake take verify TAKE`. */
static int verify_job(const void* arg) {
  mt_err e = {0};
  int rc = take_verify_report(arg, 1, &e);   /* quiet: its stderr is the point's log */
  return e.code ? job_report(&e) : rc;
}

static pid_t start_run(pool* P, long i, mt_err* e) {
  char take[4200], log[4200];
  take_name(P, i, "take", take, sizeof take);
  take_name(P, i, "log", log, sizeof log);
  char sets[SWEEP_MAX_AXES][200];
  const char* vals[SWEEP_MAX_AXES];
  for (int k = 0; k < P->g->naxis; k++) {
    char v[64];
    sweep_value_text(sweep_value(P->g, i, k), v, sizeof v);
    snprintf(sets[k], sizeof sets[k], "%s=%s", P->g->ax[k].key, v);
    vals[k] = sets[k];
  }
  /* the index reads the channels of every take (sweep_take_metrics): they are stored */
  run_opts o = {.script = P->g->script, .out = take, .sets = vals, .nset = P->g->naxis, .quiet = 1, .store_chan = 1};
  return spawn_job(run_job, &o, log, 1, e);
}

static pid_t start_verify(pool* P, long i, mt_err* e) {
  char take[4200], log[4200];
  take_name(P, i, "take", take, sizeof take);
  take_name(P, i, "log", log, sizeof log);
  return spawn_job(verify_job, take, log, 0, e);
}

/* The last non-empty line of a log, for the error column. */
static void last_line(const char* path, char* out, size_t n) {
  out[0] = 0;
  FILE* f = fopen(path, "r");
  if (!f) return;
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    size_t l = strlen(line);
    while (l && (line[l - 1] == '\n' || line[l - 1] == '\r')) line[--l] = 0;
    const char* t = strncmp(line, "mototake: ", 10) == 0 ? line + 10 : line;
    if (l) snprintf(out, n, "%s", t);
  }
  fclose(f);
}

static void bind_num(sqlite3_stmt* q, int col, double v) {
  if (isfinite(v)) sqlite3_bind_double(q, col, v);
  else sqlite3_bind_null(q, col);
}

/* Write point i's row (one transaction). run_exit −1: no run by us (collected). */
static int record(pool* P, long i, int run_exit, double wall_run, const char* verify, double wall_verify, mt_err* e) {
  char take[4200], log[4200], rel[64], err[1024] = "";
  take_name(P, i, "take", take, sizeof take);
  take_name(P, i, "log", log, sizeof log);
  snprintf(rel, sizeof rel, "p%04ld.take", i);
  sweep_metrics m;
  mt_err me = {0};
  int have = access(take, F_OK) == 0 && sweep_take_metrics(take, &m, &me) == MT_OK;
  int ok = have && m.complete && (run_exit <= 0) && (!strcmp(verify, "bit-exact") || !strcmp(verify, "skipped"));
  if (!ok) {
    if (run_exit > 0) last_line(log, err, sizeof err);
    else if (!have) snprintf(err, sizeof err, "%s", me.msg[0] ? me.msg : "no take");
    else if (!m.complete) snprintf(err, sizeof err, "take incomplete: %s", m.end_reason);
    else snprintf(err, sizeof err, "verify: %s", verify);
  }
  sqlite3_stmt* q = P->ins;
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
  int c = 1;
  sqlite3_bind_int64(q, c++, i);
  sqlite3_bind_text(q, c++, rel, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(q, c++, ok ? "ok" : "failed", -1, SQLITE_STATIC);
  if (run_exit >= 0) sqlite3_bind_int(q, c, run_exit);
  c++;
  if (err[0]) sqlite3_bind_text(q, c, err, -1, SQLITE_TRANSIENT);
  c++;
  if (have) {
    sqlite3_bind_text(q, c++, m.end_reason, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(q, c++, m.complete);
    bind_num(q, c++, m.duration);
    bind_num(q, c++, m.lap_time);
    bind_num(q, c++, m.max_lean);
    bind_num(q, c++, m.max_ay_g);
    bind_num(q, c++, m.min_speed);
    bind_num(q, c++, m.max_speed);
    bind_num(q, c++, m.max_offset);
    sqlite3_bind_int(q, c++, m.fell);
    sqlite3_bind_int(q, c++, m.left_track);
    bind_num(q, c++, m.band_max);
    bind_num(q, c++, m.band_share);
    sqlite3_bind_int(q, c++, m.marks);
  } else {
    c += 14;
  }
  sqlite3_bind_text(q, c++, verify, -1, SQLITE_TRANSIENT);
  bind_num(q, c++, wall_run);
  bind_num(q, c++, wall_verify);
  char fin[32];
  time_t tt = time(NULL);
  strftime(fin, sizeof fin, "%Y-%m-%dT%H:%M:%SZ", gmtime(&tt));
  sqlite3_bind_text(q, c++, fin, -1, SQLITE_TRANSIENT);
  if (sqlite3_step(q) != SQLITE_DONE) return db_fail(e, P->db, "points");
  P->done[i] = 1;
  P->nrecorded++;
  if (!ok) P->nfailed++;
  if (!P->o->quiet) {
    char params[512] = "";
    for (int k = 0; k < P->g->naxis; k++) {
      char v[64];
      sweep_value_text(sweep_value(P->g, i, k), v, sizeof v);
      size_t l = strlen(params);
      snprintf(params + l, sizeof params - l, "%s%s=%s", k ? " " : "", P->g->ax[k].key, v);
    }
    double el = wall_now() - P->t0;
    double eta = P->nrecorded < P->total_left ? el / P->nrecorded * (P->total_left - P->nrecorded) : 0;
    fprintf(stderr, "sweep: [%ld/%ld] p%04ld %s: %s%s%s (%.1f s)  elapsed %.0f s, eta %.0f s\n", P->nrecorded,
            P->total_left, i, params, ok ? "ok" : "FAILED", ok ? "" : ": ", ok ? "" : err,
            (isfinite(wall_run) ? wall_run : 0) + (isfinite(wall_verify) ? wall_verify : 0), el, eta);
  }
  return MT_OK;
}

static int load_done(pool* P, mt_err* e) {
  sqlite3_stmt* q = NULL;
  if (sqlite3_prepare_v2(P->db, "SELECT point, status FROM points", -1, &q, NULL) != SQLITE_OK)
    return mt_fail(e, MT_EINPUT, "sweep: %s: not a sweep index: %s", P->dir, sqlite3_errmsg(P->db));
  while (sqlite3_step(q) == SQLITE_ROW) {
    long i = (long)sqlite3_column_int64(q, 0);
    const char* st = (const char*)sqlite3_column_text(q, 1);
    if (i < 0 || i >= P->g->npoints) continue;
    if (P->o->retry_failed && st && strcmp(st, "ok") != 0) continue;
    P->done[i] = 1;
    P->ndone++;
  }
  sqlite3_finalize(q);
  return MT_OK;
}

int sweep_run(const char* dir, const sweep_opts* o, mt_err* e) {
  sweep_grid g;
  if (sweep_load_grid(dir, &g, e)) return e->code;
  pool P = {&g, dir, o, NULL, NULL, NULL, 0, 0, 0, 0, wall_now()};
  P.db = db_open(dir, 0, e);
  if (!P.db) return e->code;
  int rc = MT_OK;
  slot* slots = NULL;
  P.done = mt_alloc((size_t)g.npoints);
  if ((rc = load_done(&P, e))) goto done;
  if (sqlite3_prepare_v2(P.db,
                         "INSERT OR REPLACE INTO points(point, take, status, run_exit, error, end_reason, complete,"
                         " duration, lap_time, max_lean, max_ay_g, min_speed, max_speed, max_offset, fell, left_track,"
                         " band_max, band_share, marks, verify, wall_run, wall_verify, finished)"
                         " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                         -1, &P.ins, NULL) != SQLITE_OK) {
    rc = db_fail(e, P.db, "prepare");
    goto done;
  }
  P.total_left = g.npoints - P.ndone;
  if (!o->quiet)
    fprintf(stderr, "sweep: %s: %ld points, %ld in the index already, %ld to %s with %d job%s\n", dir, g.npoints,
            P.ndone, P.total_left, o->collect_only ? "index" : "run", o->jobs, o->jobs == 1 ? "" : "s");
  /* SIGINT/SIGTERM: stop starting, stop the children, keep what is recorded */
  struct sigaction sa = {0}, old_int, old_term;
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  g_stop = 0;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  slots = mt_alloc(sizeof(slot) * (size_t)o->jobs);
  long next = 0, skipped_missing = 0;
  int running = 0;
  for (;;) {
    while (!g_stop && !rc && running < o->jobs) {
      while (next < g.npoints && P.done[next]) next++;
      if (next >= g.npoints) break;
      long i = next++;
      if (o->collect_only) {
        char take[4200];
        take_name(&P, i, "take", take, sizeof take);
        if (access(take, F_OK) != 0) {
          skipped_missing++;   /* not made yet: stays out of the index */
          continue;
        }
        mt_err te = {0};
        take_reader* tr = take_open(take, &te);
        int live = tr && take_live(tr);
        if (tr) take_close(tr);
        if (live) {
          skipped_missing++;   /* still being written by a job */
          continue;
        }
      }
      int s = 0;
      while (slots[s].phase != PH_FREE) s++;
      slots[s].point = i;
      slots[s].t0 = wall_now();
      slots[s].wall_run = NAN;
      slots[s].run_exit = -1;
      if (o->collect_only && !o->verify) {
        rc = record(&P, i, -1, NAN, "skipped", NAN, e);
        continue;
      }
      pid_t pid = o->collect_only ? start_verify(&P, i, e) : start_run(&P, i, e);
      if (pid < 0) {
        rc = e->code;
        break;
      }
      slots[s].pid = pid;
      slots[s].phase = o->collect_only ? PH_VERIFY : PH_RUN;
      running++;
    }
    if (running == 0) break;
    int st;
    pid_t pid = waitpid(-1, &st, 0);
    if (pid < 0) {
      if (errno == EINTR) {
        if (g_stop)
          for (int s = 0; s < o->jobs; s++)
            if (slots[s].phase != PH_FREE) kill(slots[s].pid, SIGTERM);
        continue;
      }
      rc = mt_fail(e, MT_EINTERNAL, "sweep: waitpid: %s", strerror(errno));
      break;
    }
    int s = 0;
    while (s < o->jobs && !(slots[s].phase != PH_FREE && slots[s].pid == pid)) s++;
    if (s == o->jobs) continue;
    slot* sl = &slots[s];
    double wall = wall_now() - sl->t0;
    int killed = WIFSIGNALED(st) && (WTERMSIG(st) == SIGINT || WTERMSIG(st) == SIGTERM);
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    running--;
    if (g_stop || killed) {   /* interrupted: not recorded, the next run does this point again */
      sl->phase = PH_FREE;
      if (killed && !g_stop) g_stop = SIGTERM;
      if (g_stop)
        for (int q = 0; q < o->jobs; q++)
          if (slots[q].phase != PH_FREE) kill(slots[q].pid, SIGTERM);
      continue;
    }
    if (sl->phase == PH_RUN) {
      sl->wall_run = wall;
      sl->run_exit = code;
      if (code == 0 && o->verify) {
        sl->t0 = wall_now();
        pid_t vp = start_verify(&P, sl->point, e);
        if (vp < 0) {
          rc = e->code;
          sl->phase = PH_FREE;
          continue;
        }
        sl->pid = vp;
        sl->phase = PH_VERIFY;
        running++;
        continue;
      }
      if (!rc) rc = record(&P, sl->point, code, sl->wall_run, "skipped", NAN, e);
    } else {
      char vs[64];
      if (code == 0) snprintf(vs, sizeof vs, "bit-exact");
      else snprintf(vs, sizeof vs, "failed (exit %d)", code);
      if (!rc) rc = record(&P, sl->point, sl->run_exit, sl->wall_run, vs, wall, e);
    }
    sl->phase = PH_FREE;
  }
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  if (!rc && !o->quiet) {
    fprintf(stderr, "sweep: %s: %ld of %ld points in the index (%ld failed this time), %.1f s\n", dir,
            P.ndone + P.nrecorded, g.npoints, P.nfailed, wall_now() - P.t0);
    if (skipped_missing) fprintf(stderr, "sweep: %ld points have no finished take yet\n", skipped_missing);
  }
  if (!rc && g_stop) {
    fprintf(stderr, "sweep: interrupted: %ld of %ld points in the index; run the same command again to continue\n",
            P.ndone + P.nrecorded, g.npoints);
    rc = SWEEP_INTERRUPTED;
  } else if (!rc && o->collect_only && skipped_missing && !o->quiet) {
    /* not an error: the index is what exists so far */
  }
done:
  free(slots);
  free(P.done);
  sqlite3_finalize(P.ins);
  sqlite3_close(P.db);
  return rc;
}

/*---- job lists for other machines ----*/

/* Append s to out as one shell word (single-quoted unless plainly safe). */
static void shq(FILE* f, const char* s) {
  int safe = *s != 0;
  for (const char* p = s; *p && safe; p++)
    safe = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("/._-=+:,", *p);
  if (safe) {
    fputs(s, f);
    return;
  }
  fputc('\'', f);
  for (const char* p = s; *p; p++)
    if (*p == '\'') fputs("'\\''", f);
    else fputc(*p, f);
  fputc('\'', f);
}

/* One point's command line: run, output to its log. */
static void job_line(FILE* f, const sweep_grid* g, const char* adir, const char* program, long i) {
  char take[4200], log[4200];
  snprintf(take, sizeof take, "%s/p%04ld.take", adir, i);
  snprintf(log, sizeof log, "%s/p%04ld.log", adir, i);
  shq(f, program);
  fputs(" run ", f);
  shq(f, g->script_abs);
  fputs(" -o ", f);
  shq(f, take);
  fputs(" --quiet --store-channels", f);
  for (int k = 0; k < g->naxis; k++) {
    char v[64], set[256];
    sweep_value_text(sweep_value(g, i, k), v, sizeof v);
    snprintf(set, sizeof set, "%s=%s", g->ax[k].key, v);
    fputs(" --set ", f);
    shq(f, set);
  }
  fputs(" > ", f);
  shq(f, log);
  fputs(" 2>&1", f);
}

long sweep_slurm_minutes(double duration) {
  long m = (long)ceil(duration / 5 / 60);
  return m < 5 ? 5 : m;
}

/* The job array's header: name, array, one CPU, the limits, where the output goes. */
static void slurm_header(FILE* f, const sweep_grid* g, const char* adir, const char* path, const sweep_slurm* sl) {
  long min = sl->minutes > 0 ? sl->minutes : sweep_slurm_minutes(g->duration);
  long mem = sl->mem_mb > 0 ? sl->mem_mb : SWEEP_SLURM_MEM_MB;
  fprintf(f, "#!/bin/bash\n# A SLURM job array: one task per point of the sweep of %s (%ld points).\n", g->script_abs,
          g->npoints);
  fprintf(f, "# Submit with `sbatch %s`; when every task is done, `mototake sweep index %s` writes the index.\n",
          path, adir);
  fprintf(f, "# Limits per task: `mototake sweep --time MIN --mem MB` (defaults: the script's %g s ridden at 5x real\n"
          "# time, at least 5 minutes; %d MB).\n", g->duration, SWEEP_SLURM_MEM_MB);
  fprintf(f, "#SBATCH --job-name=mototake-sweep\n#SBATCH --array=0-%ld\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n",
          g->npoints - 1);
  fprintf(f, "#SBATCH --time=%02ld:%02ld:00\n#SBATCH --mem=%ldM\n", min / 60, min % 60, mem);
  fprintf(f, "#SBATCH --output=%s/slurm-%%a.out\n", adir);
}

int sweep_emit(const sweep_grid* g, const char* dir, const char* kind, const char* program, const sweep_slurm* sl,
               mt_err* e) {
  int slurm = !strcmp(kind, "slurm");
  if (!slurm && strcmp(kind, "gnu-parallel"))
    return mt_fail(e, MT_EINPUT, "sweep: --emit %s: expected gnu-parallel or slurm", kind);
  if (sweep_prepare(g, dir, e)) return e->code;
  char adir[PATH_MAX], path[PATH_MAX + 32], tmp[PATH_MAX + 40];
  if (!realpath(dir, adir)) return mt_fail(e, MT_EINPUT, "sweep: %s: %s", dir, strerror(errno));
  snprintf(path, sizeof path, "%s/%s", adir, slurm ? "sweep.slurm" : "jobs.txt");
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE* f = fopen(tmp, "w");
  if (!f) return mt_fail(e, MT_EINPUT, "sweep: %s: %s", tmp, strerror(errno));
  if (slurm) {
    slurm_header(f, g, adir, path, sl);
    fprintf(f, "set -eu\ncase \"${SLURM_ARRAY_TASK_ID:?not run as a SLURM array task}\" in\n");
    for (long i = 0; i < g->npoints; i++) {
      fprintf(f, "  %ld) exec ", i);
      job_line(f, g, adir, program, i);
      fputs(" ;;\n", f);
    }
    fprintf(f, "  *) echo \"no point $SLURM_ARRAY_TASK_ID in this sweep (0-%ld)\" >&2; exit 2 ;;\nesac\n", g->npoints - 1);
  } else {
    for (long i = 0; i < g->npoints; i++) {
      job_line(f, g, adir, program, i);
      fputc('\n', f);
    }
  }
  if (fclose(f) != 0 || rename(tmp, path) != 0) {
    unlink(tmp);
    return mt_fail(e, MT_EINTERNAL, "sweep: %s: %s", path, strerror(errno));
  }
  if (slurm) chmod(path, 0755);
  char readme[PATH_MAX + 32], how[2 * PATH_MAX + 200];
  if (slurm)
    snprintf(how, sizeof how, "sbatch %s  # then, when all tasks are done: mototake sweep index %s\n", path, adir);
  else
    snprintf(how, sizeof how,
             "parallel --sshloginfile HOSTS --jobs 1 < %s  # shared filesystem; then: mototake sweep index %s\n", path,
             adir);
  snprintf(readme, sizeof readme, "%s/README.txt", adir);
  FILE* r = fopen(readme, "w");
  if (!r) return mt_fail(e, MT_EINPUT, "sweep: %s: %s", readme, strerror(errno));
  fputs(how, r);
  fclose(r);
  printf("%s: %ld points\nrun: %s", path, g->npoints, how);
  return MT_OK;
}
