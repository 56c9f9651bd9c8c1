/* takechan.c — channels from the state, input and context streams (see takechan.h). */
#include "takes/takechan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/rig.h"
#include "sim/track.h"
#include "sim/vehicle.h"
#include "takes/recorder.h"
#include "takes/replay.h"

struct takechan {
  rig* rg;
  track* tk;
  vehicle* v;
  int ninput;
  long next;        /* the step after the last one filled: its hints carry over */
  double* scratch;  /* a state, for rec_sample_instant */
};

void takechan_free(takechan* p) {
  if (!p) return;
  veh_free(p->v);
  track_free(p->tk);
  rig_free(p->rg);
  free(p->scratch);
  free(p);
}

takechan* takechan_new(const take_reader* r, mt_err* e) {
  const take_schema* s = take_schema_of(r);
  if (s->nchan != rec_nchan())
    return mt_fail(e, MT_EINPUT, "the take has %d channels, this mototake samples %d", s->nchan, rec_nchan()), NULL;
  for (int i = 0; i < s->nchan; i++)
    if (strcmp(s->chan_names[i], rec_channels()[i].name))
      return mt_fail(e, MT_EINPUT, "the take's channel %d is '%.60s', this mototake's '%s'", i, s->chan_names[i],
                     rec_channels()[i].name),
             NULL;
  if (s->ninput > rec_ninput())
    return mt_fail(e, MT_EINPUT, "the take has %d inputs, this mototake knows %d", s->ninput, rec_ninput()), NULL;
  takechan* p = mt_alloc(sizeof *p);
  if (replay_rebuild(r, 1, &p->rg, &p->tk, e)) {
    free(p);
    return NULL;
  }
  p->v = veh_new(p->rg, track_road(p->tk), 0, e);
  if (!p->v) {
    takechan_free(p);
    return NULL;
  }
  if (veh_state_size(p->v) != s->nstate) {
    mt_fail(e, MT_EINPUT, "the rebuilt machine has %d state values, the take %d", veh_state_size(p->v), s->nstate);
    takechan_free(p);
    return NULL;
  }
  p->ninput = s->ninput;
  p->next = -1;
  p->scratch = mt_alloc(sizeof(double) * (s->nstate + 1));
  return p;
}

int takechan_fill(takechan* p, long step, const double* state, const double* input, const double* ctx, double* out, mt_err* e) {
  vehicle* v = p->v;
  int nc = rec_nchan();
  if (step != p->next) {   /* a jump: the look-ups search afresh, as at the take's start */
    v->hint[0] = v->hint[1] = -1;
    for (int i = 0; i < CONTACT_MAX; i++) v->contact_hint[i] = -1;
    v->ground_hint = -1;
  }
  p->next = step + 1;
  /* a recorded value that is not a number never came from a ride (the loop stops at a blow-up):
   * a damaged or forged take, refused by name rather than evaluated (MuJoCo would reset the data
   * and carry on) */
  int nx = veh_state_size(v);
  for (int k = 0; k < nx + p->ninput + REC_NCTX; k++) {
    double val = k < nx ? state[k] : k < nx + p->ninput ? input[k - nx] : ctx[k - nx - p->ninput];
    if (!isfinite(val)) {
      p->next = -1;
      return mt_fail(e, MT_EINPUT, "step %ld: %s value %d is %g", step, k < nx ? "state" : k < nx + p->ninput ? "input" : "context",
                     k < nx ? k : k < nx + p->ninput ? k - nx : k - nx - p->ninput, val);
    }
  }
  int bad0[2], bad1[2];
  veh_bad_state_counts(v, bad0);
  /* what the recording loop did at this step: its state and inputs through one evaluation
   * (veh_step: kinematics, forces, accelerations), then the sample of that instant */
  veh_set_state(v, state);
  veh_set_time(v, ctx[0]);
  v->control = NULL;
  rec_input_apply(input, p->ninput, &v->in);
  mt_err se = {0};
  if (!veh_step(v, &se) && (veh_bad_state_counts(v, bad1), bad1[0] != bad0[0] || bad1[1] != bad0[1]))
    mt_fail(&se, MT_EINPUT, "MuJoCo found a bad position or velocity and reset the data");
  if (se.code) {   /* a state the machine cannot evaluate (a damaged or forged take) */
    p->next = -1;            /* MuJoCo reset the data: the next step searches afresh */
    return mt_fail(e, MT_EINPUT, "step %ld: the recorded state cannot be evaluated: %s", step, se.msg);
  }
  rec_context c = {0};
  c.station = ctx[1];
  c.offset = ctx[2];
  c.distance = ctx[3];
  c.lap = (int)ctx[4];
  c.ax = ctx[5];
  c.ay = ctx[6];
  c.stunt = (int)ctx[7];
  rec_sample_instant(v, state, p->scratch, &c, NULL, out);
  rec_ctx_scatter(ctx, out);   /* the context as stored, time included */
  for (int k = 0; k < nc; k++) out[k] = (double)(float)out[k];   /* as a stored channel (float32) */
  return MT_OK;
}
