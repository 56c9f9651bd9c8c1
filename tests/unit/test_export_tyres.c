/* test_export_tyres.c — the exported tyre touches the road (exporters/locators.h, ex_tyre_pose). */
#include <math.h>
#include <string.h>

#include "base/vec3.h"
#include "exporters/locators.h"
#include "exporters/xform.h"
#include "tests/unit/test.h"

/* A plane road z = A x + B y: rising 18 % ahead (+x) and banked 10 % (down to the right, −y). */
static const double A = 0.18, B = 0.10;

static int plane(const void* self, double x, double y, int hint, road_point* out) {
  (void)self, (void)hint;
  double l = sqrt(A * A + B * B + 1);
  *out = (road_point){1, A * x + B * y, {-A / l, -B / l, 1 / l}, x, y, 0, 0, 0, 0, 0};
  return 0;
}

/* Signed distance along the plane's normal from the plane to the point of the torus (centre c,
 * unit axis w, major rmaj, tube crown) lowest along that normal: < 0 sunk. */
static double clearance(const double c[3], const double w[3], double rmaj, double crown) {
  road_point rp;
  plane(NULL, 0, 0, 0, &rp);
  double d[3], p[3], nw = dot3(rp.n, w);
  for (int k = 0; k < 3; k++) d[k] = -rp.n[k] + nw * w[k];
  unit3(d);
  for (int k = 0; k < 3; k++) p[k] = c[k] + rmaj * d[k] - crown * rp.n[k];
  return (p[2] - (A * p[0] + B * p[1])) * rp.n[2];
}

/* A tyre sunk 8 mm into a sloped, banked road at 0°, 30° and 50° of lean is lifted up its wheel
 * plane until it touches (within 1e-9 m), its sink reported; one floating 5 mm stays where it is. */
MT_TEST(export_tyre_lifted_onto_a_sloped_banked_road) {
  road rd = {NULL, plane};
  ex_locator l;
  memset(&l, 0, sizeof l);
  l.name = "front_tyre", l.wheel = 0, l.tyre = 1, l.road = &rd;
  l.wheel_axis[1] = 1, l.r0 = 0.30, l.crown = 0.06;
  const double lean[3] = {0, 30, 50}, depth[2] = {0.008, -0.005};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) {
      double g = lean[i] * MT_PI / 180, yaw = 0.3;
      double ww[7] = {0, 0, 0, cos(yaw / 2) * cos(g / 2), cos(yaw / 2) * sin(g / 2), sin(yaw / 2) * sin(g / 2),
                      sin(yaw / 2) * cos(g / 2)};
      double w[3];
      ex_qrot(ww + 3, l.wheel_axis, w);
      /* the centre that puts the torus's lowest point depth[j] below (or above) the plane */
      double c0[3] = {1, 2, 0};
      c0[2] = A * c0[0] + B * c0[1] + 1.0;
      double h = clearance(c0, w, l.r0 - l.crown, l.crown);
      road_point rp;
      plane(NULL, 0, 0, 0, &rp);
      for (int k = 0; k < 3; k++) ww[k] = c0[k] - (h + depth[j]) * rp.n[k];
      CHECK_NEAR(clearance(ww, w, l.r0 - l.crown, l.crown), -depth[j], 1e-12);
      int hint = -1;
      double out[7], sink;
      ex_tyre_pose(&l, ww, &hint, out, &sink);
      CHECK_NEAR(sink, depth[j], 1e-9);
      double after = clearance(out, w, l.r0 - l.crown, l.crown);
      if (depth[j] > 0) CHECK_NEAR(after, 0, 1e-9);
      else CHECK_NEAR(after, -depth[j], 1e-12);   /* floating: not moved */
      double y[3], ly[3] = {0, 1, 0};
      ex_qrot(out + 3, ly, y);
      CHECK_NEAR(dot3(y, w), 1, 1e-12);   /* the tyre's local y is the wheel's axle */
    }
}
