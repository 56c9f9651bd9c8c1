/* run_linear.c — a take's linear analysis (the memo's LINEARIZE): see run_linear.h. */
#include "takes/run_linear.h"

#include "base/jsonout.h"
#include "base/luabox.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void file_base(const char* take, const char* script, const char* name, int count, char* out, size_t n) {
  /* folder: the take's; stem: the take's name without .take (the script's on a dry run, where the
   * name only appears in messages: nothing is written) */
  const char* ref = take ? take : script;
  const char* slash = strrchr(ref, '/');
  int dlen = take && slash ? (int)(slash - ref) : 0;
  const char* base = slash ? slash + 1 : ref;
  size_t blen = strlen(base);
  const char* ext = take ? ".take" : ".lua";
  if (blen > strlen(ext) && !strcmp(base + blen - strlen(ext), ext)) blen -= strlen(ext);
  char stem[512];
  if (name && name[0]) {
    snprintf(stem, sizeof stem, "%s", name);
  } else {
    /* TAKE_linK, made a MATLAB name: a letter first, then letters, digits and '_' */
    int lead = !isalpha((unsigned char)base[0]);
    snprintf(stem, sizeof stem, "%s%.*s_lin%d", lead ? "lin_" : "", (int)blen, base, count);
    for (char* c = stem; *c; c++)
      if (!isalnum((unsigned char)*c) && *c != '_') *c = '_';
  }
  if (dlen > 0) snprintf(out, n, "%.*s/%s", dlen, ref, stem);
  else snprintf(out, n, "%s", stem);
}

/* A selection naming a state of the rider's controller (checked when a closed loop linearises). */
static int has_rider_state(const lin_spec* s) {
  for (int k = 0; k < s->n[LIN_STATE]; k++)
    if (!strncmp(s->item[LIN_STATE][k].name, "rider.", 6)) return 1;
  return 0;
}

int run_linear_check(vehicle* v, const take_script* sc, mt_err* e) {
  if (sc->lin.n[0] + sc->lin.n[1] + sc->lin.n[2] > 0 && lin_check(v, &sc->lin, e)) {
    char msg[sizeof e->msg];
    snprintf(msg, sizeof msg, "%s", e->msg);
    e->code = MT_OK;
    return mt_fail(e, MT_EINPUT, "%s:%d: field 'linear': %s", sc->path, sc->lin_line, msg);
  }
  for (int i = 0; i < sc->nevent; i++) {
    const script_event* ev = &sc->event[i];
    if (ev->linearise && ev->lin_closed && sc->has_rider && sc->posture)
      return mt_fail(e, MT_EINPUT, "%s:%d: event %d: field 'linearise': loop = \"closed\" covers the rider's steering and "
                     "speed loops, not its posture's (set rider.posture = false, or linearise open loop)", sc->path, ev->line, i + 1);
    if (ev->lin && !has_rider_state(ev->lin) && lin_check(v, ev->lin, e)) {
      char msg[sizeof e->msg];
      snprintf(msg, sizeof msg, "%s", e->msg);
      e->code = MT_OK;
      return mt_fail(e, MT_EINPUT, "%s:%d: event %d: field 'linear': %s", sc->path, ev->lin_line, i + 1, msg);
    }
  }
  return MT_OK;
}

/* The roots of the same loop's one-step map (what the ride does: sim/linear.h) into lm. */
static int step_roots(vehicle* v, const lin_loop* loop, lin_model* lm, mt_err* e) {
  int n = lin_size(v) + (loop ? loop->nc : 0);
  double* A = mt_alloc(sizeof(double) * (size_t)n * n);
  int rc = loop ? lin_jacobian_loop(v, loop, 1e-6, A, e) : lin_jacobian(v, 1e-6, A, e);
  if (!rc) {
    lm->root_re = mt_alloc(sizeof(double) * 2 * n);
    lm->root_im = lm->root_re + n;
    lm->nroot = lin_step_roots(A, n, v->rig->timestep, lm->root_re, lm->root_im, e);
    if (lm->nroot < 0) rc = e->code;
  }
  free(A);
  if (rc) lin_model_free(lm);
  return rc;
}

int run_linearise(vehicle* v, const lin_loop* loop, const take_script* sc, const lin_spec* spec, int event,
                  const char* take_path, int count, char** json_event, mt_err* e) {
  const script_event* ev = &sc->event[event];
  lin_model lm;
  int rc = loop ? lin_abcd_loop(v, loop, spec, &lm, e) : lin_abcd(v, spec, &lm, e);
  if (!rc) rc = step_roots(v, loop, &lm, e);
  if (rc) {
    char msg[sizeof e->msg];
    snprintf(msg, sizeof msg, "%s", e->msg);
    e->code = MT_OK;
    return mt_fail(e, rc, "%s:%d: event %d: linearise at t = %.4f s: %s", sc->path, ev->line, event + 1, veh_time(v), msg);
  }
  char base[4096], mpath[4200], jpath[4200], matpath[4200], title[512];
  file_base(take_path, sc->path, ev->lin_name, count, base, sizeof base);
  snprintf(mpath, sizeof mpath, "%s.m", base);
  snprintf(jpath, sizeof jpath, "%s.json", base);
  snprintf(matpath, sizeof matpath, "%s.mat", base);
  char rec[1024];   /* the script as takes record it: never the user's folders */
  snprintf(title, sizeof title, "%s: event %d, rig %s, t = %.6f s", luabox_recorded_name(sc->path, rec, sizeof rec), event + 1,
           v->rig->name, lm.time);
  if (take_path) {   /* a dry run (no take) writes nothing: the model is computed, so its errors still show */
    rc = lin_write_mfile(&lm, mpath, title, e);
    if (!rc) rc = lin_write_json(&lm, jpath, title, e);
    if (!rc) rc = lin_write_mat(&lm, matpath, title, veh_speed(v), e);
  }
  if (!rc && json_event) {
    json_t* o = json_object();
    json_object_set_new(o, "time", json_real(lm.time));
    const char* ms = strrchr(mpath, '/');
    const char* js = strrchr(jpath, '/');
    const char* ts = strrchr(matpath, '/');
    json_object_set_new(o, "mfile", json_string(ms ? ms + 1 : mpath));
    json_object_set_new(o, "json", json_string(js ? js + 1 : jpath));
    json_object_set_new(o, "mat", json_string(ts ? ts + 1 : matpath));
    json_object_set_new(o, "states", json_integer(lm.n));
    json_object_set_new(o, "inputs", json_integer(lm.r));
    json_object_set_new(o, "outputs", json_integer(lm.m));
    json_object_set_new(o, "loop", json_string(lm.closed ? "closed" : "open"));
    *json_event = mt_json_text(o, JSON_COMPACT, "linearise", e);
    json_decref(o);
    if (!*json_event) rc = e->code;
  }
  lin_model_free(&lm);
  return rc;
}
