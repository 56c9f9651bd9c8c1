/* lbread.c — reading user tables back out of the box: the line locator and the typed readers
 * (see lbread.h). Text and Lua stack only: nothing here touches the sandbox's state. */
#include "base/lbread.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*---- locating lines: a small Lua tokenizer that follows table constructors ----*/

typedef struct tok {
  int kind;          /* 'n' name, '#' number, 's' string, or the punctuation char; 0 = end */
  const char* p;     /* start in source */
  int len;
  int line;
} tok;

typedef struct lexer {
  const char* s;
  int line;
} lexer;

static int long_bracket(const char* s) { /* returns level+1 if s starts "[" "="* "[" */
  if (*s != '[') return 0;
  int lvl = 0;
  s++;
  while (*s == '=') { lvl++; s++; }
  return *s == '[' ? lvl + 1 : 0;
}

static const char* skip_long(lexer* x, const char* s, int lvl) {
  /* s points after the opening bracket */
  for (; *s; s++) {
    if (*s == '\n') x->line++;
    if (*s == ']') {
      const char* q = s + 1;
      int l = 0;
      while (*q == '=') { l++; q++; }
      if (*q == ']' && l == lvl) return q + 1;
    }
  }
  return s;
}

static tok next_tok(lexer* x) {
  const char* s = x->s;
  for (;;) {
    while (*s && isspace((unsigned char)*s)) {
      if (*s == '\n') x->line++;
      s++;
    }
    if (s[0] == '-' && s[1] == '-') {
      s += 2;
      int lb = long_bracket(s);
      if (lb) {
        s = skip_long(x, s + lb + 1, lb - 1);
      } else {
        while (*s && *s != '\n') s++;
      }
      continue;
    }
    break;
  }
  tok t = {0, s, 0, x->line};
  if (!*s) { x->s = s; return t; }
  if (isalpha((unsigned char)*s) || *s == '_') {
    while (isalnum((unsigned char)*s) || *s == '_') s++;
    t.kind = 'n';
  } else if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
    while (isalnum((unsigned char)*s) || *s == '.' ||
           ((*s == '+' || *s == '-') && (s[-1] == 'e' || s[-1] == 'E' || s[-1] == 'p' || s[-1] == 'P')))
      s++;
    t.kind = '#';
  } else if (*s == '"' || *s == '\'') {
    char q = *s++;
    while (*s && *s != q) {
      if (*s == '\\' && s[1]) {
        if (s[1] == '\n') x->line++;
        s++;
      } else if (*s == '\n') {
        x->line++;
      }
      s++;
    }
    if (*s) s++;
    t.kind = 's';
  } else if (long_bracket(s)) {
    int lb = long_bracket(s);
    s = skip_long(x, s + lb + 1, lb - 1);
    t.kind = 's';
  } else if (s[0] == '=' && s[1] == '=') {
    s += 2;
    t.kind = 'E';
  } else {
    t.kind = *s++;
  }
  t.len = (int)(s - t.p);
  x->s = s;
  return t;
}

/* One open table constructor while scanning. */
typedef struct ctor {
  int pos;            /* positional counter */
  int paren;          /* nesting of ( and [ and non-constructor { inside the current element */
  int elem_start;     /* next token starts an element */
  char key[64];       /* named key of the current element, "" if positional */
  int key_index;      /* [n]= index key, 0 if none */
  int cur_index;      /* positional index of the current element (0 if named) */
  int elem_line;      /* line where the current element began */
} ctor;

static int key_matches(const lb_key* k, const ctor* c) {
  if (c->key[0]) return k->name && strcmp(k->name, c->key) == 0;
  int idx = c->key_index ? c->key_index : c->cur_index;
  return k->index && idx == k->index;
}

