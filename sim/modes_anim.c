/* modes_anim.c — see modes_anim.h. */
#include "sim/modes_anim.h"

#include <string.h>
#include <strings.h>

void mode_anim_defaults(mode_anim_opts* o) {
  memset(o, 0, sizeof *o);
  o->cycles = 3;
  o->fps = 30;
}

int mode_anim_check_path(const char* path, mt_err* e) {
  size_t L = path ? strlen(path) : 0;
  const char* x = L ? strrchr(path, '.') : NULL;
  if (!x || (strcasecmp(x, ".glb") && strcasecmp(x, ".gltf") && strcasecmp(x, ".mp4")))
    return mt_fail(e, MT_EINPUT, "modes: --animate: -o %s: use .glb, .gltf or .mp4", path ? path : "");
  return MT_OK;
}

int mode_anim_write(vehicle* v, const md_point* p, const md_mode* m, const mode_anim_opts* o, const char* path, mt_err* e) {
  return mt_fail(e, MT_EINTERNAL, "modes: --animate is not written yet");
}
