/* replay.c — rebuild a take's rig and track from the sources it carries (see replay.h). */
#include "takes/replay.h"

#include <stdlib.h>
#include <string.h>

int replay_rebuild(const take_reader* r, int with_overrides, rig** rg, track** tk, mt_err* e) {
  *rg = NULL;
  *tk = NULL;
  const char *rig_name = NULL, *rig_text = NULL, *trk_name = NULL, *trk_text = NULL;
  rig_module mods[64];
  int nmod = 0;
  for (int i = 0; i < take_nsources(r); i++) {
    const char *k, *nm, *t;
    take_source_at(r, i, &k, &nm, &t);
    if (!strcmp(k, "rig")) rig_name = nm, rig_text = t;
    else if (!strcmp(k, "track")) trk_name = nm, trk_text = t;
    else if (!strcmp(k, "module") && nmod < 64) mods[nmod++] = (rig_module){(char*)nm, (char*)t};
  }
  if (!rig_text || !trk_text) return mt_fail(e, MT_EINPUT, "the take lacks its rig or track source");
  /* overrides: a JSON list of "key=value" strings */
  char* sets[128];
  int nset = 0;
  const char* p = with_overrides ? take_overrides(r) : NULL;
  while (p && (p = strchr(p, '"')) && nset < 128) {
    const char* q = strchr(p + 1, '"');
    if (!q) break;
    sets[nset] = mt_alloc((size_t)(q - p));
    memcpy(sets[nset], p + 1, (size_t)(q - p - 1));
    nset++;
    p = q + 1;
  }
  *rg = rig_load_text(rig_name, rig_text, mods, nmod, (const char* const*)sets, nset, e);
  for (int i = 0; i < nset; i++) free(sets[i]);
  if (!*rg) return MT_EINPUT;
  *tk = track_load_text(trk_name, trk_text, e);
  if (!*tk) {
    rig_free(*rg);
    *rg = NULL;
    return MT_EINPUT;
  }
  return MT_OK;
}
