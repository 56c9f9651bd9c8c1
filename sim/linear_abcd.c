/* linear_abcd.c — continuous-time A, B, C, D by central differences (see linear.h).
 *
 * One evaluation puts the model at x0 ⊕ dx with one input moved, runs mj_forward (for a
 * vehicle: veh_forward, so all our forces are in) and reads ẋ = [rates of the tangent position
 * coordinates; qacc; act_dot] and the outputs. Everything is preallocated before the loop over
 * columns; the vehicle's state, inputs, time, road hints and derived data are put back at the end. */
#include "sim/linear.h"
#include "sim/vehicle_mj.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/recsample.h"

#define LIN_DEFAULT_H 0.001
/* The closed loop's default: the rider asks for at most 1.2 mrad more lean a step (max_roll_rate
 * 1.2 rad/s, 1 ms steps) and its heading loop turns 1 mrad of yaw into about 2 mrad of lean at
 * 20 m/s: the memo's 1e-3 would switch that rate limit on (refused, lin_abcd_loop); the loop is
 * smooth over 1e-5, well above the rounding of the steps' arithmetic. */
#define LIN_LOOP_H 1e-5

/*---- specs and models ----*/

void lin_spec_add(lin_spec* s, int kind, const char* name, double perturb) {
  if (s->n[kind] == s->cap[kind]) {
    s->cap[kind] = s->cap[kind] ? 2 * s->cap[kind] : 16;
    s->item[kind] = mt_realloc(s->item[kind], sizeof(lin_item) * s->cap[kind]);
  }
  lin_item* it = &s->item[kind][s->n[kind]++];
  snprintf(it->name, sizeof it->name, "%s", name);
  it->perturb = perturb;
}

void lin_spec_clear(lin_spec* s) {
  for (int k = 0; k < 3; k++) free(s->item[k]);
  memset(s, 0, sizeof *s);
}

void lin_model_free(lin_model* lm) {
  if (!lm) return;
  free(lm->x);
  free(lm->u);
  free(lm->y);
  free(lm->A);
  free(lm->root_re);
  memset(lm, 0, sizeof *lm);
}

/*---- the tangent state's names ----*/

static const char* FREE_Q[6] = {"x", "y", "z", "rx", "ry", "rz"};
static const char* FREE_V[6] = {"vx", "vy", "vz", "wx", "wy", "wz"};

static void joint_name(const mjModel* m, int j, char* out, size_t n) {
  const char* s = mj_id2name(m, mjOBJ_JOINT, j);
  if (s && s[0]) snprintf(out, n, "%s", s);
  else snprintf(out, n, "joint%d", j);
}

/* Name and unit of tangent coordinate i (0 ≤ i < 2nv + na). */
static void tangent_name(const mjModel* m, int i, char* name, size_t nn, char* units, size_t nu) {
  int nv = m->nv;
  if (i >= 2 * nv) {
    int a = m->nu - m->na + (i - 2 * nv);
    const char* s = mj_id2name(m, mjOBJ_ACTUATOR, a);
    if (s && s[0]) snprintf(name, nn, "act.%s", s);
    else snprintf(name, nn, "act.%d", i - 2 * nv);
    snprintf(units, nu, "1");
    return;
  }
  int vel = i >= nv, dof = vel ? i - nv : i, j = m->dof_jntid[dof], k = dof - m->jnt_dofadr[j];
  char jn[64];
  joint_name(m, j, jn, sizeof jn);
  const char* pre = vel ? "qd" : "q";
  switch (m->jnt_type[j]) {
    case mjJNT_FREE:
      snprintf(name, nn, "%s.%s.%s", pre, jn, vel ? FREE_V[k] : FREE_Q[k]);
      snprintf(units, nu, "%s", k < 3 ? (vel ? "m/s" : "m") : (vel ? "rad/s" : "rad"));
      break;
    case mjJNT_BALL:
      snprintf(name, nn, "%s.%s.%s", pre, jn, vel ? FREE_V[3 + k] : FREE_Q[3 + k]);
      snprintf(units, nu, "%s", vel ? "rad/s" : "rad");
      break;
    case mjJNT_SLIDE:
      snprintf(name, nn, "%s.%s", pre, jn);
      snprintf(units, nu, "%s", vel ? "m/s" : "m");
      break;
    default:
      snprintf(name, nn, "%s.%s", pre, jn);
      snprintf(units, nu, "%s", vel ? "rad/s" : "rad");
  }
}

int lin_state_names(vehicle* v, char (*out)[96], int max) {
  const mjModel* m = v->m;
  int n = 2 * m->nv + m->na;
  char u[24];
  for (int i = 0; i < n && out && i < max; i++) tangent_name(m, i, out[i], 96, u, sizeof u);
  return n;
}

/*---- name lookup with near matches ----*/

typedef struct namelist { char (*name)[96]; char (*units)[24]; int n, cap; } namelist;

