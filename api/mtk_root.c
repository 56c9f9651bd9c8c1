/* mtk_root.c — the project root for the library: the folder above the bin/ that holds this .so
 * (base/lbpath.h). Rigs named without a path ("sport1000") and a script's rig = "sport1000"
 * resolve there, as they do for bin/mototake beside it; not from /proc/self/exe, which in a
 * Python process is /usr/bin/python3. $MOTOTAKE_ROOT still wins. */
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/lbpath.h"

__attribute__((constructor)) static void library_root(void) {
  Dl_info info;
  char so[PATH_MAX];
  if (!dladdr((void*)library_root, &info) || !info.dli_fname || !realpath(info.dli_fname, so)) return;
  char* s = strrchr(so, '/');   /* …/bin/libmototake.so → …/bin → … */
  if (s) *s = 0;
  s = strrchr(so, '/');
  if (s && !strcmp(s, "/bin")) *s = 0;
  luabox_set_default_root(so);
}
