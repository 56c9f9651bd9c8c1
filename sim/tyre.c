/* tyre.c — torus contact and the motorcycle Magic Formula (see tyre.h). */
#include "sim/tyre.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/vmath.h"
#include "base/vec3.h"

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

/* The contact without its two angles: returns 0 for a wheel lying flat on the road (o complete),
 * 1 with *sin_camber and *tan_alpha for the caller to finish (camber = −asin, alpha = atan). */
static int contact_geom(const tyre_params* p, const road* rd, const double c[3], const double a[3], const double vc[3],
                        const double w[3], int* hint, tyre_contact_t* o, double* sin_camber, double* tan_alpha) {
  /* Every field is written below (the struct has no padding); the early return zeroes the rest
   * as a memset first would have (a memset of the whole struct each call cost more than the
   * fields' own stores). */
  road_point rp = {1, 0, {0, 0, 1}, 0, 0, -1, -1, 0, 0, 0};
  if (rd && rd->query) rd->query(rd->self, c[0], c[1], hint ? *hint : -1, &rp);
  if (hint) *hint = rp.hint;
  double n[3] = {rp.n[0], rp.n[1], rp.n[2]}, l[3];
  cross3(a, n, l);
  double ln = sqrt(dot3(l, l));
  if (ln < 1e-9) {   /* the wheel lies flat on the road: no rolling contact */
    memset(o, 0, sizeof *o);
    o->on_road = rp.on_road;
    o->surface = rp.surface, o->grip = rp.grip, o->rolling = rp.rolling;
    memcpy(o->n, n, sizeof o->n);
    memcpy(o->l, l, sizeof o->l);
    return 0;
  }
  o->on_road = rp.on_road;
  o->surface = rp.surface, o->unused = 0, o->grip = rp.grip, o->rolling = rp.rolling;
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
  *sin_camber = mt_clamp(dot3(a, o->n), -1, 1);
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
  *tan_alpha = -o->vsy / den;   /* alpha = atan2(−vsy, den) as den > 0, the cheaper atan */
  /* off the tarmac the wheel rolls on what lies there (grass, gravel: road.h); before surfaces
   * existed it lost the ground and sank through it */
  o->touching = (o->on_road || o->surface != 0) && o->pen > 0;
  return 1;
}

void tyre_contact(const tyre_params* p, const road* rd, const double c[3], const double a[3], const double vc[3],
                  const double w[3], int* hint, tyre_contact_t* o) {
  /* one wheel is the pair's lane evaluated beside itself: the same bits (vmath.h) */
  double s, t;
  if (!contact_geom(p, rd, c, a, vc, w, hint, o, &s, &t)) return;
  v2d cam = -vm_asin((v2d){s, s}), al = vm_atan((v2d){t, t});
  o->camber = cam[0];
  o->alpha = al[0];
}

void tyre_contact2(const tyre_params* const p[2], const road* const rd[2], const double c[2][3], const double a[2][3],
                   const double vc[2][3], const double w[2][3], int hint[2], tyre_contact_t o[2]) {
  double s[2] = {0, 0}, t[2] = {0, 0};
  int on0 = contact_geom(p[0], rd[0], c[0], a[0], vc[0], w[0], &hint[0], &o[0], &s[0], &t[0]);
  int on1 = contact_geom(p[1], rd[1], c[1], a[1], vc[1], w[1], &hint[1], &o[1], &s[1], &t[1]);
  v2d cam = -vm_asin((v2d){s[0], s[1]}), al = vm_atan((v2d){t[0], t[1]});
  if (on0) o[0].camber = cam[0], o[0].alpha = al[0];
  if (on1) o[1].camber = cam[1], o[1].alpha = al[1];
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
  /* one tyre is the pair with the same tyre in both lanes: the same bits as beside another (vmath.h) */
  const tyre_params* pp[2] = {p, p};
  double a[2] = {fz, fz}, k[2] = {kappa, kappa}, al[2] = {alpha, alpha}, g[2] = {gamma, gamma}, ky[2] = {Kya, Kya};
  tyre_forces_t t[2];
  tyre_forces_kya2(pp, a, k, al, g, ky, t);
  *o = t[0];
}

