/* track_cmd.c — `mototake track info`. */
#include <math.h>
#include <stdio.h>

#include "base/cli.h"
#include "sim/track.h"

typedef struct track_stats {
  double length, gap, herr, dz;
  double xmin, xmax, ymin, ymax, zmin, zmax, zmin_s, zmax_s;
  double tightest_r, tightest_s;
} track_stats;

static void stats(const track* t, track_stats* st) {
  st->length = track_length(t);
  track_closure(t, &st->gap, &st->herr, &st->dz);
  st->xmin = st->ymin = st->zmin = INFINITY;
  st->xmax = st->ymax = st->zmax = -INFINITY;
  st->tightest_r = INFINITY;
  /* edges and centre, sampled every 0.5 m (the geometry is analytic; this is for extremes) */
  for (double s = 0; s <= st->length; s += 0.5) {
    double wl, wr, p[3], h;
    track_widths(t, s, &wl, &wr);
    for (int k = -1; k <= 1; k++) {
      double o = k < 0 ? -wr : k > 0 ? wl : 0;
      track_eval(t, s, o, p, &h);
      st->xmin = fmin(st->xmin, p[0]);
      st->xmax = fmax(st->xmax, p[0]);
      st->ymin = fmin(st->ymin, p[1]);
      st->ymax = fmax(st->ymax, p[1]);
    }
    track_eval(t, s, 0, p, &h);
    if (p[2] < st->zmin) st->zmin = p[2], st->zmin_s = s;
    if (p[2] > st->zmax) st->zmax = p[2], st->zmax_s = s;
    double k = fabs(track_curvature(t, s));
    if (k > 1e-12 && 1 / k < st->tightest_r) st->tightest_r = 1 / k, st->tightest_s = s;
  }
}

int cmd_track_info(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "track info");
  cli_flag(&c, "json");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  char path[4096];
  track_resolve(c.pos[0], path, sizeof path);
  track* t = track_load(path, &e);
  if (!t) return cli_report(&e);
  track_stats st;
  stats(t, &st);
  int closed = track_closed(t);
  if (cli_set(&c, "json")) {
    printf("{\"name\":\"%s\",\"file\":\"%s\",\"closed\":%s,\"length_m\":%.6f,\"segments\":%d,", track_name(t), path,
           closed ? "true" : "false", st.length, track_nsegments(t));
    if (closed) printf("\"closure_gap_m\":%.3g,\"closure_heading_rad\":%.3g,\"closure_dz_m\":%.3g,", st.gap, st.herr, st.dz);
    printf("\"bbox_m\":[%.3f,%.3f,%.3f,%.3f],\"lowest_m\":%.3f,\"lowest_station_m\":%.1f,\"highest_m\":%.3f,"
           "\"highest_station_m\":%.1f,\"tightest_radius_m\":%.3f,\"tightest_station_m\":%.1f}\n",
           st.xmin, st.ymin, st.xmax, st.ymax, st.zmin, st.zmin_s, st.zmax, st.zmax_s,
           isfinite(st.tightest_r) ? st.tightest_r : 0, isfinite(st.tightest_r) ? st.tightest_s : 0);
  } else {
    printf("track %s (%s)\n", track_name(t), path);
    printf("  length          %.2f m (%.3f mi), %d segments, %s\n", st.length, st.length / 1609.344, track_nsegments(t),
           closed ? "closed" : "open");
    if (closed)
      printf("  closure         gap %.3g m, heading mismatch %.3g rad, height mismatch %.3g m\n", st.gap, st.herr, st.dz);
    printf("  bounding box    x %.1f .. %.1f m, y %.1f .. %.1f m (%.0f x %.0f m)\n", st.xmin, st.xmax, st.ymin, st.ymax,
           st.xmax - st.xmin, st.ymax - st.ymin);
    printf("  lowest point    %.2f m at station %.0f m\n", st.zmin, st.zmin_s);
    printf("  highest point   %.2f m at station %.0f m (%.1f m of elevation change)\n", st.zmax, st.zmax_s, st.zmax - st.zmin);
    if (isfinite(st.tightest_r)) printf("  tightest radius %.2f m at station %.0f m\n", st.tightest_r, st.tightest_s);
    else printf("  tightest radius none (straight)\n");
    const track_surfaces* sf = track_surfaces_of(t);
    const track_surface *k = &sf->s[SURF_KERB], *g = &sf->s[SURF_GRASS], *r = &sf->s[SURF_GRAVEL];
    printf("  beyond the edge kerb %.1f m (grip %.2f, rolling %.3f) where listed, %d kerbs; grass %.1f m (grip %.2f, "
           "rolling %.3f); gravel beyond (grip %.2f, rolling %.3f)\n",
           k->width, k->grip, k->rolling, track_dressing(t)->nkerb, g->width, g->grip, g->rolling, r->grip, r->rolling);
  }
  track_free(t);
  return 0;
}
