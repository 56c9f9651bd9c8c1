/* rig.c — loading and checking a rig file, --set overrides, spring laws, the shock linkage.
 *
 * The loader reads the Lua table into plain C structs and checks every invariant listed in
 * rig.h, so that nothing downstream (the MuJoCo compile, the step, the exporters) ever has to
 * doubt its input. Errors point at the rig file's line, the body or joint, and the field. */
#include "sim/rig.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/cli.h"
#include "sim/luabox.h"

/*---- small vector helpers ----*/
static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double norm3(const double a[3]) { return sqrt(dot3(a, a)); }
static double dist3(const double a[3], const double b[3]) {
  double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return norm3(d);
}

void rig_resolve(const char* name, char* out, size_t n) {
  if (strchr(name, '/') || (strlen(name) > 4 && strcmp(name + strlen(name) - 4, ".lua") == 0)) {
    snprintf(out, n, "%s", name);
    return;
  }
  snprintf(out, n, "%s/rigs/%s.lua", luabox_project_root(), name);
}

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


/* Apply one "key=value" to the rig table at the top of the stack. With quiet, a key that is not
 * in the table returns 1 (nothing reported); otherwise it is an error listing the nearest keys. */
static int apply_set(lua_State* L, const char* path, const char* kv, int quiet, mt_err* e) {
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
      for (int k = 0; k < 5; k++)
        if (dd < bd[k]) {
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

/*---- readers ----*/

static int read_vec3(lua_State* L, int t, const lb_scope* s, const char* field, int required, const double* dflt,
                     double out[3], mt_err* e) {
  int pushed;
  if (lb_table(L, t, s, field, 0, required, &pushed, e)) return MT_EINPUT;
  if (!pushed) {
    if (dflt) memcpy(out, dflt, 3 * sizeof(double));
    return MT_OK;
  }
  if (luaL_len(L, -1) != 3) {
    lua_pop(L, 1);
    return lb_fail(s, field, 0, e, "expected 3 numbers {x, y, z}");
  }
  for (int i = 0; i < 3; i++) {
    lua_geti(L, -1, i + 1);
    int ok = lua_type(L, -1) == LUA_TNUMBER && isfinite(lua_tonumber(L, -1));
    out[i] = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (!ok) {
      lua_pop(L, 1);
      return lb_fail(s, field, 0, e, "element %d is not a finite number", i + 1);
    }
  }
  lua_pop(L, 1);
  return MT_OK;
}

/* Spring-damper table: k, preload, c (or c_comp/c_reb), travel {min, max}, k_stop, table {{x,F},...}. */
static int read_sd(lua_State* L, int t, const lb_scope* s, rig_sd* sd, mt_err* e) {
  memset(sd, 0, sizeof *sd);
  double c;
  lb_scope nofill = *s;   /* `c` is shorthand for c_comp = c_reb: those are filled, not it */
  nofill.fill = 0;
  if (lb_num(L, t, s, "k", 0, 0, 0, &sd->k, e) || lb_num(L, t, s, "preload", 0, 0, 0, &sd->preload, e) ||
      lb_num(L, t, &nofill, "c", 0, 0, 0, &c, e) || lb_num(L, t, s, "c_comp", 0, 0, c, &sd->c_comp, e) ||
      lb_num(L, t, s, "c_reb", 0, 0, c, &sd->c_reb, e) || lb_num(L, t, s, "k_stop", 0, 0, 0, &sd->k_stop, e))
    return MT_EINPUT;
  if (sd->k < 0) return lb_fail(s, "k", 0, e, "must be >= 0, got %g", sd->k);
  if (sd->c_comp < 0) return lb_fail(s, "c_comp", 0, e, "must be >= 0, got %g", sd->c_comp);
  if (sd->c_reb < 0) return lb_fail(s, "c_reb", 0, e, "must be >= 0, got %g", sd->c_reb);
  if (sd->k_stop < 0) return lb_fail(s, "k_stop", 0, e, "must be >= 0, got %g", sd->k_stop);
  int pushed;
  if (lb_table(L, t, s, "travel", 0, 0, &pushed, e)) return MT_EINPUT;
  if (pushed) {
    lb_scope ts = lb_enter(s, "travel", 0, s->label);
    int rc = lb_num(L, -1, &ts, NULL, 1, 1, 0, &sd->x_min, e) || lb_num(L, -1, &ts, NULL, 2, 1, 0, &sd->x_max, e);
    lua_pop(L, 1);
    if (rc) return MT_EINPUT;
    if (!(sd->x_min < sd->x_max))
      return lb_fail(s, "travel", 0, e, "needs {min, max} with min < max, got {%g, %g}", sd->x_min, sd->x_max);
    if (sd->x_min > 0 || sd->x_max < 0)
      return lb_fail(s, "travel", 0, e, "must contain 0 (the reference pose), got {%g, %g}", sd->x_min, sd->x_max);
  }
  if (lb_table(L, t, s, "table", 0, 0, &pushed, e)) return MT_EINPUT;
  if (pushed) {
    int n = (int)luaL_len(L, -1);
    if (n < 2 || n > RIG_TAB) {
      lua_pop(L, 1);
      return lb_fail(s, "table", 0, e, "needs 2 to %d {x, F} points, got %d", RIG_TAB, n);
    }
    lb_scope ts = lb_enter(s, "table", 0, s->label);
    for (int i = 0; i < n; i++) {
      int p2;
      if (lb_table(L, -1, &ts, NULL, i + 1, 1, &p2, e)) {
        lua_pop(L, 1);
        return MT_EINPUT;
      }
      lb_scope ps = lb_enter(&ts, NULL, i + 1, s->label);
      int rc = lb_num(L, -1, &ps, NULL, 1, 1, 0, &sd->tab_x[i], e) || lb_num(L, -1, &ps, NULL, 2, 1, 0, &sd->tab_f[i], e);
      lua_pop(L, 1);
      if (rc) {
        lua_pop(L, 1);
        return MT_EINPUT;
      }
      if (i > 0 && !(sd->tab_x[i] > sd->tab_x[i - 1])) {
        lua_pop(L, 1);
        return lb_fail(s, "table", 0, e, "point %d: x must increase", i + 1);
      }
    }
    sd->ntab = n;
    lua_pop(L, 1);
  }
  return MT_OK;
}

static int read_shape(lua_State* L, const lb_scope* s, rig_shape* sh, mt_err* e) {
  const char* type;
  if (lb_str(L, -1, s, "type", 1, NULL, &type, e)) return MT_EINPUT;
  static const char* names[] = {"box", "cylinder", "capsule", "sphere", "torus"};
  sh->type = -1;
  for (int i = 0; i < 5; i++)
    if (strcmp(type, names[i]) == 0) sh->type = i;
  if (sh->type < 0) return lb_fail(s, "type", 0, e, "unknown shape '%s' (box, cylinder, capsule, sphere, torus)", type);
  static const double dflt_rgba[4] = {0.6, 0.6, 0.6, 1};
  memcpy(sh->rgba, dflt_rgba, sizeof dflt_rgba);
  int pushed;
  if (lb_table(L, -1, s, "rgba", 0, 0, &pushed, e)) return MT_EINPUT;
  if (pushed) {
    for (int i = 0; i < 4; i++) {
      lua_geti(L, -1, i + 1);
      if (lua_type(L, -1) == LUA_TNUMBER) sh->rgba[i] = mt_clamp(lua_tonumber(L, -1), 0, 1);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  switch (sh->type) {
    case RIG_BOX:
      if (read_vec3(L, -1, s, "centre", 1, NULL, sh->a, e) || read_vec3(L, -1, s, "size", 1, NULL, sh->b, e)) return MT_EINPUT;
      if (sh->b[0] <= 0 || sh->b[1] <= 0 || sh->b[2] <= 0) return lb_fail(s, "size", 0, e, "must be positive");
      break;
    case RIG_CYLINDER:
    case RIG_CAPSULE:
      if (read_vec3(L, -1, s, "from", 1, NULL, sh->a, e) || read_vec3(L, -1, s, "to", 1, NULL, sh->b, e) ||
          lb_num(L, -1, s, "radius", 0, 1, 0, &sh->radius, e))
        return MT_EINPUT;
      if (sh->radius <= 0) return lb_fail(s, "radius", 0, e, "must be > 0, got %g", sh->radius);
      if (dist3(sh->a, sh->b) < 1e-9) return lb_fail(s, "to", 0, e, "must differ from 'from'");
      break;
    case RIG_SPHERE:
      if (read_vec3(L, -1, s, "centre", 1, NULL, sh->a, e) || lb_num(L, -1, s, "radius", 0, 1, 0, &sh->b[0], e)) return MT_EINPUT;
      if (sh->b[0] <= 0) return lb_fail(s, "radius", 0, e, "must be > 0, got %g", sh->b[0]);
      break;
    case RIG_TORUS:
      if (read_vec3(L, -1, s, "centre", 1, NULL, sh->a, e) || read_vec3(L, -1, s, "axis", 1, NULL, sh->axis, e) ||
          lb_num(L, -1, s, "radius", 0, 1, 0, &sh->b[0], e) || lb_num(L, -1, s, "minor", 0, 1, 0, &sh->b[1], e))
        return MT_EINPUT;
      if (sh->b[0] <= 0 || sh->b[1] <= 0) return lb_fail(s, "radius", 0, e, "radius and minor must be > 0");
      if (norm3(sh->axis) < 1e-9) return lb_fail(s, "axis", 0, e, "must not be zero");
      break;
  }
  return MT_OK;
}

static int read_joint(lua_State* L, rig* r, int body, const lb_scope* s, const char* bname, mt_err* e) {
  if (r->njoint >= RIG_MAX_JOINTS) return lb_fail(s, NULL, 0, e, "too many joints (at most %d)", RIG_MAX_JOINTS);
  rig_joint* j = &r->joint[r->njoint];
  memset(j, 0, sizeof *j);
  j->body = body;
  j->sign = 1;
  j->target = -1;
  const char* type;
  if (lb_str(L, -1, s, "type", 1, NULL, &type, e)) return MT_EINPUT;
  if (strcmp(type, "free") == 0) j->type = RIG_FREE;
  else if (strcmp(type, "hinge") == 0) j->type = RIG_HINGE;
  else if (strcmp(type, "slide") == 0) j->type = RIG_SLIDE;
  else return lb_fail(s, "type", 0, e, "unknown joint type '%s' (free, hinge, slide)", type);
  const char* name;
  if (lb_str(L, -1, s, "name", j->type != RIG_FREE, bname, &name, e)) return MT_EINPUT;
  snprintf(j->name, sizeof j->name, "%s", name);
  if (j->type != RIG_FREE) {
    if (read_vec3(L, -1, s, "axis", 1, NULL, j->axis, e) || read_vec3(L, -1, s, "anchor", 1, NULL, j->anchor, e))
      return MT_EINPUT;
    double n = norm3(j->axis);
    if (n < 1e-9) return lb_fail(s, "axis", 0, e, "joint '%s': axis must not be zero", j->name);
    for (int i = 0; i < 3; i++) j->axis[i] /= n;
    int pushed;
    if (lb_table(L, -1, s, "spring", 0, 0, &pushed, e)) return MT_EINPUT;
    if (pushed) {
      char lab[80];
      snprintf(lab, sizeof lab, "joint '%s' spring", j->name);
      lb_scope ss = lb_enter(s, "spring", 0, lab);
      ss.label = s->label;
      int rc = read_sd(L, -1, &ss, &j->sd, e);
      const char* tg = NULL;
      if (!rc) rc = lb_str(L, -1, &ss, "target", 0, "", &tg, e);
      if (!rc && tg[0]) {
        for (int k = 0; k < RIG_NPOSTURE; k++)
          if (strcmp(tg, rig_posture_names[k]) == 0) j->target = k;
        if (j->target < 0)
          rc = lb_fail(&ss, "target", 0, e, "unknown posture set-point '%s' (hip_shift, torso_lean, torso_pitch)", tg);
        else if (j->sd.x_min != 0 || j->sd.x_max != 0 || j->sd.ntab || j->sd.preload != 0)
          rc = lb_fail(&ss, "target", 0, e, "a posture joint's spring is a linear k, c (no travel, table or preload)");
      }
      lua_pop(L, 1);
      if (rc) return MT_EINPUT;
      j->has_sd = 1;
    }
  }
  for (int i = 0; i < r->njoint; i++)
    if (strcmp(r->joint[i].name, j->name) == 0) return lb_fail(s, "name", 0, e, "joint name '%s' used twice", j->name);
  r->njoint++;
  return MT_OK;
}

/* Inertia check: symmetric positive definite and the triangle inequality of principal moments. */
static int inertia_ok(const double I[6]) {
  double a = I[0], b = I[1], c = I[2], xy = I[3], xz = I[4], yz = I[5];
  /* Sylvester's criterion on [[a, -xy, -xz], [-xy, b, -yz], [-xz, -yz, c]] — the sign of the
   * products does not change definiteness of the leading minors' pattern we test here. */
  double m1 = a, m2 = a * b - xy * xy;
  double m3 = a * (b * c - yz * yz) - xy * (xy * c - yz * xz) + xz * (xy * yz - b * xz);
  if (!(m1 > 0 && m2 > 0 && m3 > 0)) return 0;
  /* principal moments must satisfy the triangle inequality: use the eigen-free bound on traces */
  return a + b >= c - 1e-9 && a + c >= b - 1e-9 && b + c >= a - 1e-9;
}

static int read_body(lua_State* L, rig* r, int idx, const lb_scope* top, const char* src_path, mt_err* e) {
  rig_body* b = &r->body[idx];
  memset(b, 0, sizeof *b);
  char label[64];
  snprintf(label, sizeof label, "body %d", idx + 1);
  lb_scope bs = lb_enter(top, "bodies", 0, NULL);
  bs = lb_enter(&bs, NULL, idx + 1, NULL);
  const char* name;
  bs.label = label;
  if (lb_str(L, -1, &bs, "name", 1, NULL, &name, e)) return MT_EINPUT;
  snprintf(b->name, sizeof b->name, "%s", name);
  static char lab2[RIG_MAX_BODIES][80];
  snprintf(lab2[idx], sizeof lab2[idx], "body '%s'", b->name);
  bs.label = lab2[idx];
  for (int i = 0; i < idx; i++)
    if (strcmp(r->body[i].name, b->name) == 0) return lb_fail(&bs, "name", 0, e, "body name used twice");
  const char* parent;
  if (lb_str(L, -1, &bs, "parent", 1, NULL, &parent, e)) return MT_EINPUT;
  b->parent = -2;
  if (strcmp(parent, "world") == 0) b->parent = -1;
  for (int i = 0; i < idx; i++)
    if (strcmp(r->body[i].name, parent) == 0) b->parent = i;
  if (b->parent == -2) {
    for (int i = idx + 1; i < RIG_MAX_BODIES; i++) (void)i;
    return lb_fail(&bs, "parent", 0, e,
                   "'%s' is not a body defined before this one (bodies must form a tree listed parent first)", parent);
  }
  if (lb_num(L, -1, &bs, "mass", 0, 1, 0, &b->mass, e)) return MT_EINPUT;
  if (!(b->mass > 0)) return lb_fail(&bs, "mass", 0, e, "must be > 0, got %g", b->mass);
  if (read_vec3(L, -1, &bs, "com", 1, NULL, b->com, e)) return MT_EINPUT;
  int pushed;
  if (lb_table(L, -1, &bs, "inertia", 0, 1, &pushed, e)) return MT_EINPUT;
  int n = (int)luaL_len(L, -1);
  if (n != 3 && n != 6) {
    lua_pop(L, 1);
    return lb_fail(&bs, "inertia", 0, e, "expected {Ixx, Iyy, Izz} or {Ixx, Iyy, Izz, Ixy, Ixz, Iyz}, got %d numbers", n);
  }
  for (int i = 0; i < n; i++) {
    lua_geti(L, -1, i + 1);
    int ok = lua_type(L, -1) == LUA_TNUMBER && isfinite(lua_tonumber(L, -1));
    b->inertia[i] = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (!ok) {
      lua_pop(L, 1);
      return lb_fail(&bs, "inertia", 0, e, "element %d is not a finite number", i + 1);
    }
  }
  lua_pop(L, 1);
  if (!inertia_ok(b->inertia))
    return lb_fail(&bs, "inertia", 0, e, "not positive definite (or violates the triangle inequality)");
  /* joints: `joint = {...}` or `joints = {{...}, ...}` */
  b->joint0 = r->njoint;
  if (lb_table(L, -1, &bs, "joint", 0, 0, &pushed, e)) return MT_EINPUT;
  if (pushed) {
    lb_scope js = lb_enter(&bs, "joint", 0, bs.label);
    int rc = read_joint(L, r, idx, &js, b->name, e);
    lua_pop(L, 1);
    if (rc) return MT_EINPUT;
  }
  if (lb_table(L, -1, &bs, "joints", 0, 0, &pushed, e)) return MT_EINPUT;
  if (pushed) {
    int nj = (int)luaL_len(L, -1);
    lb_scope jl = lb_enter(&bs, "joints", 0, bs.label);
    for (int i = 0; i < nj; i++) {
      int p2;
      if (lb_table(L, -1, &jl, NULL, i + 1, 1, &p2, e)) {
        lua_pop(L, 1);
        return MT_EINPUT;
      }
      lb_scope js = lb_enter(&jl, NULL, i + 1, bs.label);
      int rc = read_joint(L, r, idx, &js, b->name, e);
      lua_pop(L, 1);
      if (rc) {
        lua_pop(L, 1);
        return MT_EINPUT;
      }
    }
    lua_pop(L, 1);
  }
  b->njoint = r->njoint - b->joint0;
  if (b->njoint == 0)
    return lb_fail(&bs, "joint", 0, e, "a body needs a joint (a rigidly attached part belongs to its parent's mass)");
  for (int k = 0; k < b->njoint; k++) {
    rig_joint* j = &r->joint[b->joint0 + k];
    if (j->type == RIG_FREE && (b->parent != -1 || b->njoint != 1))
      return lb_fail(&bs, "joint", 0, e, "joint '%s': only the root body (parent 'world') may have a free joint", j->name);
    if (j->type != RIG_FREE && b->parent == -1)
      return lb_fail(&bs, "parent", 0, e, "a body attached to the world needs a free joint");
  }
  /* shapes */
  if (lb_table(L, -1, &bs, "shapes", 0, 0, &pushed, e)) return MT_EINPUT;
  if (pushed) {
    int ns = (int)luaL_len(L, -1);
    if (ns > RIG_MAX_SHAPES) {
      lua_pop(L, 1);
      return lb_fail(&bs, "shapes", 0, e, "at most %d shapes per body", RIG_MAX_SHAPES);
    }
    lb_scope sl = lb_enter(&bs, "shapes", 0, bs.label);
    for (int i = 0; i < ns; i++) {
      int p2;
      if (lb_table(L, -1, &sl, NULL, i + 1, 1, &p2, e)) {
        lua_pop(L, 1);
        return MT_EINPUT;
      }
      lb_scope ss = lb_enter(&sl, NULL, i + 1, bs.label);
      int rc = read_shape(L, &ss, &b->shape[i], e);
      lua_pop(L, 1);
      if (rc) {
        lua_pop(L, 1);
        return MT_EINPUT;
      }
    }
    b->nshape = ns;
    lua_pop(L, 1);
  }
  (void)src_path;
  return MT_OK;
}

/*---- spring laws ----*/

double rig_sd_spring(const rig_sd* s, double x) {
  double f;
  if (s->ntab >= 2) {
    int i = 0;
    while (i < s->ntab - 2 && x > s->tab_x[i + 1]) i++;
    double u = (x - s->tab_x[i]) / (s->tab_x[i + 1] - s->tab_x[i]);
    f = s->tab_f[i] + u * (s->tab_f[i + 1] - s->tab_f[i]);   /* linear, extrapolated at the ends */
  } else {
    f = s->preload + s->k * (x - s->x_min);
  }
  int stops = s->x_min != 0 || s->x_max != 0;
  if (stops) {
    /* Below full extension the top-out stop pushes back against the preloaded spring; beyond
     * full compression the bump stop adds to it. Continuous everywhere (a jump would make the
     * force field non-conservative in discrete time). */
    if (x < s->x_min) f += s->k_stop * (x - s->x_min);
    else if (x > s->x_max) f += s->k_stop * (x - s->x_max);
  }
  return f;
}

double rig_sd_force(const rig_sd* s, double x, double xd) {
  double c = xd > 0 ? s->c_comp : s->c_reb;
  return rig_sd_spring(s, x) + c * xd;
}

double rig_sd_energy(const rig_sd* s, double x) {
  /* Integrate the spring from 0 to x with Simpson's rule on a fine grid: exact for the piecewise
   * linear laws up to the kinks, which we split at. */
  double pts[RIG_TAB + 4];
  int np = 0;
  pts[np++] = 0;
  double kinks[RIG_TAB + 2];
  int nk = 0;
  if (s->x_min != 0 || s->x_max != 0) {
    kinks[nk++] = s->x_min;
    kinks[nk++] = s->x_max;
  }
  for (int i = 0; i < s->ntab; i++) kinks[nk++] = s->tab_x[i];
  double lo = x < 0 ? x : 0, hi = x < 0 ? 0 : x;
  for (int i = 0; i < nk; i++)
    if (kinks[i] > lo && kinks[i] < hi) pts[np++] = kinks[i];
  pts[np++] = x;
  /* sort */
  for (int i = 0; i < np; i++)
    for (int j = i + 1; j < np; j++)
      if ((x >= 0 && pts[j] < pts[i]) || (x < 0 && pts[j] > pts[i])) {
        double t = pts[i];
        pts[i] = pts[j];
        pts[j] = t;
      }
  double E = 0;
  for (int i = 0; i + 1 < np; i++) {
    double a = pts[i], b = pts[i + 1], m = 0.5 * (a + b);
    E += (b - a) / 6 * (rig_sd_spring(s, a) + 4 * rig_sd_spring(s, m) + rig_sd_spring(s, b));
  }
  return E;   /* work done compressing from the reference pose to x */
}

/*---- linkage ----*/

/* Rotate point p about the y axis through c by angle a (positive: +z toward +x... see rig.h):
 * x' = x cos a + z sin a, z' = −x sin a + z cos a (a right-handed rotation about +y). */
static void rot_y_cs(const double c[3], const double p[3], double ca, double sa, double out[3]) {
  double x = p[0] - c[0], z = p[2] - c[2];
  out[0] = c[0] + x * ca + z * sa;
  out[1] = p[1];
  out[2] = c[2] - x * sa + z * ca;
}
static void rot_y(const double c[3], const double p[3], double a, double out[3]) { rot_y_cs(c, p, cos(a), sin(a), out); }

int rig_linkage_solve(const rig* r, double theta, rig_link_pose* out) {
  const rig_linkage* k = &r->linkage;
  const double* piv = r->joint[k->swingarm_joint].anchor;
  double q[3], ct = cos(theta), st = sin(theta);         /* once for the rod end and the axle */
  rot_y_cs(piv, k->arm_rod, ct, st, q);                  /* pull-rod end on the swingarm */
  /* The crank end p20 lies on the circle about p19 of radius crank_arm and on the circle about
   * q of radius rod_length: intersect the two circles in the x–z plane. */
  double dx = q[0] - k->pivot[0], dz = q[2] - k->pivot[2];
  double d = sqrt(dx * dx + dz * dz);
  double r1 = k->crank_arm, r2 = k->rod_length;
  if (d > r1 + r2 || d < fabs(r1 - r2) || d < 1e-12) return -1;
  double a = (r1 * r1 - r2 * r2 + d * d) / (2 * d);
  double h2 = r1 * r1 - a * a;
  double h = sqrt(h2 > 0 ? h2 : 0);
  double ux = dx / d, uz = dz / d;
  double bx = k->pivot[0] + a * ux, bz = k->pivot[2] + a * uz;
  /* Two solutions; keep the one on the same side of the line p19→q as in the reference pose,
   * which is the branch the real linkage stays on. */
  double ref_side;
  {
    double q0[3];
    memcpy(q0, k->arm_rod, sizeof q0);
    double ex = q0[0] - k->pivot[0], ez = q0[2] - k->pivot[2];
    double fx = k->crank_rod[0] - k->pivot[0], fz = k->crank_rod[2] - k->pivot[2];
    ref_side = ex * fz - ez * fx >= 0 ? 1 : -1;
  }
  /* perpendicular (−uz, ux); side of p = sign(cross(u, p − pivot)) */
  double p1x = bx - h * uz, p1z = bz + h * ux;
  double s1 = dx * (p1z - k->pivot[2]) - dz * (p1x - k->pivot[0]);
  double px, pz;
  if ((s1 >= 0 ? 1 : -1) == ref_side) {
    px = p1x;
    pz = p1z;
  } else {
    px = bx + h * uz;
    pz = bz - h * ux;
  }
  /* crank angle: rotation about +y taking the reference crank_rod arm to the solved point */
  double ax0 = k->crank_rod[0] - k->pivot[0], az0 = k->crank_rod[2] - k->pivot[2];
  double ax1 = px - k->pivot[0], az1 = pz - k->pivot[2];
  /* with x' = x cos + z sin, z' = −x sin + z cos: angle = atan2(z0·x1 − x0·z1, x0·x1 + z0·z1) */
  double phi = atan2(az0 * ax1 - ax0 * az1, ax0 * ax1 + az0 * az1);
  out->crank_angle = phi;
  out->rod_end_crank[0] = px;
  out->rod_end_crank[1] = 0;
  out->rod_end_crank[2] = pz;
  memcpy(out->rod_end_arm, q, sizeof q);
  rot_y(k->pivot, k->crank_shock, phi, out->shock_bottom);
  memcpy(out->shock_top, k->frame_shock, sizeof out->shock_top);
  out->shock_length = dist3(out->shock_top, out->shock_bottom);
  /* Motion ratio by implicit differentiation of |p20(φ) − q(θ)|² = L²:
   * dφ/dθ = (w·dq/dθ) / (w·dp20/dφ), w = p20 − q; a rotation's rate is (z, −x) of the arm. */
  double wx = px - q[0], wz = pz - q[2];
  double dq_x = q[2] - piv[2], dq_z = -(q[0] - piv[0]);
  double dp_x = pz - k->pivot[2], dp_z = -(px - k->pivot[0]);
  double den = wx * dp_x + wz * dp_z;
  double dphi = fabs(den) > 1e-15 ? (wx * dq_x + wz * dq_z) / den : 0;
  double sb[3];
  memcpy(sb, out->shock_bottom, sizeof sb);
  double ds_x = (sb[2] - k->pivot[2]) * dphi, ds_z = -(sb[0] - k->pivot[0]) * dphi;
  double lx = sb[0] - out->shock_top[0], lz = sb[2] - out->shock_top[2];
  out->dlength_dtheta = (lx * ds_x + lz * ds_z) / out->shock_length;
  /* wheel vertical rate: the rear axle's z speed per unit θ */
  const double* axle = r->wheel[RIG_REAR].centre;
  double wheel_dz = -((rot_y_cs(piv, axle, ct, st, sb), sb[0]) - piv[0]);
  out->motion_ratio = fabs(out->dlength_dtheta) > 1e-12 ? wheel_dz / -out->dlength_dtheta : 0;
  return 0;
}

/*---- loading ----*/

int rig_body_index(const rig* r, const char* name) {
  for (int i = 0; i < r->nbody; i++)
    if (strcmp(r->body[i].name, name) == 0) return i;
  return -1;
}

int rig_joint_index(const rig* r, const char* name) {
  for (int i = 0; i < r->njoint; i++)
    if (strcmp(r->joint[i].name, name) == 0) return i;
  return -1;
}

const char* const rig_posture_names[RIG_NPOSTURE] = {"hip_shift", "torso_lean", "torso_pitch"};

/* aero.posture = { tucked = { pitch = rad > 0, cd_area = }, upright = { pitch = rad < 0, cd_area = } } */
static int read_aero_posture(lua_State* L, rig* r, const lb_scope* as, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, as, "posture", 0, 0, &pushed, e)) return MT_EINPUT;
  if (!pushed) return MT_OK;
  lb_scope ps = lb_enter(as, "posture", 0, "aero posture");
  rig_aero* a = &r->aero;
  int rc = MT_OK;
  const char* which[2] = {"tucked", "upright"};
  double* pitch[2] = {&a->pitch_tucked, &a->pitch_upright};
  double* cd[2] = {&a->cd_tucked, &a->cd_upright};
  for (int k = 0; k < 2 && !rc; k++) {
    int p2;
    if ((rc = lb_table(L, -1, &ps, which[k], 0, 1, &p2, e))) break;
    lb_scope ws = lb_enter(&ps, which[k], 0, "aero posture");
    rc = lb_num(L, -1, &ws, "pitch", 0, 1, 0, pitch[k], e) || lb_num(L, -1, &ws, "cd_area", 0, 1, 0, cd[k], e);
    if (!rc && *cd[k] < 0) rc = lb_fail(&ws, "cd_area", 0, e, "must be >= 0, got %g", *cd[k]);
    if (!rc && (k == 0 ? !(*pitch[k] > 0 && *pitch[k] < 1.5) : !(*pitch[k] < 0 && *pitch[k] > -1.5)))
      rc = lb_fail(&ws, "pitch", 0, e, "must be within %s rad (torso pitch, positive forward), got %g",
                   k == 0 ? "(0, 1.5)" : "(-1.5, 0)", *pitch[k]);
    lua_pop(L, 1);
  }
  if (!rc && r->j_posture[RIG_POSTURE_PITCH] < 0)
    rc = lb_fail(&ps, NULL, 0, e, "needs a joint whose spring follows target = \"torso_pitch\"");
  lua_pop(L, 1);
  a->has_posture = !rc;
  return rc;
}

double rig_cd_area(const rig_aero* a, double pitch) {
  if (!a->has_posture) return a->cd_area;
  if (pitch >= 0) {
    double u = fmin(pitch / a->pitch_tucked, 1);
    return a->cd_area + u * (a->cd_tucked - a->cd_area);
  }
  double u = fmin(pitch / a->pitch_upright, 1);
  return a->cd_area + u * (a->cd_upright - a->cd_area);
}

double rig_total_mass(const rig* r, double com[3]) {
  double m = 0, c[3] = {0, 0, 0};
  for (int i = 0; i < r->nbody; i++) {
    m += r->body[i].mass;
    for (int k = 0; k < 3; k++) c[k] += r->body[i].mass * r->body[i].com[k];
  }
  if (com)
    for (int k = 0; k < 3; k++) com[k] = c[k] / m;
  return m;
}

static int read_wheel(lua_State* L, rig* r, const lb_scope* ws, const char* which, int w, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, ws, which, 0, 1, &pushed, e)) return MT_EINPUT;
  char lab[40];
  snprintf(lab, sizeof lab, "%s wheel", which);
  lb_scope s = lb_enter(ws, which, 0, lab);
  const char* body;
  int rc = lb_str(L, -1, &s, "body", 1, NULL, &body, e);
  if (!rc) {
    int b = rig_body_index(r, body);
    if (b < 0) rc = lb_fail(&s, "body", 0, e, "no body named '%s'", body);
    else {
      rig_body* bb = &r->body[b];
      rig_joint* j = &r->joint[bb->joint0];
      if (bb->njoint != 1 || j->type != RIG_HINGE)
        rc = lb_fail(&s, "body", 0, e, "wheel body '%s' must have exactly one hinge joint (its spin axis)", body);
      else {
        r->wheel[w].body = b;
        r->wheel[w].joint = bb->joint0;
        memcpy(r->wheel[w].centre, j->anchor, sizeof j->anchor);
      }
    }
  }
  if (!rc) {
    int p2;
    rc = lb_table(L, -1, &s, "tyre", 0, 1, &p2, e);
    if (!rc) {
      lb_scope ts = lb_enter(&s, "tyre", 0, lab);
      rc = tyre_params_read(L, -1, &ts, &r->wheel[w].tyre, e);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return rc;
}

static int read_linkage(lua_State* L, rig* r, const lb_scope* top, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, top, "rear_shock", 0, 1, &pushed, e)) return MT_EINPUT;
  lb_scope s = lb_enter(top, "rear_shock", 0, "rear_shock");
  rig_linkage* k = &r->linkage;
  int rc = read_vec3(L, -1, &s, "pivot", 1, NULL, k->pivot, e) || read_vec3(L, -1, &s, "crank_rod", 1, NULL, k->crank_rod, e) ||
           read_vec3(L, -1, &s, "crank_shock", 1, NULL, k->crank_shock, e) ||
           read_vec3(L, -1, &s, "arm_rod", 1, NULL, k->arm_rod, e) ||
           read_vec3(L, -1, &s, "frame_shock", 1, NULL, k->frame_shock, e) || read_sd(L, -1, &s, &k->shock, e) ||
           lb_num(L, -1, &s, "link_mass", 0, 0, 1.0, &k->link_mass, e);
  if (!rc) {
    const double* pts[5] = {k->pivot, k->crank_rod, k->crank_shock, k->arm_rod, k->frame_shock};
    static const char* nm[5] = {"pivot", "crank_rod", "crank_shock", "arm_rod", "frame_shock"};
    for (int i = 0; i < 5 && !rc; i++)
      if (fabs(pts[i][1]) > 1e-9) rc = lb_fail(&s, nm[i], 0, e, "linkage points must lie in the symmetry plane (y = 0)");
  }
  if (!rc) {
    k->rod_length = dist3(k->crank_rod, k->arm_rod);
    k->crank_arm = dist3(k->crank_rod, k->pivot);
    k->shock_length0 = dist3(k->crank_shock, k->frame_shock);
    if (k->rod_length < 1e-6 || k->crank_arm < 1e-6 || k->shock_length0 < 1e-6)
      rc = lb_fail(&s, "crank_rod", 0, e, "degenerate linkage: coincident points");
  }
  if (!rc && k->shock.k <= 0 && k->shock.ntab < 2) rc = lb_fail(&s, "k", 0, e, "the shock needs a spring rate k > 0");
  lua_pop(L, 1);
  return rc;
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

/* Every numeric leaf of the (filled) rig table at the top of the stack, sorted by key. */
static void collect_params(lua_State* L, rig_params* out) {
  char comp[12][64];
  params_walk(L, out, comp, 0, 0);
  if (out->n) qsort(out->p, out->n, sizeof *out->p, param_cmp);
}

/* payload = { mass = kg, x = m, y = m, z = m, size = {lx, ly, lz} m } (optional; mass 0 = none):
 * a uniform box rigidly carried by the root body (luggage, a pillion), merged into the root's
 * mass, centre of mass and inertia (parallel axes; rig inertias list products of inertia). */
static int read_payload(lua_State* L, rig* r, const lb_scope* top, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, top, "payload", 0, 0, &pushed, e)) return MT_EINPUT;
  if (!pushed) return MT_OK;
  lb_scope ps = lb_enter(top, "payload", 0, "payload");
  static const char* const known[] = {"mass", "x", "y", "z", "size", NULL};
  double m, p[3], sz[3] = {0, 0, 0};
  int rc = lb_check_keys(L, -1, &ps, known, e) || lb_num(L, -1, &ps, "mass", 0, 1, 0, &m, e) ||
           lb_num(L, -1, &ps, "x", 0, 1, 0, &p[0], e) || lb_num(L, -1, &ps, "y", 0, 0, 0, &p[1], e) ||
           lb_num(L, -1, &ps, "z", 0, 1, 0, &p[2], e) || read_vec3(L, -1, &ps, "size", 0, sz, sz, e);
  lua_pop(L, 1);
  if (rc) return MT_EINPUT;
  if (!(m >= 0 && m <= 500)) return lb_fail(&ps, "mass", 0, e, "must be within [0, 500] kg, got %g", m);
  if (sz[0] < 0 || sz[1] < 0 || sz[2] < 0) return lb_fail(&ps, "size", 0, e, "must be >= 0");
  if (m == 0) return MT_OK;
  rig_body* b = &r->body[0];
  double M = b->mass + m, c[3];
  for (int k = 0; k < 3; k++) c[k] = (b->mass * b->com[k] + m * p[k]) / M;
  double d0[3], d1[3];
  for (int k = 0; k < 3; k++) {
    d0[k] = b->com[k] - c[k];
    d1[k] = p[k] - c[k];
  }
  double box[3] = {m / 12 * (sz[1] * sz[1] + sz[2] * sz[2]), m / 12 * (sz[0] * sz[0] + sz[2] * sz[2]),
                   m / 12 * (sz[0] * sz[0] + sz[1] * sz[1])};
  double* I = b->inertia;
  for (int k = 0; k < 3; k++) {
    int i = (k + 1) % 3, j = (k + 2) % 3;
    I[k] += b->mass * (d0[i] * d0[i] + d0[j] * d0[j]) + m * (d1[i] * d1[i] + d1[j] * d1[j]) + box[k];
  }
  /* products Ixy, Ixz, Iyz */
  static const int pi[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (int k = 0; k < 3; k++)
    I[3 + k] += b->mass * d0[pi[k][0]] * d0[pi[k][1]] + m * d1[pi[k][0]] * d1[pi[k][1]];
  b->mass = M;
  memcpy(b->com, c, sizeof c);
  return MT_OK;
}