static void nl_add(namelist* l, const char* name, const char* units) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->name = mt_realloc(l->name, sizeof *l->name * l->cap);
    l->units = mt_realloc(l->units, sizeof *l->units * l->cap);
  }
  snprintf(l->name[l->n], 96, "%s", name);
  snprintf(l->units[l->n], 24, "%s", units);
  l->n++;
}

static void nl_free(namelist* l) {
  free(l->name);
  free(l->units);
}

static int nl_find(const namelist* l, const char* name) {
  for (int i = 0; i < l->n; i++)
    if (!strcmp(l->name[i], name)) return i;
  return -1;
}

/* "unknown state 'q.stear' (near: q.steer, qd.steer)" */
static int unknown(const namelist* l, const char* what, const char* name, mt_err* e) {
  char near[1024] = "";   /* at most 6 names of < 96 characters */
  size_t k = 0;
  int shown = 0;
  for (int pass = 0; pass < 2 && shown < 6; pass++)
    for (int i = 0; i < l->n && shown < 6; i++) {
      int d = mt_edit_distance(name, l->name[i]);
      int sub = name[0] && strstr(l->name[i], name) != NULL;
      int take = pass == 0 ? (d <= 2 || sub) : (d <= 4 && !(d <= 2 || sub));
      if (!take) continue;
      k += (size_t)snprintf(near + k, k < sizeof near ? sizeof near - k : 0, "%s%s", shown ? ", " : "", l->name[i]);
      shown++;
    }
  if (k >= sizeof near) near[sizeof near - 1] = 0;
  if (shown) return mt_fail(e, MT_EINPUT, "linearise: unknown %s '%s' (near matches: %s)", what, name, near);
  return mt_fail(e, MT_EINPUT, "linearise: unknown %s '%s' (%d known, e.g. %s)", what, name, l->n, l->n ? l->name[0] : "none");
}

/*---- the evaluator ----*/

enum { U_STEER, U_THROTTLE, U_FBRAKE, U_RBRAKE, U_CLUTCH, U_LEAN, U_CUT, U_ROAD_F, U_ROAD_R, U_NVEH };
static const char* VEH_U[U_NVEH] = {"steer_torque", "throttle", "front_brake", "rear_brake", "clutch",
                                     "rider_lean_torque", "ignition_cut", "road_front", "road_rear"};
static const char* VEH_U_UNITS[U_NVEH] = {"N*m", "1", "1", "1", "1", "N*m", "1", "m", "m"};

enum { IK_VEH, IK_PARAM, IK_CTRL };
enum { OK_STATE, OK_CHAN, OK_SENSOR };

typedef struct lsys {
  const mjModel* m;
  mjData* d;
  vehicle* v;                  /* NULL: a raw MuJoCo model */
  int nt;                      /* tangent size */
  double* x0;                  /* qpos, qvel, act */
  double* ctrl0;
  double* dx;                  /* tangent perturbation */
  double* f;                   /* full tangent rate */
  double* ch;                  /* channels (vehicle) */
  int n, r, mo;
  int* xs;                     /* chosen tangent indices */
  int* ik;                     /* input kind */
  int* ii;                     /* input index (U_*, ctrl index, param index) */
  int* ok;                     /* output kind */
  int* oi;                     /* output index */
  int check_only;              /* resolve names and perturbations, no evaluations */
  /* the closed loop (lin_abcd_loop): the controller's nc states follow the nt tangent ones */
  const lin_loop* loop;        /* NULL: the open loop */
  int nc;
  double *c0, *cs, *cn;        /* its states at the operating point, as set, after the decision */
  unsigned lim0;               /* its limits active at the operating point */
  int lim_check;               /* compare each evaluation's limits with lim0 */
} lsys;

static void veh_u_set(veh_input* in, double dz[2], int k, double val) {
  switch (k) {
    case U_STEER: in->steer_torque = val; break;
    case U_THROTTLE: in->throttle = val; break;
    case U_FBRAKE: in->front_brake = val; break;
    case U_RBRAKE: in->rear_brake = val; break;
    case U_CLUTCH: in->clutch = val; break;
    case U_LEAN: in->rider_lean_torque = val; break;
    case U_CUT: in->ignition_cut = val; break;
    case U_ROAD_F: dz[0] = val; break;
    default: dz[1] = val;
  }
}

static double veh_u_get(const veh_input* in, const double dz[2], int k) {
  const double vals[U_NVEH] = {in->steer_torque, in->throttle, in->front_brake, in->rear_brake, in->clutch,
                               in->rider_lean_torque, in->ignition_cut, dz[0], dz[1]};
  return vals[k];
}

/* Rate of the tangent position coordinates: qvel, except a free/ball joint's rotation vector θ
 * (q = q0·exp(θ)), whose rate is J_r⁻¹(θ)·ω, ω in body axes. */
