/* rider_points.c — the grips, footpegs and seat in the rig's coordinates (see rider_points.h). */
#include "scene/rider_points.h"

#include <math.h>
#include <string.h>

/* The clip-on bar: the steering body's widest box (the first of equal width); its ends 6 cm in. */
static int grips(const rig* rg, double grip[2][3]) {
  int sb = rig_body_index(rg, "steering"), have = 0;
  if (sb < 0) return 0;
  const rig_body* b = &rg->body[sb];
  double half = 0;
  for (int s = 0; s < b->nshape; s++) {
    const rig_shape* sh = &b->shape[s];
    if (sh->type != RIG_BOX || (have && !(sh->b[1] > 2 * (half + 0.06)))) continue;
    half = 0.5 * sh->b[1] - 0.06;
    memcpy(grip[0], sh->a, sizeof grip[0]);
    have = 1;
  }
  if (!have) return 0;
  grip[0][1] = half;
  memcpy(grip[1], grip[0], sizeof grip[1]);
  grip[1][1] = -half;
  return 1;
}

/* The seat: the top of the frame's highest box below the rider_pelvis joint anchor h, at h's x. */
static int seat(const rig* rg, double out[3]) {
  int fb = rig_body_index(rg, "frame"), rb = rig_body_index(rg, "rider_pelvis");
  if (fb < 0 || rb < 0 || rg->body[rb].njoint <= 0) return 0;
  const double* h = rg->joint[rg->body[rb].joint0].anchor;
  double top = -1e9;
  const rig_body* b = &rg->body[fb];
  for (int s = 0; s < b->nshape; s++) {
    const rig_shape* sh = &b->shape[s];
    double cz = sh->a[2] + 0.5 * sh->b[2];
    if (sh->type == RIG_BOX && fabs(h[0] - sh->a[0]) <= 0.5 * sh->b[0] && cz <= h[2] && cz > top)
      top = cz;
  }
  out[0] = h[0], out[1] = 0, out[2] = top > -1e9 ? top : h[2];
  return 1;
}

void sc_rider_points_get(const rig* rg, sc_rider_points* out) {
  memset(out, 0, sizeof *out);
  out->have_grip = grips(rg, out->grip);
  if (rig_body_index(rg, "frame") >= 0) {
    out->have_peg = 1;
    for (int s = 0; s < 2; s++) {
      out->peg[s][0] = SC_FOOTPEG_X, out->peg[s][1] = s ? -SC_FOOTPEG_Y : SC_FOOTPEG_Y, out->peg[s][2] = SC_FOOTPEG_Z;
    }
  }
  out->have_seat = seat(rg, out->seat);
}

int sc_rider_shape(const rig* rg, int rb, int s) {
  int pel = rig_body_index(rg, "rider_pelvis"), tor = rig_body_index(rg, "rider_torso"), fr = rig_body_index(rg, "frame");
  if (rb < 0 || (rb != pel && rb != tor && rb != fr) || s < 0 || s >= rg->body[rb].nshape) return 0;
  if (rb != fr) return 1;
  const rig_shape* sh = &rg->body[rb].shape[s];
  return pel >= 0 && rg->body[pel].nshape > 0 && sh->type == RIG_CAPSULE && !memcmp(sh->rgba, rg->body[pel].shape[0].rgba, sizeof sh->rgba);
}
