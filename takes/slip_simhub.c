/* slip_simhub.c — a take's motion under SimHub's property names (see slip_simhub.h). */
#include "takes/slip_simhub.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/track.h"
#include "sim/vehicle.h"
#include "takes/replay.h"
#include "takes/slip.h"

#define D2R (MT_PI / 180)
#define R2D (180 / MT_PI)

static const rec_channel COLS[] = {
  {"SpeedKmh", "km/h"},
  {"AccelerationSurge", "m/s^2"}, {"AccelerationSway", "m/s^2"}, {"AccelerationHeave", "m/s^2"},
  {"GlobalAccelerationG", "g"},
  {"OrientationYaw", "deg"}, {"OrientationPitch", "deg"}, {"OrientationRoll", "deg"},
  {"OrientationYawVelocity", "deg/s"}, {"OrientationPitchVelocity", "deg/s"}, {"OrientationRollVelocity", "deg/s"},
  {"OrientationYawAcceleration", "deg/s^2"}, {"OrientationPitchAcceleration", "deg/s^2"},
  {"OrientationRollAcceleration", "deg/s^2"},
  {"LongitudinalVelocity", "m/s"}, {"LateralVelocity", "m/s"}, {"SteeringAngle", "deg"},
};
enum { S_KMH, S_SURGE, S_SWAY, S_HEAVE, S_GG, S_YAW, S_PITCH, S_ROLL, S_YAWV, S_PITCHV, S_ROLLV, S_YAWA, S_PITCHA, S_ROLLA,
       S_VX, S_VY, S_STEER, S_N };

int slip_simhub_ncol(void) { return (int)MT_ARRAY_LEN(COLS); }
const rec_channel* slip_simhub_cols(void) { return COLS; }

int slip_simhub_read(take_reader* r, const char* path, long step0, long n, double* out, mt_err* e) {
  const take_schema* s = take_schema_of(r);
  static const char* NEED[] = {"speed", "com_ax", "com_ay", "com_az", "heading", "pitch", "lean", "yaw_rate", "roll_rate",
                               "steer_angle", "station", "offset"};
  enum { C_V, C_AX, C_AY, C_AZ, C_HEAD, C_PITCH, C_LEAN, C_R, C_P, C_D, C_ST, C_OFF, C_N };
  int ci[C_N];
  for (int i = 0; i < C_N; i++) {
    ci[i] = -1;
    for (int k = 0; k < s->nchan; k++)
      if (!strcmp(s->chan_names[k], NEED[i])) ci[i] = k;
    if (ci[i] < 0) return mt_fail(e, MT_EINPUT, "%s: --simhub: the take has no channel '%s'", path, NEED[i]);
  }
  rig* rg = NULL;
  track* tk = NULL;
  vehicle* v = NULL;
  int rc = replay_rebuild(r, 1, &rg, &tk, e);
  if (rc) {
    char m[sizeof e->msg];
    snprintf(m, sizeof m, "%s", e->msg);
    snprintf(e->msg, sizeof e->msg, "%s: --simhub: rebuilding the machine: %s", path, m);
    return MT_EINPUT;
  }
  if (!(v = veh_new(rg, track_road(tk), 0, e))) rc = MT_EINPUT;
  if (!rc && veh_state_size(v) != s->nstate)
    rc = mt_fail(e, MT_EINPUT, "%s: --simhub: the take's state has %d values, the rebuilt machine %d", path, s->nstate,
                 veh_state_size(v));
  /* H steps (10 ms) either side for the central differences (clamped at the take's ends): the
   * channels are stored as 32-bit floats, whose steps would swamp a 1 ms second difference */
  long N = take_nsteps(r), H = (long)fmax(1, lround(0.01 / s->timestep));
  long a = step0 - H > 0 ? step0 - H : 0, b = step0 + n + H < N ? step0 + n + H : N, m = b - a;
  double *ch = NULL, *x = NULL;
  if (!rc) {
    ch = mt_alloc(sizeof(double) * (size_t)s->nchan * (size_t)m);
    x = mt_alloc(sizeof(double) * (size_t)s->nstate * 1000);
    rc = take_read(r, TAKE_CHAN, a, m, ch, e);
  }
  const double* ax = rg ? rg->joint[rg->j_steer >= 0 ? rg->j_steer : 0].axis : NULL;
  double caster = rg && rg->j_steer >= 0 ? atan2(-ax[0], ax[2]) : 0, dt = s->timestep;
  for (long i = 0; !rc && i < n; i++) {
    long k = step0 + i - a;   /* row in ch */
    const double* c = ch + k * s->nchan;
    long kp = k - H >= 0 ? k - H : 0, kn = k + H < m ? k + H : m - 1;
    const double* cp = ch + kp * s->nchan;
    const double* cn = ch + kn * s->nchan;
    double span = (kn - kp) * dt;
    double* o = out + i * S_N;
    o[S_KMH] = c[ci[C_V]] * 3.6;
    o[S_SURGE] = c[ci[C_AX]];
    o[S_SWAY] = c[ci[C_AY]];
    o[S_HEAVE] = c[ci[C_AZ]];
    o[S_GG] = -c[ci[C_AX]] / MT_G;
    o[S_YAW] = c[ci[C_HEAD]];
    o[S_PITCH] = c[ci[C_PITCH]];
    o[S_ROLL] = c[ci[C_LEAN]];
    o[S_YAWV] = c[ci[C_R]];
    o[S_ROLLV] = c[ci[C_P]];
    o[S_PITCHV] = span > 0 ? (cn[ci[C_PITCH]] - cp[ci[C_PITCH]]) / span : 0;
    o[S_YAWA] = span > 0 ? (cn[ci[C_R]] - cp[ci[C_R]]) / span : 0;
    o[S_ROLLA] = span > 0 ? (cn[ci[C_P]] - cp[ci[C_P]]) / span : 0;
    /* pitch acceleration: the second difference of the pitch over the same neighbours (0 where
     * the take's ends leave them lopsided) */
    o[S_PITCHA] = kn - k == H && k - kp == H ? (cn[ci[C_PITCH]] - 2 * c[ci[C_PITCH]] + cp[ci[C_PITCH]]) / (H * dt * H * dt) : 0;
    /* the CG's velocity in the heading axes, from the recorded state */
    if (i % 1000 == 0 && (rc = take_read(r, TAKE_STATE, step0 + i, n - i < 1000 ? n - i : 1000, x, e))) break;
    veh_set_state(v, x + (i % 1000) * s->nstate);
    double vel[3];
    veh_com_velocity(v, vel);
    double psi = c[ci[C_HEAD]] * D2R;
    o[S_VX] = vel[0] * cos(psi) + vel[1] * sin(psi);
    o[S_VY] = -vel[0] * sin(psi) + vel[1] * cos(psi);
    double nrm[3], pr, dg;
    track_normal(tk, c[ci[C_ST]], c[ci[C_OFF]], nrm);
    slip_wheel_headings(psi, c[ci[C_PITCH]] * D2R, c[ci[C_LEAN]] * D2R, c[ci[C_D]] * D2R, caster, nrm, &pr, &dg);
    o[S_STEER] = dg * R2D;
  }
  free(ch);
  free(x);
  if (v) veh_free(v);
  if (rg) rig_free(rg);
  if (tk) track_free(tk);
  return rc;
}
