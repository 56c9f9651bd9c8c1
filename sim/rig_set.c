/* rig_set.c — a rig table's numeric parameters by dotted key (see rig_set.h): --set overrides,
 * with near matches for a key that is not there, and the sorted parameter list with units. */
#include "sim/rig_set.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"

/*---- --set overrides ----*/

/* Walk "a.b.c" from the table at the top of the stack; arrays of named tables can be entered
 * by name ("bodies.frame.mass"). On success the parent table and the final key are pushed
 * (key as a Lua value) and 1 is returned. */
static int walk_key(lua_State* L, const char* key) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", key);
  lua_pushvalue(L, -1);                     /* current table */
  char* save = NULL;
  char* part = strtok_r(buf, ".", &save);
  while (part) {
    char* next = strtok_r(NULL, ".", &save);
    if (!lua_istable(L, -1)) {
      lua_pop(L, 1);
      return 0;
    }
    /* resolve `part` in the current table into a key value */
    int found = 0;
    char* end;
    long idx = strtol(part, &end, 10);
    if (*end == 0 && end != part) {
      lua_pushinteger(L, idx);
      found = lua_geti(L, -2, idx) != LUA_TNIL;
      lua_pop(L, 1);
    } else {
      lua_pushstring(L, part);
      found = lua_getfield(L, -2, part) != LUA_TNIL;
      lua_pop(L, 1);
      if (!found) {
        /* array element whose name field is `part` */
        lua_pop(L, 1);
        lua_Integer n = luaL_len(L, -1);
        for (lua_Integer i = 1; i <= n && !found; i++) {
          lua_geti(L, -1, i);
          if (lua_istable(L, -1)) {
            lua_getfield(L, -1, "name");
            if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), part) == 0) found = 1;
            lua_pop(L, 1);
          }
          lua_pop(L, 1);
          if (found) lua_pushinteger(L, i);
        }
        if (!found) lua_pushnil(L);
      }
    }
    if (!found) {
      lua_pop(L, 2);
      return 0;
    }
    if (!next) return 1;                      /* stack: parent, key */
    lua_gettable(L, -2);                      /* child */
    lua_remove(L, -2);
    part = next;
  }
  lua_pop(L, 1);
  return 0;
}

/* Every numeric leaf's dotted path, for "did you mean". */
static void collect_keys(lua_State* L, const char* prefix, char (*out)[128], int* n, int max, int depth) {
  if (depth > 6) return;
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    char key[128] = "";
    if (lua_type(L, -2) == LUA_TSTRING) {
      snprintf(key, sizeof key, "%s%s%s", prefix, *prefix ? "." : "", lua_tostring(L, -2));
    } else if (lua_type(L, -2) == LUA_TNUMBER) {
      const char* nm = NULL;
      if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "name");
        if (lua_type(L, -1) == LUA_TSTRING) nm = lua_tostring(L, -1);
        lua_pop(L, 1);
      }
      if (nm) snprintf(key, sizeof key, "%s%s%s", prefix, *prefix ? "." : "", nm);
      else snprintf(key, sizeof key, "%s%s%lld", prefix, *prefix ? "." : "", (long long)lua_tointeger(L, -2));
    }
    if (key[0]) {
      if (lua_type(L, -1) == LUA_TNUMBER && *n < max) snprintf(out[(*n)++], 128, "%s", key);
      else if (lua_istable(L, -1)) collect_keys(L, key, out, n, max, depth + 1);
    }
    lua_pop(L, 1);
  }
}


int rig_set_apply(lua_State* L, const char* path, const char* kv, int quiet, mt_err* e) {
  const char* eq = strchr(kv, '=');
  if (!eq || eq == kv) return mt_fail(e, MT_EINPUT, "--set '%s': expected KEY=VALUE", kv);
  char key[256];
  snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
  double v;
  if (cli_parse_double(eq + 1, &v))
    return mt_fail(e, MT_EINPUT, "--set %s: expected a finite number, got '%s'", key, eq + 1);
  int base = lua_gettop(L);   /* the rig table */
  int ok = walk_key(L, key);  /* pushes parent, key */
  if (ok) {
    lua_pushvalue(L, -1);
    ok = lua_gettable(L, -3) == LUA_TNUMBER;
    lua_pop(L, 1);
  }
  if (!ok) {
    lua_settop(L, base);
    if (quiet) return -1;
    /* list near matches */
    static char keys[2048][128];
    int n = 0;
    collect_keys(L, "", keys, &n, 2048, 0);
    int best[5] = {-1, -1, -1, -1, -1}, bd[5] = {999, 999, 999, 999, 999};
    for (int i = 0; i < n; i++) {
      int dd = mt_edit_distance(key, keys[i]);
      /* a key whose last part matches scores well too */
      const char* lk = strrchr(keys[i], '.');
      const char* lq = strrchr(key, '.');
      if (lk && lq && strcmp(lk, lq) == 0 && dd > 2) dd = dd / 2;
      /* equal distances in name order: collect_keys walks Lua tables, whose order changes from
       * run to run (string hashes are seeded per state), and the line must not */
      for (int k = 0; k < 5; k++)
        if (dd < bd[k] || (dd == bd[k] && best[k] >= 0 && strcmp(keys[i], keys[best[k]]) < 0)) {
          memmove(&bd[k + 1], &bd[k], (4 - k) * sizeof bd[0]);
          memmove(&best[k + 1], &best[k], (4 - k) * sizeof best[0]);
          bd[k] = dd;
          best[k] = i;
          break;
        }
    }
    char near[600] = "";
    for (int k = 0; k < 5 && best[k] >= 0; k++) {
      size_t l = strlen(near);
      snprintf(near + l, sizeof near - l, "%s%s", k ? ", " : "", keys[best[k]]);
    }
    return mt_fail(e, MT_EINPUT, "%s: --set %s: no such numeric parameter (near: %s)", path, key, near);
  }
  lua_pushnumber(L, v);          /* parent, key, value */
  lua_settable(L, -3);
  lua_settop(L, base);
  return MT_OK;
}

