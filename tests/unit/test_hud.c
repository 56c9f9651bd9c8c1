/* test_hud.c — issue 37: every number, bar, needle and dot the instruments draw, against the
 * take's own channels at that frame.
 *
 * The take (tests/data/hud_gauges.lua: 0.6 s leaned on the 50 m skidpad, on the throttle, then
 * on both brakes at different levels) is drawn at three recorded steps. The views report what
 * they draw (render/gauge_log.h); the expected values come from a take reader of the test's
 * own, channels looked up by name — not from the renderer's rs_take — and each expected
 * number is printed with the format docs/render.md shows. Then the frame's pixels are probed
 * where the expected value puts each bar's end, needle and dot (computed from the channel and
 * the gauge's box, not from the logged tip), and the bars must stand left to right in the
 * documented order: swapping two gauges' values or their places fails here. The plan view's
 * scale bar, speed key and gap to a ghost (tests/data/hud_ghost.lua, the same ride 2 m/s slower),
 * the timeline's progress bar and the rear view's lean line and crown dot are checked the same
 * way, below. */
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/gauge_log.h"
#include "render/rscene.h"
#include "render/views.h"
#include "takes/run.h"
#include "takes/slip.h"
#include "takes/takefile.h"
#include "tests/unit/test.h"

static const char* hud_take(mt_err* e) { return mt_test_take("hud_gauges", e); }

/* Steps drawn: on the throttle with the brakes coming on (200, 300), and on both brakes with the
 * throttle shut (450): every bar shows a value of its own in at least one of them. */
static const long STEPS[] = {200, 300, 450};
#define NSTEP (long)(sizeof STEPS / sizeof STEPS[0])

/*---- the take's channels, read independently ----*/

typedef struct truth {
  const take_schema* s;
  double* row;
} truth;

static double tv(const truth* t, const char* name) {
  for (int i = 0; i < t->s->nchan; i++)
    if (!strcmp(t->s->chan_names[i], name)) return t->row[i];
  return NAN;   /* no such channel: every comparison with it fails */
}

/* A value rounded as the readouts print it (the test's own: a multiple of step, −0 as 0). */
static double shown(double v, double step) {
  double r = round(v / step) * step;
  return r == 0 ? 0.0 : r;
}

/*---- pixels ----*/

typedef struct px { int r, g, b; } px;

static px pixel(cairo_surface_t* s, double x, double y) {
  int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
  int ix = (int)floor(x), iy = (int)floor(y);
  if (ix < 0 || iy < 0 || ix >= w || iy >= h) return (px){-1, -1, -1};
  uint32_t p = ((uint32_t*)(cairo_image_surface_get_data(s) + (size_t)iy * cairo_image_surface_get_stride(s)))[ix];
  return (px){(int)(p >> 16 & 255), (int)(p >> 8 & 255), (int)(p & 255)};
}

/* the instruments' empty track: grey 0.85 */
static int is_track(px p) { return abs(p.r - 217) <= 6 && abs(p.g - 217) <= 6 && abs(p.b - 217) <= 6; }
/* a needle or a dot: red (0.85, 0.1, 0.1) or the darker red of a slip needle beyond its dial */
static int is_red(px p) { return p.r >= 140 && p.g <= 90 && p.b <= 90; }

/* dark ink pixels in a box (device pixels): the text is drawn where the log says */
static int ink(cairo_surface_t* s, const double* b) {
  int n = 0;
  for (int y = (int)floor(b[1]); y <= (int)ceil(b[3]); y++)
    for (int x = (int)floor(b[0]); x <= (int)ceil(b[2]); x++) {
      px p = pixel(s, x, y);
      n += p.r >= 0 && p.r + p.g + p.b < 200;
    }
  return n;
}

/*---- checks of one entry: helpers that CHECK (the caller returns on mt_test_failed) ----*/

/* The entry named name; NULL (and the test failed) when it is missing or an earlier check failed,
 * so that the first failure's message stands. */
static const rgl_entry* entry(const rgl_log* log, const char* name) {
  if (mt_test_failed) return NULL;
  const rgl_entry* e = rgl_find(log, name);
  if (!e) {
    snprintf(mt_test_msg, sizeof mt_test_msg, "no instrument '%s' in the log", name);
    mt_test_failed = 1;
  }
  return e;
}

/* A number: the value, the text as the take's channel prints, and ink where it is. */
static void check_text(cairo_surface_t* s, const rgl_log* log, long step, const char* name, double want, const char* text) {
  const rgl_entry* e = entry(log, name);
  if (!e) return;
  CHECK_MSG(e->kind == RGL_TEXT && fabs(e->value - want) <= 1e-6 * (1 + fabs(want)), "step %ld: %s shows %.9g, the take's %.9g",
            step, name, e->value, want);
  CHECK_MSG(!strcmp(e->text, text), "step %ld: %s reads '%s', the take's value prints '%s'", step, name, e->text, text);
  CHECK_MSG(ink(s, e->box) >= 5, "step %ld: %s: no text drawn in its box (%.0f,%.0f)-(%.0f,%.0f)", step, name, e->box[0], e->box[1],
            e->box[2], e->box[3]);
}

