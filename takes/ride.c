/* ride.c — the hand controller and the ride session (see ride.h). */
#include "takes/ride.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "base/luabox.h"
#include "sim/trim.h"

const char* const ride_event_names[RIDE_EV_N] = {"", "grab", "move", "shift", "axis", "restart", "recover"};

/*---- the controller ----*/

int ride_ctl_init(ride_ctl* c, const rig* rg, double assist, mt_err* e) {
  memset(c, 0, sizeof *c);
  c->rg = rg;
  c->format = RIDE_FORMAT;
  c->assist = assist;
  rider_default_params(&c->rp);
  c->rp.max_torque = rg->controls.max_torque;
  ride_ctl_reset(c);
  if (assist > 0) {   /* the roll loop's feed-forward: the steady turns' torques and steer angles */
    int rc = rider_trims_build(rg, NULL, &c->trims, e);
    if (rc) return rc;
    c->rp.trims = &c->trims;
  }
  return MT_OK;
}

void ride_ctl_reset(ride_ctl* c) {
  memset(&c->h, 0, sizeof c->h);
}

double ride_station(const track* tk, double st) {
  double L = track_length(tk);
  if (track_closed(tk)) return fmod(fmod(st, L) + L, L);
  return mt_clamp(st, 0, L);
}

/* c->xr = the start's state turned and moved from station c->s0 to station s (centre line). */
static void moved_start(ride_ctl* c, vehicle* v, double s) {
  double p0[3], p1[3], h0, h1;
  track_eval(c->tk, c->s0, 0, p0, &h0);
  track_eval(c->tk, s, 0, p1, &h1);
  double d[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
  veh_state_moved(v, c->x0, p0, h1 - h0, d, c->xr);
}

void ride_apply(ride_ctl* c, vehicle* v, const ride_event* ev) {
  ride_hands* h = &c->h;
  switch (ev->type) {
    case RIDE_EV_GRAB:
      h->on = !h->on;
      h->ax = h->px = ev->a;
      h->ay = h->py = ev->b;
      break;
    case RIDE_EV_MOVE:
      h->px = ev->a;
      h->py = ev->b;
      break;
    case RIDE_EV_SHIFT:
      h->shift_req = ev->a < 0 ? -1 : 1;
      break;
    case RIDE_EV_AXIS: {
      int k = (int)ev->a;
      if (k >= 0 && k < RIDE_NAXIS) h->axis[k] = k == RIDE_AXIS_STEER ? mt_clamp(ev->b, -1, 1) : mt_clamp(ev->b, 0, 1);
      break;
    }
    case RIDE_EV_RESTART:
      if (c->x0) veh_set_state(v, c->x0);
      rec_input_apply(c->in0, c->nin0, &v->in);
      ride_ctl_reset(c);
      break;
    case RIDE_EV_RECOVER:
      if (c->x0 && c->tk && c->xr) {
        moved_start(c, v, ride_station(c->tk, ev->a));
        veh_set_state(v, c->xr);
      }
      rec_input_apply(c->in0, c->nin0, &v->in);
      ride_ctl_reset(c);
      break;
  }
}

/* A lever from the band's length along it (px, ≥ 0 pulls): 0 to 1 over full_px, as a power curve
 * (the engine's torque and the brakes' grip saturate early: the curve leaves the band's first
 * pixels the fine part of the lever). Format 1 takes were linear. */
static double band_lever(double px, double full_px, double curve, int format) {
  if (!(px > 0)) return 0;
  double u = fmin(px / full_px, 1);
  return format == RIDE_FORMAT_LINEAR ? u : pow(u, curve);
}

ride_band ride_band_map(const rig_controls* k, int format, double sens, double dx, double dy, const double axis[RIDE_NAXIS]) {
  ride_band b;
  /* format 2: pointer (or stick) right pushes the right grip: positive steer torque (the front
   * wheel turns left a moment, docs/conventions.md), the machine leans right. Format 1 had the
   * opposite sign (it leaned left) and is kept only to re-ride the takes made with it. */
  double tau = format == RIDE_FORMAT_LINEAR ? -sens * dx - k->pad_torque * axis[RIDE_AXIS_STEER]   /* as it was, bit for bit */
                                            : sens * dx + k->pad_torque * axis[RIDE_AXIS_STEER];
  b.torque = mt_clamp(tau, -k->max_torque, k->max_torque);
  b.throttle = fmax(band_lever(dy, k->throttle_px, k->throttle_curve, format), axis[RIDE_AXIS_THROTTLE]);
  b.brake = fmax(band_lever(-dy, k->brake_px, k->brake_curve, format), axis[RIDE_AXIS_BRAKE]);
  return b;
}

void ride_control(vehicle* v, void* data) {
  ride_ctl* c = data;
  ride_hands* h = &c->h;
  const rig_controls* k = &c->rg->controls;
  double dt = c->rg->timestep;
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  double V = veh_speed(v);
  double sens = controls_sensitivity(k, V, roll);
  double dx = h->on ? h->px - h->ax : 0, dy = h->on ? h->ay - h->py : 0;   /* right, up: positive */
  ride_band b = ride_band_map(k, c->format, sens, dx, dy, h->axis);
  double tau = b.torque, thr = b.throttle, brk = b.brake;
  if (c->assist > 0) {
    /* the virtual rider's roll loop holds the lean the band asks for (pointer right: lean right,
     * positive roll — the same way the hands' torque leans it, so a blend never cancels) */
    veh_input keep = v->in;
    rider_target t = {0};
    t.roll_mode = 1;
    t.roll = mt_clamp(k->assist_lean * dx + 0.8 * h->axis[RIDE_AXIS_STEER], -c->rp.max_roll, c->rp.max_roll);
    t.speed = V;
    rider_control(&c->rp, &h->rs, v, &t, dt);
    double tr = v->in.steer_torque;
    v->in = keep;
    tau = (1 - c->assist) * tau + c->assist * tr;
  }
  v->in.steer_torque = tau;
  v->in.throttle = thr;
  v->in.front_brake = brk;
  v->in.rear_brake = k->rear_brake * brk;
  v->in.rider_lean_torque = 0;
  if (h->shift_req) {
    shift_request(&c->rp.shift, &h->ss, v, v->in.gear + h->shift_req);
    h->shift_req = 0;
  }
  shift_update(&c->rp.shift, &h->ss, v, dt);
  h->torque = tau;
  h->throttle = thr;
  h->brake = brk;
  h->sens = sens;
}

void ride_event_json(const ride_event* ev, char* out, size_t n) {
  json_t* o = json_pack("{s:s, s:f, s:f}", "t", ev->type > 0 && ev->type < RIDE_EV_N ? ride_event_names[ev->type] : "?",
                        "a", ev->a, "b", ev->b);
  char* s = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
  snprintf(out, n, "%s", s ? s : "{}");
  free(s);
  json_decref(o);
}

int ride_event_parse(const char* json, long step, ride_event* ev, mt_err* e) {
  json_error_t je;
  json_t* o = json_loads(json ? json : "", 0, &je);
  const char* t = NULL;
  double a = 0, b = 0;
  int rc = MT_OK;
  if (!o || json_unpack_ex(o, &je, 0, "{s:s, s:F, s:F}", "t", &t, "a", &a, "b", &b))
    rc = mt_fail(e, MT_EINPUT, "input event at step %ld: %s", step, je.text);
  memset(ev, 0, sizeof *ev);
  ev->step = step;
  for (int k = 1; !rc && k < RIDE_EV_N; k++)
    if (!strcmp(t, ride_event_names[k])) ev->type = k;
  if (!rc && !ev->type) rc = mt_fail(e, MT_EINPUT, "input event at step %ld: field 't': unknown event '%.40s'", step, t);
  if (!rc && !(isfinite(a) && isfinite(b) && fabs(a) < 1e6 && fabs(b) < 1e6))
    rc = mt_fail(e, MT_EINPUT, "input event at step %ld: fields 'a', 'b' must be finite and below 1e6", step);
  ev->a = a;
  ev->b = b;
  json_decref(o);
  return rc;
}

/*---- the session ----*/

static int open_writer(ride_session* s, const ride_opts* o, const char* out, take_writer** wp, mt_err* e) {
  const rig* r = s->rg;
  int nb = rec_nbody(r), nc = rec_nchan(), ni = rec_ninput();
  const char* bn[RIG_MAX_BODIES + VEH_NLINK];
  const char* bp[RIG_MAX_BODIES + VEH_NLINK];
  for (int i = 0; i < nb; i++) bn[i] = rec_body_name(r, i), bp[i] = rec_body_parent(r, i);
  const char* cn[256];
  const char* cu[256];
  for (int i = 0; i < nc; i++) cn[i] = rec_channels()[i].name, cu[i] = rec_channels()[i].units;
  const char* in[32];
  const char* iu[32];
  for (int i = 0; i < ni; i++) in[i] = rec_inputs()[i].name, iu[i] = rec_inputs()[i].units;
  take_schema sch = {r->timestep, veh_state_size(s->v), ni, in, iu, nb, bn, bp, nc, cn, cu, 0, NULL};
  int* rates = mt_alloc(sizeof(int) * (size_t)(veh_state_size(s->v) + 1));   /* format 5: integrated values */
  veh_state_rates(s->v, rates);
  sch.state_rate = rates;
  /* the ride's own settings: assist, start, the inputs before the first step */
  json_t* js = json_object();
  json_object_set_new(js, "format", json_integer(s->ctl.format));
  json_object_set_new(js, "assist", json_real(s->ctl.assist));
  json_object_set_new(js, "station", json_real(o->station));
  json_object_set_new(js, "speed", json_real(o->speed));
  json_t* a = json_array();
  for (int i = 0; i < s->ctl.nin0; i++) json_array_append_new(a, json_real(s->ctl.in0[i]));
  json_object_set_new(js, "in0", a);
  char* ride_text = json_dumps(js, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
  json_decref(js);
  json_t* ov = json_array();
  for (int i = 0; i < r->nset; i++) json_array_append_new(ov, json_string(r->sets[i]));
  char* ov_text = json_dumps(ov, JSON_COMPACT);
  json_decref(ov);
  take_source src[64];
  int ns = 0;
  char rig_name[512];
  src[ns++] = (take_source){"ride", "ride", ride_text};
  src[ns++] = (take_source){"rig", luabox_recorded_name(r->path, rig_name, sizeof rig_name), r->source};
  for (int i = 0; i < r->nmodule && ns < 62; i++) src[ns++] = (take_source){"module", r->modules[i].name, r->modules[i].text};
  src[ns++] = (take_source){"track", track_name(s->tk), track_source(s->tk)};
  take_writer* w = *wp = take_writer_open(out, &sch, src, ns, ov_text, e);
  free(rates);
  free(ride_text);
  free(ov_text);
  if (!w) return e->code ? e->code : MT_EINTERNAL;
  struct utsname u;
  char plat[400] = "unknown", ts[64], mj[64], created[64];
  if (uname(&u) == 0) snprintf(plat, sizeof plat, "%s %s %s", u.sysname, u.release, u.machine);
  snprintf(ts, sizeof ts, "%.17g", r->timestep);
  veh_integrator(mj, sizeof mj);
  time_t tt = time(NULL);
  strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", gmtime(&tt));
  if (take_writer_meta(w, "program", "mototake", e) || take_writer_meta(w, "program_version", mt_version(), e) ||
      take_writer_meta(w, "git_revision", mt_git_rev(), e) || take_writer_meta(w, "platform", plat, e) ||
      take_writer_meta(w, "timestep", ts, e) || take_writer_meta(w, "integrator", mj, e) ||
      take_writer_meta(w, "rig", r->name, e) || take_writer_meta(w, "track", track_name(s->tk), e) ||
      take_writer_meta(w, "created", created, e) || take_writer_meta(w, "ridden_by", "hand (mototake ride)", e))
    return e->code;
  return MT_OK;
}

int ride_open(ride_session* s, const ride_opts* o, mt_err* e) {
  memset(s, 0, sizeof *s);
  s->road_hint = -1;
  if (!(o->assist >= 0 && o->assist <= 1)) return mt_fail(e, MT_EINPUT, "ride: --assist must be within 0..1, got %g", o->assist);
  if (!(o->speed >= 0 && o->speed <= 90)) return mt_fail(e, MT_EINPUT, "ride: --speed must be within 0..90 m/s, got %g", o->speed);
  char path[4096];
  rig_resolve(o->rig, path, sizeof path);
  s->rg = rig_load(path, o->sets, o->nset, e);
  if (!s->rg) return MT_EINPUT;
  track_resolve(o->track, path, sizeof path);
  s->tk = track_load(path, e);
  if (!s->tk) return MT_EINPUT;
  s->v = veh_new(s->rg, track_road(s->tk), 0, e);
  if (!s->v) return e->code;
  s->L = track_length(s->tk);
  double st = o->station;
  if (track_closed(s->tk)) st = fmod(fmod(st, s->L) + s->L, s->L);
  else if (!(st >= 0 && st <= s->L))
    return mt_fail(e, MT_EINPUT, "ride: --start %g is off the track (0..%.0f m)", o->station, s->L);
  s->start_station = s->prev_s = st;
  double p0[3], h0;
  track_eval(s->tk, st, 0, p0, &h0);
  trim_spec ts = {0};
  ts.speed = o->speed;
  ts.fix_roll = 1;
  ts.gear = o->gear;
  ts.x = p0[0], ts.y = p0[1], ts.z = p0[2];
  ts.heading = h0;
  trim_result tr;
  int rc = trim_solve(s->v, &ts, &tr, e);
  if (rc) return rc;
  if ((rc = ride_ctl_init(&s->ctl, s->rg, o->assist, e))) return rc;
  int nx = veh_state_size(s->v);
  s->x0 = mt_alloc(sizeof(double) * nx);
  veh_get_state(s->v, s->x0);
  s->ctl.x0 = s->x0;
  s->ctl.tk = s->tk;
  s->ctl.s0 = st;
  s->ctl.xr = mt_alloc(sizeof(double) * nx);
  incident_init(&s->inc, st);
  s->ctl.nin0 = rec_ninput();
  rec_input_values(&s->v->in, s->ctl.in0);
  s->v->control = ride_control;
  s->v->control_data = &s->ctl;
  int nb = rec_nbody(s->rg), nc = rec_nchan(), ni = rec_ninput();
  s->buf = mt_alloc(sizeof(double) * (2 * nx + 7 * nb + nc + ni));   /* + scratch for rec_sample_instant */
  s->xs = s->buf, s->poses = s->xs + nx, s->ch = s->poses + 7 * nb, s->inp = s->ch + nc;
  /* the start's sample (for the window's first frame) */
  veh_forward(s->v);
  rec_poses(s->v, s->poses);
  rec_sample(s->v, &s->ctx, s->ch);
  s->opts = *o;
  snprintf(s->end, sizeof s->end, "ended by the rider");
  return MT_OK;
}

int ride_record(ride_session* s, const char* out, mt_err* e) { return open_writer(s, &s->opts, out, &s->w, e); }

int ride_write_still(ride_session* s, const char* path, mt_err* e) {
  take_writer* w = NULL;
  int rc = open_writer(s, &s->opts, path, &w, e);
  veh_get_state(s->v, s->xs);
  rec_input_values(&s->v->in, s->inp);
  for (int i = 0; !rc && i < 2; i++) {
    s->ch[0] = i * s->rg->timestep;
    double cx[REC_NCTX];
    rec_ctx_gather(s->ch, cx);
    rc = take_writer_step(w, s->xs, s->inp, cx, NULL, e);
  }
  if (rc) {
    if (w) take_writer_discard(w);
    return rc;
  }
  return take_writer_close(w, 1, "the ride window's still", e);
}

int ride_event_at(ride_session* s, int type, double a, double b, mt_err* e) {
  ride_event ev = {s->step, type, a, b};
  ride_apply(&s->ctl, s->v, &ev);
  if (type == RIDE_EV_RESTART) {
    s->ctx.lap = 0;
    s->prev_s = s->start_station;
    s->start_step = s->step;
    s->fell = 0;
    incident_reset(&s->inc, s->start_station);
  } else if (type == RIDE_EV_RECOVER) {   /* the lap count stays: the ride goes on from there */
    s->nrecover++;
    s->prev_s = ride_station(s->tk, a);
    s->fell = 0;
    incident_reset(&s->inc, s->prev_s);
  }
  if (s->w) {
    char js[256];
    ride_event_json(&ev, js, sizeof js);
    return take_writer_event(s->w, s->step, "input", js, e);
  }
  return MT_OK;
}

int ride_step(ride_session* s, mt_err* e) {
  vehicle* v = s->v;
  const rig* R = s->rg;
  veh_get_state(v, s->xs);
  double t = veh_time(v);
  int rc = veh_step(v, e);
  if (rc) return rc;
  double fp[3], fq[4];
  veh_body_pose(v, R->b_frame, fp, fq);
  road_point rp;
  v->road.query(v->road.self, fp[0], fp[1], s->road_hint, &rp);
  s->road_hint = rp.hint;
  if (track_closed(s->tk) && rp.s < s->prev_s - 0.5 * s->L) s->ctx.lap++;
  if (track_closed(s->tk) && rp.s > s->prev_s + 0.5 * s->L) s->ctx.lap--;
  s->prev_s = rp.s;
  s->ctx.station = rp.s;
  s->ctx.offset = rp.offset;
  s->ctx.distance = s->ctx.lap * s->L + rp.s - s->start_station;
  double roll, pitch, yaw, acc[3];
  veh_frame_euler(v, &roll, &pitch, &yaw);
  veh_frame_accel(v, acc);
  s->ctx.ax = acc[0] * cos(yaw) + acc[1] * sin(yaw);
  s->ctx.ay = -acc[0] * sin(yaw) + acc[1] * cos(yaw);
  rec_sample_instant(v, s->xs, s->inp + rec_ninput(), &s->ctx, s->poses, s->ch);   /* all at time t (issue 18) */
  s->ch[0] = t;
  rec_input_values(&v->in, s->inp);
  double cx[REC_NCTX];
  rec_ctx_gather(s->ch, cx);   /* the take stores the context; readers rebuild the channels (format 4) */
  if (s->w && (rc = take_writer_step(s->w, s->xs, s->inp, cx, NULL, e))) return rc;
  char js[256];
  if (incident_step(&s->inc, v, t, rp.s, rp.offset, roll, js, sizeof js) != INC_NONE && s->w &&
      (rc = take_writer_event(s->w, s->step, "mark", js, e)))
    return rc;
  if (!s->fell && fabs(roll) > 75 * MT_PI / 180) {   /* the runner's "fell" mark (takes/run.c) */
    s->fell = 1;
    if (s->nfell++ == 0) s->first_fell_t = t;
    snprintf(js, sizeof js, "{\"label\":\"fell\",\"time\":%.6f,\"lean\":%.1f,\"station\":%.2f}", t, roll * 180 / MT_PI, rp.s);
    if (s->w && (rc = take_writer_event(s->w, s->step, "mark", js, e))) return rc;
  }
  s->step++;
  return MT_OK;
}

int ride_close(ride_session* s, const char* reason, mt_err* e) {
  int rc = MT_OK;
  if (s->w) {
    if (s->step > 0) {
      char js[256];
      json_t* o = json_pack("{s:s}", "reason", reason ? reason : s->end);
      char* d = json_dumps(o, JSON_COMPACT);
      snprintf(js, sizeof js, "%s", d ? d : "{}");
      free(d);
      json_decref(o);
      take_writer_event(s->w, s->step - 1, "end", js, e);
      rc = take_writer_close(s->w, 1, reason ? reason : s->end, e);
    } else {
      take_writer_discard(s->w);
    }
  }
  s->w = NULL;
  free(s->buf);
  free(s->x0);
  free(s->ctl.xr);
  veh_free(s->v);
  track_free(s->tk);
  rig_free(s->rg);
  memset(s, 0, sizeof *s);
  return rc;
}

/*---- verify ----*/

int ride_replay_open(ride_replay* rr, take_reader* r, const rig* rg, const track* tk, const double* x0, vehicle* v,
                     mt_err* e) {
  memset(rr, 0, sizeof *rr);
  const char* text = NULL;
  for (int i = 0; i < take_nsources(r); i++) {
    const char *k, *nm, *t;
    take_source_at(r, i, &k, &nm, &t);
    if (!strcmp(k, "ride")) text = t;
  }
  /* a cut starts mid-ride, without the events that put the hands where they were: it verifies
   * by its recorded inputs, like every take */
  if (!text || take_meta(r, "cut_from")) return 0;
  json_error_t je;
  json_t* js = json_loads(text, 0, &je);
  json_t* in0 = NULL;
  double assist = 0, st = 0;
  json_int_t format = RIDE_FORMAT_LINEAR;   /* the band's mapping; takes before format 2 ride format 1 */
  if (!js ||
      json_unpack_ex(js, &je, 0, "{s:F, s:o, s?:I, s?F}", "assist", &assist, "in0", &in0, "format", &format, "station", &st) ||
      !json_is_array(in0) || !(assist >= 0 && assist <= 1) || !isfinite(st)) {
    json_decref(js);
    mt_fail(e, MT_EINPUT, "the take's ride source: %s",
            js ? "fields 'assist' (0..1) and 'in0' (a list) are required, 'format' is a whole number, 'station' a number" : je.text);
    return -1;
  }
  if (format < RIDE_FORMAT_LINEAR || format > RIDE_FORMAT) {
    json_decref(js);
    mt_fail(e, MT_EINPUT, "the take's ride source: field 'format': %lld is not a band mapping this mototake knows (1 or 2)",
            (long long)format);
    return -1;
  }
  if (ride_ctl_init(&rr->ctl, rg, assist, e)) {
    json_decref(js);
    return -1;
  }
  rr->ctl.format = (int)format;
  rr->ctl.nin0 = (int)json_array_size(in0) < 32 ? (int)json_array_size(in0) : 32;
  for (int i = 0; i < rr->ctl.nin0; i++) rr->ctl.in0[i] = json_number_value(json_array_get(in0, i));
  json_decref(js);
  rr->x0 = mt_alloc(sizeof(double) * veh_state_size(v));
  memcpy(rr->x0, x0, sizeof(double) * veh_state_size(v));
  rr->ctl.x0 = rr->x0;
  rr->xr = mt_alloc(sizeof(double) * veh_state_size(v));
  rr->ctl.xr = rr->xr;
  rr->ctl.tk = tk;
  rr->ctl.s0 = ride_station(tk, st);   /* as ride_open placed the start */
  int n = take_nevents(r);
  rr->ev = mt_alloc(sizeof(ride_event) * (n + 1));
  for (int i = 0; i < n; i++) {
    const take_event* te = take_event_at(r, i);
    if (strcmp(te->kind, "input")) continue;
    if (ride_event_parse(te->json, te->step, &rr->ev[rr->nev], e)) {
      ride_replay_close(rr);
      return -1;
    }
    if (rr->nev && rr->ev[rr->nev].step < rr->ev[rr->nev - 1].step) {
      ride_replay_close(rr);
      mt_fail(e, MT_EINPUT, "input event %d: step %ld is before the previous event's", i + 1, te->step);
      return -1;
    }
    rr->nev++;
  }
  rec_input_apply(rr->ctl.in0, rr->ctl.nin0, &v->in);
  v->control = ride_control;
  v->control_data = &rr->ctl;
  return 1;
}

void ride_replay_before(ride_replay* rr, vehicle* v, long i) {
  while (rr->next < rr->nev && rr->ev[rr->next].step <= i) ride_apply(&rr->ctl, v, &rr->ev[rr->next++]);
}

void ride_replay_close(ride_replay* rr) {
  free(rr->ev);
  free(rr->x0);
  free(rr->xr);
  rr->ev = NULL;
  rr->x0 = rr->xr = NULL;
}