/*---- the parameter list (rig info --params) ----*/

/* Unit of the numeric leaf at path comp[0..n) (the --set key's parts); hinge: the nearest
 * enclosing joint is a hinge (angles and torques) rather than a slide. */
static const char* param_unit(char comp[][64], int n, int hinge) {
  const char* last = comp[n - 1];
  const char* prev = n >= 2 ? comp[n - 2] : "";
  const char* top = comp[0];
  int idx = last[0] >= '0' && last[0] <= '9' ? atoi(last) : 0;
  const char* field = idx ? prev : last;   /* the field a list element belongs to */
  if (strcmp(top, "timestep") == 0) return "s";
  if (strcmp(top, "bodies") == 0) {
    for (int i = 0; i < n; i++)
      if (strcmp(comp[i], "shapes") == 0) return strcmp(field, "rgba") == 0 || strcmp(field, "axis") == 0 ? "1" : "m";
    if (strcmp(field, "mass") == 0) return "kg";
    if (strcmp(field, "com") == 0 || strcmp(field, "anchor") == 0) return "m";
    if (strcmp(field, "inertia") == 0) return "kg·m²";
    if (strcmp(field, "axis") == 0) return "1";
  }
  int sd = 0;
  for (int i = 0; i < n; i++) sd |= strcmp(comp[i], "spring") == 0 || strcmp(comp[i], "rear_shock") == 0;
  if (sd) {
    if (strcmp(top, "rear_shock") == 0) hinge = 0;
    if (n >= 3 && strcmp(comp[n - 3], "table") == 0) return idx == 1 ? (hinge ? "rad" : "m") : (hinge ? "N·m" : "N");
    if (strcmp(field, "k") == 0 || strcmp(field, "k_stop") == 0) return hinge ? "N·m/rad" : "N/m";
    if (strcmp(field, "preload") == 0) return hinge ? "N·m" : "N";
    if (!strcmp(field, "c") || !strcmp(field, "c_comp") || !strcmp(field, "c_reb")) return hinge ? "N·m·s/rad" : "N·s/m";
    if (strcmp(field, "travel") == 0) return hinge ? "rad" : "m";
    if (strcmp(field, "link_mass") == 0) return "kg";
    if (strcmp(top, "rear_shock") == 0) return "m";   /* the linkage points */
  }
  if (strcmp(top, "steering") == 0) return strcmp(field, "lock") == 0 ? "rad" : "N·m/rad";
  if (strcmp(top, "rider") == 0)   /* rider.height, rider.arms (sim/rig.h rig_arms) */
    return strcmp(field, "height") == 0 ? "m" : strcmp(field, "inertia") == 0 ? "kg·m²" : strcmp(field, "k") == 0 ? "N·m/rad" : "N·m·s/rad";
  if (strcmp(top, "payload") == 0) return strcmp(field, "mass") == 0 ? "kg" : "m";
  if (strcmp(top, "aero") == 0)
    return strcmp(field, "rho") == 0 ? "kg/m³" : strcmp(field, "centre") == 0 ? "m" : strcmp(field, "pitch") == 0 ? "rad" : "m²";
  if (strcmp(top, "controls") == 0) {   /* the ride window's hand controls (sim/controls.h) */
    if (!strcmp(field, "sens_const") || !strcmp(field, "sens_speed")) return field[5] == 'c' ? "N·m/px" : "N·m·s/(m·px)";
    return !strcmp(field, "max_torque") || !strcmp(field, "pad_torque") ? "N·m" : !strcmp(field, "assist_lean") ? "rad/px"
           : strstr(field, "_px") ? "px" : "1";
  }
  if (strcmp(top, "contacts") == 0) {   /* contact spheres (sim/contact.h) */
    if (strcmp(field, "k") == 0) return "N/m";
    if (strcmp(field, "c") == 0) return "N·s/m";
    if (strcmp(field, "mu") == 0) return "1";
    if (strcmp(field, "point") == 0 || strcmp(field, "radius") == 0) return "m";
  }
  if (strcmp(top, "wheels") == 0) {
    static const char* const T[][2] = {{"R0", "m"}, {"crown", "m"}, {"sigma_x", "m"}, {"k_radial", "N/m"},
                                       {"c_radial", "N·s/m"}, {"Fz0", "N"}, {"c1Rel", "m·rad/N"},
                                       {"c2Rel", "s·rad/N"}, {"c3Rel", "s²·rad/(N·m)"}, {"k_slip", "N"}};
    for (size_t i = 0; i < MT_ARRAY_LEN(T); i++)
      if (strcmp(field, T[i][0]) == 0) return T[i][1];
    return "1";   /* Magic Formula coefficients, rolling, grip, λMr */
  }
  if (strcmp(top, "engine") == 0) {
    static const char* const T[][2] = {
      {"displacement", "m³"}, {"cylinders", "1"}, {"inertia", "kg·m²"}, {"throttle_diameter", "m"},
      {"discharge", "1"}, {"closed_angle", "rad"}, {"open_angle", "rad"}, {"bypass", "1"},
      {"idle_speed", "rad/s"}, {"idle_gain", "1"}, {"rev_limit", "rad/s"}, {"limiter_band", "rad/s"},
      {"stall_speed", "rad/s"}, {"ambient_pressure", "Pa"}, {"ambient_temperature", "K"},
      {"manifold_temperature", "K"}, {"gas_constant", "J/(kg·K)"}, {"lhv", "J/kg"}, {"afr", "1"},
      {"overrun_pressure", "Pa"}, {"overrun_speed", "rad/s"}};
    static const char* const POLY[] = {"1", "s/rad", "s²/rad²"};
    if (strcmp(field, "volumetric") == 0) return idx == 4 ? "1/Pa" : POLY[(idx - 1) % 3];
    if (strcmp(field, "thermal") == 0) return POLY[(idx - 1) % 3];
    if (strcmp(field, "pumping") == 0) return idx == 1 ? "Pa" : "1";
    if (strcmp(field, "friction") == 0) return idx == 1 ? "Pa" : idx == 2 ? "Pa·s/rad" : "Pa·s²/rad²";
    for (size_t i = 0; i < MT_ARRAY_LEN(T); i++)
      if (strcmp(field, T[i][0]) == 0) return T[i][1];
  }
  if (strcmp(top, "drivetrain") == 0) {
    if (!strcmp(field, "primary") || !strcmp(field, "gears") || !strncmp(field, "teeth", 5)) return "1";
    if (!strcmp(field, "pitch") || !strncmp(field, "radius", 6) || strstr(field, "sprocket")) return "m";
    if (!strcmp(field, "slip_speed")) return "rad/s";
    if (!strcmp(field, "capacity") || !strcmp(field, "front") || !strcmp(field, "rear")) return "N·m";
  }
  return "?";
}

