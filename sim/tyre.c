/* tyre.c — torus contact and the motorcycle Magic Formula (see tyre.h). */
#include "sim/tyre.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static inline void cross3(const double a[3], const double b[3], double o[3]) {
  double t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  memcpy(o, t, sizeof t);
}
static double sgn(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

/*---- parameters ----*/

typedef struct coeff { const char* name; size_t off; } coeff;
#define TYRE_COEFF(n) {#n, offsetof(tyre_params, n)},
static const coeff COEFFS[] = {TYRE_MF_COEFFS(TYRE_COEFF)};
#undef TYRE_COEFF

/* Copy the fields of the table at `from` into the table at `to` (both absolute indices). */
static void merge(lua_State* L, int to, int from) {
  lua_pushnil(L);
  while (lua_next(L, from)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_settable(L, to);
  }
}

int tyre_params_read(lua_State* L, int idx, const lb_scope* s, tyre_params* p, mt_err* e) {
  idx = lua_absindex(L, idx);
  memset(p, 0, sizeof *p);
  /* The effective table: the preset's fields, then this table's on top. */
  lua_newtable(L);
  int t = lua_gettop(L);
  const char* preset;
  if (lb_str(L, idx, s, "preset", 0, NULL, &preset, e)) goto fail;
  if (preset) {
    snprintf(p->preset, sizeof p->preset, "%s", preset);
    char mod[128];
    snprintf(mod, sizeof mod, "tyres.%s", preset);
    luabox_push_require(L);
    lua_pushstring(L, mod);
    mt_err re = {0};   /* the preset runs script code: protected, limited, result read back plain */
    if (luabox_pcall(L, 1, 1, &re) != MT_OK) {
      if (strstr(re.msg, "not found")) lb_fail(s, "preset", 0, e, "no tyre preset '%s' (rigs/tyres/%s.lua)", preset, preset);
      else lb_fail(s, "preset", 0, e, "tyre preset '%s': %s", preset, re.msg);
      goto fail;
    }
    if (!lua_istable(L, -1)) {
      lua_pop(L, 1);
      lb_fail(s, "preset", 0, e, "tyre preset '%s' did not return a table", preset);
      goto fail;
    }
    merge(L, t, lua_gettop(L));
    lua_pop(L, 1);
  }
  merge(L, t, idx);
  if (s->fill) {
    /* Materialise the preset in the rig's own table (its own fields already won above), so that
     * every coefficient can be --set and listed, and the defaults land there too. */
    merge(L, idx, t);
    lua_pushvalue(L, idx);
    lua_replace(L, t);
  }
  lb_scope ts = *s;   /* errors still point at the rig's tyre table */
  const char* model;
  if (lb_str(L, t, &ts, "model", 0, "magic_formula", &model, e)) goto fail;
  if (strcmp(model, "magic_formula") == 0) p->model = TYRE_MODEL_MF;
  else if (strcmp(model, "rolling") == 0) p->model = TYRE_MODEL_ROLLING;
  else {
    lb_fail(&ts, "model", 0, e, "unknown tyre model '%s' (magic_formula, rolling)", model);
    goto fail;
  }
  if (p->model == TYRE_MODEL_ROLLING) {
    /* the ideal rolling limit: geometry, radial spring and the slip stiffness only */
    int rc = lb_num(L, t, &ts, "R0", 0, 1, 0, &p->r0, e) || lb_num(L, t, &ts, "crown", 0, 1, 0, &p->crown, e) ||
             lb_num(L, t, &ts, "k_radial", 0, 1, 0, &p->k, e) || lb_num(L, t, &ts, "c_radial", 0, 0, 1500, &p->c, e) ||
             lb_num(L, t, &ts, "k_slip", 0, 1, 0, &p->k_slip, e);
    if (rc) goto fail;
    if (!(p->r0 > 0)) rc = lb_fail(&ts, "R0", 0, e, "must be > 0, got %g", p->r0);
    else if (!(p->crown > 0 && p->crown < p->r0)) rc = lb_fail(&ts, "crown", 0, e, "must be within (0, R0), got %g", p->crown);
    else if (!(p->k > 0)) rc = lb_fail(&ts, "k_radial", 0, e, "must be > 0, got %g", p->k);
    else if (p->c < 0) rc = lb_fail(&ts, "c_radial", 0, e, "must be >= 0, got %g", p->c);
    else if (!(p->k_slip > 0)) rc = lb_fail(&ts, "k_slip", 0, e, "must be > 0, got %g", p->k_slip);
    if (rc) goto fail;
    p->sigma_x = 1;   /* unused (no relaxation), kept positive for the shared helpers */
    p->grip = 1;
    p->Fz0 = 1000;    /* no load dependence: only the plots' "nominal load" */
    lua_pop(L, 1);
    return MT_OK;
  }
  int rc = lb_num(L, t, &ts, "R0", 0, 1, 0, &p->r0, e) || lb_num(L, t, &ts, "crown", 0, 1, 0, &p->crown, e) ||
           lb_num(L, t, &ts, "k_radial", 0, 1, 0, &p->k, e) || lb_num(L, t, &ts, "c_radial", 0, 0, 1500, &p->c, e) ||
           lb_num(L, t, &ts, "sigma_x", 0, 0, 0.15, &p->sigma_x, e) ||
           lb_num(L, t, &ts, "rolling", 0, 0, 0.015, &p->rolling, e) || lb_num(L, t, &ts, "grip", 0, 0, 1.0, &p->grip, e) ||
           lb_num(L, t, &ts, "lambda_mzr", 0, 0, 1.0, &p->lambda_mzr, e);
  for (size_t i = 0; i < MT_ARRAY_LEN(COEFFS) && !rc; i++)
    rc = lb_num(L, t, &ts, COEFFS[i].name, 0, 1, 0, (double*)((char*)p + COEFFS[i].off), e);
  if (rc) goto fail;
  if (!(p->r0 > 0)) rc = lb_fail(&ts, "R0", 0, e, "must be > 0, got %g", p->r0);
  else if (!(p->crown > 0 && p->crown < p->r0)) rc = lb_fail(&ts, "crown", 0, e, "must be within (0, R0), got %g", p->crown);
  else if (!(p->k > 0)) rc = lb_fail(&ts, "k_radial", 0, e, "must be > 0, got %g", p->k);
  else if (p->c < 0) rc = lb_fail(&ts, "c_radial", 0, e, "must be >= 0, got %g", p->c);
  else if (!(p->sigma_x > 0)) rc = lb_fail(&ts, "sigma_x", 0, e, "must be > 0, got %g", p->sigma_x);
  else if (p->rolling < 0) rc = lb_fail(&ts, "rolling", 0, e, "must be >= 0, got %g", p->rolling);
  else if (!(p->grip > 0 && p->grip <= 2)) rc = lb_fail(&ts, "grip", 0, e, "must be within (0, 2], got %g", p->grip);
  else if (!(p->Fz0 > 0)) rc = lb_fail(&ts, "Fz0", 0, e, "must be > 0, got %g", p->Fz0);
  else if (!(p->lambda_mzr >= 0 && p->lambda_mzr <= 2)) rc = lb_fail(&ts, "lambda_mzr", 0, e, "must be within [0, 2], got %g", p->lambda_mzr);
  if (rc) goto fail;
  lua_pop(L, 1);
  return MT_OK;
fail:
  lua_settop(L, t - 1);
  return MT_EINPUT;
}

/*---- contact ----*/

void tyre_contact(const tyre_params* p, const road* rd, const double c[3], const double a[3], const double vc[3],
                  const double w[3], int* hint, tyre_contact_t* o) {
  /* Every field is written below (the struct has no padding); the early return zeroes the rest
   * as a memset first would have (a memset of the whole struct each call cost more than the
   * fields' own stores). */
  road_point rp = {1, 0, {0, 0, 1}, 0, 0, -1, -1};
  if (rd && rd->query) rd->query(rd->self, c[0], c[1], hint ? *hint : -1, &rp);
  if (hint) *hint = rp.hint;
  double n[3] = {rp.n[0], rp.n[1], rp.n[2]}, l[3];
  cross3(a, n, l);
  double ln = sqrt(dot3(l, l));
  if (ln < 1e-9) {   /* the wheel lies flat on the road: no rolling contact */
    memset(o, 0, sizeof *o);
    o->on_road = rp.on_road;
    memcpy(o->n, n, sizeof o->n);
    memcpy(o->l, l, sizeof o->l);
    return;
  }
  o->on_road = rp.on_road;
  memcpy(o->n, n, sizeof o->n);
  memcpy(o->l, l, sizeof o->l);
  for (int i = 0; i < 3; i++) o->l[i] /= ln;
  cross3(o->n, o->l, o->lat);
  double d[3];
  cross3(a, o->l, d);
  double rmaj = p->r0 - p->crown;
  for (int i = 0; i < 3; i++) o->point[i] = c[i] + rmaj * d[i] - p->crown * o->n[i];
  /* the road plane through the surface point under the centre */
  double q[3] = {c[0], c[1], rp.z};
  double pq[3] = {q[0] - o->point[0], q[1] - o->point[1], q[2] - o->point[2]};
  o->pen = dot3(pq, o->n);
  /* The road force acts at p; its lever about the axis, in the wheel plane, is −(p − c)·d
   * = r + ρ·(−n·d) = r + ρ·cos γ. */
  o->radius = rmaj + p->crown * -dot3(o->n, d);
  o->camber = -asin(mt_clamp(dot3(a, o->n), -1, 1));
  o->spin = dot3(w, a);
  /* material velocity at the contact point */
  double r[3] = {o->point[0] - c[0], o->point[1] - c[1], o->point[2] - c[2]}, wxr[3];
  cross3(w, r, wxr);
  double vp[3] = {vc[0] + wxr[0], vc[1] + wxr[1], vc[2] + wxr[2]};
  o->vx = dot3(vc, o->l);
  o->vsx = dot3(vp, o->l);
  o->vsy = dot3(vp, o->lat);
  o->pen_rate = -dot3(vp, o->n);
  /* Instantaneous slips, regularised so a standing wheel has finite ones (they only matter for
   * trim and channels; the forces use the relaxed states). */
  double den = sqrt(o->vx * o->vx + 0.01);
  o->kappa = -o->vsx / den;
  o->alpha = atan(-o->vsy / den);   /* = atan2(−vsy, den) as den > 0; glibc's atan2 costs 3x its atan */
  o->touching = o->on_road && o->pen > 0;
}

double tyre_load(const tyre_params* p, double pen, double pen_rate) {
  if (pen <= 0) return 0;
  double f = p->k * pen + p->c * pen_rate;
  return f > 0 ? f : 0;
}

/*---- Magic Formula (Sharp, Evangelou & Limebeer 2004) ----*/

int tyre_zero_shortcuts = 1;

static double sigma_y_kya(const tyre_params* p, double Kya, double vx);

void tyre_forces(const tyre_params* p, double fz, double kappa, double alpha, double gamma, tyre_forces_t* o) {
  tyre_forces_kya(p, fz, kappa, alpha, gamma, fz > 0 && p->model != TYRE_MODEL_ROLLING ? tyre_kya(p, fz, gamma) : 0, o);
}

void tyre_forces_kya(const tyre_params* p, double fz, double kappa, double alpha, double gamma, double Kya,
                     tyre_forces_t* o) {
  /* the Magic Formula's path below writes every field (all doubles); the others start from 0 */
  if (!(fz > 0) || p->model == TYRE_MODEL_ROLLING) memset(o, 0, sizeof *o);
  if (!(fz > 0)) return;
  if (p->model == TYRE_MODEL_ROLLING) {
    /* the ideal rolling limit (tyre.h): linear in the slips, no camber, no moment, no saturation */
    o->fx = o->fx0 = p->k_slip * kappa;
    o->fy = o->fy0 = p->k_slip * tan(alpha);
    o->kxk = o->kya = p->k_slip;
    o->dx = o->dy = INFINITY;
    (void)gamma;
    return;
  }
  /* The formula is a few chains of dependent libm calls (sin(C·atan(Bx − E·(Bx − atan Bx))) and
   * the like). A core waiting on one call's result works on another's only when that call comes
   * soon enough after it, so the calls are written grouped by their depth in the chains (levels
   * 1 to 4 below), not chain by chain: every value is the same expression as before, evaluated
   * in the same operations (-std=c11 contracts nothing into an FMA), so the same bits (10 % less
   * time for the formula in a loop over the shipped tyres; docs/speed.md). */
  double Fz0 = p->Fz0, dfz = (fz - Fz0) / Fz0, g2 = gamma * gamma, lm = p->grip, ag = fabs(gamma);
  /* pure longitudinal */
  double Dx = lm * (p->pDx1 + p->pDx2 * dfz) * fz;
  double Ex = (p->pEx1 + p->pEx2 * dfz + p->pEx3 * dfz * dfz) * (1 - p->pEx4 * sgn(kappa));
  double Kxk = fz * (p->pKx1 + p->pKx2 * dfz) * exp(p->pKx3 * dfz);
  double Bx = Kxk / (p->pCx1 * Dx);
  double bk = Bx * kappa;
  /* pure lateral with camber */
  /* the camber-free peak, also for Mz below. The shipped sets have pDy2 = pDy3 = 0: with dfz and
   * γ² finite, exp(0·dfz) = exp(±0) = 1 and 1 + 0·γ² = 1 exactly, so the exp and the division
   * are skipped there with the same result bit for bit (x·1 = x, x/1 = x) */
  double ey = tyre_zero_shortcuts && p->pDy2 == 0 && isfinite(dfz) ? 1 : exp(p->pDy2 * dfz);
  double Dy0 = lm * fz * p->pDy1 * ey;
  double Dy = tyre_zero_shortcuts && p->pDy3 == 0 && isfinite(g2) ? Dy0 : Dy0 / (1 + p->pDy3 * g2);
  double Ey = p->pEy1 + p->pEy2 * g2 + p->pEy4 * gamma * sgn(alpha);
  double By = Kya / (p->pCy1 * Dy);
  double Kyg = (p->pKy6 + p->pKy7 * dfz) * fz;
  double Bg = Kyg / (p->pCy2 * Dy);
  double ba = By * alpha, bg = Bg * gamma;
  /* combined slip (cos(atan(x)) is written 1/sqrt(1 + x²), the same value) */
  double rbk = p->rBx2 * kappa;
  double Bxa = p->rBx1 / sqrt(1 + rbk * rbk);
  double rba = p->rBy2 * (alpha - p->rBy3);
  double Byk = p->rBy1 / sqrt(1 + rba * rba);
  /* the aligning moment's coefficients */
  double SHr = (p->qHz3 + p->qHz4 * dfz) * gamma;
  double Bt = (p->qBz1 + p->qBz2 * dfz) * (1 + p->qBz5 * ag + p->qBz6 * g2);
  double Dt = lm * fz * (p->r0 / Fz0) * (p->qDz1 + p->qDz2 * dfz) * (1 + p->qDz3 * ag + p->qDz4 * g2);
  double sa = sqrt(1 + alpha * alpha);
  double Dr = lm * fz * p->r0 * ((p->qDz8 + p->qDz9 * dfz) * gamma + (p->qDz10 + p->qDz11 * dfz) * gamma * ag) / sa;
  /* level 1: the first atan of every chain */
  double a_bk = atan(bk), a_ba = atan(ba), a_bg = atan(bg), a_xa = atan(Bxa * alpha), a_yk = atan(Byk * kappa);
  double a_k0 = atan(fz / (p->pKy3 * Fz0)), a_et = atan(Bt * p->qCz1 * alpha);
  /* level 2 */
  double c_x = atan(bk - Ex * (bk - a_bk));
  double c_y = p->pCy1 * atan(ba - Ey * (ba - a_ba)) + p->pCy2 * atan(bg - p->pEy5 * (bg - a_bg));
  double Gxa = cos(p->rCx1 * a_xa);
  double Gyk = cos(p->rCy1 * a_yk);
  double s_k0 = sin(p->pKy2 * a_k0);
  double Et = (p->qEz1 + p->qEz2 * dfz + p->qEz3 * dfz * dfz) * (1 + p->qEz5 * gamma * (2 / MT_PI) * a_et);
  /* level 3: the pure-slip forces; the camber-free cornering stiffness for the trail */
  double Fx0 = Dx * sin(p->pCx1 * c_x);
  double Fy0 = Dy * sin(c_y);
  double Fx = Gxa * Fx0;
  double Fy = Gyk * Fy0;
  double Kya0 = p->pKy1 * Fz0 * s_k0;
  double By0 = Kya0 / (p->pCy1 * Dy0);
  double b0 = By0 * alpha;
  double rr = Kya0 > 0 ? Kxk * kappa / Kya0 : 0;
  double at = sqrt(alpha * alpha + rr * rr) * sgn(alpha);
  double ar = sqrt((alpha + SHr) * (alpha + SHr) + rr * rr) * sgn(alpha + SHr);
  double bt = Bt * at;
  double a_b0 = atan(b0), a_bt = atan(bt);
  /* level 4: the aligning moment, pneumatic trail × the camber-free lateral force, minus the residual */
  double c_b0 = atan(b0 - p->pEy1 * (b0 - a_b0)), c_bt = atan(bt - Et * (bt - a_bt));
  double Fy00 = Dy0 * sin(p->pCy1 * c_b0);
  double FyMz = Gyk * Fy00;
  double trail = Dt * cos(p->qCz1 * c_bt) / sa;
  double Br = p->qBz9 + p->qBz10 * By0 * p->pCy1;
  double brar = Br * ar;
  double Mzr = p->lambda_mzr * Dr / sqrt(1 + brar * brar);
  double Mz_formula = trail * FyMz - Mzr;
  o->fx = Fx;
  o->fy = Fy;
  o->mz = -Mz_formula;   /* the formula's moment is about the downward normal (tyre.h) */
  o->fx0 = Fx0;
  o->fy0 = Fy0;
  o->trail = trail;
  o->mzr = Mzr;
  o->kxk = Kxk;
  o->kya = Kya;
  o->dx = Dx;
  o->dy = Dy;
}

double tyre_kya(const tyre_params* p, double fz, double gamma) {
  if (p->model == TYRE_MODEL_ROLLING) return p->k_slip;
  double Fz0 = p->Fz0, g2 = gamma * gamma;
  return p->pKy1 * Fz0 * sin(p->pKy2 * atan(fz / ((p->pKy3 + p->pKy4 * g2) * Fz0))) / (1 + p->pKy5 * g2);
}

double tyre_sigma_y(const tyre_params* p, double fz, double gamma, double vx) {
  if (p->model == TYRE_MODEL_ROLLING) return 0.02;   /* unused: no relaxation */
  return sigma_y_kya(p, tyre_kya(p, fz > 1 ? fz : 1, gamma), vx);
}

static double sigma_y_kya(const tyre_params* p, double Kya, double vx) {
  /* SEL 2004: σy = Kyα(Fz, γ)·(c1 + c2·V + c3·V²), with the cambered cornering stiffness */
  double v = fabs(vx);
  double s = Kya * (p->c1Rel + p->c2Rel * v + p->c3Rel * v * v);
  return s > 0.02 ? s : 0.02;   /* never below 2 cm (keeps the explicit step well-posed) */
}

void tyre_relax_rates(const tyre_params* p, double fz, const tyre_contact_t* c, double kappa_r, double tan_alpha_r,
                      double* dkappa, double* dtan_alpha) {
  tyre_relax_rates_kya(p, p->model == TYRE_MODEL_ROLLING ? 0 : tyre_kya(p, fz > 1 ? fz : 1, c->camber), c, kappa_r,
                       tan_alpha_r, dkappa, dtan_alpha);
}

void tyre_relax_rates_kya(const tyre_params* p, double kya, const tyre_contact_t* c, double kappa_r, double tan_alpha_r,
                          double* dkappa, double* dtan_alpha) {
  double v = fabs(c->vx);
  double sy = p->model == TYRE_MODEL_ROLLING ? 0.02 : sigma_y_kya(p, kya, c->vx);
  *dkappa = (-c->vsx - v * kappa_r) / p->sigma_x;
  *dtan_alpha = (-c->vsy - v * tan_alpha_r) / sy;
}
