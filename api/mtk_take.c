/* mtk_take.c — the take side of libmototake (api/mototake.h, "takes"): a thin door over the
 * replay layer. Every check and every number is the commands' own: take_open (the hardened reader
 * and the rig-step check), take_read (stored and rebuilt streams), takes/take_sample.h (what
 * `take channels` computes for --channels, --from/--to, --rate), takes/verify.h. Streams are read a
 * second of steps at a time into a scratch block and scattered into the caller's arrays, so a
 * whole lap never needs a second copy of itself. */
#include "api/mototake.h"
#include "api/mtk_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "takes/take_replay.h"
#include "takes/take_sample.h"
#include "takes/verify.h"

struct mtk_take {
  take_reader* r;
  char path[4096];
  char (*state_names)[16];   /* "x0", "x1", … (the writer's names for the state's columns) */
  char* verify_text;
};

/*---- opening, metadata, names ----*/

mtk_take* mtk_take_open(const char* path) {
  api_clear_error();
  mt_err e = {0};
  if (!path) {
    mt_fail(&e, MT_EINPUT, "take: no path given");
    api_fail(&e);
    return NULL;
  }
  take_reader* r = take_open(path, &e);
  if (!r) {
    api_fail(&e);
    return NULL;
  }
  mtk_take* t = mt_alloc(sizeof *t);
  t->r = r;
  snprintf(t->path, sizeof t->path, "%s", path);
  int ns = take_schema_of(r)->nstate;
  t->state_names = mt_alloc(sizeof *t->state_names * (ns ? ns : 1));
  for (int i = 0; i < ns; i++) snprintf(t->state_names[i], sizeof t->state_names[i], "x%d", i);
  return t;
}

void mtk_take_close(mtk_take* t) {
  if (!t) return;
  take_close(t->r);
  free(t->state_names);
  free(t->verify_text);
  free(t);
}

int mtk_take_nmeta(const mtk_take* t) { return take_nmeta(t->r); }
int mtk_take_meta_at(const mtk_take* t, int i, const char** key, const char** value) {
  if (i < 0 || i >= take_nmeta(t->r)) return MTK_EINPUT;
  take_meta_at(t->r, i, key, value);
  return MTK_OK;
}
long mtk_take_nsteps(const mtk_take* t) { return take_nsteps(t->r); }
double mtk_take_timestep(const mtk_take* t) { return take_schema_of(t->r)->timestep; }
int mtk_take_complete(const mtk_take* t, const char** reason) { return take_complete(t->r, reason); }

static const char* name_at(const char** names, int n, int i) { return i >= 0 && i < n ? names[i] : NULL; }
int mtk_take_nchannels(const mtk_take* t) { return take_schema_of(t->r)->nchan; }
const char* mtk_take_channel_name(const mtk_take* t, int i) {
  return name_at(take_schema_of(t->r)->chan_names, take_schema_of(t->r)->nchan, i);
}
const char* mtk_take_channel_units(const mtk_take* t, int i) {
  return name_at(take_schema_of(t->r)->chan_units, take_schema_of(t->r)->nchan, i);
}
int mtk_take_channel_index(mtk_take* t, const char* name) {
  api_clear_error();
  mt_err e = {0};
  int k = take_chan_find(take_schema_of(t->r), name ? name : "", &e);
  if (k < 0) api_fail(&e);
  return k;
}
int mtk_take_nbodies(const mtk_take* t) { return take_schema_of(t->r)->nbody; }
const char* mtk_take_body_name(const mtk_take* t, int i) {
  return name_at(take_schema_of(t->r)->body_names, take_schema_of(t->r)->nbody, i);
}
int mtk_take_nstate(const mtk_take* t) { return take_schema_of(t->r)->nstate; }
const char* mtk_take_state_name(const mtk_take* t, int i) {
  return i >= 0 && i < take_schema_of(t->r)->nstate ? t->state_names[i] : NULL;
}

/*---- ranges ----*/

/* [t0, t1] (NaN: the take's start / end) as steps [*a, *b), checked as `take channels` checks it. */
static int range_of(mtk_take* t, const char* who, double t0, double t1, long* a, long* b, mt_err* e) {
  double dur = take_nsteps(t->r) * take_schema_of(t->r)->timestep;
  return take_step_range(t->r, who, isnan(t0) ? 0 : t0, isnan(t1) ? dur : t1, a, b, e);
}