static void pos_rates(const mjModel* m, const double* qvel, const double* dq, double* out) {
  memcpy(out, qvel, sizeof(double) * m->nv);
  for (int j = 0; j < m->njnt; j++) {
    int t = m->jnt_type[j];
    if (t != mjJNT_FREE && t != mjJNT_BALL) continue;
    int a = m->jnt_dofadr[j] + (t == mjJNT_FREE ? 3 : 0);
    const double* th = dq + a;
    const double* w = qvel + a;
    double tt = th[0] * th[0] + th[1] * th[1] + th[2] * th[2], n = sqrt(tt);
    if (tt == 0) continue;
    /* J_r⁻¹ = I + ½[θ]× + c[θ]×², c = 1/θ² − (1 + cos θ)/(2θ sin θ) (→ 1/12) */
    double c = n < 1e-4 ? 1.0 / 12 + tt / 720 : 1 / tt - (1 + cos(n)) / (2 * n * sin(n));
    double tw[3] = {th[1] * w[2] - th[2] * w[1], th[2] * w[0] - th[0] * w[2], th[0] * w[1] - th[1] * w[0]};
    double ttw[3] = {th[1] * tw[2] - th[2] * tw[1], th[2] * tw[0] - th[0] * tw[2], th[0] * tw[1] - th[1] * tw[0]};
    for (int k = 0; k < 3; k++) out[a + k] = w[k] + 0.5 * tw[k] + c * ttw[k];
  }
}

/* Put model data at x0 ⊕ dx. */
static void put_state(const mjModel* m, mjData* d, const double* x0, const double* dx) {
  memcpy(d->qpos, x0, sizeof(double) * m->nq);
  memcpy(d->qvel, x0 + m->nq, sizeof(double) * m->nv);
  memcpy(d->act, x0 + m->nq + m->nv, sizeof(double) * m->na);
  mj_integratePos(m, d->qpos, dx, 1.0);
  for (int i = 0; i < m->nv; i++) d->qvel[i] += dx[m->nv + i];
  for (int i = 0; i < m->na; i++) d->act[i] += dx[2 * m->nv + i];
}

/* Channels of a vehicle at its current evaluation (the runner's context re-derived). */
static void veh_channels(vehicle* v, double* ch) {
  const rig* r = v->rig;
  const double* fp = v->d->xpos + 3 * v->bid[r->b_frame];
  rec_context ctx = {0};
  road_point rp = {1, 0, {0, 0, 1}, fp[0], fp[1], -1, -1, 0, 0, 0};
  if (v->road.query) v->road.query(v->road.self, fp[0], fp[1], -1, &rp);
  ctx.station = rp.s;
  ctx.offset = rp.offset;
  ctx.distance = rp.s;
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  int fd = v->dadr[r->body[0].joint0];
  ctx.ax = v->d->qacc[fd] * cos(yaw) + v->d->qacc[fd + 1] * sin(yaw);
  ctx.ay = -v->d->qacc[fd] * sin(yaw) + v->d->qacc[fd + 1] * cos(yaw);
  rec_sample(v, &ctx, ch);
}

/* The closed loop's decision at the perturbed point (put_state done): the controller restored to
 * its snapshot with its states at c0 + dc, the machine evaluated with the operating point's
 * inputs (the kinematics and contacts the controller reads), the controller called; its states
 * after the decision into s->cn. A limit that differs from the operating point's is refused. */
static int loop_decide(lsys* s, vehicle* ev, const veh_input* in0, mt_err* e) {
  const lin_loop* L = s->loop;
  L->restore(L->data);
  for (int k = 0; k < s->nc; k++) s->cs[k] = s->c0[k] + s->dx[s->nt + k];
  L->set(L->data, s->cs);
  ev->in = *in0;
  ev->road_dz[0] = ev->road_dz[1] = 0;
  veh_forward(ev);
  ev->control(ev, ev->control_data);
  L->get(L->data, s->cn);
  unsigned lim = L->limits(L->data);
  if (s->lim_check && lim != s->lim0)
    return mt_fail(e, MT_EINPUT, "linearise: closed loop: a perturbation switches the rider's %s %s (the loop is not "
                   "smooth here: linearise open loop, or where the rider is clear of its limits)",
                   L->limit_name(lim ^ s->lim0), (lim & ~s->lim0) ? "on" : "off");
  return MT_OK;
}

/* One evaluation of f and g with the tangent perturbation s->dx and input iu moved by du (iu < 0:
 * none). The model evaluated is ev (a vehicle rebuilt with a perturbed parameter) or s's own. */
