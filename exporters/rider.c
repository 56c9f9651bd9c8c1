/* rider.c — the rider's skeleton over a take, for the character and BVH exports (see rider.h). */
#include "exporters/rider.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/bvh.h"
#include "exporters/xform.h"
#include "scene/skel_take.h"

/* The skeleton and its binding to the motion's bodies. */
static int setup(const rig* rg, const sc_motion* mo, ex_rider* out, sk_motion* sm, mt_err* e) {
  memset(out, 0, sizeof *out);
  if (sk_build(rg, &out->sk) != 0)
    return mt_fail(e, MT_EINPUT, "rider: the rig has no rider skeleton (it needs the bodies frame, steering, "
                   "rider_pelvis and rider_torso, the grips and the seat)");
  if (sk_motion_bind(sm, mo) != 0)
    return mt_fail(e, MT_EINPUT, "rider: the take lacks one of the bodies frame, steering, rider_pelvis, rider_torso");
  memcpy(out->body, sm->body, sizeof out->body);
  out->nbone = out->sk.nbone, out->dt = mo->dt;
  return MT_OK;
}

/* Every bone's world pose at time t into dst (nbone × 7), and the IK's misses into r. */
static void pose_at(ex_rider* r, sk_motion* sm, double t, double* dst) {
  sk_frame_in in;
  sk_motion_frame(sm, t, &in);
  sk_pose_out po;
  sk_pose(&r->sk, &in, &po);
  for (int b = 0; b < r->nbone; b++) {
    memcpy(dst + 7 * b, po.bone[b].head, 3 * sizeof(double));
    memcpy(dst + 7 * b + 3, po.bone[b].quat, 4 * sizeof(double));
  }
  for (int s = 0; s < 2; s++) {   /* the misses where the IK holds */
    if (!(po.released & SK_REL_FALL)) r->hand_miss = fmax(r->hand_miss, po.hand_miss[s]);
    if (!(po.released & (SK_REL_FALL | (s ? SK_REL_FOOT_R : SK_REL_FOOT_L)))) r->foot_miss = fmax(r->foot_miss, po.foot_miss[s]);
  }
}

int ex_rider_build(const rig* rg, const sc_motion* mo, double from, double to, ex_rider* out, mt_err* e) {
  sk_motion sm;
  if (setup(rg, mo, out, &sm, e)) return e->code;
  out->nsteps = mo->nsteps;
  size_t row = 7 * (size_t)out->nbone;
  out->pose = mt_alloc(sizeof(double) * row * (size_t)out->nsteps);
  /* posing costs (sk_motion_frame replays the release blend): only the steps around the range */
  long i0 = (long)floor(from / mo->dt), i1 = (long)ceil(to / mo->dt);
  if (i0 < 0) i0 = 0;
  if (i1 > mo->nsteps - 1) i1 = mo->nsteps - 1;
  if (i1 < i0) i1 = i0;
  for (long i = i0; i <= i1; i++) pose_at(out, &sm, (double)i * mo->dt, out->pose + row * (size_t)i);
  for (long i = 0; i < out->nsteps; i++)   /* outside: held, never sampled (keys stay in the range) */
    if (i < i0 || i > i1) memcpy(out->pose + row * (size_t)i, out->pose + row * (size_t)(i < i0 ? i0 : i1), row * sizeof(double));
  return MT_OK;
}

/* Radii of the default character's segments (m) for a 1.78 m rider, by bone (scene/skeleton.h). */
static double radius_of(int b) {
  static const double R[SK_NBONE] = {
      [SK_HIPS] = 0.12, [SK_SPINE] = 0.125, [SK_SPINE1] = 0.14, [SK_NECK] = 0.05, [SK_HEAD] = 0.14,
      [SK_LSHOULDER] = 0.05, [SK_LARM] = 0.05, [SK_LFOREARM] = 0.042, [SK_LHAND] = 0.035,
      [SK_RSHOULDER] = 0.05, [SK_RARM] = 0.05, [SK_RFOREARM] = 0.042, [SK_RHAND] = 0.035,
      [SK_LUPLEG] = 0.075, [SK_LLEG] = 0.055, [SK_LFOOT] = 0.045, [SK_LTOE] = 0.035,
      [SK_RUPLEG] = 0.075, [SK_RLEG] = 0.055, [SK_RFOOT] = 0.045, [SK_RTOE] = 0.035};
  return b >= 0 && b < SK_NBONE && R[b] > 0 ? R[b] : 0.04;
}

void ex_rider_character(const ex_rider* r, int first_body, const double suit[4], const double helmet[4],
                        ex_character* c) {
  memset(c, 0, sizeof *c);
  c->first_body = first_body;
  c->nbone = r->nbone < EX_CHAR_MAX_BONE ? r->nbone : EX_CHAR_MAX_BONE;
  double scale = r->sk.height > 0 ? r->sk.height / 1.78 : 1;
  for (int b = 0; b < c->nbone; b++) {
    const sk_bone* sb = &r->sk.bone[b];
    ex_char_bone* cb = &c->bone[b];
    cb->name = sb->name, cb->parent = sb->parent;
    memcpy(cb->head, sb->head, sizeof cb->head);
    memcpy(cb->tail, sb->tail, sizeof cb->tail);
    sk_rest_quat(sb, cb->q);
    cb->radius = radius_of(b) * scale;
    cb->sphere = b == SK_HEAD;
    memcpy(cb->rgba, b == SK_HEAD ? helmet : suit, sizeof cb->rgba);
  }
  memcpy(c->base, r->sk.origin[SK_BODY_PELVIS], 3 * sizeof(double));
  c->base[3] = 1;   /* a body's frame is parallel to the rig's at rest (scene/take_bodies.h) */
}

int ex_rider_bvh(const rig* rg, const sc_motion* mo, double from, double to, double fps, const char* path, long* frames,
                 double miss[2], mt_err* e) {
  ex_rider r;
  sk_motion sm;
  if (setup(rg, mo, &r, &sm, e)) return e->code;
  long K = (long)floor((to - from) * fps + 1e-9) + 1;
  ex_bvh_bone bone[SK_MAX_BONE];
  for (int b = 0; b < r.nbone; b++) {
    const sk_bone* sb = &r.sk.bone[b];
    bone[b] = (ex_bvh_bone){sb->name, sb->parent, {0}, {0}, {0}};
    memcpy(bone[b].head, sb->head, sizeof bone[b].head);
    memcpy(bone[b].tail, sb->tail, sizeof bone[b].tail);
    sk_rest_quat(sb, bone[b].rest_q);
  }
  double* pose = mt_alloc(sizeof(double) * 7 * (size_t)r.nbone * (size_t)(K > 0 ? K : 1));
  for (long k = 0; k < K; k++) pose_at(&r, &sm, from + (double)k / fps, pose + 7 * (size_t)k * (size_t)r.nbone);
  ex_bvh_motion m = {r.nbone, bone, K, fps, pose};
  int rc = ex_bvh_write(&m, path, e);
  free(pose);
  if (frames) *frames = K;
  if (miss) miss[0] = r.hand_miss, miss[1] = r.foot_miss;
  return rc;
}

void ex_rider_free(ex_rider* r) {
  free(r->pose);
  memset(r, 0, sizeof *r);
}
