/* verify.c — rebuild the machine from the take alone and re-simulate (see verify.h).
 *
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

#include "takes/verify.h"

#include "base/progress.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/track.h"
#include "sim/vehicle.h"
#include "takes/recorder.h"
#include "takes/replay.h"
#include "takes/ride.h"
#include "takes/stunt_replay.h"
#include "takes/takefile.h"


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

/* A later row at re-simulated station s. Returns the re-derived distance; lc->lap is the
 * re-derived lap. */
static double lap_count_step(lap_count* lc, double s) {
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


/* ---- the verifier: one take's re-simulation, stage by stage ---- */

typedef struct verifier {
  const char* path;
  verify_report* vr;
  take_reader* r;
  const take_schema* s;
  long n;                    /* steps */
  rig* rg;
  track* tk;
  vehicle* v;
  int nx, np, nc;
  int c_lap, c_dist, c_stunt;
  double *x, *pose, *chan, *in, *xt, *xscr;   /* x: recorded and re-simulated state; pose, chan: recorded then re-sampled */
  double *dmax, *dstep, *cmin, *cmax;         /* another build, after the divergence: per channel max |Δ|, its step, recorded min, max */
  int drifting;              /* another build past its first divergence */
  int clock_off;             /* the time channel disagrees: the check ends on any build */
  int ctx_only;              /* format 4: the context stored, the channels rebuilt */
  unsigned char is_ctx[256];
  int hint;                  /* the road query's hint */
  double t0, d0;             /* row 0's time and distance: the origin */
  lap_count lc;
  int rq;                    /* the next ride event the lap count has not seen */
  int ride_take;             /* a ride has no stunts: its stunt channel is 0 throughout (takes/ride.c) */
  stunt_replay sr;           /* a run take's stunt loop, followed beside the replay */
  ride_replay rr;            /* a take ridden by hand: its inputs re-derived from the recorded events */
  int ride;
  double lap_re, d_re;       /* this step's re-derived lap and distance */
} verifier;

/* A stage's verdict besides an error (MT_EINTERNAL, MT_EINPUT): carry on, or the check ends here. */
enum { VF_GO = MT_OK, VF_STOP = -1 };

/* A divergence at step i: recorded in the report; the check ends on the same build (VF_STOP),
 * another build measures the drift from here (VF_GO). */
static int diverged(verifier* f, long i, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
static int diverged(verifier* f, long i, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  f->vr->first_bad = i;
  vsnprintf(f->vr->what, sizeof f->vr->what, fmt, ap);
  va_end(ap);
  if (!f->vr->other_build || f->clock_off) return VF_STOP;
  f->drifting = 1;
  return VF_GO;
}

/* Open the take and rebuild its machine; the recorded columns must be the ones it records. */
static int vf_open(verifier* f, mt_err* e) {
  verify_report* vr = f->vr;
  const char* path = f->path;
  const char *pv = take_meta(f->r, "program_version"), *gr = take_meta(f->r, "git_revision");
  snprintf(vr->rec_by, sizeof vr->rec_by, "mototake %.40s (git %.40s)", pv ? pv : "?", gr ? gr : "?");
  snprintf(vr->rep_by, sizeof vr->rep_by, "mototake %s (git %s)", mt_version(), mt_git_rev());
  vr->other_build = !pv || !gr || strcmp(pv, mt_version()) || strcmp(gr, mt_git_rev());
  const take_schema* s = f->s = take_schema_of(f->r);
  f->n = take_nsteps(f->r);
  /* a take still being recorded is refused: verify reads it all, and a reader must never hold
   * the writer up for long */
  if (take_live(f->r))
    return mt_fail(e, MT_EINPUT, "%s: still being recorded by another mototake run; verify it when the run ends", path);
  int rc = take_check_all(f->r, e);
  if (!rc && f->n < 1) rc = mt_fail(e, MT_EINPUT, "%s: nothing to verify: the take holds no steps", path);
  if (!rc && (rc = replay_rebuild(f->r, 1, &f->rg, &f->tk, e))) {
    char why[sizeof e->msg];
    snprintf(why, sizeof why, "%s", e->msg);
    snprintf(e->msg, sizeof e->msg, "%s: rebuilding from the embedded sources: %s", path, why);
  }
  if (!rc && !(f->v = veh_new(f->rg, track_road(f->tk), 0, e))) rc = e->code;
  if (!rc && veh_state_size(f->v) != s->nstate)
    rc = mt_fail(e, MT_EINPUT, "%s: the take's state has %d values, the rebuilt machine %d", path, s->nstate, veh_state_size(f->v));
  /* the rebuilt rig's timestep is the take's: take_open holds every take to it */
  if (!rc) rc = check_names(path, "input", s->ninput, s->input_names, s->input_units, rec_ninput(), rec_inputs(), 1, e);
  if (!rc) rc = check_names(path, "chan", s->nchan, s->chan_names, s->chan_units, rec_nchan(), rec_channels(), 0, e);
  if (!rc && s->nbody != rec_nbody(f->rg))
    rc = mt_fail(e, MT_EINPUT, "%s: stream 'pose' has %d bodies, the rebuilt machine %d", path, s->nbody, rec_nbody(f->rg));
  for (int b = 0; !rc && b < s->nbody; b++)
    if (strcmp(s->body_names[b], rec_body_name(f->rg, b)) || strcmp(s->body_parents[b], rec_body_parent(f->rg, b)))
      rc = mt_fail(e, MT_EINPUT, "%s: body %d is '%.60s' (parent '%.60s'), the rebuilt machine's '%s' (parent '%s')", path, b,
                   s->body_names[b], s->body_parents[b], rec_body_name(f->rg, b), rec_body_parent(f->rg, b));
  return rc;
}

/* The buffers, the state of row 0, the lap count, the stunt loop and a ride's hands. */
static int vf_prepare(verifier* f, mt_err* e) {
  const take_schema* s = f->s;
  int nx = f->nx = s->nstate, np = f->np = 7 * s->nbody, nc = f->nc = s->nchan;
  f->c_lap = rec_chan_index("lap"), f->c_dist = rec_chan_index("distance"), f->c_stunt = rec_chan_index("stunt");
  f->x = mt_alloc(sizeof(double) * (nx * 4 + 2 * np + 2 * nc + s->ninput + 1));
  f->pose = f->x + 2 * nx, f->chan = f->pose + 2 * np, f->in = f->chan + 2 * nc, f->xt = f->in + s->ninput + 1;
  f->xscr = f->xt + nx;
  f->dmax = mt_alloc(sizeof(double) * 4 * nc);
  f->dstep = f->dmax + nc, f->cmin = f->dstep + nc, f->cmax = f->cmin + nc;
  for (int k = 0; k < nc; k++) f->dmax[k] = f->dstep[k] = 0, f->cmin[k] = INFINITY, f->cmax[k] = -INFINITY;
  f->ctx_only = f->vr->ctx_only = !take_stored(f->r, TAKE_CHAN);
  for (int k = 0; k < REC_NCTX; k++)
    if (rec_ctx_channel(k) < nc && rec_ctx_channel(k) < 256) f->is_ctx[rec_ctx_channel(k)] = 1;
  int rc = take_read(f->r, TAKE_STATE, 0, 1, f->x, e);
  if (rc) return rc;
  veh_set_state(f->v, f->x);
  veh_set_time(f->v, 0);
  f->hint = -1;
  f->lc = (lap_count){track_closed(f->tk), has_source(f->r, "ride"), track_length(f->tk), 0, 0, 0};
  f->ride_take = f->lc.ride;
  if (!f->ride_take && f->c_stunt >= 0 &&
      (rc = stunt_open_at_row0(&f->sr, f->r, f->path, f->ctx_only, f->chan, nc, f->c_stunt, s->timestep, e)))
    return rc;
  stunt_replay_attach(&f->sr, f->v, f->in, s->ninput);
  f->vr->stunt_unknown = f->sr.on && !f->sr.known;
  f->ride = ride_replay_open(&f->rr, f->r, f->rg, f->tk, f->x, f->v, e);
  if (f->ride < 0) {
    char why[sizeof e->msg];
    snprintf(why, sizeof why, "%s", e->msg);
    snprintf(e->msg, sizeof e->msg, "%s: %s", f->path, why);
    f->ride = 0;
    return MT_EINPUT;
  }
  return MT_OK;
}

/* Step i: the inputs of row i take state i to state i + 1 (takes/run.c). A ride's inputs are
 * re-ridden from its events and must be the recorded ones. */
static int vf_advance(verifier* f, long i, mt_err* e) {
  vehicle* v = f->v;
  int rc = take_read(f->r, TAKE_INPUT, i, 1, f->in, e);
  if (rc) return rc;
  if (f->ride && i == 0) ride_replay_before(&f->rr, v, 0);
  if (!f->ride) rec_input_apply(f->in, f->s->ninput, &v->in);
  veh_set_time(v, i * f->s->timestep);
  veh_get_state(v, f->xt);
  if ((rc = veh_step(v, e))) {
    if (!f->drifting) return rc;
    snprintf(f->vr->stopped, sizeof f->vr->stopped, "the re-simulation failed at step %ld: %.200s", i, e->msg);
    e->code = MT_OK;
    return VF_STOP;
  }
  f->vr->resimulated = i + 1;
  if (f->ride && !f->drifting) {
    double rin[32];
    rec_input_values(&v->in, rin);
    int k = 0;
    while (k < f->s->ninput && memcmp(&rin[k], &f->in[k], sizeof(double)) == 0) k++;
    if (k < f->s->ninput)
      return diverged(f, i, "input %s re-ridden from the events: recorded %.17g, re-ridden %.17g", f->s->input_names[k],
                      f->in[k], rin[k]);
  }
  return VF_GO;
}

/* Row i as recorded (pose, and the channels or, in a format-4 take, the context) and as
 * re-sampled after the step into pose + np and chan + nc, with the runner's context derived as
 * takes/run.c derives it; lap and distance re-derived from row 0's. */
static int vf_sample(verifier* f, long i, mt_err* e) {
  vehicle* v = f->v;
  int nc = f->nc, rc;
  double* chan = f->chan;
  if ((rc = take_read(f->r, TAKE_POSE, i, 1, f->pose, e))) return rc;
  /* format 4 stores the context, not the channels: a rebuilt channel is this re-simulation's own
   * computation from the same state, so only the context is compared (until a drift, when the
   * rebuilt channels are the recording's reference) */
  if (f->ctx_only && !f->drifting) {
    double cx[REC_NCTX];
    if ((rc = take_read(f->r, TAKE_CTX, i, 1, cx, e))) return rc;
    for (int k = 0; k < nc; k++) chan[k] = NAN;
    rec_ctx_scatter(cx, chan);
  } else if ((rc = take_read(f->r, TAKE_CHAN, i, 1, chan, e)))
    return rc;
  double fp[3], fq[4];
  veh_body_pose(v, f->rg->b_frame, fp, fq);
  road_point rp;
  v->road.query(v->road.self, fp[0], fp[1], f->hint, &rp);
  f->hint = rp.hint;
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  double acc[3];
  veh_frame_accel(v, acc);
  rec_context ctx = {0};
  ctx.station = rp.s;
  ctx.offset = rp.offset;
  ctx.ax = acc[0] * cos(yaw) + acc[1] * sin(yaw);
  ctx.ay = -acc[0] * sin(yaw) + acc[1] * cos(yaw);
  ctx.lap = f->c_lap >= 0 ? (int)chan[f->c_lap] : 0;
  ctx.distance = f->c_dist >= 0 ? chan[f->c_dist] : 0;
  ctx.stunt = f->c_stunt >= 0 ? (int)chan[f->c_stunt] : 0;
  rec_sample_instant(v, f->xt, f->xscr, &ctx, f->pose + f->np, chan + nc);
  /* time: a cut keeps its original's clock, so the first row sets the origin */
  if (i == 0) f->t0 = chan[0];
  /* lap and distance: likewise, re-derived from row 0's (copied into ctx above, which is what the
   * sampled channels read; the re-derived values are checked by vf_compare) */
  f->lap_re = f->d_re = 0;
  if (f->c_lap >= 0 && f->c_dist >= 0) {
    if (i == 0) lap_count_origin(&f->lc, chan[f->c_lap], f->d0 = chan[f->c_dist], rp.s);
    else {
      /* a ride's restart and recover events applied before this step (ride_replay_before), in
       * their order, as takes/ride.c's ride_event_at keeps its count: a restart starts over, a
       * recover goes on from its station */
      for (; f->ride && f->rq < f->rr.nev && f->rr.ev[f->rq].step <= i; f->rq++) {
        const ride_event* ev = &f->rr.ev[f->rq];
        if (ev->step != i) continue;
        if (ev->type == RIDE_EV_RESTART) f->lc.lap = 0, f->lc.prev_s = f->lc.start;
        else if (ev->type == RIDE_EV_RECOVER) f->lc.prev_s = ride_station(f->tk, ev->a);
      }
      f->d_re = lap_count_step(&f->lc, rp.s);
    }
    f->lap_re = f->lc.lap;
    if (i == 0) f->d_re = chan[f->c_dist];
  }
  chan[nc] = f->t0 + i * f->s->timestep;
  return VF_GO;
}

/* The first recorded channel that differs from its re-sampled value (time within its rounding,
 * on a whole step), −1 none. */
static int first_bad_channel(const verifier* f) {
  const double* chan = f->chan;
  int nc = f->nc;
  for (int k = 0; k < nc; k++) {
    if (f->ctx_only && !f->is_ctx[k]) continue;
    if (k == 0 ? !(fabs(chan[0] - chan[nc]) <= 1e-6 * fmax(1, fabs(chan[nc])) && f->t0 >= 0 &&
                   fabs(f->t0 / f->s->timestep - nearbyint(f->t0 / f->s->timestep)) < 1e-3)
               : !same_float(chan[k], chan[nc + k]))
      return k;
  }
  return -1;
}

/* Row i compared: poses, channels, the re-derived bookkeeping, and the stored context against the
 * stored channels. */
static int vf_compare(verifier* f, long i, mt_err* e) {
  const take_schema* s = f->s;
  double *chan = f->chan, *pose = f->pose;
  int nc = f->nc, np = f->np;
  if (memcmp(pose, pose + np, sizeof(double) * np) != 0) {
    int k = 0;
    while (k < np && memcmp(&pose[k], &pose[np + k], sizeof(double)) == 0) k++;
    if (diverged(f, i, "pose %s (body %s): recorded %.17g, re-simulated %.17g", POSE_PART[k % 7], s->body_names[k / 7],
                 pose[k], pose[np + k]))
      return VF_STOP;
  }
  int kbad = f->drifting ? -1 : first_bad_channel(f);
  f->clock_off = kbad == 0;   /* a clock that disagrees ends the check on any build */
  if (kbad >= 0 && diverged(f, i, "channel %s: recorded %.9g, re-simulated %.9g", s->chan_names[kbad], chan[kbad], chan[nc + kbad]))
    return VF_STOP;
  /* the bookkeeping channels, re-derived (lap exactly, distance to its float32 rounding, the stunt) */
  int c_lap = f->c_lap, c_dist = f->c_dist, c_stunt = f->c_stunt;
  if (!f->drifting && c_lap >= 0 && c_dist >= 0) {
    double st_re = c_stunt < 0               ? 0
                   : f->sr.on && f->sr.known ? stunt_replay_kind(&f->sr)
                   : f->ride_take            ? 0
                                             : chan[c_stunt];
    int kb = !(chan[c_lap] == f->lap_re)                     ? c_lap
             : !distance_agrees(chan[c_dist], f->d_re, f->d0) ? c_dist
             : c_stunt >= 0 && chan[c_stunt] != st_re         ? c_stunt
                                                              : -1;
    double re = kb == c_lap ? f->lap_re : kb == c_dist ? f->d_re : st_re;
    if (kb >= 0 && diverged(f, i, "channel %s: recorded %.9g, re-derived %.9g", s->chan_names[kb], chan[kb], re))
      return VF_STOP;
  }
  /* a take that stores the channels stores the context too: each context value must be the stored
   * channel it copies (compared above with the re-simulation), bit for bit as float32 — else a
   * context chunk from another take would pass unseen */
  if (!f->ctx_only && take_stored(f->r, TAKE_CTX) && !f->drifting) {
    double cx[REC_NCTX];
    int rc = take_read(f->r, TAKE_CTX, i, 1, cx, e);
    if (rc) return rc;
    int k = ctx_mismatch(cx, chan, nc);
    if (k >= 0) {
      int j = rec_ctx_channel(k);
      if (diverged(f, i, "context %s: recorded %.9g, the stored channel %.9g, re-simulated %.9g", s->chan_names[j], cx[k],
                   chan[j], chan[nc + j]))
        return VF_STOP;
    }
  }
  return VF_GO;
}

/* Another build past its divergence: the drift of every channel, never a stop. */
static void vf_measure_drift(verifier* f, long i) {
  const double* chan = f->chan;
  int nc = f->nc;
  for (int k = 1; k < nc; k++) {
    if (k == f->c_lap || k == f->c_dist || k == f->c_stunt || !isfinite(chan[k])) continue;
    double d = fabs((double)(float)chan[nc + k] - chan[k]);
    if (chan[k] < f->cmin[k]) f->cmin[k] = chan[k];
    if (chan[k] > f->cmax[k]) f->cmax[k] = chan[k];
    if (!(d <= f->dmax[k])) f->dmax[k] = isfinite(d) ? d : INFINITY, f->dstep[k] = (double)i;
  }
}

/* The recorded state i + 1 against the re-simulated one, naming the component that differs:
 * position, velocity or tyre state, of which joint (veh_state_part). */
static int vf_next_state(verifier* f, long i, mt_err* e) {
  if (i + 1 >= f->n) return VF_GO;
  int nx = f->nx;
  double* x = f->x;
  int rc = take_read(f->r, TAKE_STATE, i + 1, 1, x, e);
  if (rc) return rc;
  veh_get_state(f->v, x + nx);
  f->vr->checked++;
  if (memcmp(x, x + nx, sizeof(double) * nx) == 0) return VF_GO;
  int k = 0;
  while (k < nx && memcmp(&x[k], &x[nx + k], sizeof(double)) == 0) k++;
  const char* joint;
  const char* part = veh_state_part(f->v, k, &joint);
  return diverged(f, i + 1, "%s of %s (state value %d): recorded %.17g, re-simulated %.17g", part, joint[0] ? joint : "act", k,
                  x[k], x[nx + k]);
}

/* One step: advance, sample, compare; the events before the next step; the next state. Returns
 * VF_GO, VF_STOP or an error. */
static int vf_step(verifier* f, long i, mt_err* e) {
  int rc = vf_advance(f, i, e);
  if (rc == VF_GO) rc = vf_sample(f, i, e);
  if (rc == VF_GO && !f->drifting) rc = vf_compare(f, i, e);
  if (rc != VF_GO) return rc;
  if (f->drifting) {
    vf_measure_drift(f, i);
    if (f->ride) ride_replay_before(&f->rr, f->v, i + 1);
    return VF_GO;
  }
  /* the events before the next step (a restart sets the state the next row records; a script's
   * event sets the stunt after the step it fired in was sampled) */
  if (f->ride) ride_replay_before(&f->rr, f->v, i + 1);
  if (f->sr.on && (rc = stunt_replay_after(&f->sr, i, e))) return rc;
  return vf_next_state(f, i, e);
}

/* Another build: the channels a reader judges a ride by, each with its largest
 * |recorded − re-simulated| and when. */
static void vf_drift_summary(verifier* f) {
  static const char* const HEAD[] = {"x", "y", "speed", "lean", "heading", "steer_angle", "rpm"};
  verify_report* vr = f->vr;
  size_t o = 0;
  for (size_t h = 0; h < MT_ARRAY_LEN(HEAD); h++) {
    int k = rec_chan_index(HEAD[h]);
    if (k <= 0 || k >= f->nc || o + 80 > sizeof vr->drift) continue;
    o += (size_t)snprintf(vr->drift + o, sizeof vr->drift - o, "%s%s %.3g %s (t = %.3f s)", o ? ", " : "", f->s->chan_names[k],
                          f->dmax[k], f->s->chan_units[k], f->dstep[k] * f->s->timestep);
  }
}

static void vf_close(verifier* f) {
  if (f->ride) ride_replay_close(&f->rr);
  stunt_replay_free(&f->sr);
  if (f->v) f->v->control = NULL;
  free(f->x);
  free(f->dmax);
  veh_free(f->v);
  track_free(f->tk);
  rig_free(f->rg);
  take_close(f->r);
}

int take_verify(const char* path, verify_report* vr, int quiet, mt_err* e) {
  take_reader* r = take_open(path, e);
  if (!r) return MT_EINPUT;
  memset(vr, 0, sizeof *vr);
  vr->first_bad = -1;
  verifier f = {.path = path, .vr = vr, .r = r};
  int rc = vf_open(&f, e);
  if (!rc) rc = vf_prepare(&f, e);
  fprog bar;   /* steps re-simulated (base/progress.h) */
  fprog_start_work(&bar, f.n, "take verify", !quiet && !rc);
  for (long i = 0; i < f.n && !rc; i++) {
    rc = vf_step(&f, i, e);
    if (rc == VF_STOP) rc = MT_OK, i = f.n;
    fprog_tick(&bar, i + 1);
  }
  fprog_end(&bar);
  if (f.drifting && !rc) vf_drift_summary(&f);
  vf_close(&f);
  return rc;
}

int take_verify_text(const char* path, const verify_report* vr, mt_sb* out, mt_err* e) {
  if (vr->first_bad >= 0 && !vr->other_build) {
    mt_sbprintf(out, "%s: DIVERGES at step %ld: %s\n", path, vr->first_bad, vr->what);
    return 1;
  }
  if (vr->first_bad >= 0) {
    take_reader* r = take_open(path, e);   /* for the channel's name, unit and the timestep */
    if (!r) return e->code;
    const take_schema* s = take_schema_of(r);
    mt_sbprintf(out, "%s: recorded by %s, replayed by %s: the builds differ, so the physics may round differently\n", path,
                vr->rec_by, vr->rep_by);
    mt_sbprintf(out, "  first divergence at step %ld (t = %.3f s): %s\n", vr->first_bad, vr->first_bad * s->timestep, vr->what);
    if (vr->stopped[0]) mt_sbprintf(out, "  %s\n", vr->stopped);
    else mt_sbprintf(out, "  re-simulated all %ld steps from the take's inputs\n", vr->resimulated);
    if (vr->drift[0]) mt_sbprintf(out, "  largest differences over the take: %s\n", vr->drift);
    take_close(r);
    return 1;
  }
  if (vr->ctx_only)   /* format 4: channels are rebuilt from the state, inputs and context (docs/takefile.md) */
    mt_sbprintf(out, "%s: bit-exact: %ld steps re-simulated from the take alone match the recording (state and context of every step, "
                "so the poses and channels rebuilt from them; every chunk checked)\n", path, vr->checked);
  else
    mt_sbprintf(out, "%s: bit-exact: %ld steps re-simulated from the take alone match the recording (state, poses and channels of every step; every chunk checked)\n", path, vr->checked);
  if (vr->other_build) mt_sbprintf(out, "  recorded by %s, replayed by %s: bit-exact across builds\n", vr->rec_by, vr->rep_by);
  if (vr->stunt_unknown)
    mt_sbprintf(out, "  the stunt channel is the recording's, not re-derived: the take was cut during a stunt, whose loop's state "
                "before the cut it does not hold\n");
  return 0;
}

int take_verify_report(const char* path, int quiet, mt_err* e) {
  verify_report vr;
  if (take_verify(path, &vr, quiet, e)) return e->code;
  mt_sb out = {0};
  int rc = take_verify_text(path, &vr, &out, e);
  if (out.p) fputs(out.p, stdout);   /* nothing when the take could not be reopened (e set) */
  free(out.p);
  return e->code ? e->code : rc;
}