static int eval(lsys* s, vehicle* ev, int iu, double du, const veh_input* in0, double* xd, double* y, mt_err* e) {
  const mjModel* m = ev ? ev->m : s->m;
  mjData* d = ev ? ev->d : s->d;
  put_state(m, d, s->x0, s->dx);
  if (ev && ev == s->v && s->loop) {
    int rc = loop_decide(s, ev, in0, e);
    if (rc) return rc;
    if (iu >= 0 && s->ik[iu] == IK_VEH) veh_u_set(&ev->in, ev->road_dz, s->ii[iu], veh_u_get(&ev->in, ev->road_dz, s->ii[iu]) + du);
    veh_forward(ev);
  } else if (ev) {
    ev->in = *in0;
    ev->road_dz[0] = ev->road_dz[1] = 0;
    if (iu >= 0 && s->ik[iu] == IK_VEH) veh_u_set(&ev->in, ev->road_dz, s->ii[iu], veh_u_get(in0, ev->road_dz, s->ii[iu]) + du);
    veh_forward(ev);
  } else {
    memcpy(d->ctrl, s->ctrl0, sizeof(double) * m->nu);
    if (iu >= 0) d->ctrl[s->ii[iu]] += du;
    mj_forward(m, d);
  }
  int nv = m->nv;
  pos_rates(m, d->qvel, s->dx, s->f);
  memcpy(s->f + nv, d->qacc, sizeof(double) * nv);
  memcpy(s->f + 2 * nv, d->act_dot, sizeof(double) * m->na);
  for (int k = 0; k < s->nc; k++) s->f[s->nt + k] = (s->cn[k] - s->cs[k]) / s->v->rig->timestep;
  for (int i = 0; i < s->n; i++) xd[i] = s->f[s->xs[i]];
  int chans = 0;
  for (int k = 0; k < s->mo; k++) {
    switch (s->ok[k]) {
      case OK_STATE: {
        int t = s->oi[k];
        y[k] = t < nv ? s->dx[t] : t < 2 * nv ? d->qvel[t - nv] : t < s->nt ? d->act[t - 2 * nv] : s->cs[t - s->nt];
        break;
      }
      case OK_SENSOR: y[k] = d->sensordata[s->oi[k]]; break;
      default:
        if (!chans) {
          veh_channels(ev, s->ch);
          chans = 1;
        }
        y[k] = s->ch[s->oi[k]];
    }
  }
  for (int i = 0; i < s->n; i++)
    if (!isfinite(xd[i])) return mt_fail(e, MT_EINTERNAL, "linearise: the rate of a state is not finite at a perturbed point");
  for (int k = 0; k < s->mo; k++)
    if (!isfinite(y[k])) return mt_fail(e, MT_EINTERNAL, "linearise: an output is not finite at a perturbed point");
  return MT_OK;
}

static int check_h(const char* name, double h, double value, mt_err* e) {
  if (!(h > 0) || !isfinite(h))
    return mt_fail(e, MT_EINPUT, "linearise: the perturbation of '%s' must be a finite number > 0, got %g", name, h);
  if (value + h == value || value - h == value)
    return mt_fail(e, MT_EINPUT, "linearise: the perturbation %g of '%s' is lost against its value %g (singular: x + h == x)",
                   h, name, value);
  return MT_OK;
}

/*---- linearise's stages, in the order it runs them ----*/

/* linearise's working state beside lsys: the names, the inputs' values, the columns' buffers. */
typedef struct lwork {
  const rig_params* params;   /* the vehicle's rig parameters (inputs "param:KEY"), or NULL */
  namelist st, ins, outs;     /* tangent states, inputs, outputs (the states appended to the outputs) */
  int nout_base;              /* outputs before the states */
  int* pidx;                  /* per input: its rig parameter's index (IK_PARAM) */
  double* u0;                 /* per input: its value at the operating point */
  double *fp, *fm, *yp, *ym;  /* one column's rates and outputs at +h and −h */
  veh_input in0;              /* the vehicle's inputs at the operating point */
} lwork;

/* Every name a spec may choose: the tangent states, the inputs (a vehicle's, its rig's
 * parameters; a raw model's actuators), the outputs (channels or scalar sensors, then the states). */
static void list_names(const lsys* s, lwork* w) {
  const mjModel* m = s->m;
  const vehicle* v = s->v;
  const rig_params* params = w->params;
  int nt = s->nt;
  char nm[96], un[24];
  for (int i = 0; i < nt; i++) {
    tangent_name(m, i, nm, sizeof nm, un, sizeof un);
    nl_add(&w->st, nm, un);
  }
  for (int k = 0; k < s->nc; k++) nl_add(&w->st, s->loop->name[k], s->loop->units[k]);
  if (v) {
    for (int k = 0; k < U_NVEH; k++) nl_add(&w->ins, VEH_U[k], VEH_U_UNITS[k]);
    for (int k = 0; params && k < params->n; k++) {
      snprintf(nm, sizeof nm, "param:%s", params->p[k].key);
      nl_add(&w->ins, nm, params->p[k].unit);
    }
    for (int k = 0; k < rec_nchan(); k++) nl_add(&w->outs, rec_channels()[k].name, rec_channels()[k].units);
  } else {
    for (int a = 0; a < m->nu; a++) {
      const char* an = mj_id2name(m, mjOBJ_ACTUATOR, a);
      if (an && an[0]) snprintf(nm, sizeof nm, "ctrl.%s", an);
      else snprintf(nm, sizeof nm, "ctrl.%d", a);
      nl_add(&w->ins, nm, "1");
    }
    for (int k = 0; k < m->nsensor; k++) {
      if (m->sensor_dim[k] != 1) continue;
      const char* sn = mj_id2name(m, mjOBJ_SENSOR, k);
      if (sn && sn[0]) snprintf(nm, sizeof nm, "sensor.%s", sn);
      else snprintf(nm, sizeof nm, "sensor.%d", k);
      nl_add(&w->outs, nm, "1");
    }
  }
  w->nout_base = w->outs.n;
  for (int i = 0; i < w->st.n; i++) nl_add(&w->outs, w->st.name[i], w->st.units[i]);   /* states as outputs */
}

