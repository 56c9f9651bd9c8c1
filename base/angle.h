/* angle.h — wrapping an angle (radians) onto one turn about zero: the program's one copy.
 *
 * The copies this replaces did not all agree, and takes record their bits, so three wraps stay,
 * each the exact arithmetic of the copies it replaces (tests/unit/test_angle.c pins the ends):
 *   - mt_wrap_angle(a)      [−π, π]: whole turns (2π) subtracted or added one at a time until a
 *                           lies within; ±π are both kept. (takes/path.c, takes/run.c)
 *   - mt_wrap_angle_hi(a)   (−π, π]: the same loop, but −π itself becomes +π. (sim/track.c)
 *   - mt_wrap_angle_lo(a)   [−π, π): a − 2π·floor((a + π)/2π) in one step, so +π becomes −π and
 *                           the rounding differs from the loop's after more than one turn.
 *                           (takes/slip.c)
 * π is MT_PI (base/mt.h). NaN gives NaN. The two loops take one pass per turn: their callers pass
 * differences of finite headings, a few turns at most; an infinite a never leaves the loop
 * (nor does a finite one above ~1e17, where a − 2π rounds back to a). */
#ifndef MT_ANGLE_H
#define MT_ANGLE_H

#include <math.h>

#include "base/mt.h"

static inline double mt_wrap_angle(double a) {
  while (a > MT_PI) a -= 2 * MT_PI;
  while (a < -MT_PI) a += 2 * MT_PI;
  return a;
}

static inline double mt_wrap_angle_hi(double a) {
  while (a > MT_PI) a -= 2 * MT_PI;
  while (a <= -MT_PI) a += 2 * MT_PI;
  return a;
}

static inline double mt_wrap_angle_lo(double a) { return a - 2 * MT_PI * floor((a + MT_PI) / (2 * MT_PI)); }

#endif
