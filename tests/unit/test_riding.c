/* test_riding.c — the machine ridden: straight running, stoppie, wheelie. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/vehicle_mj.h"
#include "sim/rider.h"
#include "sim/trim.h"
#include "tests/unit/test.h"

typedef struct hold { rider_params p; rider_state s; rider_target t; } hold;

static void hold_upright(vehicle* v, void* data) {
  hold* h = data;
  rider_control(&h->p, &h->s, v, &h->t, v->rig->timestep);
}

MT_TEST(riding_straight_30ms_stays_upright) {
  /* 30 m/s on a flat road, a sideways kick of the frame at the start; a light roll controller
   * (steering torque on roll and roll rate, as a rider's hands do) keeps it up for 10 s. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  trim_spec s = {0};
  s.speed = 30;
  s.fix_roll = 1;
  s.gear = -1;
  trim_result t;
  CHECK_MSG(trim_solve(v, &s, &t, &e) == MT_OK, "%s", e.msg);
  hold h = {0};
  rider_default_params(&h.p);
  h.t.speed = 30;
  h.t.roll_mode = 1;
  h.t.auto_gear = 1;
  v->control = hold_upright;
  v->control_data = &h;
  v->d->qvel[v->dadr[r->body[0].joint0] + 3] += 0.2;   /* roll-rate kick, rad/s */
  double max_roll = 0, roll, pitch, yaw;
  for (int i = 0; i < 10000; i++) {
    CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
    veh_frame_euler(v, &roll, &pitch, &yaw);
    if (fabs(roll) > max_roll) max_roll = fabs(roll);
  }
  double speed = veh_speed(v);
  veh_free(v);
  rig_free(r);
  CHECK_MSG(max_roll < 0.1, "max |roll| %.3f rad", max_roll);
  CHECK_MSG(fabs(roll) < 0.01, "final roll %.4f rad", roll);
  CHECK_MSG(fabs(speed - 30) < 1.0, "final speed %.2f m/s", speed);
}

static void open_loop(vehicle* v, void* data) {
  hold* h = data;
  /* keep it upright with the same rider, but the test owns throttle and brakes */
  double thr = v->in.throttle, fb = v->in.front_brake, rb = v->in.rear_brake;
  int gear = v->in.gear;
  rider_control(&h->p, &h->s, v, &h->t, v->rig->timestep);
  v->in.throttle = thr;
  v->in.front_brake = fb;
  v->in.rear_brake = rb;
  v->in.gear = gear;
}

MT_TEST(riding_hard_front_brake_lifts_rear_wheel) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  trim_spec s = {0};
  s.speed = 25;
  s.fix_roll = 1;
  s.gear = -1;
  trim_result t;
  CHECK(trim_solve(v, &s, &t, &e) == MT_OK);
  hold h = {0};
  rider_default_params(&h.p);
  h.t.roll_mode = 1;
  v->control = open_loop;
  v->control_data = &h;
  v->in.throttle = 0;
  v->in.clutch = 0;
  double min_rear = 1e9, max_pitch = 0;
  int lifted = 0;
  for (int i = 0; i < 3000 && veh_speed(v) > 2; i++) {
    v->in.front_brake = mt_clamp(i / 200.0, 0, 1);   /* squeeze over 0.2 s */
    CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
    double fz = v->out.wheel[RIG_REAR].fz;
    if (fz < min_rear) min_rear = fz;
    if (!v->out.wheel[RIG_REAR].contact) lifted = 1;
    double roll, pitch, yaw;
    veh_frame_euler(v, &roll, &pitch, &yaw);
    if (pitch > max_pitch) max_pitch = pitch;
  }
  veh_free(v);
  rig_free(r);
  CHECK_MSG(lifted && min_rear == 0, "rear wheel never left the road (min load %.0f N)", min_rear);
  CHECK_MSG(max_pitch > 0.03, "nose-down pitch only %.3f rad", max_pitch);
}

MT_TEST(riding_full_throttle_first_gear_lifts_front_wheel) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  trim_spec s = {0};
  s.speed = 8;
  s.fix_roll = 1;
  s.gear = 1;
  trim_result t;
  CHECK_MSG(trim_solve(v, &s, &t, &e) == MT_OK, "%s", e.msg);
  hold h = {0};
  rider_default_params(&h.p);
  h.t.roll_mode = 1;
  v->control = open_loop;
  v->control_data = &h;
  v->in.gear = 1;
  int lifted = 0;
  double max_pitch_up = 0;
  for (int i = 0; i < 3000 && !lifted; i++) {
    v->in.throttle = mt_clamp(i / 100.0, 0, 1);
    CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
    if (!v->out.wheel[RIG_FRONT].contact) lifted = 1;
    double roll, pitch, yaw;
    veh_frame_euler(v, &roll, &pitch, &yaw);
    if (-pitch > max_pitch_up) max_pitch_up = -pitch;
  }
  veh_free(v);
  rig_free(r);
  CHECK_MSG(lifted, "front wheel never left the road (max nose-up pitch %.3f rad)", max_pitch_up);
}

