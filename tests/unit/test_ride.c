/* test_ride.c — the hand controls (sim/controls.c, takes/ride.c): the manual's two sensitivity
 * forms at a worked point, the band's mapping at given pixels (sign, curves, format 1) and to the
 * vehicle's inputs in a live session, the event's JSON round trip bit for bit, and a restart
 * returning to the start's state exactly. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/controls.h"
#include "takes/ride.h"
#include "tests/unit/test.h"

MT_TEST(ride_sensitivity_product_and_printed_sum) {
  rig_controls c;
  controls_default(&c);
  /* V = 25 m/s, θ = 30° (3θ/π = 1/2): (0.0005 + 0.1)·(1 + 0.675) and 0.1005 + 1.675 */
  CHECK_NEAR(controls_sensitivity(&c, 25, MT_PI / 6), 0.1005 * 1.675, 1e-15);
  CHECK_NEAR(controls_sensitivity(&c, 25, -MT_PI / 6), 0.1005 * 1.675, 1e-15);   /* either side */
  c.sens_sum = 1;
  CHECK_NEAR(controls_sensitivity(&c, 25, MT_PI / 6), 0.1005 + 1.675, 1e-15);
  CHECK_NEAR(controls_sensitivity(&c, 0, 0), 0.0005 + 1, 1e-15);
}

MT_TEST(ride_event_json_round_trip_is_bit_exact) {
  ride_event ev = {1234, RIDE_EV_AXIS, 2, 0.1 + 0.2}, back;
  char js[256];
  ride_event_json(&ev, js, sizeof js);
  mt_err e = {0};
  CHECK_MSG(ride_event_parse(js, 1234, &back, &e) == MT_OK, "%s: %s", js, e.msg);
  CHECK(back.type == ev.type && back.step == ev.step && memcmp(&back.a, &ev.a, sizeof ev.a) == 0 &&
        memcmp(&back.b, &ev.b, sizeof ev.b) == 0);
  CHECK(ride_event_parse("{\"t\":\"wiggle\",\"a\":0,\"b\":0}", 7, &back, &e) == MT_EINPUT && strstr(e.msg, "wiggle"));
}

MT_TEST(ride_band_sets_inputs_and_restart_returns_to_the_trim) {
  ride_session s;
  ride_opts o = {"sport1000", "straight", 50, 20, -1, NULL, 0, 0};
  mt_err e = {0};
  int rc = ride_open(&s, &o, &e);
  CHECK_MSG(rc == MT_OK, "%s", e.msg);
  vehicle* v = s.v;
  double x0[64];
  int nx = veh_state_size(v);
  CHECK(nx <= 64);
  veh_get_state(v, x0);
  /* hands on at (100, 100); 40 px up: throttle (40/200)² */
  CHECK(ride_event_at(&s, RIDE_EV_GRAB, 100, 100, &e) == MT_OK && ride_event_at(&s, RIDE_EV_MOVE, 100, 60, &e) == MT_OK);
  for (int i = 0; i < 50; i++) CHECK(ride_step(&s, &e) == MT_OK);
  CHECK_NEAR(v->in.throttle, 0.04, 1e-15);
  CHECK(v->in.front_brake == 0 && v->in.steer_torque == 0);
  /* 40 px down and 30 px right: brake 0.04 (rear 0.3 of it), torque +30 px × the sensitivity
   * (pointer right: a push on the right grip, positive) */
  CHECK(ride_event_at(&s, RIDE_EV_MOVE, 130, 140, &e) == MT_OK);
  CHECK(ride_step(&s, &e) == MT_OK);
  CHECK(v->in.throttle == 0 && v->in.rear_brake == 0.3 * v->in.front_brake);
  CHECK_NEAR(v->in.front_brake, 0.04, 1e-15);
  CHECK(v->in.steer_torque == 30 * s.ctl.h.sens);
  double V = veh_speed(v);
  CHECK_MSG(s.ctl.h.sens > 0.0005 + 0.004 * (V - 1) && s.ctl.h.sens < (0.0005 + 0.004 * (V + 1)) * 1.05,
            "sensitivity %g N·m/px at %g m/s", s.ctl.h.sens, V);
  /* hands off: nothing on the bars or levers */
  CHECK(ride_event_at(&s, RIDE_EV_GRAB, 0, 0, &e) == MT_OK && ride_step(&s, &e) == MT_OK);
  CHECK(v->in.throttle == 0 && v->in.front_brake == 0 && v->in.steer_torque == 0);
  /* restart: the start's state, bit for bit */
  CHECK(ride_event_at(&s, RIDE_EV_RESTART, 0, 0, &e) == MT_OK);
  double x1[64];
  veh_get_state(v, x1);
  CHECK(memcmp(x0, x1, sizeof(double) * nx) == 0);
  CHECK(!s.ctl.h.on);
  ride_close(&s, NULL, &e);
}

