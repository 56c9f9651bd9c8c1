/* rig_read.h — reading a rig table into a rig, and checking it (the loader's middle stage).
 *
 * Contract. rig_read_table reads the rig table at the top of L's stack (a rig file's result,
 * after --set) into r, field by field, and checks every invariant rig.h lists. It reads, it does
 * not run Lua code (the table is a plain copy, luabox.h). On success the stack is as it was and
 * r is complete except for what the loader owns (path, source, modules, sets: sim/rig_load.c).
 * With top->fill set it also writes every absent optional field's default back into the table,
 * so that the loader can list and override every parameter (sim/rig_set.h). r is caller-owned
 * storage, written in place (it holds no pointers this reader allocates).
 *
 * Errors: MT_EINPUT with one line naming file:line, the body, joint or section, and the field
 * (lb_fail, base/luabox.h); the stack may then hold extra values (the loader closes the state). */
#ifndef RIG_READ_H
#define RIG_READ_H

#include <lua.h>

#include "base/luabox.h"
#include "sim/rig.h"

int rig_read_table(lua_State* L, rig* r, const lb_scope* top, const char* path, mt_err* e);

#endif
