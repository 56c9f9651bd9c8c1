/* sweep_report_cmd.c — `mototake sweep report`: a sweep's index (takes/sweep.h) as a table on the
 * terminal, as CSV (RFC 4180, base/csv.h) or as a plot of one metric against one varied key
 * (Cairo, render/draw.h). With more than one axis, the plot has one line per combination of
 * the other axes' values. Only reads the index; failed points are listed, never plotted.
 *
 * Stages: report_args (the options, checked against the sweep's grid), read_rows (the index's
 * points table, read-only), then one of print_table, write_csv (temporary name, then rename) or
 * plot_report (one series per combination of the other axes, the PNG). */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "render/draw.h"
#include "base/cli.h"
#include "base/csv.h"
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

/* The command's options, checked against the sweep's grid and the index's columns. */
typedef struct report_args {
  const char* dir;
  const char* out;        /* NULL: the table on stdout */
  int png, csv;           /* -o names a .png or a .csv */
  const char *xk, *yk;    /* the plot's varied key and metric */
  int xa, yc;             /* their axis and column indices */
  int w, h;               /* the PNG's size */
} report_args;

static int report_args_read(const cli* c, const sweep_grid* g, const sweep_column* cols, int ncol, report_args* a,
                            mt_err* e) {
  a->dir = c->pos[0];
  a->out = cli_str(c, "o", NULL);
  a->png = a->out && ends_with(a->out, ".png"), a->csv = a->out && ends_with(a->out, ".csv");
  if (a->out && !a->png && !a->csv) return mt_fail(e, MT_EINPUT, "sweep report: -o %s: expected a .csv or .png name", a->out);
  a->xk = cli_str(c, "x", g->ax[0].key);
  a->yk = cli_str(c, "y", "max_lean");
  const char *xk = a->xk, *yk = a->yk;
  a->xa = -1, a->yc = -1;
  for (int k = 0; k < g->naxis; k++)
    if (!strcmp(g->ax[k].key, xk)) a->xa = k;
  for (int k = 0; k < ncol; k++)
    if (!strcmp(cols[k].name, yk)) a->yc = k;
  if (a->xa < 0)
    return mt_fail(e, MT_EINPUT, "sweep report: --x %s: not a varied key of this sweep (first: %s)", xk, g->ax[0].key);
  if (a->yc < 0 || !strcmp(yk, "status") || !strcmp(yk, "verify") || !strcmp(yk, "error") || !strcmp(yk, "end_reason"))
    return mt_fail(e, MT_EINPUT, "sweep report: --y %s: not a numeric metric (e.g. max_lean, max_ay_g, band_max, lap_time)",
                   yk);
  a->w = 1400, a->h = 900;
  if (cli_set(c, "size") && draw_parse_size(cli_str(c, "size", ""), &a->w, &a->h))
    return mt_fail(e, MT_EINPUT, "sweep report: --size %s: expected WxH, each 64..8192", cli_str(c, "size", ""));
  return MT_OK;
}

/* The index's points, in point order, at most g->npoints of them (rows whose point is outside the
 * grid are skipped). *rows is allocated (also on failure, possibly with *nr = 0): free_rows. */
static int read_rows(const char* dir, const sweep_grid* g, const sweep_column* cols, int ncol, row** rows, long* nr,
                     mt_err* e) {
  *rows = NULL;
  *nr = 0;
  char p[4200];
  snprintf(p, sizeof p, "%s/index.sqlite", dir);
  sqlite3* db = NULL;
  if (sqlite3_open_v2(p, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
    mt_fail(e, MT_EINPUT, "sweep report: %s: %s", p, sqlite3_errmsg(db));
    sqlite3_close(db);
    return e->code;
  }
  sqlite3_busy_timeout(db, 5000);
  char sql[2048] = "SELECT point";
  for (int k = 0; k < ncol; k++) {
    size_t l = strlen(sql);
    snprintf(sql + l, sizeof sql - l, ", %s", cols[k].name);
  }
  strcat(sql, " FROM points ORDER BY point");
  sqlite3_stmt* q = NULL;
  int rc = MT_OK;
  if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK) {
    rc = mt_fail(e, MT_EINPUT, "sweep report: %s: not a sweep index (%s)", p, sqlite3_errmsg(db));
  } else {
    *rows = mt_alloc(sizeof(row) * (size_t)(g->npoints + 1));
    while (sqlite3_step(q) == SQLITE_ROW && *nr < g->npoints) {
      row* r = &(*rows)[*nr];
      r->point = (long)sqlite3_column_int64(q, 0);
      if (r->point < 0 || r->point >= g->npoints) continue;
      for (int k = 0; k < g->naxis; k++) r->par[k] = sweep_value(g, r->point, k);
      for (int k = 0; k < ncol; k++) {
        int t = sqlite3_column_type(q, k + 1);
        const char* s = (const char*)sqlite3_column_text(q, k + 1);
        r->val[k] = t == SQLITE_NULL || !s ? NULL : mt_strdup(s);
        r->num[k] = t == SQLITE_INTEGER || t == SQLITE_FLOAT ? sqlite3_column_double(q, k + 1) : NAN;
      }
      (*nr)++;
    }
  }
  sqlite3_finalize(q);
  sqlite3_close(db);
  return rc;
}

