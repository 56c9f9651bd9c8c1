/* modes_point.c — one point's listed modes and its checks (modes.h), for `mototake modes` and
 * libmototake alike. */
#include <math.h>

#include "sim/modes.h"

const char* const md_joint_share_names[MD_NJOINT_SHARE] = {"steer", "twist", "bend", "rider", "fork", "swingarm"};

int md_check_speed(double v, double uf, const char* uname, mt_err* e) {
  double ms = v * uf;
  if (!(ms >= 0.5 && ms <= 120)) return mt_fail(e, MT_EINPUT, "modes: speed %g %s is out of range (0.5 .. 120 m/s)", v, uname);
  return MT_OK;
}

int md_check_lateral(int turn, double l, mt_err* e) {
  if (turn ? !(fabs(l) <= 2.5) : !(fabs(l) <= 65))
    return mt_fail(e, MT_EINPUT, "modes: --%s %g is out of range (%s)", turn ? "ay" : "lean", l,
                   turn ? "-2.5 .. 2.5 g" : "-65 .. 65 deg");
  return MT_OK;
}

/* The named mode of p with the same root as m (nearest, within 1e-6 relative), or NULL. */
static const md_mode* named_twin(const md_point* p, const lin_mode* m) {
  const md_mode* nm = NULL;
  double bd = 1e300;
  for (int q = 0; q < p->nmode; q++) {
    double d = hypot(p->mode[q].re - m->re, p->mode[q].im - m->im);
    if (d < bd) bd = d, nm = &p->mode[q];
  }
  return nm && bd <= 1e-6 * (1 + hypot(m->re, m->im)) ? nm : NULL;
}

int md_point_rows(vehicle* v, const lin_loop* L, const md_point* p, double fmax, md_row* rows, int max, mt_err* e) {
  const rig* r = v->rig;
  lin_mode md[128];
  int k = lin_modes_loop(v, L, 1e-6, md, 128, e);
  if (k < 0) return -1;
  const int js[MD_NJOINT_SHARE] = {r->j_steer, r->j_twist, r->j_bend, r->j_rider, r->j_fork, r->j_swingarm};
  int n = 0;
  for (int i = 0; i < k && n < max; i++) {
    if (md[i].freq_hz > fmax) continue;
    if (md[i].freq_hz == 0 && (md[i].re < -50 || fabs(md[i].re) < 1e-4)) continue;
    const md_mode* nm = named_twin(p, &md[i]);
    md_row* w = &rows[n++];
    *w = (md_row){.name = nm ? nm->name : MD_OTHER, .matched = nm != NULL, .re = md[i].re, .im = md[i].im,
                  .hz = md[i].freq_hz, .zeta = md[i].damping};
    for (int q = 0; q < MD_NJOINT_SHARE; q++) w->joint[q] = js[q] >= 0 ? md[i].share[js[q]] : 0;
    if (nm) w->roll = nm->share[MD_G_ROLL], w->yaw = nm->share[MD_G_YAW];
  }
  return n;
}

void md_abcd_default(lin_spec* s) {
  static const char* in[] = {"steer_torque", "rider_lean_torque", "throttle", "front_brake", "rear_brake"};
  static const char* out[] = {"speed", "lean", "roll_rate", "yaw_rate", "steer_angle", "steer_rate"};
  for (size_t i = 0; i < MT_ARRAY_LEN(in); i++) lin_spec_add(s, LIN_INPUT, in[i], 0);
  for (size_t i = 0; i < MT_ARRAY_LEN(out); i++) lin_spec_add(s, LIN_OUTPUT, out[i], 0);
}
