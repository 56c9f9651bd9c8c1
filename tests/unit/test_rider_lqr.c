/* test_rider_lqr.c — the LQR steer-torque gains (sim/rider_lqr.c) on the linearised sport1000.
 * Printed per grid speed: the largest real part and the smallest damping ratio of the oscillatory
 * roots, open loop and closed with the full gain, with the rider's six measured-state gains and
 * with only roll/roll rate/steer/steer rate. Asserted: the riderless machine weaves unstably at
 * 55 and 62 m/s (the SEL bike's high-speed weave; with its heading treated as cyclic); the Riccati
 * solve succeeds everywhere; closed with the six gains every root is in the left half plane and
 * every oscillatory root has ζ ≥ 0.12 (15–62 m/s). */
#include <math.h>
#include <stdio.h>

#include "sim/rider_lqr.h"
#include "tests/unit/test.h"

MT_TEST(rider_lqr_closed_loop_is_stable_over_the_speed_grid) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  rider_lqr_weights w;
  rider_lqr_default_weights(&w);
  rider_lqr l;
  mt_err e = {0};
  CHECK(rider_lqr_build(r, &w, &l, &e) == MT_OK);
  for (int i = 0; i < l.nv; i++) {
    fprintf(stderr, "  lqr %4.0f m/s: %d states; max Re / min zeta: open %+.3f/%.3f, full K %+.3f/%.3f, 6 gains %+.3f/%.3f,"
            " 4 gains %+.3f/%.3f; K roll %.0f rate %.1f yaw %.1f vlat %.1f steer %.0f srate %.1f\n",
            l.v[i], l.nstate[i], l.open_max_re[i], l.open_zeta[i], l.full_max_re[i], l.full_zeta[i], l.six_max_re[i],
            l.six_zeta[i], l.four_max_re[i], l.four_zeta[i], l.K[i][0], l.K[i][1], l.K[i][2], l.K[i][3], l.K[i][4], l.K[i][5]);
    CHECK(l.ok[i]);
    CHECK(l.full_max_re[i] < 0);
    CHECK(l.six_max_re[i] < 0);
    CHECK(l.six_zeta[i] >= 0.12);
    if (l.v[i] >= 55) CHECK(l.open_max_re[i] > 0 && l.open_zeta[i] < 0);
  }
  rig_free(r);
}
