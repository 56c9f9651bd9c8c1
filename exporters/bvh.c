/* bvh.c — the BVH writer (see bvh.h): check the skeleton, write the hierarchy, then one line of
 * channels per frame. */
#include "exporters/bvh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"
#include "exporters/xform.h"

/* Degrees with 6 decimals and metres with 6 (a micrometre): far below the 1 mm round trip. */
#define BVH_NUM "%.6f"

void ex_bvh_euler_zxy(const double q[4], double out[3]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  /* the matrix entries R = Rz Rx Ry needs: R21 = sin x; R01 = -sin z cos x, R11 = cos z cos x;
   * R20 = -cos x sin y, R22 = cos x cos y */
  double r21 = 2 * (y * z + w * x), r01 = 2 * (x * y - w * z), r11 = 1 - 2 * (x * x + z * z);
  double r20 = 2 * (x * z - w * y), r22 = 1 - 2 * (x * x + y * y);
  if (r21 > 1) r21 = 1;
  if (r21 < -1) r21 = -1;
  out[1] = asin(r21);
  if (fabs(r21) < 1 - 1e-12) {
    out[0] = atan2(-r01, r11);
    out[2] = atan2(-r20, r22);
  } else {   /* gimbal lock (x = ±90°): z and y turn about one axis; put it all in z */
    double r00 = 1 - 2 * (y * y + z * z), r10 = 2 * (x * y + w * z);
    out[0] = atan2(r10, r00);
    out[2] = 0;
  }
}

static int check(const ex_bvh_motion* m, mt_err* e) {
  if (m->nbone < 1 || !m->bone) return mt_fail(e, MT_EINPUT, "bvh: the skeleton has no bones");
  if (m->nframe < 1 || !m->pose) return mt_fail(e, MT_EINPUT, "bvh: no frames");
  if (!(m->fps > 0) || !mt_isfinite(m->fps)) return mt_fail(e, MT_EINPUT, "bvh: fps %g must be > 0", m->fps);
  for (int b = 0; b < m->nbone; b++) {
    const ex_bvh_bone* bn = &m->bone[b];
    const char* nm = bn->name ? bn->name : "?";
    if (!bn->name || !bn->name[0] || strpbrk(bn->name, " \t\r\n{}"))
      return mt_fail(e, MT_EINPUT, "bvh: bone %d: field 'name' '%s' must be non-empty without spaces or braces", b, nm);
    if (b == 0 ? bn->parent != -1 : (bn->parent < 0 || bn->parent >= b))
      return mt_fail(e, MT_EINPUT, "bvh: bone '%s': field 'parent' %d must be %s", nm, bn->parent,
                     b == 0 ? "-1 (the root)" : "an earlier bone");
    for (int o = 0; o < b; o++)
      if (!strcmp(m->bone[o].name, bn->name)) return mt_fail(e, MT_EINPUT, "bvh: bone '%s': field 'name' is repeated", nm);
    for (int k = 0; k < 3; k++)
      if (!mt_isfinite(bn->head[k]) || !mt_isfinite(bn->tail[k]))
        return mt_fail(e, MT_EINPUT, "bvh: bone '%s': field 'head'/'tail' is not finite", nm);
    double qn = sqrt(bn->rest_q[0] * bn->rest_q[0] + bn->rest_q[1] * bn->rest_q[1] + bn->rest_q[2] * bn->rest_q[2] +
                     bn->rest_q[3] * bn->rest_q[3]);
    if (!(fabs(qn - 1) < 1e-6)) return mt_fail(e, MT_EINPUT, "bvh: bone '%s': field 'rest_q' has norm %g, not 1", nm, qn);
  }
  for (long f = 0; f < m->nframe * m->nbone; f++)
    for (int c = 0; c < 7; c++)
      if (!mt_isfinite(m->pose[7 * f + c]))
        return mt_fail(e, MT_EINPUT, "bvh: bone '%s': pose at frame %ld is not finite", m->bone[f % m->nbone].name,
                       f / m->nbone);
  return MT_OK;
}

static void put_vec(mt_sb* s, const double v[3]) {
  double y[3] = {v[0], v[1], v[2]};
  ex_yup_vec(y);
  mt_sbprintf(s, BVH_NUM " " BVH_NUM " " BVH_NUM, y[0] + 0.0, y[1] + 0.0, y[2] + 0.0);   /* + 0.0: no "-0" */
}

