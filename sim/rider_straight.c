/* rider_straight.c — the rider on a straight line, a trimmed vehicle's controller (see rider_straight.h). */
#include "sim/rider_straight.h"

#include "base/angle.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int rider_straight_init(rider_straight* r, const rig* rg, mt_err* e) {
  memset(r, 0, sizeof *r);
  rider_default_params(&r->p);
  int rc = rider_trims_build(rg, NULL, &r->trims, e);
  r->p.trims = &r->trims;
  return rc;
}

/* Where the machine is: between its tyres' contact points, as a take's runner measures it. */
static void contacts_mid(const vehicle* v, double p[2]) {
  double fp[3], fq[4];
  veh_body_pose(v, v->rig->b_frame, fp, fq);
  p[0] = fp[0], p[1] = fp[1];
  if (v->out.wheel[0].contact && v->out.wheel[1].contact) {
    p[0] = 0.5 * (v->out.wheel[0].point[0] + v->out.wheel[1].point[0]);
    p[1] = 0.5 * (v->out.wheel[0].point[1] + v->out.wheel[1].point[1]);
  }
}

/* veh_step's controller: the line's errors, the speed, one decision. */
static void control(vehicle* v, void* data) {
  rider_straight* r = data;
  double roll, pitch, yaw, p[2];
  veh_frame_euler(v, &roll, &pitch, &yaw);
  contacts_mid(v, p);
  rider_target t = {0};
  t.speed = r->speed;
  double dx = p[0] - r->x0, dy = p[1] - r->y0;
  t.offset_error = -sin(r->yaw0) * dx + cos(r->yaw0) * dy;   /* positive: left of the line */
  t.heading_error = mt_wrap_angle(yaw - r->yaw0);
  rider_frame f = {roll, yaw, veh_speed(v), NULL};
  rider_control_at(&r->p, &r->s, v, &t, v->rig->timestep, &f);
}

static void l_save(void* d) { ((rider_straight*)d)->saved = ((rider_straight*)d)->s; }
static void l_restore(void* d) { ((rider_straight*)d)->s = ((rider_straight*)d)->saved; }
static void l_get(void* d, double* c) { rider_loop_get(&((rider_straight*)d)->sel, &((rider_straight*)d)->s, c); }
static void l_set(void* d, const double* c) { rider_loop_set(&((rider_straight*)d)->sel, &((rider_straight*)d)->s, c); }
static unsigned l_limits(void* d) { return ((rider_straight*)d)->s.limits; }

void rider_straight_start(rider_straight* r, vehicle* v, const trim_result* tr, lin_loop* L) {
  memset(&r->s, 0, sizeof r->s);
  r->s.steer_int = tr->steer_torque;
  r->s.roll_ref = tr->roll;
  if (r->p.ki_speed > 0) r->s.speed_int = tr->throttle / r->p.ki_speed;
  r->s.head_f_set = 1;   /* the heading filter at the trim's zero error: a state from the start */
  r->speed = veh_speed(v);
  double roll, pitch, p[2];
  veh_frame_euler(v, &roll, &pitch, &r->yaw0);
  contacts_mid(v, p);
  r->x0 = p[0], r->y0 = p[1];
  v->control = control;
  v->control_data = r;
  rider_loop_select(&r->p, 1, 0, &r->sel);
  memset(L, 0, sizeof *L);
  rider_loop_describe(&r->sel, L);
  L->data = r;
  L->get = l_get;
  L->set = l_set;
  L->save = l_save;
  L->restore = l_restore;
  L->limits = l_limits;
  L->limit_name = rider_limit_name;
}

void rider_straight_stop(vehicle* v) {
  v->control = NULL;
  v->control_data = NULL;
}
