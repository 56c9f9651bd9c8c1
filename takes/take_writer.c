/* take_writer.c — writing a take: the header, the writer thread, its transactions, the end
 * status and the output rule (see take_writer.h and docs/takefile.md). */
#include "takes/take_writer.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "base/outfile.h"
#include "takes/recorder.h"
#include "takes/take_codec.h"
#include "takes/take_reader.h"

/* Chunks the simulation's thread fills before it hands them to the writer thread, at most: the
 * writer wakes once for up to this many and commits them in one transaction. Issue 18: a writer
 * thread woken for every chunk spent about half as much again per step as one that stays busy
 * (cold between wakes: in `mt_bench writer` paced as a ride, MT_BENCH_PACE_US=6, 1.0–1.1 µs a
 * step woken every chunk, 0.68–0.79 every 4, 0.68–0.72 every 8, 0.61–0.62 every 16, against
 * 0.68–0.73 unpaced; docs/speed.md). A run hands over sooner when a second of its own time has
 * passed, so a killed run loses at most the last second it ran and at most this many chunks
 * (docs/takefile.md, "Crash safety"); 16 chunks of the lap's streams are 7.4 MB, twice that for
 * the two buffers. */
#define TAKE_WRITE_BATCH 16

typedef struct pending { char* a; char* b; long step; int kind; struct pending* next; } pending;   /* meta (kind 0) or event */

typedef struct chunk_buf {
  long step0, n;
  /* row-major, room for TAKE_WRITE_BATCH chunks' rows: the simulation appends each step's values in one
   * run of memory, and the writer thread turns them into columns (issue 18: storing straight
   * into columns scattered every step over a cache line and a page per column, a third of what
   * recording cost the simulation's thread) */
  double* row[TAKE_NSTREAM];
} chunk_buf;

struct take_writer {
  sqlite3* db;
  char* path;
  outfile of;                  /* the output rule: in place when new, else a temporary (base/outfile.h) */
  int ncols[TAKE_NSTREAM];
  int row_stored[TAKE_NSTREAM];  /* the streams this take stores: state, input, ctx; chan on request */
  chunk_buf buf[2];            /* the one being filled and the one being written */
  int fill;                    /* index of the one being filled */
  long nsteps;
  long chunk_index;
  pthread_t thread;
  double* cpu_out;   /* take_writer_cpu_to: where the thread leaves its CPU time when it ends (under mu) */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int busy;                    /* the writer thread has buf[1 - fill] */
  double handed;               /* CLOCK_MONOTONIC of the last hand-over (or the open) */
  int quit;
  int error;
  char errmsg[512];
  pending* pend;
  int lock_fd;                 /* flock'd: the one writer of this file */
  take_enc enc;             /* the writer thread's encoder (buffers and Zstandard context) */
  int* rate;                   /* format 5: the state's rate table (take_schema.state_rate), NULL if none */
  double h;                    /* its time step */
  sqlite3_stmt* ins_chunk;     /* the writer thread's statements, prepared at its first chunk and */
  sqlite3_stmt* upd_status;    /* finalized by writer_finish after the join */
  char stamp[48];              /* "PRAGMA application_id=N": the first write of every transaction (take_stamp) */
};

/* The take's identity, written first in every transaction: SQLite journals a page before its
 * first change, so page 1 with this take's application_id is the first record of any journal
 * the writer leaves — what take_journal_judge checks before letting SQLite roll one back
 * (takes/takejournal.h). Random and non-zero (0 is "no identity": takes written before it). */
static void take_identity(char* stamp, size_t n) {
  int32_t id = 0;
  while (id == 0) sqlite3_randomness(sizeof id, &id);
  snprintf(stamp, n, "PRAGMA application_id=%ld", (long)id);
}

static double mono_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int exec(sqlite3* db, const char* sql, char* err, size_t n) {
  char* m = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &m) != SQLITE_OK) {
    snprintf(err, n, "%s", m ? m : "sqlite error");
    sqlite3_free(m);
    return -1;
  }
  return 0;
}

/* Write the buffer's chunks (all streams of each, TAKE_CHUNK_STEPS steps a chunk but a last
 * shorter one) plus the pending meta/events, and the step count, in one transaction. */
