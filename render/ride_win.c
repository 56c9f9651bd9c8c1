/* ride_win.c — `mototake ride`: ride the machine by hand in an SDL2 window drawn with Cairo.
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
#include "sim/cli.h"
#include "takes/ride.h"

static volatile sig_atomic_t g_stop;
static void on_signal(int sig) { g_stop = sig; }

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*---- headless: a list of events ----*/

/* events file: a JSON list of [step, "grab"|"move"|"shift"|"axis"|"restart", a, b] */
static int ride_events_file(ride_session* s, const char* path, double duration, mt_err* e) {
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
    if (!ev[i].type) rc = mt_fail(e, MT_EINPUT, "%s: event %zu: unknown event '%.40s' (grab, move, shift, axis, restart)", path, i + 1, t);
    else if (step < 0 || (i > 0 && step < ev[i - 1].step))
      rc = mt_fail(e, MT_EINPUT, "%s: event %zu: step %lld is negative or before the previous event's", path, i + 1, (long long)step);
    else if (!(isfinite(a) && isfinite(b) && fabs(a) < 1e6 && fabs(b) < 1e6))
      rc = mt_fail(e, MT_EINPUT, "%s: event %zu: a and b must be finite and below 1e6", path, i + 1);
  }
  json_decref(js);
  long nsteps = (long)ceil(duration / s->rg->timestep - 1e-9);
  size_t k = 0;
  for (long i = 0; i < nsteps && !rc && !g_stop && !s->fell; i++) {
    while (k < n && ev[k].step <= i && !rc) {
      rc = ride_event_at(s, ev[k].type, ev[k].a, ev[k].b, e);
      k++;
    }
    if (!rc) rc = ride_step(s, e);
  }
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
    "Band up: throttle; down (red): brake; longer = harder",
    "Band left/right: bar torque (pointer right: push the right grip)",
    "Left / right button: shift down / up",
    "1 chase   2 plan   3 side view",
    "Space: pause    R: restart from the start's trim",
    "H or F1: this help    F12: snapshot    Q / Esc: end the take",
};

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

typedef struct stats {
  double hz, rtf, rtf_min, lat_max, lat_sum, frame_max;
  double t_start;           /* wall time when the physics first ran */
  double run_wall;          /* s of wall time the physics was running (not paused, not down) */
  double gap;               /* the ghost's last time gap (NAN: none) */
  long nlat, frames;
} stats;

static int draw_frame(win* g, ride_session* s, int view, int help, int paused, int started, const stats* sb, double gap,
                      mt_err* e) {
  cairo_t* cr = g->cr;
  double t = (s->step - s->start_step) * s->rg->timestep;
  /* the live state into the views' state */
  memcpy(g->st.pose, s->poses, sizeof(double) * 7 * g->k.nb);
  memcpy(g->st.chan, s->ch, sizeof(double) * g->k.s->nchan);
  g->st.t = t;
  if (g->has_ghost && rs_at(&g->gk, fmin(t, g->gk.duration), &g->gst, e)) return e->code;
  int rc = MT_OK;
  int hud_w = g->W >= 700 ? 170 : 0, vw = g->W - hud_w;
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
    rv_hud(cr, &g->k, &g->st, vw, TOP + 6, hud_w, 2 * hud_w);
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
  const char* msg = NULL;
  if (s->fell) msg = "Down! R: restart from the trim   Q: end the take";
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
  if (g->surf) SDL_FreeSurface(g->surf);
  if (g->pad) SDL_GameControllerClose(g->pad);
  if (g->vpad) SDL_JoystickClose(g->vpad);
  if (g->w) SDL_DestroyWindow(g->w);
  /* No SDL_Quit: it unloads the X11 and D-Bus libraries SDL opened, and the few blocks they keep
   * for the process's life then show up as leaks of unknown modules under LeakSanitizer (named,
   * they are suppressed in tests/lsan.supp). The process ends right after. */
}

typedef struct win_opts {
  int W, H;
  const char* ghost;
  const char* snapshot;
  double bench;             /* s of wall time: hands on at the centre at once, end after it */
  const char* out;
} win_opts;

