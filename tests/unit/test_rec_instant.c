/* test_rec_instant.c — a recorded run samples the channels without the poses (issue 18).
 *
 * takes/run.c records format 3 takes, which store no poses, so it calls rec_sample_instant with
 * poses = NULL. Checked here, on a vehicle stepped a while (forces, reactions and the linkage
 * all non-trivial): the channels sampled without poses are bit for bit the ones sampled with
 * them, the vehicle's state is left exactly as it was (t + dt) either way, and with poses the
 * buffer holds the poses of the state at t. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/rig.h"
#include "sim/vehicle.h"
#include "takes/recorder.h"
#include "tests/unit/test.h"

MT_TEST(rec_instant_without_poses_samples_the_same_channels) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  CHECK_MSG(v, "%s", e.msg);
  for (int i = 0; i < 50; i++) veh_step(v, &e);
  int nx = veh_state_size(v), nc = rec_nchan(), np = 7 * rec_nbody(r);
  double* buf = malloc(sizeof(double) * (5 * nx + 2 * nc + 2 * np));
  double *xt = buf, *x1 = xt + nx, *scr = x1 + nx, *after_a = scr + nx, *after_b = after_a + nx;
  double *ca = after_b + nx, *cb = ca + nc, *pa = cb + nc, *pt = pa + np;
  veh_get_state(v, xt);
  CHECK(veh_step(v, &e) == MT_OK);
  veh_get_state(v, x1);
  rec_context c = {12.5, -0.25, 100, 0, 0.5, -0.75, 0};
  for (int k = 0; k < nc; k++) ca[k] = cb[k] = NAN;
  rec_sample_instant(v, xt, scr, &c, pa, ca);
  veh_get_state(v, after_a);
  rec_sample_instant(v, xt, scr, &c, NULL, cb);
  veh_get_state(v, after_b);
  int bad = -1;
  for (int k = 0; k < nc; k++)
    if (memcmp(&ca[k], &cb[k], sizeof ca[k]) != 0 || !isfinite(cb[k])) bad = k;
  CHECK_MSG(bad < 0, "channel %s: %.17g with poses, %.17g without", rec_channels()[bad].name, ca[bad], cb[bad]);
  CHECK_MSG(memcmp(after_a, x1, sizeof(double) * nx) == 0, "the state moved (with poses)");
  CHECK_MSG(memcmp(after_b, x1, sizeof(double) * nx) == 0, "the state moved (without poses)");
  /* the poses sampled are those of the state at t, not t + dt */
  veh_set_state(v, xt);
  rec_poses(v, pt);
  veh_set_state(v, x1);
  CHECK_MSG(memcmp(pa, pt, sizeof(double) * np) == 0, "the poses are not those at t");
  /* the reactions are real (the joint reaction of the steering head carries the front's load) */
  int k = rec_chan_index("steer_joint_fz");
  CHECK_MSG(k >= 0 && fabs(cb[k]) > 100, "steer_joint_fz %g N", k >= 0 ? cb[k] : NAN);
  free(buf);
  veh_free(v);
  rig_free(r);
}
