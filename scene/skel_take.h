/* skel_take.h — the skeleton's per-frame input (scene/skeleton.h) from a take's motion
 * (scene/motion.h), so the exporters and the Cairo views pose the same rider at the same time.
 *
 *   - the four bodies' poses at time t, interpolated as sc_motion_pose_at does;
 *   - the road: the take's track under any point (the plane z = 0 without a track);
 *   - the look point: where the frame will be SK_LOOK_AHEAD later, on the road (extrapolated at
 *     the last velocity past the take's end);
 *   - the speed: the frame's, over the step around t;
 *   - the release blend, computed afresh from t − 2·SK_RELEASE_S in steps of SK_RELEASE_DT (the
 *     weights then depend only on t, not on which frames a caller asked for before), with a fall
 *     from fall_from on (the time of the take's "fell" mark; INFINITY: none).
 * Contract: sk_motion_bind fails (−1) when the motion lacks one of sk_body_names; sk_motion_frame
 * never fails. The frame's road_ctx points into sm: sm outlives the frame. Not thread-safe per sm
 * (the road keeps its query hint). */
#ifndef SK_TAKE_H
#define SK_TAKE_H

#include "scene/motion.h"
#include "scene/skeleton.h"

#define SK_LOOK_AHEAD 1.5
#define SK_RELEASE_DT 0.01

typedef struct sk_motion {
  const sc_motion* m;
  int body[SK_NBODY];          /* the motion's index of each of sk_body_names */
  double fall_from;            /* s; INFINITY: no fall event */
  int hint;                    /* the track query's last answer */
} sk_motion;

int sk_motion_bind(sk_motion* sm, const sc_motion* m);
void sk_motion_frame(sk_motion* sm, double t, sk_frame_in* in);
/* The same for a live motion (the ride window: every step is the one current pose, so there is
 * no past and no future to read): the speed unknown and taken as riding (no foot down), the
 * release from the lean alone at once, the look point SK_LIVE_LOOK m along the unit heading
 * (hx, hy) on the road. */
#define SK_LIVE_LOOK 20.0
void sk_motion_frame_live(sk_motion* sm, double t, double hx, double hy, sk_frame_in* in);
/* The road under (x, y) of the motion's track: the sk_road_fn of sk_motion_frame's frames;
 * ctx is the sk_motion. */
double sk_motion_road(void* ctx, double x, double y, double n[3]);

#endif
