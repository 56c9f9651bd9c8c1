/* lesson.c — reading a lesson's render preset (see lesson.h).
 *
 * Stages: ls_find (a name to the preset's path), read_part (one part: keys, files, view, range),
 * ls_load (the file in a small sandbox, the top-level fields, every part). */
#include "app/lesson.h"

#include <dirent.h>
#include <limits.h>
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/lbpath.h"
#include "base/lbread.h"
#include "base/luabox.h"
#include "render/draw.h"

static const char* const TOP_KEYS[] = {"title", "about", "size", "fps", "parts", NULL};
static const char* const PART_KEYS[] = {"ride", "captions", "view", "from", "to", "speed", "overlays", "plot", "span", "hud", NULL};
static const char* const VIEWS[] = {"plan", "track", "side", "rear", "chase", "grid", NULL};
static const char SUFFIX[] = ".render.lua";

static int has_suffix(const char* s, const char* suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && !strcmp(s + a - b, suf);
}

static int lessons_dir(char* out, size_t n) { return snprintf(out, n, "%s/takes/lessons", luabox_project_root()) < (int)n; }

int ls_list(char names[][64], int max) {
  char dir[LS_PATH];
  int k = 0;
  DIR* d = lessons_dir(dir, sizeof dir) ? opendir(dir) : NULL;
  if (!d) return 0;
  for (struct dirent* de; (de = readdir(d)) && k < max;) {
    size_t len = strlen(de->d_name);
    if (de->d_name[0] != '.' && has_suffix(de->d_name, SUFFIX) && len - (sizeof SUFFIX - 1) < 64)
      snprintf(names[k++], 64, "%.*s", (int)(len - (sizeof SUFFIX - 1)), de->d_name);
  }
  closedir(d);
  qsort(names, k, 64, (int (*)(const void*, const void*))strcmp);
  return k;
}

int ls_find(const char* name, char* path, size_t n, mt_err* e) {
  if (has_suffix(name, SUFFIX)) return snprintf(path, n, "%s", name) < (int)n ? MT_OK : mt_fail(e, MT_EINPUT, "render: --lesson: path too long");
  int ok = *name && strlen(name) < 64;
  for (const char* p = name; *p && ok; p++) ok = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
  char dir[LS_PATH];
  struct stat st;
  if (ok && lessons_dir(dir, sizeof dir) && snprintf(path, n, "%s/%s%s", dir, name, SUFFIX) < (int)n && !stat(path, &st) &&
      S_ISREG(st.st_mode))
    return MT_OK;
  char names[32][64], list[32 * 66] = "";
  int k = ls_list(names, 32);
  for (int i = 0; i < k; i++) snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
  return mt_fail(e, MT_EINPUT, "render: --lesson: no lesson '%.64s' (the lessons: %s; or a path to a NAME%s)", name, list, SUFFIX);
}

/* A file named by the preset: relative to the preset's folder, and a regular file. A preset is a
 * stranger's: an absolute path is refused so that it names files beside it, not anywhere. */
static int read_file_field(lua_State* L, const lb_scope* s, const char* dir, const char* f, int required, char* out, mt_err* e) {
  const char* v;
  if (lb_str(L, -1, s, f, required, "", &v, e)) return MT_EINPUT;
  *out = 0;
  if (!*v && !required) return MT_OK;
  if (!*v || *v == '/') return lb_fail(s, f, 0, e, "a path relative to the lesson's folder, got '%.80s'", v);
  for (const char* p = v; *p; p++)
    if ((unsigned char)*p < 0x20) return lb_fail(s, f, 0, e, "has a control character");
  struct stat st;
  if (snprintf(out, LS_PATH, "%s/%s", dir, v) >= LS_PATH) return lb_fail(s, f, 0, e, "too long");
  if (stat(out, &st) || !S_ISREG(st.st_mode)) return lb_fail(s, f, 0, e, "no such file: %.200s", out);
  char real[PATH_MAX];   /* messages name takes/countersteer.lua's real place, not lessons/../ */
  if (realpath(out, real) && strlen(real) < LS_PATH) memcpy(out, real, strlen(real) + 1);
  return MT_OK;
}

/* A short text field (view, overlays, plot) into out[n]. */
static int read_word(lua_State* L, const lb_scope* s, const char* f, const char* dflt, char* out, size_t n, mt_err* e) {
  const char* v;
  if (lb_str(L, -1, s, f, 0, dflt, &v, e)) return MT_EINPUT;
  if (strlen(v) >= n) return lb_fail(s, f, 0, e, "longer than %zu bytes", n - 1);
  snprintf(out, n, "%s", v);
  return MT_OK;
}

static int read_range(lua_State* L, const lb_scope* s, ls_part* p, mt_err* e) {
  if (lb_num(L, -1, s, "from", 0, 0, 0, &p->from, e) || lb_num(L, -1, s, "to", 0, 0, -1, &p->to, e) ||
      lb_num(L, -1, s, "speed", 0, 0, 1, &p->speed, e) || lb_num(L, -1, s, "span", 0, 0, 0, &p->span, e) ||
      lb_bool(L, -1, s, "hud", 0, 1, &p->hud, e))
    return MT_EINPUT;
  if (p->from < 0) return lb_fail(s, "from", 0, e, "must be ≥ 0 s (take time), got %g", p->from);
  if (p->to != -1 && !(p->to > p->from)) return lb_fail(s, "to", 0, e, "must be after from (%g s), got %g", p->from, p->to);
  if (!(p->speed >= 0.25 && p->speed <= 4)) return lb_fail(s, "speed", 0, e, "must be within 0.25..4, got %g", p->speed);
  if (p->span && !(p->span >= 5 && p->span <= 100000)) return lb_fail(s, "span", 0, e, "must be within 5..100000 m, got %g", p->span);
  return MT_OK;
}

