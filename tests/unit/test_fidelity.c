/* test_fidelity.c — model fidelity (issue 10): every parameter settable, the cambered lateral
 * relaxation length, rolling resistance on the loaded radius, channels, closed throttle. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/rig.h"
#include "tests/unit/test.h"

static void sport_path(char* p, size_t n) { snprintf(p, n, "%s/rigs/sport1000.lua", mt_test_root()); }

/* Every parameter `rig info --params` lists can be --set (to its own value: the rig loads), and
 * those that come only from a preset or a default take effect when changed. */
MT_TEST(fid_every_listed_parameter_is_settable) {
  char path[4096];
  sport_path(path, sizeof path);
  mt_err e = {0};
  rig_params ps;
  rig* r = rig_load_params(path, NULL, 0, &ps, &e);
  CHECK_MSG(r, "%s", e.msg);
  CHECK(ps.n > 400);
  int unknown_units = 0;
  for (int i = 0; i < ps.n; i++) {
    unknown_units += strcmp(ps.p[i].unit, "?") == 0;
    char kv[200];
    snprintf(kv, sizeof kv, "%s=%.17g", ps.p[i].key, ps.p[i].value);
    const char* sets[1] = {kv};
    mt_err e2 = {0};
    rig* r2 = rig_load(path, sets, 1, &e2);
    CHECK_MSG(r2, "--set %s: %s", kv, e2.msg);
    rig_free(r2);
  }
  CHECK_MSG(unknown_units == 0, "%d parameters without a unit", unknown_units);
  rig_params_free(&ps);
  rig_free(r);
  /* preset-only and default-only values change the model */
  const char* sets[] = {"wheels.front.tyre.lambda_mzr=1", "wheels.rear.tyre.pDy1=1.1", "wheels.front.tyre.rolling=0.02",
                        "engine.gas_constant=290", "drivetrain.clutch.slip_speed=25"};
  r = rig_load(path, sets, 5, &e);
  CHECK_MSG(r, "%s", e.msg);
  CHECK(r->wheel[RIG_FRONT].tyre.lambda_mzr == 1);
  CHECK(r->wheel[RIG_REAR].tyre.pDy1 == 1.1);
  CHECK(r->wheel[RIG_FRONT].tyre.pDy1 == 1.3);   /* the other tyre keeps its preset */
  CHECK(r->wheel[RIG_FRONT].tyre.rolling == 0.02);
  CHECK(r->engine.gas_constant == 290);
  CHECK(r->drive.clutch_slip == 25);
  rig_free(r);
  /* a set that is still unknown after the presets is one error naming the key */
  const char* badset[] = {"wheels.front.tyre.lambda_mz=1"};
  CHECK(!rig_load(path, badset, 1, &e));
  CHECK(strstr(e.msg, "no such numeric parameter") && strstr(e.msg, "lambda_mzr"));
}
