/* takefile.c — the SQLite take file (see takefile.h and docs/takefile.md). */
#include "takes/takefile.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "sim/outfile.h"

static const char* const STREAM_NAME[TAKE_NSTREAM] = {"state", "input", "pose", "chan"};

static const char* SCHEMA_SQL =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE sources(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL);"
    "CREATE TABLE columns(stream TEXT NOT NULL, idx INTEGER NOT NULL, name TEXT NOT NULL, units TEXT NOT NULL,"
    "  PRIMARY KEY(stream, idx));"
    "CREATE TABLE chunks(stream TEXT NOT NULL, chunk INTEGER NOT NULL, step0 INTEGER NOT NULL, nsteps INTEGER NOT NULL,"
    "  ncols INTEGER NOT NULL, codec INTEGER NOT NULL, raw_bytes INTEGER NOT NULL, crc32 INTEGER NOT NULL, data BLOB NOT NULL,"
    "  PRIMARY KEY(stream, chunk));"
    "CREATE TABLE events(id INTEGER PRIMARY KEY, step INTEGER NOT NULL, kind TEXT NOT NULL, json TEXT NOT NULL);"
    "CREATE TABLE status(id INTEGER PRIMARY KEY CHECK (id = 1), complete INTEGER NOT NULL, reason TEXT NOT NULL,"
    "  nsteps INTEGER NOT NULL);";

/*---- codecs ----
 * 0: plain little-endian float64, column-major, deflated.
 * 2: float64; per column, each value's 64-bit pattern minus twice the previous plus the one
 *    before (a second difference of the integers, wrapping) — smooth motion leaves small
 *    integers — then the bytes shuffled into 8 planes (byte b of every value together), deflated.
 * 3: the same on float32 values (4 planes): channels, where 7 significant digits are plenty.
 * The CRC-32 is of the raw column-major values in the stored precision. */

static int codec_width(int codec) { return codec == 3 ? 4 : 8; }

/* raw: ncols columns of n values (doubles; converted to float for codec 3). */
static unsigned char* encode(const double* raw, int ncols, long n, int codec, size_t* outlen, uLong* crc) {
  size_t nw = (size_t)ncols * n;
  int W = codec_width(codec);
  unsigned char* bytes = mt_alloc(nw * W + 1);
  if (W == 4) {
    for (size_t k = 0; k < nw; k++) {
      float f = (float)raw[k];
      memcpy(bytes + 4 * k, &f, 4);
    }
  } else {
    memcpy(bytes, raw, nw * 8);
  }
  *crc = crc32(0L, bytes, (uInt)(nw * W));
  unsigned char* sh = mt_alloc(nw * W + 1);
  for (int c = 0; c < ncols; c++) {
    uint64_t p1 = 0, p2 = 0;
    for (long i = 0; i < n; i++) {
      size_t k = (size_t)c * n + i;
      uint64_t w = 0;
      memcpy(&w, bytes + W * k, W);
      uint64_t x = codec == 0 ? w : w - 2 * p1 + p2;
      p2 = p1;
      p1 = w;
      for (int b = 0; b < W; b++) sh[(size_t)b * nw + k] = (unsigned char)(x >> (8 * b));
    }
  }
  free(bytes);
  uLongf cap = compressBound(nw * W);
  unsigned char* out = mt_alloc(cap);
  if (compress2(out, &cap, sh, nw * W, 1) != Z_OK) {
    free(sh);
    free(out);
    return NULL;
  }
  free(sh);
  *outlen = cap;
  return out;
}

/* Decode into raw (doubles); *crc gets the CRC of the stored-precision values. */
static int decode(const unsigned char* blob, size_t len, int codec, int ncols, long n, double* raw, uLong* crc) {
  size_t nw = (size_t)ncols * n;
  int W = codec_width(codec);
  size_t nb = nw * W;
  unsigned char* buf = mt_alloc(nb + 1);
  uLongf got = nb;
  if (uncompress(buf, &got, blob, len) != Z_OK || got != nb) {
    free(buf);
    return -1;
  }
  unsigned char* bytes = mt_alloc(nb + 1);
  if (codec == 0) {
    memcpy(bytes, buf, nb);
  } else {
    for (int c = 0; c < ncols; c++) {
      uint64_t p1 = 0, p2 = 0;
      for (long i = 0; i < n; i++) {
        size_t k = (size_t)c * n + i;
        uint64_t x = 0;
        for (int b = 0; b < W; b++) x |= (uint64_t)buf[(size_t)b * nw + k] << (8 * b);
        uint64_t w = x + 2 * p1 - p2;
        if (W == 4) w &= 0xffffffffu;
        p2 = p1;
        p1 = w;
        memcpy(bytes + W * k, &w, W);
      }
    }
  }
  *crc = crc32(0L, bytes, (uInt)nb);
  if (W == 4)
    for (size_t k = 0; k < nw; k++) {
      float f;
      memcpy(&f, bytes + 4 * k, 4);
      raw[k] = f;
    }
  else
    memcpy(raw, bytes, nb);
  free(buf);
  free(bytes);
  return 0;
}

