/* test_track_query.c — track_query's shortcuts (issue 18) against the computations they replace,
 * bit for bit.
 *
 * track_query (sim/track.c) no longer projects a window piece that provably lies beyond a
 * distance already found (a squared bound, no square root), reads the widths at its answer from
 * the answer's own segment (track_widths_on) instead of normalising the station and searching the
 * segments (track_widths), takes a straight piece's cos and sin of its heading from build(), and
 * its segment's cross-slope rate from build(). The reference, track_query_window(…, fast = 0),
 * does none of that. Checked here:
 *  - track_widths_on equals track_widths bit for bit at every arc piece's start, middle and end
 *    (the end is where a station can reach the next segment's start or the track's end, where the
 *    piece's own segment is not the one track_widths finds), and both ways of finding them occur;
 *  - every answer (every field) of track_query equals the reference's on every shipped track and
 *    on tracks made for the shortcuts' edges: a straight starting at heading −0 (its cos and sin
 *    from build() belong to −0, the answer's heading −0 + 0·u is +0), widths that change at each
 *    segment's end, banking that changes along a segment, an open track's ends, a hairpin so
 *    tight that the window's distances reach the bound's limit (1 − B|k|/2 <= 0) — at points on
 *    and off the road near every piece's ends, queried with hints on and off their piece. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/track.h"
#include "tests/unit/test.h"

static int same(const road_point* a, const road_point* b) {
  return a->on_road == b->on_road && !memcmp(&a->z, &b->z, sizeof a->z) && !memcmp(a->n, b->n, sizeof a->n) &&
         !memcmp(&a->s, &b->s, sizeof a->s) && !memcmp(&a->offset, &b->offset, sizeof a->offset) &&
         a->segment == b->segment && a->hint == b->hint;
}

/* Tracks for the shortcuts' edges (with the shipped ones). */
static const char* const EDGE_SRC[] = {
    /* a flat straight at heading −0, then a bend: the straight's heading is −0 (sin −0 = −0) */
    "return { name = 'minus_zero', start = { heading = -0.0 }, segments = {\n"
    " { 60, 4, 4, 0, 0, 0 }, { 40, 4, 4, 1 / 30, 0, 0 }, { 50, 4, 4, 0, 0, 0 } } }\n",
    /* open: widths changing at every segment's end by thirds (not exact in binary), banking and
     * grade changing along segments, straights, spirals and arcs */
    "return { name = 'thirds', tessellation = 0.002, segments = {\n"
    " { 33.3, 4 + 1/3, 5 - 1/3, 0, 0.01, 0.02 }, { 41.7, 5 + 2/3, 3 + 1/3, 1 / 47, -0.03, -0.07 },\n"
    " { 29.1, 3 + 1/7, 6 + 1/9, 1 / 47, 0.02, 0.05 }, { 37.9, 4 + 1/11, 4 + 1/13, -1 / 23, 0, -0.09 },\n"
    " { 51.3, 7 + 1/3, 2 + 2/3, 0, 0.04, 0 }, { 19.9, 3 + 1/3, 3 + 1/3, 0, 0.04, 0.03 } } }\n",
    /* closed: a circle of three arcs whose widths differ at the closing point */
    "local R = 40\n"
    "return { name = 'ring', closed = true, segments = {\n"
    " { 2 * math.pi * R / 3, 5 + 1/3, 5 + 1/7, 1 / R, 0, -0.05 },\n"
    " { 2 * math.pi * R / 3, 6 + 1/3, 4 + 1/9, 1 / R, 0, -0.08 },\n"
    " { 2 * math.pi * R / 3, 4 + 2/3, 5 + 1/11, 1 / R, 0, -0.02 } } }\n",
    /* a hairpin of 3 m radius, three arc pieces of 90 degrees: 17 m off the road a point is
     * still answered from the hint's window, whose distances there pass 2/|k| (where the bound
     * needs 1 − B|k|/2 > 0) */
    "return { name = 'hairpin', segments = {\n"
    " { 1.5 * math.pi, 3, 3, 1 / 3, 0, 0 }, { 1.5 * math.pi, 3, 3, 1 / 3, 0, 0 },\n"
    " { 1.5 * math.pi, 3, 3, 1 / 3, 0, 0 } } }\n",
};
static const char* const SHIPPED[] = {"laguna_seca", "figure8", "skidpad50", "skidpad100", "straight", "sweeper", "test_loop"};
#define NSHIPPED (int)(sizeof SHIPPED / sizeof *SHIPPED)
#define NTRACKS (NSHIPPED + (int)(sizeof EDGE_SRC / sizeof *EDGE_SRC))

static track* load_nth(int ti, mt_err* e) {
  if (ti < NSHIPPED) {
    char path[4096];
    track_resolve(SHIPPED[ti], path, sizeof path);
    return track_load(path, e);
  }
  return track_load_text("edge.lua", EDGE_SRC[ti - NSHIPPED], e);
}

