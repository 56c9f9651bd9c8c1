/* take_reader.c — reading an untrusted take: open and validate, then serve its records and its
 * streams chunk by chunk (see take_reader.h and docs/takefile.md). */
#include "takes/take_reader.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <jansson.h>
#include <zlib.h>
#include <libavutil/mem.h>
#include <libavutil/sha.h>

#include "base/outfile.h"
#include "sim/rig.h"
#include "takes/recorder.h"
#include "takes/take_codec.h"
#include "takes/takejournal.h"

/*---- reader ----
 * A take is untrusted input (docs/takefile.md, "Reading an untrusted take"). take_reader_open opens it
 * with SQLite's defensive settings (no views, no triggers, untrusted schema, a length limit, a
 * budget of virtual-machine operations per statement, a heap limit), checks the schema against
 * the one take_writer_open writes, and cross-checks every count before anything is allocated from it:
 * the metadata, the columns of each stream (numbered 0…n−1, poses in groups of seven), the chunk
 * index of every stream (chunk k starts at step 1000·k, every chunk but the last is full, each
 * has the stream's column count, a known codec and the matching raw size), the step count of
 * every stream and the status row. Whatever passes, take_read_stored can rely on. */

#define TAKE_MAX_COLS 4096          /* per stream; sport1000 has 84 channels and 84 pose columns */
#define TAKE_MAX_ROWS 1000000       /* meta, sources, events */
#define TAKE_MAX_TEXT (64 << 20)    /* any one value: the largest legitimate ones are source texts */
#define TAKE_OPS_PER_TICK 1000      /* progress handler period, in SQLite VM operations */
#define TAKE_MAX_TICKS 200000       /* 2e8 operations per statement: about a second of work */
#define TAKE_HEAP_LIMIT (512LL << 20)

#define TAKE_BUSY_MS 10000

/* Defensive settings for a connection to an untrusted take: no views, no triggers, no
 * extensions, schema functions untrusted, writes to the schema refused, values of at most
 * TAKE_MAX_TEXT bytes, and a busy timeout so that a reader and a writer wait for each other's
 * (short) transactions instead of failing with "database is locked". */
static void take_harden(sqlite3* db) {
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int*)NULL);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int*)NULL);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, (int*)NULL);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int*)NULL);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int*)NULL);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, TAKE_MAX_TEXT);
  sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 64);
  sqlite3_limit(db, SQLITE_LIMIT_COMPOUND_SELECT, 8);
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_busy_timeout(db, TAKE_BUSY_MS);
}

/* A `-journal` next to the take. One that is not provably the take's own (takejournal.h: a
 * journal left beside a file that was replaced since) is refused with one line and left alone.
 * The take's own hot one (left by a run killed inside a transaction) is
 * rolled back by SQLite itself when a read-write connection first reads the file; one that is
 * still there after that is not hot (SQLite decided so: its header is zeroed or it is empty,
 * e.g. a run killed while starting a transaction) and is removed — but only while we hold an
 * exclusive lock, so never from under a live writer. Best effort: without write access the
 * journal stays and the reader opens read-only. */
int take_journal_recover(const char* path, mt_err* e) {
  char j[4200], why[200];
  snprintf(j, sizeof j, "%s-journal", path);
  int whose = take_journal_judge(path, j, why, sizeof why);
  if (whose == TJ_NONE) return MT_OK;
  if (whose == TJ_FOREIGN)   /* never applied, never removed: it may be someone's only copy */
    return mt_fail(e, MT_EINPUT, "%s: %s is not this take's journal (%s); not applied, left in place: move it away to read the take",
                   path, j, why);
  sqlite3* db = NULL;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
    sqlite3_close(db);
    return MT_OK;
  }
  take_harden(db);
  sqlite3_busy_timeout(db, 0);   /* someone holds a lock: a live writer, leave its journal alone */
  if (sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL) == SQLITE_OK) {
    if (access(j, F_OK) == 0 && remove(j) != 0) {
      sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
      sqlite3_close(db);
      return mt_fail(e, MT_EINPUT, "%s: cannot remove the stale %s", path, j);
    }
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  }
  sqlite3_close(db);
  return MT_OK;
}

struct take_reader {
  sqlite3* db;
  char* path;
  take_schema schema;
  char** names[TAKE_NSTREAM];
  char** units[TAKE_NSTREAM];
  int ncols[TAKE_NSTREAM];
  char** parents;
  long nsteps;
  long nchunks;                     /* of every stream (all hold the same steps) */
  int complete;
  char* reason;
  char** mkey;
  char** mval;
  int nmeta;
  char **skind, **sname, **stext;
  int nsrc;
  take_event* ev;
  int nev;
  long ticks;                       /* progress handler calls in the current statement */
  int live;                         /* a run was recording it when opened */
  /* one decoded chunk per stream, for sequential reads */
  long cached_chunk[TAKE_NSTREAM];
  long cached_step0[TAKE_NSTREAM], cached_n[TAKE_NSTREAM];
  double* cache[TAKE_NSTREAM];
  long version;                     /* format_version */
  int chan_stored;                  /* channel chunks in the file (formats 1-3; format 4 on request) */
  int ctx_from_chan[REC_NCTX];      /* formats 1-3: each context value's stored channel, -1 none */
  int* rate;                        /* format 5: meta state_rates, −1 for a value without (NULL: none) */
  char** sets;                      /* meta overrides, parsed: nset "key=value" strings */
  int nset;
  void* attached;                   /* take_attach: the layer above's state (replay's rebuilt machines) */
  void (*attached_free)(void*);
};

static char* col_text(sqlite3_stmt* st, int i) {
  const unsigned char* t = sqlite3_column_text(st, i);
  return mt_strdup(t ? (const char*)t : "");
}

void take_close(take_reader* r) {
  if (!r) return;
  sqlite3_close(r->db);
  for (int s = 0; s < TAKE_NSTREAM; s++) {
    for (int i = 0; i < r->ncols[s]; i++) {
      free(r->names[s][i]);
      free(r->units[s][i]);
    }
    free(r->names[s]);
    free(r->units[s]);
    free(r->cache[s]);
  }
  if (r->attached_free) r->attached_free(r->attached);
  for (int i = 0; i < r->schema.nbody; i++) {
    if (r->parents) free(r->parents[i]);
    if (r->schema.body_names) free((void*)r->schema.body_names[i]);
  }
  free(r->parents);
  free((void*)r->schema.body_names);
  for (int i = 0; i < r->nmeta; i++) {
    free(r->mkey[i]);
    free(r->mval[i]);
  }
  free(r->mkey);
  free(r->mval);
  for (int i = 0; i < r->nsrc; i++) {
    free(r->skind[i]);
    free(r->sname[i]);
    free(r->stext[i]);
  }
  free(r->skind);
  free(r->sname);
  free(r->stext);
  for (int i = 0; i < r->nev; i++) free(r->ev[i].json);
  free(r->ev);
  free(r->reason);
  free(r->rate);
  for (int i = 0; i < r->nset; i++) free(r->sets[i]);
  free(r->sets);
  free(r->path);
  free(r);
}

