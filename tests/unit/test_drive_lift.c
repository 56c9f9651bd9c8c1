/* test_drive_lift.c — the wheelie limit ridden (sim/drive_lift.h) against the balance of moments
 * about the rear contact: when the front's load is zero, the weight m·g acting `lead` ahead of the
 * rear contact holds the acceleration's m·a at `height` and the spinning up of the
 * wheels (I/R·a each) and of the crank, which turns the way the wheels do (I_c·G/R_r·a, G the
 * gear's overall ratio):
 *   a = m·g·lead / (m·height + I_f/R_f + I_r/R_r + I_c·G/R_r)
 * With no air it holds within 0.2 % on the sport1000's springs and on springs ten times as
 * stiff; the air's drag (above the ground) and lift (ahead of the CoM) lift the front sooner. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/drive_lift.h"
#include "sim/drivetrain.h"
#include "sim/vehicle.h"
#include "tests/unit/test.h"

/* The closed form on the geometry the ride reached (dl: lead, height, gear) for rig r. */
static double closed_form(const rig* r, const drive_lift* dl) {
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  if (!v) return NAN;
  double m = veh_mass(v), spin = 0, I[3];
  for (int k = 0; k < 2; k++) {
    veh_body_inertia(v, r->wheel[k].body, I);
    spin += fmax(I[0], fmax(I[1], I[2])) / r->wheel[k].tyre.r0;
  }
  spin += r->engine.inertia * drive_gear_ratio(&r->drive, dl->gear) / r->wheel[RIG_REAR].tyre.r0;
  veh_free(v);
  return m * MT_G * dl->lead / (m * dl->height + spin);
}

/* No air, the sport1000's springs and springs ten times as stiff: from 10 and 20 m/s the front
 * lifts in first gear within 0.5 % of the closed form on the geometry reached (1.0601 and
 * 1.0611 g against 1.0583 and 1.0590; stiff 1.0408 and 1.0398 against 1.0388 and 1.0388). */
MT_TEST(drive_lift_no_air_matches_the_moment_balance) {
  static const char* const noair[] = {"aero.cd_area=0", "aero.cl_area=0"};
  static const char* const stiff[] = {"bodies.fork.joint.spring.k=250000", "rear_shock.k=585700", "aero.cd_area=0",
                                      "aero.cl_area=0"};
  for (int s = 0; s < 2; s++) {
    rig* r = s ? mt_test_load_rig("sport1000", stiff, 4) : mt_test_load_rig("sport1000", noair, 2);
    CHECK(r != NULL);
    for (double v0 = 10; v0 <= 20; v0 += 10) {
      drive_lift dl;
      mt_err e = {0};
      CHECK(drive_lift_measure(r, v0, &dl, &e) == MT_OK);
      double cf = closed_form(r, &dl);
      printf("  %s from %.0f m/s: %.4f g at %.1f km/h in gear %d (throttle %.3f, pitch %.2f deg, CoM %.4f m ahead of the rear "
             "contact, %.4f m up), closed form %.4f g\n", s ? "stiff" : "no air", v0, dl.accel / MT_G, dl.speed * 3.6, dl.gear,
             dl.throttle, dl.pitch * 180 / MT_PI, dl.lead, dl.height, cf / MT_G);
      CHECK(dl.lifted && dl.gear == 1);
      CHECK_REL(dl.accel, cf, 0.005);
    }
    rig_free(r);
  }
}

/* The sport1000 as shipped: the front lifts below the rigid g·b/h of lapsim (1.213 g) and below
 * the moment balance without the air, and lower the faster (the air): 1.047 g at 67 km/h, 1.009 g
 * at 131 km/h. From 40 m/s the gear it drives in (3rd) reaches its rev limit first: the engine is
 * the lesser limit there. At a speed asked (72 and 126 km/h) the ramp's start is found so that
 * the front lifts there; a speed with no upright steady state says so in one line. */
MT_TEST(drive_lift_sport1000_squats_and_lifts_earlier) {
  rig* r = mt_test_load_sport();
  CHECK(r != NULL);
  drive_lift lo, hi, top, at;
  mt_err e = {0};
  CHECK(drive_lift_measure(r, 10, &lo, &e) == MT_OK);
  CHECK(drive_lift_measure(r, 30, &hi, &e) == MT_OK);
  CHECK(drive_lift_measure(r, 40, &top, &e) == MT_OK);
  double com[3];
  rig_total_mass(r, com);
  double rigid = MT_G * (com[0] - r->wheel[RIG_REAR].centre[0]) / com[2];
  printf("  sport1000: from 10 m/s %.4f g at %.1f km/h, from 30 m/s %.4f g at %.1f km/h (rigid %.4f g); from 40 m/s in gear %d: "
         "lifted %d\n", lo.accel / MT_G, lo.speed * 3.6, hi.accel / MT_G, hi.speed * 3.6, rigid / MT_G, top.gear, top.lifted);
  CHECK(lo.lifted && hi.lifted);
  CHECK(lo.accel < 0.9 * rigid && lo.accel < closed_form(r, &lo));
  CHECK(hi.accel < 0.98 * lo.accel && hi.speed > lo.speed);
  CHECK(!top.lifted && top.gear >= 2);
  for (double V = 20; V <= 35; V += 15) {
    CHECK(drive_lift_at_speed(r, V, &at, &e) == MT_OK);
    printf("  at %.0f km/h: %.4f g (lift at %.2f m/s, gear %d)\n", V * 3.6, at.accel / MT_G, at.speed, at.gear);
    CHECK(at.lifted);
    CHECK_NEAR(at.speed, V, DRIVE_LIFT_SPEED_TOL);
  }
  CHECK(drive_lift_measure(r, 150, &at, &e) == MT_EINPUT);
  CHECK(!at.lifted && strchr(e.msg, '\n') == NULL && strstr(e.msg, "trim") != NULL);
  rig_free(r);
}
