/* mtk_sim.c — libmototake's running, trimming and linearising (api/mototake.h): the same code as
 * `mototake run`, `trim` and `modes` (takes/run.h, sim/trim.h, sim/modes.h), their output left
 * to the caller. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/mototake.h"
#include "api/mtk_internal.h"
#include "sim/linear.h"
#include "sim/modes.h"
#include "sim/trim.h"
#include "takes/run.h"

/* n strings, each given (a C caller's list; Python's are never NULL). */
static int strings_ok(const char* const* s, int n) {
  if (n < 0 || (n > 0 && !s)) return 0;
  for (int i = 0; i < n; i++)
    if (!s[i]) return 0;
  return 1;
}

int mtk_run(const char* script, const char* const* sets, int nset, const char* out) {
  api_clear_error();
  mt_err e = {0};
  if (!script || !out || !strings_ok(sets, nset))
    return api_fail(&(mt_err){MT_EINPUT, "run: a script, an output take and well-formed overrides are required"});
  run_opts o = {.script = script, .out = out, .sets = (const char* const*)sets, .nset = nset, .quiet = 1};
  run_result r;
  return run_take(&o, &r, &e) ? api_fail(&e) : MTK_OK;
}

/* The rig (a name or a path, as the commands resolve it) with its overrides, and a vehicle of it
 * on the flat road the commands trim on. */
static vehicle* load_vehicle(const char* name, const char* const* sets, int nset, rig** rp, mt_err* e) {
  if (!name || !strings_ok(sets, nset)) {
    mt_fail(e, MT_EINPUT, "a rig and well-formed overrides are required");
    return NULL;
  }
  char path[4096];
  rig_resolve(name, path, sizeof path);
  rig* r = *rp = rig_load(path, sets, nset, e);
  if (!r) return NULL;
  road rd = {0};
  vehicle* v = veh_new(r, rd, 0, e);
  if (!v) {
    rig_free(r);
    *rp = NULL;
  }
  return v;
}

int mtk_trim_json(const char* rig_name, const char* const* sets, int nset, double speed, double lean_deg, int gear,
                  char* buf, size_t size) {
  api_clear_error();
  mt_err e = {0};
  if (!buf || size < MTK_TRIM_JSON_SIZE)
    return api_fail(&(mt_err){MT_EINPUT, "trim: the caller's buffer is smaller than MTK_TRIM_JSON_SIZE"});
  if (trim_check_args(speed, lean_deg, gear, &e)) return api_fail(&e);
  rig* r;
  vehicle* v = load_vehicle(rig_name, sets, nset, &r, &e);
  if (!v) return api_fail(&e);
  trim_spec s = {.speed = speed, .gear = gear, .fix_roll = 1, .roll = lean_deg * MT_PI / 180};
  trim_result t;
  int rc = trim_solve(v, &s, &t, &e);
  if (!rc) trim_json(speed, &t, buf, size);
  veh_free(v);
  rig_free(r);
  return rc ? api_fail(&e) : MTK_OK;
}

/* What a modes handle holds: the point, its listed modes and its continuous model. */
struct mtk_modes {
  double point[3];
  int nrow;
  md_row rows[MD_MAX_MODES * 2];
  lin_model lm;
};

/* The selection: the caller's inputs and outputs, or the default (n < 0). */
static void selection(lin_spec* s, const char* const* in, int nin, const char* const* out, int nout) {
  lin_spec def = {0};
  md_abcd_default(&def);
  for (int k = 0; k < 2; k++) {
    int kind = k ? LIN_OUTPUT : LIN_INPUT, n = k ? nout : nin;
    const char* const* names = k ? out : in;
    if (n < 0)
      for (int i = 0; i < def.n[kind]; i++) lin_spec_add(s, kind, def.item[kind][i].name, 0);
    for (int i = 0; i < n; i++) lin_spec_add(s, kind, names[i], 0);
  }
  lin_spec_clear(&def);
}

/* Trim v at the point (the command's one-point path: md_solve_loop, md_name, md_point_rows), then
 * linearise it there (lin_modes and lin_abcd restore the state exactly: both see the trim). */