static int progress(void* arg) {
  take_reader* r = arg;
  return ++r->ticks > TAKE_MAX_TICKS;   /* non-zero interrupts the statement */
}

/* Prepare a statement with a fresh operation budget; errors name the take. */
static int q_prepare(take_reader* r, const char* sql, sqlite3_stmt** st, mt_err* e) {
  r->ticks = 0;
  if (sqlite3_prepare_v2(r->db, sql, -1, st, NULL) != SQLITE_OK) {
    *st = NULL;
    return mt_fail(e, MT_EINPUT, "%s: not a take (%s)", r->path, sqlite3_errmsg(r->db));
  }
  return MT_OK;
}

/* After a loop over sqlite3_step: rc is its last result. */
static int q_done(take_reader* r, int rc, const char* what, mt_err* e) {
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) return MT_OK;
  if (rc == SQLITE_INTERRUPT)
    return mt_fail(e, MT_EINPUT, "%s: reading %s took more than %d million SQLite operations: refused", r->path, what,
                   TAKE_MAX_TICKS * TAKE_OPS_PER_TICK / 1000000);
  if (rc == SQLITE_BUSY) return mt_fail(e, MT_EINPUT, "%s: reading %s: the take is locked by another program", r->path, what);
  return mt_fail(e, MT_EINPUT, "%s: reading %s: %s", r->path, what, sqlite3_errmsg(r->db));
}

/* A whole-string decimal integer within [lo, hi]. */
static int parse_long(const char* t, long lo, long hi, long* out) {
  if (!t || !*t) return -1;
  char* end;
  errno = 0;
  long v = strtol(t, &end, 10);
  if (*end || errno || v < lo || v > hi || !(*t >= '0' && *t <= '9') || (t[0] == '0' && t[1])) return -1;
  *out = v;
  return 0;
}

/* Stage 2, the schema: exactly the tables take_schema_sql creates, with the same text, and their automatic
 * indexes; no views, no triggers, no other tables (ANALYZE's sqlite_stat tables aside). */
static int check_schema(take_reader* r, mt_err* e) {
  static const char* const TABLES[] = {"meta", "sources", "columns", "chunks", "events", "status"};
  enum { NT = 6 };
  int seen[NT] = {0};
  sqlite3_stmt* st;
  if (q_prepare(r, "SELECT type, name, tbl_name, sql FROM sqlite_schema", &st, e)) return MT_EINPUT;
  int rc, bad = 0;
  while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char* type = (const char*)sqlite3_column_text(st, 0);
    const char* name = (const char*)sqlite3_column_text(st, 1);
    const char* tbl = (const char*)sqlite3_column_text(st, 2);
    const char* sql = (const char*)sqlite3_column_text(st, 3);
    if (!type || !name || !tbl) {
      bad = mt_fail(e, MT_EINPUT, "%s: not a take: damaged schema", r->path);
      break;
    }
    int k = -1;
    for (int i = 0; i < NT; i++)
      if (strcmp(tbl, TABLES[i]) == 0) k = i;
    if (!strcmp(type, "table") && k >= 0 && !strcmp(name, tbl)) {
      /* the statement as written by take_writer_open */
      char want[1024];
      const char* p = strstr(take_schema_sql, "CREATE TABLE ");
      want[0] = 0;
      while (p) {
        const char* q = strchr(p, ';');
        size_t n = (size_t)(q - p);
        size_t tl = strlen(tbl);
        if (!strncmp(p + 13, tbl, tl) && p[13 + tl] == '(' && n < sizeof want) {
          memcpy(want, p, n);
          want[n] = 0;
          break;
        }
        p = strstr(q, "CREATE TABLE ");
      }
      if (!sql || strcmp(sql, want) != 0)
        bad = mt_fail(e, MT_EINPUT, "%s: not a take: table '%s' differs from the documented schema", r->path, tbl);
      else
        seen[k]++;
    } else if (!strcmp(type, "index") && k >= 0 && !sql && !strncmp(name, "sqlite_autoindex_", 17)) {
      /* the primary keys of meta, columns and chunks */
    } else if (!strcmp(type, "table") && !strncmp(name, "sqlite_stat", 11)) {
    } else {
      bad = mt_fail(e, MT_EINPUT, "%s: not a take: unexpected %s '%s' in the schema", r->path, type, name);
    }
  }
  if (!bad) bad = q_done(r, rc, "the schema", e);
  sqlite3_finalize(st);
  if (bad) return MT_EINPUT;
  for (int i = 0; i < NT; i++)
    if (seen[i] != 1) return mt_fail(e, MT_EINPUT, "%s: not a take: no table '%s'", r->path, TABLES[i]);
  return MT_OK;
}

/* The codecs a stream's chunks may have: 0, the stream's of format 1 or of formats 2 on, and for
 * the state of a take with state_rates (format 5) codec 6. */
static int codec_ok(const take_reader* r, int s, long codec) {
  return codec == 0 || codec == take_stream_codec[s] || codec == take_format1_codec[s] || (codec == 6 && s == TAKE_STATE && r->rate);
}

