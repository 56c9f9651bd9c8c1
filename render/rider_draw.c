/* rider_draw.c — the rider's limbs on the skeleton's bones (see rider_draw.h). */
#include "render/rider_draw.h"

#include <math.h>
#include <string.h>

enum { SUIT, HELMET, BLACK };

/* Per bone: from and to as fractions of the bone's length along it, the radius (m, for 1.78 m)
 * and the colour; the hips' capsule runs across the pelvis (x) instead. */
static const struct { int bone; double y0, y1, r; int col; } LIMB[] = {
  {SK_SPINE, 0, 1, 0.12, SUIT},      {SK_SPINE1, 0.1, 0.85, 0.15, SUIT}, {SK_NECK, 0, 1, 0.05, SUIT},
  {SK_LSHOULDER, 0.3, 1, 0.065, SUIT}, {SK_RSHOULDER, 0.3, 1, 0.065, SUIT},
  {SK_LARM, 0, 1, 0.055, SUIT},      {SK_LFOREARM, 0, 1, 0.045, SUIT},   {SK_LHAND, 0, 0.55, 0.04, BLACK},
  {SK_RARM, 0, 1, 0.055, SUIT},      {SK_RFOREARM, 0, 1, 0.045, SUIT},   {SK_RHAND, 0, 0.55, 0.04, BLACK},
  {SK_LUPLEG, 0, 1, 0.08, SUIT},     {SK_LLEG, 0, 1, 0.06, BLACK},       {SK_LFOOT, 0, 1, 0.045, BLACK},
  {SK_LTOE, 0, 0.8, 0.035, BLACK},   {SK_RUPLEG, 0, 1, 0.08, SUIT},      {SK_RLEG, 0, 1, 0.06, BLACK},
  {SK_RFOOT, 0, 1, 0.045, BLACK},    {SK_RTOE, 0, 0.8, 0.035, BLACK},
};

/* The rig's rider colours: the suit, the helmet. */
static void colours(const rig* rg, double rgba[3][4]) {
  static const double BLUE[4] = {0.15, 0.25, 0.6, 1}, GREY[4] = {0.55, 0.55, 0.58, 1}, DARK[4] = {0.1, 0.1, 0.1, 1};
  memcpy(rgba[SUIT], BLUE, sizeof BLUE), memcpy(rgba[HELMET], GREY, sizeof GREY), memcpy(rgba[BLACK], DARK, sizeof DARK);
  int pel = rig_body_index(rg, "rider_pelvis"), tor = rig_body_index(rg, "rider_torso");
  if (pel >= 0 && rg->body[pel].nshape > 0) memcpy(rgba[SUIT], rg->body[pel].shape[0].rgba, sizeof rgba[SUIT]);
  for (int s = 0; tor >= 0 && s < rg->body[tor].nshape; s++)
    if (rg->body[tor].shape[s].type == RIG_SPHERE) memcpy(rgba[HELMET], rg->body[tor].shape[s].rgba, sizeof rgba[HELMET]);
}

static double bone_len(const sk_bone* b) {
  double d[3] = {b->tail[0] - b->head[0], b->tail[1] - b->head[1], b->tail[2] - b->head[2]};
  return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

int rk_limbs(const rig* rg, const sk_skeleton* sk, rk_limb out[RK_MAX_LIMB]) {
  double rgba[3][4], f = sk->height / 1.78;
  colours(rg, rgba);
  int n = 0;
  memset(out, 0, sizeof(rk_limb) * RK_MAX_LIMB);
  /* the pelvis: across the hips' joints, a little above them (x is the Hips' left) */
  rk_limb* l = &out[n++];
  l->bone = SK_HIPS, l->shape.type = RIG_CAPSULE, l->shape.radius = 0.1 * f;
  l->shape.a[0] = -0.09 * f, l->shape.b[0] = 0.09 * f, l->shape.a[1] = l->shape.b[1] = 0.3 * bone_len(&sk->bone[SK_HIPS]);
  memcpy(l->shape.rgba, rgba[SUIT], sizeof l->shape.rgba);
  for (size_t i = 0; i < sizeof LIMB / sizeof LIMB[0] && n < RK_MAX_LIMB; i++) {
    double L = bone_len(&sk->bone[LIMB[i].bone]);
    l = &out[n++];
    l->bone = LIMB[i].bone, l->shape.type = RIG_CAPSULE, l->shape.radius = LIMB[i].r * f;
    l->shape.a[1] = LIMB[i].y0 * L, l->shape.b[1] = LIMB[i].y1 * L;
    memcpy(l->shape.rgba, rgba[LIMB[i].col], sizeof l->shape.rgba);
  }
  if (n < RK_MAX_LIMB) {   /* the helmet: round the head, its centre 0.45 up the bone and a little forward */
    double L = bone_len(&sk->bone[SK_HEAD]);
    l = &out[n++];
    l->bone = SK_HEAD, l->shape.type = RIG_SPHERE, l->shape.b[0] = 0.125 * f;
    l->shape.a[1] = 0.45 * L, l->shape.a[2] = 0.02 * f;
    memcpy(l->shape.rgba, rgba[HELMET], sizeof l->shape.rgba);
  }
  return n;
}

/* p in bone b's frame → world. */
static void to_world(const sk_bone_pose* b, const double p[3], double w[3]) {
  double q0 = b->quat[0], x = b->quat[1], y = b->quat[2], z = b->quat[3];
  double tx = 2 * (y * p[2] - z * p[1]), ty = 2 * (z * p[0] - x * p[2]), tz = 2 * (x * p[1] - y * p[0]);
  w[0] = b->head[0] + p[0] + q0 * tx + (y * tz - z * ty);
  w[1] = b->head[1] + p[1] + q0 * ty + (z * tx - x * tz);
  w[2] = b->head[2] + p[2] + q0 * tz + (x * ty - y * tx);
}

void rk_limb_world(const rk_limb* l, const sk_pose_out* po, rig_shape* out) {
  *out = l->shape;
  to_world(&po->bone[l->bone], l->shape.a, out->a);
  if (l->shape.type == RIG_CAPSULE) to_world(&po->bone[l->bone], l->shape.b, out->b);
}

void rk_limb_centre(const rk_limb* l, const sk_pose_out* po, double c[3]) {
  rig_shape w;
  rk_limb_world(l, po, &w);
  for (int k = 0; k < 3; k++) c[k] = l->shape.type == RIG_CAPSULE ? 0.5 * (w.a[k] + w.b[k]) : w.a[k];
}