static int has_child(const ex_bvh_motion* m, int b) {
  for (int c = b + 1; c < m->nbone; c++)
    if (m->bone[c].parent == b) return 1;
  return 0;
}

/* Joint b and its subtree, children in index order, indented by depth. */
static void put_joint(mt_sb* s, const ex_bvh_motion* m, int b, int depth) {
  const ex_bvh_bone* bn = &m->bone[b];
  char ind[64];
  int d = depth < 30 ? depth : 30;
  memset(ind, '\t', (size_t)d), ind[d] = 0;
  mt_sbprintf(s, "%s%s %s\n%s{\n%s\tOFFSET ", ind, b == 0 ? "ROOT" : "JOINT", bn->name, ind, ind);
  double off[3];
  for (int k = 0; k < 3; k++) off[k] = b == 0 ? bn->head[k] : bn->head[k] - m->bone[bn->parent].head[k];
  put_vec(s, off);
  mt_sbprintf(s, "\n%s\tCHANNELS %s\n", ind,
              b == 0 ? "6 Xposition Yposition Zposition Zrotation Xrotation Yrotation" : "3 Zrotation Xrotation Yrotation");
  for (int c = b + 1; c < m->nbone; c++)
    if (m->bone[c].parent == b) put_joint(s, m, c, depth + 1);
  if (!has_child(m, b)) {
    double end[3];
    for (int k = 0; k < 3; k++) end[k] = bn->tail[k] - bn->head[k];
    mt_sbprintf(s, "%s\tEnd Site\n%s\t{\n%s\t\tOFFSET ", ind, ind, ind);
    put_vec(s, end);
    mt_sbprintf(s, "\n%s\t}\n", ind);
  }
  mt_sbprintf(s, "%s}\n", ind);
}

/* World rotation of bone b at a frame, relative to its rest: W = q r⁻¹. */
static void world_delta(const ex_bvh_motion* m, const double* frame, int b, double w[4]) {
  double rinv[4];
  ex_qconj(m->bone[b].rest_q, rinv);
  ex_qmul(frame + 7 * b + 3, rinv, w);
  ex_qnorm(w);
}

/* One frame's channels, in the hierarchy's (depth-first) order. */
static void put_channels(mt_sb* s, const ex_bvh_motion* m, const double* frame, int b) {
  double w[4], wp[4], pinv[4], loc[4], eul[3];
  world_delta(m, frame, b, w);
  if (b == 0) {
    mt_sbprintf(s, " ");
    put_vec(s, frame);
    memcpy(loc, w, sizeof loc);
  } else {
    world_delta(m, frame, m->bone[b].parent, wp);
    ex_qconj(wp, pinv);
    ex_qmul(pinv, w, loc);
  }
  ex_yup_quat(loc);
  ex_bvh_euler_zxy(loc, eul);
  mt_sbprintf(s, " " BVH_NUM " " BVH_NUM " " BVH_NUM, eul[0] * 180 / MT_PI + 0.0,
              eul[1] * 180 / MT_PI + 0.0, eul[2] * 180 / MT_PI + 0.0);
  for (int c = b + 1; c < m->nbone; c++)
    if (m->bone[c].parent == b) put_channels(s, m, frame, c);
}

char* ex_bvh_text(const ex_bvh_motion* m, size_t* len, mt_err* e) {
  if (check(m, e)) return NULL;
  mt_sb s = {0};
  mt_sbprintf(&s, "HIERARCHY\n");
  put_joint(&s, m, 0, 0);
  mt_sbprintf(&s, "MOTION\nFrames: %ld\nFrame Time: %.9f\n", m->nframe, 1 / m->fps);
  for (long f = 0; f < m->nframe; f++) {
    const double* frame = m->pose + 7 * (size_t)f * (size_t)m->nbone;
    mt_sb line = {0};
    put_channels(&line, m, frame, 0);
    mt_sbprintf(&s, "%s\n", line.p + 1);   /* the line without its leading space */
    free(line.p);
  }
  if (len) *len = s.n;
  return s.p;
}

int ex_bvh_write(const ex_bvh_motion* m, const char* path, mt_err* e) {
  size_t n;
  char* t = ex_bvh_text(m, &n, e);
  if (!t) return e->code;
  int rc = outfile_write_all(path, t, n, e);
  free(t);
  return rc;
}