/* Stage 9, the chunk index of every stream, without the data: contiguous, consistent, all streams alike. */
static int check_chunks(take_reader* r, mt_err* e) {
  long total[TAKE_NSTREAM] = {0}, count[TAKE_NSTREAM] = {0};
  int last_full[TAKE_NSTREAM];
  for (int s = 0; s < TAKE_NSTREAM; s++) last_full[s] = 1;
  sqlite3_stmt* st;
  if (q_prepare(r, "SELECT stream, chunk, step0, nsteps, ncols, codec, raw_bytes, typeof(data), length(data) FROM chunks "
                   "ORDER BY stream, chunk", &st, e))
    return MT_EINPUT;
  int rc, bad = 0;
  while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char* sn = (const char*)sqlite3_column_text(st, 0);
    int s = -1;
    for (int k = 0; k < TAKE_NSTREAM && sn; k++)
      if (!strcmp(sn, take_stream_name[k])) s = k;
    if (s < 0) {
      bad = mt_fail(e, MT_EINPUT, "%s: chunks: unknown stream '%.40s'", r->path, sn ? sn : "");
      break;
    }
    if (s == TAKE_POSE && r->version >= 3) {
      bad = mt_fail(e, MT_EINPUT, "%s: stream 'pose': a take of format %ld stores no pose chunks (they are rebuilt from the state)",
                    r->path, r->version);
      break;
    }
    if (s == TAKE_CTX && r->version < 4) {
      bad = mt_fail(e, MT_EINPUT, "%s: stream 'ctx': a take of format %ld has no context stream (its channels hold it)", r->path,
                    r->version);
      break;
    }
    for (int c = 1; c <= 6; c++)
      if (sqlite3_column_type(st, c) != SQLITE_INTEGER) {
        bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld: %s is not an integer", r->path, sn, count[s],
                      sqlite3_column_name(st, c));
        break;
      }
    if (bad) break;
    long chunk = sqlite3_column_int64(st, 1), step0 = sqlite3_column_int64(st, 2), n = sqlite3_column_int64(st, 3);
    long nc = sqlite3_column_int64(st, 4), codec = sqlite3_column_int64(st, 5), raw = sqlite3_column_int64(st, 6);
    const char* ty = (const char*)sqlite3_column_text(st, 7);
    if (chunk != count[s])
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld is missing (the next is %ld)", r->path, sn, count[s], chunk);
    else if (!last_full[s])
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld follows a short chunk", r->path, sn, chunk);
    else if (step0 != chunk * TAKE_CHUNK_STEPS)
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld starts at step %ld, not %ld", r->path, sn, chunk, step0,
                    chunk * TAKE_CHUNK_STEPS);
    else if (n < 1 || n > TAKE_CHUNK_STEPS)
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld has %ld steps (1..%d)", r->path, sn, chunk, n, TAKE_CHUNK_STEPS);
    else if (nc != r->ncols[s])
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld has %ld columns, the schema says %d", r->path, sn, chunk, nc,
                    r->ncols[s]);
    else if (!codec_ok(r, s, codec))
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld has codec %ld (this stream uses 0, %d or %d%s)", r->path, sn,
                    chunk, codec, take_format1_codec[s], take_stream_codec[s], s == TAKE_STATE && r->rate ? ", or 6 with its state_rates" : "");
    else if (raw != (long)take_codec_width((int)codec) * nc * n)
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld: raw_bytes %ld, its header means %ld", r->path, sn, chunk, raw,
                    (long)take_codec_width((int)codec) * nc * n);
    else if (!ty || strcmp(ty, "blob") != 0)
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld: data is not a blob", r->path, sn, chunk);
    if (bad) break;
    last_full[s] = n == TAKE_CHUNK_STEPS;
    total[s] += n;
    count[s]++;
  }
  if (!bad) bad = q_done(r, rc, "the chunk index", e);
  sqlite3_finalize(st);
  if (bad) return MT_EINPUT;
  if (r->version >= 3) total[TAKE_POSE] = total[TAKE_STATE];   /* a function of the state stream */
  if (r->version < 4) total[TAKE_CTX] = total[TAKE_STATE];     /* in the stored channels */
  r->chan_stored = r->version < 4 || count[TAKE_CHAN] > 0;
  if (!r->chan_stored) total[TAKE_CHAN] = total[TAKE_STATE];   /* rebuilt from state, inputs and context */
  for (int s = 1; s < TAKE_NSTREAM; s++)
    if (total[s] != total[0])
      return mt_fail(e, MT_EINPUT, "%s: stream '%s' holds %ld steps, stream 'state' %ld", r->path, take_stream_name[s], total[s],
                     total[0]);
  r->nsteps = total[0];
  r->nchunks = count[0];
  return MT_OK;
}

/* Format 5's meta state_rates, "i:j,i:j,…" (decimal, no spaces): state value i is stored as its
 * residual from x_i + timestep·x_j (codec 6). Each i once, i ≠ j, both state values, and no j
 * rated itself (every rate is a stored value, so one pass undoes the chunk). Absent: none. */
static int parse_rates(take_reader* r, mt_err* e) {
  const char* v = take_meta(r, "state_rates");
  if (!v) return MT_OK;
  int n = r->ncols[TAKE_STATE];
  if (r->version < 5)
    return mt_fail(e, MT_EINPUT, "%s: meta state_rates: a take of format %ld has none", r->path, r->version);
  r->rate = mt_alloc(sizeof(int) * (size_t)(n + 1));
  for (int i = 0; i < n; i++) r->rate[i] = -1;
  const char* p = v;
  for (;;) {
    long ij[2];
    for (int k = 0; k < 2; k++) {
      const char* q = p;
      long x = 0;
      while (*q >= '0' && *q <= '9' && q - p < 6) x = 10 * x + (*q++ - '0');
      if (q == p || (*q >= '0' && *q <= '9') || x >= n || (k == 0 && *q != ':'))
        return mt_fail(e, MT_EINPUT, "%s: meta state_rates: '%.40s' at character %ld is not i:j with i and j below %d (the state's values)",
                       r->path, v, (long)(p - v) + 1, n);
      ij[k] = x;
      p = k == 0 ? q + 1 : q;
    }
    if (ij[0] == ij[1] || r->rate[ij[0]] >= 0)
      return mt_fail(e, MT_EINPUT, "%s: meta state_rates: value %ld is given %s", r->path, ij[0],
                     ij[0] == ij[1] ? "itself as its rate" : "two rates");
    r->rate[ij[0]] = (int)ij[1];
    if (*p == 0) break;
    if (*p++ != ',')
      return mt_fail(e, MT_EINPUT, "%s: meta state_rates: '%.40s' at character %ld: expected ',' between pairs", r->path, v,
                     (long)(p - v));
  }
  for (int i = 0; i < n; i++)
    if (r->rate[i] >= 0 && r->rate[r->rate[i]] >= 0)
      return mt_fail(e, MT_EINPUT, "%s: meta state_rates: value %d's rate, value %d, has a rate itself", r->path, i, r->rate[i]);
  r->schema.state_rate = r->rate;
  return MT_OK;
}

/* meta timestep: a number a rig may have as its step (sim/rig.h RIG_TIMESTEP_MIN..MAX), since a
 * take is replayed, its poses and channels rebuilt and its rated state values decoded with exactly
 * this step; anything else (1e-300 was read by every command but verify, and overflowed the
 * chase view's sample index, render/chase.c build_samples) is refused here. That it is the take's own rig's step is checked once the sources are
 * read (check_rig_step). */