/* The band's mapping at given pixels (issue 34): pointer right is a push on the right grip
 * (positive torque, the machine leans right) and the levers follow the square of the band's
 * length, full at 200 px; a take of format 1 keeps its mapping (negative torque, linear). */
MT_TEST(ride_band_map_sign_and_curves) {
  rig_controls k;
  controls_default(&k);
  double none[RIDE_NAXIS] = {0, 0, 0};
  ride_band b = ride_band_map(&k, RIDE_FORMAT, 0.1, 10, 60, none);
  CHECK_NEAR(b.torque, 1.0, 1e-15);          /* 10 px right × 0.1 N·m/px: +1 N·m, right grip */
  CHECK_NEAR(b.throttle, 0.09, 1e-15);       /* 60 px up: (60/200)² (a linear band gave 0.30) */
  CHECK(b.brake == 0);
  b = ride_band_map(&k, RIDE_FORMAT, 0.1, -10, 100, none);
  CHECK_NEAR(b.torque, -1.0, 1e-15);
  CHECK_NEAR(b.throttle, 0.25, 1e-15);
  CHECK(ride_band_map(&k, RIDE_FORMAT, 0.1, 0, 200, none).throttle == 1);
  CHECK(ride_band_map(&k, RIDE_FORMAT, 0.1, 0, 350, none).throttle == 1);   /* past full: full */
  b = ride_band_map(&k, RIDE_FORMAT, 0.1, 0, -60, none);
  CHECK(b.throttle == 0);
  CHECK_NEAR(b.brake, 0.09, 1e-15);
  CHECK(ride_band_map(&k, RIDE_FORMAT, 0.1, 0, -400, none).brake == 1);
  CHECK(ride_band_map(&k, RIDE_FORMAT, 0.1, 2000, 0, none).torque == k.max_torque);   /* clamped */
  /* a controller: stick right is the right grip too; triggers stay linear */
  double pad[RIDE_NAXIS] = {0.5, 0.3, 0.4};
  b = ride_band_map(&k, RIDE_FORMAT, 0.1, 0, 0, pad);
  CHECK(b.torque == 15 && b.throttle == 0.3 && b.brake == 0.4);
  /* the curves are rig parameters: 1 is linear */
  k.throttle_curve = 1, k.brake_curve = 3;
  CHECK_NEAR(ride_band_map(&k, RIDE_FORMAT, 0.1, 0, 60, none).throttle, 0.3, 1e-15);
  CHECK_NEAR(ride_band_map(&k, RIDE_FORMAT, 0.1, 0, -100, none).brake, 0.125, 1e-15);
  /* format 1 (takes ridden before): the old sign and linear levers, whatever the curves */
  k.throttle_curve = 2, k.brake_curve = 2;
  b = ride_band_map(&k, RIDE_FORMAT_LINEAR, 0.1, 10, 60, none);
  CHECK_NEAR(b.torque, -1.0, 1e-15);
  CHECK_NEAR(b.throttle, 0.3, 1e-15);
  CHECK(ride_band_map(&k, RIDE_FORMAT_LINEAR, 0.1, 0, 0, pad).torque == -15);
}
