/* lesson.h — a lesson's render preset (module prefix ls_): `mototake render --lesson NAME`
 * (app/lesson_cmd.c, docs/render.md "Lessons").
 *
 * A lesson is takes/lessons/NAME.render.lua under the project root (base/lbpath.h), sandboxed Lua
 * returning one table:
 *   { title = "Countersteering", about = "one line for the list", size = "1280x720", fps = 30,
 *     parts = { { ride = "../countersteer.lua", captions = "../captions/countersteer.lua",
 *                 view = "chase", from = 0, to = 20, speed = 1, overlays = "all", plot = "...",
 *                 span = 60, hud = true }, ... } }
 * Parts (1 to LS_MAX_PART) are shown one after the other in one MP4 at one size and rate. Paths
 * are relative to the preset's folder (never absolute: a preset is a stranger's file).
 *
 * Contract: ls_load reads and checks everything the file alone can say (unknown fields, types,
 * ranges, view names, the size, that every named file exists); what needs the take (its end)
 * is checked by the caller against the part's src_line. Every refusal is ONE line
 * "FILE:LINE: part N: field 'x': why" (MT_EINPUT), before anything is written. */
#ifndef LESSON_H
#define LESSON_H

#include "base/mt.h"

#define LS_MAX_PART 4
#define LS_PATH 1024

typedef struct ls_part {
  char ride[LS_PATH];       /* the take script, resolved against the preset's folder */
  char captions[LS_PATH];   /* "" = none */
  char view[16], overlays[64], plot[256];
  double from, to, speed;   /* take seconds; to < 0: the take's end */
  double span;              /* plan view's metres across (0: default 120) */
  int hud;
  int src_line;             /* the part's line in the preset (messages) */
} ls_part;

typedef struct ls_lesson {
  char path[LS_PATH];       /* the preset file */
  char name[64];            /* NAME (the file's name less ".render.lua") */
  char title[128], about[256];
  int W, H;                 /* default 1280x720 */
  double fps;               /* default 30 */
  ls_part part[LS_MAX_PART];
  int nparts;
} ls_lesson;

/* The preset of lesson `name`: a name of [a-z0-9_] (looked up in takes/lessons/ under the
 * project root), or a path ending in ".render.lua". Unknown: one line listing the lessons. */
int ls_find(const char* name, char* path, size_t n, mt_err* e);
/* Read and check the preset at path into l. */
int ls_load(const char* path, ls_lesson* l, mt_err* e);
/* The shipped lessons' names, sorted, at most max; returns how many. */
int ls_list(char names[][64], int max);

#endif
