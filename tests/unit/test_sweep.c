/* test_sweep.c — the sweep grid (takes/sweep.h): --vary parsing, row-major numbering with the
 * last axis fastest, exact end points, and --set texts that read back to the same double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "takes/run.h"
#include "takes/sweep.h"
#include "tests/unit/test.h"

MT_TEST(sweep_parse_vary_forms) {
  sweep_axis a;
  mt_err e = {0};
  CHECK(sweep_parse_vary("payload.mass=0:40:5", &a, &e) == MT_OK);
  CHECK(strcmp(a.key, "payload.mass") == 0 && a.lo == 0 && a.hi == 40 && a.n == 5);
  CHECK(sweep_parse_vary("x=-1.5:2e1:1", &a, &e) == MT_OK && a.lo == -1.5 && a.hi == 20 && a.n == 1);
  const char* bad[] = {"payload.mass", "=0:1:2", "k=0:1", "k=0:1:2:3", "k=a:1:2", "k=0:1:0", "k=0:1:1.5",
                       "k=0:1:10001", "k=nan:1:2", "k=0:inf:2", "k=0::2"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    mt_err be = {0};
    CHECK_MSG(sweep_parse_vary(bad[i], &a, &be) == MT_EINPUT, "'%s' accepted", bad[i]);
    CHECK_MSG(strstr(be.msg, "--vary") != NULL, "'%s': message '%s'", bad[i], be.msg);
  }
}

MT_TEST(sweep_grid_numbering) {
  sweep_grid g;
  memset(&g, 0, sizeof g);
  g.naxis = 2;
  g.ax[0] = (sweep_axis){"a", 0, 1, 11};
  g.ax[1] = (sweep_axis){"b", 10, 30, 3};
  g.npoints = 33;
  /* last axis fastest: point 4 = (a index 1, b index 1) */
  CHECK(sweep_value(&g, 0, 0) == 0 && sweep_value(&g, 0, 1) == 10);
  CHECK(sweep_value(&g, 2, 0) == 0 && sweep_value(&g, 2, 1) == 30);
  CHECK(sweep_value(&g, 4, 0) == 0.1 && sweep_value(&g, 4, 1) == 20);
  CHECK(sweep_value(&g, 32, 0) == 1 && sweep_value(&g, 32, 1) == 30);   /* the end is B exactly */
  /* every point once: the pairs of values are all distinct */
  for (long i = 0; i < g.npoints; i++)
    for (long j = i + 1; j < g.npoints; j++)
      CHECK(!(sweep_value(&g, i, 0) == sweep_value(&g, j, 0) && sweep_value(&g, i, 1) == sweep_value(&g, j, 1)));
  /* --set texts read back to the very double (0.30000000000000004 is not 0.3) */
  for (long i = 0; i < g.npoints; i++) {
    char t[64];
    double v = sweep_value(&g, i, 0);
    sweep_value_text(v, t, sizeof t);
    CHECK_MSG(strtod(t, NULL) == v, "'%s' for %.17g", t, v);
  }
  char t[64];
  sweep_value_text(0.1 * 3, t, sizeof t);
  CHECK(strcmp(t, "0.30000000000000004") == 0);
  sweep_value_text(6.944, t, sizeof t);
  CHECK(strcmp(t, "6.944") == 0);
}

MT_TEST(sweep_max_ay_g_is_runs_achieved_a_y) {
  /* the index's max_ay_g is the figure `mototake run` prints as "achieved a_y" (takes/run.c: the
   * tyres' lateral forces over the mass, low-passed 0.1 s), read back from the take alone: the
   * same number to the channels' float32 rounding (1.7e-9 relative here), also with a payload
   * (the mass the take's overrides give), never the raw per-step |ay| channel with its spikes */
  char script[512], take[512];
  snprintf(script, sizeof script, "%s/sweep_ay.lua", mt_test_tmpdir());
  snprintf(take, sizeof take, "%s/sweep_ay.take", mt_test_tmpdir());
  FILE* f = fopen(script, "w");
  CHECK(f);
  fputs("return { rig = \"sport1000\", track = \"skidpad50\", duration = 3,\n"
        "  start = { station = 10, speed = 12 }, rider = { line = \"centre\", speed = \"auto\", grip = 0.8 } }\n", f);
  fclose(f);
  const char* sets[] = {"payload.mass=25"};
  run_opts o = {.script = script, .out = take, .sets = sets, .nset = 1, .quiet = 1};
  run_result res;
  mt_err e = {0};
  CHECK_MSG(run_take(&o, &res, &e) == MT_OK, "%s", e.msg);
  sweep_metrics m;
  CHECK_MSG(sweep_take_metrics(take, &m, &e) == MT_OK, "%s", e.msg);
  CHECK_MSG(res.peak_ay > 0.5, "run's achieved a_y %.6f g: not a hard turn", res.peak_ay);
  CHECK_MSG(fabs(m.max_ay_g - res.peak_ay) <= 1e-6 * res.peak_ay, "index max_ay_g %.12f g, run's achieved a_y %.12f g",
            m.max_ay_g, res.peak_ay);
}