static int solve(vehicle* v, mtk_modes* m, const md_spec* sp, const lin_spec* sel, mt_err* e) {
  md_point p = {.spec = *sp};
  int rc = md_solve_loop(v, &p, 1e-6, 0, NULL, NULL, e);
  if (!rc) {
    md_name(&p, 1);
    m->point[0] = p.spec.speed, m->point[1] = p.trim.roll * 180 / MT_PI, m->point[2] = p.ay_g;
    m->nrow = md_point_rows(v, NULL, &p, 60, m->rows, (int)MT_ARRAY_LEN(m->rows), e);
    if (m->nrow < 0) rc = MT_EINTERNAL;
  }
  if (!rc) rc = lin_abcd(v, sel, &m->lm, e);
  md_point_free(&p);
  return rc;
}

mtk_modes* mtk_modes_new(const char* rig_name, const char* const* sets, int nset, double speed, double lateral, int by_ay,
                         const char* const* inputs, int ninputs, const char* const* outputs, int noutputs) {
  api_clear_error();
  mt_err e = {0};
  if (!strings_ok(inputs, ninputs < 0 ? 0 : ninputs) || !strings_ok(outputs, noutputs < 0 ? 0 : noutputs)) {
    api_fail(&(mt_err){MT_EINPUT, "modes: inputs or outputs counted but not given"});
    return NULL;
  }
  if (md_check_speed(speed, 1, "m/s", &e) || md_check_lateral(by_ay != 0, lateral, &e)) {
    api_fail(&e);
    return NULL;
  }
  rig* r;
  vehicle* v = load_vehicle(rig_name, sets, nset, &r, &e);
  if (!v) {
    api_fail(&e);
    return NULL;
  }
  md_spec sp = {.speed = speed, .turn = by_ay != 0, .lean = by_ay ? 0 : lateral, .ay = by_ay ? lateral : 0};
  lin_spec sel = {0};
  selection(&sel, inputs, ninputs, outputs, noutputs);
  mtk_modes* m = calloc(1, sizeof *m);
  int rc = m ? solve(v, m, &sp, &sel, &e) : mt_fail(&e, MT_EINTERNAL, "modes: out of memory");
  lin_spec_clear(&sel);
  veh_free(v);
  rig_free(r);
  if (rc) {
    api_fail(&e);
    mtk_modes_free(m);
    return NULL;
  }
  return m;
}

void mtk_modes_free(mtk_modes* m) {
  if (!m) return;
  lin_model_free(&m->lm);
  free(m);
}

void mtk_modes_point(const mtk_modes* m, double out[3]) { memcpy(out, m->point, sizeof m->point); }
int mtk_modes_count(const mtk_modes* m) { return m->nrow; }

void mtk_modes_roots(const mtk_modes* m, double* re, double* im, double* hz, double* zeta) {
  for (int i = 0; i < m->nrow; i++) {
    if (re) re[i] = m->rows[i].re;
    if (im) im[i] = m->rows[i].im;
    if (hz) hz[i] = m->rows[i].hz;
    if (zeta) zeta[i] = m->rows[i].zeta;
  }
}

const char* mtk_modes_name(const mtk_modes* m, int i) { return i >= 0 && i < m->nrow ? md_names[m->rows[i].name] : NULL; }

void mtk_modes_size(const mtk_modes* m, int* n, int* r, int* p) {
  if (n) *n = m->lm.n;
  if (r) *r = m->lm.r;
  if (p) *p = m->lm.m;
}

static const lin_var* var(const mtk_modes* m, int kind, int i) {
  const lin_var* vs[3] = {m->lm.x, m->lm.u, m->lm.y};
  int ns[3] = {m->lm.n, m->lm.r, m->lm.m};
  return kind >= 0 && kind < 3 && i >= 0 && i < ns[kind] ? &vs[kind][i] : NULL;
}

const char* mtk_modes_var(const mtk_modes* m, int kind, int i) {
  const lin_var* x = var(m, kind, i);
  return x ? x->name : NULL;
}

const char* mtk_modes_units(const mtk_modes* m, int kind, int i) {
  const lin_var* x = var(m, kind, i);
  return x ? x->units : NULL;
}

void mtk_modes_abcd(const mtk_modes* m, double* A, double* B, double* C, double* D) {
  const lin_model* l = &m->lm;
  size_t n = (size_t)l->n, r = (size_t)l->r, p = (size_t)l->m;
  if (A && n) memcpy(A, l->A, sizeof(double) * n * n);
  if (B && n && r) memcpy(B, l->B, sizeof(double) * n * r);
  if (C && p && n) memcpy(C, l->C, sizeof(double) * p * n);
  if (D && p && r) memcpy(D, l->D, sizeof(double) * p * r);
}