static const int STREAM_CODEC[TAKE_NSTREAM] = {2, 2, 2, 3};   /* state, input, pose: exact; channels: float32 */

/*---- writer ----*/

typedef struct pending { char* a; char* b; long step; int kind; struct pending* next; } pending;   /* meta (kind 0) or event */

typedef struct chunk_buf {
  long step0, n;
  double* col[TAKE_NSTREAM];   /* column-major, TAKE_CHUNK_STEPS rows */
} chunk_buf;

struct take_writer {
  sqlite3* db;
  char* path;
  outfile of;                  /* the output rule: in place when new, else a temporary (sim/outfile.h) */
  int ncols[TAKE_NSTREAM];
  chunk_buf buf[2];            /* the one being filled and the one being written */
  int fill;                    /* index of the one being filled */
  long nsteps;
  long chunk_index;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int busy;                    /* the writer thread has buf[1 - fill] */
  int quit;
  int error;
  char errmsg[512];
  pending* pend;
};

static int exec(sqlite3* db, const char* sql, char* err, size_t n) {
  char* m = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &m) != SQLITE_OK) {
    snprintf(err, n, "%s", m ? m : "sqlite error");
    sqlite3_free(m);
    return -1;
  }
  return 0;
}

/* Write one chunk (all streams) plus the pending meta/events, and the step count, atomically. */
static int write_chunk(take_writer* w, chunk_buf* c, pending* pend) {
  sqlite3* db = w->db;
  if (exec(db, "BEGIN", w->errmsg, sizeof w->errmsg)) return -1;
  sqlite3_stmt* st = NULL;
  int rc = 0;
  if (c && c->n > 0) {
    rc = sqlite3_prepare_v2(db, "INSERT INTO chunks VALUES(?,?,?,?,?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK;
    for (int s = 0; s < TAKE_NSTREAM && !rc; s++) {
      int nc = w->ncols[s];
      /* compact the columns from stride TAKE_CHUNK_STEPS to stride n */
      double* raw = c->col[s];
      if (c->n < TAKE_CHUNK_STEPS)
        for (int j = 1; j < nc; j++) memmove(raw + (size_t)j * c->n, raw + (size_t)j * TAKE_CHUNK_STEPS, sizeof(double) * c->n);
      size_t len;
      uLong crc;
      int codec = STREAM_CODEC[s];
      unsigned char* blob = encode(raw, nc, c->n, codec, &len, &crc);
      if (!blob) {
        rc = 1;
        break;
      }
      sqlite3_bind_text(st, 1, STREAM_NAME[s], -1, SQLITE_STATIC);
      sqlite3_bind_int64(st, 2, w->chunk_index);
      sqlite3_bind_int64(st, 3, c->step0);
      sqlite3_bind_int64(st, 4, c->n);
      sqlite3_bind_int(st, 5, nc);
      sqlite3_bind_int(st, 6, codec);
      sqlite3_bind_int64(st, 7, (sqlite3_int64)codec_width(codec) * nc * c->n);
      sqlite3_bind_int64(st, 8, (sqlite3_int64)crc);
      sqlite3_bind_blob(st, 9, blob, (int)len, free);
      rc = sqlite3_step(st) != SQLITE_DONE;
      sqlite3_reset(st);
    }
    sqlite3_finalize(st);
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
    char sql[128];
    snprintf(sql, sizeof sql, "UPDATE status SET nsteps = %ld WHERE id = 1", c->step0 + c->n);
    rc = exec(db, sql, w->errmsg, sizeof w->errmsg) != 0;
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
  pthread_mutex_unlock(&w->mu);
  return NULL;
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

static const char* POSE_PARTS[7] = {"x", "y", "z", "qw", "qx", "qy", "qz"};
static const char* POSE_UNITS[7] = {"m", "m", "m", "1", "1", "1", "1"};

take_writer* take_writer_open(const char* path, const take_schema* s, const take_source* src, int nsrc,
                              const char* overrides_json, mt_err* e) {
  /* A take is written fresh: at the path when nothing is there (a killed run leaves a readable
   * incomplete take), else under a temporary renamed over the old take by take_writer_close. */
  outfile of;
  if (outfile_open(&of, path, OUTFILE_INPLACE_IF_ABSENT, e)) return NULL;
  close(of.fd);
  of.fd = -1;
  char jpath[4300];
  snprintf(jpath, sizeof jpath, "%s-journal", of.tmp);
  remove(jpath);   /* a journal beside a file we just created is stale: never let SQLite replay it */
  sqlite3* db = NULL;
  if (sqlite3_open_v2(of.tmp, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
    mt_fail(e, MT_EINPUT, "%s: cannot create the take: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    outfile_abort(&of);
    return NULL;
  }
  char err[512] = "";
  char sql[256];
  snprintf(sql, sizeof sql, "PRAGMA journal_mode=DELETE; PRAGMA synchronous=NORMAL; PRAGMA user_version=%d;",
           TAKE_FORMAT_VERSION);
  if (exec(db, sql, err, sizeof err) || exec(db, "BEGIN", err, sizeof err) || exec(db, SCHEMA_SQL, err, sizeof err)) {
    mt_fail(e, MT_EINPUT, "%s: cannot create the take: %s", path, err);
    sqlite3_close(db);
    outfile_abort(&of);
    return NULL;
  }
  int rc = 0;
  sqlite3_stmt* st;
  /* metadata that describes the format and the schema */
  rc |= sqlite3_prepare_v2(db, "INSERT INTO meta VALUES(?,?)", -1, &st, NULL) != SQLITE_OK;
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
  sqlite3_finalize(st);
  rc |= sqlite3_prepare_v2(db, "INSERT INTO sources(kind, name, text) VALUES(?,?,?)", -1, &st, NULL) != SQLITE_OK;
  for (int i = 0; i < nsrc && !rc; i++) {
    sqlite3_bind_text(st, 1, src[i].kind, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, src[i].name ? src[i].name : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, src[i].text ? src[i].text : "", -1, SQLITE_STATIC);
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  /* columns: the state's are numbered, the poses' are body.part */
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
  int np = 7 * s->nbody;
  char** pn = mt_alloc(sizeof(char*) * (np + 1));
  const char** pu = mt_alloc(sizeof(char*) * (np + 1));
  for (int b = 0; b < s->nbody; b++)
    for (int k = 0; k < 7; k++) {
      pn[7 * b + k] = mt_alloc(128);
      snprintf(pn[7 * b + k], 128, "%s.%s", s->body_names[b], POSE_PARTS[k]);
      pu[7 * b + k] = POSE_UNITS[k];
    }
  rc |= insert_columns(db, "pose", np, (const char**)pn, pu);
  for (int i = 0; i < np; i++) free(pn[i]);
  free(pn);
  free(pu);
  /* body tree, for exporters */
  rc |= sqlite3_prepare_v2(db, "INSERT INTO meta VALUES(?,?)", -1, &st, NULL) != SQLITE_OK;
  for (int b = 0; b < s->nbody && !rc; b++) {
    char key[160];
    snprintf(key, sizeof key, "parent.%s", s->body_names[b]);
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, s->body_parents[b], -1, SQLITE_STATIC);
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  rc |= exec(db, "INSERT INTO status VALUES(1, 0, 'recording', 0)", err, sizeof err);
  rc |= exec(db, "COMMIT", err, sizeof err);
  /* With the header committed, a new take moves to its path (nothing there: link(2), never a
   * replace) and is written there on, so a killed run leaves a readable take and never an empty
   * file; the connection is reopened under that name so SQLite's journal follows it. */
  if (!rc && of.mode == OUTFILE_INPLACE_IF_ABSENT) {
    sqlite3_close(db);
    db = NULL;
    outfile_publish(&of);
    if (sqlite3_open_v2(of.tmp, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK ||
        exec(db, "PRAGMA synchronous=NORMAL", err, sizeof err))
      rc = 1;
  }
  if (rc) {
    mt_fail(e, MT_EINTERNAL, "%s: cannot write the take header: %s", path, err[0] ? err : db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    outfile_abort(&of);
    return NULL;
  }
  take_writer* w = mt_alloc(sizeof *w);
  w->db = db;
  w->path = mt_strdup(path);
  w->of = of;
  w->ncols[TAKE_STATE] = s->nstate;
  w->ncols[TAKE_INPUT] = s->ninput;
  w->ncols[TAKE_POSE] = np;
  w->ncols[TAKE_CHAN] = s->nchan;
  for (int k = 0; k < 2; k++)
    for (int st2 = 0; st2 < TAKE_NSTREAM; st2++)
      w->buf[k].col[st2] = mt_alloc(sizeof(double) * TAKE_CHUNK_STEPS * (w->ncols[st2] ? w->ncols[st2] : 1));
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->cv, NULL);
  pthread_create(&w->thread, NULL, writer_main, w);
  return w;
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
  return MT_OK;
}

int take_writer_step(take_writer* w, const double* state, const double* input, const double* poses, const double* chans,
                     mt_err* e) {
  chunk_buf* c = &w->buf[w->fill];
  const double* src[TAKE_NSTREAM] = {state, input, poses, chans};
  for (int s = 0; s < TAKE_NSTREAM; s++) {
    double* col = c->col[s];
    for (int j = 0; j < w->ncols[s]; j++) col[(size_t)j * TAKE_CHUNK_STEPS + c->n] = src[s][j];
  }
  c->n++;
  w->nsteps++;
  if (c->n == TAKE_CHUNK_STEPS) return hand_over(w, e);
  return MT_OK;
}

static int writer_finish(take_writer* w, int complete, const char* reason, int keep, mt_err* e);

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
  sqlite3_stmt* st;
  if (sqlite3_prepare_v2(w->db, "UPDATE status SET complete = ?, reason = ?, nsteps = ? WHERE id = 1", -1, &st, NULL) ==
      SQLITE_OK) {
    sqlite3_bind_int(st, 1, complete && rc == MT_OK);
    sqlite3_bind_text(st, 2, reason ? reason : "", -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, w->nsteps);
    if (sqlite3_step(st) != SQLITE_DONE && rc == MT_OK)
      rc = mt_fail(e, MT_EINTERNAL, "%s: cannot record the end: %s", w->path, sqlite3_errmsg(w->db));
    sqlite3_finalize(st);
  }
  if (sqlite3_close(w->db) != SQLITE_OK && rc == MT_OK) rc = mt_fail(e, MT_EINTERNAL, "%s: cannot close the take", w->path);
  if (keep && rc == MT_OK) rc = outfile_commit(&w->of, e);   /* replaces an old take only now */
  else outfile_abort(&w->of);
  for (int k = 0; k < 2; k++)
    for (int s = 0; s < TAKE_NSTREAM; s++) free(w->buf[k].col[s]);
  free_pending(w->pend);
  pthread_mutex_destroy(&w->mu);
  pthread_cond_destroy(&w->cv);
  free(w->path);
  free(w);
  return rc;
}

/*---- reader ----*/

struct take_reader {
  sqlite3* db;
  char* path;
  take_schema schema;
  char** names[TAKE_NSTREAM];
  char** units[TAKE_NSTREAM];
  int ncols[TAKE_NSTREAM];
  char** parents;
  long nsteps;
  int complete;
  char* reason;
  char** mkey;
  char** mval;
  int nmeta;
  char **skind, **sname, **stext;
  int nsrc;
  take_event* ev;
  int nev;
  /* one decoded chunk per stream, for sequential reads */
  long cached_chunk[TAKE_NSTREAM];
  long cached_step0[TAKE_NSTREAM], cached_n[TAKE_NSTREAM];
  double* cache[TAKE_NSTREAM];
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
  for (int i = 0; i < r->schema.nbody; i++) {
    free(r->parents[i]);
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
  free(r->path);
  free(r);
}

take_reader* take_open(const char* path, mt_err* e) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    mt_fail(e, MT_EINPUT, "%s: cannot open", path);
    return NULL;
  }
  outfile_note_input(path);   /* an input is never an output (sim/outfile.h) */
  char magic[16] = {0};
  size_t got = fread(magic, 1, 16, f);
  fclose(f);
  if (got < 16 || memcmp(magic, "SQLite format 3", 16) != 0) {
    mt_fail(e, MT_EINPUT, "%s: not a take (not an SQLite database)", path);
    return NULL;
  }
  take_reader* r = mt_alloc(sizeof *r);
  r->path = mt_strdup(path);
  for (int s = 0; s < TAKE_NSTREAM; s++) r->cached_chunk[s] = -1;
  /* Read-write when allowed: a take left by a killed run has a hot journal, which SQLite must
   * roll back before anyone can read it. We never write to it. */
  if (sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
    sqlite3_close(r->db);
    r->db = NULL;
    if (sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
      mt_fail(e, MT_EINPUT, "%s: cannot open the take: %s", path, sqlite3_errmsg(r->db));
      take_close(r);
      return NULL;
    }
  }
  sqlite3_stmt* st;
  /* metadata */
  if (sqlite3_prepare_v2(r->db, "SELECT key, value FROM meta", -1, &st, NULL) != SQLITE_OK) {
    mt_fail(e, MT_EINPUT, "%s: not a take (%s)", path, sqlite3_errmsg(r->db));
    take_close(r);
    return NULL;
  }
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    r->mkey = mt_realloc(r->mkey, sizeof(char*) * (r->nmeta + 1));
    r->mval = mt_realloc(r->mval, sizeof(char*) * (r->nmeta + 1));
    r->mkey[r->nmeta] = col_text(st, 0);
    r->mval[r->nmeta] = col_text(st, 1);
    r->nmeta++;
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) {
    mt_fail(e, MT_EINPUT, "%s: damaged take: %s", path, sqlite3_errmsg(r->db));
    take_close(r);
    return NULL;
  }
  const char* fmt = take_meta(r, "format");
  const char* ver = take_meta(r, "format_version");
  if (!fmt || strcmp(fmt, "mototake take") != 0 || !ver) {
    mt_fail(e, MT_EINPUT, "%s: not a take (an SQLite database without mototake's metadata)", path);
    take_close(r);
    return NULL;
  }
  if (atoi(ver) > TAKE_FORMAT_VERSION) {
    mt_fail(e, MT_EINPUT, "%s: take format version %s is newer than this program reads (%d)", path, ver, TAKE_FORMAT_VERSION);
    take_close(r);
    return NULL;
  }
  r->schema.timestep = take_meta(r, "timestep") ? atof(take_meta(r, "timestep")) : 0;
  /* columns */
  for (int s = 0; s < TAKE_NSTREAM; s++) {
    sqlite3_prepare_v2(r->db, "SELECT name, units FROM columns WHERE stream = ? ORDER BY idx", -1, &st, NULL);
    sqlite3_bind_text(st, 1, STREAM_NAME[s], -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
      int n = r->ncols[s];
      r->names[s] = mt_realloc(r->names[s], sizeof(char*) * (n + 1));
      r->units[s] = mt_realloc(r->units[s], sizeof(char*) * (n + 1));
      r->names[s][n] = col_text(st, 0);
      r->units[s][n] = col_text(st, 1);
      r->ncols[s]++;
    }
    sqlite3_finalize(st);
  }
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
    /* "frame.x" → "frame": the names live in the pose columns */
    char* nm = r->names[TAKE_POSE][7 * b];
    char* dot = strrchr(nm, '.');
    char key[160];
    snprintf(key, sizeof key, "parent.%.*s", (int)(dot ? dot - nm : (long)strlen(nm)), nm);
    r->parents[b] = mt_strdup(take_meta(r, key) ? take_meta(r, key) : "");
    ((char**)r->schema.body_names)[b] = NULL;
  }
  /* body names: kept as "name" strings without the part suffix */
  for (int b = 0; b < r->schema.nbody; b++) {
    char* nm = r->names[TAKE_POSE][7 * b];
    char* dot = strrchr(nm, '.');
    size_t n = dot ? (size_t)(dot - nm) : strlen(nm);
    char* s = mt_alloc(n + 1);
    memcpy(s, nm, n);
    /* store in the parents array's twin: reuse body_names storage */
    ((char**)r->schema.body_names)[b] = s;
  }
  r->schema.body_parents = (const char**)r->parents;
  /* status */
  sqlite3_prepare_v2(r->db, "SELECT complete, reason, nsteps FROM status WHERE id = 1", -1, &st, NULL);
  if (sqlite3_step(st) == SQLITE_ROW) {
    r->complete = sqlite3_column_int(st, 0);
    r->reason = col_text(st, 1);
    r->nsteps = sqlite3_column_int64(st, 2);
  } else {
    r->reason = mt_strdup("no status");
  }
  sqlite3_finalize(st);
  /* a killed run may have committed chunks past the last status update: trust the chunks */
  sqlite3_prepare_v2(r->db, "SELECT MAX(step0 + nsteps) FROM chunks WHERE stream = 'state'", -1, &st, NULL);
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
    long n = sqlite3_column_int64(st, 0);
    if (n < r->nsteps || !r->complete) r->nsteps = n;
  } else {
    r->nsteps = 0;
  }
  sqlite3_finalize(st);
  /* sources and events */
  sqlite3_prepare_v2(r->db, "SELECT kind, name, text FROM sources ORDER BY id", -1, &st, NULL);
  while (sqlite3_step(st) == SQLITE_ROW) {
    r->skind = mt_realloc(r->skind, sizeof(char*) * (r->nsrc + 1));
    r->sname = mt_realloc(r->sname, sizeof(char*) * (r->nsrc + 1));
    r->stext = mt_realloc(r->stext, sizeof(char*) * (r->nsrc + 1));
    r->skind[r->nsrc] = col_text(st, 0);
    r->sname[r->nsrc] = col_text(st, 1);
    r->stext[r->nsrc] = col_text(st, 2);
    r->nsrc++;
  }
  sqlite3_finalize(st);
  sqlite3_prepare_v2(r->db, "SELECT step, kind, json FROM events ORDER BY id", -1, &st, NULL);
  while (sqlite3_step(st) == SQLITE_ROW) {
    r->ev = mt_realloc(r->ev, sizeof(take_event) * (r->nev + 1));
    take_event* ev = &r->ev[r->nev++];
    memset(ev, 0, sizeof *ev);
    ev->step = sqlite3_column_int64(st, 0);
    snprintf(ev->kind, sizeof ev->kind, "%s", sqlite3_column_text(st, 1) ? (const char*)sqlite3_column_text(st, 1) : "");
    ev->json = col_text(st, 2);
  }
  sqlite3_finalize(st);
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
int take_nsources(const take_reader* r) { return r->nsrc; }
void take_source_at(const take_reader* r, int i, const char** kind, const char** name, const char** text) {
  *kind = r->skind[i];
  *name = r->sname[i];
  *text = r->stext[i];
}
const char* take_overrides(const take_reader* r) { return take_meta(r, "overrides"); }
int take_nevents(const take_reader* r) { return r->nev; }
const take_event* take_event_at(const take_reader* r, int i) { return &r->ev[i]; }
int take_ncols(const take_reader* r, int stream) { return r->ncols[stream]; }

static int load_chunk(take_reader* r, int s, long chunk, mt_err* e) {
  if (r->cached_chunk[s] == chunk) return MT_OK;
  sqlite3_stmt* st;
  sqlite3_prepare_v2(r->db, "SELECT step0, nsteps, ncols, codec, raw_bytes, crc32, data FROM chunks WHERE stream = ? AND chunk = ?",
                     -1, &st, NULL);
  sqlite3_bind_text(st, 1, STREAM_NAME[s], -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, chunk);
  int rc = sqlite3_step(st);
  if (rc != SQLITE_ROW) {
    const char* why = rc == SQLITE_DONE ? "missing" : sqlite3_errmsg(r->db);
    mt_fail(e, MT_EINPUT, "%s: chunk %ld of stream %s: %s", r->path, chunk, STREAM_NAME[s], why);
    sqlite3_finalize(st);
    return MT_EINPUT;
  }
  long step0 = sqlite3_column_int64(st, 0), n = sqlite3_column_int64(st, 1);
  int nc = sqlite3_column_int(st, 2), codec = sqlite3_column_int(st, 3);
  long raw = sqlite3_column_int64(st, 4);
  uLong crc_want = (uLong)sqlite3_column_int64(st, 5);
  const void* blob = sqlite3_column_blob(st, 6);
  int len = sqlite3_column_bytes(st, 6);
  if (nc != r->ncols[s] || n <= 0 || n > 10 * TAKE_CHUNK_STEPS || (codec != 0 && codec != 2 && codec != 3) ||
      raw != (long)codec_width(codec) * nc * n) {
    sqlite3_finalize(st);
    return mt_fail(e, MT_EINPUT, "%s: chunk %ld of stream %s: inconsistent header", r->path, chunk, STREAM_NAME[s]);
  }
  double* col = mt_alloc(sizeof(double) * nc * n + 8);
  uLong crc;
  if (decode(blob, (size_t)len, codec, nc, n, col, &crc) != 0) {
    free(col);
    sqlite3_finalize(st);
    return mt_fail(e, MT_EINPUT, "%s: chunk %ld of stream %s: cannot be decompressed (damaged)", r->path, chunk, STREAM_NAME[s]);
  }
  sqlite3_finalize(st);
  if (crc != crc_want) {
    free(col);
    return mt_fail(e, MT_EINPUT, "%s: chunk %ld of stream %s: checksum mismatch (crc 0x%08lx != 0x%08lx)", r->path, chunk,
                   STREAM_NAME[s], crc, crc_want);
  }
  free(r->cache[s]);
  r->cache[s] = col;
  r->cached_chunk[s] = chunk;
  r->cached_step0[s] = step0;
  r->cached_n[s] = n;
  return MT_OK;
}

int take_read(take_reader* r, int s, long step0, long n, double* out, mt_err* e) {
  if (step0 < 0 || step0 + n > r->nsteps)
    return mt_fail(e, MT_EINPUT, "%s: steps %ld..%ld are outside the take (0..%ld)", r->path, step0, step0 + n, r->nsteps);
  int nc = r->ncols[s];
  long i = 0;
  while (i < n) {
    long step = step0 + i, chunk = step / TAKE_CHUNK_STEPS;
    if (load_chunk(r, s, chunk, e)) return MT_EINPUT;
    long off = step - r->cached_step0[s], cn = r->cached_n[s];
    if (off < 0 || off >= cn) return mt_fail(e, MT_EINPUT, "%s: chunk %ld of stream %s: wrong steps", r->path, chunk, STREAM_NAME[s]);
    long take = cn - off < n - i ? cn - off : n - i;
    for (long k = 0; k < take; k++)
      for (int j = 0; j < nc; j++) out[(i + k) * nc + j] = r->cache[s][(size_t)j * cn + off + k];
    i += take;
  }
  return MT_OK;
}

int take_write_cut(take_reader* r, long step0, long n, const char* path, const char* note, mt_err* e) {
  take_schema s = r->schema;
  take_source* src = mt_alloc(sizeof(take_source) * (r->nsrc + 1));
  for (int i = 0; i < r->nsrc; i++) src[i] = (take_source){r->skind[i], r->sname[i], r->stext[i]};
  take_writer* w = take_writer_open(path, &s, src, r->nsrc, take_overrides(r), e);   /* the output rule */
  free(src);
  if (!w) return e->code ? e->code : MT_EINTERNAL;
  static const char* skip[] = {"format", "format_version", "timestep", "nstate", "chunk_steps", "overrides", NULL};
  for (int i = 0; i < r->nmeta; i++) {
    int k = 0;
    for (const char** q = skip; *q; q++) k |= strcmp(*q, r->mkey[i]) == 0;
    if (!k) take_writer_meta(w, r->mkey[i], r->mval[i], e);
  }
  take_writer_meta(w, "cut_from", note, e);
  int nst = s.nstate, ni = s.ninput, np = 7 * s.nbody, nc = s.nchan;
  double* buf = mt_alloc(sizeof(double) * (nst + ni + np + nc + 4));
  int rc = MT_OK;
  for (long i = 0; i < n && !rc; i++) {
    rc = take_read(r, TAKE_STATE, step0 + i, 1, buf, e) || take_read(r, TAKE_INPUT, step0 + i, 1, buf + nst, e) ||
         take_read(r, TAKE_POSE, step0 + i, 1, buf + nst + ni, e) || take_read(r, TAKE_CHAN, step0 + i, 1, buf + nst + ni + np, e);
    if (!rc) rc = take_writer_step(w, buf, buf + nst, buf + nst + ni, buf + nst + ni + np, e);
  }
  for (int i = 0; i < r->nev && !rc; i++)
    if (r->ev[i].step >= step0 && r->ev[i].step < step0 + n) take_writer_event(w, r->ev[i].step - step0, r->ev[i].kind, r->ev[i].json, e);
  free(buf);
  if (rc) {
    take_writer_discard(w);   /* nothing half-cut is left; an old file at path is kept */
    return rc;
  }
  return take_writer_close(w, r->complete, r->reason, e);
}
