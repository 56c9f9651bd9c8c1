/* contact.c — contact spheres against the road (see contact.h). */
#include "sim/contact.h"

#include <lauxlib.h>
#include <math.h>
#include <string.h>

#include "sim/luabox.h"
#include "sim/rig.h"
#include "sim/vec3.h"

void contact_eval(const contact_point* cp, const road* rd, const double c[3], const double vc[3], const double w[3],
                  int* hint, contact_result* o) {
  memset(o, 0, sizeof *o);
  road_point rp = {1, 0, {0, 0, 1}, 0, 0, -1, -1};
  if (rd && rd->query) rd->query(rd->self, c[0], c[1], hint ? *hint : -1, &rp);
  if (hint) *hint = rp.hint;
  /* the surface plane through the road point under the centre, normal n: height of the centre above it */
  double h = (c[2] - rp.z) * rp.n[2];
  double depth = cp->radius - h;
  if (!(depth > 0)) return;
  /* lowest point of the sphere, and its velocity (centre velocity + ω × r) */
  const double* n = rp.n;
  double r[3] = {-cp->radius * n[0], -cp->radius * n[1], -cp->radius * n[2]};
  double v[3] = {vc[0] + w[1] * r[2] - w[2] * r[1], vc[1] + w[2] * r[0] - w[0] * r[2], vc[2] + w[0] * r[1] - w[1] * r[0]};
  double vn = dot3(v, n);
  /* damping grows in over the first CONTACT_DAMP_DEPTH of depth (Hunt–Crossley-like): no force
   * step at touch-down, however fast the sphere arrives */
  double fn = cp->k * depth - cp->c * fmin(1, depth / CONTACT_DAMP_DEPTH) * vn;   /* δ̇ = −vn */
  if (!(fn > 0)) return;
  double vt[3] = {v[0] - vn * n[0], v[1] - vn * n[1], v[2] - vn * n[2]};
  double s = sqrt(dot3(vt, vt) + CONTACT_V_EPS * CONTACT_V_EPS);
  double g = cp->mu * fn / s;   /* |Ft| = μ·Fn·|vt| / s */
  o->touching = 1;
  o->depth = depth;
  o->fn = fn;
  o->ft = g * sqrt(dot3(vt, vt));
  for (int i = 0; i < 3; i++) {
    o->point[i] = c[i] + r[i];
    o->force[i] = fn * n[i] - g * vt[i];
  }
}

static const char* const KEYS[] = {"name", "body", "point", "radius", "mu", "k", "c", NULL};

int contact_read_rig(lua_State* L, rig* r, const lb_scope* top, mt_err* e) {
  contact_set* cs = &r->contacts;
  memset(cs, 0, sizeof *cs);
  int pushed;
  if (lb_table(L, -1, top, "contacts", 0, 0, &pushed, e)) return MT_EINPUT;
  if (!pushed) return MT_OK;
  int n = (int)luaL_len(L, -1);
  lb_scope ls = lb_enter(top, "contacts", 0, NULL);
  if (n < 1 || n > CONTACT_MAX) {
    lua_pop(L, 1);
    return lb_fail(top, "contacts", 0, e, "needs 1 to %d contact spheres, got %d", CONTACT_MAX, n);
  }
  static char lab[CONTACT_MAX][24];
  int rc = MT_OK;
  for (int i = 0; i < n && !rc; i++) {
    snprintf(lab[i], sizeof lab[i], "contact %d", i + 1);
    int p2;
    if (lb_table(L, -1, &ls, NULL, i + 1, 1, &p2, e)) {
      rc = MT_EINPUT;
      break;
    }
    lb_scope s = lb_enter(&ls, NULL, i + 1, lab[i]);
    contact_point* cp = &cs->p[i];
    const char *name, *body;
    rc = lb_check_keys(L, -1, &s, KEYS, e);
    if (!rc) rc = lb_str(L, -1, &s, "name", 0, lab[i], &name, e);
    if (!rc) snprintf(cp->name, sizeof cp->name, "%s", name);
    if (!rc) rc = lb_str(L, -1, &s, "body", 1, NULL, &body, e);
    if (!rc) {
      cp->body = rig_body_index(r, body);
      if (cp->body < 0) rc = lb_fail(&s, "body", 0, e, "no body named '%s'", body);
    }
    if (!rc) {
      int p3;
      rc = lb_table(L, -1, &s, "point", 0, 1, &p3, e);
      if (!rc) {
        int ok = luaL_len(L, -1) == 3;
        for (int k = 0; k < 3 && ok; k++) {
          lua_geti(L, -1, k + 1);
          ok = lua_type(L, -1) == LUA_TNUMBER && isfinite(lua_tonumber(L, -1));
          cp->point[k] = lua_tonumber(L, -1);
          lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (!ok) rc = lb_fail(&s, "point", 0, e, "expected 3 finite numbers {x, y, z}");
      }
    }
    if (!rc) rc = lb_num(L, -1, &s, "radius", 0, 1, 0, &cp->radius, e);
    if (!rc && !(cp->radius > 0 && cp->radius <= 0.5)) rc = lb_fail(&s, "radius", 0, e, "must be within (0, 0.5] m, got %g", cp->radius);
    if (!rc) rc = lb_num(L, -1, &s, "mu", 0, 1, 0, &cp->mu, e);
    if (!rc && !(cp->mu >= 0 && cp->mu <= 2)) rc = lb_fail(&s, "mu", 0, e, "must be within [0, 2], got %g", cp->mu);
    if (!rc) rc = lb_num(L, -1, &s, "k", 0, 0, 1.5e5, &cp->k, e);
    if (!rc && !(cp->k > 0 && cp->k <= 1e7)) rc = lb_fail(&s, "k", 0, e, "must be within (0, 1e7] N/m, got %g", cp->k);
    if (!rc) rc = lb_num(L, -1, &s, "c", 0, 0, 4000, &cp->c, e);
    if (!rc && !(cp->c >= 0 && cp->c <= 1e5)) rc = lb_fail(&s, "c", 0, e, "must be within [0, 1e5] N·s/m, got %g", cp->c);
    lua_pop(L, 1);
    cs->n = i + 1;
  }
  lua_pop(L, 1);
  return rc;
}
