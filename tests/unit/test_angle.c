/* test_angle.c — base/angle.h's three wraps: which end of the turn each keeps, and that the loops
 * bring an angle of several turns back. */
#include <math.h>

#include "base/angle.h"
#include "tests/unit/test.h"

static volatile double pi = MT_PI;   /* run-time arithmetic, as in the callers */

MT_TEST(angle_wrap_ends_of_the_turn) {
  CHECK(mt_wrap_angle(pi) == pi && mt_wrap_angle(-pi) == -pi);         /* [−π, π] */
  CHECK(mt_wrap_angle_hi(pi) == pi && mt_wrap_angle_hi(-pi) == pi);    /* (−π, π] */
  CHECK(mt_wrap_angle_lo(pi) == -pi && mt_wrap_angle_lo(-pi) == -pi);  /* [−π, π) */
  CHECK(mt_wrap_angle(0.5) == 0.5 && mt_wrap_angle_hi(-0.5) == -0.5 && mt_wrap_angle_lo(0.5) == 0.5);
  CHECK(isnan(mt_wrap_angle(NAN)) && isnan(mt_wrap_angle_hi(NAN)) && isnan(mt_wrap_angle_lo(NAN)));
}

MT_TEST(angle_wrap_several_turns) {
  double a = 4 * pi + 0.3, two = 2 * pi;   /* two whole turns and 0.3 */
  CHECK(mt_wrap_angle(a) == (a - two) - two && mt_wrap_angle(-a) == (-a + two) + two);
  CHECK(mt_wrap_angle_hi(a) == (a - two) - two && mt_wrap_angle_hi(-a) == (-a + two) + two);
  CHECK(mt_wrap_angle_lo(a) == a - two * 2 && mt_wrap_angle_lo(-a) == -a - two * -2);
  CHECK(fabs(mt_wrap_angle(a) - 0.3) < 1e-14);
}
