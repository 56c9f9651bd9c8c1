/* replay.h — rebuilding a take's machine and road from the take alone.
 *
 * Contract. A take carries its sources: the rig's text and its modules, the take's overrides
 * (meta overrides, as take_open parsed and checked them) and the track's text. These functions
 * load them through the Lua sandbox (base/luabox.h) as the recording program did, never a file of
 * this machine, so a take replays the same anywhere. They sit above the take reader
 * (takes/take_reader.h), which never builds a machine; take_replay.h, verify.h, the exporters and
 * the renderer call them. The caller owns and frees what they return. */
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