#include "sim/track.h"
#include "takes/path.h"

typedef struct follow {
  rider_params p;
  rider_state s;
  path* line;
  int hint;
  double speed;
} follow;

static void pr_centre(const void* self, double s, double* x, double* y, double* h) {
  double p[3];
  track_eval(self, s, 0, p, h);
  *x = p[0];
  *y = p[1];
}
static void pr_widths(const void* self, double s, double* l, double* r) { track_widths(self, s, l, r); }

static void follow_line(vehicle* v, void* data) {
  follow* f = data;
  const double* p = v->d->xpos + 3 * v->bid[v->rig->b_frame];
  path_where w;
  path_locate(f->line, p[0], p[1], &f->hint, &w);
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  rider_target t = {0};
  t.speed = f->speed;
  t.curvature = path_curvature(f->line, w.s + 0.5 * veh_speed(v));
  t.offset_error = w.offset_error;
  double he = yaw - w.heading;
  while (he > MT_PI) he -= 2 * MT_PI;
  while (he < -MT_PI) he += 2 * MT_PI;
  t.heading_error = he;
  t.auto_gear = 1;
  rider_control(&f->p, &f->s, v, &t, v->rig->timestep);
}

MT_TEST(riding_skidpad100_at_20ms_leans_as_gravity_and_centripetal_force_demand) {
  /* 20 m/s on the 100 m skidpad. Ideal lean of the line contact: atan(V²/(gR)) = 22.18°; the
   * torus tyres move the contact inward by the crown radius × sin(lean), so the machine leans
   * further: φ = φe + asin(ρ·sin φe / (h − ρ)). The settled lean must be within 5 % of that. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  char path[4096];
  track_resolve("skidpad100", path, sizeof path);
  track* trk = track_load(path, &e);
  CHECK_MSG(trk, "%s", e.msg);
  vehicle* v = veh_new(r, track_road(trk), 0, &e);
  path_road pr = {trk, track_length(trk), 1, pr_centre, pr_widths, NULL};
  follow f = {0};
  rider_default_params(&f.p);
  f.line = path_build(&pr, PATH_CENTRE, 0, 1, 2.0);
  f.hint = -1;
  f.speed = 20;
  double p0[3], h0;
  track_eval(trk, 0, 0, p0, &h0);
  trim_spec s = {0};
  s.speed = 20;
  s.fix_roll = 0;
  s.yaw_rate = 20.0 / 100.0;
  s.gear = -1;
  s.x = p0[0];
  s.y = p0[1];
  s.z = p0[2];
  s.heading = h0;
  trim_result t;
  CHECK_MSG(trim_solve(v, &s, &t, &e) == MT_OK, "%s", e.msg);
  f.s.steer_int = t.steer_torque;   /* the rider holds the bars as the trim found them */
  v->control = follow_line;
  v->control_data = &f;
  double sum = 0, n = 0, max_off = 0;
  for (int i = 0; i < 20000; i++) {
    CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
    if (i >= 10000) {
      double roll, pitch, yaw;
      veh_frame_euler(v, &roll, &pitch, &yaw);
      sum += roll;
      n++;
      int h = -1;
      path_where w;
      const double* fp = v->d->xpos + 3 * v->bid[0];
      path_locate(f.line, fp[0], fp[1], &h, &w);
      if (fabs(w.offset_error) > max_off) max_off = fabs(w.offset_error);
    }
  }
  double V = veh_speed(v);
  double h_cg = 0.545, rho = r->wheel[RIG_REAR].tyre.crown;
  double expect = -rider_balance_roll(V, 1.0 / 100, h_cg, rho);   /* left turn: negative roll */
  double lean = -sum / n;
  path_free(f.line);
  veh_free(v);
  track_free(trk);
  rig_free(r);
  CHECK_MSG(fabs(V - 20) < 0.5, "speed %.2f m/s", V);
  CHECK_MSG(max_off < 1.0, "strayed %.2f m from the circle", max_off);
  CHECK_MSG(fabs(lean - expect) < 0.05 * expect, "settled lean %.2f deg, expected %.2f deg (±5 %%)", lean * 180 / MT_PI,
            expect * 180 / MT_PI);
}
