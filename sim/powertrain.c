/* powertrain.c — load engine + drivetrain tables from a rig or powertrain file (see powertrain.h). */
#include "sim/powertrain.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A bare name ("engine_gsxr1000") that is not a file names a shipped rig. */
static void resolve(const char* path, char* out, size_t n) {
  snprintf(out, n, "%s", path);
  if (access(path, F_OK) == 0 || strchr(path, '/')) return;
  char cand[4096];
  const char* dot = strrchr(path, '.');
  snprintf(cand, sizeof cand, "%s/rigs/%s%s", luabox_project_root(), path, dot && strcmp(dot, ".lua") == 0 ? "" : ".lua");
  if (access(cand, F_OK) == 0) snprintf(out, n, "%s", cand);
}

int powertrain_load(const char* path, powertrain* pt, mt_err* e) {
  memset(pt, 0, sizeof *pt);
  resolve(path, pt->path, sizeof pt->path);
  lua_State* L = luabox_new(NULL);
  if (!L) return mt_fail(e, MT_EINTERNAL, "cannot create a Lua state");
  char* src = NULL;
  int rc = luabox_run_file(L, pt->path, 1, &src, e);
  if (rc) goto done;
  lb_scope top = {.file = pt->path, .src = src};
  if (!lua_istable(L, -1)) {
    rc = mt_fail(e, MT_EINPUT, "%s: must return a table with an 'engine' table (got %s)", pt->path,
                 luaL_typename(L, -1));
    goto done;
  }
  int pushed;
  if ((rc = lb_table(L, -1, &top, "engine", 0, 1, &pushed, e))) goto done;
  lb_scope es = lb_enter(&top, "engine", 0, "engine");
  rc = engine_params_read(L, -1, &es, &pt->engine, e);
  if (!rc) {
    const char* nm = NULL;
    lua_getfield(L, -1, "name");
    if (lua_type(L, -1) == LUA_TSTRING) nm = lua_tostring(L, -1);
    if (nm) snprintf(pt->name, sizeof pt->name, "%s", nm);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  if (rc) goto done;
  if (!pt->name[0]) {
    const char* b = strrchr(pt->path, '/');
    snprintf(pt->name, sizeof pt->name, "%s", b ? b + 1 : pt->path);
  }
  if ((rc = lb_table(L, -1, &top, "drivetrain", 0, 0, &pushed, e))) goto done;
  if (pushed) {
    lb_scope ds = lb_enter(&top, "drivetrain", 0, "drivetrain");
    rc = drive_params_read(L, -1, &ds, &pt->drive, e);
    lua_pop(L, 1);
    pt->has_drive = rc == MT_OK;
  }
done:
  free(src);
  luabox_close(L);
  return rc;
}
