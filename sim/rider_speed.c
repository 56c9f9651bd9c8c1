/* rider_speed.c — the rider's longitudinal feed-forward (see rider_speed.h). */
#include "sim/rider_speed.h"

#include <math.h>
#include <string.h>

#include "sim/drivetrain.h"
#include "sim/engine.h"

void rider_drive_build(const rig* r, double mass, double b, double p, double h, double up_rpm, rider_drive* d) {
  memset(d, 0, sizeof *d);
  /* crank speeds up to just past the rev limiter's band (the table is held beyond) */
  d->w_max = r->engine.rev_limit + r->engine.limiter_band + 50;
  for (int i = 0; i < RIDER_DRIVE_NW; i++) {
    double w = d->w_max * i / (RIDER_DRIVE_NW - 1);
    for (int j = 0; j < RIDER_DRIVE_NU; j++) {
      engine_out eo;
      engine_eval(&r->engine, w, (double)j / (RIDER_DRIVE_NU - 1), &eo);
      d->tq[i][j] = eo.torque_brake;
    }
  }
  d->ngears = r->drive.ngears;
  for (int g = 1; g <= d->ngears && g < 8; g++) d->ratio[g] = drive_gear_ratio(&r->drive, g);
  d->r_front = r->wheel[0].tyre.r0;
  d->r_rear = r->wheel[1].tyre.r0;
  d->brake_front = r->drive.brake_front;
  d->brake_rear = r->drive.brake_rear;
  d->rear_share = 0.15;   /* under hard braking the rear carries little load: a light pedal */
  d->mass = mass;
  d->a_wheelie = h > 0 ? MT_G * b / h : INFINITY;
  d->a_stoppie = h > 0 ? MT_G * (p - b) / h : INFINITY;
  d->up_rpm = up_rpm;
  d->i_crank = r->engine.inertia;
}

/* crank-speed cell */
static void wcell(const rider_drive* d, double w, int* i, double* u) {
  double f = mt_clamp(w, 0, d->w_max) / d->w_max * (RIDER_DRIVE_NW - 1);
  int k = (int)floor(f);
  if (k > RIDER_DRIVE_NW - 2) k = RIDER_DRIVE_NW - 2;
  *i = k;
  *u = f - k;
}

double rider_drive_rot_mass(const rider_drive* d, int g) {
  double m = d->i_front / (d->r_front * d->r_front) + d->i_rear / (d->r_rear * d->r_rear);
  if (g >= 1 && g <= d->ngears) m += d->i_crank * d->ratio[g] * d->ratio[g] / (d->r_rear * d->r_rear);
  return m;
}

double rider_drive_torque(const rider_drive* d, double w, double u) {
  int i;
  double a;
  wcell(d, w, &i, &a);
  double f = mt_clamp(u, 0, 1) * (RIDER_DRIVE_NU - 1);
  int j = (int)floor(f);
  if (j > RIDER_DRIVE_NU - 2) j = RIDER_DRIVE_NU - 2;
  double c = f - j;
  double t0 = d->tq[i][j] + c * (d->tq[i][j + 1] - d->tq[i][j]);
  double t1 = d->tq[i + 1][j] + c * (d->tq[i + 1][j + 1] - d->tq[i + 1][j]);
  return t0 + a * (t1 - t0);
}

double rider_drive_throttle(const rider_drive* d, double w, int gear, double force) {
  if (gear < 1 || gear > d->ngears) return 0;
  double T = force * d->r_rear / d->ratio[gear];   /* crank torque wanted */
  int i;
  double a;
  wcell(d, w, &i, &a);
  /* walk up the throttle column at this speed (torque rises with throttle) */
  double prev = d->tq[i][0] + a * (d->tq[i + 1][0] - d->tq[i][0]);
  if (T <= prev) return 0;
  for (int j = 1; j < RIDER_DRIVE_NU; j++) {
    double cur = d->tq[i][j] + a * (d->tq[i + 1][j] - d->tq[i][j]);
    if (cur >= T) {
      double c = cur > prev ? (T - prev) / (cur - prev) : 1;
      return (j - 1 + c) / (RIDER_DRIVE_NU - 1);
    }
    prev = cur;
  }
  return 1;
}

double rider_drive_force_max(const rider_drive* d, double V) {
  double w_up = d->up_rpm * MT_PI / 30, best = 0;
  for (int g = 1; g <= d->ngears; g++) {
    double w = fmax(V, 0) / d->r_rear * d->ratio[g];
    if (w > w_up && g < d->ngears) continue;   /* the rule has shifted out of it */
    best = rider_drive_torque(d, w, 1) * d->ratio[g] / d->r_rear;
    break;
  }
  return fmax(best, 0);
}

void rider_drive_brakes(const rider_drive* d, double force, double* front, double* rear) {
  double F = fmax(force, 0);
  *front = mt_clamp((1 - d->rear_share) * F * d->r_front / d->brake_front, 0, 1);
  *rear = mt_clamp(d->rear_share * F * d->r_rear / d->brake_rear, 0, 1);
}