static int parse_timestep(take_reader* r, mt_err* e) {
  const char* ts = take_meta(r, "timestep");
  char* end = NULL;
  double dt = ts ? strtod(ts, &end) : NAN;
  if (!ts || end == ts || *end || !isfinite(dt) || !(dt >= RIG_TIMESTEP_MIN && dt <= RIG_TIMESTEP_MAX))
    return mt_fail(e, MT_EINPUT, "%s: meta timestep '%.40s' is not a time step a rig can have (%g to %g s)", r->path,
                   ts ? ts : "(absent)", RIG_TIMESTEP_MIN, RIG_TIMESTEP_MAX);
  r->schema.timestep = dt;
  return MT_OK;
}

/* meta overrides: the rig's --set overrides as the run applied them, a JSON list of "key=value"
 * strings (absent: none, as "[]"). Parsed here once, by jansson, for every reader that rebuilds
 * the machine (replay_rig); a value that is not such a list is refused, never read as no
 * overrides. */
static int parse_overrides(take_reader* r, mt_err* e) {
  const char* v = take_meta(r, "overrides");
  if (!v) return MT_OK;
  json_error_t je;
  json_t* a = json_loads(v, JSON_REJECT_DUPLICATES, &je);
  size_t n = json_is_array(a) ? json_array_size(a) : 0;
  int bad = !json_is_array(a);
  for (size_t i = 0; i < n && !bad; i++) {
    const char* kv = json_string_value(json_array_get(a, i));
    bad = !kv || !strchr(kv, '=') || kv[0] == '=' || strlen(kv) != json_string_length(json_array_get(a, i));
  }
  if (bad) {
    json_decref(a);
    return mt_fail(e, MT_EINPUT, "%s: meta overrides '%.60s' is not a JSON list of \"key=value\" strings", r->path, v);
  }
  r->sets = mt_alloc(sizeof(char*) * (n + 1));
  for (size_t i = 0; i < n; i++) r->sets[r->nset++] = mt_strdup(json_string_value(json_array_get(a, i)));
  json_decref(a);
  return MT_OK;
}

static take_reader* open_fail(take_reader* r) {
  take_close(r);
  return NULL;
}

/* Stage 1, the file: an SQLite database (its 16-byte magic, read before SQLite sees it), its
 * journal brought to rest (take_journal_recover), opened read-write when allowed (so SQLite can
 * roll back the take's own hot journal) else read-only, with the defensive settings and the
 * operation budget. NULL with e set when it is not. */
static take_reader* open_file(const char* path, mt_err* e) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    mt_fail(e, MT_EINPUT, "%s: cannot open", path);
    return NULL;
  }
  outfile_note_input(path);   /* an input is never an output (base/outfile.h) */
  char magic[16] = {0};
  size_t got = fread(magic, 1, 16, f);
  fclose(f);
  if (got < 16 || memcmp(magic, "SQLite format 3", 16) != 0) {
    mt_fail(e, MT_EINPUT, "%s: not a take (not an SQLite database)", path);
    return NULL;
  }
  /* SQLite's own allocations, process-wide: a hostile file must not exhaust the machine */
  if (sqlite3_hard_heap_limit64(-1) == 0) sqlite3_hard_heap_limit64(TAKE_HEAP_LIMIT);
  take_reader* r = mt_alloc(sizeof *r);
  r->path = mt_strdup(path);
  for (int s = 0; s < TAKE_NSTREAM; s++) r->cached_chunk[s] = -1;
  /* a run still recording it holds an flock (take_writer_open); probe before SQLite has a lock
   * of ours on the file: closing a descriptor drops the process's fcntl locks on it */
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    if (flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) r->live = 1;
    close(fd);
  }
  /* Read-write when allowed: a take left by a killed run has a hot journal, which SQLite must
   * roll back before anyone can read it — when it is provably the take's own (takejournal.h).
   * We never write to it. A take being recorded is not judged: its writer's journal is in flux,
   * and SQLite never treats it as hot while the writer holds its lock. */
  if (!r->live && take_journal_recover(path, e)) return open_fail(r);
  if (sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
    sqlite3_close(r->db);
    r->db = NULL;
    if (sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
      mt_fail(e, MT_EINPUT, "%s: cannot open the take: %s", path, r->db ? sqlite3_errmsg(r->db) : "out of memory");
      return open_fail(r);
    }
  }
  take_harden(r->db);
  sqlite3_progress_handler(r->db, TAKE_OPS_PER_TICK, progress, r);
  return r;
}

/* Stage 3, the metadata rows, at most TAKE_MAX_ROWS of them. */
static int read_meta(take_reader* r, mt_err* e) {
  sqlite3_stmt* st;
  int rc;
  if (q_prepare(r, "SELECT key, value FROM meta", &st, e)) return MT_EINPUT;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW && r->nmeta < TAKE_MAX_ROWS) {
    r->mkey = mt_realloc(r->mkey, sizeof(char*) * (r->nmeta + 1));
    r->mval = mt_realloc(r->mval, sizeof(char*) * (r->nmeta + 1));
    r->mkey[r->nmeta] = col_text(st, 0);
    r->mval[r->nmeta] = col_text(st, 1);
    r->nmeta++;
  }
  sqlite3_finalize(st);
  if (r->nmeta >= TAKE_MAX_ROWS) return mt_fail(e, MT_EINPUT, "%s: meta: more than %d rows", r->path, TAKE_MAX_ROWS);
  return q_done(r, rc, "the metadata", e);
}

/* Stage 4, the format: mototake's, of a version this build reads, the same in meta and in
 * SQLite's user_version; and the chunk size this build reads. */
