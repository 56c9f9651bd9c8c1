/* test_instant.c — every sample of a take describes one instant (issue 18, point 4).
 *
 * A take records the state (exact float64), the body poses (exact float64) and the channels
 * (float32) of each step side by side. Quantities derived two ways must agree at every sample:
 *  - exact: the bell crank's recorded pose (veh_link_poses) against the crank angle solved from
 *    the state stream's swingarm angle and the frame's recorded pose (to 1e-9 rad), and the
 *    swingarm's recorded pose relative to the frame against the state's swingarm angle;
 *  - to float32 rounding: the channels swingarm_angle, rider_lean and frame_twist (with
 *    steer_angle) against the same rotations read from the body poses (body frames are
 *    world-aligned in the reference pose, so the child's orientation relative to its parent is
 *    the joint's rotation about its axis).
 * Before the fix the joint-angle channels and the linkage poses were one step (1 ms) ahead of the
 * rest: off by the joint's rate × 1 ms (for the swingarm of a wheelie, up to ~0.017°). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/rig.h"
#include "sim/vehicle.h"
#include "takes/recorder.h"
#include "takes/run.h"
#include "takes/takefile.h"
#include "tests/unit/test.h"

static void qconj_mul(const double a[4], const double b[4], double o[4]) {   /* conj(a)·b */
  double w = a[0], x = -a[1], y = -a[2], z = -a[3];
  o[0] = w * b[0] - x * b[1] - y * b[2] - z * b[3];
  o[1] = w * b[1] + x * b[0] + y * b[3] - z * b[2];
  o[2] = w * b[2] - x * b[3] + y * b[0] + z * b[1];
  o[3] = w * b[3] + x * b[2] - y * b[1] + z * b[0];
}
static void qmul(const double a[4], const double b[4], double o[4]) {
  double c[4] = {a[0], -a[1], -a[2], -a[3]};
  qconj_mul(c, b, o);
}
static void qaxis(const double ax[3], double th, double q[4]) {
  q[0] = cos(th / 2);
  for (int i = 0; i < 3; i++) q[i + 1] = sin(th / 2) * ax[i];
}
/* the angle about unit axis ax of a rotation known to be about ax */
static double qangle(const double q[4], const double ax[3]) {
  return 2 * atan2(q[1] * ax[0] + q[2] * ax[1] + q[3] * ax[2], q[0]);
}

static int body_index(const take_schema* s, const char* name) {
  for (int i = 0; i < s->nbody; i++)
    if (!strcmp(s->body_names[i], name)) return i;
  return -1;
}

/* Ride SCRIPT into a take; the largest disagreement (degrees) of each angle over all samples. */
/* worst[0..2]: channel against poses, in float32 ulps of the channel (swingarm, lean, twist+steer);
 * worst[3], worst[4]: crank pose, swingarm pose against the state (rad); range: one-step moves (deg) */