int lb_line(const char* src, const lb_key* keys, int n) {
  if (!src) return 0;
  lexer x = {src, 1};
  ctor st[64];
  int depth = 0;           /* open constructors */
  /* match[d] = how many leading keys the constructor at depth d matches (-1: none). */
  int match[64];
  int best_line = 0, best_score = -1;
  tok prev = {0};
  tok t = next_tok(&x);
  while (t.kind) {
    tok nx = next_tok(&x);
    ctor* c = depth ? &st[depth - 1] : NULL;
    if (c && c->paren == 0 && c->elem_start && t.kind != '}') {
      /* beginning of an element: named key? */
      c->elem_start = 0;
      c->key[0] = 0;
      c->key_index = 0;
      c->cur_index = 0;
      c->elem_line = t.line;
      if (t.kind == 'n' && nx.kind == '=') {
        snprintf(c->key, sizeof c->key, "%.*s", t.len, t.p);
      } else if (t.kind == '[' && (nx.kind == '#' || nx.kind == 's')) {
        /* [n] = or ["k"] = : peek is limited, so record and let ']' '=' confirm loosely */
        if (nx.kind == '#') c->key_index = atoi(nx.p);
        else snprintf(c->key, sizeof c->key, "%.*s", nx.len > 2 ? nx.len - 2 : 0, nx.p + 1);
      } else {
        c->cur_index = ++c->pos;
      }
      /* Does this element extend a matched path? */
      int m = match[depth - 1];
      if (m >= 0 && m < n && key_matches(&keys[m], c)) {
        int score = m + 1;
        if (score > best_score) { best_score = score; best_line = t.line; }
      }
    }
    if (t.kind == '{') {
      if (c && c->paren > 0) {
        c->paren++;   /* a constructor inside an expression (call argument): not an element */
      } else if (depth < 64) {
        int m = 0;
        if (c) {
          int pm = match[depth - 1];
          m = (pm >= 0 && pm < n && key_matches(&keys[pm], c)) ? pm + 1 : -1;
        } else if (best_score < 0) {
          best_score = 0;   /* any top-level constructor may be the returned table */
          best_line = t.line;
        }
        ctor nc = {0};
        nc.elem_start = 1;
        st[depth] = nc;
        match[depth] = m;
        depth++;
      }
    } else if (t.kind == '}') {
      if (c && c->paren > 0) c->paren--;
      else if (depth > 0) depth--;
    } else if (c && (t.kind == '(' || t.kind == '[')) {
      c->paren++;
    } else if (c && (t.kind == ')' || t.kind == ']')) {
      if (c->paren > 0) c->paren--;
    } else if (c && c->paren == 0 && (t.kind == ',' || t.kind == ';')) {
      c->elem_start = 1;
    }
    prev = t;
    t = nx;
  }
  (void)prev;
  return best_line;
}

/*---- typed readers ----*/

static void scope_keys(const lb_scope* s, lb_key* keys, int* n, const char* field, int pos) {
  *n = 0;
  for (int i = 0; i < s->depth && i < 8; i++) keys[(*n)++] = s->path[i];
  if (field || pos) {
    keys[*n].name = field;
    keys[*n].index = pos;
    (*n)++;
  }
}

static int scope_line(const lb_scope* s, const char* field, int pos) {
  lb_key keys[10];
  int n;
  if (!s->src) return 0;
  /* Try the named key first, then the positional element. */
  if (field) {
    scope_keys(s, keys, &n, field, 0);
    int l = lb_line(s->src, keys, n);
    lb_key k2[10];
    int n2;
    scope_keys(s, k2, &n2, NULL, 0);
    int base = lb_line(s->src, k2, n2);
    if (pos) {
      scope_keys(s, keys, &n, NULL, pos);
      int lp = lb_line(s->src, keys, n);
      if (lp > l) l = lp;
    }
    return l > base ? l : base;
  }
  scope_keys(s, keys, &n, NULL, pos);
  return lb_line(s->src, keys, n);
}

