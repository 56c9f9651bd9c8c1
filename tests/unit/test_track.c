/* test_track.c — the parametric track: closure, spirals, continuity, queries, bad input. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/track.h"
#include "tests/unit/test.h"

static const char* SHIPPED[] = {"laguna_seca", "straight", "skidpad50", "skidpad100", "figure8", "test_loop", "sweeper"};

static track* load_named(const char* name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/sim/tracks/%s.lua", mt_test_root(), name);
  mt_err e = {0};
  track* t = track_load(path, &e);
  if (!t) fprintf(stderr, "%s\n", e.msg);
  return t;
}

MT_TEST(track_circle_of_arcs_closes) {
  /* a closed circle made of four quarter arcs, then of one whole-circle segment */
  const char* src =
      "local R = 73.3\n"
      "return { name = 'c', closed = true, segments = {\n"
      " { math.pi * R / 2, 5, 5, 1 / R, 0, 0 }, { math.pi * R / 2, 5, 5, 1 / R, 0, 0 },\n"
      " { math.pi * R / 2, 5, 5, 1 / R, 0, 0 }, { math.pi * R / 2, 5, 5, 1 / R, 0, 0 } } }\n";
  mt_err e = {0};
  track* t = track_load_text("circle.lua", src, &e);
  CHECK_MSG(t, "%s", e.msg);
  double gap, herr, dz;
  track_closure(t, &gap, &herr, &dz);
  CHECK(gap < 1e-9 && fabs(herr) < 1e-12 && fabs(dz) < 1e-12);
  /* every point lies on the circle about (0, R) */
  for (double s = 0; s < track_length(t); s += 7.1) {
    double p[3], h;
    track_eval(t, s, 0, p, &h);
    CHECK_NEAR(hypot(p[0], p[1] - 73.3), 73.3, 1e-9);
  }
  track_free(t);
}

/* The exact clothoid from heading 0 with curvature k(s) = c·s: x = ∫cos(c s²/2), y = ∫sin(c s²/2),
 * by composite Simpson on 20000 intervals (error ~1e-14 here). */
static void clothoid(double c, double L, double* x, double* y) {
  int n = 20000;
  double h = L / n, sx = 0, sy = 0;
  for (int i = 0; i <= n; i++) {
    double s = i * h, w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
    sx += w * cos(0.5 * c * s * s);
    sy += w * sin(0.5 * c * s * s);
  }
  *x = sx * h / 3;
  *y = sy * h / 3;
}

MT_TEST(track_spiral_converges_to_clothoid) {
  double L = 120, k1 = 1.0 / 40, x, y;
  clothoid(k1 / L, L, &x, &y);
  double prev = INFINITY;
  double tess[] = {0.004, 0.002, 0.001, 0.0005, 0.00025};
  for (int i = 0; i < 5; i++) {
    char src[512];
    /* a straight of 1e-6 m so the spiral starts from zero curvature */
    snprintf(src, sizeof src,
             "return { name = 's', tessellation = %g, segments = {\n"
             " { 1e-6, 5, 5, 0, 0, 0 }, { %g, 5, 5, %.17g, 0, 0 } } }", tess[i], L, k1);
    mt_err e = {0};
    track* t = track_load_text("spiral.lua", src, &e);
    CHECK_MSG(t, "%s", e.msg);
    double p[3], h;
    track_eval(t, track_length(t), 0, p, &h);
    double err = hypot(p[0] - x, p[1] - y);
    CHECK_NEAR(h, 0.5 * k1 * L, 1e-12);   /* the midpoint arcs turn exactly as the spiral does */
    /* second-order convergence: halving the curvature step quarters the error */
    if (isfinite(prev)) CHECK_MSG(err < 0.3 * prev, "error %.3g after %.3g (tessellation %g)", err, prev, tess[i]);
    prev = err;
    track_free(t);
  }
  CHECK_MSG(prev < 5e-3, "finest tessellation still %.3g m off the clothoid", prev);   /* 2.7 mm with 100 arcs */
}

