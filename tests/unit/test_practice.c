/* test_practice.c — the racer's practice (takes/practice.c): which corner a lap changes, by how
 * much, what a lap that falls leaves, and when practice ends. The whole practice on the racing
 * lap is tests/cli/race.sh (`race_practice`). */
#include <math.h>
#include <string.h>

#include "base/mt.h"
#include "takes/practice.h"
#include "tests/unit/test.h"

#define DEG (MT_PI / 180)

/* corner c: ridden at speed (m/s), its seated lean short (negative) or over its fold by d deg,
 * the plan at over × what the machine's steady turn holds there */
static void corner(run_corner* c, double speed, double d, double over) {
  memset(c, 0, sizeof *c);
  c->speed = speed;
  c->fold = 1;
  c->fold_roll = 58 * DEG;
  c->seated = c->fold_roll + d * DEG;
  c->plan_over = over;
}

/* three corners: a fast one 4 deg short, a slow one 5 deg short, a fast one 0.9 deg over */
static void lap(run_corner* c, double a, double b, double d) {
  corner(&c[0], 40, a, 1.04);
  corner(&c[1], 20, b, 1.03);
  corner(&c[2], 35, d, 1.05);
}

/* practice started, and the plan's own lap ridden with the fast corner 4 deg short: what
 * practice_after says to that lap */
static int plan_lap(practice* p, run_corner* c) {
  practice_init(p, 3);
  lap(c, -4, -5, 0.9);
  return practice_after(p, 1, c, 3);
}

MT_TEST(practice_steps_the_fast_corner_to_its_limit) {
  practice p;
  run_corner c[3];
  CHECK(plan_lap(&p, c) == 1);   /* the plan's lap lapped: the fast corner, not the slow one */
  CHECK_MSG(p.trying == 0 && p.next[1] == 0 && p.next[2] == 0, "trying %d, next %g %g", p.trying, p.next[1], p.next[2]);
  CHECK_NEAR(p.next[0], PRACTICE_STEP_MAX, 1e-12);   /* (-0.75 + 4) / 0.8 = 4.06, within 3 m/s */
  lap(c, -1.6, -5, 0.9);                              /* 2.4 deg more lean for 3 m/s: 0.8 deg per m/s */
  CHECK(practice_after(&p, 1, c, 3) == 1);
  CHECK_NEAR(p.slope[0], 0.8, 1e-9);
  CHECK_NEAR(p.speed[0], 3, 1e-12);
  CHECK_NEAR(p.next[0], 3 + (-0.75 + 1.6) / 0.8, 1e-9);
  lap(c, -0.8, -5, 0.9);                              /* within 1.5 deg: nothing asks any more */
  CHECK(practice_after(&p, 1, c, 3) == 0);
  CHECK_NEAR(p.speed[0], 3 + (-0.75 + 1.6) / 0.8, 1e-9);
  CHECK(p.speed[1] == 0 && p.speed[2] == 0 && p.laps == 3 && p.lapped == 3);
  CHECK(memcmp(p.next, p.speed, sizeof p.speed) == 0);
}

MT_TEST(practice_forgets_a_lap_that_falls_and_tries_further) {
  practice p;
  run_corner c[3];
  CHECK(plan_lap(&p, c) == 1);
  CHECK_NEAR(p.next[0], 3, 1e-12);
  CHECK(practice_after(&p, 0, c, 3) == 1);            /* fell: the speeds stay the plan's */
  CHECK(p.speed[0] == 0 && p.fails[0] == 1 && p.lapped == 1);
  CHECK_NEAR(p.next[0], 3 + PRACTICE_RETRY, 1e-12);   /* the same corner, further */
  CHECK(practice_after(&p, 0, c, 3) == 0);            /* twice: that corner keeps its speed, and no other asks */
  CHECK(p.speed[0] == 0 && p.next[0] == 0 && p.laps == 3);
}

MT_TEST(practice_backs_off_a_corner_over_its_limit_and_stops_without_a_lap) {
  practice p;
  run_corner c[3];
  practice_init(&p, 3);
  lap(c, -1, -5, 0.9);
  CHECK(practice_after(&p, 1, c, 3) == 0);   /* over by 0.9 deg with no speed carried: nothing to do */
  p.speed[2] = p.next[2] = 2;                /* carrying 2 m/s and 2 deg over: it backs off, not below the plan */
  lap(c, -1, -5, 2);
  CHECK(practice_after(&p, 1, c, 3) == 1);
  CHECK(p.trying == 2 && p.next[2] == 0);
  practice_init(&p, 3);                       /* the plan's own lap fell: nothing to learn */
  CHECK(practice_after(&p, 0, c, 3) == 0);
  CHECK(p.speed[0] == 0 && p.lapped == 0);
}

MT_TEST(practice_leaves_a_corner_that_does_not_answer) {
  practice p;
  run_corner c[3];
  CHECK(plan_lap(&p, c) == 1);
  lap(c, -3.8, -5, 0.9);   /* 0.2 deg for 3 m/s: too soon to tell; the step is long (3 m/s) */
  CHECK(practice_after(&p, 1, c, 3) == 1);
  CHECK(!p.done[0] && p.next[0] == 2 * PRACTICE_STEP_MAX);
  lap(c, -3.5, -5, 0.9);   /* 0.5 deg for 6 m/s: the engine, not the grip, holds this corner */
  CHECK(practice_after(&p, 1, c, 3) == 0);
  CHECK(p.done[0] && p.speed[0] == 2 * PRACTICE_STEP_MAX);   /* the lap lapped: its speeds stay */
  practice_init(&p, 3);                   /* a corner that answers goes no further than the cap */
  p.speed[0] = p.next[0] = PRACTICE_SPEED_MAX - 1;
  lap(c, -4, -5, 0.9);
  CHECK(practice_after(&p, 1, c, 3) == 1);
  CHECK(p.next[0] == PRACTICE_SPEED_MAX);
  lap(c, -1.6, -5, 0.9);                     /* it answers (2.4 deg for 1 m/s), still short, at the cap */
  CHECK(practice_after(&p, 1, c, 3) == 0);
  CHECK(!p.done[0] && p.speed[0] == PRACTICE_SPEED_MAX);
}
