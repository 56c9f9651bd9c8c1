/* rig_read.c — a rig table read into a rig and checked (see rig_read.h): bodies, joints, springs,
 * shapes, wheels, the shock linkage, steering, aero, payload, contact spheres, controls, engine and
 * drivetrain, in that order, each stage a reader of its own.
 *
 * The reader turns the Lua table into plain C structs and checks every invariant listed in
 * rig.h, so that nothing downstream (the MuJoCo compile, the step, the exporters) ever has to
 * doubt its input. Errors point at the rig file's line, the body or joint, and the field. */
#include "sim/rig_read.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/luabox.h"
#include "base/vec3.h"

/*---- small vector helpers ----*/

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

static const char* const CONTACT_KEYS[] = {"name", "body", "point", "radius", "mu", "k", "c", NULL};

/* contacts = { {name =, body =, point = {x, y, z}, radius =, mu =, k =, c =}, ... } (optional;
 * sim/contact.h says what each sphere does): into r->contacts, bodies looked up by name in r
 * (read before). */
static int read_contacts(lua_State* L, rig* r, const lb_scope* top, mt_err* e) {
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
    rc = lb_check_keys(L, -1, &s, CONTACT_KEYS, e);
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

/*---- the stages of rig_read_table, in the order it runs them ----*/

/* name and timestep */
static int read_header(lua_State* L, rig* r, const lb_scope* top, mt_err* e) {
  const char* name;
  if (lb_str(L, -1, top, "name", 1, NULL, &name, e)) return MT_EINPUT;
  snprintf(r->name, sizeof r->name, "%s", name);
  if (lb_num(L, -1, top, "timestep", 0, 0, 0.001, &r->timestep, e)) return MT_EINPUT;
  if (!(r->timestep >= RIG_TIMESTEP_MIN && r->timestep <= RIG_TIMESTEP_MAX)) {
    lb_fail(top, "timestep", 0, e, "must be within [%g, %g] s, got %g", RIG_TIMESTEP_MIN, RIG_TIMESTEP_MAX, r->timestep);
    return MT_EINPUT;
  }
  return MT_OK;
}

/* bodies = { {...}, ... }: every body with its joints and shapes, then the tree's root: the first
 * body and only it hangs from the world */
static int read_bodies(lua_State* L, rig* r, const lb_scope* top, const char* path, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, top, "bodies", 0, 1, &pushed, e)) return MT_EINPUT;
  int nb = (int)luaL_len(L, -1);
  lb_scope bl = lb_enter(top, "bodies", 0, NULL);
  if (nb < 1 || nb > RIG_MAX_BODIES) {
    lb_fail(top, "bodies", 0, e, "needs 1 to %d bodies, got %d", RIG_MAX_BODIES, nb);
    return MT_EINPUT;
  }
  for (int i = 0; i < nb; i++) {
    int p2;
    if (lb_table(L, -1, &bl, NULL, i + 1, 1, &p2, e)) return MT_EINPUT;
    int rc = read_body(L, r, i, top, path, e);
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
  return MT_OK;
}

/* The machine's named parts: the joints the vehicle looks up by name (steer, fork, swingarm and
 * the wheels' spins required), their bodies, and the joint following each posture set-point. */
static int find_parts(rig* r, const lb_scope* top, mt_err* e) {
  lb_scope bl = lb_enter(top, "bodies", 0, NULL);
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
  return MT_OK;
}

/* wheels = { front = {...}, rear = {...} }; the rear wheel hangs from the swingarm */
static int read_wheels(lua_State* L, rig* r, const lb_scope* top, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, top, "wheels", 0, 1, &pushed, e)) return MT_EINPUT;
  {
    lb_scope ws = lb_enter(top, "wheels", 0, NULL);
    int rc = read_wheel(L, r, &ws, "front", RIG_FRONT, e) || read_wheel(L, r, &ws, "rear", RIG_REAR, e);
    lua_pop(L, 1);
    if (rc) return MT_EINPUT;
  }
  if (r->joint[r->wheel[RIG_REAR].joint].body == r->b_swingarm ||
      r->body[r->wheel[RIG_REAR].body].parent != r->b_swingarm) {
    lb_fail(top, "wheels", 0, e, "rear wheel: its body must hang from the swingarm");
    return MT_EINPUT;
  }
  return MT_OK;
}

/* rear_shock = {...}: the linkage read, then solved over the swingarm's travel */
static int read_rear_shock(lua_State* L, rig* r, const lb_scope* top, mt_err* e) {
  r->linkage.swingarm_joint = r->j_swingarm;
  if (read_linkage(L, r, top, e)) return MT_EINPUT;
  {
    /* The loop must close over the swingarm's whole travel (±0.2 rad: ±110 mm at the axle, more than any bike has). */
    lb_scope ls = lb_enter(top, "rear_shock", 0, "rear_shock");
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
  return MT_OK;
}

/* steering = { lock = rad, k_lock = N·m/rad } (optional) */
static int read_steering(lua_State* L, rig* r, const lb_scope* top, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, top, "steering", 0, 0, &pushed, e)) return MT_EINPUT;
  r->steer_lock = 0.5;
  r->k_steer_lock = 2000;
  if (pushed) {
    lb_scope ss = lb_enter(top, "steering", 0, "steering");
    int rc = lb_num(L, -1, &ss, "lock", 0, 0, 0.5, &r->steer_lock, e) ||
             lb_num(L, -1, &ss, "k_lock", 0, 0, 2000, &r->k_steer_lock, e);
    lua_pop(L, 1);
    if (rc) return MT_EINPUT;
    if (!(r->steer_lock > 0 && r->steer_lock < 1.4)) {
      lb_fail(&ss, "lock", 0, e, "must be within (0, 1.4) rad, got %g", r->steer_lock);
      return MT_EINPUT;
    }
  }
  return MT_OK;
}