void tyre_forces_kya2(const tyre_params* const p[2], const double fz_[2], const double kappa_[2],
                      const double alpha_[2], const double gamma_[2], const double Kya_[2], tyre_forces_t o[2]) {
  /* Both lanes run the Magic Formula's path (tyre.h: fz > 0, the formula's model). Every value is
   * the expression tyre.c has always used, per lane; the libm calls are vmath.h's, one for both
   * lanes. The calls are written grouped by their depth in the formula's chains of dependent
   * calls (sin(C·atan(Bx − E·(Bx − atan Bx))) and the like; levels 1 to 4 below), so that a core
   * waiting on one call's result has the next ones to work on. */
  const tyre_params *p0 = p[0], *p1 = p[1];
#define P(f) ((v2d){p0->f, p1->f})
  v2d fz = {fz_[0], fz_[1]}, kappa = {kappa_[0], kappa_[1]}, alpha = {alpha_[0], alpha_[1]};
  v2d gamma = {gamma_[0], gamma_[1]}, Kya = {Kya_[0], Kya_[1]};
  v2d Fz0 = P(Fz0), dfz = (fz - Fz0) / Fz0, g2 = gamma * gamma, lm = P(grip), ag = vm_fabs(gamma);
  v2d sk = vm_sgn(kappa), sal = vm_sgn(alpha);
  /* pure longitudinal */
  v2d Dx = lm * (P(pDx1) + P(pDx2) * dfz) * fz;
  v2d Ex = (P(pEx1) + P(pEx2) * dfz + P(pEx3) * dfz * dfz) * (1 - P(pEx4) * sk);
  v2d Kxk = fz * (P(pKx1) + P(pKx2) * dfz) * vm_exp(P(pKx3) * dfz);
  v2d Bx = Kxk / (P(pCx1) * Dx);
  v2d bk = Bx * kappa;
  /* pure lateral with camber */
  /* the camber-free peak, also for Mz below. The shipped sets have pDy2 = pDy3 = 0: with dfz and
   * γ² finite, exp(0·dfz) = exp(±0) = 1 and 1 + 0·γ² = 1 exactly, so the exp and the division
   * are skipped there with the same result bit for bit (x·1 = x, x/1 = x) */
  int fin = isfinite(dfz[0]) && isfinite(dfz[1]), fin_g = isfinite(g2[0]) && isfinite(g2[1]);
  v2d ey = tyre_zero_shortcuts && p0->pDy2 == 0 && p1->pDy2 == 0 && fin ? (v2d){1, 1} : vm_exp(P(pDy2) * dfz);
  v2d Dy0 = lm * fz * P(pDy1) * ey;
  v2d Dy = tyre_zero_shortcuts && p0->pDy3 == 0 && p1->pDy3 == 0 && fin_g ? Dy0 : Dy0 / (1 + P(pDy3) * g2);
  v2d Ey = P(pEy1) + P(pEy2) * g2 + P(pEy4) * gamma * sal;
  v2d By = Kya / (P(pCy1) * Dy);
  v2d Kyg = (P(pKy6) + P(pKy7) * dfz) * fz;
  v2d Bg = Kyg / (P(pCy2) * Dy);
  v2d ba = By * alpha, bg = Bg * gamma;
  /* combined slip (cos(atan(x)) is written 1/sqrt(1 + x²), the same value) */
  v2d rbk = P(rBx2) * kappa;
  v2d Bxa = P(rBx1) / vm_sqrt(1 + rbk * rbk);
  v2d rba = P(rBy2) * (alpha - P(rBy3));
  v2d Byk = P(rBy1) / vm_sqrt(1 + rba * rba);
  /* the aligning moment's coefficients */
  v2d SHr = (P(qHz3) + P(qHz4) * dfz) * gamma;
  v2d Bt = (P(qBz1) + P(qBz2) * dfz) * (1 + P(qBz5) * ag + P(qBz6) * g2);
  v2d Dt = lm * fz * (P(r0) / Fz0) * (P(qDz1) + P(qDz2) * dfz) * (1 + P(qDz3) * ag + P(qDz4) * g2);
  v2d sa = vm_sqrt(1 + alpha * alpha);
  v2d Dr = lm * fz * P(r0) * ((P(qDz8) + P(qDz9) * dfz) * gamma + (P(qDz10) + P(qDz11) * dfz) * gamma * ag) / sa;
  /* level 1: the first atan of every chain */
  v2d a_bk = vm_atan(bk), a_ba = vm_atan(ba), a_bg = vm_atan(bg), a_xa = vm_atan(Bxa * alpha);
  v2d a_yk = vm_atan(Byk * kappa), a_k0 = vm_atan(fz / (P(pKy3) * Fz0)), a_et = vm_atan(Bt * P(qCz1) * alpha);
  /* level 2 */
  v2d c_x = vm_atan(bk - Ex * (bk - a_bk));
  v2d c_y = P(pCy1) * vm_atan(ba - Ey * (ba - a_ba)) + P(pCy2) * vm_atan(bg - P(pEy5) * (bg - a_bg));
  v2d Gxa = vm_cos(P(rCx1) * a_xa);
  v2d Gyk = vm_cos(P(rCy1) * a_yk);
  v2d s_k0 = vm_sin(P(pKy2) * a_k0);
  v2d Et = (P(qEz1) + P(qEz2) * dfz + P(qEz3) * dfz * dfz) * (1 + P(qEz5) * gamma * (2 / MT_PI) * a_et);
  /* level 3: the pure-slip forces; the camber-free cornering stiffness for the trail */
  v2d Fx0 = Dx * vm_sin(P(pCx1) * c_x);
  v2d Fy0 = Dy * vm_sin(c_y);
  v2d Fx = Gxa * Fx0;
  v2d Fy = Gyk * Fy0;
  v2d Kya0 = P(pKy1) * Fz0 * s_k0;
  v2d By0 = Kya0 / (P(pCy1) * Dy0);
  v2d b0 = By0 * alpha;
  v2d rr = vm_and(Kya0 > 0, Kxk * kappa / Kya0);   /* 0 where Kya0 ≤ 0 */
  v2d at = vm_sqrt(alpha * alpha + rr * rr) * sal;
  v2d as = alpha + SHr;
  v2d ar = vm_sqrt(as * as + rr * rr) * vm_sgn(as);
  v2d bt = Bt * at;
  v2d a_b0 = vm_atan(b0), a_bt = vm_atan(bt);
  /* level 4: the aligning moment, pneumatic trail × the camber-free lateral force, minus the residual */
  v2d c_b0 = vm_atan(b0 - P(pEy1) * (b0 - a_b0)), c_bt = vm_atan(bt - Et * (bt - a_bt));
  v2d Fy00 = Dy0 * vm_sin(P(pCy1) * c_b0);
  v2d FyMz = Gyk * Fy00;
  v2d trail = Dt * vm_cos(P(qCz1) * c_bt) / sa;
  v2d Br = P(qBz9) + P(qBz10) * By0 * P(pCy1);
  v2d brar = Br * ar;
  v2d Mzr = P(lambda_mzr) * Dr / vm_sqrt(1 + brar * brar);
  v2d Mz_formula = trail * FyMz - Mzr;
#undef P
  for (int i = 0; i < 2; i++) {
    o[i].fx = Fx[i];
    o[i].fy = Fy[i];
    o[i].mz = -Mz_formula[i];   /* the formula's moment is about the downward normal (tyre.h) */
    o[i].fx0 = Fx0[i];
    o[i].fy0 = Fy0[i];
    o[i].trail = trail[i];
    o[i].mzr = Mzr[i];
    o[i].kxk = Kxk[i];
    o[i].kya = Kya[i];
    o[i].dx = Dx[i];
    o[i].dy = Dy[i];
  }
}

double tyre_kya(const tyre_params* p, double fz, double gamma) {
  if (p->model == TYRE_MODEL_ROLLING) return p->k_slip;
  const tyre_params* pp[2] = {p, p};
  double a[2] = {fz, fz}, g[2] = {gamma, gamma}, k[2];
  tyre_kya2(pp, a, g, k);
  return k[0];
}

void tyre_kya2(const tyre_params* const p[2], const double fz[2], const double gamma[2], double out[2]) {
  const tyre_params *p0 = p[0], *p1 = p[1];
#define P(f) ((v2d){p0->f, p1->f})
  v2d Fz0 = P(Fz0), g = {gamma[0], gamma[1]}, g2 = g * g, f = {fz[0], fz[1]};
  v2d k = P(pKy1) * Fz0 * vm_sin(P(pKy2) * vm_atan(f / ((P(pKy3) + P(pKy4) * g2) * Fz0))) / (1 + P(pKy5) * g2);
#undef P
  /* the rolling model's stiffness is its k_slip, whatever the other lane */
  out[0] = p0->model == TYRE_MODEL_ROLLING ? p0->k_slip : k[0];
  out[1] = p1->model == TYRE_MODEL_ROLLING ? p1->k_slip : k[1];
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
