/* ride_win.c — the ride window of `mototake ride` (ride_win.h; the command itself: ride_cmd.c):
 * ride the machine by hand in an SDL2 window drawn with Cairo.
 *
 * The window loop (one thread): poll the window's events and turn them into ride events
 * (takes/ride.h) applied at the next physics step; run as many physics steps as real time asks
 * (never skipping one: a slow machine shows a real-time factor below 1); draw the chosen view
 * (chase, plan or side; render/), the rubber band, the instruments and the status line at the
 * display's rate. The take is recorded as the ride goes (crash-safe chunks, takes/takefile.h)
 * and closed complete on window close, Q/Esc, SIGINT or SIGTERM.
 *
 * Without a window (--events FILE) the same session rides a list of events: tests, lessons and
 * the steering-sensitivity comparison in docs/ride.md. */
#include "app/ride_win.h"
#include "base/dynlib.h"
#include "base/progress.h"

#include <SDL2/SDL.h>
#include <cairo.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "render/chase.h"
#include "render/draw.h"
#include "render/rscene.h"
#include "render/views.h"

/* SDL2 (and the X11, Wayland, sound and D-Bus libraries under it) is opened when a ride opens
 * its window (base/dynlib.h: linked, it cost every command's start). Each slot has the
 * function's own prototype; SDL_BlitSurface is SDL's macro for SDL_UpperBlit. */
#define SDL_FUNCS(X) \
  X(SDL_CreateRGBSurfaceWithFormat) X(SDL_CreateWindow) X(SDL_Delay) X(SDL_DestroyWindow) \
  X(SDL_FreeSurface) X(SDL_GameControllerClose) X(SDL_GameControllerName) X(SDL_GameControllerOpen) \
  X(SDL_GetCurrentDisplayMode) X(SDL_GetError) X(SDL_GetWindowSurface) X(SDL_Init) \
  X(SDL_IsGameController) X(SDL_JoystickAttachVirtualEx) X(SDL_JoystickClose) X(SDL_JoystickOpen) \
  X(SDL_JoystickSetVirtualAxis) X(SDL_NumJoysticks) X(SDL_PollEvent) X(SDL_SetHint) \
  X(SDL_UpdateWindowSurface) X(SDL_UpperBlit)
#define SDL_SYM(f) {#f, (void**)&sdl.f},
static struct {
  SDL_FUNCS(DL_SLOT)
} sdl;
static dl_lib sdl_lib = {"SDL2", 0, ""};

/* SIGINT or SIGTERM asks the ride to end: the loops poll it, the take is then closed complete. */
static volatile sig_atomic_t g_stop;
static void on_signal(int sig) { g_stop = sig; }

