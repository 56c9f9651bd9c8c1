/* sweep_report.c — `mototake sweep report`: a sweep's index (takes/sweep.h) as a table on the
 * terminal, as CSV (RFC 4180, sim/csv.h) or as a plot of one metric against one varied key
 * (Cairo, render/draw.h). With more than one axis, the plot has one line per combination of
 * the other axes' values. Only reads the index; failed points are listed, never plotted. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "render/draw.h"
#include "sim/cli.h"
#include "sim/csv.h"
#include "takes/sweep.h"

#define MAXROWS SWEEP_MAX_POINTS

typedef struct row {
  long point;
  double par[SWEEP_MAX_AXES];
  char* val[32];          /* metric columns as text (NULL: SQL NULL) */
  double num[32];         /* and as numbers (NAN: NULL or text) */
} row;

static int ends_with(const char* s, const char* t) {
  size_t a = strlen(s), b = strlen(t);
  return a >= b && strcmp(s + a - b, t) == 0;
}

int cmd_sweep_report(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "sweep report");
  cli_arg(&c, "o");
  cli_arg(&c, "x");
  cli_arg(&c, "y");
  cli_arg(&c, "size");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* dir = c.pos[0];
  sweep_grid g;
  if (sweep_load_grid(dir, &g, &e)) return cli_report(&e);
  int ncol;
  const sweep_column* cols = sweep_columns(&ncol);
  const char* out = cli_str(&c, "o", NULL);
  int png = out && ends_with(out, ".png"), csv = out && ends_with(out, ".csv");
  if (out && !png && !csv) {
    mt_fail(&e, MT_EINPUT, "sweep report: -o %s: expected a .csv or .png name", out);
    return cli_report(&e);
  }
  const char* xk = cli_str(&c, "x", g.ax[0].key);
  const char* yk = cli_str(&c, "y", "max_lean");
  int xa = -1, yc = -1;
  for (int k = 0; k < g.naxis; k++)
    if (!strcmp(g.ax[k].key, xk)) xa = k;
  for (int k = 0; k < ncol; k++)
    if (!strcmp(cols[k].name, yk)) yc = k;
  if (xa < 0) {
    mt_fail(&e, MT_EINPUT, "sweep report: --x %s: not a varied key of this sweep (first: %s)", xk, g.ax[0].key);
    return cli_report(&e);
  }
  if (yc < 0 || !strcmp(yk, "status") || !strcmp(yk, "verify") || !strcmp(yk, "error") || !strcmp(yk, "end_reason")) {
    mt_fail(&e, MT_EINPUT, "sweep report: --y %s: not a numeric metric (e.g. max_lean, max_ay_g, band_max, lap_time)", yk);
    return cli_report(&e);
  }
  int w = 1400, h = 900;
  if (cli_set(&c, "size") && draw_parse_size(cli_str(&c, "size", ""), &w, &h)) {
    mt_fail(&e, MT_EINPUT, "sweep report: --size %s: expected WxH, each 64..8192", cli_str(&c, "size", ""));
    return cli_report(&e);
  }
  /* read the rows */
  char p[4200];
  snprintf(p, sizeof p, "%s/index.sqlite", dir);
  sqlite3* db = NULL;
  if (sqlite3_open_v2(p, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
    mt_fail(&e, MT_EINPUT, "sweep report: %s: %s", p, sqlite3_errmsg(db));
    sqlite3_close(db);
    return cli_report(&e);
  }
  sqlite3_busy_timeout(db, 5000);
  char sql[2048] = "SELECT point";
  for (int k = 0; k < ncol; k++) {
    size_t l = strlen(sql);
    snprintf(sql + l, sizeof sql - l, ", %s", cols[k].name);
  }
  strcat(sql, " FROM points ORDER BY point");
  sqlite3_stmt* q = NULL;
  row* rows = NULL;
  long nr = 0;
  int rc = MT_OK;
  if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK) {
    rc = mt_fail(&e, MT_EINPUT, "sweep report: %s: not a sweep index (%s)", p, sqlite3_errmsg(db));
    goto done;
  }
  rows = mt_alloc(sizeof(row) * (size_t)(g.npoints + 1));
  while (sqlite3_step(q) == SQLITE_ROW && nr < g.npoints) {
    row* r = &rows[nr];
    r->point = (long)sqlite3_column_int64(q, 0);
    if (r->point < 0 || r->point >= g.npoints) continue;
    for (int k = 0; k < g.naxis; k++) r->par[k] = sweep_value(&g, r->point, k);
    for (int k = 0; k < ncol; k++) {
      int t = sqlite3_column_type(q, k + 1);
      const char* s = (const char*)sqlite3_column_text(q, k + 1);
      r->val[k] = t == SQLITE_NULL || !s ? NULL : mt_strdup(s);
      r->num[k] = t == SQLITE_INTEGER || t == SQLITE_FLOAT ? sqlite3_column_double(q, k + 1) : NAN;
    }
    nr++;
  }
  if (!png) {
    FILE* f = stdout;
    char tmp[4200];
    if (csv) {
      snprintf(tmp, sizeof tmp, "%s.tmp", out);
      f = fopen(tmp, "w");
      if (!f) {
        rc = mt_fail(&e, MT_EINPUT, "sweep report: %s: cannot write", out);
        goto done;
      }
      /* header row of names, then a units row (as `take channels` writes) */
      fputs("point", f);
      for (int k = 0; k < g.naxis; k++) fputc(',', f), csv_field(f, g.ax[k].key);
      for (int k = 0; k < ncol; k++) fputc(',', f), csv_field(f, cols[k].name);
      fputs("\r\n", f);
      fputs("", f);
      for (int k = 0; k < g.naxis; k++) fputc(',', f);
      for (int k = 0; k < ncol; k++) fputc(',', f), csv_field(f, cols[k].unit);
      fputs("\r\n", f);
      for (long i = 0; i < nr; i++) {
        fprintf(f, "%ld", rows[i].point);
        for (int k = 0; k < g.naxis; k++) fprintf(f, ",%.17g", rows[i].par[k]);
        for (int k = 0; k < ncol; k++) {
          fputc(',', f);
          if (rows[i].val[k]) csv_field(f, rows[i].val[k]);
        }
        fputs("\r\n", f);
      }
      if (fclose(f) != 0 || rename(tmp, out) != 0) {
        rc = mt_fail(&e, MT_EINTERNAL, "sweep report: %s: cannot write", out);
        goto done;
      }
      printf("%s: %ld rows of %ld points\n", out, nr, g.npoints);
    } else {
      printf("sweep %s: %s, %ld points, %ld in the index\n", dir, g.script, g.npoints, nr);
      printf("%5s", "point");
      for (int k = 0; k < g.naxis; k++) printf(" %14.14s", g.ax[k].key + (strlen(g.ax[k].key) > 14 ? strlen(g.ax[k].key) - 14 : 0));
      printf(" %-6s %8s %8s %8s %6s %7s %7s %6s %4s %4s %7s %-9s %6s\n", "status", "dur_s", "lap_s", "lean_deg",
             "ay_g", "vmin_ms", "vmax_ms", "off_m", "fell", "left", "band_dg", "verify", "wall_s");
      for (long i = 0; i < nr; i++) {
        row* r = &rows[i];
        printf("%5ld", r->point);
        for (int k = 0; k < g.naxis; k++) printf(" %14.6g", r->par[k]);
        printf(" %-6s", r->val[0] ? r->val[0] : "");
        const int ix[] = {1, 2, 3, 4, 5, 6, 7};
        const char* fm[] = {" %8.3f", " %8.3f", " %8.2f", " %6.3f", " %7.2f", " %7.2f", " %6.2f"};
        const int wd[] = {8, 8, 8, 6, 7, 7, 6};
        for (int j = 0; j < 7; j++)
          if (isfinite(r->num[ix[j]])) printf(fm[j], r->num[ix[j]]);
          else printf(" %*s", wd[j], "-");
        printf(" %4s %4s", r->val[8] ? r->val[8] : "-", r->val[9] ? r->val[9] : "-");
        if (isfinite(r->num[10])) printf(" %7.3f", r->num[10]);
        else printf(" %7s", "-");
        char vs[10];
        snprintf(vs, sizeof vs, "%s", r->val[13] ? r->val[13] : "-");
        printf(" %-9s", vs);
        double wall = (isfinite(r->num[14]) ? r->num[14] : 0) + (isfinite(r->num[15]) ? r->num[15] : 0);
        printf(" %6.2f", wall);
        if (r->val[17]) printf("  %s", r->val[17]);
        putchar('\n');
      }
    }
  } else {
    /* one series per combination of the other axes */
    long nother = 1;
    for (int k = 0; k < g.naxis; k++)
      if (k != xa) nother *= g.ax[k].n;
    if (nother > DRAW_MAX_SERIES) {
      rc = mt_fail(&e, MT_EINPUT, "sweep report: %ld lines to draw (the other axes' combinations); at most %d", nother,
                   DRAW_MAX_SERIES);
      goto done;
    }
    double* xs = mt_alloc(sizeof(double) * (size_t)(nr + 1));
    double* ys = mt_alloc(sizeof(double) * (size_t)(nr + 1));
    char(*labels)[256] = mt_alloc(sizeof(char[256]) * (size_t)nother);
    draw_plot pl = {0};
    char title[512], ylabel[128];
    snprintf(title, sizeof title, "%s against %s — sweep of %s (%ld of %ld points indexed)", yk, xk, g.script, nr, g.npoints);
    snprintf(ylabel, sizeof ylabel, "%s%s%s%s", yk, cols[yc].unit[0] ? " [" : "", cols[yc].unit, cols[yc].unit[0] ? "]" : "");
    pl.title = title;
    pl.xlabel = xk;
    pl.ylabel = ylabel;
    pl.legend = nother > 1 ? 1 : 0;
    long used = 0, plotted = 0;
    for (long s = 0; s < nother; s++) {
      /* the other axes' values of series s: point index with the x axis at 0 */
      long base = 0, rem = s, stride = 1;
      labels[s][0] = 0;
      for (int k = g.naxis - 1; k >= 0; k--) {
        if (k != xa) {
          long idx = rem % g.ax[k].n;
          rem /= g.ax[k].n;
          base += idx * stride;
        }
        stride *= g.ax[k].n;
      }
      for (int k = 0; k < g.naxis; k++)
        if (k != xa) {
          size_t l = strlen(labels[s]);
          snprintf(labels[s] + l, 256 - l, "%s%s=%.4g", l ? ", " : "", g.ax[k].key, sweep_value(&g, base, k));
        }
      long n0 = used;
      for (long i = 0; i < nr; i++) {
        int same = 1;
        for (int k = 0; k < g.naxis && same; k++)
          if (k != xa && sweep_value(&g, rows[i].point, k) != sweep_value(&g, base, k)) same = 0;
        if (!same || !rows[i].val[0] || strcmp(rows[i].val[0], "ok") || !isfinite(rows[i].num[yc])) continue;
        xs[used] = rows[i].par[xa];
        ys[used] = rows[i].num[yc];
        used++;
      }
      if (used > n0) {
        int si = draw_plot_add(&pl, xs + n0, ys + n0, (int)(used - n0), nother > 1 ? labels[s] : NULL,
                               nother > 1 ? (int)(s % 10) : 0, 0);
        pl.s[si].markers = 1;
        plotted += used - n0;
      }
    }
    if (plotted > 0) {   /* a margin, so the end points are not on the frame */
      double lo = INFINITY, hi = -INFINITY;
      for (long i = 0; i < used; i++) lo = fmin(lo, xs[i]), hi = fmax(hi, xs[i]);
      double pad = hi > lo ? 0.04 * (hi - lo) : fabs(lo) > 0 ? 0.1 * fabs(lo) : 1;
      pl.fixed_x = 1;
      pl.xmin = lo - pad;
      pl.xmax = hi + pad;
    }
    if (plotted == 0) {
      rc = mt_fail(&e, MT_EINPUT, "sweep report: %s: no finished point has %s to plot", dir, yk);
    } else {
      draw_fig fig;
      if (!(rc = draw_fig_new(&fig, w, h, &e))) {
        draw_plot_render(fig.cr, 20, 20, w - 40, h - 40, &pl);
        rc = draw_fig_save_png(&fig, out, &e);
        draw_fig_free(&fig);
        if (!rc) printf("%s: %s against %s, %ld points\n", out, yk, xk, plotted);
      }
    }
    free(xs);
    free(ys);
    free(labels);
  }
done:
  for (long i = 0; i < nr; i++)
    for (int k = 0; k < ncol; k++) free(rows[i].val[k]);
  free(rows);
  sqlite3_finalize(q);
  sqlite3_close(db);
  return rc ? cli_report(&e) : 0;
}