/* Read the rig table at the top of the stack into r (the stack is left as found on success). */
static int parse(lua_State* L, rig* r, const lb_scope* topp, const char* path, mt_err* e) {
  lb_scope top = *topp;
  const char* name;
  if (lb_str(L, -1, &top, "name", 1, NULL, &name, e)) return MT_EINPUT;
  snprintf(r->name, sizeof r->name, "%s", name);
  if (lb_num(L, -1, &top, "timestep", 0, 0, 0.001, &r->timestep, e)) return MT_EINPUT;
  if (!(r->timestep >= RIG_TIMESTEP_MIN && r->timestep <= RIG_TIMESTEP_MAX)) {
    lb_fail(&top, "timestep", 0, e, "must be within [%g, %g] s, got %g", RIG_TIMESTEP_MIN, RIG_TIMESTEP_MAX, r->timestep);
    return MT_EINPUT;
  }
  int pushed;
  if (lb_table(L, -1, &top, "bodies", 0, 1, &pushed, e)) return MT_EINPUT;
  int nb = (int)luaL_len(L, -1);
  lb_scope bl = lb_enter(&top, "bodies", 0, NULL);
  if (nb < 1 || nb > RIG_MAX_BODIES) {
    lb_fail(&top, "bodies", 0, e, "needs 1 to %d bodies, got %d", RIG_MAX_BODIES, nb);
    return MT_EINPUT;
  }
  for (int i = 0; i < nb; i++) {
    int p2;
    if (lb_table(L, -1, &bl, NULL, i + 1, 1, &p2, e)) return MT_EINPUT;
    int rc = read_body(L, r, i, &top, path, e);
    lua_pop(L, 1);
    if (rc) return MT_EINPUT;
    r->nbody = i + 1;
  }
  lua_pop(L, 1);
  if (r->body[0].parent != -1) {
    lb_fail(&bl, NULL, 1, e, "the first body must be the root (parent 'world', free joint)");
    return MT_EINPUT;
  }
  for (int i = 1; i < r->nbody; i++)
    if (r->body[i].parent == -1) {
      lb_fail(&bl, NULL, i + 1, e, "body '%s': only one body may hang from the world", r->body[i].name);
      return MT_EINPUT;
    }
  if (read_payload(L, r, &top, e)) return MT_EINPUT;
  /* the machine's named parts */
  r->j_steer = rig_joint_index(r, "steer");
  r->j_twist = rig_joint_index(r, "twist");
  r->j_fork = rig_joint_index(r, "fork");
  r->j_swingarm = rig_joint_index(r, "swingarm");
  r->j_rider = rig_joint_index(r, "rider_lean");
  r->j_bend = rig_joint_index(r, "fork_bend");
  r->j_front_spin = rig_joint_index(r, "front_spin");
  r->j_rear_spin = rig_joint_index(r, "rear_spin");
  static const char* need[] = {"steer", "fork", "swingarm", "front_spin", "rear_spin"};
  for (size_t i = 0; i < MT_ARRAY_LEN(need); i++)
    if (rig_joint_index(r, need[i]) < 0) {
      lb_fail(&bl, NULL, 0, e, "the motorcycle needs a joint named '%s'", need[i]);
      return MT_EINPUT;
    }
  r->b_frame = 0;
  r->b_steer = r->joint[r->j_steer].body;
  r->b_fork = r->joint[r->j_fork].body;
  r->b_swingarm = r->joint[r->j_swingarm].body;
  r->b_rider = r->j_rider >= 0 ? r->joint[r->j_rider].body : -1;
  for (int k = 0; k < RIG_NPOSTURE; k++) r->j_posture[k] = -1;
  for (int j = 0; j < r->njoint; j++) {
    int k = r->joint[j].target;
    if (k < 0) continue;
    if (r->j_posture[k] >= 0) {
      lb_fail(&bl, NULL, 0, e, "joints '%s' and '%s' both follow the posture set-point '%s'", r->joint[r->j_posture[k]].name,
              r->joint[j].name, rig_posture_names[k]);
      return MT_EINPUT;
    }
    if ((k == RIG_POSTURE_HIP) != (r->joint[j].type == RIG_SLIDE)) {
      lb_fail(&bl, NULL, 0, e, "joint '%s': the '%s' set-point needs a %s joint", r->joint[j].name, rig_posture_names[k],
              k == RIG_POSTURE_HIP ? "slide" : "hinge");
      return MT_EINPUT;
    }
    r->j_posture[k] = j;
  }
  if (r->joint[r->j_fork].type != RIG_SLIDE || r->joint[r->j_steer].type != RIG_HINGE ||
      r->joint[r->j_swingarm].type != RIG_HINGE) {
    lb_fail(&bl, NULL, 0, e, "joints 'steer' and 'swingarm' must be hinges and 'fork' a slide");
    return MT_EINPUT;
  }
  /* wheels */
  if (lb_table(L, -1, &top, "wheels", 0, 1, &pushed, e)) return MT_EINPUT;
  {
    lb_scope ws = lb_enter(&top, "wheels", 0, NULL);
    int rc = read_wheel(L, r, &ws, "front", RIG_FRONT, e) || read_wheel(L, r, &ws, "rear", RIG_REAR, e);
    lua_pop(L, 1);
    if (rc) return MT_EINPUT;
  }
  if (r->joint[r->wheel[RIG_REAR].joint].body == r->b_swingarm ||
      r->body[r->wheel[RIG_REAR].body].parent != r->b_swingarm) {
    lb_fail(&top, "wheels", 0, e, "rear wheel: its body must hang from the swingarm");
    return MT_EINPUT;
  }
  /* linkage */
  r->linkage.swingarm_joint = r->j_swingarm;
  if (read_linkage(L, r, &top, e)) return MT_EINPUT;
  {
    /* The loop must close over the swingarm's whole travel (±0.2 rad: ±110 mm at the axle, more than any bike has). */
    lb_scope ls = lb_enter(&top, "rear_shock", 0, "rear_shock");
    rig_link_pose lp;
    for (double th = -0.2; th <= 0.2 + 1e-9; th += 0.01)
      if (rig_linkage_solve(r, th, &lp) != 0) {
        lb_fail(&ls, "crank_rod", 0, e, "the linkage cannot close at swingarm angle %.2f rad (check pivot, crank_rod, arm_rod)", th);
        return MT_EINPUT;
      }
    rig_linkage_solve(r, 0, &lp);
    if (fabs(lp.shock_length - r->linkage.shock_length0) > 1e-9 || fabs(lp.crank_angle) > 1e-9) {
      lb_fail(&ls, "crank_rod", 0, e, "the linkage does not reproduce its reference pose");
      return MT_EINPUT;
    }
  }
  /* steering lock */
  if (lb_table(L, -1, &top, "steering", 0, 0, &pushed, e)) return MT_EINPUT;
  r->steer_lock = 0.5;
  r->k_steer_lock = 2000;
  if (pushed) {
    lb_scope ss = lb_enter(&top, "steering", 0, "steering");
    int rc = lb_num(L, -1, &ss, "lock", 0, 0, 0.5, &r->steer_lock, e) ||
             lb_num(L, -1, &ss, "k_lock", 0, 0, 2000, &r->k_steer_lock, e);
    lua_pop(L, 1);
    if (rc) return MT_EINPUT;
    if (!(r->steer_lock > 0 && r->steer_lock < 1.4)) {
      lb_fail(&ss, "lock", 0, e, "must be within (0, 1.4) rad, got %g", r->steer_lock);
      return MT_EINPUT;
    }
  }
  /* aero */
  r->aero.rho = 1.2;
  if (lb_table(L, -1, &top, "aero", 0, 0, &pushed, e)) return MT_EINPUT;
  if (pushed) {
    lb_scope as = lb_enter(&top, "aero", 0, "aero");
    int rc = lb_num(L, -1, &as, "cd_area", 0, 1, 0, &r->aero.cd_area, e) ||
             lb_num(L, -1, &as, "cl_area", 0, 0, 0, &r->aero.cl_area, e) ||
             lb_num(L, -1, &as, "rho", 0, 0, 1.2, &r->aero.rho, e) ||
             read_vec3(L, -1, &as, "centre", 1, NULL, r->aero.centre, e);
    if (rc) {
      lua_pop(L, 1);
      return MT_EINPUT;
    }
    if (r->aero.cd_area < 0 || r->aero.rho <= 0) {
      lua_pop(L, 1);
      lb_fail(&as, "cd_area", 0, e, "cd_area must be >= 0 and rho > 0");
      return MT_EINPUT;
    }
    rc = read_aero_posture(L, r, &as, e);
    lua_pop(L, 1);
    if (rc) return MT_EINPUT;
  }
  if (contact_read_rig(L, r, &top, e)) return MT_EINPUT;
  if (controls_read(L, &top, &r->controls, e)) return MT_EINPUT;
  /* engine and drivetrain */
  if (lb_table(L, -1, &top, "engine", 0, 1, &pushed, e)) return MT_EINPUT;
  {
    lb_scope es = lb_enter(&top, "engine", 0, "engine");
    int rc = engine_params_read(L, -1, &es, &r->engine, e);
    lua_pop(L, 1);
    if (rc) return MT_EINPUT;
  }
  if (lb_table(L, -1, &top, "drivetrain", 0, 1, &pushed, e)) return MT_EINPUT;
  {
    lb_scope ds = lb_enter(&top, "drivetrain", 0, "drivetrain");
    int rc = drive_params_read(L, -1, &ds, &r->drive, e);
    lua_pop(L, 1);
    if (rc) return MT_EINPUT;
  }
  return MT_OK;
}