MT_TEST(track_continuous_across_segment_boundaries) {
  for (size_t k = 0; k < MT_ARRAY_LEN(SHIPPED); k++) {
    track* t = load_named(SHIPPED[k]);
    CHECK(t);
    for (int i = 1; i < track_nsegments(t); i++) {
      double s = track_segment_start(t, i), d = 1e-7;
      for (int side = -1; side <= 1; side++) {
        double wl, wr;
        track_widths(t, s, &wl, &wr);
        double o = side < 0 ? -0.5 * wr : side > 0 ? 0.5 * wl : 0;
        double a[3], b[3], ha, hb, na[3], nb[3];
        track_eval(t, s - d, o, a, &ha);
        track_eval(t, s + d, o, b, &hb);
        track_normal(t, s - d, o, na);
        track_normal(t, s + d, o, nb);
        CHECK_MSG(fabs(a[2] - b[2]) < 1e-6, "%s: height jumps %.3g m at segment %d", SHIPPED[k], fabs(a[2] - b[2]), i + 1);
        CHECK_MSG(fabs(ha - hb) < 1e-6, "%s: heading jumps at segment %d", SHIPPED[k], i + 1);
        double dn = sqrt(pow(na[0] - nb[0], 2) + pow(na[1] - nb[1], 2) + pow(na[2] - nb[2], 2));
        /* On the centre line the normal is continuous. Off it, the manual's linear superelevation
         * transitions change the cross slope's RATE e′ at a boundary, so the along-track slope
         * g + e′·o kinks there by Δe′·o (and the arc pieces' curvature steps scale the tangent by
         * 1 − k·o): the normal may turn by a few milliradians at the edges, never more than 10. */
        if (side == 0) CHECK_MSG(dn < 1e-6, "%s: centre-line normal jumps %.3g at segment %d", SHIPPED[k], dn, i + 1);
        else CHECK_MSG(dn < 0.01, "%s: normal jumps %.3g at segment %d offset %g", SHIPPED[k], dn, i + 1, o);
      }
    }
    track_free(t);
  }
}