int lb_fail(const lb_scope* s, const char* field, int pos, mt_err* e, const char* fmt, ...) {
  char why[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  int line = scope_line(s, field, pos);
  char where[300] = "";
  if (line > 0) snprintf(where, sizeof where, "%s:%d: ", s->file, line);
  else snprintf(where, sizeof where, "%s: ", s->file);
  char fld[100] = "";
  if (field) snprintf(fld, sizeof fld, "field '%s': ", field);
  else if (pos) snprintf(fld, sizeof fld, "element %d: ", pos);
  return mt_fail(e, MT_EINPUT, "%s%s%s%s%s", where, s->label ? s->label : "", s->label ? ": " : "", fld, why);
}

/* Push field (or positional pos) of table t; returns the Lua type pushed. */
static int push_field(lua_State* L, int t, const char* field, int pos) {
  t = lua_absindex(L, t);
  if (field) {
    int ty = lua_getfield(L, t, field);
    if (ty != LUA_TNIL || !pos) return ty;
    lua_pop(L, 1);
  }
  if (pos) return lua_geti(L, t, pos);
  lua_pushnil(L);
  return LUA_TNIL;
}

int lb_num(lua_State* L, int t, const lb_scope* s, const char* field, int pos, int required,
           double dflt, double* out, mt_err* e) {
  t = lua_absindex(L, t);
  int ty = push_field(L, t, field, pos);
  if (ty == LUA_TNIL) {
    lua_pop(L, 1);
    if (required) return lb_fail(s, field, pos, e, "missing (a number is required)");
    *out = dflt;
    if (s->fill && field) {
      lua_pushnumber(L, dflt);
      lua_setfield(L, t, field);
    }
    return MT_OK;
  }
  if (ty != LUA_TNUMBER) {
    const char* tn = lua_typename(L, ty);
    lua_pop(L, 1);
    return lb_fail(s, field, pos, e, "expected a number, got %s", tn);
  }
  double v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  if (!mt_isfinite(v)) return lb_fail(s, field, pos, e, "must be finite, got %g", v);
  *out = v;
  return MT_OK;
}

int lb_str(lua_State* L, int t, const lb_scope* s, const char* field, int required, const char* dflt,
           const char** out, mt_err* e) {
  int ty = push_field(L, t, field, 0);
  if (ty == LUA_TNIL) {
    lua_pop(L, 1);
    if (required) return lb_fail(s, field, 0, e, "missing (a string is required)");
    *out = dflt;
    return MT_OK;
  }
  if (ty != LUA_TSTRING) {
    const char* tn = lua_typename(L, ty);
    lua_pop(L, 1);
    return lb_fail(s, field, 0, e, "expected a string, got %s", tn);
  }
  *out = lua_tostring(L, -1);   /* the table keeps the string alive */
  lua_pop(L, 1);
  return MT_OK;
}

int lb_bool(lua_State* L, int t, const lb_scope* s, const char* field, int required, int dflt,
            int* out, mt_err* e) {
  int ty = push_field(L, t, field, 0);
  if (ty == LUA_TNIL) {
    lua_pop(L, 1);
    if (required) return lb_fail(s, field, 0, e, "missing (true or false is required)");
    *out = dflt;
    return MT_OK;
  }
  if (ty != LUA_TBOOLEAN) {
    const char* tn = lua_typename(L, ty);
    lua_pop(L, 1);
    return lb_fail(s, field, 0, e, "expected true or false, got %s", tn);
  }
  *out = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return MT_OK;
}

int lb_table(lua_State* L, int t, const lb_scope* s, const char* field, int pos, int required,
             int* pushed, mt_err* e) {
  *pushed = 0;
  int ty = push_field(L, t, field, pos);
  if (ty == LUA_TNIL) {
    lua_pop(L, 1);
    if (required) return lb_fail(s, field, pos, e, "missing (a table is required)");
    return MT_OK;
  }
  if (ty != LUA_TTABLE) {
    const char* tn = lua_typename(L, ty);
    lua_pop(L, 1);
    return lb_fail(s, field, pos, e, "expected a table, got %s", tn);
  }
  *pushed = 1;
  return MT_OK;
}

lb_scope lb_enter(const lb_scope* s, const char* field, int pos, const char* label) {
  lb_scope c = *s;
  if (c.depth < 8) {
    c.path[c.depth].name = field;
    c.path[c.depth].index = field ? 0 : pos;
    c.depth++;
  }
  c.label = label;
  return c;
}

int lb_check_keys(lua_State* L, int t, const lb_scope* s, const char* const* known, mt_err* e) {
  t = lua_absindex(L, t);
  lua_pushnil(L);
  while (lua_next(L, t)) {
    if (lua_type(L, -2) != LUA_TSTRING) {
      lua_pop(L, 2);
      return lb_fail(s, NULL, 0, e, "unexpected positional element (this table has named fields only)");
    }
    const char* k = lua_tostring(L, -2);
    int ok = 0;
    for (const char* const* q = known; *q && !ok; q++) ok = strcmp(k, *q) == 0;
    if (!ok) {
      char key[64];
      snprintf(key, sizeof key, "%s", k);
      lua_pop(L, 2);
      return lb_fail(s, key, 0, e, "unknown field");
    }
    lua_pop(L, 1);
  }
  return MT_OK;
}
