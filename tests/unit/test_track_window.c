/* test_track_window.c — track_query's pruned window gives the unpruned window's answer bit for bit
 * (issue 18: the road queries are a fifth of the ridden loop; pruning skips most projections).
 *
 * For every shipped track: points spread over the whole track at offsets from the centre line
 * to 40 m beyond its edges, each queried with hints near the point's own piece (0, ±1 … ±4 and ±8 pieces:
 * inside the window, at its edges and beyond, where the full search takes over) and with no hint;
 * then a walk along the track (0.3 m a query, weaving across the road and past its edges) with
 * the hint following the previous answer, as the tyres use it. Every answer — return code and
 * every field of the road point — must equal the reference's (track_query_window with fast = 0:
 * no pruning, nor any other of track_query's shortcuts, tests/unit/test_track_query.c) exactly. */
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

MT_TEST(track_window_pruning_answers_as_the_full_window) {
  const char* names[] = {"laguna_seca", "figure8", "skidpad50", "skidpad100", "straight", "sweeper", "test_loop"};
  unsigned long seed = 12345;
  long nq = 0;
  for (size_t ti = 0; ti < sizeof names / sizeof *names; ti++) {
    char path[4096];
    track_resolve(names[ti], path, sizeof path);
    mt_err e = {0};
    track* t = track_load(path, &e);
    CHECK_MSG(t, "%s: %s", names[ti], e.msg);
    double L = track_length(t);
    int follow_a = -1, follow_b = -1;
    for (int i = 0; i < 600; i++) {
      seed = seed * 6364136223846793005UL + 1442695040888963407UL;
      double u1 = (seed >> 11) * (1.0 / 9007199254740992.0);
      seed = seed * 6364136223846793005UL + 1442695040888963407UL;
      double u2 = (seed >> 11) * (1.0 / 9007199254740992.0);
      double s = u1 * L, wl, wr, p[3], h;
      track_widths(t, s, &wl, &wr);
      double off = -wr - 40 + u2 * (wl + wr + 80);
      /* half the points near the road, where the machine rides */
      if (i % 2) off = -wr - 1 + u2 * (wl + wr + 2);
      track_eval(t, s, off, p, &h);
      road_point own;
      if (track_query_window(t, p[0], p[1], -1, 0, &own)) continue;
      static const int dhs[] = {-8, -4, -3, -2, -1, 0, 1, 2, 3, 4, 8, 999};
      for (int j = 0; j < 12; j++) {
        int hint = dhs[j] == 999 ? -1 : own.hint + dhs[j];
        road_point a, b;
        memset(&a, 0x5a, sizeof a);
        memset(&b, 0x5a, sizeof b);
        int ra = track_query(t, p[0], p[1], hint, &a), rb = track_query_window(t, p[0], p[1], hint, 0, &b);
        nq++;
        CHECK_MSG(ra == rb && (ra != 0 || same(&a, &b)), "%s: point %d (s %.3f, offset %.3f), hint %d: s %.17g vs %.17g, hint %d vs %d",
                  names[ti], i, s, off, hint, a.s, b.s, a.hint, b.hint);
      }
    }
    /* dense: every 0.25 m, offsets −6 … 6 m, the hint two pieces off the centre line's piece
     * (on the figure of eight, near its crossing, the window keeps a point on its own branch
     * where the other one is nearer: there the window's answer is not the full search's) */
    for (double s = 0; s < L && ti == 1; s += 0.25) {
      double c[3], p[3], h;
      track_eval(t, s, 0, c, &h);
      road_point own;
      if (track_query_window(t, c[0], c[1], -1, 0, &own)) continue;
      for (int oi = -6; oi <= 6; oi++) {
        track_eval(t, s, oi, p, &h);
        for (int dh = -2; dh <= 2; dh += 4) {
          road_point a, b;
          int ra = track_query(t, p[0], p[1], own.hint + dh, &a), rb = track_query_window(t, p[0], p[1], own.hint + dh, 0, &b);
          nq++;
          CHECK_MSG(ra == rb && (ra != 0 || same(&a, &b)), "%s: s %.2f, offset %d, hint %+d: s %.17g vs %.17g", names[ti], s,
                    oi, dh, a.s, b.s);
        }
      }
    }
    for (double s = 0; s < L; s += 0.3) {   /* a walk, the hint following the answers */
      double wl, wr, p[3], h;
      track_widths(t, s, &wl, &wr);
      double off = (wl + 3) * sin(s / 17.0);
      track_eval(t, s, off, p, &h);
      road_point a, b;
      int ra = track_query(t, p[0], p[1], follow_a, &a), rb = track_query_window(t, p[0], p[1], follow_b, 0, &b);
      nq++;
      CHECK_MSG(ra == rb && (ra != 0 || same(&a, &b)), "%s: walk at s %.3f", names[ti], s);
      if (ra == 0) {
        follow_a = a.hint;
        follow_b = b.hint;
      }
    }
    track_free(t);
  }
  CHECK(nq > 7 * 600 * 12);
}
