/* take_mat.c — a take's channels as a .mat (see take_mat.h). */
#include "app/take_mat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/matfile.h"

typedef char mname[MATF_NAME_MAX + 1];

/* The file's own variables: no column may take their names. */
static const char* const own[] = {"time", "units", "names", "meta"};

int take_mat_check(const take_reader* r, const take_mat_cols* tc, mt_err* e) {
  mname* m = mt_alloc(sizeof(mname) * (tc->n + 1));
  int rc = MT_OK;
  for (int c = 0; c < tc->n && !rc; c++) {
    matf_name(tc->names[c], m[c]);
    for (int k = 0; k < 4 && !rc; k++)
      if (!strcmp(m[c], own[k]))
        rc = mt_fail(e, MT_EINPUT, "%s: channel '%s' would be the .mat's own variable '%s' (leave it out with --channels)",
                     take_path(r), tc->names[c], own[k]);
    for (int d = 0; d < c && !rc; d++)
      if (!strcmp(m[c], m[d]))
        rc = mt_fail(e, MT_EINPUT, "%s: channels '%s' and '%s' are both '%s' as MATLAB names (pick one with --channels)",
                     take_path(r), tc->names[d], tc->names[c], m[c]);
  }
  free(m);
  return rc;
}

/* time and every column, the bar from n to 2n a column at a time. */
static int put_columns(matf* mf, const take_mat_cols* tc, const mname* m, fprog* bar, long n, mt_err* e) {
  double* v = mt_alloc(sizeof(double) * (tc->rows + 1));
  tc->fill(tc->ctx, -1, v);
  int rc = matf_put_column(mf, "time", v, tc->rows, e);
  for (int c = 0; c < tc->n && !rc; c++) {
    tc->fill(tc->ctx, c, v);
    rc = matf_put_column(mf, m[c], v, tc->rows, e);
    fprog_tick(bar, n + (double)n * (c + 1) / tc->n);
  }
  free(v);
  return rc;
}

/* units and names: struct fields time and the columns' MATLAB names. */
static int put_units_names(matf* mf, const take_mat_cols* tc, const mname* m, mt_err* e) {
  const char** f = mt_alloc(sizeof(char*) * 3 * (tc->n + 1));
  const char **u = f + tc->n + 1, **nm = u + tc->n + 1;
  f[0] = "time", u[0] = "s", nm[0] = "time";
  for (int c = 0; c < tc->n; c++) f[c + 1] = m[c], u[c + 1] = tc->units[c], nm[c + 1] = tc->names[c];
  int rc = matf_put_strstruct(mf, "units", f, u, tc->n + 1, e);
  if (!rc) rc = matf_put_strstruct(mf, "names", f, nm, tc->n + 1, e);
  free(f);
  return rc;
}

/* Make the keys k[0..n) distinct: in each group of equal keys the first (in the take's order)
 * stays, the others get _2, _3, ... A suffixed key may meet another key, so this repeats; a
 * take crafted to need more than 8 rounds is refused (-1). Sorting, not pairwise comparing: a
 * take may hold up to TAKE_MAX_ROWS metadata rows. */
typedef struct keyref { const char* name; int i; } keyref;

static int keyref_cmp(const void* a, const void* b) {
  const keyref *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : x->i - y->i;
}

static int distinct_keys(mname* k, int n) {
  keyref* ref = mt_alloc(sizeof(keyref) * (n + 1));
  int changed = 1;
  for (int round = 0; round < 8 && changed; round++) {
    for (int i = 0; i < n; i++) ref[i] = (keyref){k[i], i};
    qsort(ref, n, sizeof *ref, keyref_cmp);
    changed = 0;
    for (int g = 0, h; g < n; g = h) {
      for (h = g + 1; h < n && !strcmp(ref[h].name, ref[g].name);) h++;
      mname base;
      snprintf(base, sizeof base, "%s", ref[g].name);
      for (int j = g + 1; j < h; j++, changed = 1)
        snprintf(k[ref[j].i], sizeof(mname), "%.*s_%d", MATF_NAME_MAX - 8, base, j - g + 1);
    }
  }
  free(ref);
  return changed ? -1 : 0;
}

/* meta: the take's metadata rows; keys made MATLAB names, made distinct (distinct_keys) */
static int put_meta(matf* mf, const take_reader* r, mt_err* e) {
  int n = take_nmeta(r), rc = MT_OK;
  mname* k = mt_alloc(sizeof(mname) * (n + 1));
  const char** f = mt_alloc(sizeof(char*) * 2 * (n + 1));
  const char** v = f + n + 1;
  for (int i = 0; i < n; i++) {
    const char* key;
    take_meta_at(r, i, &key, &v[i]);
    matf_name(key, k[i]);
    f[i] = k[i];
  }
  if (distinct_keys(k, n))
    rc = mt_fail(e, MT_EINPUT, "%s: field 'meta': its keys cannot be made distinct MATLAB names", take_path(r));
  if (!rc) rc = matf_put_strstruct(mf, "meta", f, v, n, e);
  free(f);
  free(k);
  return rc;
}

int take_mat_write(const char* out, const take_reader* r, const take_mat_cols* tc, fprog* bar, long n, mt_err* e) {
  if (take_mat_check(r, tc, e)) return e->code;
  mname* m = mt_alloc(sizeof(mname) * (tc->n + 1));
  for (int c = 0; c < tc->n; c++) matf_name(tc->names[c], m[c]);
  matf mf;
  int rc = matf_open(&mf, out, e);
  if (!rc) rc = put_columns(&mf, tc, (const mname*)m, bar, n, e);
  if (!rc) rc = put_units_names(&mf, tc, (const mname*)m, e);
  if (!rc) rc = put_meta(&mf, r, e);
  if (!rc) rc = matf_commit(&mf, e);
  else matf_abort(&mf);
  free(m);
  return rc;
}