static int rate_of(mtk_take* t, double rate, mt_err* e) {
  return take_rate_ok(take_schema_of(t->r), "take channels", rate != 0, rate, e);
}

long mtk_take_channel_rows(mtk_take* t, double rate, double t0, double t1) {
  api_clear_error();
  mt_err e = {0};
  long a, b;
  if (range_of(t, "take channels", t0, t1, &a, &b, &e) || rate_of(t, rate, &e)) return api_fail(&e), -1;
  if (rate == 0) return b - a;
  take_resample rs;
  take_resample_init(&rs, a, b - a, take_schema_of(t->r)->timestep, rate);
  return rs.rows;
}

long mtk_take_rows(mtk_take* t, double t0, double t1) {
  api_clear_error();
  mt_err e = {0};
  long a, b;
  if (range_of(t, "take", t0, t1, &a, &b, &e)) return api_fail(&e), -1;
  return b - a;
}

static int rows_mismatch(long rows, long want, mt_err* e) {
  if (rows == want) return MT_OK;
  return mt_fail(e, MT_EINPUT, "take: %ld rows given for %ld rows of data", rows, want);
}

/*---- channels ----*/

/* Full rate: block by block (a second of steps), each selected column scattered to its row. */
static int channels_full(take_reader* r, const int* idx, int n, long a, long rows, double* time, double* out, mt_err* e) {
  const take_schema* s = take_schema_of(r);
  long blk = (long)ceil(1 / s->timestep), nc = s->nchan;
  double* buf = mt_alloc(sizeof(double) * nc * blk);
  int rc = MT_OK;
  for (long i0 = 0; i0 < rows && !rc; i0 += blk) {
    long m = rows - i0 < blk ? rows - i0 : blk;
    if ((rc = take_read(r, TAKE_CHAN, a + i0, m, buf, e))) break;
    for (int k = 0; k < n; k++) {
      double* col = out + (long)k * rows + i0;
      const double* src = buf + idx[k];
      for (long i = 0; i < m; i++) col[i] = src[i * nc];
    }
    if (time)
      for (long i = 0; i < m; i++) time[i0 + i] = (a + i0 + i) * s->timestep;   /* as the CSV's time column */
  }
  free(buf);
  return rc;
}

/* Resampled: rows in order need steps i and i + 1 of the range; a block holds steps [s0, s0 + m]
 * (one step of overlap with the next) so every row's pair lies in one block. */
static int channels_resampled(take_reader* r, const int* idx, int n, long a, long nst, double rate, long rows,
                              double* time, double* out, mt_err* e) {
  const take_schema* s = take_schema_of(r);
  long blk = (long)ceil(1 / s->timestep), nc = s->nchan, s0 = -1, m = 0;
  double* buf = mt_alloc(sizeof(double) * nc * (blk + 1));
  take_resample rs;
  take_resample_init(&rs, a, nst, s->timestep, rate);
  int rc = MT_OK;
  for (long j = 0; j < rows && !rc; j++) {
    double t, w, u;
    long i;
    take_resample_row(&rs, j, &t, &i, &w, &u);
    long i1 = nst > 1 ? i + 1 : i;
    if (s0 < 0 || i < s0 || i1 >= s0 + m) {   /* load the block that starts at step i */
      s0 = i;
      m = nst - s0 < blk + 1 ? nst - s0 : blk + 1;
      if ((rc = take_read(r, TAKE_CHAN, a + s0, m, buf, e))) break;
    }
    const double *p0 = buf + (i - s0) * nc, *p1 = buf + (i1 - s0) * nc;
    for (int k = 0; k < n; k++) {
      double v0 = p0[idx[k]], v1 = p1[idx[k]];
      out[(long)k * rows + j] = take_resample_lerp(v0, v1, w);   /* as take channels writes it */
    }
    if (time) time[j] = t;
  }
  free(buf);
  return rc;
}

