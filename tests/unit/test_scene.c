/* test_scene.c — the scene layer shared by exporters and renderer (scene/): the one linkage
 * geometry, seen alike by the exporter's bodies and the renderer's views; the camera rigs,
 * placed alike in an export's metadata and in the chase view. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/meta.h"
#include "render/chase.h"
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

MT_TEST(scene_exported_cameras_are_the_chase_views) {
  /* the camera tracks an export carries (exporters/meta.h, which places the cameras of
   * scene/cameras.h over a scene/motion.h motion, without a chase scene) are, frame by frame,
   * the chase view's cameras: its eye and field of view at the same times, to the 9 digits
   * the JSON keeps */
  mt_err e = {0};
  const char* path = mt_test_take("render_skid", &e);
  CHECK_MSG(path, "%s", e.msg);
  take_reader* r = take_open(path, &e);
  CHECK_MSG(r, "%s", e.msg);
  ex_meta_opts mo = {path, "skid", 0.1, 1.1, 30, 1, NULL, 1, NULL};
  char* txt = ex_meta_build(r, &mo, &e);
  CHECK_MSG(txt, "%s", e.msg);
  json_t* meta = json_loads(txt, 0, NULL);
  json_t* cams = json_object_get(meta, "cameras");
  CHECK_MSG(json_array_size(cams) == 3, "%zu cameras", json_array_size(cams));
  size_t ci;
  json_t* cam;
  json_array_foreach(cams, ci, cam) {
    const char* name = json_string_value(json_object_get(cam, "name"));
    json_t *loc = json_object_get(cam, "location"), *fov = json_object_get(cam, "fov_deg");
    chase_scene* s = chase_scene_new(r, name, &e);
    CHECK_MSG(s, "%s", e.msg);
    CHECK_MSG(json_array_size(fov) == 31 && json_array_size(loc) == 93, "camera %s: %zu frames", name, json_array_size(fov));
    double worst = 0;
    for (size_t k = 0; k < json_array_size(fov); k++) {
      chase_view v;
      chase_view_at(s, 0.1 + (double)k / 30, &v);
      for (int i = 0; i < 3; i++) {
        double x = json_number_value(json_array_get(loc, 3 * k + i));
        worst = fmax(worst, fabs(x - v.eye[i]) / (1 + fabs(v.eye[i])));
      }
      double f = json_number_value(json_array_get(fov, k));
      worst = fmax(worst, fabs(f - v.fov * 180 / MT_PI) / (1 + fabs(f)));
    }
    CHECK_MSG(worst < 1e-7, "camera %s: the export's track is off the chase view's by %.3g (relative)", name, worst);
    chase_scene_free(s);
  }
  json_decref(meta);
  free(txt);
  take_close(r);
}
