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
 * documented order: swapping two gauges' values or their places fails here. */
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

static const char* hud_take(mt_err* e) {
  static char out[4096];
  static int made;
  if (made) return out;
  char script[4096];
  snprintf(script, sizeof script, "%s/tests/data/hud_gauges.lua", mt_test_root());
  snprintf(out, sizeof out, "%s/hud_gauges.take", mt_test_tmpdir());
  run_opts o = {0};
  o.script = script;
  o.out = out;
  o.quiet = 1;
  run_result res;
  if (run_take(&o, &res, e)) return NULL;
  made = 1;
  return out;
}

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
  check_textf(s, log, step, n, opt, "optimum %.1f°", opt);
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
  check_textf(s, log, step, "hud.speed", speed, "%.0f", speed);
  check_textf(s, log, step, "hud.gear", lround(tv(t, "gear")), "%ld", lround(tv(t, "gear")));
  check_textf(s, log, step, "hud.rpm", rpm, "%.0f", rpm);
  check_vbar(s, log, step, "hud.throttle", tv(t, "throttle"));
  check_vbar(s, log, step, "hud.front_brake", tv(t, "front_brake"));
  check_vbar(s, log, step, "hud.rear_brake", tv(t, "rear_brake"));
  check_vbar(s, log, step, "hud.fork", tv(t, "fork_travel") / 0.12);   /* full bar: 120 mm */
  check_vbar(s, log, step, "hud.shock", tv(t, "shock_travel") / 0.06);  /* full bar: 60 mm */
  check_vbar(s, log, step, "hud.rpm_bar", rpm / 14000);
  check_needle(s, log, step, "hud.lean", lean, -M_PI / 2 + fmin(fmax(lean, -70), 70) * D);   /* up is upright */
  check_textf(s, log, step, "hud.lean.text", lean, "lean %+.1f°", lean);
  check_hbar(s, log, step, "hud.steer_torque", tq / 50);
  check_textf(s, log, step, "hud.steer_torque.text", tq, "steer torque %+.1f N·m (full bar 50)", tq);
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
    check_textf(s, log, step, n, mu, "%s μ %.2f", P[wi], mu);
    snprintf(n, sizeof n, "hud.%s_slip", P[wi]);   /* −12° at the left, +12° at the right */
    check_needle(s, log, step, n, a, M_PI + M_PI * (fmin(fmax(a, -12), 12) + 12) / 24);
    snprintf(n, sizeof n, "hud.%s_slip.text", P[wi]);
    check_textf(s, log, step, n, a, "%s %+.1f°", P[wi], a);
    check_optimum(s, log, step, k, t, wi);
  }
  if (mt_test_failed) return;
  double bal = fabs(af) - fabs(ar);
  check_hbar(s, log, step, "hud.balance", bal / 3);   /* full bar: 3° */
  check_textf(s, log, step, "hud.balance.text", bal, "balance |α_f| − |α_r| %+.2f°", bal);
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
    check_textf(f->s, log, step, n, fx, "Fx %.2f kN  Fz %.2f kN", fx, fz);
  }
  double fork = 1000 * tv(t, "fork_travel"), shock = 1000 * tv(t, "shock_travel");
  check_textf(f->s, log, step, "side.suspension.text", fork, "fork %.0f mm   shock %.1f mm", fork, shock);
  CHECK_MSG(log->n == 7 && !log->dropped, "step %ld: the side view logged %d instruments, the test knows 7", step, log->n);
}

static void check_rear_frame(fixture* f, const rgl_log* log, long step) {
  const truth* t = &f->t;
  double lean = tv(t, "lean"), hip = 1000 * tv(t, "hip_shift");
  check_textf(f->s, log, step, "rear.lean.text", lean, "lean %+.1f°", lean);
  check_textf(f->s, log, step, "rear.camber.text", tv(t, "front_camber"), "camber front %+.1f°  rear %+.1f°", tv(t, "front_camber"),
              tv(t, "rear_camber"));
  check_textf(f->s, log, step, "rear.rider.text", hip, "rider: hip %+.0f mm, torso %+.1f°", hip, tv(t, "torso_lean"));
  CHECK_MSG(log->n == 3 && !log->dropped, "step %ld: the rear view logged %d instruments, the test knows 3", step, log->n);
}

/* the timeline's time, length and the legend of the default channels (RS_DEFAULT_PLOT) */
static void check_timeline_frame(fixture* f, const rgl_log* log, long step) {
  static const char* const PLOT[] = {"speed", "lean", "throttle", "front_brake", "steer_torque"};
  static const char* const UNIT[] = {"m/s", "deg", "1", "1", "N*m"};
  double t = step * f->k.dt;
  check_textf(f->s, log, step, "timeline.time.text", t, "%.2f s", t);
  check_textf(f->s, log, step, "timeline.duration.text", f->k.duration, "%.1f s", f->k.duration);
  for (int c = 0; c < 5 && !mt_test_failed; c++) {
    char n[64];
    snprintf(n, sizeof n, "timeline.legend.%d.text", c);
    double v = tv(&f->t, PLOT[c]);
    check_textf(f->s, log, step, n, v, "%s %.3g %s", PLOT[c], v, UNIT[c]);
  }
  CHECK_MSG(log->n == 7 && !log->dropped, "step %ld: the timeline logged %d instruments, the test knows 7", step, log->n);
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
    rv_timeline(f.cr, &cache, &f.k, &f.st, 0, f.k.duration, 0, 0, 800, 120);
    cairo_surface_flush(f.s);
    check_timeline_frame(&f, &log, STEPS[i]);
    rgl_attach(NULL);
  }
  if (ok) rv_cache_free(&cache);
  fixture_close(&f);
  CHECK_MSG(ok, "%s", e.msg);
}