/* Shared by rig_load and rig_load_text: text is the rig file's source (owned, freed here);
 * modules (name/text pairs) serve require() when given. */
static rig* load(const char* path, char* text, const rig_module* mods, int nmod, const char* const* sets, int nset,
                 rig_params* params, mt_err* e) {
  lua_State* L = luabox_new(NULL);
  if (!L) {
    free(text);
    mt_fail(e, MT_EINTERNAL, "cannot create a Lua state");
    return NULL;
  }
  for (int i = 0; i < nmod; i++) luabox_add_module_text(L, mods[i].name, mods[i].text);
  if (text) luabox_seal(L);   /* a rig given as text (a take's): its modules are given too */
  char* src = text;
  rig* r = NULL;
  if (!text) {
    if (luabox_run_file(L, path, 1, &src, e)) goto fail;
  } else {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char* sl = strrchr(dir, '/');
    if (sl) {
      *sl = 0;
      luabox_add_path(L, dir);
    }
    if (luabox_run(L, text, strlen(text), path, 1, e)) goto fail;
  }
  lb_scope top = {.file = path, .src = src};
  if (!lua_istable(L, -1)) {
    mt_fail(e, MT_EINPUT, "%s: a rig file must return a table", path);
    goto fail;
  }
  /* --set: keys present in the file's table first (so `spring.c` still feeds c_comp and c_reb);
   * the others after a first pass has written every preset field and default into the table. */
  {
    int ndefer = 0;
    const char** defer = mt_alloc(sizeof(char*) * (nset + 1));
    int rc = MT_OK;
    for (int i = 0; i < nset && !rc; i++) {
      int k = apply_set(L, path, sets[i], 1, e);
      if (k == -1) defer[ndefer++] = sets[i];
      else rc = k;
    }
    if (!rc && (ndefer || params)) {
      int base = lua_gettop(L);
      rig* tmp = mt_alloc(sizeof *tmp);
      lb_scope ft = top;
      ft.fill = 1;
      rc = parse(L, tmp, &ft, path, e);
      free(tmp);
      lua_settop(L, base);
    }
    for (int i = 0; i < ndefer && !rc; i++) rc = apply_set(L, path, defer[i], 0, e);
    free(defer);
    if (rc) goto fail;
  }
  r = mt_alloc(sizeof *r);
  r->path = mt_strdup(path);
  r->source = src;
  src = NULL;
  if (parse(L, r, &top, path, e)) goto fail;
  if (params) collect_params(L, params);
  {
    /* keep every module the rig required, so a take can rebuild it from its own copy */
    int n;
    const luabox_source* ls = luabox_sources(L, &n);
    r->modules = mt_alloc(sizeof(rig_module) * (n + nmod + 1));
    for (int i = 0; i < nmod; i++) {
      r->modules[r->nmodule].name = mt_strdup(mods[i].name);
      r->modules[r->nmodule].text = mt_strdup(mods[i].text);
      r->nmodule++;
    }
    for (int i = 0; i < n; i++) {
      r->modules[r->nmodule].name = mt_strdup(ls[i].name);
      r->modules[r->nmodule].text = mt_strdup(ls[i].text);
      r->nmodule++;
    }
    r->nset = nset;
    r->sets = mt_alloc(sizeof(char*) * (nset + 1));
    for (int i = 0; i < nset; i++) r->sets[i] = mt_strdup(sets[i]);
  }
  luabox_close(L);
  free(src);
  return r;
fail:
  luabox_close(L);
  free(src);
  rig_free(r);
  return NULL;
}

rig* rig_load(const char* path, const char* const* sets, int nset, mt_err* e) {
  return load(path, NULL, NULL, 0, sets, nset, NULL, e);
}

rig* rig_load_text(const char* name, const char* text, const rig_module* mods, int nmod, const char* const* sets,
                   int nset, mt_err* e) {
  return load(name, mt_strdup(text), mods, nmod, sets, nset, NULL, e);
}

void rig_free(rig* r) {
  if (!r) return;
  for (int i = 0; i < r->nmodule; i++) {
    free(r->modules[i].name);
    free(r->modules[i].text);
  }
  free(r->modules);
  for (int i = 0; i < r->nset; i++) free(r->sets[i]);
  free(r->sets);
  free(r->path);
  free(r->source);
  free(r);
}

rig* rig_load_params(const char* path, const char* const* sets, int nset, rig_params* out, mt_err* e) {
  memset(out, 0, sizeof *out);
  rig* r = load(path, NULL, NULL, 0, sets, nset, out, e);
  if (!r) rig_params_free(out);
  return r;
}

void rig_params_free(rig_params* p) {
  free(p->p);
  memset(p, 0, sizeof *p);
}
