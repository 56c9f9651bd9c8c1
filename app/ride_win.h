/* ride_win.h — the ride window of `mototake ride` (module prefix ride_win_), and the headless
 * ride of a list of events; the command (options, session, summary) is app/ride_cmd.c.
 *
 * Contract: both drivers run a ride session the caller opened and recording (takes/ride.h) and
 * leave closing it to the caller, whatever they return; they stop early on SIGINT/SIGTERM once
 * ride_win_catch_signals was called (ride_win_stop_signal then names the signal). The window
 * needs SDL initialised by ride_win_open_display; it draws the chosen view (chase, plan, side;
 * render/views.h), the rubber band, the instruments and the status line at the display's rate,
 * runs every physics step real time asks for (never skipping one), and keeps a temporary take
 * of the machine's start for its views, removed when it returns. Errors: mt_err, one line. */
#ifndef RIDE_WIN_H
#define RIDE_WIN_H

#include "base/mt.h"
#include "takes/ride.h"

/* What the window measured, for the command's summary. */
typedef struct ride_win_stats {
  double hz, rtf, rtf_min, lat_max, lat_sum, frame_max;
  double t_start;           /* wall time when the physics first ran */
  double run_wall;          /* s of wall time the physics was running (not paused, not down) */
  double gap;               /* the ghost's last time gap (NAN: none) */
  long nlat, frames;
} ride_win_stats;

typedef struct ride_win_opts {
  int W, H;                 /* the window's size in pixels */
  const char* ghost;        /* a take to race against, or NULL */
  const char* snapshot;     /* F12's PNG (NULL: ride.png) */
  double bench;             /* s of wall time: hands on at the centre at once, end after it */
  const char* out;
} ride_win_opts;

/* SIGINT and SIGTERM end the ride (the drivers poll it); clears an earlier request. */
/* The instruments' box in a W × H window, {x, y, w, h} (w = 0: no panel, the window is under
 * 700 px wide): right of the views, below the status line, as wide as render makes it
 * (render/views.h rv_hud_width), so that its text, sized by the window's height, fits. */
void ride_win_hud_box(int W, int H, double box[4]);
void ride_win_catch_signals(void);
/* The signal that asked the ride to end, 0 if none. */
int ride_win_stop_signal(void);
/* A monotonic wall clock, s. */
double ride_win_now(void);
/* A display to open the window on and SDL's video and game controllers: MT_EINPUT with the way
 * out (ride a script, or xvfb-run) when there is none. */
int ride_win_open_display(mt_err* e);
/* Without a window: the events of the JSON file `path` ([step, "grab"|"move"|"shift"|"axis"|
 * "restart", a, b], in step order) applied at their steps over `duration` s of simulated time,
 * with the progress bar of simulated seconds (base/progress.h) unless quiet. */
int ride_win_events(ride_session* s, const char* path, double duration, int quiet, mt_err* e);
/* The window's loop until it is closed, Q/Esc, a stop signal, the bench time or an error. */
int ride_window(ride_session* s, const ride_win_opts* wo, ride_win_stats* sb, mt_err* e);

#endif
