/* test_stunt.c — the wheelie and stoppie balance loops on their own (no script), and how scripts
 * ask for them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/rider.h"
#include "sim/stunt.h"
#include "sim/trim.h"
#include "takes/script.h"
#include "tests/unit/test.h"

#define D2R (MT_PI / 180)

typedef struct ride { rider_params p; rider_state s; rider_target t; stunt_params sp; stunt_state st; } ride;

static void ride_control(vehicle* v, void* data) {
  ride* r = data;
  rider_control(&r->p, &r->s, v, &r->t, v->rig->timestep);
  stunt_control(&r->sp, &r->st, v, v->rig->timestep);
}

static vehicle* start(rig** rp, double speed, int gear, ride* rd) {
  char path[4096];
  snprintf(path, sizeof path, "%s/rigs/sport1000.lua", mt_test_root());
  mt_err e = {0};
  *rp = rig_load(path, NULL, 0, &e);
  if (!*rp) return NULL;
  vehicle* v = veh_new(*rp, (road){0}, 0, &e);
  trim_spec s = {0};
  s.speed = speed;
  s.fix_roll = 1;
  s.gear = gear;
  trim_result t;
  if (!v || trim_solve(v, &s, &t, &e) != MT_OK) return v;
  rider_default_params(&rd->p);
  stunt_default_params(&rd->sp);
  rd->t.roll_mode = 1;
  rd->t.speed = speed;
  v->control = ride_control;
  v->control_data = rd;
  return v;
}

MT_TEST(stunt_wheelie_balances_at_its_pitch_setpoint) {
  /* 14 m/s in first gear on a flat road, wheelie at −20° (ISO, nose up): the front wheel leaves
   * the road and stays off; over the last second of 3.5 s the pitch stays within 5° of the
   * set-point, with the throttle inside (0, 1) (the loop balances, it is not on a stop). */
  rig* r = NULL;
  ride rd = {0};
  vehicle* v = start(&r, 14, 1, &rd);
  CHECK(r && v);
  mt_err e = {0};
  CHECK(stunt_start(&rd.st, STUNT_WHEELIE, -20 * D2R, &e) == MT_OK);
  double up_from = -1, pmin = 1, pmax = -1, tmin = 1, tmax = 0;
  int came_down = 0;
  for (int i = 0; i < 3500; i++) {
    CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
    double roll, pitch, yaw, t = i * 1e-3;
    veh_frame_euler(v, &roll, &pitch, &yaw);
    if (!v->out.wheel[RIG_FRONT].contact && up_from < 0) up_from = t;
    if (up_from >= 0 && v->out.wheel[RIG_FRONT].contact) came_down = 1;
    if (t >= 2.5) {
      pmin = fmin(pmin, pitch);
      pmax = fmax(pmax, pitch);
      tmin = fmin(tmin, v->in.throttle);
      tmax = fmax(tmax, v->in.throttle);
    }
  }
  veh_free(v);
  rig_free(r);
  CHECK_MSG(up_from >= 0 && up_from < 1.0 && !came_down, "front wheel up from %.3f s, came down %d", up_from, came_down);
  CHECK_MSG(pmin > -25 * D2R && pmax < -15 * D2R, "pitch %.1f..%.1f deg over the last second", pmin / D2R, pmax / D2R);
  CHECK_MSG(tmin > 0 && tmax < 1 && tmax - tmin > 0.01, "throttle %.3f..%.3f", tmin, tmax);
}

MT_TEST(stunt_stoppie_balances_and_lands) {
  /* 25 m/s, stoppie at +10°: the rear wheel leaves the road within 0.5 s, rises 10 cm or more,
   * the pitch stays within 5° of the set-point for 0.5 s, and below 9 m/s the rider lands it
   * (the stunt ends by itself with the rear on the road). */
  rig* r = NULL;
  ride rd = {0};
  vehicle* v = start(&r, 25, -1, &rd);
  CHECK(r && v);
  rd.t.speed = 0;
  mt_err e = {0};
  CHECK(stunt_start(&rd.st, STUNT_STOPPIE, 10 * D2R, &e) == MT_OK);
  double up_from = -1, clear = 0, in_band = 0, ended = -1;
  for (int i = 0; i < 4000 && ended < 0; i++) {
    CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
    double roll, pitch, yaw, t = i * 1e-3;
    veh_frame_euler(v, &roll, &pitch, &yaw);
    if (!v->out.wheel[RIG_REAR].contact && up_from < 0) up_from = t;
    clear = fmax(clear, v->out.wheel[RIG_REAR].clearance);
    if (fabs(pitch - 10 * D2R) < 5 * D2R) in_band += 1e-3;
    if (rd.st.kind == STUNT_NONE) ended = t;
  }
  double speed = veh_speed(v);
  int rear = v->out.wheel[RIG_REAR].contact;
  veh_free(v);
  rig_free(r);
  CHECK_MSG(up_from >= 0 && up_from < 0.5, "rear wheel up from %.3f s", up_from);
  CHECK_MSG(clear >= 0.10, "rear tyre at most %.3f m up", clear);
  CHECK_MSG(in_band >= 0.5, "pitch within 5 deg of 10 deg for %.3f s", in_band);
  CHECK_MSG(ended > 0 && rear && speed < 9 && speed > 2, "ended at %.3f s, rear contact %d, speed %.2f m/s", ended, rear, speed);
}