MT_TEST(track_normal_is_perpendicular_to_the_surface) {
  track* t = load_named("test_loop");
  CHECK(t);
  for (double s = 3; s < track_length(t); s += 37.3)
    for (double o = -4; o <= 4; o += 2) {
      double n[3], a[3], b[3], c[3], d[3], h;
      track_normal(t, s, o, n);
      track_eval(t, s - 1e-4, o, a, &h);
      track_eval(t, s + 1e-4, o, b, &h);
      track_eval(t, s, o - 1e-4, c, &h);
      track_eval(t, s, o + 1e-4, d, &h);
      double ts[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, to[3] = {d[0] - c[0], d[1] - c[1], d[2] - c[2]};
      double ls = sqrt(ts[0] * ts[0] + ts[1] * ts[1] + ts[2] * ts[2]), lo = sqrt(to[0] * to[0] + to[1] * to[1] + to[2] * to[2]);
      CHECK_NEAR((n[0] * ts[0] + n[1] * ts[1] + n[2] * ts[2]) / ls, 0, 1e-6);
      CHECK_NEAR((n[0] * to[0] + n[1] * to[1] + n[2] * to[2]) / lo, 0, 1e-6);
      CHECK(n[2] > 0.9);
    }
  track_free(t);
}

MT_TEST(track_inside_outside_at_the_edges) {
  const char* names[] = {"laguna_seca", "test_loop", "figure8"};
  for (int k = 0; k < 3; k++) {
    track* t = load_named(names[k]);
    CHECK(t);
    for (double s = 1.3; s < track_length(t); s += 41.7) {
      double wl, wr, p[3], h;
      track_widths(t, s, &wl, &wr);
      double probes[4] = {wl - 1e-3, wl + 1e-3, -wr + 1e-3, -wr - 1e-3};
      int inside[4] = {1, 0, 1, 0};
      for (int q = 0; q < 4; q++) {
        track_eval(t, s, probes[q], p, &h);
        road_point rp;
        int hint = -1;
        CHECK(track_query(t, p[0], p[1], hint, &rp) == 0);
        CHECK_MSG(rp.on_road == inside[q], "%s: s %.1f offset %.4f classified %s", names[k], s, probes[q],
                  rp.on_road ? "on" : "off");
      }
    }
    track_free(t);
  }
}

MT_TEST(track_station_offset_round_trip) {
  unsigned seed = 12345;
  for (size_t k = 0; k < MT_ARRAY_LEN(SHIPPED); k++) {
    track* t = load_named(SHIPPED[k]);
    CHECK(t);
    int hint = -1;
    for (int i = 0; i < 300; i++) {
      seed = seed * 1103515245u + 12345u;
      double s = (seed % 100000) / 100000.0 * track_length(t);
      seed = seed * 1103515245u + 12345u;
      double wl, wr, p[3], h;
      track_widths(t, s, &wl, &wr);
      double o = -wr + (seed % 10000) / 10000.0 * (wl + wr);
      track_eval(t, s, o, p, &h);
      road_point rp;
      CHECK(track_query(t, p[0], p[1], hint, &rp) == 0);
      hint = rp.hint;
      double ds = fabs(rp.s - s);
      if (track_closed(t)) ds = fmin(ds, track_length(t) - ds);
      /* the figure of eight crosses itself: there a point belongs to either branch */
      if (strcmp(SHIPPED[k], "figure8") == 0 && ds > 1e-3) continue;
      CHECK_MSG(ds < 1e-6, "%s: s %.6f → %.6f", SHIPPED[k], s, rp.s);
      CHECK_MSG(fabs(rp.offset - o) < 1e-6, "%s: offset %.6f → %.6f", SHIPPED[k], o, rp.offset);
      CHECK_NEAR(rp.z, p[2], 1e-6);
    }
    track_free(t);
  }
}

MT_TEST(track_laguna_seca_length_and_closure) {
  track* t = load_named("laguna_seca");
  CHECK(t);
  CHECK_MSG(fabs(track_length(t) - 3602) < 0.01 * 3602, "length %.1f m", track_length(t));
  double gap, herr, dz;
  track_closure(t, &gap, &herr, &dz);
  CHECK(gap < 1e-6 && fabs(herr) < 1e-9 && fabs(dz) < 1e-6);
  /* the manual's first segments, in feet: 269 ft straight, then grade −4.5 % by 150 ft later */
  CHECK_NEAR(track_segment_start(t, 1), 269 * 0.3048, 1e-9);
  CHECK_NEAR(track_grade(t, (269 + 150) * 0.3048), -0.045, 1e-12);
  CHECK_NEAR(track_superelevation(t, (269 + 150 + 182) * 0.3048), -0.119, 1e-12);
  track_free(t);
}

static void bad(const char* src, const char* want) {
  mt_err e = {0};
  track* t = track_load_text("bad.lua", src, &e);
  if (t) track_free(t);
  CHECK_MSG(!t && strstr(e.msg, want), "wanted '%s', got '%s'", want, t ? "(loaded)" : e.msg);
}

MT_TEST(track_bad_input_names_line_segment_field) {
  bad("return { name = 'x', segments = {\n {10, 5, 5, 0, 0, 0},\n {-5, 5, 5, 0, 0, 0} } }",
      "bad.lua:3: segment 2: field 'length': must be > 0, got -5");
  if (mt_test_failed) return;
  bad("return { name = 'x', segments = {\n {10, 0, 5, 0, 0, 0} } }", "bad.lua:2: segment 1: field 'left_half_width': must be > 0");
  if (mt_test_failed) return;
  bad("return { name = 'x', segments = {\n {10, 5, 5, 0, 0} } }", "bad.lua:2: segment 1: field 'superelevation': missing");
  if (mt_test_failed) return;
  bad("return { name = 'x', segments = {\n {10, 5, 5, 'steep', 0, 0} } }",
      "bad.lua:2: segment 1: field 'curvature': expected a number, got string");
  if (mt_test_failed) return;
  bad("return { name = 'x', segments = {\n {10, 5, 5, 0, 0/0, 0} } }", "bad.lua:2: segment 1: field 'slope': must be finite");
  if (mt_test_failed) return;
  bad("return { name = 'x', segments = {\n {10, 5, 5, 0, 0, 0},\n { length = 1/0, left_half_width = 5,\n"
      "   right_half_width = 5, curvature = 0, slope = 0, superelevation = 0 } } }",
      "bad.lua:3: segment 2: field 'length': must be finite");
}

/* A misspelt optional field must not pass silently: `clsoed = true` rode an open track. Each table
 * of a track refuses a field it does not know; a segment also a seventh element. */
MT_TEST(track_misspelt_fields_refused) {
  bad("return { name = 'x',\n clsoed = true, segments = { {10, 5, 5, 0, 0, 0} } }", "bad.lua:2: field 'clsoed': unknown field");
  if (mt_test_failed) return;
  bad("return { name = 'x', start = {\n hedding = 1 }, segments = { {10, 5, 5, 0, 0, 0} } }",
      "bad.lua:2: start: field 'hedding': unknown field");
  if (mt_test_failed) return;
  bad("return { name = 'x', segments = {\n { length = 10, left_half_width = 5, right_half_width = 5, curvature = 0, slope = 0,\n"
      "   superelevation = 0, camber = 0.1 } } }",
      "segment 1: field 'camber': unknown field");
  if (mt_test_failed) return;
  bad("return { name = 'x', segments = {\n {10, 5, 5, 0, 0, 0, 7} } }", "bad.lua:2: segment 1: field '7': unknown field");
  if (mt_test_failed) return;
  bad("return { name = 'x', closed = true, segments = { {10, 5, 5, 0.1, 0, 0}, {10, 5, 5, 0.1, 0, 0}, {10, 5, 5, 0.1, 0, 0} },\n"
      " close = { lengths = {1, 2, 3}, grad = 1 } }",
      "close: field 'grad': unknown field");
}
