/* skel_take.c — the skeleton's per-frame input from a take's motion (see skel_take.h). */
#include "scene/skel_take.h"

#include <math.h>
#include <string.h>

#include "scene/skel_math.h"

int sk_motion_bind(sk_motion* sm, const sc_motion* m) {
  memset(sm, 0, sizeof *sm);
  sm->m = m, sm->fall_from = INFINITY, sm->hint = -1;
  for (int b = 0; b < SK_NBODY; b++) {
    sm->body[b] = -1;
    for (int i = 0; i < m->nb; i++)
      if (!strcmp(m->names[i], sk_body_names[b])) sm->body[b] = i;
    if (sm->body[b] < 0) return -1;
  }
  return 0;
}

double sk_motion_road(void* ctx, double x, double y, double n[3]) {
  sk_motion* sm = ctx;
  road_point rp;
  if (!sm->m->tk || track_query(sm->m->tk, x, y, sm->hint, &rp)) {
    n[0] = n[1] = 0, n[2] = 1;
    return 0;
  }
  sm->hint = rp.hint;
  memcpy(n, rp.n, sizeof rp.n);
  return rp.z;
}

static void body_at(const sk_motion* sm, int b, double t, double pose[7]) {
  double R[9];
  sc_motion_pose_at(sm->m, sm->body[b], t, pose, R);
  skm_mat_quat(R, pose + 3);
}

/* The frame's position at t, extrapolated at the last step's velocity past the take's end. */
static void frame_pos(const sk_motion* sm, double t, double p[3]) {
  double R[9], tend = (sm->m->nsteps - 1) * sm->m->dt;
  sc_motion_pose_at(sm->m, sm->body[SK_BODY_FRAME], t, p, R);
  if (t <= tend) return;
  double a[3];
  sc_motion_pose_at(sm->m, sm->body[SK_BODY_FRAME], tend - sm->m->dt, a, R);
  for (int k = 0; k < 3; k++) p[k] += (t - tend) * (p[k] - a[k]) / sm->m->dt;
}

/* The frame's pose and speed at t: what sk_release_step reads. */
static void frame_state(const sk_motion* sm, double t, sk_frame_in* in) {
  double a[3], b[3], h = sm->m->dt;
  double t0 = sc_motion_clamp(sm->m, t - h), t1 = sc_motion_clamp(sm->m, t + h);
  body_at(sm, SK_BODY_FRAME, t, in->body[SK_BODY_FRAME]);
  frame_pos(sm, t0, a), frame_pos(sm, t1, b);
  in->speed = t1 > t0 ? dist3(a, b) / (t1 - t0) : 0;
  in->fall = t >= sm->fall_from;
}

void sk_motion_frame(sk_motion* sm, double t, sk_frame_in* in) {
  memset(in, 0, sizeof *in);
  t = sc_motion_clamp(sm->m, t);
  double t0 = t - 2 * SK_RELEASE_S;   /* the release blend, afresh */
  if (t0 < 0) t0 = 0;
  frame_state(sm, t0, in);
  sk_release_step(&in->rel, NULL, in, 0);
  int n = (int)ceil((t - t0) / SK_RELEASE_DT - 1e-9);
  for (int i = 1; i <= n; i++) {
    double ti = i == n ? t : t0 + i * SK_RELEASE_DT, tp = i == 1 ? t0 : t0 + (i - 1) * SK_RELEASE_DT;
    frame_state(sm, ti, in);
    sk_release_step(&in->rel, NULL, in, ti - tp);
  }
  frame_state(sm, t, in);
  for (int b = 0; b < SK_NBODY; b++) body_at(sm, b, t, in->body[b]);
  in->road = sk_motion_road, in->road_ctx = sm;
  double nrm[3];
  frame_pos(sm, t + SK_LOOK_AHEAD, in->look);
  in->look[2] = sk_motion_road(sm, in->look[0], in->look[1], nrm);
}

void sk_motion_frame_live(sk_motion* sm, double t, double hx, double hy, sk_frame_in* in) {
  sk_motion_frame(sm, t, in);
  in->speed = INFINITY;
  memset(&in->rel, 0, sizeof in->rel);
  sk_release_step(&in->rel, NULL, in, 0);
  double n[3];
  in->look[0] = in->body[SK_BODY_FRAME][0] + SK_LIVE_LOOK * hx, in->look[1] = in->body[SK_BODY_FRAME][1] + SK_LIVE_LOOK * hy;
  in->look[2] = sk_motion_road(sm, in->look[0], in->look[1], n);
}