/* The model's variables and matrices (one block), s's index arrays (one block), the inputs'
 * values and the columns' buffers: all before any evaluation. */
static void alloc_model(lsys* s, const lin_spec* sp, lin_model* lm, lwork* w) {
  int nt = s->nt + s->nc;
  int n = sp && sp->n[LIN_STATE] ? sp->n[LIN_STATE] : nt, r = sp ? sp->n[LIN_INPUT] : 0, mo = sp ? sp->n[LIN_OUTPUT] : 0;
  lm->n = n;
  lm->r = r;
  lm->m = mo;
  lm->x = mt_alloc(sizeof(lin_var) * (n + 1));
  lm->u = mt_alloc(sizeof(lin_var) * (r + 1));
  lm->y = mt_alloc(sizeof(lin_var) * (mo + 1));
  size_t nA = (size_t)n * n, nB = (size_t)n * r, nC = (size_t)mo * n, nD = (size_t)mo * r;
  lm->A = mt_alloc(sizeof(double) * (nA + nB + nC + nD + 1));
  lm->B = lm->A + nA;
  lm->C = lm->B + nB;
  lm->D = lm->C + nC;
  lm->time = s->d->time;
  s->n = n;
  s->r = r;
  s->mo = mo;
  s->xs = mt_alloc(sizeof(int) * (n + 5 * r + 2 * mo + 1));
  s->ik = s->xs + n;
  s->ii = s->ik + r;
  s->ok = s->ii + r;
  s->oi = s->ok + mo;
  w->pidx = s->oi + mo;      /* r: param index per input */
  w->u0 = mt_alloc(sizeof(double) * (r + 1));
  w->fp = mt_alloc(sizeof(double) * 2 * (n + mo + 1));
  w->fm = w->fp + n;
  w->yp = w->fm + n;
  w->ym = w->yp + mo;
}

/* The chosen states (none chosen: all), their values at the operating point and perturbations. */
static int resolve_states(lsys* s, const lin_spec* sp, lin_model* lm, const lwork* w, mt_err* e) {
  const mjModel* m = s->m;
  int nv = m->nv, n = lm->n, rc = MT_OK;
  const namelist* st = &w->st;
  for (int i = 0; i < n && !rc; i++) {
    int t = i;
    if (sp && sp->n[LIN_STATE]) {
      t = nl_find(st, sp->item[LIN_STATE][i].name);
      if (t < 0) {
        rc = unknown(st, "state", sp->item[LIN_STATE][i].name, e);
        break;
      }
      for (int q = 0; q < i; q++)
        if (s->xs[q] == t) rc = mt_fail(e, MT_EINPUT, "linearise: state '%s' is chosen twice", st->name[t]);
    }
    s->xs[i] = t;
    lin_var* xv = &lm->x[i];
    snprintf(xv->name, sizeof xv->name, "%s", st->name[t]);
    snprintf(xv->units, sizeof xv->units, "%s", st->units[t]);
    xv->value = t >= s->nt ? s->c0[t - s->nt] : t < nv ? 0 : s->x0[m->nq + (t - nv)];
    if (t < nv) {   /* positions: the coordinate itself (a rotation vector's is 0: the tangent origin) */
      int j = m->dof_jntid[t], k = t - m->jnt_dofadr[j], ty = m->jnt_type[j];
      if (ty == mjJNT_HINGE || ty == mjJNT_SLIDE || (ty == mjJNT_FREE && k < 3)) xv->value = s->x0[m->jnt_qposadr[j] + k];
    }
    double h = sp && sp->n[LIN_STATE] ? sp->item[LIN_STATE][i].perturb : 0;
    double h0 = s->loop ? LIN_LOOP_H : LIN_DEFAULT_H;
    if (h == 0) h = t < nv || (t >= 2 * nv && t < s->nt) ? h0 : h0 * fmax(1, fabs(xv->value));
    xv->perturb = h;
    if (!rc) rc = check_h(xv->name, h, xv->value, e);
  }
  return rc;
}

/* The inputs: each one's kind (a vehicle input, a rig parameter, a raw model's actuator), value
 * at the operating point and perturbation. */
