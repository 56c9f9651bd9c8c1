/* dynlib.c — a system library opened on first use (see dynlib.h). */
#include "base/dynlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t dl_mu = PTHREAD_MUTEX_INITIALIZER;

/* Invariant: lib->state changes only under dl_mu, from 0 to 1 or -1, once; the slots are filled
 * before state becomes 1, so a caller that sees 1 sees every slot. */
static void open_locked(dl_lib* lib, const char* soname, const dl_sym* syms, int n) {
  void* h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* m = dlerror();
    snprintf(lib->why, sizeof lib->why, "cannot load %s (%s): %s (make deps installs it)", lib->what, soname, m ? m : "not found");
    lib->state = -1;
    return;
  }
  void* got[64];
  if (n > 64) {
    snprintf(lib->why, sizeof lib->why, "%s: %d names asked, at most 64", lib->what, n);
    lib->state = -1;
    return;
  }
  for (int i = 0; i < n; i++) {
    dlerror();
    got[i] = dlsym(h, syms[i].name);
    if (!got[i]) {
      snprintf(lib->why, sizeof lib->why, "%s (%s) has no %s: not the version mototake was built with (make clean; make)",
               lib->what, soname, syms[i].name);
      lib->state = -1;
      return;   /* h stays open: closing a library some other code may share is not ours to do */
    }
  }
  for (int i = 0; i < n; i++) *syms[i].slot = got[i];
  lib->state = 1;
}

int dl_open(dl_lib* lib, const char* soname, const dl_sym* syms, int n, mt_err* e) {
  pthread_mutex_lock(&dl_mu);
  if (lib->state == 0) open_locked(lib, soname, syms, n);
  int ok = lib->state == 1;
  pthread_mutex_unlock(&dl_mu);
  return ok ? MT_OK : mt_fail(e, MT_EINTERNAL, "%s", lib->why);
}
