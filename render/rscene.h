/* rscene.h — a take opened for drawing (module prefix rs_): the renderer's only way into a take.
 *
 * Contract: rs_open reads everything a view needs from the take alone — the body tree, the rig
 * rebuilt from its embedded source (each body's visual shapes, moved into the body's frame), the
 * embedded track, the channel indices the instruments use, and a 50 Hz history of a few channels
 * for trails and the timeline. rs_at gives the state at any time t in [0, duration]: body poses
 * interpolated between the two recorded steps around t (positions linearly, orientations by
 * normalised quaternion interpolation along the short arc) and channels linearly; "gear" and
 * "lap" are taken from the earlier step. No heap allocation after rs_open; deterministic. */
#ifndef RSCENE_H
#define RSCENE_H

#include "base/mt.h"
#include "scene/skeleton.h"
#include "sim/rig.h"
#include "sim/track.h"
#include "takes/takefile.h"

#define RS_MAX_SHAPES (RIG_MAX_SHAPES + 4)

typedef struct rs_body {
  const char* name;
  rig_shape shape[RS_MAX_SHAPES];   /* in the body's frame (pose = where that frame is) */
  int nshape;
  int wheel;                         /* RIG_FRONT, RIG_REAR, or −1 */
} rs_body;

/* Channels the views use (index into rs_state.chan, −1 if the take lacks it). */
enum {
  RC_SPEED, RC_GEAR, RC_RPM, RC_THROTTLE, RC_FBRAKE, RC_RBRAKE, RC_LEAN, RC_STEER_TORQUE, RC_FORK, RC_SHOCK,
  RC_FFX, RC_FFY, RC_FLOAD, RC_RFX, RC_RFY, RC_RLOAD, RC_FSLIP, RC_RSLIP, RC_FCAMBER, RC_RCAMBER,
  RC_STATION, RC_OFFSET, RC_HEADING, RC_HIP, RC_TORSO_LEAN, RC_DIST, RC_N
};
extern const char* const rs_chan_names[RC_N];

/* The history: every 1/RS_HIST_HZ s, these columns, then the nplot chosen channels (stride hs). */
#define RS_HIST_HZ 50
#define RS_MAX_PLOT 6
#define RS_DEFAULT_PLOT "speed,lean,throttle,front_brake,steer_torque"
enum { RH_T, RH_X, RH_Y, RH_SPEED, RH_DIST, RH_LEAN, RH_N };   /* RH_LEAN: the root body's roll, rad */

typedef struct rs_take {
  char path[1024];
  take_reader* r;
  const take_schema* s;
  rig* rg;
  track* tk;
  long nsteps;
  double dt, duration;
  int nb;
  rs_body* body;
  int root;                          /* the root body (the frame) */
  int ch[RC_N];
  int nplot;                         /* channels chosen for the timeline (rs_open's plot) */
  int plot_ch[RS_MAX_PLOT];
  double plot_lo[RS_MAX_PLOT], plot_hi[RS_MAX_PLOT];   /* their range over the take */
  int nhist, hs;
  double* hist;                      /* nhist × hs */
  double zmin, zmax;                 /* track elevation range */
  double* buf;                       /* two steps of poses and channels (scratch) */
  /* The rider's skeleton (scene/skeleton.h), posed by rs_at; NULL when the rig has none: then the
   * rider's primitives are drawn, else the views leave them out (sc_rider_shape) for it. */
  sk_skeleton* sk;
  int skb[SK_NBODY];                 /* the bodies sk_pose reads: indices into the poses */
  int road_hint;
} rs_take;

typedef struct rs_state {
  double t;
  double* pose;                      /* 7·nb: x y z qw qx qy qz, world */
  double* chan;                      /* nchan */
  sk_pose_out* skp;                  /* the skeleton at t (when k->sk) */
} rs_state;

/* Open a take for drawing. plot: the channels for the timeline, comma-separated (NULL: RS_DEFAULT_PLOT;
 * at most RS_MAX_PLOT; an unknown name is MT_EINPUT naming it). An incomplete or unreadable take is
 * MT_EINPUT naming the file. */
int rs_open(rs_take* k, const char* path, const char* plot, mt_err* e);
void rs_close(rs_take* k);
/* State storage for k (allocated once). */
void rs_state_init(const rs_take* k, rs_state* st);
void rs_state_free(rs_state* st);
/* The state at time t (clamped to [0, duration]); the skeleton's pose with it: the bodies at t,
 * the road under it, the look point where the history puts the machine 1.5 s later
 * (SK_LOOK_AHEAD), the release blend stepped over the history's samples of the last 0.6 s. */
int rs_at(rs_take* k, double t, rs_state* st, mt_err* e);
/* The skeleton for a state filled by hand with a live pose (the ride window: no history of its
 * own): riding, looking along the unit heading (hx, hy), released only by the lean. */
void rs_rider_live(rs_take* k, rs_state* st, double hx, double hy);
/* Channel value or `dflt` if the take lacks it. */
double rs_ch(const rs_take* k, const rs_state* st, int rc, double dflt);

/* Small geometry shared by the views. */
void rs_rotate(const double q[4], const double v[3], double out[3]);        /* q = w x y z */
void rs_pose_point(const double pose[7], const double local[3], double out[3]);

#endif
