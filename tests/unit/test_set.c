/* test_set.c — the exported film set (exporters/set.h) against the road function it samples. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mt.h"
#include "exporters/set.h"
#include "sim/track.h"
#include "tests/unit/test.h"

static track* load_named(const char* name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/sim/tracks/%s.lua", mt_test_root(), name);
  mt_err e = {0};
  track* t = track_load(path, &e);
  if (!t) fprintf(stderr, "%s\n", e.msg);
  return t;
}

/* Largest |z − road(x, y)| over a mesh's vertices, its triangles' centroids and 3 more
 * barycentric points per triangle (fixed weights, spread over the triangle); *n: points tested. */
static double mesh_error(const track* t, const ex_mesh* m, long* n, double* where) {
  static const double B[5][3] = {{1, 0, 0}, {1. / 3, 1. / 3, 1. / 3}, {.6, .3, .1}, {.1, .6, .3}, {.3, .1, .6}};
  double worst = 0;
  int hint = -1;
  for (int f = 0; f < m->ntri; f++)
    for (int k = 0; k < 5; k++) {
      double q[3] = {0, 0, 0};
      for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++) q[i] += B[k][c] * m->pos[3 * m->idx[3 * f + (c + k) % 3] + i];
      road_point rp;
      if (track_query(t, q[0], q[1], hint, &rp)) continue;
      hint = rp.hint;
      (*n)++;
      if (fabs(q[2] - rp.z) > worst) worst = fabs(q[2] - rp.z), *where = rp.s;
    }
  return worst;
}

/* The road, its lines and its kerbs are within 2 mm of the road function the tyres touch, on
 * Laguna Seca (banked turns, the Corkscrew's 18 % and its spirals) and the figure of eight. */
MT_TEST(set_road_within_2mm_of_road_function) {
  const char* names[] = {"laguna_seca", "figure8"};
  for (int k = 0; k < 2; k++) {
    track* t = load_named(names[k]);
    CHECK(t);
    ex_set* S = mt_alloc(sizeof *S);
    ex_set_build(t, NULL, S);
    const char* parts[] = {"road", "road_lines", "kerbs_red", "kerbs_white"};
    long n = 0;
    double worst = 0, where = 0;
    for (int i = 0; i < 4; i++) {
      const ex_part* p = ex_set_part(S, parts[i]);
      if (!p) break;
      double w = 0, e = mesh_error(t, &p->mesh[0], &n, &w);
      if (e > worst) worst = e, where = w;
    }
    int have = ex_set_part(S, "kerbs_red") != NULL;
    ex_set_free(S);
    free(S);
    track_free(t);
    CHECK_MSG(have, "%s: no kerbs part", names[k]);
    CHECK_MSG(n >= 10000, "%s: only %ld points tested", names[k], n);
    CHECK_MSG(worst <= 0.002, "%s: the road mesh is %.2f mm from the road function at station %.1f m (%ld points)", names[k],
              worst * 1e3, where, n);
  }
}

/* The road's UVs run along the track: u is the offset and v the station (m) of each vertex's
 * own position, so a texture of tarmac and lines maps without stretching. */
MT_TEST(set_road_uv_is_offset_and_station) {
  track* t = load_named("laguna_seca");
  CHECK(t);
  ex_set* S = mt_alloc(sizeof *S);
  ex_set_build(t, NULL, S);
  const ex_mesh* m = &ex_set_part(S, "road")->mesh[0];
  double L = track_length(t), du = 0, dv = 0;
  int hint = -1, ok = m->uv != NULL;
  for (int i = 0; ok && i < m->nvert; i += 7) {
    road_point rp;
    track_query(t, m->pos[3 * i], m->pos[3 * i + 1], hint, &rp);
    hint = rp.hint;
    double v = m->uv[2 * i + 1], ds = fabs(v - rp.s);
    ds = fmin(ds, fabs(ds - L));   /* the closing row: v = L where the query says 0 */
    du = fmax(du, fabs(m->uv[2 * i] - rp.offset)), dv = fmax(dv, ds);
  }
  ex_set_free(S);
  free(S);
  track_free(t);
  CHECK_MSG(ok, "the road has no UVs");
  CHECK_MSG(du < 0.002 && dv < 0.002, "UV off the vertex's offset by %.2g m, its station by %.2g m", du, dv);
}

/* The dressing is where the track file puts it: each kerb triangle lies beyond the road's edge on
 * its kerb's side, within that kerb's stations; one board per corner, named with its title. */
MT_TEST(set_kerbs_and_boards_where_the_track_says) {
  track* t = load_named("laguna_seca");
  CHECK(t);
  ex_set* S = mt_alloc(sizeof *S);
  ex_set_build(t, NULL, S);
  const track_dress* d = track_dressing(t);
  int bad = 0, hint = -1, nk = 0;
  double bad_s = 0;
  for (int w = 0; w < 2; w++) {
    const ex_mesh* m = &ex_set_part(S, w ? "kerbs_white" : "kerbs_red")->mesh[0];
    for (int f = 0; f < m->ntri; f++, nk++) {
      double c[2] = {0, 0};
      for (int k = 0; k < 3; k++) c[0] += m->pos[3 * m->idx[3 * f + k]] / 3, c[1] += m->pos[3 * m->idx[3 * f + k] + 1] / 3;
      road_point rp;
      track_query(t, c[0], c[1], hint, &rp);
      hint = rp.hint;
      double wl, wr;
      track_widths(t, rp.s, &wl, &wr);
      int found = 0;
      for (int k = 0; k < d->nkerb && !found; k++) {
        const track_kerb* kb = &d->kerb[k];
        double o = kb->side * rp.offset, edge = kb->side > 0 ? wl : wr;
        found = rp.s >= kb->from && rp.s <= kb->to && o > edge && o < edge + EX_SET_KERB_W;
      }
      if (!found) bad++, bad_s = rp.s;
    }
  }
  int boards = 0, corkscrew = ex_set_part(S, "board_T8_Corkscrew") != NULL;
  for (int i = 0; i < S->npart; i++) boards += !strncmp(S->part[i].name, "board_", 6) && S->part[i].mesh[1].ntri > 0;
  int ncorner = d->ncorner, nkerb = d->nkerb;
  ex_set_free(S);
  free(S);
  track_free(t);
  CHECK_MSG(nkerb >= 11 && nk > 0, "%d kerbs in the track file, %d kerb triangles", nkerb, nk);
  CHECK_MSG(bad == 0, "%d of %d kerb triangles are not on a kerb of the track file (one at station %.1f m)", bad, nk, bad_s);
  CHECK_MSG(ncorner == 11 && boards == ncorner && corkscrew, "%d corners, %d boards with text, Corkscrew board %d", ncorner,
            boards, corkscrew);
}