static int read_part(lua_State* L, const lb_scope* top, const char* dir, int i, ls_part* p, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, top, NULL, i, 1, &pushed, e)) return MT_EINPUT;
  char lab[32];
  snprintf(lab, sizeof lab, "part %d", i);
  lb_scope s = lb_enter(top, NULL, i, lab);
  memset(p, 0, sizeof *p);
  p->src_line = lb_line(top->src, (lb_key[]){{"parts", 0}, {NULL, i}}, 2);
  int rc = lb_check_keys(L, -1, &s, PART_KEYS, e) || read_file_field(L, &s, dir, "ride", 1, p->ride, e) ||
           read_file_field(L, &s, dir, "captions", 0, p->captions, e) || read_word(L, &s, "view", "chase", p->view, sizeof p->view, e) ||
           read_word(L, &s, "overlays", "", p->overlays, sizeof p->overlays, e) || read_word(L, &s, "plot", "", p->plot, sizeof p->plot, e) ||
           read_range(L, &s, p, e);
  int known = 0;
  for (int k = 0; VIEWS[k] && !rc; k++) known |= !strcmp(p->view, VIEWS[k]);
  if (!rc && !known) rc = lb_fail(&s, "view", 0, e, "unknown view '%s' (plan, track, side, rear, chase, grid)", p->view);
  lua_pop(L, 1);
  return rc ? MT_EINPUT : MT_OK;
}

static int read_top(lua_State* L, const lb_scope* top, ls_lesson* l, mt_err* e) {
  const char *title, *about, *size;
  if (lb_check_keys(L, -1, top, TOP_KEYS, e) || lb_str(L, -1, top, "title", 1, NULL, &title, e) ||
      lb_str(L, -1, top, "about", 0, "", &about, e) || lb_str(L, -1, top, "size", 0, "1280x720", &size, e) ||
      lb_num(L, -1, top, "fps", 0, 0, 30, &l->fps, e))
    return MT_EINPUT;
  if (!*title || strlen(title) >= sizeof l->title) return lb_fail(top, "title", 0, e, "1 to %zu bytes", sizeof l->title - 1);
  if (strlen(about) >= sizeof l->about) return lb_fail(top, "about", 0, e, "at most %zu bytes", sizeof l->about - 1);
  for (const char* p = about; *p; p++)
    if ((unsigned char)*p < 0x20) return lb_fail(top, "about", 0, e, "has a control character");
  snprintf(l->title, sizeof l->title, "%s", title);
  snprintf(l->about, sizeof l->about, "%s", about);
  if (draw_parse_size(size, &l->W, &l->H) || l->W % 2 || l->H % 2)
    return lb_fail(top, "size", 0, e, "expected WxH, even, each within 64..8192, got '%.40s'", size);
  if (!(l->fps >= 1 && l->fps <= 120)) return lb_fail(top, "fps", 0, e, "must be within 1..120, got %g", l->fps);
  return MT_OK;
}

static int read_parts(lua_State* L, const lb_scope* top, const char* dir, ls_lesson* l, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, top, "parts", 0, 1, &pushed, e)) return MT_EINPUT;
  lb_scope ps = lb_enter(top, "parts", 0, NULL);
  int n = (int)luaL_len(L, -1), rc = MT_OK;
  if (n < 1 || n > LS_MAX_PART) rc = lb_fail(top, "parts", 0, e, "needs 1 to %d parts, got %d", LS_MAX_PART, n);
  for (int i = 0; i < n && !rc; i++) rc = read_part(L, &ps, dir, i + 1, &l->part[i], e);
  l->nparts = n;
  lua_pop(L, 1);
  return rc;
}

int ls_load(const char* path, ls_lesson* l, mt_err* e) {
  memset(l, 0, sizeof *l);
  snprintf(l->path, sizeof l->path, "%s", path);
  const char* base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  snprintf(l->name, sizeof l->name, "%.*s", (int)(strlen(base) - (has_suffix(base, SUFFIX) ? sizeof SUFFIX - 1 : 0)), base);
  char dir[LS_PATH];
  snprintf(dir, sizeof dir, "%.*s", base > path ? (int)(base - path - 1) : 1, base > path ? path : ".");
  if (!*dir) snprintf(dir, sizeof dir, "/");
  /* a preset is a small table: a small box, so a hostile file fails fast */
  luabox_limits lim = {.mem_bytes = 32u << 20, .instructions = 20000000, .seconds = 2};
  lua_State* L = luabox_new(&lim);
  char* src = NULL;
  int rc = luabox_run_file(L, path, 1, &src, e) ? MT_EINPUT : MT_OK;
  lb_scope top = {.file = path, .src = src};
  if (!rc && !lua_istable(L, -1))
    rc = mt_fail(e, MT_EINPUT, "%s: a lesson returns a table ({ title = \"...\", parts = { { ride = \"x.lua\", ... } } })", path);
  if (!rc) rc = read_top(L, &top, l, e) || read_parts(L, &top, dir, l, e);
  free(src);
  luabox_close(L);
  return rc ? (e->code ? e->code : MT_EINPUT) : MT_OK;
}
