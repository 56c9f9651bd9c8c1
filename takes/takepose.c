/* takepose.c — body poses from the state stream (see takepose.h). */
#include "takes/takepose.h"

#include <stdlib.h>
#include <string.h>

#include "sim/rig.h"
#include "sim/track.h"
#include "sim/vehicle.h"
#include "takes/recorder.h"
#include "takes/replay.h"

struct takepose {
  rig* rg;
  vehicle* v;
};

void takepose_free(takepose* p) {
  if (!p) return;
  veh_free(p->v);
  rig_free(p->rg);
  free(p);
}

takepose* takepose_new(const take_reader* r, mt_err* e) {
  rig* rg = NULL;
  track* tk = NULL;
  if (replay_rebuild(r, 1, &rg, &tk, e)) return NULL;
  track_free(tk);   /* the poses do not depend on the road */
  const take_schema* s = take_schema_of(r);
  int nb = rec_nbody(rg);
  if (nb != s->nbody) {
    mt_fail(e, MT_EINPUT, "the rebuilt machine has %d bodies, the take's pose columns name %d", nb, s->nbody);
    rig_free(rg);
    return NULL;
  }
  for (int i = 0; i < nb; i++)
    if (strcmp(rec_body_name(rg, i), s->body_names[i])) {
      mt_fail(e, MT_EINPUT, "the rebuilt machine's body %d is '%s', the take's pose columns say '%.60s'", i,
              rec_body_name(rg, i), s->body_names[i]);
      rig_free(rg);
      return NULL;
    }
  vehicle* v = veh_new(rg, (road){0}, 0, e);
  if (!v) {
    rig_free(rg);
    return NULL;
  }
  if (veh_state_size(v) != s->nstate) {
    mt_fail(e, MT_EINPUT, "the rebuilt machine has %d state values, the take %d", veh_state_size(v), s->nstate);
    veh_free(v);
    rig_free(rg);
    return NULL;
  }
  takepose* p = mt_alloc(sizeof *p);
  p->rg = rg;
  p->v = v;
  return p;
}

void takepose_fill(takepose* p, const double* state, double* out) {
  /* exactly what the recording loop samples: mj_kinematics of the step's qpos (run inside
   * mj_step1 before the state advances), then rec_poses (body poses and veh_link_poses) */
  veh_set_state(p->v, state);
  veh_update_poses(p->v);
  rec_poses(p->v, out);
}