static int resolve_inputs(lsys* s, const lin_spec* sp, lin_model* lm, lwork* w, mt_err* e) {
  const vehicle* v = s->v;
  int r = lm->r, rc = MT_OK;
  for (int k = 0; k < r && !rc; k++) {
    const lin_item* it = &sp->item[LIN_INPUT][k];
    int q = nl_find(&w->ins, it->name);
    if (q < 0) {
      rc = unknown(&w->ins, "input", it->name, e);
      break;
    }
    lin_var* uv = &lm->u[k];
    snprintf(uv->name, sizeof uv->name, "%s", w->ins.name[q]);
    snprintf(uv->units, sizeof uv->units, "%s", w->ins.units[q]);
    if (!v) {
      s->ik[k] = IK_CTRL;
      s->ii[k] = q;
      uv->value = s->ctrl0[q];
    } else if (q < U_NVEH) {
      s->ik[k] = IK_VEH;
      s->ii[k] = q;
      uv->value = veh_u_get(&v->in, v->road_dz, q);
    } else if (s->loop) {
      rc = mt_fail(e, MT_EINPUT, "linearise: input '%s': a rig parameter is an open-loop input only (the rebuilt "
                   "model has no rider)", it->name);
      break;
    } else {
      s->ik[k] = IK_PARAM;
      s->ii[k] = q - U_NVEH;
      w->pidx[k] = q - U_NVEH;
      uv->value = w->params->p[q - U_NVEH].value;
    }
    w->u0[k] = uv->value;
    double h = it->perturb != 0 ? it->perturb : (s->loop ? LIN_LOOP_H : LIN_DEFAULT_H) * fmax(1, fabs(uv->value));
    uv->perturb = h;
    rc = check_h(uv->name, h, uv->value, e);
  }
  return rc;
}

/* The outputs: a state, a vehicle's channel or a raw model's scalar sensor (its address). */
static int resolve_outputs(lsys* s, const lin_spec* sp, lin_model* lm, const lwork* w, mt_err* e) {
  const mjModel* m = s->m;
  int mo = lm->m, rc = MT_OK;
  for (int k = 0; k < mo && !rc; k++) {
    const lin_item* it = &sp->item[LIN_OUTPUT][k];
    int q = nl_find(&w->outs, it->name);
    if (q < 0) {
      rc = unknown(&w->outs, "output", it->name, e);
      break;
    }
    lin_var* yv = &lm->y[k];
    snprintf(yv->name, sizeof yv->name, "%s", w->outs.name[q]);
    snprintf(yv->units, sizeof yv->units, "%s", w->outs.units[q]);
    if (q >= w->nout_base) {
      s->ok[k] = OK_STATE;
      s->oi[k] = q - w->nout_base;
    } else if (s->v) {
      s->ok[k] = OK_CHAN;
      s->oi[k] = q;
    } else {
      s->ok[k] = OK_SENSOR;
      int c = 0, adr = 0;
      for (int sn = 0; sn < m->nsensor; sn++) {
        if (m->sensor_dim[sn] != 1) continue;
        if (c++ == q) adr = m->sensor_adr[sn];
      }
      s->oi[k] = adr;
    }
  }
  return rc;
}

/* A's and C's columns: each state moved by ±h. */
static int state_columns(lsys* s, lin_model* lm, lwork* w, mt_err* e) {
  int n = lm->n, mo = lm->m, nt = s->nt + s->nc, rc = MT_OK;
  for (int j = 0; j < n && !rc; j++) {
    double h = lm->x[j].perturb;
    for (int sg = 0; sg < 2 && !rc; sg++) {
      memset(s->dx, 0, sizeof(double) * nt);
      s->dx[s->xs[j]] = sg ? -h : h;
      rc = eval(s, s->v, -1, 0, &w->in0, sg ? w->fm : w->fp, sg ? w->ym : w->yp, e);
    }
    for (int i = 0; i < n && !rc; i++) lm->A[(size_t)i * n + j] = (w->fp[i] - w->fm[i]) / (2 * h);
    for (int i = 0; i < mo && !rc; i++) lm->C[(size_t)i * n + j] = (w->yp[i] - w->ym[i]) / (2 * h);
    if (rc) snprintf(e->msg + strlen(e->msg), sizeof e->msg - strlen(e->msg), " (state '%s', h = %g)", lm->x[j].name, h);
  }
  return rc;
}

/* One evaluation with rig parameter input k at its value + du: the rig rebuilt from its own text
 * and --set list with KEY = value + du appended, a vehicle made of it, evaluated at the same
 * state and inputs (xd, y: the rates and outputs), then freed. */
static int param_eval(lsys* s, const lin_model* lm, const lwork* w, int k, double du, double* xd, double* y, mt_err* e) {
  const mjModel* m = s->m;
  vehicle* v = s->v;
  int rc = MT_OK;
  /* rebuild the rig with KEY = value ± h */
  const rig* r0 = v->rig;
  const char** sets = mt_alloc(sizeof(char*) * (r0->nset + 2));
  char kv[256];
  snprintf(kv, sizeof kv, "%s=%.17g", w->params->p[w->pidx[k]].key, w->u0[k] + du);
  for (int q = 0; q < r0->nset; q++) sets[q] = r0->sets[q];
  sets[r0->nset] = kv;
  rig* r2 = rig_load_text(r0->path, r0->source, r0->modules, r0->nmodule, sets, r0->nset + 1, e);
  free(sets);
  vehicle* v2 = r2 ? veh_new(r2, v->road, v->flags, e) : NULL;
  if (!v2) rc = e->code ? e->code : MT_EINPUT;
  else if (v2->m->nq != m->nq || v2->m->nv != m->nv || v2->m->na != m->na)
    rc = mt_fail(e, MT_EINPUT, "linearise: input '%s' changes the model's structure", lm->u[k].name);
  if (!rc) rc = eval(s, v2, -1, 0, &w->in0, xd, y, e);
  veh_free(v2);
  rig_free(r2);
  return rc;
}

