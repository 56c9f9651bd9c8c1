/* replay.c — rebuild a take's rig and track from the sources it carries (see replay.h). */
#include "takes/replay.h"

#include <stdlib.h>
#include <string.h>

rig* replay_rig(const take_reader* r, int with_overrides, mt_err* e) {
  const char *rig_name = NULL, *rig_text = NULL;
  rig_module mods[64];
  int nmod = 0;
  for (int i = 0; i < take_nsources(r); i++) {
    const char *k, *nm, *t;
    take_source_at(r, i, &k, &nm, &t);
    if (!strcmp(k, "rig")) rig_name = nm, rig_text = t;
    else if (!strcmp(k, "module") && nmod < 64) mods[nmod++] = (rig_module){(char*)nm, (char*)t};
  }
  if (!rig_text) return mt_fail(e, MT_EINPUT, "the take lacks its rig source"), NULL;
  /* the overrides: the "key=value" list take_open parsed (a take whose list does not parse
   * never opens) */
  const char* const* sets = NULL;
  int nset = with_overrides ? take_override_sets(r, &sets) : 0;
  return rig_load_text(rig_name, rig_text, mods, nmod, sets, nset, e);
}

int replay_rebuild(const take_reader* r, int with_overrides, rig** rg, track** tk, mt_err* e) {
  *rg = NULL;
  *tk = NULL;
  const char *trk_name = NULL, *trk_text = NULL;
  for (int i = 0; i < take_nsources(r); i++) {
    const char *k, *nm, *t;
    take_source_at(r, i, &k, &nm, &t);
    if (!strcmp(k, "track")) trk_name = nm, trk_text = t;
  }
  if (!trk_text) return mt_fail(e, MT_EINPUT, "the take lacks its rig or track source");
  *rg = replay_rig(r, with_overrides, e);
  if (!*rg) return MT_EINPUT;
  *tk = track_load_text(trk_name, trk_text, e);
  if (!*tk) {
    rig_free(*rg);
    *rg = NULL;
    return MT_EINPUT;
  }
  return MT_OK;
}