static void free_rows(row* rows, long nr, int ncol) {
  for (long i = 0; i < nr; i++)
    for (int k = 0; k < ncol; k++) free(rows[i].val[k]);
  free(rows);
}

/* Every column of every row: a header row of names, then a units row (as `take channels` writes). */
static int write_csv(const char* out, const sweep_grid* g, const sweep_column* cols, int ncol, const row* rows, long nr,
                     mt_err* e) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", out);
  FILE* f = fopen(tmp, "w");
  if (!f) return mt_fail(e, MT_EINPUT, "sweep report: %s: cannot write", out);
  fputs("point", f);
  for (int k = 0; k < g->naxis; k++) fputc(',', f), csv_field(f, g->ax[k].key);
  for (int k = 0; k < ncol; k++) fputc(',', f), csv_field(f, cols[k].name);
  fputs("\r\n", f);
  fputs("", f);
  for (int k = 0; k < g->naxis; k++) fputc(',', f);
  for (int k = 0; k < ncol; k++) fputc(',', f), csv_field(f, cols[k].unit);
  fputs("\r\n", f);
  for (long i = 0; i < nr; i++) {
    fprintf(f, "%ld", rows[i].point);
    for (int k = 0; k < g->naxis; k++) fprintf(f, ",%.17g", rows[i].par[k]);
    for (int k = 0; k < ncol; k++) {
      fputc(',', f);
      if (rows[i].val[k]) csv_field(f, rows[i].val[k]);
    }
    fputs("\r\n", f);
  }
  if (fclose(f) != 0 || rename(tmp, out) != 0) return mt_fail(e, MT_EINTERNAL, "sweep report: %s: cannot write", out);
  printf("%s: %ld rows of %ld points\n", out, nr, g->npoints);
  return MT_OK;
}

/* The table on stdout: the varied values, then the main metrics (columns by index in
 * sweep_columns' order: status, durations, lean, a_y, speeds, offset, fell, left, band, verify,
 * wall times, error). */
