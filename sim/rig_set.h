/* rig_set.h — a rig table's numeric parameters by dotted key ("bodies.frame.mass",
 * "wheels.front.tyre.R0", "rear_shock.travel.2"): the --set overrides and the parameter list.
 *
 * Keys: the table's fields joined by dots; an element of an array of named tables may be named
 * by its `name` field instead of its index. Only numbers can be set or listed.
 *
 * rig_set_apply applies one "KEY=VALUE" (VALUE a finite number, base/cli.h's parser) to the rig
 * table at the top of L's stack, leaving the stack as found. MT_OK; with quiet, −1 when the key
 * is not a numeric field of the table (nothing reported: the loader retries it once defaults
 * are filled in); else MT_EINPUT naming the key and its five nearest keys.
 *
 * rig_set_collect appends every numeric leaf of the table at the top of the stack (read after
 * rig_read_table filled the defaults in) to out, with its unit, sorted by key; out grows as
 * needed and is the caller's (rig_params_free). */
#ifndef RIG_SET_H
#define RIG_SET_H

#include <lua.h>

#include "sim/rig.h"

int rig_set_apply(lua_State* L, const char* path, const char* kv, int quiet, mt_err* e);
void rig_set_collect(lua_State* L, rig_params* out);

#endif