static int check_format(take_reader* r, mt_err* e) {
  const char* fmt = take_meta(r, "format");
  const char* ver = take_meta(r, "format_version");
  if (!fmt || strcmp(fmt, "mototake take") != 0 || !ver)
    return mt_fail(e, MT_EINPUT, "%s: not a take (an SQLite database without mototake's metadata)", r->path);
  long version, lv;
  if (parse_long(ver, 1, 1000000, &version))
    return mt_fail(e, MT_EINPUT, "%s: meta format_version '%.40s' is not a format version (a small positive integer)", r->path, ver);
  if (version > TAKE_FORMAT_VERSION)
    return mt_fail(e, MT_EINPUT, "%s: written by a newer mototake (format %ld); this one reads format %d", r->path, version,
                   TAKE_FORMAT_VERSION);
  sqlite3_stmt* st;
  if (q_prepare(r, "PRAGMA user_version", &st, e)) return MT_EINPUT;
  int rc = sqlite3_step(st);
  long uv = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_finalize(st);
  if (uv != version)
    return mt_fail(e, MT_EINPUT, "%s: PRAGMA user_version %ld disagrees with meta format_version %ld", r->path, uv, version);
  r->version = version;
  if (parse_timestep(r, e) || parse_overrides(r, e)) return MT_EINPUT;
  if (parse_long(take_meta(r, "chunk_steps"), TAKE_CHUNK_STEPS, TAKE_CHUNK_STEPS, &lv))
    return mt_fail(e, MT_EINPUT, "%s: meta chunk_steps '%.40s' is not %d", r->path,
                   take_meta(r, "chunk_steps") ? take_meta(r, "chunk_steps") : "(absent)", TAKE_CHUNK_STEPS);
  return MT_OK;
}

/* Stage 5, the columns of one stream: numbered 0…n−1, at most TAKE_MAX_COLS. */
static int read_columns(take_reader* r, int s, mt_err* e) {
  sqlite3_stmt* st;
  int rc, bad = 0;
  if (q_prepare(r, "SELECT idx, name, units, typeof(idx) FROM columns WHERE stream = ? ORDER BY idx", &st, e)) return MT_EINPUT;
  sqlite3_bind_text(st, 1, take_stream_name[s], -1, SQLITE_STATIC);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int n = r->ncols[s];
    const char* ty = (const char*)sqlite3_column_text(st, 3);
    if (!ty || strcmp(ty, "integer") || sqlite3_column_int64(st, 0) != n) {
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': column %d is numbered '%.20s'", r->path, take_stream_name[s], n,
                    sqlite3_column_text(st, 0) ? (const char*)sqlite3_column_text(st, 0) : "NULL");
      break;
    }
    if (n >= TAKE_MAX_COLS) {
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': more than %d columns", r->path, take_stream_name[s], TAKE_MAX_COLS);
      break;
    }
    r->names[s] = mt_realloc(r->names[s], sizeof(char*) * (n + 1));
    r->units[s] = mt_realloc(r->units[s], sizeof(char*) * (n + 1));
    r->names[s][n] = col_text(st, 1);
    r->units[s][n] = col_text(st, 2);
    r->ncols[s]++;
  }
  sqlite3_finalize(st);
  return bad || q_done(r, rc, "the columns", e) ? MT_EINPUT : MT_OK;
}

/* Stage 6, the columns against the metadata: meta nstate is the state's column count, the rate
 * table fits the state, the poses come in sevens. */
static int check_columns(take_reader* r, mt_err* e) {
  long lv;
  if (parse_long(take_meta(r, "nstate"), 0, TAKE_MAX_COLS, &lv) || lv != r->ncols[TAKE_STATE])
    return mt_fail(e, MT_EINPUT, "%s: meta nstate '%.40s' disagrees with the %d state columns", r->path,
                   take_meta(r, "nstate") ? take_meta(r, "nstate") : "(absent)", r->ncols[TAKE_STATE]);
  if (parse_rates(r, e)) return MT_EINPUT;
  if (r->ncols[TAKE_POSE] % 7)
    return mt_fail(e, MT_EINPUT, "%s: stream 'pose': %d columns, not seven per body", r->path, r->ncols[TAKE_POSE]);
  return MT_OK;
}

/* Stage 7, the context stream: from format 4 exactly the recorder's context channels, in order;
 * before it none (take_read_stored takes them from the stored channels, by name, and they are
 * named here as format 4 names them). */
static int check_context(take_reader* r, mt_err* e) {
  if (r->version < 4 && r->ncols[TAKE_CTX])
    return mt_fail(e, MT_EINPUT, "%s: stream 'ctx': a take of format %ld has no context stream (its channels hold it)", r->path,
                   r->version);
  if (r->version >= 4 && r->ncols[TAKE_CTX] != REC_NCTX)
    return mt_fail(e, MT_EINPUT, "%s: stream 'ctx': %d columns, the context has %d", r->path, r->ncols[TAKE_CTX], REC_NCTX);
  for (int k = 0; k < REC_NCTX; k++) {
    const rec_channel* rc0 = &rec_channels()[rec_ctx_channel(k)];
    if (r->version >= 4 && strcmp(r->names[TAKE_CTX][k], rc0->name))
      return mt_fail(e, MT_EINPUT, "%s: stream 'ctx': column %d is '%.60s', not '%s'", r->path, k, r->names[TAKE_CTX][k],
                     rc0->name);
    r->ctx_from_chan[k] = -1;
    for (int j = 0; j < r->ncols[TAKE_CHAN]; j++)
      if (!strcmp(r->names[TAKE_CHAN][j], rc0->name)) r->ctx_from_chan[k] = j;
  }
  if (r->version < 4) {   /* named as format 4 names them, read from the channels */
    r->names[TAKE_CTX] = mt_alloc(sizeof(char*) * REC_NCTX);
    r->units[TAKE_CTX] = mt_alloc(sizeof(char*) * REC_NCTX);
    for (int k = 0; k < REC_NCTX; k++) {
      r->names[TAKE_CTX][k] = mt_strdup(rec_channels()[rec_ctx_channel(k)].name);
      r->units[TAKE_CTX][k] = mt_strdup(rec_channels()[rec_ctx_channel(k)].units);
    }
    r->ncols[TAKE_CTX] = REC_NCTX;
  }
  return MT_OK;
}

/* Stage 8, the schema callers see: the columns' counts and names, and the bodies, each named by
 * its seven pose columns "<body>.x" … "<body>.qz" (checked) with its parent from meta. */
