/* incident.c — leaving the track and falling (see incident.h). */
#include "takes/incident.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/track_surface.h"

void incident_init(incident* in, double s) {
  memset(in, 0, sizeof *in);
  in->last_on_s = s;
  in->first_off_t = -1;
}

void incident_reset(incident* in, double s) {
  in->off = 0;
  in->last_on_s = s;
}

/* A wheel beyond the tarmac and the kerb. */
static int wheel_off(const vehicle* v, int w) { return v->out.wheel[w].surface >= SURF_GRASS; }

int incident_step(incident* in, const vehicle* v, double t, double s, double o, double roll, char* js, size_t n) {
  int f = wheel_off(v, 0), r = wheel_off(v, 1);
  if ((!f || !r) && fabs(roll) < INCIDENT_UPRIGHT) in->last_on_s = s;
  if (!in->off && f && r) {
    in->off = 1;
    if (in->n_off++ == 0) {
      in->first_off_t = t, in->first_off_s = s, in->first_off_o = o;
      in->first_off_surface = v->out.wheel[0].surface;
    }
    snprintf(js, n, "{\"label\":\"off track\",\"time\":%.6f,\"station\":%.2f,\"offset\":%.2f,\"front\":\"%s\",\"rear\":\"%s\"}",
             t, s, o, track_surface_name(v->out.wheel[0].surface), track_surface_name(v->out.wheel[1].surface));
    return INC_OFF;
  }
  if (in->off && !f && !r) {
    in->off = 0;
    snprintf(js, n, "{\"label\":\"back on track\",\"time\":%.6f,\"station\":%.2f,\"offset\":%.2f}", t, s, o);
    return INC_BACK;
  }
  return INC_NONE;
}

/*---- the take's incidents, read back ----*/

/* A surface name from a take (hostile text): one of ours, else "?". */
static const char* known_surface(const char* s) {
  for (int k = 0; k < SURF_N; k++)
    if (s && !strcmp(s, track_surface_name(k))) return track_surface_name(k);
  return "?";
}

/* out += "; " + item (nothing past n − 1 bytes). */
static void append(char* out, size_t n, const char* item) {
  size_t l = strlen(out);
  snprintf(out + l, n - l, "%s%s", l ? "; " : "", item);
}

void incident_summary(take_reader* r, char* out, size_t n) {
  out[0] = 0;
  double dt = take_schema_of(r)->timestep;
  int fell_marked = 0;   /* a ride's or a run's "fell" mark; the "fell over" end after it is the same fall */
  for (int i = 0; i < take_nevents(r); i++) {
    const take_event* ev = take_event_at(r, i);
    int mark = !strcmp(ev->kind, "mark"), input = !strcmp(ev->kind, "input");
    int end = !strcmp(ev->kind, "end");
    if (!mark && !input && !end) continue;
    json_t* o = json_loads(ev->json ? ev->json : "", 0, NULL);
    const char* lab = json_string_value(json_object_get(o, mark ? "label" : input ? "t" : "reason"));
    double t = ev->step * dt, st = json_number_value(json_object_get(o, "station"));
    if (!lab || !isfinite(st)) st = 0;
    char it[160] = "";
    if (mark && lab && !strcmp(lab, "off track"))
      snprintf(it, sizeof it, "off track at %.2f s (station %.0f m, %s)", t, st,
               known_surface(json_string_value(json_object_get(o, "front"))));
    else if (mark && lab && !strcmp(lab, "back on track")) snprintf(it, sizeof it, "back on track at %.2f s (station %.0f m)", t, st);
    else if (mark && lab && !strcmp(lab, "fell")) {
      fell_marked = 1;
      snprintf(it, sizeof it, "fell at %.2f s", t);
    } else if (end && lab && !strcmp(lab, "fell over") && !fell_marked)
      snprintf(it, sizeof it, "fell at %.2f s", t);
    else if (input && lab && !strcmp(lab, "recover")) {
      double a = json_number_value(json_object_get(o, "a"));
      snprintf(it, sizeof it, "restarted at %.2f s at station %.0f m", t, isfinite(a) ? a : 0);
    }
    if (it[0]) append(out, n, it);
    json_decref(o);
  }
}