static int check_take(const char* script, const char* name, double worst[5], long* nsamples, double range[3], mt_err* e) {
  char out[4096], spath[4096], rpath[4096];
  snprintf(spath, sizeof spath, "%s/takes/%s", mt_test_root(), script);
  snprintf(out, sizeof out, "%s/%s.take", mt_test_tmpdir(), name);
  run_opts o = {0};
  o.script = spath;
  o.out = out;
  o.quiet = 1;
  run_result res;
  if (run_take(&o, &res, e)) return -1;
  snprintf(rpath, sizeof rpath, "%s/rigs/sport1000.lua", mt_test_root());
  rig* rg = rig_load(rpath, NULL, 0, e);
  if (!rg) return -1;
  vehicle* v = veh_new(rg, (road){0}, 0, e);   /* only for the state's layout */
  take_reader* r = take_open(out, e);
  if (!r || !v) {
    veh_free(v);
    rig_free(rg);
    return -1;
  }
  const take_schema* s = take_schema_of(r);
  long n = take_nsteps(r);
  int np = take_ncols(r, TAKE_POSE), nc = take_ncols(r, TAKE_CHAN), nx = take_ncols(r, TAKE_STATE);
  double* P = malloc(sizeof(double) * np * n);
  double* C = malloc(sizeof(double) * nc * n);
  double* X = malloc(sizeof(double) * nx * n);
  int rc = -1;
  if (take_read(r, TAKE_POSE, 0, n, P, e) || take_read(r, TAKE_CHAN, 0, n, C, e) || take_read(r, TAKE_STATE, 0, n, X, e))
    goto out;
  int bf = body_index(s, "frame"), bs = body_index(s, "swingarm"), bp = body_index(s, "rider_pelvis"),
      bt = body_index(s, "steering"), bk = body_index(s, "bell_crank");
  int cs = rec_chan_index("swingarm_angle"), cl = rec_chan_index("rider_lean"), ct = rec_chan_index("frame_twist"),
      cst = rec_chan_index("steer_angle");
  if (bf < 0 || bs < 0 || bp < 0 || bt < 0 || bk < 0 || cs < 0 || cl < 0 || ct < 0 || cst < 0) {
    mt_fail(e, MT_EINTERNAL, "body or channel missing");
    goto out;
  }
  const double* ax_s = rg->joint[rg->j_swingarm].axis;
  const double* ax_l = rg->joint[rg->j_rider].axis;
  const double* ax_t = rg->joint[rg->j_twist].axis;
  const double* ax_st = rg->joint[rg->j_steer].axis;
  const double D = 180 / M_PI;
  for (int k = 0; k < 5; k++) worst[k] = 0;
  for (int k = 0; k < 3; k++) range[k] = 0;
  const double ulp = ldexp(1, -23), y[3] = {0, 1, 0};
  for (long i = 0; i < n; i++) {
    const double* p = P + np * i;
    const double* c = C + nc * i;
    const double* x = X + nx * i;
    double q[4], th = x[v->qadr[rg->j_swingarm]];
    /* exact: swingarm pose and bell-crank pose against the state's swingarm angle */
    qconj_mul(p + 7 * bf + 3, p + 7 * bs + 3, q);
    worst[4] = fmax(worst[4], fabs(qangle(q, ax_s) - th));
    rig_link_pose lp;
    if (rig_linkage_solve(rg, th, &lp) == 0) {
      qconj_mul(p + 7 * bf + 3, p + 7 * bk + 3, q);
      worst[3] = fmax(worst[3], fabs(qangle(q, y) - lp.crank_angle));
    } else {
      worst[3] = INFINITY;
    }
    /* float32 channels: |difference| in units of the channel's rounding */
    qconj_mul(p + 7 * bf + 3, p + 7 * bs + 3, q);
    worst[0] = fmax(worst[0], fabs(qangle(q, ax_s) * D - c[cs]) / (ulp * fabs(c[cs]) + 1e-12));
    qconj_mul(p + 7 * bf + 3, p + 7 * bp + 3, q);
    worst[1] = fmax(worst[1], fabs(qangle(q, ax_l) * D - c[cl]) / (ulp * fabs(c[cl]) + 1e-12));
    /* steering relative to the frame: twist, then steer (the joints' order in the rig) */
    double qt[4], qs[4], qe[4], d[4];
    qaxis(ax_t, c[ct] / D, qt);
    qaxis(ax_st, c[cst] / D, qs);
    qmul(qt, qs, qe);
    qconj_mul(p + 7 * bf + 3, p + 7 * bt + 3, q);
    qconj_mul(qe, q, d);   /* the residual rotation: identity when both agree */
    worst[2] = fmax(worst[2], 2 * asin(fmin(1, sqrt(d[1] * d[1] + d[2] * d[2] + d[3] * d[3]))) * D /
                                  (ulp * (fabs(c[ct]) + fabs(c[cst])) + 1e-12));
    if (i > 0) {   /* how far each angle moves in one step (what a 1-step skew would show) */
      const double* c0 = C + nc * (i - 1);
      range[0] = fmax(range[0], fabs(c[cs] - c0[cs]));
      range[1] = fmax(range[1], fabs(c[cl] - c0[cl]));
      range[2] = fmax(range[2], fabs(c[ct] - c0[ct]));
    }
  }
  *nsamples = n;
  rc = 0;
out:
  free(P);
  free(C);
  free(X);
  take_close(r);
  veh_free(v);
  rig_free(rg);
  return rc;
}

MT_TEST(instant_joint_channels_and_link_poses_agree_with_body_poses_at_every_sample) {
  const char* scripts[2] = {"wheelie.lua", "chatter.lua"};
  double moved[3] = {0, 0, 0};
  for (int k = 0; k < 2; k++) {
    double worst[5], range[3];
    long n = 0;
    mt_err e = {0};
    char name[64];
    snprintf(name, sizeof name, "instant%d", k);
    int rc = check_take(scripts[k], name, worst, &n, range, &e);
    CHECK_MSG(rc == 0, "%s: %s", scripts[k], e.msg);
    if (rc) continue;
    CHECK_MSG(n > 1000, "%s: %ld samples", scripts[k], n);
    for (int q = 0; q < 3; q++) moved[q] = fmax(moved[q], range[q]);
    if (getenv("MT_INSTANT_PRINT")) printf("%s: crank %.3g rad, swingarm %.3g rad; channels %.3g %.3g %.3g roundings; moves %.3g %.3g %.3g deg\n", scripts[k], worst[3], worst[4], worst[0], worst[1], worst[2], range[0], range[1], range[2]);
    CHECK_MSG(worst[3] < 1e-9, "%s: bell-crank pose against the state's swingarm angle: %.3g rad", scripts[k], worst[3]);
    CHECK_MSG(worst[4] < 1e-9, "%s: swingarm pose against the state's swingarm angle: %.3g rad", scripts[k], worst[4]);
    const char* what[3] = {"swingarm_angle", "rider_lean", "frame_twist+steer_angle"};
    for (int q = 0; q < 3; q++)   /* float32 channels: a few units of their rounding */
      CHECK_MSG(worst[q] < 4, "%s: %s from the joint vs from the body poses differs by %.3g float32 roundings (%ld samples)",
                scripts[k], what[q], worst[q], n);
  }
  /* the test can fail: somewhere each angle moves by far more than its tolerance in one step */
  CHECK_MSG(moved[0] > 1e-3 && moved[1] > 1e-3 && moved[2] > 1e-3, "one-step moves %.3g %.3g %.3g deg", moved[0], moved[1],
            moved[2]);
}
