/* lbread.h — reading a user file's table back, with errors that point at the line.
 *
 * A user file (track, rig, take script) is a Lua table returned from the box (base/luabox.h);
 * lb_* readers fetch a field, check its type and finiteness and, on failure, report
 * "file:line: <scope>: field 'x': why" (MT_EINPUT), where the line is found by scanning the
 * source for the table constructor the value came from (lb_line: a small tokenizer, no Lua).
 * They read with lua_getfield/lua_geti on the plain copies luabox_pcall returns, so no script
 * code runs; they own nothing (string results point into Lua memory), and they only write into
 * a table when a scope asks for defaults to be filled in (lb_scope.fill). */
#ifndef LBREAD_H
#define LBREAD_H

#include <lua.h>

#include "base/mt.h"

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
