/* test_brake_lift.c — the stoppie limit ridden (sim/brake_lift.h) against the balance of moments
 * about the front contact: when the rear's load is zero, the front's load m·g acting `lead` ahead
 * of the CoM holds the deceleration's m·a at `height` and the front wheel's spin slowing (I/R·a):
 *   a = m·g·lead / (m·height + I_front/R_front)
 * (the rear wheel, unloaded, no longer slows with the machine). On the geometry the ride reached
 * it holds for any springs; on the machine as it stands trimmed it holds only for stiff ones: the
 * sport1000's own springs dive and the rear lifts 6 % earlier. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/brake_lift.h"
#include "sim/trim.h"
#include "sim/vehicle.h"
#include "tests/unit/test.h"

/* The closed form on lead and height, and (trimmed != NULL) lead and height of the machine
 * trimmed upright at v0 as takes/run.c's drive model measures them (its CoM over the contacts). */
static double closed_form(const rig* r, double lead, double height, double v0, double* trimmed) {
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  if (!v) return NAN;
  double I[3], m = veh_mass(v);
  veh_body_inertia(v, r->wheel[RIG_FRONT].body, I);
  double spin = fmax(I[0], fmax(I[1], I[2])) / r->wheel[RIG_FRONT].tyre.r0;
  trim_spec s = {0};
  s.speed = v0, s.fix_roll = 1, s.gear = -1;
  trim_result tr;
  *trimmed = NAN;
  if (trim_solve(v, &s, &tr, &e) == MT_OK) {
    veh_forward(v);
    double c[3];
    veh_com(v, c);
    const double *pf = v->out.wheel[RIG_FRONT].point, *pr = v->out.wheel[RIG_REAR].point;
    *trimmed = m * MT_G * (pf[0] - c[0]) / (m * (c[2] - 0.5 * (pf[2] + pr[2])) + spin);
  }
  veh_free(v);
  return m * MT_G * lead / (m * height + spin);
}

/* Springs ten times the sport1000's (the trim finds no steady state much stiffer) and no air:
 * the rear lifts within 0.6 % of the closed form as dived (1.32° of pitch) and 2.3 % of it as
 * trimmed (1.2346 g ridden, 1.2273 and 1.2640 g). */
MT_TEST(brake_lift_stiff_springs_near_the_rigid_machine) {
  static const char* const stiff[] = {"bodies.fork.joint.spring.k=250000", "rear_shock.k=585700", "aero.cd_area=0",
                                      "aero.cl_area=0"};
  rig* r = mt_test_load_rig("sport1000", stiff, 4);
  CHECK(r != NULL);
  brake_lift bl;
  mt_err e = {0};
  CHECK(brake_lift_measure(r, 30, &bl, &e) == MT_OK);
  double trimmed, dived = closed_form(r, bl.lead, bl.height, 30, &trimmed);
  printf("  stiff: ridden %.4f g (pitch %.2f deg, %.1f km/h), closed form %.4f g as dived, %.4f g as trimmed\n",
         bl.decel / MT_G, bl.pitch * 180 / MT_PI, bl.speed * 3.6, dived / MT_G, trimmed / MT_G);
  CHECK(bl.lifted);
  CHECK_REL(bl.decel, dived, 0.01);
  CHECK_REL(bl.decel, trimmed, 0.03);
  rig_free(r);
}

/* The sport1000 as shipped: from 25 m/s the rear lifts at 1.2224 g, 5.7° of pitch into the
 * ramp, within 0.4 % of the closed form as dived and 6.4 % below it as trimmed (1.3066 g); from
 * 60 m/s it lifts at 155 km/h, where the air's lift (ahead of the CoM) unloads the rear: 1.170 g. */
MT_TEST(brake_lift_sport1000_dives_and_lifts_earlier) {
  rig* r = mt_test_load_sport();
  CHECK(r != NULL);
  brake_lift lo, hi;
  mt_err e = {0};
  CHECK(brake_lift_measure(r, 25, &lo, &e) == MT_OK);
  CHECK(brake_lift_measure(r, 60, &hi, &e) == MT_OK);
  double trimmed, dived = closed_form(r, lo.lead, lo.height, 25, &trimmed);
  printf("  sport1000: from 25 m/s %.4f g at %.1f km/h (pitch %.2f deg, lever %.3f, CoM %.4f m behind the front contact, "
         "%.4f m up), closed form %.4f g as dived, %.4f g as trimmed; from 60 m/s %.4f g at %.1f km/h\n",
         lo.decel / MT_G, lo.speed * 3.6, lo.pitch * 180 / MT_PI, lo.lever, lo.lead, lo.height, dived / MT_G,
         trimmed / MT_G, hi.decel / MT_G, hi.speed * 3.6);
  CHECK(lo.lifted && hi.lifted);
  CHECK_REL(lo.decel, dived, 0.01);
  CHECK(lo.decel < 0.95 * trimmed);
  CHECK(lo.pitch > 3 * MT_PI / 180);
  CHECK(hi.decel < 0.98 * lo.decel);
  rig_free(r);
}

/* At a given speed: the ramp's start is found so that the rear lifts there. */
MT_TEST(brake_lift_at_the_speed_asked) {
  rig* r = mt_test_load_sport();
  CHECK(r != NULL);
  brake_lift bl;
  mt_err e = {0};
  for (double V = 15; V <= 60; V += 15) {
    CHECK(brake_lift_at_speed(r, V, &bl, &e) == MT_OK);
    printf("  at %.0f km/h: %.4f g (lift at %.2f m/s)\n", V * 3.6, bl.decel / MT_G, bl.speed);
    CHECK(bl.lifted);
    CHECK_NEAR(bl.speed, V, BRAKE_LIFT_SPEED_TOL);
  }
  rig_free(r);
}

/* A rig whose trim fails says so in one line and measures nothing. */
MT_TEST(brake_lift_refuses_a_speed_with_no_steady_state) {
  rig* r = mt_test_load_sport();
  CHECK(r != NULL);
  brake_lift bl;
  mt_err e = {0};
  CHECK(brake_lift_measure(r, 150, &bl, &e) == MT_EINPUT);
  CHECK(!bl.lifted);
  CHECK(strchr(e.msg, '\n') == NULL && strstr(e.msg, "trim") != NULL);
  rig_free(r);
}