MT_TEST(track_widths_on_equals_track_widths) {
  long own = 0, general = 0;
  for (int ti = 0; ti < NTRACKS; ti++) {
    mt_err e = {0};
    track* t = load_nth(ti, &e);
    CHECK_MSG(t, "track %d: %s", ti, e.msg);
    for (int p = 0; p < track_npieces(t); p++) {
      double s0, len;
      track_piece_span(t, p, &s0, &len);
      double ss[5] = {s0, s0 + 0.5 * len, s0 + len, nextafter(s0 + len, -INFINITY), s0 + 0.999999 * len};
      for (int k = 0; k < 5; k++) {
        double a[2], b[2];
        int r = track_widths_on(t, p, ss[k], &a[0], &a[1]);
        track_widths(t, ss[k], &b[0], &b[1]);
        CHECK_MSG(!memcmp(a, b, sizeof a), "track %d, piece %d, s %.17g: widths %.17g %.17g, track_widths %.17g %.17g", ti,
                  p, ss[k], a[0], a[1], b[0], b[1]);
        own += r;
        general += !r;
      }
    }
    track_free(t);
  }
  /* both ways are taken: the piece's own segment, and track_widths at segment and track ends */
  CHECK_MSG(own > 10000 && general > 50, "own segment %ld, through track_widths %ld", own, general);
}

MT_TEST(track_query_shortcuts_answer_as_the_reference) {
  long nq = 0, on_road = 0;
  for (int ti = 0; ti < NTRACKS; ti++) {
    mt_err e = {0};
    track* t = load_nth(ti, &e);
    CHECK_MSG(t, "track %d: %s", ti, e.msg);
    double L = track_length(t);
    int np = track_npieces(t);
    /* near every piece's end (on the road, at its edges, beyond them), hints on the piece and its
     * neighbours (no hint and points far off the road: test_track_window.c) */
    for (int p = 0; p < np; p++) {
      double s0, len;
      track_piece_span(t, p, &s0, &len);
      double ds[3] = {-1e-3, 0, 1e-6};
      for (int k = 0; k < 3; k++) {
        double s = fmin(s0 + len + ds[k], L), wl, wr, c[3], h;
        track_widths(t, s, &wl, &wr);
        double offs[8] = {0, -wr, wl, -wr - 0.5, wl + 0.5, 0.5 * wl, -wr - 17, wl + 17};
        for (int oi = 0; oi < (ti < NSHIPPED ? 6 : 8); oi++) {   /* 17 m off: the edge tracks */
          track_eval(t, s, offs[oi], c, &h);
          int hints[3] = {p, p + 1 < np ? p + 1 : p, p > 0 ? p - 1 : p};
          for (int hi = 0; hi < 3; hi++) {
            road_point a, b;
            memset(&a, 0x5a, sizeof a);
            memset(&b, 0x5a, sizeof b);
            int ra = track_query(t, c[0], c[1], hints[hi], &a), rb = track_query_window(t, c[0], c[1], hints[hi], 0, &b);
            nq++;
            on_road += ra == 0 && a.on_road;
            CHECK_MSG(ra == rb && (ra != 0 || same(&a, &b)),
                      "track %d, piece %d, s %.6f, offset %.6f, hint %d: z %.17g vs %.17g, n %.17g %.17g %.17g vs %.17g %.17g "
                      "%.17g, on road %d vs %d",
                      ti, p, s, offs[oi], hints[hi], a.z, b.z, a.n[0], a.n[1], a.n[2], b.n[0], b.n[1], b.n[2], a.on_road,
                      b.on_road);
          }
        }
      }
    }
    /* a ride: 7 cm a query, weaving over the road, the hint following the answers */
    int ha = -1, hb = -1;
    for (double s = 0; s < L; s += 0.07) {
      double wl, wr, c[3], h;
      track_widths(t, s, &wl, &wr);
      track_eval(t, s, 0.8 * wl * sin(s / 23.0), c, &h);
      road_point a, b;
      int ra = track_query(t, c[0], c[1], ha, &a), rb = track_query_window(t, c[0], c[1], hb, 0, &b);
      nq++;
      CHECK_MSG(ra == rb && (ra != 0 || same(&a, &b)), "track %d: ride at s %.3f", ti, s);
      if (ra == 0) {
        ha = a.hint;
        hb = b.hint;
      }
    }
    track_free(t);
  }
  CHECK_MSG(nq > 200000 && on_road > 50000, "%ld queries, %ld on the road", nq, on_road);
}

/* A closed track of two arc pieces queried with hint 0: the window's first piece was computed as
 * −1 (read before the pieces' array; ASan: heap-buffer-overflow). Now the window wraps properly;
 * on the road every answer is the full search's. */
