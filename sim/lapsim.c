/* lapsim.c — the machine's minimum lap time on a line, quasi-steady-state (see lapsim.h). */
#include "sim/lapsim.h"

#include <math.h>
#include <string.h>

#include "sim/drivetrain.h"
#include "sim/engine.h"
#include "sim/rider.h"
#include "sim/rider_trim.h"
#include "sim/trim.h"
#include "sim/vehicle.h"

double lapsim_lean(double ay, double h, double crown) {
  /* the rider's balance roll (sim/rider.h) at 1 m/s on curvature ay: V²κ = ay exactly; it is odd
   * in ay, so its magnitude is the roll for |ay| */
  return fabs(rider_balance_roll(1, ay, h, crown));
}

/* The wheels' spin inertia (their bodies' largest principal moment, as the runner takes it) over r². */
static double wheels_mass(const rig* r) {
  double m = 0;
  for (int k = 0; k < 2; k++) {
    const double* I = r->body[r->wheel[k].body].inertia;
    double R = r->wheel[k].tyre.r0;
    m += fmax(I[0], fmax(I[1], I[2])) / (R * R);
  }
  return m;
}

/* Full throttle at road speed v: the gear that gives the most force with the crank at or below the
 * rev limit. Below the lowest gear's working range the clutch slips: the crank is held at a third
 * of the rev limit (only a standing start sees it; a flying lap never drops so low). */
static void drive_at(const rig* r, double v, lapsim_machine* m, int j) {
  double R = r->wheel[RIG_REAR].tyre.r0, best = 0;
  m->gear[j] = 0;
  m->rpm[j] = m->m_crank[j] = 0;
  for (int g = 1; g <= r->drive.ngears; g++) {
    double G = drive_gear_ratio(&r->drive, g), w = v / R * G;
    if (w > r->engine.rev_limit) continue;
    engine_out eo;
    engine_eval(&r->engine, fmax(w, r->engine.rev_limit / 3), 1, &eo);
    double f = eo.torque_brake * G / R;
    if (f > best) {
      best = f;
      m->gear[j] = g;
      m->rpm[j] = w * 30 / MT_PI;
      m->m_crank[j] = r->engine.inertia * G * G / (R * R);
    }
  }
  m->f_drive[j] = best;
}

void lapsim_machine_from_rig(const rig* r, lapsim_machine* m) {
  memset(m, 0, sizeof *m);
  double com[3];
  m->mass = rig_total_mass(r, com);
  m->p = r->wheel[RIG_FRONT].centre[0] - r->wheel[RIG_REAR].centre[0];
  m->b = com[0] - r->wheel[RIG_REAR].centre[0];
  m->h = com[2];   /* the design frame's z is up from the road under the rear contact */
  rider_tyre_peaks(r, &m->mu_y, &m->mu_x);
  m->crown = r->wheel[RIG_REAR].tyre.crown;
  /* the racer tucks in on the straights, where drag matters: the tucked Cd·A when the rig has one */
  double cda = r->aero.has_posture ? fmin(r->aero.cd_tucked, r->aero.cd_area) : r->aero.cd_area;
  m->drag = 0.5 * r->aero.rho * cda / m->mass;
  m->lift = 0.5 * r->aero.rho * r->aero.cl_area / m->mass;
  m->m_wheels = wheels_mass(r);
  m->a_wheelie = MT_G * m->b / m->h;
  m->a_stoppie = MT_G * (m->p - m->b) / m->h;
  for (int j = 0; j < LAPSIM_NV; j++) drive_at(r, LAPSIM_VMAX * j / (LAPSIM_NV - 1), m, j);
  int top = drive_gear_ratio(&r->drive, r->drive.ngears) > 0 ? r->drive.ngears : 1;
  m->v_rev = r->engine.rev_limit * r->wheel[RIG_REAR].tyre.r0 / drive_gear_ratio(&r->drive, top);
}