static int build_schema(take_reader* r, mt_err* e) {
  r->schema.nstate = r->ncols[TAKE_STATE];
  r->schema.ninput = r->ncols[TAKE_INPUT];
  r->schema.input_names = (const char**)r->names[TAKE_INPUT];
  r->schema.input_units = (const char**)r->units[TAKE_INPUT];
  r->schema.nchan = r->ncols[TAKE_CHAN];
  r->schema.chan_names = (const char**)r->names[TAKE_CHAN];
  r->schema.chan_units = (const char**)r->units[TAKE_CHAN];
  r->schema.nbody = r->ncols[TAKE_POSE] / 7;
  r->schema.body_names = mt_alloc(sizeof(char*) * (r->schema.nbody + 1));
  r->parents = mt_alloc(sizeof(char*) * (r->schema.nbody + 1));
  for (int b = 0; b < r->schema.nbody; b++) {
    /* the pose columns of body b are "<body>.x", ".y", ".z", ".qw", ".qx", ".qy", ".qz" */
    const char* nm = r->names[TAKE_POSE][7 * b];
    const char* dot = strrchr(nm, '.');
    size_t n = dot ? (size_t)(dot - nm) : strlen(nm);
    char* bn = mt_alloc(n + 1);
    memcpy(bn, nm, n);
    ((char**)r->schema.body_names)[b] = bn;
    char key[300];
    snprintf(key, sizeof key, "parent.%.250s", bn);
    r->parents[b] = mt_strdup(take_meta(r, key) ? take_meta(r, key) : "");
  }
  for (int b = 0; b < r->schema.nbody; b++)
    for (int k = 0; k < 7; k++) {
      const char* nm = r->names[TAKE_POSE][7 * b + k];
      size_t n = strlen(r->schema.body_names[b]);
      if (n == 0 || n > 250 || strncmp(nm, r->schema.body_names[b], n) || nm[n] != '.' || strcmp(nm + n + 1, take_pose_parts[k]))
        return mt_fail(e, MT_EINPUT, "%s: stream 'pose': column %d is '%.60s', not '%.60s.%s'", r->path, 7 * b + k, nm,
                       r->schema.body_names[b], take_pose_parts[k]);
    }
  r->schema.body_parents = (const char**)r->parents;
  return MT_OK;
}

/* Stage 10, the status row against the chunk index: complete 0 or 1, nsteps ≥ 0, and a complete
 * take holds exactly the steps its status names (a killed run may have committed chunks past
 * its last status update: then the chunks count). No row: incomplete, "no status". */
static int read_status(take_reader* r, mt_err* e) {
  sqlite3_stmt* st;
  if (q_prepare(r, "SELECT complete, reason, nsteps, typeof(complete), typeof(nsteps) FROM status WHERE id = 1", &st, e))
    return MT_EINPUT;
  int rc = sqlite3_step(st), bad = 0;
  if (rc == SQLITE_ROW) {
    const char *tc = (const char*)sqlite3_column_text(st, 3), *tn = (const char*)sqlite3_column_text(st, 4);
    long c = sqlite3_column_int64(st, 0), n = sqlite3_column_int64(st, 2);
    r->reason = col_text(st, 1);
    if (!tc || !tn || strcmp(tc, "integer") || strcmp(tn, "integer") || (c != 0 && c != 1) || n < 0)
      bad = mt_fail(e, MT_EINPUT, "%s: status: complete %.20s, nsteps %.20s: not a status", r->path,
                    sqlite3_column_text(st, 0) ? (const char*)sqlite3_column_text(st, 0) : "NULL",
                    sqlite3_column_text(st, 2) ? (const char*)sqlite3_column_text(st, 2) : "NULL");
    else if ((r->complete = (int)c) && n != r->nsteps)
      bad = mt_fail(e, MT_EINPUT, "%s: status: nsteps %ld, the chunks hold %ld steps", r->path, n, r->nsteps);
  } else if (rc == SQLITE_DONE) {
    r->reason = mt_strdup("no status");
  } else {
    bad = q_done(r, rc, "the status", e);
  }
  sqlite3_finalize(st);
  return bad ? MT_EINPUT : MT_OK;
}

/* Stage 11, the embedded sources, each of a known kind. */
static int read_sources(take_reader* r, mt_err* e) {
  sqlite3_stmt* st;
  int rc;
  if (q_prepare(r, "SELECT kind, name, text FROM sources ORDER BY id", &st, e)) return MT_EINPUT;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW && r->nsrc < TAKE_MAX_ROWS) {
    r->skind = mt_realloc(r->skind, sizeof(char*) * (r->nsrc + 1));
    r->sname = mt_realloc(r->sname, sizeof(char*) * (r->nsrc + 1));
    r->stext = mt_realloc(r->stext, sizeof(char*) * (r->nsrc + 1));
    r->skind[r->nsrc] = col_text(st, 0);
    r->sname[r->nsrc] = col_text(st, 1);
    r->stext[r->nsrc] = col_text(st, 2);
    r->nsrc++;
  }
  sqlite3_finalize(st);
  if (q_done(r, rc, "the sources", e)) return MT_EINPUT;
  for (int i = 0; i < r->nsrc; i++) {
    const char* k = r->skind[i];
    if (strcmp(k, "script") && strcmp(k, "rig") && strcmp(k, "module") && strcmp(k, "track") && strcmp(k, "ride"))
      return mt_fail(e, MT_EINPUT, "%s: source %d: kind '%.40s' is not script, ride, rig, module or track", r->path, i + 1, k);
  }
  return MT_OK;
}

/* Stage 12, the events, each at a step inside the take; an incomplete take drops the events past
 * its last step (a killed run commits an event before the chunk that holds its step). */
static int read_events(take_reader* r, mt_err* e) {
  sqlite3_stmt* st;
  int rc, bad = 0;
  if (q_prepare(r, "SELECT step, kind, json, typeof(step) FROM events ORDER BY id", &st, e)) return MT_EINPUT;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW && r->nev < TAKE_MAX_ROWS) {
    r->ev = mt_realloc(r->ev, sizeof(take_event) * (r->nev + 1));
    take_event* ev = &r->ev[r->nev++];
    memset(ev, 0, sizeof *ev);
    ev->step = sqlite3_column_int64(st, 0);
    snprintf(ev->kind, sizeof ev->kind, "%s", sqlite3_column_text(st, 1) ? (const char*)sqlite3_column_text(st, 1) : "");
    ev->json = col_text(st, 2);
    const char* ty = (const char*)sqlite3_column_text(st, 3);
    if (ty && !strcmp(ty, "integer") && ev->step > r->nsteps && !r->complete) {
      free(ev->json);
      r->nev--;
      continue;
    }
    if (!ty || strcmp(ty, "integer") || ev->step < 0 || ev->step > r->nsteps) {
      bad = mt_fail(e, MT_EINPUT, "%s: event %d: step %ld is outside the take (0..%ld)", r->path, r->nev, ev->step, r->nsteps);
      break;
    }
  }
  sqlite3_finalize(st);
  return bad || q_done(r, rc, "the events", e) ? MT_EINPUT : MT_OK;
}

/* The stages in order, each relying on the ones before: nothing is sized from a count before it
 * was checked against the others. */
