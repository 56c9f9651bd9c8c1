/* rider.c — the rider's skeleton over a take, for the character and BVH exports (see rider.h). */
#include "exporters/rider.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/bvh.h"
#include "exporters/keys.h"
#include "exporters/xform.h"
#include "sim/road.h"

typedef struct road_ctx { const track* tk; int hint; } road_ctx;

static double road_under(void* ctx, double x, double y, double n[3]) {
  road_ctx* c = ctx;
  road_point rp;
  track_query(c->tk, x, y, c->hint, &rp);
  c->hint = rp.hint;
  memcpy(n, rp.n, sizeof rp.n);
  return rp.z;
}

/* Where the rider looks at step i: the frame's position EX_RIDER_LOOK_S later, or EX_RIDER_LOOK_MIN
 * ahead along its heading when that is nearer (rider.h). */
static void look_point(const ex_rider* r, const double* pose, int nbody, long i, double look[3]) {
  long j = i + (long)lround(EX_RIDER_LOOK_S / r->dt);
  if (j > r->nsteps - 1) j = r->nsteps - 1;
  const double* p = pose + 7 * ((size_t)i * (size_t)nbody + (size_t)r->body[SK_BODY_FRAME]);
  const double* q = pose + 7 * ((size_t)j * (size_t)nbody + (size_t)r->body[SK_BODY_FRAME]);
  double d = sqrt((q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1]));
  if (d >= EX_RIDER_LOOK_MIN) {
    memcpy(look, q, 3 * sizeof(double));
    return;
  }
  double fwd[3];
  ex_qrot(p + 3, (const double[3]){1, 0, 0}, fwd);
  double h = hypot(fwd[0], fwd[1]);
  if (h < 1e-9) fwd[0] = 1, fwd[1] = 0, h = 1;
  look[0] = p[0] + EX_RIDER_LOOK_MIN * fwd[0] / h, look[1] = p[1] + EX_RIDER_LOOK_MIN * fwd[1] / h, look[2] = p[2];
}

/* sk_pose's input at step i (the release weights are the caller's). */
static void frame_in(const ex_rider* r, const double* pose, int nbody, long i, road_ctx* rc, sk_frame_in* in) {
  for (int b = 0; b < SK_NBODY; b++)
    memcpy(in->body[b], pose + 7 * ((size_t)i * (size_t)nbody + (size_t)r->body[b]), sizeof in->body[b]);
  in->road = rc->tk ? road_under : NULL;
  in->road_ctx = rc;
  look_point(r, pose, nbody, i, in->look);
  long a = i > 0 ? i - 1 : i, c = i + 1 < r->nsteps ? i + 1 : i;
  const double* pa = pose + 7 * ((size_t)a * (size_t)nbody + (size_t)r->body[SK_BODY_FRAME]);
  const double* pc = pose + 7 * ((size_t)c * (size_t)nbody + (size_t)r->body[SK_BODY_FRAME]);
  double d = sqrt((pc[0] - pa[0]) * (pc[0] - pa[0]) + (pc[1] - pa[1]) * (pc[1] - pa[1]) + (pc[2] - pa[2]) * (pc[2] - pa[2]));
  in->speed = c > a ? d / ((double)(c - a) * r->dt) : 0;
  in->fall = 0;
}

int ex_rider_build(const rig* rg, const track* tk, const char* const* names, int nbody, const double* pose,
                   long nsteps, double dt, ex_rider* out, mt_err* e) {
  memset(out, 0, sizeof *out);
  if (sk_build(rg, &out->sk) != 0)
    return mt_fail(e, MT_EINPUT, "rider: the rig has no rider skeleton (it needs the bodies frame, steering, "
                   "rider_pelvis and rider_torso, the grips and the seat)");
  for (int b = 0; b < SK_NBODY; b++) {
    out->body[b] = -1;
    for (int k = 0; k < nbody; k++)
      if (names[k] && !strcmp(names[k], sk_body_names[b])) out->body[b] = k;
    if (out->body[b] < 0) return mt_fail(e, MT_EINPUT, "rider: the take has no body '%s'", sk_body_names[b]);
  }
  out->nbone = out->sk.nbone, out->nsteps = nsteps, out->dt = dt;
  out->pose = mt_alloc(sizeof(double) * 7 * (size_t)out->nbone * (size_t)nsteps);
  road_ctx rc = {tk, -1};
  sk_release rel;
  memset(&rel, 0, sizeof rel);
  for (long i = 0; i < nsteps; i++) {
    sk_frame_in in;
    memset(&in, 0, sizeof in);
    frame_in(out, pose, nbody, i, &rc, &in);
    sk_release_step(&rel, &out->sk, &in, i > 0 ? dt : 0);
    in.rel = rel;
    sk_pose_out po;
    sk_pose(&out->sk, &in, &po);
    for (int b = 0; b < out->nbone; b++) {
      double* d = out->pose + 7 * ((size_t)i * (size_t)out->nbone + (size_t)b);
      memcpy(d, po.bone[b].head, 3 * sizeof(double));
      memcpy(d + 3, po.bone[b].quat, 4 * sizeof(double));
    }
    for (int s = 0; s < 2; s++) {
      if (!(po.released & SK_REL_FALL)) out->hand_miss = fmax(out->hand_miss, po.hand_miss[s]);
      if (!(po.released & (SK_REL_FALL | (s ? SK_REL_FOOT_R : SK_REL_FOOT_L)))) out->foot_miss = fmax(out->foot_miss, po.foot_miss[s]);
    }
  }
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

int ex_rider_bvh(const ex_rider* r, double from, double to, double fps, const char* path, long* frames, mt_err* e) {
  long K = (long)floor((to - from) * fps + 1e-9) + 1;
  ex_bvh_bone bone[SK_MAX_BONE];
  for (int b = 0; b < r->nbone; b++) {
    const sk_bone* sb = &r->sk.bone[b];
    bone[b] = (ex_bvh_bone){sb->name, sb->parent, {0}, {0}, {0}};
    memcpy(bone[b].head, sb->head, sizeof bone[b].head);
    memcpy(bone[b].tail, sb->tail, sizeof bone[b].tail);
    sk_rest_quat(sb, bone[b].rest_q);
  }
  double* pose = mt_alloc(sizeof(double) * 7 * (size_t)r->nbone * (size_t)(K > 0 ? K : 1));
  for (long k = 0; k < K; k++)   /* the same sampling as the armature's keys (keys.h) */
    for (int b = 0; b < r->nbone; b++) {
      ex_track tr = {r->pose + 7 * b, 7L * r->nbone, r->nsteps, r->dt};
      ex_track_pose(&tr, from + (double)k / fps, pose + 7 * ((size_t)k * (size_t)r->nbone + (size_t)b));
    }
  ex_bvh_motion m = {r->nbone, bone, K, fps, pose};
  int rc = ex_bvh_write(&m, path, e);
  free(pose);
  if (frames) *frames = K;
  return rc;
}

void ex_rider_free(ex_rider* r) {
  free(r->pose);
  memset(r, 0, sizeof *r);
}
