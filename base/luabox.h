/* luabox.h — the sandboxed Lua 5.4 every user file runs in (tracks, rigs, take scripts).
 *
 * A box has: base (without dofile, loadfile, and with load restricted to text chunks),
 * string (without dump), table, math (seeded to a fixed value, so scripts are reproducible),
 * utf8, our own modules (`units`, and whatever a consumer registers), and a `require` that
 * only finds built-in modules and .lua files under the project's search path. Memory is
 * capped by the allocator (counting malloc's overhead and realloc's copies, so the cap bounds
 * real memory); an instruction-count hook that also checks a wall-clock deadline stops scripts
 * that never finish. A limit, once hit, cannot be swallowed: the box's pcall/xpcall re-raise it
 * and the hook raises it again until the host's call returns. setmetatable refuses __gc
 * (finalizers run with the hook off); string.find/match/gmatch/gsub refuse patterns whose
 * backtracking bound is too large for the string (the C matcher runs without the hook).
 * Results of luabox_run/luabox_pcall are plain copies (no metatables, read raw), so the host
 * reading them with lua_getfield and friends never runs script code.
 *
 * Reading values back (the lb_* readers) is base/lbread.h, and the project root and recorded
 * names are base/lbpath.h: both included here because nearly every user of a box needs them. */
#ifndef LUABOX_H
#define LUABOX_H

#include <lua.h>
#include <stddef.h>
#include "base/lbpath.h"
#include "base/lbread.h"
#include "base/mt.h"

/*---- the box ----*/
typedef struct luabox_limits {
  size_t mem_bytes;        /* allocator cap; 0 = default (256 MiB) */
  long instructions;       /* per protected call; 0 = default (500 million) */
  double seconds;          /* wall-clock limit per protected call; 0 = default (10 s) */
} luabox_limits;

lua_State* luabox_new(const luabox_limits* lim);      /* NULL limits = defaults */
/* Change the defaults boxes made with NULL limits get (fuzz targets use small ones). */
void luabox_set_defaults(const luabox_limits* lim);
void luabox_close(lua_State* L);
/* Add a folder that `require` searches (the project's rigs/, sim/tracks/, takes/, and the
 * folder of the file being run). Only names made of [A-Za-z0-9_] and dots are accepted. */
void luabox_add_path(lua_State* L, const char* dir);
/* Module files `require` read so far (name and full text), in order: a take embeds them so it
 * can be rebuilt without the original files. Valid until luabox_close. */
typedef struct luabox_source { char* name; char* text; } luabox_source;
const luabox_source* luabox_sources(lua_State* L, int* n);
/* Push the box's require (not the global, which a script may have replaced or hidden behind
 * a metatable); call it with luabox_pcall. */
void luabox_push_require(lua_State* L);
/* Serve `require(name)` from this text instead of a file (replaying a take's embedded sources). */
void luabox_add_module_text(lua_State* L, const char* name, const char* text);
/* From now on `require` serves only module texts (and built-ins), never a file: rebuilding a
 * take's rig from its embedded sources reads nothing else (docs/takefile.md). */
void luabox_seal(lua_State* L);
/* Set the instruction budget of the following calls (consumers calling into scripts
 * repeatedly, e.g. per step, give each call a smaller one). */
void luabox_reset_budget(lua_State* L, long instructions);
/* Set the wall-clock limit of the following protected calls. */
void luabox_set_seconds(lua_State* L, double seconds);
/* Run a text chunk; leaves nres results on the stack. chunkname is the file name shown in errors. */
int luabox_run(lua_State* L, const char* src, size_t len, const char* chunkname, int nres, mt_err* e);
/* Read path, register its folder for require, run it; the source text is returned in *src
 * (caller frees) for line lookups, or NULL may be passed. */
int luabox_run_file(lua_State* L, const char* path, int nres, char** src, mt_err* e);
/* lua_pcall with the box's error handling and fresh limits (instructions and seconds); message on
 * failure goes to e. Table results are replaced by plain copies (see above). */
int luabox_pcall(lua_State* L, int nargs, int nres, mt_err* e);

#endif