take_reader* take_reader_open(const char* path, mt_err* e) {
  take_reader* r = open_file(path, e);
  if (!r) return NULL;
  if (check_schema(r, e) || read_meta(r, e) || check_format(r, e)) return open_fail(r);
  for (int s = 0; s < TAKE_NSTREAM; s++)
    if (read_columns(r, s, e)) return open_fail(r);
  if (check_columns(r, e) || check_context(r, e) || build_schema(r, e)) return open_fail(r);
  /* the chunk index, then the status row against it, then the records */
  if (check_chunks(r, e) || read_status(r, e) || read_sources(r, e) || read_events(r, e)) return open_fail(r);
  return r;
}

const take_schema* take_schema_of(const take_reader* r) { return &r->schema; }
long take_nsteps(const take_reader* r) { return r->nsteps; }
int take_complete(const take_reader* r, const char** reason) {
  if (reason) *reason = r->reason;
  return r->complete;
}
const char* take_meta(const take_reader* r, const char* key) {
  for (int i = 0; i < r->nmeta; i++)
    if (strcmp(r->mkey[i], key) == 0) return r->mval[i];
  return NULL;
}
const char* take_path(const take_reader* r) { return r->path; }
void take_attach(take_reader* r, void* p, void (*free_fn)(void*)) {
  if (r->attached_free) r->attached_free(r->attached);
  r->attached = p;
  r->attached_free = free_fn;
}
void* take_attached(const take_reader* r) { return r->attached; }
int take_nmeta(const take_reader* r) { return r->nmeta; }
void take_meta_at(const take_reader* r, int i, const char** key, const char** value) {
  *key = r->mkey[i];
  *value = r->mval[i];
}
int take_nsources(const take_reader* r) { return r->nsrc; }
void take_source_at(const take_reader* r, int i, const char** kind, const char** name, const char** text) {
  *kind = r->skind[i];
  *name = r->sname[i];
  *text = r->stext[i];
}
const char* take_overrides(const take_reader* r) { return take_meta(r, "overrides"); }
int take_override_sets(const take_reader* r, const char* const** sets) {
  *sets = (const char* const*)r->sets;
  return r->nset;
}
int take_nevents(const take_reader* r) { return r->nev; }
const take_event* take_event_at(const take_reader* r, int i) { return &r->ev[i]; }
int take_ncols(const take_reader* r, int stream) { return r->ncols[stream]; }
int take_stored(const take_reader* r, int s) {
  if (s == TAKE_POSE) return r->version < 3;
  if (s == TAKE_CHAN) return r->chan_stored;
  if (s == TAKE_CTX) return r->version >= 4;
  return s >= 0 && s < TAKE_NSTREAM;
}
long take_nchunks(const take_reader* r) { return r->nchunks; }
int take_live(const take_reader* r) { return r->live; }

/* Load chunk `chunk` of stream s into the cache; its header was checked by take_reader_open, and is
 * checked again here (the file may have changed since). */
static int load_chunk(take_reader* r, int s, long chunk, mt_err* e) {
  if (r->cached_chunk[s] == chunk) return MT_OK;
  const char* sn = take_stream_name[s];
  if (chunk < 0 || chunk >= r->nchunks)
    return mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld is outside the take (%ld chunks)", r->path, sn, chunk, r->nchunks);
  sqlite3_stmt* st;
  if (q_prepare(r, "SELECT step0, nsteps, ncols, codec, raw_bytes, crc32, data FROM chunks WHERE stream = ? AND chunk = ?", &st, e))
    return MT_EINPUT;
  sqlite3_bind_text(st, 1, sn, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, chunk);
  int rc = sqlite3_step(st);
  if (rc != SQLITE_ROW) {
    if (rc == SQLITE_DONE) mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld is missing", r->path, sn, chunk);
    else q_done(r, rc, "a chunk", e);
    sqlite3_finalize(st);
    return MT_EINPUT;
  }
  long step0 = sqlite3_column_int64(st, 0), n = sqlite3_column_int64(st, 1);
  long nc = sqlite3_column_int64(st, 2), codec = sqlite3_column_int64(st, 3);
  long raw = sqlite3_column_int64(st, 4);
  sqlite3_int64 crc_stored = sqlite3_column_int64(st, 5);
  const void* blob = sqlite3_column_blob(st, 6);
  int len = sqlite3_column_bytes(st, 6);
  long want_n = chunk + 1 < r->nchunks ? TAKE_CHUNK_STEPS : r->nsteps - chunk * TAKE_CHUNK_STEPS;
  if (step0 != chunk * TAKE_CHUNK_STEPS || n != want_n || nc != r->ncols[s] || !codec_ok(r, s, codec) ||
      raw != (long)take_codec_width((int)codec) * nc * n || crc_stored < 0 || crc_stored > 0xffffffffLL) {
    sqlite3_finalize(st);
    return mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld: inconsistent header", r->path, sn, chunk);
  }
  uLong crc_want = (uLong)crc_stored;
  /* format 4: the CRC is of the blob as stored, checked before it reaches the decompressor;
   * formats 1-3: of the raw values, checked after decoding */
  if (r->version >= 4 && blob) {
    uLong cb = crc32(0L, blob, (uInt)len);
    if (cb != crc_want) {
      sqlite3_finalize(st);
      return mt_fail(e, MT_EINPUT, "%s: chunk %ld of stream %s: checksum mismatch (crc 0x%08lx != 0x%08lx)", r->path, chunk, sn,
                     cb, crc_want);
    }
  }
  double* col = mt_alloc(sizeof(double) * (size_t)(nc * n) + 8);
  uLong crc;
  if (!blob || take_decode(blob, (size_t)len, (int)codec, (int)nc, n, col, &crc) != 0) {
    free(col);
    sqlite3_finalize(st);
    return mt_fail(e, MT_EINPUT, "%s: chunk %ld of stream %s: cannot be decompressed (damaged)", r->path, chunk, sn);
  }
  sqlite3_finalize(st);
  if (codec == 6) take_rate_undo(r->rate, r->schema.timestep, (int)nc, n, col);
  if (r->version < 4 && crc != crc_want) {
    free(col);
    return mt_fail(e, MT_EINPUT, "%s: chunk %ld of stream %s: checksum mismatch (crc 0x%08lx != 0x%08lx)", r->path, chunk, sn,
                   crc, crc_want);
  }
  free(r->cache[s]);
  r->cache[s] = col;
  r->cached_chunk[s] = chunk;
  r->cached_step0[s] = step0;
  r->cached_n[s] = n;
  return MT_OK;
}

