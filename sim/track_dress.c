/* track_dress.c — the track file's kerbs and corner boards (see track_dress.h). */
#include "sim/track_dress.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* const KERB_KEYS[] = {"from", "to", "side", "style", NULL};
static const char* const CORNER_KEYS[] = {"at", "name", "title", "side", NULL};

static int read_side(lua_State* L, const lb_scope* s, int* side, mt_err* e) {
  const char* v;
  if (lb_str(L, -1, s, "side", 1, NULL, &v, e)) return MT_EINPUT;
  if (!strcmp(v, "left")) *side = TRACK_SIDE_LEFT;
  else if (!strcmp(v, "right")) *side = TRACK_SIDE_RIGHT;
  else return lb_fail(s, "side", 0, e, "expected \"left\" or \"right\", got \"%.40s\"", v);
  return MT_OK;
}

/* One station field within [0, length]. */
static int read_station(lua_State* L, const lb_scope* s, const char* f, double length, double* out, mt_err* e) {
  if (lb_num(L, -1, s, f, 0, 1, 0, out, e)) return MT_EINPUT;
  if (!(*out >= 0 && *out <= length))
    return lb_fail(s, f, 0, e, "must be a station within the track, 0 to %.1f m, got %g", length, *out);
  return MT_OK;
}

static int read_kerb(lua_State* L, const lb_scope* s, double length, void* item, mt_err* e) {
  track_kerb* k = item;
  const char* style;
  if (lb_check_keys(L, -1, s, KERB_KEYS, e) || read_station(L, s, "from", length, &k->from, e) ||
      read_station(L, s, "to", length, &k->to, e))
    return MT_EINPUT;
  if (!(k->to > k->from)) return lb_fail(s, "to", 0, e, "must be after from (%g m), got %g", k->from, k->to);
  if (read_side(L, s, &k->side, e) || lb_str(L, -1, s, "style", 0, "rumble", &style, e)) return MT_EINPUT;
  if (strcmp(style, "rumble")) return lb_fail(s, "style", 0, e, "expected \"rumble\", got \"%.40s\"", style);
  return MT_OK;
}

/* A copy of string field f of at most n − 1 characters from `allowed` (NULL: any printable). */
static int read_text(lua_State* L, const lb_scope* s, const char* f, int required, const char* allowed, char* out, size_t n,
                     mt_err* e) {
  const char* v;
  if (lb_str(L, -1, s, f, required, "", &v, e)) return MT_EINPUT;
  size_t l = strlen(v);
  if (l >= n || (required && l == 0)) return lb_fail(s, f, 0, e, "must be 1 to %zu characters, got %zu", n - 1, l);
  for (size_t i = 0; i < l; i++) {
    unsigned char c = (unsigned char)v[i];
    if (allowed ? !strchr(allowed, c) : (c < 32 || c == 127))
      return lb_fail(s, f, 0, e, "character %zu (0x%02x) is not allowed here", i + 1, c);
  }
  memcpy(out, v, l + 1);
  return MT_OK;
}

static int read_corner(lua_State* L, const lb_scope* s, double length, void* item, mt_err* e) {
  track_corner* c = item;
  static const char NAME_CHARS[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  if (lb_check_keys(L, -1, s, CORNER_KEYS, e) || read_station(L, s, "at", length, &c->at, e) ||
      read_text(L, s, "name", 1, NAME_CHARS, c->name, sizeof c->name, e) ||
      read_text(L, s, "title", 0, NULL, c->title, sizeof c->title, e) || read_side(L, s, &c->side, e))
    return MT_EINPUT;
  return MT_OK;
}

typedef int (*item_reader)(lua_State* L, const lb_scope* s, double length, void* item, mt_err* e);

/* The list `field` of at most max items of `size` bytes, each read by `read` into out[i]. */
static int read_list(lua_State* L, const lb_scope* top, const char* field, const char* what, int max, double length,
                     item_reader read, void* out, size_t size, int* n, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, top, field, 0, 0, &pushed, e)) return MT_EINPUT;
  if (!pushed) return MT_OK;
  lb_scope ls = lb_enter(top, field, 0, NULL);
  int len = (int)luaL_len(L, -1), rc = MT_OK;
  if (len > max) rc = lb_fail(top, field, 0, e, "at most %d entries, got %d", max, len);
  for (int i = 0; i < len && !rc; i++) {
    char lab[32];
    snprintf(lab, sizeof lab, "%s %d", what, i + 1);
    int p2;
    if ((rc = lb_table(L, -1, &ls, NULL, i + 1, 1, &p2, e))) break;
    lb_scope is = lb_enter(&ls, NULL, i + 1, lab);
    rc = read(L, &is, length, (char*)out + (size_t)i * size, e);
    lua_pop(L, 1);
    if (!rc) *n = i + 1;
  }
  lua_pop(L, 1);
  return rc;
}

int track_dress_load(lua_State* L, const lb_scope* top, double length, track_dress* d, mt_err* e) {
  memset(d, 0, sizeof *d);
  d->kerb = mt_alloc(TRACK_MAX_KERBS * sizeof *d->kerb);
  d->corner = mt_alloc(TRACK_MAX_CORNERS * sizeof *d->corner);
  if (read_list(L, top, "kerbs", "kerb", TRACK_MAX_KERBS, length, read_kerb, d->kerb, sizeof *d->kerb, &d->nkerb, e) ||
      read_list(L, top, "corners", "corner", TRACK_MAX_CORNERS, length, read_corner, d->corner, sizeof *d->corner,
                &d->ncorner, e)) {
    track_dress_free(d);
    return MT_EINPUT;
  }
  return MT_OK;
}

void track_dress_free(track_dress* d) {
  free(d->kerb);
  free(d->corner);
  memset(d, 0, sizeof *d);
}