static int write_chunk(take_writer* w, chunk_buf* c, pending* pend) {
  sqlite3* db = w->db;
  if (exec(db, "BEGIN", w->errmsg, sizeof w->errmsg)) return -1;
  sqlite3_stmt* st = NULL;
  int rc = exec(db, w->stamp, w->errmsg, sizeof w->errmsg);   /* page 1 journaled first (take_identity) */
  /* the statement is prepared once per take and reset after each row (issue 18: preparing it
   * again every second was SQLite's parser on the writer thread) */
  if (c && c->n > 0 && !w->ins_chunk)
    rc = sqlite3_prepare_v3(db, "INSERT INTO chunks VALUES(?,?,?,?,?,?,?,?,?)", -1, SQLITE_PREPARE_PERSISTENT, &w->ins_chunk, NULL) != SQLITE_OK;
  for (long k0 = 0; c && k0 < c->n && !rc; k0 += TAKE_CHUNK_STEPS) {
    long kn = c->n - k0 < TAKE_CHUNK_STEPS ? c->n - k0 : TAKE_CHUNK_STEPS;
    st = w->ins_chunk;
    for (int s = 0; s < TAKE_NSTREAM && !rc; s++) {
      if (!w->row_stored[s]) continue;   /* poses (format 3) and, unless asked for, channels (format 4): rebuilt by readers */
      int nc = w->ncols[s];
      const double* raw = c->row[s] + (size_t)k0 * nc;   /* row-major: encode_rows turns it into columns */
      size_t len;
      unsigned long crc;
      int codec = s == TAKE_STATE && w->rate ? 6 : take_stream_codec[s];
      if (take_encode_rows(&w->enc, raw, nc, kn, codec, codec == 6 ? w->rate : NULL, w->h, &len, &crc)) {
        snprintf(w->errmsg, sizeof w->errmsg, "stream '%s': chunk %ld cannot be compressed", take_stream_name[s], w->chunk_index);
        rc = 1;
        break;
      }
      sqlite3_bind_text(st, 1, take_stream_name[s], -1, SQLITE_STATIC);
      sqlite3_bind_int64(st, 2, w->chunk_index);
      sqlite3_bind_int64(st, 3, c->step0 + k0);
      sqlite3_bind_int64(st, 4, kn);
      sqlite3_bind_int(st, 5, nc);
      sqlite3_bind_int(st, 6, codec);
      sqlite3_bind_int64(st, 7, (sqlite3_int64)take_codec_width(codec) * nc * kn);
      sqlite3_bind_int64(st, 8, (sqlite3_int64)crc);
      sqlite3_bind_blob(st, 9, w->enc.out, (int)len, SQLITE_STATIC);   /* copied into the pages by the step */
      rc = sqlite3_step(st) != SQLITE_DONE;
      sqlite3_reset(st);
      sqlite3_clear_bindings(st);
    }
    if (!rc) w->chunk_index++;
  }
  for (pending* p = pend; p && !rc; p = p->next) {
    if (p->kind == 0) rc = sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO meta VALUES(?,?)", -1, &st, NULL) != SQLITE_OK;
    else rc = sqlite3_prepare_v2(db, "INSERT INTO events(step, kind, json) VALUES(?,?,?)", -1, &st, NULL) != SQLITE_OK;
    if (rc) break;
    if (p->kind == 0) {
      sqlite3_bind_text(st, 1, p->a, -1, SQLITE_STATIC);
      sqlite3_bind_text(st, 2, p->b, -1, SQLITE_STATIC);
    } else {
      sqlite3_bind_int64(st, 1, p->step);
      sqlite3_bind_text(st, 2, p->a, -1, SQLITE_STATIC);
      sqlite3_bind_text(st, 3, p->b, -1, SQLITE_STATIC);
    }
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_finalize(st);
  }
  if (!rc && c) {
    if (!w->upd_status) rc = sqlite3_prepare_v3(db, "UPDATE status SET nsteps = ? WHERE id = 1", -1, SQLITE_PREPARE_PERSISTENT, &w->upd_status, NULL) != SQLITE_OK;
    if (!rc) {
      sqlite3_bind_int64(w->upd_status, 1, c->step0 + c->n);
      rc = sqlite3_step(w->upd_status) != SQLITE_DONE;
      sqlite3_reset(w->upd_status);
    }
  }
  if (rc) {
    if (!w->errmsg[0]) snprintf(w->errmsg, sizeof w->errmsg, "%s", sqlite3_errmsg(db));
    exec(db, "ROLLBACK", w->errmsg + strlen(w->errmsg), 1);
    return -1;
  }
  return exec(db, "COMMIT", w->errmsg, sizeof w->errmsg);
}

static void free_pending(pending* p) {
  while (p) {
    pending* n = p->next;
    free(p->a);
    free(p->b);
    free(p);
    p = n;
  }
}

