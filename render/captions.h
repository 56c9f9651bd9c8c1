/* captions.h — timed text over a rendered take (module prefix cap_): title cards, lower thirds,
 * subtitles and callouts, read from a sidecar file (`mototake render --captions FILE`).
 *
 * The file is sandboxed Lua (base/luabox.h, like rigs and cameras) returning a list of items:
 *   { t0 = 0, t1 = 3, style = "title", text = "Countersteering", line = "push right to go right" }
 * style: "title" (full frame, centred, the frame dimmed), "lower" (a lower third: text and a
 * smaller `line` under it, at the left, just above the subtitles), "subtitle" (bottom centre of
 * the views), "callout" (a label and an arrow pinned to `at`: "front_contact", "rear_contact",
 * "bars", "left_grip", "right_grip", "rider", a body's name, or a world point {x, y, z}; drawn
 * in the side, rear and chase views, a world point also in the plan and track views:
 * render/callouts.h). Shown in exactly the frames whose take time t is in [t0, t1), fading in
 * and out (cap_alpha).
 *
 * An item may follow the take script's marks instead of fixed times: `mark = "push right"`
 * makes t0 and t1 offsets (s) from the time of the take's first mark event of that label, so
 * re-timing the script moves its captions with it.
 *
 * Contract: cap_load reads and checks everything it can from the file alone (types, ranges,
 * unknown fields, the text's length, UTF-8 and control characters) and cap_check what needs
 * the take (its length, its bodies); every refusal is ONE line "FILE:LINE: caption N: field
 * 'x': why" (MT_EINPUT). Drawing goes through draw_text (render/draw.h) only; sizes scale with
 * the frame's height (no text below 3 % of it), so a caption reads the same at any size. */
#ifndef CAPTIONS_H
#define CAPTIONS_H

#include <cairo.h>
#include "base/mt.h"

#define CAP_MAX 256
#define CAP_TEXT 201      /* bytes of text or line, with the terminating 0 */
#define CAP_FADE 0.3      /* s */
#define CAP_FADE_MIN 0.25 /* the opacity a fade starts from and ends at */
#define CAP_BAND 5.0      /* caption units (cap_unit) at the views' bottom that two lines of subtitle take */

enum { CAP_TITLE, CAP_LOWER, CAP_SUB, CAP_CALLOUT, CAP_NSTYLE };
/* Callout targets: named places, a body by name, or a world point. */
enum { CAP_AT_FRONT_CONTACT, CAP_AT_REAR_CONTACT, CAP_AT_BARS, CAP_AT_LEFT_GRIP, CAP_AT_RIGHT_GRIP, CAP_AT_RIDER, CAP_AT_NAMED,
       CAP_AT_BODY = CAP_AT_NAMED, CAP_AT_POINT };

typedef struct cap_item {
  double t0, t1;         /* take time; with `mark`, read as offsets from the mark until cap_check */
  char mark[64];         /* the take's mark (a script event's `mark` label) the times follow, or "" */
  int style;
  char text[CAP_TEXT], line[CAP_TEXT];
  int at;                /* CAP_AT_* (callouts) */
  char body[48];         /* CAP_AT_BODY: the body's name */
  double point[3];       /* CAP_AT_POINT: world, m */
  int src_line;          /* the item's line in the file (messages) */
} cap_item;

struct cap_memo;
typedef struct cap_list {
  char path[1024];
  cap_item* item;
  int n;
  /* The wrapped lines of each item as last laid out (n of them, from cap_load; NULL: nothing
   * kept, every frame wraps afresh). A memo, not state: an entry is used only when the font
   * (toy family, slant, weight), size and width it was wrapped at are the ones asked, so the
   * lines are those cap_wrap would give. Drawing writes it although l is const to it. */
  struct cap_memo* memo;
} cap_list;

/* Read FILE into l (emptied first). On error l is empty and e has the one line. */
int cap_load(const char* path, cap_list* l, mt_err* e);
/* The same from text, named `name` in messages (tests/fuzz/fuzz_captions.c). */
int cap_load_text(const char* name, const char* text, cap_list* l, mt_err* e);
/* Check l against the take and resolve it: an item with `mark` gets the time of the take's
 * first mark of that label (marks[i] at mark_t[i] s, nmark of them) added to its t0 and t1;
 * then every t0 must be ≥ 0 and before the take's end (duration s), every callout body one of
 * names[0..nb). */
int cap_check(cap_list* l, double duration, const char* const* names, int nb, const char* const* marks, const double* mark_t,
              int nmark, mt_err* e);
void cap_free(cap_list* l);
/* How visible item it is at t: 0 outside [t0, t1); inside, 1 but for a linear fade from
 * CAP_FADE_MIN at each end (over CAP_FADE s, or a quarter of the item's length if shorter). */
double cap_alpha(const cap_item* it, double t);
/* 1 if the list has an item of this style. */
int cap_has(const cap_list* l, int style);
/* Text wrapped to a width: lines of at most CAP_TEXT bytes, their advance widths. */
#define CAP_MAX_LINES 4
typedef struct cap_lines {
  char line[CAP_MAX_LINES][CAP_TEXT];
  double w[CAP_MAX_LINES];
  int n;
  double size;
} cap_lines;
/* Greedy wrap of s at spaces into lines no wider than maxw at font size `size` (a word wider
 * than maxw gets a line of its own); the lines after CAP_MAX_LINES are dropped. */
void cap_wrap(cairo_t* cr, const char* s, double size, double maxw, cap_lines* out);
/* The widest line's advance width. */
double cap_lines_width(const cap_lines* a);
/* The font size every caption style derives from: 3 % of the frame height H. */
double cap_unit(double H);
/* Draw the titles, lower thirds and subtitles visible at t: titles over the whole W×H frame,
 * the others inside the views' area (0, 0, vw, vh). */
void cap_draw(cairo_t* cr, const cap_list* l, double t, double W, double H, double vw, double vh);
/* The boxes (x0, y0, x1, y1, frame pixels) the subtitles and lower thirds visible at t take in
 * the views' area, as cap_draw draws them (up to max; returns how many): the views keep their
 * labels out of them (render/labels.h rl_reserve), so that no caption hides a view's text. */
#define CAP_BOXES_MAX 16
int cap_boxes(cairo_t* cr, const cap_list* l, double t, double H, double vw, double vh, double (*out)[4], int max);
/* How many wrapped texts l's memo holds (tests: that the memo was used). */
int cap_memo_kept(const cap_list* l);

#endif
