/* rig_load.c — a rig from a file or from a take's copy of its text (see rig.h): the sandboxed Lua
 * state, the --set overrides applied in two passes, the table read (sim/rig_read.h), the parameter
 * list (sim/rig_set.h), every required module kept. */
#include "sim/rig.h"

#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/luabox.h"
#include "sim/rig_read.h"
#include "sim/rig_set.h"

void rig_resolve(const char* name, char* out, size_t n) {
  if (strchr(name, '/') || (strlen(name) > 4 && strcmp(name + strlen(name) - 4, ".lua") == 0)) {
    snprintf(out, n, "%s", name);
    return;
  }
  snprintf(out, n, "%s/rigs/%s.lua", luabox_project_root(), name);
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
      int k = rig_set_apply(L, path, sets[i], 1, e);
      if (k == -1) defer[ndefer++] = sets[i];
      else rc = k;
    }
    if (!rc && (ndefer || params)) {
      int base = lua_gettop(L);
      rig* tmp = mt_alloc(sizeof *tmp);
      lb_scope ft = top;
      ft.fill = 1;
      rc = rig_read_table(L, tmp, &ft, path, e);
      free(tmp);
      lua_settop(L, base);
    }
    for (int i = 0; i < ndefer && !rc; i++) rc = rig_set_apply(L, path, defer[i], 0, e);
    free(defer);
    if (rc) goto fail;
  }
  r = mt_alloc(sizeof *r);
  r->path = mt_strdup(path);
  r->source = src;
  src = NULL;
  if (rig_read_table(L, r, &top, path, e)) goto fail;
  if (params) rig_set_collect(L, params);
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