int lapsim_machine_turns(const rig* r, lapsim_machine* m, mt_err* e) {
  m->nturn = 0;
  vehicle* v = veh_new(r, (road){0}, 0, e);
  if (!v) return e->code ? e->code : MT_EINTERNAL;
  int first = -1;
  for (int k = 0; k < LAPSIM_NT; k++) {
    double V = LAPSIM_TURN_V0 + k * LAPSIM_TURN_DV, roll, ay = 0, n = 1 - V * V * m->lift / MT_G;
    int tyre = trim_turn_limit(v, V, &roll, &ay);
    m->turn_ay[k] = tyre && ay > 0 && n > 0 ? ay : 0;
    m->turn_tyre[k] = m->turn_ay[k] > 0 ? tyre : 0;
    m->turn_roll[k] = m->turn_ay[k] > 0 ? roll : 0;
    m->mu_turn[k] = m->turn_ay[k] > 0 ? m->turn_ay[k] / (MT_G * n) : 0;
    if (m->mu_turn[k] > 0 && first < 0) first = k;
  }
  veh_free(v);
  if (first < 0) return MT_OK;
  /* a speed without a fold takes its neighbour's friction: the one below, or the first found */
  for (int k = 0; k < LAPSIM_NT; k++)
    if (!(m->mu_turn[k] > 0)) {
      int from = k > first ? k - 1 : first;
      m->mu_turn[k] = m->mu_turn[from];
      m->turn_tyre[k] = m->turn_tyre[from];
    }
  m->nturn = LAPSIM_NT;
  return MT_OK;
}

/* the turn grid's nearest speed to v */
static int turn_cell(const lapsim_machine* m, double v) {
  return (int)lround(mt_clamp((v - LAPSIM_TURN_V0) / LAPSIM_TURN_DV, 0, m->nturn - 1));
}

/* The lateral friction the passes corner with at speed v: grip × the tyres' peak, or with the
 * machine's own cornering limit the lesser of that and its steady turn's (linear in v between
 * the grid's speeds, held beyond its ends). */
static double mu_lat(const lapsim_machine* m, double v, double grip) {
  double mu = m->mu_y;
  if (m->nturn > 0) {
    double f = mt_clamp((v - LAPSIM_TURN_V0) / LAPSIM_TURN_DV, 0, m->nturn - 1);
    int k = (int)floor(f);
    if (k > m->nturn - 2) k = m->nturn - 2;
    double u = f - k;
    mu = fmin(mu, m->mu_turn[k] + u * (m->mu_turn[k + 1] - m->mu_turn[k]));
  }
  return grip * mu;
}

double lapsim_lateral_hold(const lapsim_machine* m, double v, double kv, double grip) {
  return mu_lat(m, v, grip) * MT_G * fmax(1 + v * v * (kv - m->lift) / MT_G, 0);
}

/* the drive table's cell at speed v: index and fraction */
static int vcell(double v, double* u) {
  double f = mt_clamp(v, 0, LAPSIM_VMAX) / LAPSIM_VMAX * (LAPSIM_NV - 1);
  int k = (int)floor(f);
  if (k > LAPSIM_NV - 2) k = LAPSIM_NV - 2;
  *u = f - k;
  return k;
}

static double table(const double* t, double v) {
  double u;
  int k = vcell(v, &u);
  return t[k] + u * (t[k + 1] - t[k]);
}

/* Beyond the top gear's rev limit the engine cuts: no drive (the table's last cell would
 * interpolate it away over a cell; cut it exactly instead). */
static double engine_force(const lapsim_machine* m, double v) { return v > m->v_rev ? 0 : table(m->f_drive, v); }

static int wrap(const lapsim_line* ln, int i) { return ln->closed ? ((i % ln->n) + ln->n) % ln->n : i; }

/* the load factor at sample i and speed v: the vertical curvature's and the lift's share */
static double load(const lapsim_machine* m, const lapsim_line* ln, int i, double v) {
  double kv = ln->kv ? ln->kv[i] : 0;
  return fmax(1 + v * v * (kv - m->lift) / MT_G, 0);
}

/* The largest x ≥ 0 with (x/μ)² + y² ≤ (c + k·x)²: a tyre's friction ellipse (normalised lateral
 * demand y, longitudinal x) on a load c + k·x that grows with x (per mass, m/s²). 0 when it
 * cannot hold y at any x; INFINITY when the load grows faster than the demand (k ≥ 1/μ). */
static double ellipse_max(double mu, double c, double k, double y) {
  double A = 1 / (mu * mu) - k * k, disc = c * c * k * k + A * (c * c - y * y);
  if (A <= 0) return INFINITY;
  if (disc < 0) return 0;
  return fmax((c * k + sqrt(disc)) / A, 0);
}