static void params_walk(lua_State* L, rig_params* out, char comp[][64], int n, int hinge) {
  if (n >= 12) return;
  lua_getfield(L, -1, "type");
  if (lua_type(L, -1) == LUA_TSTRING) {
    if (strcmp(lua_tostring(L, -1), "hinge") == 0) hinge = 1;
    else if (strcmp(lua_tostring(L, -1), "slide") == 0) hinge = 0;
  }
  lua_pop(L, 1);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    int ok = 1;
    if (lua_type(L, -2) == LUA_TSTRING) snprintf(comp[n], 64, "%s", lua_tostring(L, -2));
    else if (lua_isinteger(L, -2)) {
      const char* nm = NULL;
      if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "name");
        if (lua_type(L, -1) == LUA_TSTRING) nm = lua_tostring(L, -1);
        lua_pop(L, 1);
      }
      if (nm) snprintf(comp[n], 64, "%s", nm);   /* still valid: the element holds the string */
      else snprintf(comp[n], 64, "%lld", (long long)lua_tointeger(L, -2));
    } else ok = 0;
    if (ok && lua_type(L, -1) == LUA_TNUMBER) {
      if (out->n == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 256;
        out->p = mt_realloc(out->p, sizeof(rig_param) * out->cap);
      }
      rig_param* q = &out->p[out->n++];
      q->key[0] = 0;
      for (int i = 0; i <= n; i++) {
        size_t l = strlen(q->key);
        snprintf(q->key + l, sizeof q->key - l, "%s%s", i ? "." : "", comp[i]);
      }
      q->value = lua_tonumber(L, -1);
      snprintf(q->unit, sizeof q->unit, "%s", param_unit(comp, n + 1, hinge));
    } else if (ok && lua_istable(L, -1)) {
      params_walk(L, out, comp, n + 1, hinge);
    }
    lua_pop(L, 1);
  }
}

static int param_cmp(const void* a, const void* b) { return strcmp(((const rig_param*)a)->key, ((const rig_param*)b)->key); }

void rig_set_collect(lua_State* L, rig_params* out) {
  char comp[12][64];
  params_walk(L, out, comp, 0, 0);
  if (out->n) qsort(out->p, out->n, sizeof *out->p, param_cmp);
}
