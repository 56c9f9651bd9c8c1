/* lbpath.c — where the project's user files are, and the names takes record for them (see
 * lbpath.h). */
#include "base/lbpath.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char g_root[4096];
static char g_default[4096];

void luabox_set_default_root(const char* dir) { snprintf(g_default, sizeof g_default, "%s", dir); }

const char* luabox_project_root(void) {
  if (g_root[0]) return g_root;
  const char* env = getenv("MOTOTAKE_ROOT");
  if (env && *env) {
    snprintf(g_root, sizeof g_root, "%s", env);
    return g_root;
  }
  if (g_default[0]) {
    snprintf(g_root, sizeof g_root, "%s", g_default);
    return g_root;
  }
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    /* bin/mototake → the folder above bin/ */
    char* s = strrchr(exe, '/');
    if (s) *s = 0;
    s = strrchr(exe, '/');
    if (s && strcmp(s, "/bin") == 0) *s = 0;
    snprintf(g_root, sizeof g_root, "%s", exe);
  } else {
    snprintf(g_root, sizeof g_root, ".");
  }
  return g_root;
}

const char* luabox_recorded_name(const char* path, char* out, size_t n) {
  char rp[PATH_MAX], rr[PATH_MAX];
  const char* base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (realpath(path, rp) && realpath(luabox_project_root(), rr)) {
    size_t l = strlen(rr);
    if (strncmp(rp, rr, l) == 0 && rp[l] == '/') {
      snprintf(out, n, "%s", rp + l + 1);
      return out;
    }
  }
  snprintf(out, n, "%s", base);
  return out;
}
