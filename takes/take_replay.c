/* take_replay.c — a take opened and read with its machine rebuilt on top of the reader (see
 * take_replay.h). */
#include "takes/take_replay.h"

#include <math.h>
#include <stdlib.h>

#include "base/progress.h"
#include "sim/rig.h"
#include "takes/recorder.h"
#include "takes/replay.h"
#include "takes/takechan.h"
#include "takes/takepose.h"

/* The take's machine, rebuilt from its embedded rig and modules with its overrides, must load and
 * step with exactly meta timestep: the run wrote its rig's step there (%.17g, which reads back
 * exactly), and every reader replays the take with the take's step, its rebuilt machine with the
 * rig's. A take whose two differ (0.002 in a take recorded at 0.001: every time read doubled)
 * cannot be replayed as recorded by any command, so every command refuses it, here. */
static int check_rig_step(take_reader* r, mt_err* e) {
  mt_err re = {0};
  rig* rg = replay_rig(r, 1, &re);
  if (!rg) return mt_fail(e, MT_EINPUT, "%s: sources: the embedded rig does not load: %s", take_path(r), re.msg);
  double h = rg->timestep;
  rig_free(rg);
  if (h != take_schema_of(r)->timestep)
    return mt_fail(e, MT_EINPUT, "%s: meta timestep '%.40s' is not the take's rig's step (%.17g s, from its embedded sources and overrides)",
                   take_path(r), take_meta(r, "timestep"), h);
  return MT_OK;
}

take_reader* take_open(const char* path, mt_err* e) {
  take_reader* r = take_reader_open(path, e);
  if (r && check_rig_step(r, e)) {   /* last: it needs the sources */
    take_close(r);
    return NULL;
  }
  return r;
}

/* The rebuilt machines of one reader, each made on its stream's first read (take_attach'd). */
typedef struct replay_cache {
  takepose* tp;                     /* format 3: poses rebuilt from the state */
  double* tp_state;                 /* one state row for it */
  takechan* tc;                     /* format 4: channels rebuilt */
  double* tc_row;                   /* state, input and context rows for it */
} replay_cache;

static void replay_cache_free(void* p) {
  replay_cache* k = p;
  takepose_free(k->tp);
  free(k->tp_state);
  takechan_free(k->tc);
  free(k->tc_row);
  free(k);
}

static replay_cache* replay_cache_of(take_reader* r) {
  replay_cache* k = take_attached(r);
  if (!k) {
    k = mt_alloc(sizeof *k);
    take_attach(r, k, replay_cache_free);
  }
  return k;
}

/* Format 3: the poses of steps [step0, step0 + n) from the state stream (takes/takepose.h); the
 * machine is rebuilt from the embedded sources on the first call. */
static int read_poses(take_reader* r, replay_cache* k, long step0, long n, double* out, mt_err* e) {
  if (!k->tp) {
    mt_err pe = {0};
    k->tp = takepose_new(r, &pe);
    if (!k->tp)
      return mt_fail(e, MT_EINPUT, "%s: stream 'pose': rebuilding the machine from the embedded sources: %s", take_path(r), pe.msg);
    k->tp_state = mt_alloc(sizeof(double) * (take_ncols(r, TAKE_STATE) + 1));
  }
  int np = take_ncols(r, TAKE_POSE);
  for (long i = 0; i < n; i++) {
    if (take_read_stored(r, TAKE_STATE, step0 + i, 1, k->tp_state, e)) return MT_EINPUT;
    takepose_fill(k->tp, k->tp_state, out + i * np);
  }
  return MT_OK;
}

/* Format 4: the channels of steps [step0, step0 + n) from the state, input and context streams
 * (takes/takechan.h); the machine and its road are rebuilt from the embedded sources on the
 * first call. */
static int read_chans(take_reader* r, replay_cache* k, long step0, long n, double* out, mt_err* e) {
  int nx = take_ncols(r, TAKE_STATE), ni = take_ncols(r, TAKE_INPUT), nc = take_ncols(r, TAKE_CHAN);
  if (!k->tc) {
    mt_err ce = {0};
    k->tc = takechan_new(r, &ce);
    if (!k->tc)
      return mt_fail(e, MT_EINPUT, "%s: stream 'chan': rebuilding the machine from the embedded sources: %s", take_path(r), ce.msg);
    k->tc_row = mt_alloc(sizeof(double) * (nx + ni + REC_NCTX + 1));
  }
  for (long i = 0; i < n; i++) {
    double *x = k->tc_row, *u = x + nx, *c = u + ni;
    if (take_read_stored(r, TAKE_STATE, step0 + i, 1, x, e) || take_read_stored(r, TAKE_INPUT, step0 + i, 1, u, e) ||
        take_read_stored(r, TAKE_CTX, step0 + i, 1, c, e))
      return MT_EINPUT;
    mt_err ce = {0};
    if (takechan_fill(k->tc, step0 + i, x, u, c, out + i * nc, &ce))
      return mt_fail(e, MT_EINPUT, "%s: stream 'chan': %s", take_path(r), ce.msg);
  }
  return MT_OK;
}

int take_read(take_reader* r, int s, long step0, long n, double* out, mt_err* e) {
  int rebuilt = (s == TAKE_POSE || s == TAKE_CHAN) && !take_stored(r, s);
  if (!rebuilt) return take_read_stored(r, s, step0, n, out, e);
  if (take_steps_ok(r, step0, n, e)) return MT_EINPUT;
  replay_cache* k = replay_cache_of(r);
  return s == TAKE_POSE ? read_poses(r, k, step0, n, out, e) : read_chans(r, k, step0, n, out, e);
}

int take_read_bar(take_reader* r, int stream, long step0, long nsteps, double* out, struct fprog* bar, double done0,
                  mt_err* e) {
  long blk = (long)ceil(1 / take_schema_of(r)->timestep), nc = take_ncols(r, stream);
  for (long i = 0; i < nsteps; i += blk) {
    int rc = take_read(r, stream, step0 + i, nsteps - i < blk ? nsteps - i : blk, out + i * nc, e);
    if (rc) return rc;
    fprog_tick(bar, done0 + (nsteps - i < blk ? nsteps : i + blk));
  }
  return MT_OK;
}