/* rider = { height = m, arms = { inertia = kg·m², k = N·m/rad, c = N·m·s/rad } } (optional;
 * absent: a 1.78 m rider, hands off). Each within a human range, so a typo cannot make the
 * steering a rigid or massive body, or the skeleton a giant. */
static int read_rider_arms(lua_State* L, rig* r, const lb_scope* top, mt_err* e) {
  static const char* const known_rider[] = {"height", "arms", NULL};
  static const char* const known_arms[] = {"inertia", "k", "c", NULL};
  memset(&r->arms, 0, sizeof r->arms);
  r->rider_height = 1.78;
  int pushed, pa;
  if (lb_table(L, -1, top, "rider", 0, 0, &pushed, e)) return MT_EINPUT;
  if (!pushed) return MT_OK;
  lb_scope rs = lb_enter(top, "rider", 0, "rider");
  if (lb_check_keys(L, -1, &rs, known_rider, e) || lb_num(L, -1, &rs, "height", 0, 0, 1.78, &r->rider_height, e) ||
      lb_table(L, -1, &rs, "arms", 0, 0, &pa, e)) {
    lua_pop(L, 1);
    return MT_EINPUT;
  }
  if (!(r->rider_height >= 1.4 && r->rider_height <= 2.1)) {
    lb_fail(&rs, "height", 0, e, "must be within [1.4, 2.1] m, got %g", r->rider_height);
    lua_pop(L, 1);
    return MT_EINPUT;
  }
  int rc = MT_OK;
  if (pa) {
    lb_scope as = lb_enter(&rs, "arms", 0, "rider.arms");
    rig_arms* a = &r->arms;
    rc = lb_check_keys(L, -1, &as, known_arms, e) || lb_num(L, -1, &as, "inertia", 0, 0, 0, &a->inertia, e) ||
         lb_num(L, -1, &as, "k", 0, 0, 0, &a->k, e) || lb_num(L, -1, &as, "c", 0, 0, 0, &a->c, e);
    if (!rc && !(a->inertia >= 0 && a->inertia <= 5))
      rc = lb_fail(&as, "inertia", 0, e, "must be within [0, 5] kg·m², got %g", a->inertia);
    if (!rc && !(a->k >= 0 && a->k <= 5000)) rc = lb_fail(&as, "k", 0, e, "must be within [0, 5000] N·m/rad, got %g", a->k);
    if (!rc && !(a->c >= 0 && a->c <= 500)) rc = lb_fail(&as, "c", 0, e, "must be within [0, 500] N·m·s/rad, got %g", a->c);
    if (!rc && r->j_steer < 0 && (a->inertia > 0 || a->k > 0 || a->c > 0))
      rc = lb_fail(&as, NULL, 0, e, "the rig has no steer joint for the arms to act on");
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return rc ? MT_EINPUT : MT_OK;
}

/* aero = { cd_area =, cl_area =, rho =, centre =, posture = {...} } (optional) */
static int read_aero(lua_State* L, rig* r, const lb_scope* top, mt_err* e) {
  int pushed;
  r->aero.rho = 1.2;
  if (lb_table(L, -1, top, "aero", 0, 0, &pushed, e)) return MT_EINPUT;
  if (pushed) {
    lb_scope as = lb_enter(top, "aero", 0, "aero");
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
  return MT_OK;
}

/* engine = {...} and drivetrain = {...} (sim/engine.h, sim/drivetrain.h read them) */
static int read_powertrain(lua_State* L, rig* r, const lb_scope* top, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, top, "engine", 0, 1, &pushed, e)) return MT_EINPUT;
  {
    lb_scope es = lb_enter(top, "engine", 0, "engine");
    int rc = engine_params_read(L, -1, &es, &r->engine, e);
    lua_pop(L, 1);
    if (rc) return MT_EINPUT;
  }
  if (lb_table(L, -1, top, "drivetrain", 0, 1, &pushed, e)) return MT_EINPUT;
  {
    lb_scope ds = lb_enter(top, "drivetrain", 0, "drivetrain");
    int rc = drive_params_read(L, -1, &ds, &r->drive, e);
    lua_pop(L, 1);
    if (rc) return MT_EINPUT;
  }
  return MT_OK;
}

/* Each stage reads one part of the table and checks it against what the stages before it read
 * (the named parts need the bodies, the wheels and the linkage need the named parts, the aero
 * posture needs the posture joints, the contacts need the bodies): the order matters. */
int rig_read_table(lua_State* L, rig* r, const lb_scope* topp, const char* path, mt_err* e) {
  lb_scope top = *topp;
  if (read_header(L, r, &top, e) || read_bodies(L, r, &top, path, e) || read_payload(L, r, &top, e) ||
      find_parts(r, &top, e) || read_wheels(L, r, &top, e) || read_rear_shock(L, r, &top, e) ||
      read_steering(L, r, &top, e) || read_rider_arms(L, r, &top, e) || read_aero(L, r, &top, e) || read_contacts(L, r, &top, e) ||
      controls_read(L, &top, &r->controls, e) || read_powertrain(L, r, &top, e))
    return MT_EINPUT;
  return MT_OK;
}