static void* writer_main(void* arg) {
  take_writer* w = arg;
  pthread_mutex_lock(&w->mu);
  for (;;) {
    while (!w->busy && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
    if (!w->busy && w->quit) break;
    chunk_buf* c = &w->buf[1 - w->fill];
    pending* p = w->pend;
    w->pend = NULL;
    pthread_mutex_unlock(&w->mu);
    int rc = write_chunk(w, c, p);
    free_pending(p);
    pthread_mutex_lock(&w->mu);
    if (rc && !w->error) w->error = 1;
    w->busy = 0;
    pthread_cond_broadcast(&w->cv);
  }
  if (w->cpu_out) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    *w->cpu_out = t.tv_sec + t.tv_nsec * 1e-9;
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

void take_writer_cpu_to(take_writer* w, double* out) {
  pthread_mutex_lock(&w->mu);
  w->cpu_out = out;
  pthread_mutex_unlock(&w->mu);
}

static int insert_columns(sqlite3* db, const char* stream, int n, const char** names, const char** units) {
  sqlite3_stmt* st;
  if (sqlite3_prepare_v2(db, "INSERT INTO columns VALUES(?,?,?,?)", -1, &st, NULL) != SQLITE_OK) return -1;
  int rc = 0;
  for (int i = 0; i < n && !rc; i++) {
    sqlite3_bind_text(st, 1, stream, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, i);
    sqlite3_bind_text(st, 3, names ? names[i] : "", -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, units ? units[i] : "", -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  return rc;
}

static const char* POSE_UNITS[7] = {"m", "m", "m", "1", "1", "1", "1"};

/* What take_writer_open has made so far, undone: the connection, the file, the lock. */
static void open_abort(sqlite3* db, outfile* of, int lock_fd) {
  sqlite3_close(db);
  outfile_abort(of);
  close(lock_fd);
}

/* Stage 1, one writer per take: refused when the path is a take being written in place (its
 * writer's flock is held) or another live process has a temporary of the path open. */
static int refuse_if_busy(const char* path, const char* busy, mt_err* e) {
  int pfd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (pfd >= 0) {
    int held = flock(pfd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(pfd);
    if (held) return mt_fail(e, MT_EINPUT, "%s", busy);
  }
  if (outfile_other_writers(path, 0)) return mt_fail(e, MT_EINPUT, "%s", busy);
  return MT_OK;
}

/* Stage 2, the rate table: each rated value's rate an unrated value of the state (take_open
 * refuses others). The count of rated values, or −1 with e set. */
static int count_rates(const char* path, const take_schema* s, mt_err* e) {
  int nrated = 0;
  for (int i = 0; s->state_rate && i < s->nstate; i++) {
    int j = s->state_rate[i];
    if (j < 0) continue;
    if (j >= s->nstate || j == i || s->state_rate[j] >= 0)
      return mt_fail(e, MT_EINTERNAL, "%s: state value %d: rate %d is not an unrated state value", path, i, j), -1;
    nrated++;
  }
  return nrated;
}

/* Stage 3, the file: opened by the output rule (in place when nothing is at the path, else a
 * temporary) and flock'd; *lock_fd stays open, its flock following the file when it is
 * published. Two writers started together: the lower process id goes on. */
static int claim_file(const char* path, const char* busy, outfile* of, int* lock_fd, mt_err* e) {
  if (outfile_open(of, path, OUTFILE_INPLACE_IF_ABSENT, e)) return MT_EINPUT;
  *lock_fd = of->fd;
  of->fd = -1;
  if (flock(*lock_fd, LOCK_EX | LOCK_NB) != 0 || outfile_other_writers(path, (long)getpid())) {
    close(*lock_fd);
    outfile_abort(of);
    return mt_fail(e, MT_EINPUT, "%s", busy);
  }
  return MT_OK;
}

/* Stage 4, the database: created on the claimed file with its page size, format version and
 * identity (take_identity, into stamp), and the schema begun in a transaction. NULL with e set. */
static sqlite3* create_db(const char* path, const outfile* of, char* stamp, size_t nstamp, mt_err* e) {
  char jpath[4300];
  snprintf(jpath, sizeof jpath, "%s-journal", of->tmp);
  remove(jpath);   /* a journal beside a file we just created is stale: never let SQLite replay it */
  sqlite3* db = NULL;
  if (sqlite3_open_v2(of->tmp, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
    mt_fail(e, MT_EINPUT, "%s: cannot create the take: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return NULL;
  }
  /* readers (take info, verify, channels on a take being recorded) hold short read locks:
   * wait for them rather than fail the recording with "database is locked" */
  sqlite3_busy_timeout(db, 10000);
  char err[512] = "";
  char sql[320];
  take_identity(stamp, nstamp);
  /* 8 KiB pages: fewer page writes per chunk than SQLite's 4 KiB default (any page size reads) */
  snprintf(sql, sizeof sql, "PRAGMA page_size=8192; PRAGMA journal_mode=DELETE; PRAGMA synchronous=NORMAL; PRAGMA user_version=%d; %s;",
           TAKE_FORMAT_VERSION, stamp);
  if (exec(db, sql, err, sizeof err) || exec(db, "BEGIN", err, sizeof err) || exec(db, take_schema_sql, err, sizeof err)) {
    mt_fail(e, MT_EINPUT, "%s: cannot create the take: %s", path, err);
    sqlite3_close(db);
    return NULL;
  }
  return db;
}

/* Stage 5a, the metadata that describes the format and the schema, and the rate table. */
static int write_meta(sqlite3* db, const take_schema* s, const char* overrides_json, int nrated) {
  sqlite3_stmt* st;
  int rc = sqlite3_prepare_v2(db, "INSERT INTO meta VALUES(?,?)", -1, &st, NULL) != SQLITE_OK;
  char v[8][64];
  snprintf(v[0], 64, "%d", TAKE_FORMAT_VERSION);
  snprintf(v[1], 64, "%.17g", s->timestep);
  snprintf(v[2], 64, "%d", s->nstate);
  snprintf(v[3], 64, "%d", TAKE_CHUNK_STEPS);
  const char* kv[][2] = {{"format", "mototake take"}, {"format_version", v[0]}, {"timestep", v[1]}, {"nstate", v[2]},
                         {"chunk_steps", v[3]}, {"overrides", overrides_json ? overrides_json : "[]"}};
  for (size_t i = 0; i < MT_ARRAY_LEN(kv) && !rc; i++) {
    sqlite3_bind_text(st, 1, kv[i][0], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, kv[i][1], -1, SQLITE_STATIC);
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_reset(st);
  }
  if (nrated && !rc) {   /* format 5: "i:j,…", state value i integrates value j (takefile.h) */
    size_t cap = 24 * (size_t)nrated + 1, used = 0;
    char* rates = mt_alloc(cap);
    for (int i = 0; i < s->nstate; i++)
      if (s->state_rate[i] >= 0) used += (size_t)snprintf(rates + used, cap - used, "%s%d:%d", used ? "," : "", i, s->state_rate[i]);
    sqlite3_bind_text(st, 1, "state_rates", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, rates, -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_reset(st);
    free(rates);
  }
  sqlite3_finalize(st);
  return rc;
}

/* Stage 5b, the embedded sources. */
static int write_sources(sqlite3* db, const take_source* src, int nsrc) {
  sqlite3_stmt* st;
  int rc = sqlite3_prepare_v2(db, "INSERT INTO sources(kind, name, text) VALUES(?,?,?)", -1, &st, NULL) != SQLITE_OK;
  for (int i = 0; i < nsrc && !rc; i++) {
    sqlite3_bind_text(st, 1, src[i].kind, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, src[i].name ? src[i].name : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, src[i].text ? src[i].text : "", -1, SQLITE_STATIC);
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  return rc;
}

/* Stage 5c, the columns of every stream: the state's are numbered, the poses' are body.part. */
static int write_columns(sqlite3* db, const take_schema* s) {
  int rc = 0;
  char** sn = mt_alloc(sizeof(char*) * (s->nstate + 1));
  for (int i = 0; i < s->nstate; i++) {
    sn[i] = mt_alloc(16);
    snprintf(sn[i], 16, "x%d", i);
  }
  rc |= insert_columns(db, "state", s->nstate, (const char**)sn, NULL);
  for (int i = 0; i < s->nstate; i++) free(sn[i]);
  free(sn);
  rc |= insert_columns(db, "input", s->ninput, s->input_names, s->input_units);
  rc |= insert_columns(db, "chan", s->nchan, s->chan_names, s->chan_units);
  const char *cn[REC_NCTX], *cu[REC_NCTX];
  for (int k = 0; k < REC_NCTX; k++) {
    int j = rec_ctx_channel(k);
    cn[k] = rec_channels()[j].name;
    cu[k] = rec_channels()[j].units;
  }
  rc |= insert_columns(db, "ctx", REC_NCTX, cn, cu);
  int np = 7 * s->nbody;
  char** pn = mt_alloc(sizeof(char*) * (np + 1));
  const char** pu = mt_alloc(sizeof(char*) * (np + 1));
  for (int b = 0; b < s->nbody; b++)
    for (int k = 0; k < 7; k++) {
      pn[7 * b + k] = mt_alloc(128);
      snprintf(pn[7 * b + k], 128, "%s.%s", s->body_names[b], take_pose_parts[k]);
      pu[7 * b + k] = POSE_UNITS[k];
    }
  rc |= insert_columns(db, "pose", np, (const char**)pn, pu);
  for (int i = 0; i < np; i++) free(pn[i]);
  free(pn);
  free(pu);
  return rc;
}

/* Stage 5d, the body tree (meta parent.<body>), for exporters. */
static int write_parents(sqlite3* db, const take_schema* s) {
  sqlite3_stmt* st;
  int rc = sqlite3_prepare_v2(db, "INSERT INTO meta VALUES(?,?)", -1, &st, NULL) != SQLITE_OK;
  for (int b = 0; b < s->nbody && !rc; b++) {
    char key[160];
    snprintf(key, sizeof key, "parent.%s", s->body_names[b]);
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, s->body_parents[b], -1, SQLITE_STATIC);
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  return rc;
}

/* Stage 6, publish: with the header committed, a new take moves to its path (nothing there:
 * link(2), never a replace) and is written there on, so a killed run leaves a readable take and
 * never an empty file; the connection is reopened under that name so SQLite's journal follows
 * it. 1 when another writer took the path meanwhile (nothing reopened), −1 when the reopen
 * failed, 0 when done (or nothing to do: a temporary stays one until take_writer_close). */
static int publish_header(const char* path, outfile* of, int absent, sqlite3** db, char* err, size_t nerr) {
  if (of->mode != OUTFILE_INPLACE_IF_ABSENT) return 0;
  sqlite3_close(*db);
  *db = NULL;
  if (!outfile_publish(of) && absent) return 1;
  /* a journal already at the path of a file we just created there belongs to another file
   * (one removed after a killed run): SQLite must never roll it back into this one */
  if (of->inplace) {
    char jpath[4300];
    snprintf(jpath, sizeof jpath, "%s-journal", path);
    remove(jpath);
  }
  if (sqlite3_open_v2(of->tmp, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK ||
      exec(*db, "PRAGMA synchronous=NORMAL", err, nerr))
    return -1;
  sqlite3_busy_timeout(*db, 10000);   /* the new connection waits for readers too (see create_db) */
  return 0;
}

/* Stage 7, the recording settings. While recording, commits do not wait for the disk (no
 * fsync): a killed run still leaves every committed second readable (the journal protects
 * against a crash of the process); only an operating-system crash or power loss during the
 * recording can damage the take. The last commit (writer_finish) syncs everything. fdatasync was
 * a sixth of the writer's CPU (issue 18).
 * The rollback journal stays between the commits, its header zeroed at each (PERSIST), instead
 * of being created and deleted (DELETE) or cut to nothing and grown again (TRUNCATE) every
 * second: its blocks stay allocated and in the page cache (issue 18: the ftruncate and the
 * journal blocks' allocation were 2–4 % of the writer thread's CPU with TRUNCATE). Still a
 * rollback journal: a run killed inside a commit leaves a hot journal that readers roll back,
 * one killed between commits a journal with a zeroed header (not hot) that they remove
 * (take_journal_recover); writer_finish goes back to DELETE for the last commit. */
static int set_recording(sqlite3* db, char* err, size_t nerr) {
  if (exec(db, "PRAGMA synchronous=OFF", err, nerr)) return 1;
  if (exec(db, "PRAGMA journal_mode=PERSIST", err, nerr)) return 1;
  return 0;
}

/* Stage 8, the writer itself: the streams it stores, its double row buffers, its encoder, and
 * its thread started. */
static take_writer* writer_start(const char* path, const take_schema* s, sqlite3* db, const outfile* of, int lock_fd,
                                 const char* stamp, int nrated) {
  take_writer* w = mt_alloc(sizeof *w);
  w->db = db;
  w->lock_fd = lock_fd;
  w->path = mt_strdup(path);
  w->of = *of;
  snprintf(w->stamp, sizeof w->stamp, "%s", stamp);
  w->ncols[TAKE_STATE] = s->nstate;
  w->ncols[TAKE_INPUT] = s->ninput;
  w->ncols[TAKE_POSE] = 7 * s->nbody;
  w->ncols[TAKE_CHAN] = s->nchan;
  w->ncols[TAKE_CTX] = REC_NCTX;
  w->row_stored[TAKE_STATE] = w->row_stored[TAKE_INPUT] = w->row_stored[TAKE_CTX] = 1;
  w->row_stored[TAKE_CHAN] = s->store_chan != 0;
  w->h = s->timestep;
  if (nrated) {
    w->rate = mt_alloc(sizeof(int) * (size_t)s->nstate);
    memcpy(w->rate, s->state_rate, sizeof(int) * (size_t)s->nstate);
  }
  for (int k = 0; k < 2; k++)
    for (int st2 = 0; st2 < TAKE_NSTREAM; st2++)
      w->buf[k].row[st2] = !w->row_stored[st2] ? NULL : mt_alloc(sizeof(double) * TAKE_CHUNK_STEPS * TAKE_WRITE_BATCH * (w->ncols[st2] ? w->ncols[st2] : 1));
  int widest = 1;
  for (int st2 = 0; st2 < TAKE_NSTREAM; st2++)
    if (w->ncols[st2] > widest) widest = w->ncols[st2];
  take_enc_init(&w->enc, (size_t)widest * TAKE_CHUNK_STEPS, (size_t)widest);
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->cv, NULL);
  w->handed = mono_now();
  pthread_create(&w->thread, NULL, writer_main, w);
  return w;
}

/* The stages in order. One writer per take (docs/takefile.md, "One writer"). A take is written
 * fresh: at the path when nothing is there (a killed run leaves a readable incomplete take),
 * else under a temporary renamed over the old take by take_writer_close, so the old take stays
 * whole and readable until the new one is complete. The writer holds an flock on the file it
 * writes (readers see it: take_live); a second writer is refused when the path is such a file
 * being written in place, or when another live process has a temporary of the path open. */
take_writer* take_writer_open(const char* path, const take_schema* s, const take_source* src, int nsrc,
                              const char* overrides_json, mt_err* e) {
  char busy[4400];
  snprintf(busy, sizeof busy, "%s: " TAKE_WRITER_BUSY "; left alone", path);
  if (refuse_if_busy(path, busy, e)) return NULL;
  int nrated = count_rates(path, s, e);
  if (nrated < 0) return NULL;
  outfile of;
  int lock_fd;
  if (claim_file(path, busy, &of, &lock_fd, e)) return NULL;
  int absent = access(path, F_OK) != 0;
  char err[512] = "", stamp[48];
  sqlite3* db = create_db(path, &of, stamp, sizeof stamp, e);
  if (!db) {
    open_abort(NULL, &of, lock_fd);
    return NULL;
  }
  int rc = write_meta(db, s, overrides_json, nrated);
  rc |= write_sources(db, src, nsrc);
  rc |= write_columns(db, s);
  rc |= write_parents(db, s);
  rc |= exec(db, "INSERT INTO status VALUES(1, 0, 'recording', 0)", err, sizeof err);
  rc |= exec(db, "COMMIT", err, sizeof err);
  if (!rc) {
    int pub = publish_header(path, &of, absent, &db, err, sizeof err);
    if (pub > 0) {   /* another writer took the path meanwhile */
      mt_fail(e, MT_EINPUT, "%s", busy);
      open_abort(NULL, &of, lock_fd);
      return NULL;
    }
    rc = pub != 0;
  }
  if (rc) {
    mt_fail(e, MT_EINTERNAL, "%s: cannot write the take header: %s", path, err[0] ? err : db ? sqlite3_errmsg(db) : "out of memory");
    open_abort(db, &of, lock_fd);
    return NULL;
  }
  if (set_recording(db, err, sizeof err)) {
    mt_fail(e, MT_EINTERNAL, "%s: cannot write the take header: %s", path, err);
    open_abort(db, &of, lock_fd);
    return NULL;
  }
  return writer_start(path, s, db, &of, lock_fd, stamp, nrated);
}

static void queue(take_writer* w, int kind, const char* a, const char* b, long step) {
  pending* p = mt_alloc(sizeof *p);
  p->kind = kind;
  p->a = mt_strdup(a);
  p->b = mt_strdup(b);
  p->step = step;
  pthread_mutex_lock(&w->mu);
  pending** q = &w->pend;
  while (*q) q = &(*q)->next;
  *q = p;
  pthread_mutex_unlock(&w->mu);
}

int take_writer_meta(take_writer* w, const char* key, const char* value, mt_err* e) {
  (void)e;
  queue(w, 0, key, value, 0);
  return MT_OK;
}

int take_writer_event(take_writer* w, long step, const char* kind, const char* json, mt_err* e) {
  (void)e;
  queue(w, 1, kind, json, step);
  return MT_OK;
}

/* Hand the filled buffer to the thread (waiting for the previous one to be written). */
static int hand_over(take_writer* w, mt_err* e) {
  pthread_mutex_lock(&w->mu);
  while (w->busy) pthread_cond_wait(&w->cv, &w->mu);
  int err = w->error;
  if (!err) {
    w->fill = 1 - w->fill;
    w->busy = 1;
    pthread_cond_broadcast(&w->cv);
  }
  pthread_mutex_unlock(&w->mu);
  if (err) return mt_fail(e, MT_EINTERNAL, "%s: writing the take failed: %s", w->path, w->errmsg);
  chunk_buf* c = &w->buf[w->fill];
  c->step0 = w->nsteps;
  c->n = 0;
  w->handed = mono_now();
  return MT_OK;
}

int take_writer_step(take_writer* w, const double* state, const double* input, const double* ctx, const double* chans,
                     mt_err* e) {
  chunk_buf* c = &w->buf[w->fill];
  const double* src[TAKE_NSTREAM] = {state, input, NULL, chans, ctx};
  if (w->row_stored[TAKE_CHAN] && !chans) return mt_fail(e, MT_EINTERNAL, "take_writer_step: channels to store, none given");
  for (int s = 0; s < TAKE_NSTREAM; s++) {
    if (!w->row_stored[s]) continue;   /* poses (format 3), channels (format 4): rebuilt by readers */
    if (w->ncols[s]) memcpy(c->row[s] + (size_t)c->n * w->ncols[s], src[s], sizeof(double) * w->ncols[s]);
  }
  c->n++;
  w->nsteps++;
  /* at a chunk's end: hand over after TAKE_WRITE_BATCH chunks, or sooner when a second of the
   * run's time has passed since the last hand-over (a ride in real time hands over every chunk) */
  if (c->n % TAKE_CHUNK_STEPS == 0 && (c->n == (long)TAKE_CHUNK_STEPS * TAKE_WRITE_BATCH || mono_now() - w->handed >= 1.0))
    return hand_over(w, e);
  return MT_OK;
}

static int writer_finish(take_writer* w, int complete, const char* reason, int keep, mt_err* e);

/* Before a new take is renamed over an old one (issue 29): the old take's `-journal` would be
 * the new take's after the rename, and a reader would roll it back into a file it does not
 * belong to. So it goes first: rolled back into the old take when it is provably that take's
 * own (a kill before the rename then leaves the old take whole), and removed in any case. */
static void settle_old_journal(const char* path) {
  char j[4300];
  snprintf(j, sizeof j, "%s-journal", path);
  if (access(j, F_OK) != 0) return;
  mt_err ignored = {0};
  take_journal_recover(path, &ignored);   /* the old take's own: applied to it; foreign: refused */
  remove(j);
}

int take_writer_close(take_writer* w, int complete, const char* reason, mt_err* e) {
  return writer_finish(w, complete, reason, 1, e);
}

void take_writer_discard(take_writer* w) {
  mt_err e = {0};
  writer_finish(w, 0, "discarded", 0, &e);
}

int take_writer_in_place(const take_writer* w) { return w->of.inplace; }

static int writer_finish(take_writer* w, int complete, const char* reason, int keep, mt_err* e) {
  int rc = MT_OK;
  if (w->buf[w->fill].n > 0 || w->pend) rc = hand_over(w, e);
  pthread_mutex_lock(&w->mu);
  while (w->busy) pthread_cond_wait(&w->cv, &w->mu);
  w->quit = 1;
  pthread_cond_broadcast(&w->cv);
  int err = w->error;
  pthread_mutex_unlock(&w->mu);
  pthread_join(w->thread, NULL);
  if (err && rc == MT_OK) rc = mt_fail(e, MT_EINTERNAL, "%s: writing the take failed: %s", w->path, w->errmsg);
  sqlite3_finalize(w->ins_chunk);   /* the thread is joined: its statements are ours */
  sqlite3_finalize(w->upd_status);
  w->ins_chunk = w->upd_status = NULL;
  sqlite3_exec(w->db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);   /* the end status commits to the disk */
  sqlite3_exec(w->db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL);   /* deletes the kept journal: none stays beside the take */
  sqlite3_stmt* st;
  sqlite3_exec(w->db, "BEGIN", NULL, NULL, NULL);
  sqlite3_exec(w->db, w->stamp, NULL, NULL, NULL);   /* page 1 journaled first (take_identity) */
  if (sqlite3_prepare_v2(w->db, "UPDATE status SET complete = ?, reason = ?, nsteps = ? WHERE id = 1", -1, &st, NULL) ==
      SQLITE_OK) {
    sqlite3_bind_int(st, 1, complete && rc == MT_OK);
    sqlite3_bind_text(st, 2, reason ? reason : "", -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, w->nsteps);
    if (sqlite3_step(st) != SQLITE_DONE && rc == MT_OK)
      rc = mt_fail(e, MT_EINTERNAL, "%s: cannot record the end: %s", w->path, sqlite3_errmsg(w->db));
    sqlite3_finalize(st);
  }
  if (sqlite3_exec(w->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK && rc == MT_OK)
    rc = mt_fail(e, MT_EINTERNAL, "%s: cannot record the end: %s", w->path, sqlite3_errmsg(w->db));
  if (sqlite3_close(w->db) != SQLITE_OK && rc == MT_OK) rc = mt_fail(e, MT_EINTERNAL, "%s: cannot close the take", w->path);
  if (keep && rc == MT_OK && !w->of.inplace) settle_old_journal(w->path);
  if (keep && rc == MT_OK) rc = outfile_commit(&w->of, e);   /* replaces an old take only now */
  else outfile_abort(&w->of);
  close(w->lock_fd);   /* after SQLite's close and the rename: it held the writer's flock */
  for (int k = 0; k < 2; k++)
    for (int s = 0; s < TAKE_NSTREAM; s++) free(w->buf[k].row[s]);
  free_pending(w->pend);
  take_enc_free(&w->enc);
  free(w->rate);
  pthread_mutex_destroy(&w->mu);
  pthread_cond_destroy(&w->cv);
  free(w->path);
  free(w);
  return rc;
}

/*---- a cut: a new take from part of an open one ----*/

/* Every metadata row but the ones take_writer_open writes itself from the schema. */
static void cut_copy_meta(take_reader* r, take_writer* w, const char* note, mt_err* e) {
  static const char* skip[] = {"format", "format_version", "timestep", "nstate", "chunk_steps", "overrides", "state_rates", NULL};
  for (int i = 0; i < take_nmeta(r); i++) {
    const char *key, *value;
    take_meta_at(r, i, &key, &value);
    int k = 0;
    for (const char** q = skip; *q; q++) k |= strcmp(*q, key) == 0;
    if (!k) take_writer_meta(w, key, value, e);
  }
  take_writer_meta(w, "cut_from", note, e);
}

int take_write_cut(take_reader* r, long step0, long n, const char* path, const char* note, mt_err* e) {
  take_schema s = *take_schema_of(r);
  s.store_chan = 0;   /* a cut stores the context; its readers rebuild the channels */
  int nsrc = take_nsources(r);
  take_source* src = mt_alloc(sizeof(take_source) * (nsrc + 1));
  for (int i = 0; i < nsrc; i++) take_source_at(r, i, &src[i].kind, &src[i].name, &src[i].text);
  take_writer* w = take_writer_open(path, &s, src, nsrc, take_overrides(r), e);   /* the output rule */
  free(src);
  if (!w) return e->code ? e->code : MT_EINTERNAL;
  cut_copy_meta(r, w, note, e);
  int nst = s.nstate, ni = s.ninput;
  double* buf = mt_alloc(sizeof(double) * (nst + ni + REC_NCTX + 4));
  int rc = MT_OK;
  for (long i = 0; i < n && !rc; i++) {
    /* the cut (format 4) stores the state, the inputs and the context (older takes: from their
     * channels); its readers rebuild the poses and the other channels */
    rc = take_read_stored(r, TAKE_STATE, step0 + i, 1, buf, e) || take_read_stored(r, TAKE_INPUT, step0 + i, 1, buf + nst, e) ||
         take_read_stored(r, TAKE_CTX, step0 + i, 1, buf + nst + ni, e);
    if (!rc) rc = take_writer_step(w, buf, buf + nst, buf + nst + ni, NULL, e);
  }
  for (int i = 0; i < take_nevents(r) && !rc; i++) {
    const take_event* ev = take_event_at(r, i);
    if (ev->step >= step0 && ev->step < step0 + n) take_writer_event(w, ev->step - step0, ev->kind, ev->json, e);
  }
  free(buf);
  if (rc) {
    take_writer_discard(w);   /* nothing half-cut is left; an old file at path is kept */
    return rc;
  }
  const char* reason;
  int complete = take_complete(r, &reason);
  return take_writer_close(w, complete, reason, e);
}
