/* test_corners.c — the lap's lean by corner (takes/corners.c): which corner a station belongs to,
 * with the boards in any order and the lap wrapping, and what each corner keeps. The whole
 * count on the racing lap is tests/cli/race.sh `race_lean_by_corner`. */
#include <math.h>
#include <string.h>

#include "takes/corners.h"
#include "tests/unit/test.h"

MT_TEST(corners_count_by_the_last_board_before_and_wrap) {
  run_corner c[3];
  memset(c, 0, sizeof c);
  double at[3] = {500, 100, 900};   /* not in station order */
  for (int i = 0; i < 3; i++) c[i].at = at[i];
  /* station, lean, seated, speed: before the first board (50 m) is the last board's corner */
  corners_count(c, 3, 50, -0.30, -0.35, 20);
  corners_count(c, 3, 150, 0.40, 0.45, 30);
  corners_count(c, 3, 600, -0.50, -0.55, 40);
  corners_count(c, 3, 950, 0.20, 0.25, 50);
  corners_count(c, 3, 120, 0.10, 0.12, 60);    /* less lean: the 150 m sample stays */
  CHECK_MSG(c[1].lean == 0.40 && c[1].seated == 0.45 && c[1].speed == 30, "board at 100 m: lean %g seated %g at %g m/s",
            c[1].lean, c[1].seated, c[1].speed);
  CHECK_MSG(c[0].lean == 0.50 && c[0].seated == 0.55 && c[0].speed == 40, "board at 500 m: lean %g seated %g at %g m/s",
            c[0].lean, c[0].seated, c[0].speed);
  CHECK_MSG(c[2].lean == 0.30 && c[2].seated == 0.35 && c[2].speed == 20, "board at 900 m (and 50 m, wrapped): lean %g seated %g at %g m/s",
            c[2].lean, c[2].seated, c[2].speed);
  corners_count(c, 0, 600, 1, 1, 1);   /* no boards: nothing counted, nothing touched */
  CHECK(c[0].lean == 0.50);
}