MT_TEST(stunt_setpoint_sign_checked) {
  stunt_state s;
  mt_err e = {0};
  CHECK(stunt_start(&s, STUNT_WHEELIE, 10 * D2R, &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "a wheelie needs a nose-up pitch set-point within (-60, 0) degrees"), "%s", e.msg);
  CHECK(stunt_start(&s, STUNT_STOPPIE, -5 * D2R, &e) == MT_EINPUT);
  CHECK(stunt_start(&s, STUNT_STOPPIE, 5 * D2R, &e) == MT_OK && s.kind == STUNT_STOPPIE);
  CHECK(stunt_kind("wheelie") == STUNT_WHEELIE && stunt_kind("loop") == -1 && !strcmp(stunt_name(STUNT_STOPPIE), "stoppie"));
}

static void bad(const char* src, const char* want) {
  mt_err e = {0};
  take_script* s = script_load_text("bad.lua", src, &e);
  if (s) script_free(s);
  CHECK_MSG(s == NULL && strstr(e.msg, want), "wanted '%s' in '%s'", want, s ? "(loaded)" : e.msg);
}

MT_TEST(stunt_script_fields) {
  mt_err e = {0};
  take_script* s = script_load_text("ok.lua",
                                    "return { rig = 'a', track = 'b', duration = 5, rider = { stunt = 'wheelie', pitch = -25 },\n"
                                    " events = { { at = 1, set = { ['rider.stunt'] = 'stoppie', ['rider.pitch'] = 8 } },\n"
                                    "            { at = 2, set = { ['rider.stunt'] = 'none' } } } }",
                                    &e);
  CHECK_MSG(s, "%s", e.msg);
  CHECK(s->stunt == STUNT_WHEELIE && fabs(s->stunt_pitch + 25 * D2R) < 1e-12);
  int k = -1, p = -1;
  for (int q = 0; q < s->event[0].nset; q++) {
    if (!strcmp(s->event[0].set_key[q], "rider.stunt")) k = q;
    if (!strcmp(s->event[0].set_key[q], "rider.pitch")) p = q;
  }
  CHECK(k >= 0 && p >= 0 && s->event[0].set_val[k] == STUNT_STOPPIE && s->event[0].set_val[p] == 8);
  CHECK(s->event[1].nset == 1 && s->event[1].set_val[0] == STUNT_NONE);
  script_free(s);
  bad("return { rig = 'a', track = 'b', duration = 5,\n rider = { stunt = 'backflip' } }",
      "bad.lua:2: rider: field 'stunt': expected \"wheelie\", \"stoppie\" or \"none\", got \"backflip\"");
  if (mt_test_failed) return;
  bad("return { rig = 'a', track = 'b', duration = 5, rider = { stunt = 'wheelie', pitch = 20 } }",
      "rider: field 'pitch': a wheelie needs a nose-up pitch set-point");
  if (mt_test_failed) return;
  bad("return { rig = 'a', track = 'b', duration = 5,\n events = {\n { at = 1, set = { ['rider.stunt'] = 3 } } } }",
      "bad.lua:3: event 1: field 'set': rider.stunt expects \"wheelie\", \"stoppie\" or \"none\"");
  if (mt_test_failed) return;
  bad("return { rig = 'a', track = 'b', duration = 5,\n events = {\n { at = 1, set = { ['rider.stunt'] = 'stoppie', ['rider.pitch'] = -10 } } } }",
      "bad.lua:3: event 1: field 'set': a stoppie needs a nose-down pitch set-point");
  if (mt_test_failed) return;
  bad("return { rig = 'a', track = 'b', duration = 5, rider = false,\n events = {\n { at = 1, set = { ['rider.stunt'] = 'wheelie' } } } }",
      "bad.lua:3: event 1: field 'set': rider.stunt needs a rider");
}