static int ride_window(ride_session* s, const win_opts* wo, stats* sb, mt_err* e) {
  win g;
  memset(&g, 0, sizeof g);
  g.W = wo->W, g.H = wo->H;
  int rc = MT_OK;
  /* the views' take */
  const char* tmp = getenv("TMPDIR");
  snprintf(g.still, sizeof g.still, "%s/mototake-ride-%ld.take", tmp && *tmp ? tmp : "/tmp", (long)getpid());
  unlink(g.still);
  if ((rc = ride_write_still(s, g.still, e))) {
    g.still[0] = 0;
    goto out;
  }
  if ((rc = rs_open(&g.k, g.still, NULL, e))) goto out;
  g.has_k = 1;
  rs_state_init(&g.k, &g.st);
  rv_cache_init(&g.cache, &g.k);
  if (!(g.chase = chase_scene_new(g.k.r, "chase", e))) {
    rc = e->code;
    goto out;
  }
  g.c_heading = rec_chan_index("heading"), g.c_station = rec_chan_index("station"), g.c_dist = rec_chan_index("distance");
  double hd = s->ch[g.c_heading] * MT_PI / 180;
  g.hx = cos(hd), g.hy = sin(hd);
  if (wo->ghost) {
    if ((rc = rs_open(&g.gk, wo->ghost, NULL, e))) goto out;
    g.has_ghost = 1;
    rs_state_init(&g.gk, &g.gst);
    if (!(g.gchase = chase_scene_new(g.gk.r, "chase", e))) {
      rc = e->code;
      goto out;
    }
  }
  g.w = SDL_CreateWindow("mototake ride", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, g.W, g.H, SDL_WINDOW_SHOWN);
  if (!g.w) {
    rc = mt_fail(e, MT_EINTERNAL, "ride: cannot open a window: %s", SDL_GetError());
    goto out;
  }
  g.surf = SDL_CreateRGBSurfaceWithFormat(0, g.W, g.H, 32, SDL_PIXELFORMAT_ARGB8888);
  if (!g.surf) {
    rc = mt_fail(e, MT_EINTERNAL, "ride: SDL surface: %s", SDL_GetError());
    goto out;
  }
  g.cs = cairo_image_surface_create_for_data(g.surf->pixels, CAIRO_FORMAT_RGB24, g.W, g.H, g.surf->pitch);
  g.cr = cairo_create(g.cs);
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
    int vi = SDL_JoystickAttachVirtualEx(&d);
    if (vi >= 0 && (g.vpad = SDL_JoystickOpen(vi))) {
      SDL_JoystickSetVirtualAxis(g.vpad, SDL_CONTROLLER_AXIS_TRIGGERLEFT, -32768);   /* released */
      SDL_JoystickSetVirtualAxis(g.vpad, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, -32768);
    }
  }
  for (int i = 0; i < SDL_NumJoysticks() && !g.pad; i++)
    if (SDL_IsGameController(i)) g.pad = SDL_GameControllerOpen(i);
  if (g.pad) fprintf(stderr, "ride: game controller: %s\n", SDL_GameControllerName(g.pad));
  SDL_DisplayMode dm;
  double hz = 60;
  if (SDL_GetCurrentDisplayMode(0, &dm) == 0 && dm.refresh_rate > 0) hz = dm.refresh_rate;
  double frame = 1.0 / hz, dt = s->rg->timestep;
  int view = VIEW_CHASE, help = 1, paused = 0, started = 0, quit = 0;
  double due = 0, t_last = now_s(), t_begin = t_last, win_t0 = t_last, sim0 = 0, gap = NAN, f_prev = 0;
  long frames_win = 0;
  sb->rtf = 1, sb->rtf_min = INFINITY, sb->hz = hz;
  if (wo->bench > 0) {   /* hands on at the window's centre at once */
    if ((rc = ride_event_at(s, RIDE_EV_GRAB, g.W / 2.0, g.H / 2.0, e))) goto out;
    started = 1, help = 0, sb->t_start = now_s();
  }
  double axis_last[RIDE_NAXIS] = {0, 0, 0};
  while (!quit && !rc) {
    double f0 = now_s();
    /* events: applied at the next physics step. An event waits in the queue at most from one
     * poll to the next (the previous frame), then until the first step after the poll: the
     * latency's bound, measured for every frame that carries input while the physics runs. */
    SDL_Event ev;
    int moved = 0, nin = 0;
    double mx = 0, my = 0;
    while (SDL_PollEvent(&ev) && !rc) {
      int counted = 0;
      switch (ev.type) {
        case SDL_QUIT: quit = 1; break;
        case SDL_WINDOWEVENT:
          if (ev.window.event == SDL_WINDOWEVENT_CLOSE) quit = 1;
          break;
        case SDL_KEYDOWN:
          switch (ev.key.keysym.sym) {
            case SDLK_q: case SDLK_ESCAPE: quit = 1; break;
            case SDLK_h: case SDLK_F1: help = !help; break;
            case SDLK_SPACE: paused = !paused; break;
            case SDLK_1: view = VIEW_CHASE; break;
            case SDLK_2: view = VIEW_PLAN; break;
            case SDLK_3: view = VIEW_SIDE; break;
            case SDLK_r: rc = ride_event_at(s, RIDE_EV_RESTART, 0, 0, e); due = 0; break;
            case SDLK_j: case SDLK_k: case SDLK_l:
              if (g.vpad) SDL_JoystickSetVirtualAxis(g.vpad, SDL_CONTROLLER_AXIS_LEFTX, ev.key.keysym.sym == SDLK_j ? -16384 : ev.key.keysym.sym == SDLK_l ? 16384 : 0);
              break;
            case SDLK_t: case SDLK_g:
              if (g.vpad) SDL_JoystickSetVirtualAxis(g.vpad, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, ev.key.keysym.sym == SDLK_t ? 0 : -32768);
              break;
            case SDLK_F12: {
              const char* p = wo->snapshot ? wo->snapshot : "ride.png";
              if (cairo_surface_write_to_png(g.cs, p) != CAIRO_STATUS_SUCCESS) fprintf(stderr, "ride: cannot write %s\n", p);
              else fprintf(stderr, "ride: snapshot %s\n", p);
              break;
            }
          }
          break;
        case SDL_MOUSEBUTTONDOWN:
          if (ev.button.button == SDL_BUTTON_MIDDLE) {
            rc = ride_event_at(s, RIDE_EV_GRAB, ev.button.x, ev.button.y, e);
            fprintf(stderr, "ride: hands %s at (%d, %d)\n", s->ctl.h.on ? "on" : "off", ev.button.x, ev.button.y);
            if (!started) started = 1, help = 0, sb->t_start = now_s();
            counted = 1;
          } else if (ev.button.button == SDL_BUTTON_LEFT || ev.button.button == SDL_BUTTON_RIGHT) {
            rc = ride_event_at(s, RIDE_EV_SHIFT, ev.button.button == SDL_BUTTON_LEFT ? -1 : 1, 0, e);
            counted = 1;
          }
          break;
        case SDL_MOUSEMOTION:
          moved = 1, mx = ev.motion.x, my = ev.motion.y;
          break;
        case SDL_CONTROLLERAXISMOTION: {
          int ax = -1;
          double val = ev.caxis.value / 32767.0;
          if (ev.caxis.axis == SDL_CONTROLLER_AXIS_LEFTX) ax = RIDE_AXIS_STEER, val = fabs(val) < 0.08 ? 0 : val;
          else if (ev.caxis.axis == SDL_CONTROLLER_AXIS_TRIGGERRIGHT) ax = RIDE_AXIS_THROTTLE;
          else if (ev.caxis.axis == SDL_CONTROLLER_AXIS_TRIGGERLEFT) ax = RIDE_AXIS_BRAKE;
          if (ax >= 0 && val != axis_last[ax]) {
            axis_last[ax] = val;
            rc = ride_event_at(s, RIDE_EV_AXIS, ax, val, e);
            if (!started) started = 1, help = 0, sb->t_start = now_s();
            counted = 1;
          }
          break;
        }
        case SDL_CONTROLLERBUTTONDOWN:
          if (ev.cbutton.button == SDL_CONTROLLER_BUTTON_LEFTSHOULDER) rc = ride_event_at(s, RIDE_EV_SHIFT, -1, 0, e);
          else if (ev.cbutton.button == SDL_CONTROLLER_BUTTON_RIGHTSHOULDER) rc = ride_event_at(s, RIDE_EV_SHIFT, 1, 0, e);
          else if (ev.cbutton.button == SDL_CONTROLLER_BUTTON_START) paused = !paused;
          else if (ev.cbutton.button == SDL_CONTROLLER_BUTTON_BACK) rc = ride_event_at(s, RIDE_EV_RESTART, 0, 0, e);
          break;
      }
      if (counted) nin++;
    }
    if (moved && s->ctl.h.on && (mx != s->ctl.h.px || my != s->ctl.h.py) && !rc) {
      rc = ride_event_at(s, RIDE_EV_MOVE, mx, my, e);
      nin++;
    }
    if (g_stop) quit = 1;
    if (wo->bench > 0 && f0 - t_begin >= wo->bench) quit = 1;
    if (quit || rc) break;
    /* physics: as many steps as real time asks, never skipped */
    double tn = now_s();
    if (started && !paused && !s->fell) {
      due += (tn - t_last) / dt;
      if (due > 0.25 / dt) due = 0.25 / dt;   /* far behind: the machine is slow, the factor shows it */
      int first = 1;
      /* every step real time asks for (at most 0.25 s of them: further behind, the factor drops) */
      while (due >= 1 && !rc && !s->fell) {
        rc = ride_step(s, e);
        due -= 1;
        if (s->step == 1 && !rc) fprintf(stderr, "ride: the ride started (first step done)\n");
        if (first && nin && f_prev > 0) {
          double lat = now_s() - f_prev;   /* the oldest event's wait: the previous poll to this step */
          sb->lat_max = fmax(sb->lat_max, lat), sb->lat_sum += lat, sb->nlat++;
          sb->frame_max = fmax(sb->frame_max, f0 - f_prev);
        }
        first = 0;
      }
    } else {
      due = 0;
    }
    if (started && !paused && !s->fell) sb->run_wall += tn - t_last;
    t_last = tn;
    f_prev = f0;
    if (rc) break;
    if (g.has_ghost) {
      gap = ghost_gap(&g, (s->step - s->start_step) * dt, s->ch[g.c_dist]);
      if (isfinite(gap)) sb->gap = gap;
    }
    if ((rc = draw_frame(&g, s, view, help, paused, started, sb, gap, e))) break;
    SDL_Surface* ws = SDL_GetWindowSurface(g.w);
    if (ws) {
      SDL_BlitSurface(g.surf, NULL, ws, NULL);
      SDL_UpdateWindowSurface(g.w);
    }
    if (sb->frames == 0) fprintf(stderr, "ride: window shown (first frame drawn)\n");
    sb->frames++;
    frames_win++;
    /* display rate and real-time factor over about a second */
    double tw = now_s();
    if (tw - win_t0 >= 1.0) {
      double sim_t = s->step * dt;
      sb->hz = frames_win / (tw - win_t0);
      sb->rtf = started && !paused && !s->fell ? (sim_t - sim0) / (tw - win_t0) : sb->rtf;
      if (started && !paused && !s->fell && s->step > 0) sb->rtf_min = fmin(sb->rtf_min, sb->rtf);
      win_t0 = tw, sim0 = sim_t, frames_win = 0;
    }
    double left = frame - (now_s() - f0);
    if (left > 0) SDL_Delay((Uint32)(left * 1e3));
  }