/* Formats 1-3: the context row from the stored channels (a channel the take lacks reads 0). */
static int read_ctx_from_chans(take_reader* r, long step0, long n, double* out, mt_err* e) {
  int nc = r->ncols[TAKE_CHAN];
  double* row = mt_alloc(sizeof(double) * (nc + 1));
  int rc = MT_OK;
  for (long i = 0; i < n && !rc; i++) {
    rc = take_read_stored(r, TAKE_CHAN, step0 + i, 1, row, e);
    for (int k = 0; k < REC_NCTX && !rc; k++) out[i * REC_NCTX + k] = r->ctx_from_chan[k] >= 0 ? row[r->ctx_from_chan[k]] : 0;
  }
  free(row);
  return rc;
}

int take_steps_ok(const take_reader* r, long step0, long n, mt_err* e) {
  if (step0 < 0 || n < 0 || step0 > r->nsteps || n > r->nsteps - step0)
    return mt_fail(e, MT_EINPUT, "%s: steps %ld..%ld are outside the take (0..%ld)", r->path, step0, step0 + n, r->nsteps);
  return MT_OK;
}

int take_read_stored(take_reader* r, int s, long step0, long n, double* out, mt_err* e) {
  if (s < 0 || s >= TAKE_NSTREAM) return mt_fail(e, MT_EINTERNAL, "take_read: no stream %d", s);
  if (take_steps_ok(r, step0, n, e)) return MT_EINPUT;
  if ((s == TAKE_POSE || s == TAKE_CHAN) && !take_stored(r, s))   /* never a simulator here: replay rebuilds them */
    return mt_fail(e, MT_EINTERNAL, "take_read_stored: stream '%s' of %s is not stored (take_read rebuilds it, takes/take_replay.h)",
                   take_stream_name[s], r->path);
  if (s == TAKE_CTX && r->version < 4) return read_ctx_from_chans(r, step0, n, out, e);
  int nc = r->ncols[s];
  long i = 0;
  while (i < n) {
    long step = step0 + i, chunk = step / TAKE_CHUNK_STEPS;
    if (load_chunk(r, s, chunk, e)) return MT_EINPUT;
    long off = step - r->cached_step0[s], cn = r->cached_n[s];
    if (off < 0 || off >= cn) return mt_fail(e, MT_EINPUT, "%s: chunk %ld of stream %s: wrong steps", r->path, chunk, take_stream_name[s]);
    long take = cn - off < n - i ? cn - off : n - i;
    for (long k = 0; k < take; k++)
      for (int j = 0; j < nc; j++) out[(i + k) * nc + j] = r->cache[s][(size_t)j * cn + off + k];
    i += take;
  }
  return MT_OK;
}

int take_check_all(take_reader* r, mt_err* e) {
  for (int s = 0; s < TAKE_NSTREAM; s++)
    for (long c = 0; c < r->nchunks && take_stored(r, s); c++)
      if (load_chunk(r, s, c, e)) return MT_EINPUT;
  sqlite3_stmt* st;
  if (q_prepare(r, "PRAGMA quick_check", &st, e)) return MT_EINPUT;
  int rc = sqlite3_step(st);
  const char* res = rc == SQLITE_ROW ? (const char*)sqlite3_column_text(st, 0) : NULL;
  int bad = 0;
  if (rc != SQLITE_ROW) bad = q_done(r, rc, "PRAGMA quick_check", e);
  else if (!res || strcmp(res, "ok")) bad = mt_fail(e, MT_EINPUT, "%s: PRAGMA quick_check: %.200s", r->path, res ? res : "NULL");
  sqlite3_finalize(st);
  return bad ? MT_EINPUT : MT_OK;
}

/*---- the content key (take_reader.h take_content_key) ----*/

/* Every value goes in with its length first, so no two different record lists feed the same
 * bytes ("ab" + "c" and "a" + "bc" differ). */
static void key_bytes(struct AVSHA* h, const void* p, size_t n) {
  uint64_t len = n;
  av_sha_update(h, (const uint8_t*)&len, sizeof len);
  if (n) av_sha_update(h, p, n);
}
static void key_str(struct AVSHA* h, const char* s) { key_bytes(h, s ? s : "", s ? strlen(s) : 0); }
static void key_i64(struct AVSHA* h, int64_t v) { key_bytes(h, &v, sizeof v); }

/* The chunk index with the stored CRCs, in order (the data is not read). */
static int key_chunks(take_reader* r, struct AVSHA* h, mt_err* e) {
  sqlite3_stmt* st;
  if (q_prepare(r, "SELECT stream, chunk, step0, nsteps, ncols, codec, raw_bytes, crc32, length(data) FROM chunks "
                   "ORDER BY stream, chunk", &st, e))
    return MT_EINPUT;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    key_str(h, (const char*)sqlite3_column_text(st, 0));
    for (int c = 1; c <= 8; c++) key_i64(h, sqlite3_column_int64(st, c));
  }
  int bad = q_done(r, rc, "the chunk checksums", e);
  sqlite3_finalize(st);
  return bad ? MT_EINPUT : MT_OK;
}

/* What take_reader_open read, from the reader's own copies. */
static void key_records(const take_reader* r, struct AVSHA* h) {
  key_i64(h, r->nmeta);
  for (int i = 0; i < r->nmeta; i++) key_str(h, r->mkey[i]), key_str(h, r->mval[i]);
  for (int s = 0; s < TAKE_NSTREAM; s++) {
    key_i64(h, r->ncols[s]);
    for (int i = 0; i < r->ncols[s]; i++) key_str(h, r->names[s][i]), key_str(h, r->units[s][i]);
  }
  key_i64(h, r->complete), key_i64(h, r->nsteps), key_str(h, r->reason);
  key_i64(h, r->nsrc);
  for (int i = 0; i < r->nsrc; i++) key_str(h, r->skind[i]), key_str(h, r->sname[i]), key_str(h, r->stext[i]);
  key_i64(h, r->nev);
  for (int i = 0; i < r->nev; i++) key_i64(h, r->ev[i].step), key_str(h, r->ev[i].kind), key_str(h, r->ev[i].json);
}

int take_content_key(take_reader* r, char hex[65], mt_err* e) {
  struct AVSHA* h = av_sha_alloc();
  if (!h || av_sha_init(h, 256)) {
    av_free(h);
    return mt_fail(e, MT_EINTERNAL, "%s: content key: out of memory", r->path);
  }
  int bad = key_chunks(r, h, e);
  uint8_t d[32];
  if (!bad) {
    key_records(r, h);
    av_sha_final(h, d);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
  }
  av_free(h);
  return bad;
}