void ride_win_catch_signals(void) {
  g_stop = 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

int ride_win_stop_signal(void) { return g_stop; }

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double ride_win_now(void) { return now_s(); }

/*---- headless: a list of events ----*/

/* events file: a JSON list of [step, "grab"|"move"|"shift"|"axis"|"restart", a, b] */
int ride_win_events(ride_session* s, const char* path, double duration, int quiet, mt_err* e) {
  json_error_t je;
  json_t* js = json_load_file(path, 0, &je);
  if (!js) return mt_fail(e, MT_EINPUT, "%s:%d: %s", path, je.line, je.text);
  if (!json_is_array(js)) {
    json_decref(js);
    return mt_fail(e, MT_EINPUT, "%s:1: expected a list of [step, \"event\", a, b]", path);
  }
  size_t n = json_array_size(js);
  ride_event* ev = mt_alloc(sizeof(ride_event) * (n + 1));
  int rc = MT_OK;
  for (size_t i = 0; i < n && !rc; i++) {
    json_int_t step;
    const char* t;
    double a = 0, b = 0;
    if (json_unpack_ex(json_array_get(js, i), &je, 0, "[IsFF!]", &step, &t, &a, &b) &&
        json_unpack_ex(json_array_get(js, i), &je, 0, "[Is!]", &step, &t)) {
      rc = mt_fail(e, MT_EINPUT, "%s: event %zu: expected [step, \"event\", a, b]: %s", path, i + 1, je.text);
      break;
    }
    ev[i].step = (long)step;
    ev[i].type = 0;
    for (int k = 1; k < RIDE_EV_N; k++)
      if (!strcmp(t, ride_event_names[k])) ev[i].type = k;
    ev[i].a = a, ev[i].b = b;
    if (!ev[i].type) rc = mt_fail(e, MT_EINPUT, "%s: event %zu: unknown event '%.40s' (grab, move, shift, axis, restart, recover)", path, i + 1, t);
    else if (step < 0 || (i > 0 && step < ev[i - 1].step))
      rc = mt_fail(e, MT_EINPUT, "%s: event %zu: step %lld is negative or before the previous event's", path, i + 1, (long long)step);
    else if (!(isfinite(a) && isfinite(b) && fabs(a) < 1e6 && fabs(b) < 1e6))
      rc = mt_fail(e, MT_EINPUT, "%s: event %zu: a and b must be finite and below 1e6", path, i + 1);
  }
  json_decref(js);
  long nsteps = (long)ceil(duration / s->rg->timestep - 1e-9);
  size_t k = 0;
  fprog bar;
  fprog_start_sim(&bar, duration, !quiet && !rc);
  long i = 0;
  for (; i < nsteps && !rc && !g_stop && !s->fell; i++) {
    while (k < n && ev[k].step <= i && !rc) {
      rc = ride_event_at(s, ev[k].type, ev[k].a, ev[k].b, e);
      k++;
    }
    if (!rc) rc = ride_step(s, e);
    fprog_tick(&bar, (i + 1) * s->rg->timestep);
  }
  if (!rc) fprog_show(&bar, i * s->rg->timestep);
  fprog_end(&bar);
  if (s->fell) snprintf(s->end, sizeof s->end, "fell over");
  free(ev);
  return rc;
}

/*---- the window ----*/

typedef struct win {
  SDL_Window* w;
  SDL_Surface* surf;        /* ARGB8888, Cairo draws into it */
  cairo_surface_t* cs;
  cairo_t* cr;
  int W, H;
  SDL_GameController* pad;
  SDL_Joystick* vpad;       /* MOTOTAKE_RIDE_VIRTUAL_PAD=1 (tests) */
  /* the views' take: the machine's start, written to a temporary file */
  char still[4096];
  rs_take k;
  rs_state st;
  rv_cache cache;
  chase_scene* chase;
  int has_k;
  /* ghost */
  rs_take gk;
  rs_state gst;
  chase_scene* gchase;
  int has_ghost;
  int c_heading, c_station, c_dist;
  double hx, hy;            /* the chase camera's heading, low-passed */
} win;

enum { VIEW_CHASE, VIEW_PLAN, VIEW_SIDE };
#define TOP 24   /* px, the status line */

static const char* HELP[] = {
    "Middle button: hands on / off the controls (the band's anchor)",
    "Band up: throttle; down (red): brake; full at 200 px, gentle at first",
    "Band right: push the right grip, lean right; left: lean left",
    "Left / right button: shift down / up",
    "1 chase   2 plan   3 side view",
    "Space: pause    R: back on the track (off it or down), else restart from the start's trim",
    "H or F1: this help    F12: snapshot    Q / Esc: end the take",
};

/* The incident banner (takes/incident.h): what the machine is doing that the rider must act on,
 * and the key that acts. 0 none, 1 off track, 2 fell. */
static int banner_kind(const ride_session* s) { return s->fell ? 2 : s->inc.off ? 1 : 0; }

/* Red for a fall, amber off the track: a bar across the top of the views, large type. */
static void draw_banner(cairo_t* cr, const ride_session* s, int W, int H) {
  int k = banner_kind(s);
  if (!k) return;
  char line[160];
  if (k == 2) snprintf(line, sizeof line, "FELL — R: restart on the track at %.0f m", s->inc.last_on_s);
  else snprintf(line, sizeof line, "OFF TRACK — R: back on the track at %.0f m", s->inc.last_on_s);
  double y = TOP + 0.12 * (H - TOP), h = 56;
  cairo_save(cr);
  if (k == 2) cairo_set_source_rgb(cr, 0.78, 0.08, 0.08);
  else cairo_set_source_rgb(cr, 0.95, 0.62, 0.0);
  cairo_rectangle(cr, 0.1 * W, y, 0.8 * W, h);
  cairo_fill(cr);
  cairo_set_source_rgb(cr, k == 2 ? 1 : 0, k == 2 ? 1 : 0, k == 2 ? 1 : 0);
  draw_text(cr, 0.5 * W, y + h / 2, 26, 0.5, 0.5, line);
  cairo_restore(cr);
}

static void draw_band(cairo_t* cr, const ride_hands* h) {
  if (!h->on) return;
  double dx = h->px - h->ax, dy = h->py - h->ay;
  int brake = dy > 0;
  cairo_save(cr);
  cairo_set_line_width(cr, 2.5);
  double dash[2] = {6, 5};
  cairo_set_dash(cr, dash, 2, 0);
  if (brake) cairo_set_source_rgb(cr, 0.9, 0.1, 0.1);
  else cairo_set_source_rgb(cr, 0.1, 0.85, 0.2);
  cairo_move_to(cr, h->ax, h->ay);
  cairo_line_to(cr, h->ax + dx, h->ay + dy);
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
  cairo_arc(cr, h->ax, h->ay, 6, 0, 2 * MT_PI);   /* the knob at the anchor */
  cairo_fill(cr);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_arc(cr, h->px, h->py, 4, 0, 2 * MT_PI);
  cairo_fill(cr);
  cairo_restore(cr);
}

static void text_box(cairo_t* cr, double x, double y, const char* const* lines, int n, double size) {
  cairo_save(cr);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
  double w = 0;
  for (int i = 0; i < n; i++) {
    cairo_text_extents_t te;
    cairo_text_extents(cr, lines[i], &te);
    w = fmax(w, te.x_advance);
  }
  cairo_set_source_rgba(cr, 0, 0, 0, 0.72);
  cairo_rectangle(cr, x, y, w + 24, n * size * 1.5 + 16);
  cairo_fill(cr);
  cairo_set_source_rgb(cr, 1, 1, 1);
  for (int i = 0; i < n; i++) {
    cairo_move_to(cr, x + 12, y + 8 + (i + 1) * size * 1.5 - 0.4 * size);
    cairo_show_text(cr, lines[i]);
  }
  cairo_restore(cr);
}

void ride_win_hud_box(int W, int H, double box[4]) {
  double w = W >= 700 ? rv_hud_width(W, H) : 0;
  box[0] = W - w, box[1] = TOP + 6, box[2] = w, box[3] = H - TOP - 6;
}

static int draw_frame(win* g, ride_session* s, int view, int help, int paused, int started, const ride_win_stats* sb, double gap,
                      mt_err* e) {
  cairo_t* cr = g->cr;
  double t = (s->step - s->start_step) * s->rg->timestep;
  /* the live state into the views' state */
  memcpy(g->st.pose, s->poses, sizeof(double) * 7 * g->k.nb);
  memcpy(g->st.chan, s->ch, sizeof(double) * g->k.s->nchan);
  g->st.t = t;
  double hd0 = s->ch[g->c_heading] * MT_PI / 180;
  rs_rider_live(&g->k, &g->st, cos(hd0), sin(hd0));   /* the rider's skeleton on the live pose */
  if (g->has_ghost && rs_at(&g->gk, fmin(t, g->gk.duration), &g->gst, e)) return e->code;
  int rc = MT_OK;
  double hb[4];
  ride_win_hud_box(g->W, g->H, hb);   /* as render sizes it */
  int hud_w = (int)hb[2], vw = g->W - hud_w;
  if (view == VIEW_CHASE) {
    double hd = s->ch[g->c_heading] * MT_PI / 180;
    g->hx += 0.15 * (cos(hd) - g->hx);
    g->hy += 0.15 * (sin(hd) - g->hy);
    chase_scene_set_live(g->chase, s->poses, g->hx, g->hy, s->ch[g->c_station]);
    cairo_save(cr);
    cairo_translate(cr, 0, TOP);
    rc = chase_draw(g->chase, cr, vw, g->H - TOP, t, g->has_ghost ? g->gchase : NULL, e);   /* the live scene shows its one instant at any t; the ghost its own t */
    cairo_restore(cr);
    if (!rc && g->has_ghost) {   /* the live scene shows one instant; the ghost's own time is t */
      chase_view cv;
      chase_view_at(g->chase, 0, &cv);
      double p[3], px[2];
      chase_root_at(g->gchase, t, p);
      if (chase_project(&cv, vw, g->H - TOP, p, px)) {
        cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
        draw_text(cr, px[0], TOP + px[1] - 60, 13, 0.5, 0, "ghost");
      }
    }
  } else if (view == VIEW_PLAN) {
    rv_plan(cr, &g->cache, &g->k, &g->st, g->has_ghost ? &g->gk : NULL, g->has_ghost ? &g->gst : NULL, 0, TOP, vw, g->H - TOP, 160);
  } else {
    rv_side(cr, &g->k, &g->st, g->has_ghost ? &g->gk : NULL, g->has_ghost ? &g->gst : NULL, 0, TOP, vw, g->H - TOP);
  }
  if (rc) return rc;
  if (hud_w) {
    cairo_set_source_rgb(cr, 0.97, 0.97, 0.97);
    cairo_rectangle(cr, vw, 0, hud_w, g->H);
    cairo_fill(cr);
    rv_hud(cr, &g->k, &g->st, hb[0], hb[1], hb[2], hb[3]);
  }
  draw_band(cr, &s->ctl.h);
  /* the status line */
  char line[512];
  const ride_hands* h = &s->ctl.h;
  double V = s->ch[rec_chan_index("speed")] * 3.6, lean = s->ch[rec_chan_index("lean")];
  int gear = (int)lround(s->ch[rec_chan_index("gear")]);
  int n = snprintf(line, sizeof line,
                   "t %.1f s  %3.0f km/h  gear %d  lean %+5.1f deg  thr %.2f  brake %.2f  torque %+6.1f N·m (%.3f N·m/px)  "
                   "display %.0f Hz  real time x%.2f  latency max %.0f ms",
                   t, V, gear, lean, h->throttle, h->brake, h->torque, h->sens, sb->hz, sb->rtf, sb->lat_max * 1e3);
  if (g->has_ghost && isfinite(gap)) snprintf(line + n, sizeof line - n, "  ghost %+.2f s", gap);
  cairo_set_source_rgb(cr, 0.12, 0.12, 0.12);   /* opaque: the views start below it */
  cairo_rectangle(cr, 0, 0, g->W, TOP);
  cairo_fill(cr);
  cairo_set_source_rgb(cr, 1, 1, 1);
  draw_text(cr, 8, 5, 12, 0, 0, line);
  draw_banner(cr, s, g->W, g->H);
  const char* msg = NULL;
  if (s->fell) msg = NULL;   /* the banner says it */
  else if (!started) msg = "Press the middle button to put your hands on the controls";
  else if (paused) msg = "Paused (Space to go on)";
  else if (!h->on) msg = "Hands off the controls (middle button)";
  if (msg) text_box(cr, 20, g->H - 60, &msg, 1, 16);
  if (help) text_box(cr, 20, 40, HELP, (int)MT_ARRAY_LEN(HELP), 14);
  cairo_surface_flush(g->cs);
  if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
    return mt_fail(e, MT_EINTERNAL, "ride: cairo: %s", cairo_status_to_string(cairo_status(cr)));
  return MT_OK;
}

/* The ghost's time gap: ride time minus the time the ghost reached the same distance. */
static double ghost_gap(const win* g, double t, double dist) {
  const rs_take* k = &g->gk;
  if (k->nhist < 2 || dist <= 0) return NAN;
  for (int i = 1; i < k->nhist; i++) {
    const double* a = k->hist + (size_t)(i - 1) * k->hs;
    const double* b = k->hist + (size_t)i * k->hs;
    if (b[RH_DIST] >= dist && a[RH_DIST] < dist) {
      double u = (dist - a[RH_DIST]) / (b[RH_DIST] - a[RH_DIST]);
      return t - (a[RH_T] + u * (b[RH_T] - a[RH_T]));
    }
  }
  return NAN;
}

static void win_close(win* g) {
  if (g->chase) chase_scene_free(g->chase);
  if (g->gchase) chase_scene_free(g->gchase);
  if (g->has_k) {
    rv_cache_free(&g->cache);
    rs_state_free(&g->st);
    rs_close(&g->k);
  }
  if (g->has_ghost) {
    rs_state_free(&g->gst);
    rs_close(&g->gk);
  }
  if (g->still[0]) unlink(g->still);
  if (g->cr) cairo_destroy(g->cr);
  if (g->cs) cairo_surface_destroy(g->cs);
  if (g->surf) sdl.SDL_FreeSurface(g->surf);
  if (g->pad) sdl.SDL_GameControllerClose(g->pad);
  if (g->vpad) sdl.SDL_JoystickClose(g->vpad);
  if (g->w) sdl.SDL_DestroyWindow(g->w);
  /* No SDL_Quit: it unloads the X11 and D-Bus libraries SDL opened, and the few blocks they keep
   * for the process's life then show up as leaks of unknown modules under LeakSanitizer (named,
   * they are suppressed in tests/lsan.supp). The process ends right after. */
}


/* Before the window: a display to open it on (one clear line otherwise), SDL's video and game
 * controllers. */
int ride_win_open_display(mt_err* e) {
  const char* d = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
  if ((!d || !*d) && (!wl || !*wl))
    return mt_fail(e, MT_EINPUT, "ride: no display (DISPLAY is not set): ride a script with `mototake run SCRIPT.lua -o OUT.take`, "
                                 "or start a virtual display: xvfb-run -a mototake ride ...");
  static const dl_sym syms[] = {SDL_FUNCS(SDL_SYM)};
  if (dl_open(&sdl_lib, MT_SONAME_SDL2, syms, DL_LEN(syms), e)) return e->code;
  sdl.SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
  /* The frames are drawn by Cairo into memory and only blitted: the windowing system's own
   * framebuffer does that. With acceleration, SDL would put a renderer behind the window surface,
   * which on X11 means destroying the window it mapped and mapping a GL-capable one (two ids:
   * input sent to the first one is lost) and, under Xvfb, software GL copying every frame. */
  sdl.SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
  if (sdl.SDL_Init(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER) != 0)
    return mt_fail(e, MT_EINPUT, "ride: no display (SDL: %s): ride a script with `mototake run SCRIPT.lua -o OUT.take`, or start a "
                                 "virtual display: xvfb-run -a mototake ride ...", sdl.SDL_GetError());
  return MT_OK;
}

/*---- the window's loop, stage by stage: open, then per frame poll → physics → present ----*/

/* The views' take (the machine's start, in a temporary file), the chase scenes (and the ghost's),
 * the SDL window with the surface Cairo draws into, and the game controllers. */
static int win_open(win* g, ride_session* s, const ride_win_opts* wo, mt_err* e) {
  int rc = MT_OK;
  const char* tmp = getenv("TMPDIR");
  snprintf(g->still, sizeof g->still, "%s/mototake-ride-%ld.take", tmp && *tmp ? tmp : "/tmp", (long)getpid());
  unlink(g->still);
  if ((rc = ride_write_still(s, g->still, e))) {
    g->still[0] = 0;
    return rc;
  }
  if ((rc = rs_open(&g->k, g->still, NULL, e))) return rc;
  g->has_k = 1;
  rs_state_init(&g->k, &g->st);
  rv_cache_init(&g->cache, &g->k);
  if (!(g->chase = chase_scene_new(g->k.r, "chase", e))) return e->code;
  g->c_heading = rec_chan_index("heading"), g->c_station = rec_chan_index("station"), g->c_dist = rec_chan_index("distance");
  double hd = s->ch[g->c_heading] * MT_PI / 180;
  g->hx = cos(hd), g->hy = sin(hd);
  if (wo->ghost) {
    if ((rc = rs_open(&g->gk, wo->ghost, NULL, e))) return rc;
    g->has_ghost = 1;
    rs_state_init(&g->gk, &g->gst);
    if (!(g->gchase = chase_scene_new(g->gk.r, "chase", e))) return e->code;
  }
  g->w = sdl.SDL_CreateWindow("mototake ride", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, g->W, g->H, SDL_WINDOW_SHOWN);
  if (!g->w) return mt_fail(e, MT_EINTERNAL, "ride: cannot open a window: %s", sdl.SDL_GetError());
  g->surf = sdl.SDL_CreateRGBSurfaceWithFormat(0, g->W, g->H, 32, SDL_PIXELFORMAT_ARGB8888);
  if (!g->surf) return mt_fail(e, MT_EINTERNAL, "ride: SDL surface: %s", sdl.SDL_GetError());
  g->cs = cairo_image_surface_create_for_data(g->surf->pixels, CAIRO_FORMAT_RGB24, g->W, g->H, g->surf->pitch);
  g->cr = cairo_create(g->cs);
  /* For tests (tests/cli/ride.sh): MOTOTAKE_RIDE_VIRTUAL_PAD=1 attaches SDL's virtual game
   * controller, whose stick and triggers the keys J K L (stick left, centre, right by half) and
   * T G (right trigger half, released) move: its events then take SDL's real controller path. */
  const char* vp = getenv("MOTOTAKE_RIDE_VIRTUAL_PAD");
  if (vp && !strcmp(vp, "1")) {
    SDL_VirtualJoystickDesc d;
    memset(&d, 0, sizeof d);
    d.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION;
    d.type = SDL_JOYSTICK_TYPE_GAMECONTROLLER;
    d.naxes = SDL_CONTROLLER_AXIS_MAX;
    d.nbuttons = SDL_CONTROLLER_BUTTON_MAX;
    d.name = "mototake virtual pad";
    int vi = sdl.SDL_JoystickAttachVirtualEx(&d);
    if (vi >= 0 && (g->vpad = sdl.SDL_JoystickOpen(vi))) {
      sdl.SDL_JoystickSetVirtualAxis(g->vpad, SDL_CONTROLLER_AXIS_TRIGGERLEFT, -32768);   /* released */
      sdl.SDL_JoystickSetVirtualAxis(g->vpad, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, -32768);
    }
  }
  for (int i = 0; i < sdl.SDL_NumJoysticks() && !g->pad; i++)
    if (sdl.SDL_IsGameController(i)) g->pad = sdl.SDL_GameControllerOpen(i);
  if (g->pad) fprintf(stderr, "ride: game controller: %s\n", sdl.SDL_GameControllerName(g->pad));
  return MT_OK;
}

/* The loop's state between frames. */
typedef struct ride_loop {
  int view, help, paused, started, quit;
  double frame, dt;          /* s: the display's period, the physics step */
  double due;                /* physics steps real time asks for and not yet run */
  double t_last, t_begin;    /* wall times: the last physics stage, the loop's start */
  double win_t0, sim0;       /* the rate window's start: wall time, simulated time */
  double gap;                /* the ghost's time gap at this frame (NAN: none) */
  double f_prev;             /* the previous frame's start (its poll) */
  long frames_win;           /* frames in the rate window */
  int banner;                /* the banner shown (banner_kind), logged when it changes */
  double axis_last[RIDE_NAXIS];
} ride_loop;

static void loop_init(ride_loop* L, const ride_session* s, ride_win_stats* sb) {
  memset(L, 0, sizeof *L);
  SDL_DisplayMode dm;
  double hz = 60;
  if (sdl.SDL_GetCurrentDisplayMode(0, &dm) == 0 && dm.refresh_rate > 0) hz = dm.refresh_rate;
  L->frame = 1.0 / hz, L->dt = s->rg->timestep;
  L->view = VIEW_CHASE, L->help = 1;
  L->t_last = now_s(), L->t_begin = L->t_last, L->win_t0 = L->t_last, L->gap = NAN;
  sb->rtf = 1, sb->rtf_min = INFINITY, sb->hz = hz;
}

/* The rider's first input: the ride starts (the help goes away). */
static void loop_start(ride_loop* L, ride_win_stats* sb) {
  if (!L->started) L->started = 1, L->help = 0, sb->t_start = now_s();
}

/* R (or the controller's Back): off the track or down, back on it at the last point on track
 * (a "recover" event); riding on it, the restart from the start's trim. */
static int restart_key(ride_session* s, ride_loop* L, mt_err* e) {
  L->due = 0;
  if (banner_kind(s)) {
    double st = s->inc.last_on_s;
    fprintf(stderr, "ride: back on the track at station %.1f m\n", st);
    return ride_event_at(s, RIDE_EV_RECOVER, st, 0, e);
  }
  return ride_event_at(s, RIDE_EV_RESTART, 0, 0, e);
}

static int win_key(win* g, ride_session* s, const ride_win_opts* wo, ride_loop* L, SDL_Keycode key, mt_err* e) {
  int rc = MT_OK;
  switch (key) {
    case SDLK_q: case SDLK_ESCAPE: L->quit = 1; break;
    case SDLK_h: case SDLK_F1: L->help = !L->help; break;
    case SDLK_SPACE: L->paused = !L->paused; break;
    case SDLK_1: L->view = VIEW_CHASE; break;
    case SDLK_2: L->view = VIEW_PLAN; break;
    case SDLK_3: L->view = VIEW_SIDE; break;
    case SDLK_r: rc = restart_key(s, L, e); break;
    case SDLK_j: case SDLK_k: case SDLK_l:
      if (g->vpad) sdl.SDL_JoystickSetVirtualAxis(g->vpad, SDL_CONTROLLER_AXIS_LEFTX, key == SDLK_j ? -16384 : key == SDLK_l ? 16384 : 0);
      break;
    case SDLK_t: case SDLK_g:
      if (g->vpad) sdl.SDL_JoystickSetVirtualAxis(g->vpad, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, key == SDLK_t ? 0 : -32768);
      break;
    case SDLK_F12: {
      const char* p = wo->snapshot ? wo->snapshot : "ride.png";
      if (cairo_surface_write_to_png(g->cs, p) != CAIRO_STATUS_SUCCESS) fprintf(stderr, "ride: cannot write %s\n", p);
      else fprintf(stderr, "ride: snapshot %s\n", p);
      break;
    }
  }
  return rc;
}

/* A game controller's stick or trigger: a ride axis event when its value changed (*counted = 1). */
static int win_axis(ride_session* s, ride_loop* L, ride_win_stats* sb, const SDL_ControllerAxisEvent* ca, int* counted,
                    mt_err* e) {
  int ax = -1, rc = MT_OK;
  double val = ca->value / 32767.0;
  if (ca->axis == SDL_CONTROLLER_AXIS_LEFTX) ax = RIDE_AXIS_STEER, val = fabs(val) < 0.08 ? 0 : val;
  else if (ca->axis == SDL_CONTROLLER_AXIS_TRIGGERRIGHT) ax = RIDE_AXIS_THROTTLE;
  else if (ca->axis == SDL_CONTROLLER_AXIS_TRIGGERLEFT) ax = RIDE_AXIS_BRAKE;
  if (ax >= 0 && val != L->axis_last[ax]) {
    L->axis_last[ax] = val;
    rc = ride_event_at(s, RIDE_EV_AXIS, ax, val, e);
    loop_start(L, sb);
    *counted = 1;
  }
  return rc;
}

/* Events: every pending window event becomes a ride event, applied at the next physics step. An
 * event waits in the queue at most from one poll to the next (the previous frame), then until the
 * first step after the poll: the latency's bound. *nin: the events that count for it. */
static int win_poll(win* g, ride_session* s, const ride_win_opts* wo, ride_loop* L, ride_win_stats* sb, int* nin,
                    mt_err* e) {
  SDL_Event ev;
  int moved = 0, rc = MT_OK;
  double mx = 0, my = 0;
  *nin = 0;
  while (sdl.SDL_PollEvent(&ev) && !rc) {
    int counted = 0;
    switch (ev.type) {
      case SDL_QUIT: L->quit = 1; break;
      case SDL_WINDOWEVENT:
        if (ev.window.event == SDL_WINDOWEVENT_CLOSE) L->quit = 1;
        break;
      case SDL_KEYDOWN: rc = win_key(g, s, wo, L, ev.key.keysym.sym, e); break;
      case SDL_MOUSEBUTTONDOWN:
        if (ev.button.button == SDL_BUTTON_MIDDLE) {
          rc = ride_event_at(s, RIDE_EV_GRAB, ev.button.x, ev.button.y, e);
          fprintf(stderr, "ride: hands %s at (%d, %d)\n", s->ctl.h.on ? "on" : "off", ev.button.x, ev.button.y);
          loop_start(L, sb);
          counted = 1;
        } else if (ev.button.button == SDL_BUTTON_LEFT || ev.button.button == SDL_BUTTON_RIGHT) {
          rc = ride_event_at(s, RIDE_EV_SHIFT, ev.button.button == SDL_BUTTON_LEFT ? -1 : 1, 0, e);
          counted = 1;
        }
        break;
      case SDL_MOUSEMOTION:
        moved = 1, mx = ev.motion.x, my = ev.motion.y;
        break;
      case SDL_CONTROLLERAXISMOTION: rc = win_axis(s, L, sb, &ev.caxis, &counted, e); break;
      case SDL_CONTROLLERBUTTONDOWN:
        if (ev.cbutton.button == SDL_CONTROLLER_BUTTON_LEFTSHOULDER) rc = ride_event_at(s, RIDE_EV_SHIFT, -1, 0, e);
        else if (ev.cbutton.button == SDL_CONTROLLER_BUTTON_RIGHTSHOULDER) rc = ride_event_at(s, RIDE_EV_SHIFT, 1, 0, e);
        else if (ev.cbutton.button == SDL_CONTROLLER_BUTTON_START) L->paused = !L->paused;
        else if (ev.cbutton.button == SDL_CONTROLLER_BUTTON_BACK) rc = restart_key(s, L, e);
        break;
    }
    if (counted) (*nin)++;
  }
  if (moved && s->ctl.h.on && (mx != s->ctl.h.px || my != s->ctl.h.py) && !rc) {
    rc = ride_event_at(s, RIDE_EV_MOVE, mx, my, e);
    (*nin)++;
  }
  return rc;
}

/* Physics: every step real time asks for, never skipped (at most 0.25 s of them: further behind,
 * the real-time factor drops and shows it); the input latency of a frame with input. */
static int win_physics(ride_session* s, ride_loop* L, ride_win_stats* sb, int nin, double f0, mt_err* e) {
  int rc = MT_OK;
  double tn = now_s(), dt = L->dt;
  if (L->started && !L->paused && !s->fell) {
    L->due += (tn - L->t_last) / dt;
    if (L->due > 0.25 / dt) L->due = 0.25 / dt;   /* far behind: the machine is slow, the factor shows it */
    int first = 1;
    while (L->due >= 1 && !rc && !s->fell) {
      rc = ride_step(s, e);
      L->due -= 1;
      if (s->step == 1 && !rc) fprintf(stderr, "ride: the ride started (first step done)\n");
      if (first && nin && L->f_prev > 0) {
        double lat = now_s() - L->f_prev;   /* the oldest event's wait: the previous poll to this step */
        sb->lat_max = fmax(sb->lat_max, lat), sb->lat_sum += lat, sb->nlat++;
        sb->frame_max = fmax(sb->frame_max, f0 - L->f_prev);
      }
      first = 0;
    }
  } else {
    L->due = 0;
  }
  if (L->started && !L->paused && !s->fell) sb->run_wall += tn - L->t_last;
  if (banner_kind(s) != L->banner) {   /* the window's log: what the banner says (tests/cli/ride.sh) */
    L->banner = banner_kind(s);
    static const char* const B[] = {"none", "OFF TRACK", "FELL"};
    fprintf(stderr, "ride: banner %s at t = %.3f s, station %.1f m\n", B[L->banner], s->step * L->dt, s->ctx.station);
  }
  L->t_last = tn;
  L->f_prev = f0;
  return rc;
}

/* Present: the ghost's gap, the frame drawn and shown, the display rate and real-time factor over
 * about a second, then the rest of the frame's period waited out. */
static int win_present(win* g, ride_session* s, ride_loop* L, ride_win_stats* sb, double f0, mt_err* e) {
  if (g->has_ghost) {
    L->gap = ghost_gap(g, (s->step - s->start_step) * L->dt, s->ch[g->c_dist]);
    if (isfinite(L->gap)) sb->gap = L->gap;
  }
  int rc = draw_frame(g, s, L->view, L->help, L->paused, L->started, sb, L->gap, e);
  if (rc) return rc;
  SDL_Surface* ws = sdl.SDL_GetWindowSurface(g->w);
  if (ws) {
    sdl.SDL_UpperBlit(g->surf, NULL, ws, NULL);
    sdl.SDL_UpdateWindowSurface(g->w);
  }
  if (sb->frames == 0) fprintf(stderr, "ride: window shown (first frame drawn)\n");
  sb->frames++;
  L->frames_win++;
  double tw = now_s();
  if (tw - L->win_t0 >= 1.0) {
    double sim_t = s->step * L->dt;
    int riding = L->started && !L->paused && !s->fell;
    sb->hz = L->frames_win / (tw - L->win_t0);
    sb->rtf = riding ? (sim_t - L->sim0) / (tw - L->win_t0) : sb->rtf;
    if (riding && s->step > 0) sb->rtf_min = fmin(sb->rtf_min, sb->rtf);
    L->win_t0 = tw, L->sim0 = sim_t, L->frames_win = 0;
  }
  double left = L->frame - (now_s() - f0);
  if (left > 0) sdl.SDL_Delay((Uint32)(left * 1e3));
  return MT_OK;
}

int ride_window(ride_session* s, const ride_win_opts* wo, ride_win_stats* sb, mt_err* e) {
  win g;
  memset(&g, 0, sizeof g);
  g.W = wo->W, g.H = wo->H;
  int rc = win_open(&g, s, wo, e);
  ride_loop L;
  if (!rc) loop_init(&L, s, sb);
  if (!rc && wo->bench > 0) {   /* hands on at the window's centre at once */
    if (!(rc = ride_event_at(s, RIDE_EV_GRAB, g.W / 2.0, g.H / 2.0, e))) L.started = 1, L.help = 0, sb->t_start = now_s();
  }
  while (!rc) {
    double f0 = now_s();
    int nin;
    rc = win_poll(&g, s, wo, &L, sb, &nin, e);
    if (g_stop) L.quit = 1;
    if (wo->bench > 0 && f0 - L.t_begin >= wo->bench) L.quit = 1;
    if (L.quit || rc) break;
    if ((rc = win_physics(s, &L, sb, nin, f0, e))) break;
    rc = win_present(&g, s, &L, sb, f0, e);
  }
  win_close(&g);
  return rc;
}