MT_TEST(track_query_two_piece_closed_track) {
  const char* src =
      "return { name = 'two', closed = true, segments = {\n"
      " { 30, 4, 4, 1 / 20, 0, 0 }, { 30, 4, 4, 1 / 20, 0, 0 } } }\n";
  mt_err e = {0};
  track* t = track_load_text("two.lua", src, &e);
  CHECK_MSG(t, "%s", e.msg);
  CHECK(track_npieces(t) == 2);
  long n = 0;
  for (double s = 0.25; s < track_length(t); s += 0.5)   /* not at the pieces' ends (ties) */
    for (int oi = -3; oi <= 3; oi++) {
      double c[3], h;
      track_eval(t, s, oi, c, &h);
      for (int hint = 0; hint < 2; hint++) {
        road_point a, b;
        int ra = track_query(t, c[0], c[1], hint, &a), rb = track_query(t, c[0], c[1], -1, &b);
        CHECK_MSG(ra == 0 && rb == 0 && a.hint == b.hint && fabs(a.s - b.s) < 1e-9 && fabs(a.offset - oi) < 1e-9,
                  "s %.2f, offset %d, hint %d: piece %d s %.6f offset %.6f, full search piece %d s %.6f", s, oi, hint, a.hint,
                  a.s, a.offset, b.hint, b.s);
        n++;
      }
    }
  track_free(t);
  CHECK(n == 2 * 7 * 120);
}

/* The window's first and last piece on a closed track of 7 pieces or more without the integer
 * divisions, and the pruned window as one loop of its own (branch loopC): every hint of the
 * track, at points near every piece's ends and middle, on and off the road (where the window's
 * answer is far from the hint and the full search takes over), every field against the
 * reference's, bit for bit. Closed rings of 7, 8 and 9 pieces (the window then holds all, all but
 * one, all but two pieces: its first and last wrap at every hint near the ends), a ring of 6 (the
 * divisions kept: no pruning below 7), and Laguna Seca's first and last 12 pieces' hints. */
MT_TEST(track_query_window_wraps_as_the_reference) {
  long nq = 0, on_road = 0, far = 0;
  for (int ring = 6; ring <= 10; ring++) {
    char src[1024];
    mt_err e = {0};
    track* t;
    if (ring <= 9) {
      int m = snprintf(src, sizeof src, "local R = 40\nreturn { name = 'ring%d', closed = true, segments = {\n", ring);
      for (int k = 0; k < ring; k++)
        m += snprintf(src + m, sizeof src - m, " { 2 * math.pi * R / %d, 5 + %d/7, 4 + %d/9, 1 / R, 0, -0.0%d },\n", ring, k, k, k + 1);
      snprintf(src + m, sizeof src - m, "} }\n");
      t = track_load_text("ring.lua", src, &e);
    } else {
      char path[4096];
      track_resolve("laguna_seca", path, sizeof path);
      t = track_load(path, &e);
    }
    CHECK_MSG(t, "ring %d: %s", ring, e.msg);
    int np = track_npieces(t);
    CHECK_MSG(ring == 10 || np == ring, "ring %d: %d pieces", ring, np);
    double L = track_length(t);
    for (int h = 0; h < np; h++) {
      if (ring == 10 && h >= 12 && h < np - 12) continue;
      for (int dp = -4; dp <= 4; dp++) {
        int p = ((h + dp) % np + np) % np;
        double s0, len;
        track_piece_span(t, p, &s0, &len);
        double ss[5] = {s0, s0 + 1e-7, s0 + 0.5 * len, s0 + len - 1e-7, s0 + len};
        for (int k = 0; k < 5; k++) {
          double s = fmin(ss[k], L), wl, wr, c[3], hh;
          track_widths(t, s, &wl, &wr);
          double offs[7] = {0, -wr, wl, -wr - 0.5, wl + 0.5, -wr - 17, wl + 23};
          for (int oi = 0; oi < 7; oi++) {
            track_eval(t, s, offs[oi], c, &hh);
            road_point a, b;
            memset(&a, 0x5a, sizeof a);
            memset(&b, 0x5a, sizeof b);
            int ra = track_query(t, c[0], c[1], h, &a), rb = track_query_window(t, c[0], c[1], h, 0, &b);
            nq++;
            on_road += ra == 0 && a.on_road;
            far += ra == 0 && (a.hint - h + np) % np > 3 && (h - a.hint + np) % np > 3;
            CHECK_MSG(ra == rb && (ra != 0 || same(&a, &b)), "ring %d, hint %d, piece %d, s %.9f, offset %.3f: piece %d vs %d",
                      ring, h, p, s, offs[oi], a.hint, b.hint);
          }
        }
      }
    }
    track_free(t);
  }
  CHECK_MSG(nq > 15000 && on_road > 5000 && far > 1000, "%ld queries, %ld on the road, %ld answered outside the window", nq,
            on_road, far);
}