out:
  win_close(&g);
  return rc;
}

int cmd_ride(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "ride");
  cli_arg(&c, "o");
  cli_arg(&c, "rig");
  cli_arg(&c, "track");
  cli_arg(&c, "start");
  cli_arg(&c, "speed");
  cli_arg(&c, "gear");
  cli_multi(&c, "set");
  cli_arg(&c, "assist");
  cli_arg(&c, "ghost");
  cli_arg(&c, "size");
  cli_arg(&c, "snapshot");
  cli_arg(&c, "events");
  cli_arg(&c, "duration");
  cli_arg(&c, "bench");
  if (cli_parse(&c, argc, argv, 0, 0, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "ride: -o OUT.take is required");
    return cli_report(&e);
  }
  ride_opts o = {0};
  o.rig = cli_str(&c, "rig", "sport1000");
  o.track = cli_str(&c, "track", "laguna_seca");
  long gear;
  const cli_opt* so = cli_get(&c, "set");
  o.sets = so->values;
  o.nset = so->nvalues;
  double bench = 0, duration = 0;
  int W = 1024, H = 640;
  const char* size = cli_str(&c, "size", NULL);
  if (size && (sscanf(size, "%dx%d", &W, &H) != 2 || W < 320 || H < 240 || W > 4096 || H > 4096)) {
    mt_fail(&e, MT_EINPUT, "ride: --size '%.40s': expected WxH from 320x240 to 4096x4096", size);
    return cli_report(&e);
  }
  if (cli_double(&c, "start", 0, -1e6, 1e6, &o.station, &e) || cli_double(&c, "speed", 25, 0, 90, &o.speed, &e) ||
      cli_int(&c, "gear", -1, -1, 6, &gear, &e) || cli_double(&c, "assist", 0, 0, 1, &o.assist, &e) ||
      cli_double(&c, "bench", 0, 0, 3600, &bench, &e) || cli_double(&c, "duration", 10, 0.001, 3600, &duration, &e))
    return cli_report(&e);
  o.gear = (int)gear;
  const char* events = cli_str(&c, "events", NULL);
  if (events && access(events, R_OK) != 0) {
    mt_fail(&e, MT_EINPUT, "ride: --events %s: cannot read the file", events);
    return cli_report(&e);
  }
  const char* ghost = cli_str(&c, "ghost", NULL);
  if (ghost && access(ghost, R_OK) != 0) {
    mt_fail(&e, MT_EINPUT, "ride: --ghost %s: cannot read the take", ghost);
    return cli_report(&e);
  }
  ride_session s;
  int rc = ride_open(&s, &o, &e);
  if (rc) {
    ride_close(&s, NULL, NULL);
    return cli_report(&e);
  }
  /* the window needs a display: say so before anything is written */
  if (!events) {
    const char* d = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
    if ((!d || !*d) && (!wl || !*wl)) {
      ride_close(&s, NULL, NULL);
      mt_fail(&e, MT_EINPUT, "ride: no display (DISPLAY is not set): ride a script with `mototake run SCRIPT.lua -o OUT.take`, "
                             "or start a virtual display: xvfb-run -a mototake ride ...");
      return cli_report(&e);
    }
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    /* The frames are drawn by Cairo into memory and only blitted: the windowing system's own
     * framebuffer does that. With acceleration, SDL would put a renderer behind the window surface,
     * which on X11 means destroying the window it mapped and mapping a GL-capable one (two ids:
     * input sent to the first one is lost) and, under Xvfb, software GL copying every frame. */
    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER) != 0) {
      ride_close(&s, NULL, NULL);
      mt_fail(&e, MT_EINPUT, "ride: no display (SDL: %s): ride a script with `mototake run SCRIPT.lua -o OUT.take`, or start a "
                             "virtual display: xvfb-run -a mototake ride ...", SDL_GetError());
      return cli_report(&e);
    }
  }
  g_stop = 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  if ((rc = ride_record(&s, out, &e))) {
    (void)events;
    ride_close(&s, NULL, NULL);
    return cli_report(&e);
  }
  stats sb = {0};
  sb.gap = NAN;
  double w0 = now_s();
  if (events) rc = ride_events_file(&s, events, duration, &e);
  else {
    win_opts wo = {W, H, ghost, cli_str(&c, "snapshot", NULL), bench, out};
    rc = ride_window(&s, &wo, &sb, &e);
  }
  double w1 = now_s(), wall = w1 - w0;
  long steps = s.step;
  double dt = s.rg->timestep;
  char reason[160];
  snprintf(reason, sizeof reason, "%s", g_stop ? (g_stop == SIGTERM ? "ended by SIGTERM" : "ended by SIGINT") : s.end);
  mt_err e2 = {0};
  int rc2 = ride_close(&s, reason, &e2);
  if (rc) return cli_report(&e);
  if (rc2) return cli_report(&e2);
  if (steps == 0) {
    printf("%s: not written: the ride never started (no physics step)\n", out);
    return 0;
  }
  printf("%s: %.3f s ridden in %ld steps, %.1f s wall; end: %s\n", out, steps * dt, steps, wall, reason);
  if (!events)
    printf("  display %.1f Hz over %ld frames, real-time factor %.2f while riding (lowest 1 s window "
           "%.2f), input latency (poll to step) max %.1f ms, mean %.1f ms over %ld frames with input; longest frame %.1f ms\n",
           sb.frames / fmax(wall, 1e-9), sb.frames, sb.run_wall > 0 ? steps * dt / sb.run_wall : 0,
           isfinite(sb.rtf_min) ? sb.rtf_min : 0, sb.lat_max * 1e3, sb.nlat ? sb.lat_sum / sb.nlat * 1e3 : 0, sb.nlat,
           sb.frame_max * 1e3);
  if (ghost) {
    if (isfinite(sb.gap)) printf("  ghost: time gap %+.3f s at the end (positive: behind %s)\n", sb.gap, ghost);
    else printf("  ghost: no time gap (the ride never reached a distance the ghost covered)\n");
  }
  return 0;
}