static void check_textf(cairo_surface_t* s, const rgl_log* log, long step, const char* name, double want, const char* fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void check_textf(cairo_surface_t* s, const rgl_log* log, long step, const char* name, double want, const char* fmt, ...) {
  char text[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  check_text(s, log, step, name, want, text);
}

/* A bar filling upwards: the fill ends where the take's value puts it in the bar's box (fill
 * below that line, the empty track above it, probed 2 px either side on the centre line). */
static void check_vbar(cairo_surface_t* s, const rgl_log* log, long step, const char* name, double want) {
  const rgl_entry* e = entry(log, name);
  if (!e) return;
  CHECK_MSG(e->kind == RGL_VBAR && fabs(e->value - want) <= 1e-6 * (1 + fabs(want)), "step %ld: %s shows %.9g, the take's %.9g",
            step, name, e->value, want);
  double h = e->box[3] - e->box[1], f = fmin(fmax(want, 0), 1), ty = e->box[3] - f * h, cx = (e->box[0] + e->box[2]) / 2;
  CHECK_MSG(fabs(e->tip[1] - ty) < 0.5, "step %ld: %s: fill logged to y %.1f, the take's value puts it at %.1f", step, name, e->tip[1], ty);
  if (f * h > 4) {
    px p = pixel(s, cx, ty + 2);
    CHECK_MSG(!is_track(p) && p.r >= 0, "step %ld: %s: no fill 2 px below y %.1f (value %.3f)", step, name, ty, want);
  }
  if (f * h < h - 4) {
    px p = pixel(s, cx, ty - 2);
    CHECK_MSG(is_track(p), "step %ld: %s: (%d,%d,%d) 2 px above y %.1f, not the empty track (value %.3f)", step, name, p.r, p.g, p.b,
              ty, want);
  }
}

/* A bar from its zero mark: the fill ends at zero + f·(half the track), f = value/full. */
static void check_hbar(cairo_surface_t* s, const rgl_log* log, long step, const char* name, double want) {
  const rgl_entry* e = entry(log, name);
  if (!e) return;
  CHECK_MSG(e->kind == RGL_HBAR && fabs(e->value - want) <= 1e-6 * (1 + fabs(want)), "step %ld: %s shows %.9g, the take's %.9g",
            step, name, e->value, want);
  double half = (e->box[2] - e->box[0]) / 2, zx = (e->box[0] + e->box[2]) / 2, cy = (e->box[1] + e->box[3]) / 2;
  double tx = zx + fmin(fmax(want, -1), 1) * half, dir = want >= 0 ? 1 : -1;
  CHECK_MSG(fabs(e->tip[0] - tx) < 0.5 && fabs(e->zero[0] - zx) < 0.5, "step %ld: %s: fill logged to x %.1f, the take's value puts it at %.1f",
            step, name, e->tip[0], tx);
  if (fabs(tx - zx) > 5) {
    px p = pixel(s, tx - 2 * dir, cy);
    CHECK_MSG(!is_track(p) && p.r >= 0, "step %ld: %s: no fill 2 px inside x %.1f (value %.3f)", step, name, tx, want);
  }
  if (fabs(tx - zx) < half - 4) {
    px p = pixel(s, tx + 2 * dir, cy);
    CHECK_MSG(is_track(p), "step %ld: %s: (%d,%d,%d) 2 px beyond x %.1f, not the empty track (value %.3f)", step, name, p.r, p.g, p.b, tx,
              want);
  }
}

/* A needle: it points at screen angle a (radians, y down) from its pivot; red at 0.6 of its length. */
static void check_needle(cairo_surface_t* s, const rgl_log* log, long step, const char* name, double want, double a) {
  const rgl_entry* e = entry(log, name);
  if (!e) return;
  CHECK_MSG(e->kind == RGL_NEEDLE && fabs(e->value - want) <= 1e-6 * (1 + fabs(want)), "step %ld: %s shows %.9g, the take's %.9g",
            step, name, e->value, want);
  double dx = e->tip[0] - e->zero[0], dy = e->tip[1] - e->zero[1], len = hypot(dx, dy);
  double got = atan2(dy, dx), d = remainder(got - a, 2 * M_PI);
  CHECK_MSG(fabs(d) < 0.2 * M_PI / 180, "step %ld: %s points at %.2f deg on screen, the take's value at %.2f", step, name, got * 180 / M_PI,
            a * 180 / M_PI);
  px p = pixel(s, e->zero[0] + 0.6 * len * cos(a), e->zero[1] + 0.6 * len * sin(a));
  CHECK_MSG(is_red(p), "step %ld: %s: (%d,%d,%d) where the needle should be, not red", step, name, p.r, p.g, p.b);
}

/* A friction circle: the dot at (−Fy/Fz, −Fx/Fz)/1.5 of the radius from the centre, red there. */
static void check_dot(cairo_surface_t* s, const rgl_log* log, long step, const char* name, double fx, double fy, double fz) {
  const rgl_entry* e = entry(log, name);
  if (!e) return;
  double mx = fz > 1 ? fy / fz : 0, my = fz > 1 ? fx / fz : 0;
  CHECK_MSG(e->kind == RGL_DOT && fabs(e->value - hypot(mx, my)) < 1e-6, "step %ld: %s shows μ %.6f, the take's %.6f", step, name,
            e->value, hypot(mx, my));
  double r = (e->box[2] - e->box[0]) / 2, cx = (e->box[0] + e->box[2]) / 2, cy = (e->box[1] + e->box[3]) / 2;
  double px_ = cx - fmin(fmax(mx, -1.6), 1.6) / 1.5 * r, py_ = cy - fmin(fmax(my, -1.6), 1.6) / 1.5 * r;
  CHECK_MSG(hypot(e->tip[0] - px_, e->tip[1] - py_) < 0.5, "step %ld: %s: dot logged at (%.1f, %.1f), the take's forces put it at (%.1f, %.1f)",
            step, name, e->tip[0], e->tip[1], px_, py_);
  px p = pixel(s, px_, py_);
  CHECK_MSG(is_red(p), "step %ld: %s: (%d,%d,%d) where the dot should be, not red", step, name, p.r, p.g, p.b);
}

/*---- the HUD ----*/

static double centre_x(const rgl_log* log, const char* name) {
  const rgl_entry* e = rgl_find(log, name);
  return e ? (e->box[0] + e->box[2]) / 2 : NAN;
}

/* the bars, left to right as docs/render.md lists them, and each pair of gauges front left of rear */
static void check_order(const rgl_log* log) {
  if (mt_test_failed) return;
  static const char* const ORDER[] = {"hud.throttle", "hud.front_brake", "hud.rear_brake", "hud.fork", "hud.shock", "hud.rpm_bar"};
  for (int i = 0; i + 1 < 6; i++)
    CHECK_MSG(centre_x(log, ORDER[i]) + 10 < centre_x(log, ORDER[i + 1]), "%s (x %.0f) is not left of %s (x %.0f)", ORDER[i],
              centre_x(log, ORDER[i]), ORDER[i + 1], centre_x(log, ORDER[i + 1]));
  CHECK(centre_x(log, "hud.front_grip") + 50 < centre_x(log, "hud.rear_grip"));
  CHECK(centre_x(log, "hud.front_slip") + 50 < centre_x(log, "hud.rear_slip"));
}

/* The slip gauges' optimum: the tyre model at this frame's load, slip ratio and camber, on the
 * side the tyre pushes to (absent below 50 N of load). */
static void check_optimum(cairo_surface_t* s, const rgl_log* log, long step, const rs_take* k, const truth* t, int wi) {
  if (mt_test_failed) return;
  static const char* const P[2] = {"front", "rear"};
  char n[64];
  double fz = tv(t, wi ? "rear_load" : "front_load");
  snprintf(n, sizeof n, "%s_fy", P[wi]);
  int side = tv(t, n) >= 0 ? 1 : -1;
  snprintf(n, sizeof n, "%s_slip_ratio", P[wi]);
  double kappa = tv(t, n);
  snprintf(n, sizeof n, "%s_camber", P[wi]);
  double gamma = tv(t, n) * M_PI / 180;
  snprintf(n, sizeof n, "hud.%s_slip.optimum", P[wi]);
  if (!(fz > 50)) {
    CHECK_MSG(!rgl_find(log, n), "step %ld: %s drawn at %.0f N of load", step, n, fz);
    return;
  }
  double opt = slip_peak_alpha(&k->rg->wheel[wi].tyre, fz, kappa, gamma, side) * 180 / M_PI;
  check_textf(s, log, step, n, opt, "optimum %.1f°", shown(opt, 0.1));
}

/* how many instruments the HUD draws at this frame: the test knows every one */
static int hud_entries(const rs_take* k, const truth* t) {
  int n = 23;   /* 3 numbers, 6 bars, lean and steer torque (2 each), 4 per tyre, balance (2); then the optima */
  n += tv(t, "front_load") > 50 && k->rg;
  n += tv(t, "rear_load") > 50 && k->rg;
  return n;
}

static void check_hud_frame(cairo_surface_t* s, const rgl_log* log, long step, const rs_take* k, const truth* t) {
  double speed = tv(t, "speed") * 3.6, rpm = tv(t, "rpm"), lean = tv(t, "lean"), tq = tv(t, "steer_torque");
  double af = tv(t, "front_slip_angle"), ar = tv(t, "rear_slip_angle"), D = M_PI / 180;
  check_textf(s, log, step, "hud.speed", speed, "%.0f km/h", shown(speed, 1));
  check_textf(s, log, step, "hud.gear", lround(tv(t, "gear")), "gear %ld", lround(tv(t, "gear")));
  check_textf(s, log, step, "hud.rpm", rpm, "%.0f rpm", shown(rpm, 10));
  check_vbar(s, log, step, "hud.throttle", tv(t, "throttle"));
  check_vbar(s, log, step, "hud.front_brake", tv(t, "front_brake"));
  check_vbar(s, log, step, "hud.rear_brake", tv(t, "rear_brake"));
  check_vbar(s, log, step, "hud.fork", tv(t, "fork_travel") / 0.12);   /* full bar: 120 mm */
  check_vbar(s, log, step, "hud.shock", tv(t, "shock_travel") / 0.06);  /* full bar: 60 mm */
  check_vbar(s, log, step, "hud.rpm_bar", rpm / 14000);
  check_needle(s, log, step, "hud.lean", lean, -M_PI / 2 + fmin(fmax(lean, -70), 70) * D);   /* up is upright */
  check_textf(s, log, step, "hud.lean.text", lean, "lean %+.1f°", shown(lean, 0.1));
  check_hbar(s, log, step, "hud.steer_torque", tq / 50);
  check_textf(s, log, step, "hud.steer_torque.text", tq, "steer torque %+.1f N·m", shown(tq, 0.1));
  if (mt_test_failed) return;
  static const char* const P[2] = {"front", "rear"};
  for (int wi = 0; wi < 2 && !mt_test_failed; wi++) {
    char n[64], fxn[32], fyn[32];
    snprintf(fxn, sizeof fxn, "%s_fx", P[wi]);
    snprintf(fyn, sizeof fyn, "%s_fy", P[wi]);
    double fx = tv(t, fxn), fy = tv(t, fyn), fz = tv(t, wi ? "rear_load" : "front_load");
    double mu = fz > 1 ? hypot(fx / fz, fy / fz) : 0, a = wi ? ar : af;
    snprintf(n, sizeof n, "hud.%s_grip", P[wi]);
    check_dot(s, log, step, n, fx, fy, fz);
    snprintf(n, sizeof n, "hud.%s_grip.text", P[wi]);
    check_textf(s, log, step, n, mu, "%s μ %.2f", P[wi], shown(mu, 0.01));
    snprintf(n, sizeof n, "hud.%s_slip", P[wi]);   /* −12° at the left, +12° at the right */
    check_needle(s, log, step, n, a, M_PI + M_PI * (fmin(fmax(a, -12), 12) + 12) / 24);
    snprintf(n, sizeof n, "hud.%s_slip.text", P[wi]);
    check_textf(s, log, step, n, a, "%s %+.1f°", P[wi], shown(a, 0.1));
    check_optimum(s, log, step, k, t, wi);
  }
  if (mt_test_failed) return;
  double bal = fabs(af) - fabs(ar);
  check_hbar(s, log, step, "hud.balance", bal / 3);   /* full bar: 3° */
  check_textf(s, log, step, "hud.balance.text", bal, "balance |α_f| − |α_r| %+.1f°", shown(bal, 0.1));
  check_order(log);
  CHECK_MSG(log->n == hud_entries(k, t) && log->dropped == 0, "step %ld: the HUD logged %d instruments (%d dropped), the test knows %d",
            step, log->n, log->dropped, hud_entries(k, t));
}

static void release_fonts(void) {
  cairo_debug_reset_static_data();
  void (*fini)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "FcFini");
  if (fini) fini();
}

typedef struct fixture {
  rs_take k;
  rs_state st;
  take_reader* r;
  truth t;
  cairo_surface_t* s;
  cairo_t* cr;
} fixture;

static int fixture_open(fixture* f, int w, int h, mt_err* e) {
  memset(f, 0, sizeof *f);
  const char* path = hud_take(e);
  if (!path || rs_open(&f->k, path, NULL, e)) return -1;
  rs_state_init(&f->k, &f->st);
  f->r = take_open(path, e);   /* the test's own reader: the truth */
  if (!f->r) return -1;
  f->t.s = take_schema_of(f->r);
  f->t.row = malloc(sizeof(double) * (size_t)f->t.s->nchan);
  f->s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
  f->cr = cairo_create(f->s);
  cairo_select_font_face(f->cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  return 0;
}

/* the renderer's state and the truth at a recorded step (rs_at hits a step exactly) */
static int fixture_at(fixture* f, long step, mt_err* e) {
  if (take_read(f->r, TAKE_CHAN, step, 1, f->t.row, e) || rs_at(&f->k, step * f->k.dt, &f->st, e)) return -1;
  cairo_set_source_rgb(f->cr, 1, 1, 1);
  cairo_paint(f->cr);
  return 0;
}

static void fixture_close(fixture* f) {
  rgl_attach(NULL);
  if (f->cr) cairo_destroy(f->cr);
  if (f->s) cairo_surface_destroy(f->s);
  free(f->t.row);
  if (f->r) take_close(f->r);
  if (f->st.pose) rs_state_free(&f->st);
  rs_close(&f->k);
  release_fonts();
}

MT_TEST(hud_every_instrument_shows_the_takes_channel_at_its_frame) {
  mt_err e = {0};
  fixture f;
  static rgl_log log;
  int ok = fixture_open(&f, 500, 960, &e) == 0;
  for (long i = 0; ok && i < NSTEP && !mt_test_failed; i++) {
    ok = fixture_at(&f, STEPS[i], &e) == 0;
    if (!ok) break;
    rgl_attach(&log);
    rv_hud(f.cr, &f.k, &f.st, 20, 30, 450, 900);   /* at 1.5 times the HUD's own units, moved off the corner */
    rgl_attach(NULL);
    cairo_surface_flush(f.s);
    check_hud_frame(f.s, &log, STEPS[i], &f.k, &f.t);
  }
  fixture_close(&f);
  CHECK_MSG(ok, "%s", e.msg);
}

/* The take's brakes differ at the steps drawn (else swapping them could not show): a check of
 * the fixture, not of the renderer. */
MT_TEST(hud_take_has_distinct_levers_throttle_and_lean) {
  mt_err e = {0};
  fixture f;
  int ok = fixture_open(&f, 64, 64, &e) == 0;
  int differ = 0, throttle = 0;
  for (long i = 0; ok && i < NSTEP; i++) {
    ok = fixture_at(&f, STEPS[i], &e) == 0;
    if (!ok) break;
    differ += fabs(tv(&f.t, "front_brake") - tv(&f.t, "rear_brake")) > 0.05;
    throttle += tv(&f.t, "throttle") > 0.1 && fabs(tv(&f.t, "lean")) > 10;
  }
  fixture_close(&f);
  CHECK_MSG(ok, "%s", e.msg);
  CHECK_MSG(differ == NSTEP && throttle >= 1, "%d of %ld steps with distinct brakes, %d on the throttle and leaned", differ, NSTEP, throttle);
}

/*---- the side and rear views' readouts and the timeline's ----*/

static void check_side_arrow(cairo_surface_t* s, const rgl_log* log, long step, const char* name, double want, double px_per_kn, int vertical) {
  const rgl_entry* e = entry(log, name);
  if (!e) return;
  CHECK_MSG(fabs(e->value - want) <= 1e-6 * (1 + fabs(want)), "step %ld: %s shows %.6f kN, the take's %.6f", step, name, e->value, want);
  double len = vertical ? e->zero[1] - e->tip[1] : e->tip[0] - e->zero[0];   /* up and forward are positive */
  CHECK_MSG(fabs(len - want * px_per_kn) < 0.5, "step %ld: %s: arrow %.1f px, the take's force makes it %.1f", step, name, len,
            want * px_per_kn);
  if (fabs(len) > 14) {   /* the shaft half way: red for Fx, blue for the load */
    px p = pixel(s, (e->zero[0] + e->tip[0]) / 2, (e->zero[1] + e->tip[1]) / 2);
    CHECK_MSG(vertical ? p.b > p.r + 60 : p.r > p.b + 60, "step %ld: %s: (%d,%d,%d) half way along the arrow", step, name, p.r, p.g, p.b);
  }
}

static void check_side_frame(fixture* f, const rgl_log* log, long step) {
  const truth* t = &f->t;
  rd_view v = rv_side_xf(&f->k, &f->st, 0, 0, 800, 450);
  double kn = 0.15 * v.s;   /* 1 kN draws 0.15 m long */
  static const char* const P[2] = {"front", "rear"};
  for (int wi = 0; wi < 2 && !mt_test_failed; wi++) {
    char n[64], fxn[32];
    snprintf(fxn, sizeof fxn, "%s_fx", P[wi]);
    double fx = tv(t, fxn) / 1000, fz = tv(t, wi ? "rear_load" : "front_load") / 1000;
    snprintf(n, sizeof n, "side.%s_fx", P[wi]);
    check_side_arrow(f->s, log, step, n, fx, kn, 0);
    snprintf(n, sizeof n, "side.%s_fz", P[wi]);
    check_side_arrow(f->s, log, step, n, fz, kn, 1);
    snprintf(n, sizeof n, "side.%s_forces.text", P[wi]);
    check_textf(f->s, log, step, n, fx, "%s Fx %+.2f kN  Fz %.2f kN", P[wi], shown(fx, 0.01), shown(fz, 0.01));
  }
  double fork = 1000 * tv(t, "fork_travel"), shock = 1000 * tv(t, "shock_travel");
  check_textf(f->s, log, step, "side.suspension.text", fork, "fork %.0f mm  shock %.0f mm", shown(fork, 1), shown(shock, 1));
  CHECK_MSG(log->n == 7 && !log->dropped, "step %ld: the side view logged %d instruments, the test knows 7", step, log->n);
}

/* The rear view's lean line and the crown inset's dot. The line runs from the rear contact through
 * the frame's centre of mass (docs/render.md), so it leans as the take's lean channel does (left
 * of the vertical for lean < 0, seen from behind) but not exactly by it: the contact moves across
 * the crown with the camber (5.6° less than the channel at −33.3°, step 450; see docs/testing.md),
 * hence the 10° bound. The dot sits on the crown's arc at 90° + the rear camber (y down), on the
 * side the machine leans to; the probes are red on the line at 0.6 of its length and at the dot. */
static void check_rear_line_and_crown(fixture* f, const rgl_log* log, long step) {
  double lean = tv(&f->t, "lean"), camber = tv(&f->t, "rear_camber");
  const rgl_entry* e = entry(log, "rear.lean_line");
  if (!e) return;
  double dx = e->tip[0] - e->zero[0], dy = e->tip[1] - e->zero[1], drawn = atan2(dx, -dy) * 180 / M_PI;
  CHECK_MSG(e->kind == RGL_NEEDLE && fabs(e->value - drawn) < 1e-6, "step %ld: rear.lean_line logged %.3f deg, drawn at %.3f", step,
            e->value, drawn);
  CHECK_MSG(fabs(drawn - lean) < 10 && drawn * lean > 0, "step %ld: rear.lean_line drawn %+.1f deg from the vertical, the take's lean %+.1f",
            step, drawn, lean);
  px p = pixel(f->s, e->zero[0] + 0.6 * dx, e->zero[1] + 0.6 * dy);
  CHECK_MSG(is_red(p), "step %ld: rear.lean_line: (%d,%d,%d) at 0.6 of the line, not red", step, p.r, p.g, p.b);
  const rgl_entry* d = entry(log, "rear.crown");
  if (!d) return;
  double R = (d->box[2] - d->box[0]) / 2, ix = (d->box[0] + d->box[2]) / 2, iy = (d->box[1] + d->box[3]) / 2;
  double a = M_PI / 2 + camber * M_PI / 180, wx = ix + R * cos(a), wy = iy + R * sin(a);
  CHECK_MSG(d->kind == RGL_DOT && fabs(d->value - camber) < 1e-6, "step %ld: rear.crown shows %.6f, the take's rear camber %.6f", step,
            d->value, camber);
  CHECK_MSG(hypot(d->tip[0] - wx, d->tip[1] - wy) < 0.5, "step %ld: rear.crown: dot logged at (%.1f, %.1f), the take's camber puts it at (%.1f, %.1f)",
            step, d->tip[0], d->tip[1], wx, wy);
  CHECK_MSG((wx - ix) * dx > 0, "step %ld: rear.crown: the dot is on the other side from the lean (%+.1f deg)", step, lean);
  p = pixel(f->s, wx, wy);
  CHECK_MSG(is_red(p), "step %ld: rear.crown: (%d,%d,%d) where the dot should be, not red", step, p.r, p.g, p.b);
}

static void check_rear_frame(fixture* f, const rgl_log* log, long step) {
  const truth* t = &f->t;
  double lean = tv(t, "lean"), hip = 1000 * tv(t, "hip_shift");
  check_textf(f->s, log, step, "rear.lean.text", lean, "lean %+.1f°", shown(lean, 0.1));
  check_textf(f->s, log, step, "rear.camber.text", tv(t, "front_camber"), "camber front %+.1f°  rear %+.1f°",
              shown(tv(t, "front_camber"), 0.1), shown(tv(t, "rear_camber"), 0.1));
  check_textf(f->s, log, step, "rear.rider.text", hip, "rider hip %+.0f mm  torso %+.1f°", shown(hip, 1), shown(tv(t, "torso_lean"), 0.1));
  check_rear_line_and_crown(f, log, step);
  CHECK_MSG(log->n == 5 && !log->dropped, "step %ld: the rear view logged %d instruments, the test knows 5", step, log->n);
}

/* The range the timeline is drawn for (render's --from/--to): every step drawn lies inside it. */
#define TL_FROM 0.1
#define TL_TO 0.5

/* The timeline's progress bar over the range shown: filled from its left end to frac of its
 * track (the yellow fill 2 px inside the end, the grey track 2 px beyond). */
static void check_progress(cairo_surface_t* s, const rgl_log* log, long step, double frac) {
  const rgl_entry* e = entry(log, "timeline.progress");
  if (!e) return;
  double x0 = e->box[0], x1 = e->box[2], cy = (e->box[1] + e->box[3]) / 2, tx = x0 + frac * (x1 - x0);
  CHECK_MSG(e->kind == RGL_HBAR && fabs(e->value - frac) < 1e-9, "step %ld: timeline.progress shows %.6f, the frame's time over the take %.6f",
            step, e->value, frac);
  CHECK_MSG(fabs(e->zero[0] - x0) < 0.5 && fabs(e->tip[0] - tx) < 0.5, "step %ld: timeline.progress: fill logged to x %.1f, the frame's time puts it at %.1f",
            step, e->tip[0], tx);
  px in = pixel(s, tx - 2, cy), out = pixel(s, tx + 2, cy);
  CHECK_MSG(in.r > 200 && in.b < 100, "step %ld: timeline.progress: (%d,%d,%d) 2 px inside x %.1f, not the yellow fill", step, in.r, in.g,
            in.b, tx);
  CHECK_MSG(abs(out.r - 89) <= 6 && abs(out.b - 102) <= 6, "step %ld: timeline.progress: (%d,%d,%d) 2 px beyond x %.1f, not the empty track",
            step, out.r, out.g, out.b, tx);
}

/* the timeline's time, length and the legend of the default channels (RS_DEFAULT_PLOT) */
static void check_timeline_frame(fixture* f, const rgl_log* log, long step) {
  static const char* const PLOT[] = {"speed", "lean", "throttle", "front_brake", "steer_torque"};
  double t = step * f->k.dt;
  check_textf(f->s, log, step, "timeline.time.text", t, "%.2f s", t);
  check_textf(f->s, log, step, "timeline.duration.text", f->k.duration, "%.1f s", f->k.duration);
  for (int c = 0; c < 5 && !mt_test_failed; c++) {
    char n[64];
    snprintf(n, sizeof n, "timeline.legend.%d.text", c);
    double v = tv(&f->t, PLOT[c]);   /* as a logger prints them: km/h to 1, 0.1°, % to 1, 0.1 N·m */
    if (c == 0) check_textf(f->s, log, step, n, v, "speed %.0f km/h", shown(3.6 * v, 1));
    else if (c == 1) check_textf(f->s, log, step, n, v, "lean %+.1f°", shown(v, 0.1));
    else if (c == 4) check_textf(f->s, log, step, n, v, "steer torque %+.1f N·m", shown(v, 0.1));
    else check_textf(f->s, log, step, n, v, "%s %.0f %%", c == 2 ? "throttle" : "front brake", shown(100 * v, 1));
  }
  check_progress(f->s, log, step, (t - TL_FROM) / (TL_TO - TL_FROM));
  CHECK_MSG(log->n == 8 && !log->dropped, "step %ld: the timeline logged %d instruments, the test knows 8", step, log->n);
}

MT_TEST(hud_side_rear_and_timeline_readouts_show_the_takes_channels) {
  mt_err e = {0};
  fixture f;
  static rgl_log log;
  rv_cache cache;
  int ok = fixture_open(&f, 800, 450, &e) == 0;
  if (ok) rv_cache_init(&cache, &f.k);
  for (long i = 0; ok && i < NSTEP && !mt_test_failed; i++) {
    ok = fixture_at(&f, STEPS[i], &e) == 0;
    if (!ok) break;
    rgl_attach(&log);
    rv_side(f.cr, &f.k, &f.st, NULL, NULL, 0, 0, 800, 450);
    cairo_surface_flush(f.s);
    check_side_frame(&f, &log, STEPS[i]);
    if (mt_test_failed) break;
    rgl_attach(&log);
    rv_rear(f.cr, &f.k, &f.st, NULL, NULL, 0, 0, 800, 450);
    cairo_surface_flush(f.s);
    check_rear_frame(&f, &log, STEPS[i]);
    if (mt_test_failed) break;
    rgl_attach(&log);
    rv_timeline(f.cr, &cache, &f.k, &f.st, TL_FROM, TL_TO, 0, 0, 800, 120);   /* as `render --from 0.1 --to 0.5` */
    cairo_surface_flush(f.s);
    check_timeline_frame(&f, &log, STEPS[i]);
    rgl_attach(NULL);
  }
  if (ok) rv_cache_free(&cache);
  fixture_close(&f);
  CHECK_MSG(ok, "%s", e.msg);
}

/*---- the plan view's numbers: the scale bar, the speed key, the gap to the ghost ----*/

#define PLAN_SPAN 40.0   /* metres across the view, as `render --span 40` */

static const char* ghost_take(mt_err* e) { return mt_test_take("hud_ghost", e); }

/* One channel of a take at every step, read with the test's own reader (the caller frees). */
static double* channel_all(const char* path, const char* name, long* n, double* dt, mt_err* e) {
  take_reader* r = take_open(path, e);
  if (!r) return NULL;
  const take_schema* s = take_schema_of(r);
  int j = -1, nc = s->nchan;
  for (int i = 0; i < nc; i++)
    if (!strcmp(s->chan_names[i], name)) j = i;
  *n = take_nsteps(r);
  *dt = s->timestep;
  double *all = malloc(sizeof(double) * (size_t)nc * (size_t)*n), *out = malloc(sizeof(double) * (size_t)*n);
  int rc = j < 0 || take_read(r, TAKE_CHAN, 0, *n, all, e);
  for (long i = 0; !rc && i < *n; i++) out[i] = all[i * nc + j];
  free(all);
  take_close(r);
  if (rc) {
    free(out);
    if (!e->code) mt_fail(e, MT_EINPUT, "%s: no channel '%s'", path, name);
    return NULL;
  }
  return out;
}

/* The scale bar: as long in pixels as the metres it prints at the view's span (w/span px per m),
 * read from the text as drawn; dark ink along it. */
static void check_scale_bar(cairo_surface_t* s, const rgl_log* log, long step, double w) {
  const rgl_entry *b = entry(log, "plan.scale_bar"), *t = entry(log, "plan.scale_bar.text");
  if (!b || !t) return;
  char* end;
  double m = strtod(t->text, &end), len = b->tip[0] - b->zero[0], want = m * w / PLAN_SPAN;
  CHECK_MSG(!strcmp(end, " m") && m > 0, "step %ld: plan.scale_bar.text reads '%s', not a length in m", step, t->text);
  CHECK_MSG(fabs(len - want) < 0.5, "step %ld: plan.scale_bar is %.1f px, '%s' at a %.0f m span is %.1f px", step, len, t->text, PLAN_SPAN,
            want);
  CHECK_MSG(len > 0.1 * w && len < 0.5 * w, "step %ld: plan.scale_bar is %.1f px of a %.0f px view", step, len, w);
  for (int i = 1; i < 4 && !mt_test_failed; i++) {
    px p = pixel(s, b->zero[0] + i * len / 4, b->zero[1]);
    CHECK_MSG(p.r + p.g + p.b < 60, "step %ld: plan.scale_bar: (%d,%d,%d) at %d/4 of its length, not black", step, p.r, p.g, p.b, i);
  }
  CHECK_MSG(ink(s, t->box) >= 5, "step %ld: plan.scale_bar.text: no text drawn in its box", step);
}

/* The speed key's top: the take's highest speed over the history the trail is drawn from (every
 * 1/50 s: the steps that are multiples of round(0.02/dt)), in km/h. */
static void check_speed_key(cairo_surface_t* s, const rgl_log* log, long step, const double* speed, long n, double dt) {
  long every = lround(0.02 / dt);
  double vmax = 0;
  for (long i = 0; i < n; i += every) vmax = fmax(vmax, speed[i]);
  check_textf(s, log, step, "plan.speed_key.text", vmax * 3.6, "trail speed 0 to %.0f km/h", vmax * 3.6);
}

/* The gap: the frame's time less the time at which the ghost had covered the distance this take
 * has now, the ghost's distance channel interpolated linearly between its steps (the renderer
 * interpolates its 50 Hz history: within 1 ms here). Negative: ahead of the ghost. */
static void check_gap(cairo_surface_t* s, const rgl_log* log, long step, double t, double d, const double* gd, long gn, double gdt) {
  double tg = NAN;
  for (long i = 0; i + 1 < gn && isnan(tg); i++)
    if (gd[i] <= d && d <= gd[i + 1] && gd[i + 1] > gd[i]) tg = (i + (d - gd[i]) / (gd[i + 1] - gd[i])) * gdt;
  const rgl_entry* e = entry(log, "plan.gap.text");
  if (!e) return;
  double gap = t - tg;
  CHECK_MSG(isfinite(gap) && fabs(gap) > 0.01, "step %ld: the ghost never covers %.3f m, or the gap %.4f s is too small to test", step, d, gap);
  CHECK_MSG(fabs(e->value - gap) < 1e-3, "step %ld: plan.gap.text shows %+.4f s, the two takes' distances give %+.4f", step, e->value, gap);
  char want[96];
  snprintf(want, sizeof want, "gap to ghost %+.2f s (%s)", shown(e->value, 0.01), gap > 0 ? "behind" : "ahead");
  CHECK_MSG(!strcmp(e->text, want), "step %ld: plan.gap.text reads '%s', the gap %+.4f s prints '%s'", step, e->text, gap, want);
  int teal = 0;   /* the gap is printed in (0, 0.35, 0.45), on the road or the grass */
  for (int y = (int)floor(e->box[1]); y <= (int)ceil(e->box[3]); y++)
    for (int x = (int)floor(e->box[0]); x <= (int)ceil(e->box[2]); x++) {
      px p = pixel(s, x, y);
      teal += p.r >= 0 && p.r < 40 && p.b > p.r + 60 && p.b < 160;
    }
  CHECK_MSG(teal >= 5, "step %ld: plan.gap.text: no text drawn in its box", step);
}

MT_TEST(hud_plan_scale_bar_speed_key_and_gap_match_the_takes) {
  mt_err e = {0};
  fixture f;
  static rgl_log log;
  rv_cache cache;
  rs_take g = {0};
  rs_state gst = {0};
  double *speed = NULL, *gd = NULL, dt = 0, gdt = 0;
  long n = 0, gn = 0;
  const double W = 800, H = 450;
  int ok = fixture_open(&f, (int)W, (int)H, &e) == 0;
  const char* gp = ok ? ghost_take(&e) : NULL;
  ok = ok && gp && rs_open(&g, gp, NULL, &e) == 0;
  int cached = ok;
  if (ok) {
    rs_state_init(&g, &gst);
    rv_cache_init(&cache, &f.k);
    speed = channel_all(f.k.path, "speed", &n, &dt, &e);
    gd = speed ? channel_all(gp, "distance", &gn, &gdt, &e) : NULL;
    ok = gd != NULL;
  }
  for (long i = 0; ok && i < NSTEP && !mt_test_failed; i++) {
    double t = STEPS[i] * f.k.dt;
    ok = fixture_at(&f, STEPS[i], &e) == 0 && rs_at(&g, t, &gst, &e) == 0;
    if (!ok) break;
    rgl_attach(&log);
    rv_plan(f.cr, &cache, &f.k, &f.st, &g, &gst, 0, 0, W, H, PLAN_SPAN);
    rgl_attach(NULL);
    cairo_surface_flush(f.s);
    check_scale_bar(f.s, &log, STEPS[i], W);
    check_speed_key(f.s, &log, STEPS[i], speed, n, dt);
    check_gap(f.s, &log, STEPS[i], t, tv(&f.t, "distance"), gd, gn, gdt);
    CHECK_MSG(log.n == 4 && !log.dropped, "step %ld: the plan view logged %d instruments, the test knows 4", STEPS[i], log.n);
  }
  free(speed);
  free(gd);
  if (gst.pose) rs_state_free(&gst);
  if (g.r) rs_close(&g);
  if (cached) rv_cache_free(&cache);
  fixture_close(&f);
  CHECK_MSG(ok, "%s", e.msg);
}
