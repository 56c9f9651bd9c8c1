/* test_vec3.c — base/vec3.h's contract: the summation order of dot3 (the bits callers recorded
 * takes with), cross3 into one of its own arguments, unit3 leaving a zero vector alone. */
#include <math.h>
#include <string.h>

#include "base/vec3.h"
#include "tests/unit/test.h"

/* volatile: the arithmetic runs at run time, as in the callers, not folded by the compiler */
static volatile double big = 1e16;

MT_TEST(vec3_dot3_sums_left_to_right) {
  /* 1e16 + 1 rounds to 1e16 (doubles there are 2 apart), so the order shows in the result:
   * (1e16 + 1) − 1e16 = 0 where (1e16 − 1e16) + 1 = 1, and (−1e16 + 1e16) + 1 = 1 where
   * −1e16 + (1e16 + 1) = 0. Left to right both times: any other order fails one of the two. */
  double a[3] = {big, 1, -big}, c[3] = {-big, big, 1}, one[3] = {1, 1, 1};
  CHECK(dot3(a, one) == 0);
  CHECK(dot3(c, one) == 1);
  CHECK(norm3((double[3]){3, 4, 12}) == 13);
  CHECK(dist3((double[3]){4, 6, 13}, (double[3]){1, 2, 1}) == 13);
}

MT_TEST(vec3_cross3_into_an_argument) {
  const double a0[3] = {0.3, -1.7, 2.9}, b0[3] = {-4.1, 0.6, 1.3};
  double want[3], a[3], b[3];
  cross3(a0, b0, want);
  CHECK(want[0] == -1.7 * 1.3 - 2.9 * 0.6 && want[1] == 2.9 * -4.1 - 0.3 * 1.3 && want[2] == 0.3 * 0.6 - -1.7 * -4.1);
  memcpy(a, a0, sizeof a), memcpy(b, b0, sizeof b);
  cross3(a, b, a);   /* o = a: every component from the old a */
  CHECK(memcmp(a, want, sizeof a) == 0);
  memcpy(a, a0, sizeof a), memcpy(b, b0, sizeof b);
  cross3(a, b, b);   /* o = b */
  CHECK(memcmp(b, want, sizeof b) == 0);
}

MT_TEST(vec3_unit3_leaves_zero_alone) {
  double z[3] = {0, 0, 0}, v[3] = {0, 3, 4};
  unit3(z);
  CHECK(z[0] == 0 && z[1] == 0 && z[2] == 0);
  unit3(v);
  CHECK(v[0] == 0 && v[1] == 0.6 && v[2] == 0.8);
}
