/* test_rig.c — the rig model: loading checks, spring laws, and the exact shock linkage. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/rig.h"
#include "tests/unit/test.h"

MT_TEST(rig_sport1000_loads_with_published_masses) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  double com[3];
  double m = rig_total_mass(r, com);
  /* SEL 2004: total including rider 250.65 kg (sharp_motorcycle.json) */
  CHECK_NEAR(m, 250.65, 1e-9);
  CHECK(r->nbody == 9);   /* frame, rider_pelvis, rider_torso (docs/rig.md), steering, fork, fork_bend (issue 10), front wheel, swingarm, rear wheel */
  CHECK(r->j_steer >= 0 && r->j_fork >= 0 && r->j_swingarm >= 0 && r->j_twist >= 0 && r->j_rider >= 0);
  /* caster 24°: the steering axis tilts back */
  const rig_joint* st = &r->joint[r->j_steer];
  CHECK_NEAR(atan2(-st->axis[0], st->axis[2]), 0.4189, 1e-12);
  rig_free(r);
}

MT_TEST(rig_linkage_closes_exactly) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  const rig_linkage* k = &r->linkage;
  for (double th = -0.15; th <= 0.15; th += 0.01) {
    rig_link_pose lp;
    CHECK(rig_linkage_solve(r, th, &lp) == 0);
    /* the pull rod keeps its length, the crank its arm: the loop closes to round-off */
    double d[3], e2[3];
    for (int i = 0; i < 3; i++) {
      d[i] = lp.rod_end_crank[i] - lp.rod_end_arm[i];
      e2[i] = lp.rod_end_crank[i] - k->pivot[i];
    }
    CHECK_NEAR(sqrt(d[0] * d[0] + d[2] * d[2]), k->rod_length, 1e-12);
    CHECK_NEAR(sqrt(e2[0] * e2[0] + e2[2] * e2[2]), k->crank_arm, 1e-12);
  }
  rig_free(r);
}

MT_TEST(rig_linkage_ratio_matches_finite_difference) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  for (double th = -0.1; th <= 0.1; th += 0.025) {
    rig_link_pose a, b, c;
    double h = 1e-6;
    CHECK(rig_linkage_solve(r, th, &a) == 0 && rig_linkage_solve(r, th - h, &b) == 0 && rig_linkage_solve(r, th + h, &c) == 0);
    double fd = (c.shock_length - b.shock_length) / (2 * h);
    CHECK_NEAR(a.dlength_dtheta, fd, 1e-8);
    /* pulling the wheel up (θ > 0) compresses the shock, with a rising rate (falling ratio) */
    CHECK(a.dlength_dtheta < 0);
  }
  rig_link_pose lo, hi;
  rig_linkage_solve(r, -0.05, &lo);
  rig_linkage_solve(r, 0.08, &hi);
  CHECK_MSG(hi.motion_ratio < lo.motion_ratio, "the linkage should be progressive: MR %g at -0.05, %g at 0.08",
            lo.motion_ratio, hi.motion_ratio);
  CHECK(lo.motion_ratio > 1.5 && lo.motion_ratio < 2.5);   /* sport-bike linkages: about 1.6–2.2 */
  rig_free(r);
}

MT_TEST(rig_spring_law_and_energy) {
  rig_sd s = {0};
  s.k = 20000;
  s.preload = 500;
  s.x_min = -0.03;
  s.x_max = 0.09;
  s.k_stop = 1e6;
  s.c_comp = 1000;
  s.c_reb = 3000;
  CHECK_NEAR(rig_sd_spring(&s, -0.03), 500, 1e-9);                    /* preload at full extension */
  CHECK_NEAR(rig_sd_spring(&s, 0.02), 500 + 20000 * 0.05, 1e-9);
  CHECK_NEAR(rig_sd_spring(&s, -0.04), 500 - 20000 * 0.01 - 1e6 * 0.01, 1e-9);   /* top-out stop holds it */
  CHECK_NEAR(rig_sd_spring(&s, 0.10), 500 + 20000 * 0.13 + 1e6 * 0.01, 1e-9);
  CHECK_NEAR(rig_sd_force(&s, 0, 0.1) - rig_sd_spring(&s, 0), 100, 1e-9);    /* compression damping */
  CHECK_NEAR(rig_sd_force(&s, 0, -0.1) - rig_sd_spring(&s, 0), -300, 1e-9);  /* rebound damping */
  /* energy is the integral of the spring force: check against a fine trapezoid sum */
  for (double x = -0.045; x <= 0.1; x += 0.013) {
    double E = 0, n = 20000;
    for (int i = 0; i < n; i++) {
      double a = x * i / n, b = x * (i + 1) / n;
      E += 0.5 * (b - a) * (rig_sd_spring(&s, a) + rig_sd_spring(&s, b));
    }
    CHECK_NEAR(rig_sd_energy(&s, x), E, 1e-6 * (fabs(E) + 1));
  }
}

MT_TEST(rig_set_overrides_and_rejects_unknown) {
  char path[4096];
  snprintf(path, sizeof path, "%s/rigs/sport1000.lua", mt_test_root());
  mt_err e = {0};
  const char* sets[] = {"rear_shock.k=60000", "bodies.frame.mass=170"};
  rig* r = rig_load(path, sets, 2, &e);
  CHECK_MSG(r, "%s", e.msg);
  CHECK_NEAR(r->linkage.shock.k, 60000, 0);
  CHECK_NEAR(r->body[0].mass, 170, 0);
  rig_free(r);
  const char* bad[] = {"rear_shok.k=1"};
  CHECK(rig_load(path, bad, 1, &e) == NULL);
  CHECK_MSG(strstr(e.msg, "rear_shock.k") != NULL, "should suggest rear_shock.k: %s", e.msg);
}

MT_TEST(rig_rebuilds_from_its_own_text_and_modules) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  CHECK(r->nmodule >= 1);
  int has_engine = 0;
  for (int i = 0; i < r->nmodule; i++) has_engine |= strcmp(r->modules[i].name, "engine_gsxr1000") == 0;
  CHECK(has_engine);
  mt_err e = {0};
  rig* c = rig_load_text("embedded/sport1000.lua", r->source, r->modules, r->nmodule, NULL, 0, &e);
  CHECK_MSG(c, "%s", e.msg);
  CHECK(c->nbody == r->nbody && c->njoint == r->njoint);
  CHECK(memcmp(c->body, r->body, sizeof r->body) == 0);
  CHECK(memcmp(c->joint, r->joint, sizeof r->joint) == 0);
  CHECK(memcmp(&c->linkage, &r->linkage, sizeof r->linkage) == 0);
  CHECK(memcmp(&c->engine, &r->engine, sizeof r->engine) == 0);
  CHECK(memcmp(c->wheel, r->wheel, sizeof r->wheel) == 0);
  rig_free(c);
  rig_free(r);
}