/* lapsim_long_limits with each tyre's lateral friction given (already × grip): mu_f the front's,
 * mu_r the rear's */
static void long_limits(const lapsim_machine* m, double ay, double n, double mu_f, double mu_r, double grip,
                        double* drive, double* brake) {
  double mu_x = grip * m->mu_x, ge = fmax(n, 0) * MT_G, p = m->p, b = m->b, a = p - b, h = m->h;
  ay = fabs(ay);
  /* braking, all on the front: its ellipse on the load the deceleration transfers to it; the rear
   * keeps its share of the lateral force (a/p) on the load the deceleration leaves it */
  double front = ellipse_max(mu_x, ge * b / p, h / p, ay * b / (p * mu_f));
  double rear = a / h * (ge - ay / mu_r);
  *brake = fmax(0, fmin(fmin(front, rear), m->a_stoppie));
  /* drive, all on the rear: its ellipse on the load the acceleration transfers to it; the front
   * keeps its lateral share (b/p) on what is left to it (at a_y = 0: the wheelie limit g·b/h) */
  double rdrive = ellipse_max(mu_x, ge * a / p, h / p, ay * a / (p * mu_r));
  double fdrive = b / h * (ge - ay / mu_f);
  *drive = fmax(0, fmin(fmin(rdrive, fdrive), m->a_wheelie));
}

void lapsim_long_limits(const lapsim_machine* m, double ay, double n, double grip, double* drive, double* brake) {
  long_limits(m, ay, n, grip * m->mu_y, grip * m->mu_y, grip, drive, brake);
}

void lapsim_long_limits_at(const lapsim_machine* m, double v, double ay, double n, double grip, double* drive,
                           double* brake) {
  /* with the machine's own cornering limit, the tyre that saturates in its steady turn has that
   * friction across, the other the tyres' peak */
  double mu = mu_lat(m, v, grip), peak = grip * m->mu_y;
  int front = m->nturn > 0 && m->turn_tyre[turn_cell(m, v)] == TRIM_FOLD_FRONT;
  long_limits(m, ay, n, front ? mu : peak, front ? peak : mu, grip, drive, brake);
}

/* the tyres' drive and braking force / mass at sample i riding at v */
static void long_caps(const lapsim_machine* m, const lapsim_line* ln, int i, double v, double grip, double* drive,
                      double* brake) {
  lapsim_long_limits_at(m, v, v * v * ln->k[i], load(m, ln, i, v), grip, drive, brake);
}

/* the line's length from sample i to the next, and the road's grade per metre of it */
static double step(const lapsim_line* ln, int i) { return ln->dl && ln->dl[i] > 1e-9 ? ln->dl[i] : ln->ds; }
static double grade(const lapsim_line* ln, int i) {
  if (!ln->gr) return 0;
  return ln->dl ? ln->gr[i] * ln->ds / step(ln, i) : ln->gr[i];   /* without dl: bit for bit as before */
}

/* cornering limit at each sample, and the rev limit in top gear */
static void corner_pass(const lapsim_machine* m, const lapsim_line* ln, double grip, double* v) {
  double mu_y = grip * m->mu_y;
  for (int i = 0; i < ln->n; i++) {
    double kv = ln->kv ? ln->kv[i] : 0, den = fabs(ln->k[i]) - mu_y * (kv - m->lift);
    v[i] = m->v_rev;
    if (den > 1e-12) v[i] = fmin(v[i], sqrt(mu_y * MT_G / den));
    /* with the machine's own limit the friction changes with speed: the speed, at or below the
     * point mass's, where the demand meets the hold, by bisection (the friction changes by a few
     * per cent over the speeds a turn is taken at, the demand as v²: one crossing; 60 halvings
     * leave well under a millimetre per second) */
    if (m->nturn > 0 && fabs(ln->k[i]) > 0) {
      double lo = 0, hi = v[i];
      for (int it = 0; it < 60; it++) {
        double x = 0.5 * (lo + hi);
        if (x * x * fabs(ln->k[i]) <= lapsim_lateral_hold(m, x, kv, grip)) lo = x;
        else hi = x;
      }
      v[i] = lo;
    }
    /* over a crest keep LAPSIM_CREST_LOAD of the weight on the tyres (lift included) */
    if (kv - m->lift < 0) v[i] = fmin(v[i], sqrt((1 - LAPSIM_CREST_LOAD) * MT_G / (m->lift - kv)));
  }
}