int mtk_take_channels(mtk_take* t, const int* idx, int n, double rate, double t0, double t1, double* time, double* out,
                      long rows) {
  api_clear_error();
  mt_err e = {0};
  long a, b, want = mtk_take_channel_rows(t, rate, t0, t1);
  if (want < 0) return MTK_EINPUT;
  int nc = take_schema_of(t->r)->nchan;
  for (int k = 0; k < n; k++)
    if (idx[k] < 0 || idx[k] >= nc) {
      mt_fail(&e, MT_EINPUT, "take channels: channel index %d is not one of the take's %d", idx[k], nc);
      return api_fail(&e);
    }
  if (rows_mismatch(rows, want, &e) || range_of(t, "take channels", t0, t1, &a, &b, &e)) return api_fail(&e);
  int rc = rate == 0 ? channels_full(t->r, idx, n, a, rows, time, out, &e)
                     : channels_resampled(t->r, idx, n, a, b - a, rate, rows, time, out, &e);
  return rc ? api_fail(&e) : MTK_OK;
}

/*---- poses and the state ----*/

int mtk_take_poses(mtk_take* t, int body, double t0, double t1, double* time, double* out, long rows) {
  api_clear_error();
  mt_err e = {0};
  const take_schema* s = take_schema_of(t->r);
  long a, b;
  if (body < 0 || body >= s->nbody) {
    mt_fail(&e, MT_EINPUT, "%s: body index %d is not one of the take's %d bodies", t->path, body, s->nbody);
    return api_fail(&e);
  }
  if (range_of(t, "take", t0, t1, &a, &b, &e) || rows_mismatch(rows, b - a, &e)) return api_fail(&e);
  long blk = (long)ceil(1 / s->timestep), nc = take_ncols(t->r, TAKE_POSE);
  double* buf = mt_alloc(sizeof(double) * nc * blk);
  int rc = MT_OK;
  for (long i0 = 0; i0 < rows && !rc; i0 += blk) {
    long m = rows - i0 < blk ? rows - i0 : blk;
    if ((rc = take_read(t->r, TAKE_POSE, a + i0, m, buf, &e))) break;
    for (long i = 0; i < m; i++) {
      memcpy(out + (i0 + i) * 7, buf + i * nc + 7L * body, 7 * sizeof(double));
      if (time) time[i0 + i] = (a + i0 + i) * s->timestep;
    }
  }
  free(buf);
  return rc ? api_fail(&e) : MTK_OK;
}

int mtk_take_state(mtk_take* t, double t0, double t1, double* out, long rows) {
  api_clear_error();
  mt_err e = {0};
  long a, b;
  if (range_of(t, "take", t0, t1, &a, &b, &e) || rows_mismatch(rows, b - a, &e)) return api_fail(&e);
  /* the stored stream as the reader decodes it: row-major step × nstate, the file's bits */
  return take_read(t->r, TAKE_STATE, a, b - a, out, &e) ? api_fail(&e) : MTK_OK;
}

/*---- events and verify ----*/

int mtk_take_nevents(const mtk_take* t) { return take_nevents(t->r); }
int mtk_take_event_at(const mtk_take* t, int i, long* step, const char** kind, const char** json) {
  if (i < 0 || i >= take_nevents(t->r)) return MTK_EINPUT;
  const take_event* ev = take_event_at(t->r, i);
  if (step) *step = ev->step;
  if (kind) *kind = ev->kind;
  if (json) *json = ev->json;
  return MTK_OK;
}

int mtk_take_verify(mtk_take* t, int* ok, const char** text, long* first_bad, long* checked, long* resimulated,
                    int* other_build) {
  api_clear_error();
  mt_err e = {0};
  verify_report vr;
  if (take_verify(t->path, &vr, 1, &e)) return api_fail(&e);
  mt_sb out = {0};
  int rc = take_verify_text(t->path, &vr, &out, &e);
  if (e.code) {
    free(out.p);
    return api_fail(&e);
  }
  free(t->verify_text);
  t->verify_text = out.p ? out.p : mt_strdup("");
  if (ok) *ok = rc == 0;
  if (text) *text = t->verify_text;
  if (first_bad) *first_bad = vr.first_bad;
  if (checked) *checked = vr.checked;
  if (resimulated) *resimulated = vr.resimulated;
  if (other_build) *other_build = vr.other_build;
  return MTK_OK;
}