/* B's and D's columns: each input moved by ±h (at the operating state: s->dx is zero). */
static int input_columns(lsys* s, lin_model* lm, lwork* w, mt_err* e) {
  int n = lm->n, r = lm->r, mo = lm->m, rc = MT_OK;
  for (int k = 0; k < r && !rc; k++) {
    double h = lm->u[k].perturb;
    for (int sg = 0; sg < 2 && !rc; sg++) {
      double du = sg ? -h : h;
      if (s->ik[k] == IK_PARAM) rc = param_eval(s, lm, w, k, du, sg ? w->fm : w->fp, sg ? w->ym : w->yp, e);
      else rc = eval(s, s->v, k, du, &w->in0, sg ? w->fm : w->fp, sg ? w->ym : w->yp, e);
    }
    for (int i = 0; i < n && !rc; i++) lm->B[(size_t)i * r + k] = (w->fp[i] - w->fm[i]) / (2 * h);
    for (int i = 0; i < mo && !rc; i++) lm->D[(size_t)i * r + k] = (w->yp[i] - w->ym[i]) / (2 * h);
  }
  return rc;
}

/* The closed loop's operating point: the controller's limits there (refused when any is active:
 * a saturated loop has no gain to linearise), then every evaluation is checked against them. */
static int loop_operating_point(lsys* s, lwork* w, mt_err* e) {
  memset(s->dx, 0, sizeof(double) * (s->nt + s->nc));
  s->lim_check = 0;
  int rc = loop_decide(s, s->v, &w->in0, e);
  s->lim0 = s->loop->limits(s->loop->data);
  if (!rc && s->lim0)
    rc = mt_fail(e, MT_EINPUT, "linearise: closed loop: the rider's %s is at its limit here (a saturated loop has "
                 "no gain: linearise open loop, or where the rider is clear of its limits)", s->loop->limit_name(s->lim0));
  s->lim_check = 1;
  return rc;
}

/* The core shared by vehicles and raw models. params: the vehicle's rig parameters (or NULL).
 * Names first, then the columns; with s->check_only the names alone (lm freed, MT_OK). */
static int linearise(lsys* s, const lin_spec* sp, const rig_params* params, lin_model* lm, mt_err* e) {
  memset(lm, 0, sizeof *lm);
  lwork w = {0};
  w.params = params;
  list_names(s, &w);
  alloc_model(s, sp, lm, &w);
  int rc = resolve_states(s, sp, lm, &w, e);
  if (!rc) rc = resolve_inputs(s, sp, lm, &w, e);
  if (!rc) rc = resolve_outputs(s, sp, lm, &w, e);
  /* the columns */
  w.in0 = s->v ? s->v->in : (veh_input){0};
  if (s->check_only) rc = rc ? rc : -1;   /* names checked: skip the columns */
  if (!rc && s->loop) rc = loop_operating_point(s, &w, e);
  if (!rc) rc = state_columns(s, lm, &w, e);
  memset(s->dx, 0, sizeof(double) * (s->nt + s->nc));
  if (!rc) rc = input_columns(s, lm, &w, e);
  /* the outputs' values at the operating point */
  if (!rc) {
    rc = eval(s, s->v, -1, 0, &w.in0, w.fp, w.yp, e);
    for (int i = 0; i < lm->m && !rc; i++) lm->y[i].value = w.yp[i];
  }
  if (rc == -1) {
    rc = MT_OK;
    lin_model_free(lm);
  }
  free(w.fp);
  free(w.u0);
  free(s->xs);
  nl_free(&w.st);
  nl_free(&w.ins);
  nl_free(&w.outs);
  if (rc) lin_model_free(lm);
  return rc;
}

static int uses_params(const lin_spec* sp) {
  for (int k = 0; sp && k < sp->n[LIN_INPUT]; k++)
    if (!strncmp(sp->item[LIN_INPUT][k].name, "param:", 6)) return 1;
  return 0;
}

static int abcd(vehicle* v, const lin_loop* loop, const lin_spec* sp, lin_model* out, int check_only, mt_err* e);

int lin_abcd(vehicle* v, const lin_spec* sp, lin_model* out, mt_err* e) { return abcd(v, NULL, sp, out, 0, e); }

int lin_check(vehicle* v, const lin_spec* sp, mt_err* e) {
  lin_model lm;
  return abcd(v, NULL, sp, &lm, 1, e);
}