static void forward_pass(const lapsim_machine* m, const lapsim_line* ln, double grip, double* v) {
  int laps = ln->closed ? 2 : 1, last = ln->n - (ln->closed ? 0 : 1);
  for (int l = 0; l < laps; l++)
    for (int j = 1; j <= last; j++) {
      int i = wrap(ln, j), a = wrap(ln, j - 1);
      double va = v[a], drive, brake;
      long_caps(m, ln, a, va, grip, &drive, &brake);
      double f = fmin(drive, engine_force(m, va) / m->mass);
      double mr = m->mass / (m->mass + m->m_wheels + table(m->m_crank, va));
      double ax = (f - m->drag * va * va - MT_G * grade(ln, a)) * mr;
      v[i] = fmin(v[i], sqrt(fmax(va * va + 2 * ax * step(ln, a), 0)));
    }
}

/* braking: declutched (a slipper clutch), so only the wheels' spin adds to the mass */
static void backward_pass(const lapsim_machine* m, const lapsim_line* ln, double grip, double* v) {
  int laps = ln->closed ? 2 : 1, first = ln->n - 2 + (ln->closed ? 1 : 0);
  double mr = m->mass / (m->mass + m->m_wheels);
  for (int l = 0; l < laps; l++)
    for (int j = first; j >= 0; j--) {
      int i = wrap(ln, j), b = wrap(ln, j + 1);
      double vb = v[b], drive, brake;
      long_caps(m, ln, b, vb, grip, &drive, &brake);
      double dec = (brake + m->drag * vb * vb + MT_G * grade(ln, b)) * mr;
      v[i] = fmin(v[i], sqrt(fmax(vb * vb + 2 * dec * step(ln, i), 0)));
    }
}

/* the lap's time and peaks from the profile */
static void summarise(const lapsim_machine* m, const lapsim_line* ln, const double* v, lapsim_result* res) {
  int last = ln->n - (ln->closed ? 0 : 1);
  res->v_min = INFINITY;
  for (int j = 0; j < ln->n; j++) {
    res->v_min = fmin(res->v_min, v[j]);
    res->v_max = fmax(res->v_max, v[j]);
    res->ay_peak = fmax(res->ay_peak, v[j] * v[j] * fabs(ln->k[j]));
  }
  for (int j = 0; j < last; j++) {
    int i = wrap(ln, j), b = wrap(ln, j + 1);
    double vm = 0.5 * (v[i] + v[b]), dv2 = (v[b] * v[b] - v[i] * v[i]) / (2 * step(ln, i));
    res->time += vm > 1e-9 ? step(ln, i) / vm : 0;
    double grav = m->drag * vm * vm + MT_G * grade(ln, i);
    if (dv2 > 0) res->drive_peak = fmax(res->drive_peak, dv2 * (m->mass + m->m_wheels + table(m->m_crank, vm)) / m->mass + grav);
    else res->brake_peak = fmax(res->brake_peak, -dv2 * (m->mass + m->m_wheels) / m->mass - grav);
  }
  res->lean_max = lapsim_lean(res->ay_peak, m->h, m->crown);
  double u;
  int k = vcell(res->v_max, &u);
  res->gear_top = m->gear[u < 0.5 ? k : k + 1];
  res->rpm_max = table(m->rpm, res->v_max);
}

int lapsim_run(const lapsim_machine* m, const lapsim_line* ln, double grip, double* v, lapsim_result* res) {
  memset(res, 0, sizeof *res);
  if (!v || ln->n < 2 || !(ln->ds > 0) || !(grip > 0)) return MT_EINPUT;
  double* w = v;
  corner_pass(m, ln, grip, w);
  forward_pass(m, ln, grip, w);
  backward_pass(m, ln, grip, w);
  summarise(m, ln, w, res);
  res->lean_limit = lapsim_lean(m->mu_y * MT_G, m->h, m->crown);
  res->brake_limit = fmin(m->mu_x * MT_G, m->a_stoppie);
  return MT_OK;
}
