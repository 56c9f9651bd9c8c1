/* test_scene.c — the scene layer shared by exporters and renderer (scene/): the one linkage
 * geometry, seen alike by the exporter's bodies and the renderer's views. */
#include <string.h>

#include "render/rscene.h"
#include "scene/linkage.h"
#include "scene/take_bodies.h"
#include "sim/vehicle.h"
#include "tests/unit/test.h"

MT_TEST(scene_linkage_bars_are_the_same_in_export_and_views) {
  /* every linkage part of a take has, in the renderer's side/rear/plan views (render/rscene.h),
   * exactly the capsules the export writes (scene/take_bodies.h): same ends, radius, colour */
  mt_err e = {0};
  const char* path = mt_test_take("render_skid", &e);
  CHECK_MSG(path, "%s", e.msg);
  rs_take k;
  CHECK_MSG(!rs_open(&k, path, NULL, &e), "%s", e.msg);
  ex_take_bodies tb;
  ex_take_bodies_build(k.s, k.rg, &tb);
  int parts = 0;
  for (int i = 0; i < k.nb; i++) {
    if (sc_link_part(k.body[i].name) < 0) continue;
    parts++;
    const rs_body* v = &k.body[i];
    const ex_body* x = &tb.body[i];
    CHECK_MSG(v->nshape == x->nshape && v->nshape > 0, "%s: %d bars in the views, %d exported", v->name, v->nshape, x->nshape);
    for (int q = 0; q < v->nshape && q < x->nshape; q++) {
      const rig_shape* a = &v->shape[q];
      const ex_shape* b = &x->shapes[q];
      CHECK_MSG(a->type == RIG_CAPSULE && b->type == EX_CAPSULE, "%s bar %d: not capsules", v->name, q);
      CHECK_MSG(a->radius == b->radius, "%s bar %d: radius %g in the views, %g exported", v->name, q, a->radius, b->radius);
      CHECK_MSG(!memcmp(a->a, b->a, sizeof a->a) && !memcmp(a->b, b->b, sizeof a->b), "%s bar %d: other ends", v->name, q);
      CHECK_MSG(!memcmp(a->rgba, b->rgba, sizeof a->rgba), "%s bar %d: colour %g %g %g in the views, %g %g %g exported", v->name,
                q, a->rgba[0], a->rgba[1], a->rgba[2], b->rgba[0], b->rgba[1], b->rgba[2]);
    }
  }
  CHECK_MSG(parts == VEH_NLINK, "the take has %d of the %d linkage parts", parts, VEH_NLINK);
  ex_take_bodies_free(&tb);
  rs_close(&k);
}
