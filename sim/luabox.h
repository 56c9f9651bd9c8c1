/* luabox.h — the sandboxed Lua 5.4 every user file runs in (tracks, rigs, take scripts).
 *
 * A box has: base (without dofile, loadfile, and with load restricted to text chunks),
 * string (without dump), table, math (seeded to a fixed value, so scripts are reproducible),
 * utf8, our own modules (`units`, and whatever a consumer registers), and a `require` that
 * only finds built-in modules and .lua files under the project's search path. Memory is
 * capped by the allocator; an instruction-count hook stops scripts that never finish.
 *
 * Reading values back: a user file is a Lua table; lb_* readers fetch a field, check its type
 * and finiteness and, on failure, report "file:line: <scope>: field 'x': why", where the line
 * is found by scanning the source for the table constructor the value came from. */
#ifndef LUABOX_H
#define LUABOX_H

#include <lua.h>
#include <stddef.h>
#include "sim/mt.h"

/*---- the box ----*/
typedef struct luabox_limits {
  size_t mem_bytes;        /* allocator cap; 0 = default (256 MiB) */
  long instructions;       /* per run; 0 = default (500 million) */
} luabox_limits;

lua_State* luabox_new(const luabox_limits* lim);      /* NULL limits = defaults */
void luabox_close(lua_State* L);
/* Add a folder that `require` searches (the project's rigs/, sim/tracks/, takes/, and the
 * folder of the file being run). Only names made of [A-Za-z0-9_] and dots are accepted. */
void luabox_add_path(lua_State* L, const char* dir);
/* Module files `require` read so far (name and full text), in order: a take embeds them so it
 * can be rebuilt without the original files. Valid until luabox_close. */
typedef struct luabox_source { char* name; char* text; } luabox_source;
const luabox_source* luabox_sources(lua_State* L, int* n);
/* Serve `require(name)` from this text instead of a file (replaying a take's embedded sources). */
void luabox_add_module_text(lua_State* L, const char* name, const char* text);
/* Reset the instruction budget (consumers calling into scripts repeatedly, e.g. per step). */
void luabox_reset_budget(lua_State* L, long instructions);
/* Run a text chunk; leaves nres results on the stack. chunkname is the file name shown in errors. */
int luabox_run(lua_State* L, const char* src, size_t len, const char* chunkname, int nres, mt_err* e);
/* Read path, register its folder for require, run it; the source text is returned in *src
 * (caller frees) for line lookups, or NULL may be passed. */
int luabox_run_file(lua_State* L, const char* path, int nres, char** src, mt_err* e);
/* lua_pcall with the box's error handling; message on failure goes to e. */
int luabox_pcall(lua_State* L, int nargs, int nres, mt_err* e);
/* The project root (folder holding rigs/, sim/, takes/), found from the executable's place. */
const char* luabox_project_root(void);

/*---- locating a value's line in the source ----*/
typedef struct lb_key {
  const char* name;   /* named field, or NULL */
  int index;          /* positional index (1-based), or 0 */
} lb_key;

/* Line of the constructor element at keys[0..n) in src, or the nearest enclosing line found;
 * 0 if nothing matched. Works for literal tables; for generated ones it falls back outward. */
int lb_line(const char* src, const lb_key* keys, int n);

/*---- typed readers with located errors ----*/
typedef struct lb_scope {
  const char* file;    /* shown in messages */
  const char* src;     /* source text, may be NULL (then no line) */
  lb_key path[8];      /* where the current table sits in the returned table */
  int depth;
  const char* label;   /* e.g. "segment 3"; NULL for the top level */
  int fill;            /* readers write each absent optional field's default back into its table
                          (rig_load's first pass, so every parameter can be --set and listed) */
} lb_scope;

/* Report an error about `field` (pos = its positional index or 0) in scope s. Returns MT_EINPUT. */
int lb_fail(const lb_scope* s, const char* field, int pos, mt_err* e, const char* fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Number field (or positional element pos when field is absent). required: missing is an error;
 * otherwise *out = dflt (and, when s->fill, dflt is stored into the table under field).
 * Non-numbers, NaN and inf are errors. */
int lb_num(lua_State* L, int t, const lb_scope* s, const char* field, int pos, int required,
           double dflt, double* out, mt_err* e);
/* String field; the pointer is into Lua memory, valid while the value stays on the stack or in the table. */
int lb_str(lua_State* L, int t, const lb_scope* s, const char* field, int required, const char* dflt,
           const char** out, mt_err* e);
int lb_bool(lua_State* L, int t, const lb_scope* s, const char* field, int required, int dflt,
            int* out, mt_err* e);
/* Push a table field (or positional element) and return 1; 0 if absent (nothing pushed) when
 * not required; error if present but not a table. */
int lb_table(lua_State* L, int t, const lb_scope* s, const char* field, int pos, int required,
             int* pushed, mt_err* e);
/* A child scope for entering field/pos, with its label. */
lb_scope lb_enter(const lb_scope* s, const char* field, int pos, const char* label);
/* Reject keys of table t that are not in known (NULL-terminated) and positional elements:
 * a misspelt optional field must not pass silently. "file:line: scope: field 'x': unknown field". */
int lb_check_keys(lua_State* L, int t, const lb_scope* s, const char* const* known, mt_err* e);

#endif
