/* stunt_replay.c — the rider's stunt loop of a run take, re-derived (see stunt_replay.h). */
#include "takes/stunt_replay.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "base/mt.h"
#include "takes/recorder.h"
#include "takes/script.h"

/* The take's events that set the stunt or its pitch, in step order (the writer's order). */
static int read_events(stunt_replay* s, take_reader* r, const char* path, mt_err* e) {
  int n = take_nevents(r);
  s->ev = n > 0 ? mt_alloc(sizeof *s->ev * (size_t)n) : NULL;
  for (int i = 0; i < n; i++) {
    const take_event* te = take_event_at(r, i);
    if (strcmp(te->kind, "set")) continue;
    json_error_t je;
    json_t* j = json_loads(te->json ? te->json : "", 0, &je);
    const char* key = j ? json_string_value(json_object_get(j, "key")) : NULL;
    json_t* val = j ? json_object_get(j, "value") : NULL;
    int rc = MT_OK;
    if (!key) rc = mt_fail(e, MT_EINPUT, "%s: event %d (step %ld): a 'set' without a key", path, i + 1, te->step);
    else if (!strcmp(key, "rider.stunt")) {
      int k = json_is_string(val) ? stunt_kind(json_string_value(val)) : -1;
      if (k < 0) rc = mt_fail(e, MT_EINPUT, "%s: event %d (step %ld): rider.stunt: not a stunt's name", path, i + 1, te->step);
      else s->ev[s->nev++] = (stunt_event){te->step, 0, k};
    } else if (!strcmp(key, "rider.pitch")) {
      if (!json_is_number(val) || !isfinite(json_number_value(val)))
        rc = mt_fail(e, MT_EINPUT, "%s: event %d (step %ld): rider.pitch: not a number", path, i + 1, te->step);
      else s->ev[s->nev++] = (stunt_event){te->step, 1, json_number_value(val) * MT_PI / 180};
    }
    json_decref(j);
    if (rc) return rc;
  }
  return MT_OK;
}

int stunt_replay_open(stunt_replay* s, take_reader* r, const char* path, double first_stunt, double dt, mt_err* e) {
  memset(s, 0, sizeof *s);
  s->pitch = NAN;
  s->dt = dt;
  stunt_default_params(&s->sp);
  const char* text = NULL;
  for (int i = 0; i < take_nsources(r) && !text; i++) {
    const char *k, *nm, *t;
    take_source_at(r, i, &k, &nm, &t);
    if (!strcmp(k, "script")) text = t;
  }
  if (!text) return MT_OK;
  s->on = s->known = 1;
  take_script* sc = script_load_text("script", text, e);
  if (!sc) {
    char why[sizeof e->msg];
    snprintf(why, sizeof why, "%s", e->msg);
    e->code = MT_OK;
    return mt_fail(e, MT_EINPUT, "%s: its script does not read back: %s", path, why);
  }
  s->has_rider = sc->has_rider;
  int rc = MT_OK;
  if (take_meta(r, "cut_from")) {
    /* a cut: the loop's state at its first row is known only when no stunt runs there (a stunt
     * that is not running leaves the state all zero: sim/stunt.c) */
    s->known = first_stunt == STUNT_NONE;
  } else if (sc->has_rider && sc->stunt != STUNT_NONE) {   /* as takes/run.c starts it */
    s->pitch = sc->stunt_pitch;
    rc = stunt_start(&s->st, sc->stunt, isnan(s->pitch) ? stunt_default_pitch(sc->stunt) : s->pitch, e);
  }
  script_free(sc);
  if (!rc) rc = read_events(s, r, path, e);
  return rc;
}

/* The control callback: the loop decides from this step's kinematics as in takes/run.c, and the
 * recorded inputs replace its decision. */
static void control(vehicle* v, void* data) {
  stunt_replay* s = data;
  if (s->has_rider && s->st.kind != STUNT_NONE) stunt_control(&s->sp, &s->st, v, s->dt);
  rec_input_apply(s->in, s->ninput, &v->in);
}

void stunt_replay_attach(stunt_replay* s, vehicle* v, const double* in, int ninput) {
  if (!s->on) return;
  s->in = in;
  s->ninput = ninput;
  v->control = control;
  v->control_data = s;
}

int stunt_replay_kind(const stunt_replay* s) { return s->st.kind; }

int stunt_replay_after(stunt_replay* s, long i, mt_err* e) {
  for (; s->next < s->nev && s->ev[s->next].step < i; s->next++) {}
  for (; s->next < s->nev && s->ev[s->next].step == i; s->next++) {
    const stunt_event* ev = &s->ev[s->next];
    int rc = MT_OK;
    if (ev->pitch) {   /* takes/run.c: a new set-point restarts a stunt that is not landing */
      s->pitch = ev->value;
      if (s->st.kind != STUNT_NONE && s->st.phase != 2) rc = stunt_start(&s->st, s->st.kind, s->pitch, e);
    } else if ((int)ev->value == STUNT_NONE)
      stunt_stop(&s->st);
    else
      rc = stunt_start(&s->st, (int)ev->value, isfinite(s->pitch) ? s->pitch : stunt_default_pitch((int)ev->value), e);
    if (rc) return rc;
  }
  return MT_OK;
}

void stunt_replay_free(stunt_replay* s) {
  free(s->ev);
  s->ev = NULL;
}
