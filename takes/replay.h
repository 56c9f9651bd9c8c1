/* replay.h — rebuilding a take's machine and road from the take alone. */
#ifndef REPLAY_H
#define REPLAY_H

#include "sim/rig.h"
#include "sim/track.h"
#include "takes/take_reader.h"

/* The rig (from its embedded text and modules; with the take's overrides when with_overrides)
 * and the track (from its embedded text). MT_OK, or MT_EINPUT naming what is missing. */
int replay_rebuild(const take_reader* r, int with_overrides, rig** rg, track** tk, mt_err* e);
/* The rig alone, as replay_rebuild builds it (the overrides are the ones take_open parsed,
 * take_override_sets). NULL with e set (MT_EINPUT) when the take lacks it or it does not load. */
rig* replay_rig(const take_reader* r, int with_overrides, mt_err* e);

#endif
