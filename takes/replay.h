/* replay.h — rebuilding a take's machine and road from the take alone. */
#ifndef REPLAY_H
#define REPLAY_H

#include "sim/rig.h"
#include "sim/track.h"
#include "takes/takefile.h"

/* The rig (from its embedded text and modules; with the take's overrides when with_overrides)
 * and the track (from its embedded text). MT_OK, or MT_EINPUT naming what is missing. */
int replay_rebuild(const take_reader* r, int with_overrides, rig** rg, track** tk, mt_err* e);

#endif