int lin_abcd_loop(vehicle* v, const lin_loop* loop, const lin_spec* sp, lin_model* out, mt_err* e) {
  return abcd(v, loop, sp, out, 0, e);
}

int lin_check_loop(vehicle* v, const lin_loop* loop, const lin_spec* sp, mt_err* e) {
  lin_model lm;
  return abcd(v, loop, sp, &lm, 1, e);
}

static int abcd(vehicle* v, const lin_loop* loop, const lin_spec* sp, lin_model* out, int check_only, mt_err* e) {
  const mjModel* m = v->m;
  if (loop && !v->control) return mt_fail(e, MT_EINPUT, "linearise: closed loop: the machine has no controller (no rider)");
  lsys s = {0};
  s.m = m;
  s.d = v->d;
  s.v = v;
  s.check_only = check_only;
  s.nt = lin_size(v);
  s.loop = loop;
  s.nc = loop ? loop->nc : 0;
  int ns = veh_state_size(v), nx = s.nt + s.nc;
  s.x0 = mt_alloc(sizeof(double) * (ns + 2 * nx + rec_nchan() + 3 * s.nc + 1));
  s.dx = s.x0 + ns;
  s.f = s.dx + nx;
  s.ch = s.f + nx;
  s.c0 = s.ch + rec_nchan();
  s.cs = s.c0 + s.nc;
  s.cn = s.cs + s.nc;
  veh_get_state(v, s.x0);
  lin_keep* keep = lin_keep_save(v);
  if (loop) {   /* the controller as the ride left it: restored after every decision and at the end */
    loop->save(loop->data);
    loop->get(loop->data, s.c0);
  }
  /* everything a step reads besides the state: put back bit for bit afterwards */
  double t0 = v->d->time, dz0[2] = {v->road_dz[0], v->road_dz[1]};
  veh_input in0 = v->in;
  int hint[2] = {v->hint[0], v->hint[1]}, ghint = v->ground_hint, chint[CONTACT_MAX];
  memcpy(chint, v->contact_hint, sizeof chint);
  rig_params params = {0};
  int rc = MT_OK;
  if (uses_params(sp)) {
    if (!v->rig->source) rc = mt_fail(e, MT_EINPUT, "linearise: parameter inputs need the rig's source text");
    else {
      rig* rp = rig_load_params(v->rig->path, (const char* const*)v->rig->sets, v->rig->nset, &params, e);
      if (!rp) rc = e->code;
      rig_free(rp);
    }
  }
  if (!rc) rc = linearise(&s, sp, &params, out, e);
  if (!rc && !check_only) out->closed = loop != NULL;
  if (loop) loop->restore(loop->data);
  rig_params_free(&params);
  veh_set_state(v, s.x0);
  v->d->time = t0;
  v->in = in0;
  v->road_dz[0] = dz0[0];
  v->road_dz[1] = dz0[1];
  veh_forward(v);          /* derived quantities (xpos, v->out, ...) of x0 again ... */
  veh_set_state(v, s.x0);  /* ... and x0 bit for bit (mj_forward renormalises the quaternion) */
  v->hint[0] = hint[0];
  v->hint[1] = hint[1];
  v->ground_hint = ghint;
  memcpy(v->contact_hint, chint, sizeof chint);
  lin_keep_put(v, keep);   /* ... and all the rest a step reads (lin_keep) */
  free(s.x0);
  return rc;
}

int lin_abcd_mj(const mjModel* m, mjData* d, const lin_spec* sp, lin_model* out, mt_err* e) {
  lsys s = {0};
  s.m = m;
  s.d = d;
  s.nt = 2 * m->nv + m->na;
  int ns = m->nq + m->nv + m->na;
  s.x0 = mt_alloc(sizeof(double) * (ns + 2 * s.nt + m->nu + 1));
  s.dx = s.x0 + ns;
  s.f = s.dx + s.nt;
  s.ctrl0 = s.f + s.nt;
  memcpy(s.x0, d->qpos, sizeof(double) * m->nq);
  memcpy(s.x0 + m->nq, d->qvel, sizeof(double) * m->nv);
  memcpy(s.x0 + m->nq + m->nv, d->act, sizeof(double) * m->na);
  memcpy(s.ctrl0, d->ctrl, sizeof(double) * m->nu);
  double t0 = d->time;
  int rc = linearise(&s, sp, NULL, out, e);
  memset(s.dx, 0, sizeof(double) * s.nt);
  memcpy(d->ctrl, s.ctrl0, sizeof(double) * m->nu);
  d->time = t0;
  put_state(m, d, s.x0, s.dx);
  mj_forward(m, d);
  memcpy(d->qpos, s.x0, sizeof(double) * m->nq);   /* x0 bit for bit */
  memcpy(d->qvel, s.x0 + m->nq, sizeof(double) * m->nv);
  memcpy(d->act, s.x0 + m->nq + m->nv, sizeof(double) * m->na);
  free(s.x0);
  return rc;
}