static void print_table(const char* dir, const sweep_grid* g, const row* rows, long nr) {
  printf("sweep %s: %s, %ld points, %ld in the index\n", dir, g->script, g->npoints, nr);
  printf("%5s", "point");
  for (int k = 0; k < g->naxis; k++) printf(" %14.14s", g->ax[k].key + (strlen(g->ax[k].key) > 14 ? strlen(g->ax[k].key) - 14 : 0));
  printf(" %-6s %8s %8s %8s %6s %7s %7s %6s %4s %4s %7s %-9s %6s\n", "status", "dur_s", "lap_s", "lean_deg",
         "ay_g", "vmin_ms", "vmax_ms", "off_m", "fell", "left", "band_dg", "verify", "wall_s");
  for (long i = 0; i < nr; i++) {
    const row* r = &rows[i];
    printf("%5ld", r->point);
    for (int k = 0; k < g->naxis; k++) printf(" %14.6g", r->par[k]);
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

/* Series s (of nother): the finished rows whose other axes have s's values, in row order, appended
 * at xs/ys + *used and added to pl; its label names those values. Returns the points added. */
static long add_series(draw_plot* pl, const sweep_grid* g, const report_args* a, const row* rows, long nr, long s,
                       long nother, char label[256], double* xs, double* ys, long* used) {
  int xa = a->xa, yc = a->yc;
  /* the other axes' values of series s: point index with the x axis at 0 */
  long base = 0, rem = s, stride = 1;
  label[0] = 0;
  for (int k = g->naxis - 1; k >= 0; k--) {
    if (k != xa) {
      long idx = rem % g->ax[k].n;
      rem /= g->ax[k].n;
      base += idx * stride;
    }
    stride *= g->ax[k].n;
  }
  for (int k = 0; k < g->naxis; k++)
    if (k != xa) {
      size_t l = strlen(label);
      snprintf(label + l, 256 - l, "%s%s=%.4g", l ? ", " : "", g->ax[k].key, sweep_value(g, base, k));
    }
  long n0 = *used;
  for (long i = 0; i < nr; i++) {
    int same = 1;
    for (int k = 0; k < g->naxis && same; k++)
      if (k != xa && sweep_value(g, rows[i].point, k) != sweep_value(g, base, k)) same = 0;
    if (!same || !rows[i].val[0] || strcmp(rows[i].val[0], "ok") || !isfinite(rows[i].num[yc])) continue;
    xs[*used] = rows[i].par[xa];
    ys[*used] = rows[i].num[yc];
    (*used)++;
  }
  if (*used > n0) {
    int si = draw_plot_add(pl, xs + n0, ys + n0, (int)(*used - n0), nother > 1 ? label : NULL, nother > 1 ? (int)(s % 10) : 0,
                           0);
    pl->s[si].markers = 1;
  }
  return *used - n0;
}

/* The plot of metric yc against axis xa, one line per combination of the other axes, as a PNG. */
static int plot_report(const report_args* a, const sweep_grid* g, const sweep_column* cols, const row* rows, long nr,
                       mt_err* e) {
  const char *xk = a->xk, *yk = a->yk;
  long nother = 1;
  for (int k = 0; k < g->naxis; k++)
    if (k != a->xa) nother *= g->ax[k].n;
  if (nother > DRAW_MAX_SERIES)
    return mt_fail(e, MT_EINPUT, "sweep report: %ld lines to draw (the other axes' combinations); at most %d", nother,
                   DRAW_MAX_SERIES);
  double* xs = mt_alloc(sizeof(double) * (size_t)(nr + 1));
  double* ys = mt_alloc(sizeof(double) * (size_t)(nr + 1));
  char(*labels)[256] = mt_alloc(sizeof(char[256]) * (size_t)nother);
  draw_plot pl = {0};
  char title[512], ylabel[128];
  snprintf(title, sizeof title, "%s against %s — sweep of %s (%ld of %ld points indexed)", yk, xk, g->script, nr, g->npoints);
  snprintf(ylabel, sizeof ylabel, "%s%s%s%s", yk, cols[a->yc].unit[0] ? " [" : "", cols[a->yc].unit,
           cols[a->yc].unit[0] ? "]" : "");
  pl.title = title;
  pl.xlabel = xk;
  pl.ylabel = ylabel;
  pl.legend = nother > 1 ? 1 : 0;
  long used = 0, plotted = 0;
  for (long s = 0; s < nother; s++) plotted += add_series(&pl, g, a, rows, nr, s, nother, labels[s], xs, ys, &used);
  if (plotted > 0) {   /* a margin, so the end points are not on the frame */
    double lo = INFINITY, hi = -INFINITY;
    for (long i = 0; i < used; i++) lo = fmin(lo, xs[i]), hi = fmax(hi, xs[i]);
    double pad = hi > lo ? 0.04 * (hi - lo) : fabs(lo) > 0 ? 0.1 * fabs(lo) : 1;
    pl.fixed_x = 1;
    pl.xmin = lo - pad;
    pl.xmax = hi + pad;
  }
  int rc = MT_OK;
  if (plotted == 0) {
    rc = mt_fail(e, MT_EINPUT, "sweep report: %s: no finished point has %s to plot", a->dir, yk);
  } else {
    draw_fig fig;
    if (!(rc = draw_fig_new(&fig, a->w, a->h, e))) {
      draw_plot_render(fig.cr, 20, 20, a->w - 40, a->h - 40, &pl);
      rc = draw_fig_save_png(&fig, a->out, e);
      draw_fig_free(&fig);
      if (!rc) printf("%s: %s against %s, %ld points\n", a->out, yk, xk, plotted);
    }
  }
  free(xs);
  free(ys);
  free(labels);
  return rc;
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
  sweep_grid g;
  if (sweep_load_grid(c.pos[0], &g, &e)) return cli_report(&e);
  int ncol;
  const sweep_column* cols = sweep_columns(&ncol);
  report_args a;
  if (report_args_read(&c, &g, cols, ncol, &a, &e)) return cli_report(&e);
  row* rows;
  long nr;
  int rc = read_rows(a.dir, &g, cols, ncol, &rows, &nr, &e);
  if (!rc) {
    if (a.png) rc = plot_report(&a, &g, cols, rows, nr, &e);
    else if (a.csv) rc = write_csv(a.out, &g, cols, ncol, rows, nr, &e);
    else print_table(a.dir, &g, rows, nr);
  }
  free_rows(rows, nr, ncol);
  return rc ? cli_report(&e) : 0;
}
