/* test_track_surface.c — what lies beyond the tarmac: the road query's surface bands (kerb only
 * where the dressing lists one, then grass, then gravel) and a track file's overrides. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/track.h"
#include "tests/unit/test.h"

/* A 200 m straight along +x, 5 m each side, a kerb on the left from 10 to 20 m. */
static const char* SRC =
    "return { name = 'bands', segments = { { 200, 5, 5, 0, 0, 0 } },\n"
    "  kerbs = { { from = 10, to = 20, side = 'left' } },\n"
    "  surfaces = { kerb = { width = 1.5 }, grass = { width = 4, grip = 0.4, rolling = 0.1 } } }\n";

static int surface_at(const track* t, double s, double o, road_point* rp) {
  double p[3], h;
  track_eval(t, s, o, p, &h);
  track_query(t, p[0], p[1], -1, rp);
  return rp->surface;
}

MT_TEST(track_surface_bands_beyond_the_edge) {
  mt_err e = {0};
  track* t = track_load_text("bands.lua", SRC, &e);
  CHECK_MSG(t, "%s", e.msg);
  if (!t) return;
  /* station, offset, the surface expected there */
  const struct { double s, o; int k; } q[] = {
      {15, 0, SURF_TARMAC},  {15, 4.9, SURF_TARMAC}, {15, 5.5, SURF_KERB},   {15, 6.4, SURF_KERB},
      {15, 6.6, SURF_GRASS}, {15, 10.4, SURF_GRASS}, {15, 10.6, SURF_GRAVEL}, {50, 5.5, SURF_GRASS},
      {50, 8.9, SURF_GRASS}, {50, 9.1, SURF_GRAVEL}, {15, -5.5, SURF_GRASS},  {15, -40, SURF_GRAVEL},
  };
  for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
    road_point rp;
    int k = surface_at(t, q[i].s, q[i].o, &rp);
    CHECK_MSG(k == q[i].k, "station %g offset %g: %s, expected %s", q[i].s, q[i].o, track_surface_name(k),
              track_surface_name(q[i].k));
    if (k == SURF_GRASS) CHECK_MSG(rp.grip == 0.4 && rp.rolling == 0.1, "grass grip %g rolling %g", rp.grip, rp.rolling);
    if (k == SURF_GRAVEL) CHECK_MSG(rp.grip == 0.45 && rp.rolling == 0.3, "gravel (defaults) grip %g rolling %g", rp.grip, rp.rolling);
    if (k == SURF_KERB) CHECK_MSG(rp.grip == 0.9, "kerb grip %g", rp.grip);
    CHECK_MSG(rp.on_road == (k == SURF_TARMAC), "on_road %d on %s", rp.on_road, track_surface_name(k));
  }
  track_free(t);
}

MT_TEST(track_surface_bad_fields_are_located) {
  const struct { const char* tail; const char* want; } bad[] = {
      {"surfaces = { grass = { grip = 0 } }", "bad.lua:2: surface grass: field 'grip': must be within (0, 1.5]"},
      {"surfaces = { gravel = { width = 3 } }", "bad.lua:2: surface gravel: field 'width': unknown field"},
      {"surfaces = { kerb = { width = 0/0 } }", "bad.lua:2: surface kerb: field 'width'"},
      {"surfaces = { sand = { } }", "bad.lua:2: surfaces: field 'sand': unknown field"},
      {"surfaces = { grass = { rolling = 2 } }", "bad.lua:2: surface grass: field 'rolling': must be within 0..1"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char src[512];
    snprintf(src, sizeof src, "return { name = 'b', segments = { { 100, 5, 5, 0, 0, 0 } },\n  %s }\n", bad[i].tail);
    mt_err e = {0};
    track* t = track_load_text("bad.lua", src, &e);
    CHECK_MSG(!t && e.code == MT_EINPUT && strstr(e.msg, bad[i].want), "%s: got '%s'", bad[i].tail, e.msg);
    track_free(t);
  }
}
