/* track_surface.c — the surfaces beyond the tarmac (see track_surface.h). */
#include "sim/track_surface.h"

#include <stdio.h>
#include <string.h>

static const char* const NAMES[SURF_N] = {"tarmac", "kerb", "grass", "gravel"};
static const char* const TOP_KEYS[] = {"kerb", "grass", "gravel", NULL};
static const char* const BAND_KEYS[] = {"width", "grip", "rolling", NULL};
static const char* const RUNOFF_KEYS[] = {"grip", "rolling", NULL};

/* The defaults (docs/tracks.md "Beyond the tarmac" gives their sources). Tarmac's rolling < 0
 * means the tyre's own coefficient: a track on tarmac rides exactly as before surfaces existed. */
static const track_surfaces DEFAULTS = {{
    {0, 1.0, -1},       /* tarmac */
    {1.0, 0.9, 0.02},   /* kerb: painted concrete, ribbed */
    {10, 0.5, 0.08},    /* grass */
    {0, 0.45, 0.3},     /* gravel trap: loose, deep, meant to stop */
}};

const char* track_surface_name(int k) { return k >= 0 && k < SURF_N ? NAMES[k] : "?"; }

/* One surface's optional table: its fields over the defaults, each within its range. */
static int read_one(lua_State* L, const lb_scope* top, int k, track_surface* s, mt_err* e) {
  int pushed;
  if (lb_table(L, -1, top, NAMES[k], 0, 0, &pushed, e)) return MT_EINPUT;
  if (!pushed) return MT_OK;
  char lab[32];
  snprintf(lab, sizeof lab, "surface %s", NAMES[k]);
  lb_scope ss = lb_enter(top, NAMES[k], 0, lab);
  int band = k != SURF_GRAVEL, rc = lb_check_keys(L, -1, &ss, band ? BAND_KEYS : RUNOFF_KEYS, e);
  if (!rc && band) rc = lb_num(L, -1, &ss, "width", 0, 0, s->width, &s->width, e);
  if (!rc) rc = lb_num(L, -1, &ss, "grip", 0, 0, s->grip, &s->grip, e);
  if (!rc) rc = lb_num(L, -1, &ss, "rolling", 0, 0, s->rolling, &s->rolling, e);
  if (!rc && !(s->width >= 0 && s->width <= 100)) rc = lb_fail(&ss, "width", 0, e, "must be within 0..100 m, got %g", s->width);
  if (!rc && !(s->grip > 0 && s->grip <= 1.5)) rc = lb_fail(&ss, "grip", 0, e, "must be within (0, 1.5], got %g", s->grip);
  if (!rc && !(s->rolling >= 0 && s->rolling <= 1)) rc = lb_fail(&ss, "rolling", 0, e, "must be within 0..1, got %g", s->rolling);
  lua_pop(L, 1);
  return rc;
}

int track_surfaces_load(lua_State* L, const lb_scope* top, track_surfaces* out, mt_err* e) {
  *out = DEFAULTS;
  int pushed;
  if (lb_table(L, -1, top, "surfaces", 0, 0, &pushed, e)) return MT_EINPUT;
  if (!pushed) return MT_OK;
  lb_scope ss = lb_enter(top, "surfaces", 0, "surfaces");
  int rc = lb_check_keys(L, -1, &ss, TOP_KEYS, e);
  for (int k = SURF_KERB; k < SURF_N && !rc; k++) rc = read_one(L, &ss, k, &out->s[k], e);
  lua_pop(L, 1);
  return rc;
}
