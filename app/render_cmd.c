/* render_cmd.c — `mototake render`: a take to an MP4 or PNG frames (render.h, frames.h).
 *
 * Stages: render_args_read (the options, each checked before the take is opened), frame_range
 * (--at, or --from/--to at --fps and --speed, within the take), rp_render (draw each frame
 * into the sink's buffer and submit it; an interruption stops the loop and leaves no file).
 * --engine blender: the frames come from Blender instead (app/render_blender.h). */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/render_blender.h"
#include "render/draw.h"
#include "render/frames.h"
#include "base/progress.h"
#include "render/pool.h"
#include "render/render.h"
#include "base/cli.h"
#include "base/stop.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Ctrl-C or a termination request ends the render cleanly: the loop stops and fo_close removes
 * what was written, so an interrupted render leaves no file either. */
static volatile sig_atomic_t g_stop;
static void on_signal(int sig) { g_stop = sig; }

/* The command's options, checked. */
typedef struct render_args {
  const char* out;
  int kind;                   /* fo_kind(out) */
  int W, H;
  double fps, speed;
  rr_opts o;
} render_args;

static int render_args_read(const cli* c, render_args* a, mt_err* e) {
  const char* out = a->out = cli_str(c, "o", NULL);
  if (!out) return mt_fail(e, MT_EINPUT, "render: -o OUT.mp4|FRAMES/%%05d.png|STILL.png is required");
  int kind = a->kind = fo_kind(out);
  if (kind < 0) return mt_fail(e, MT_EINPUT, "render: -o %s: unknown output (use OUT.mp4, FRAMES/%%05d.png or STILL.png)", out);
  int W = 1280, H = 720;
  if (cli_set(c, "size") && draw_parse_size(cli_str(c, "size", ""), &W, &H))
    return mt_fail(e, MT_EINPUT, "render: --size: expected WxH with each within 64..8192 (8K), got '%s'", cli_str(c, "size", ""));
  if (kind == FO_MP4 && (W % 2 || H % 2))
    return mt_fail(e, MT_EINPUT, "render: --size %dx%d: an MP4 (yuv420p) needs an even width and height, e.g. %dx%d", W, H,
                   W + W % 2, H + H % 2);
  a->W = W, a->H = H;
  double fps, speed, span;
  if (cli_double(c, "fps", 30, -1e300, 1e300, &fps, e) || cli_double(c, "speed", 1, -1e300, 1e300, &speed, e) ||
      cli_double(c, "span", 120, -1e300, 1e300, &span, e))
    return e->code;
  if (!(fps > 0) || fps > 240) return mt_fail(e, MT_EINPUT, "render: --fps: must be > 0 and at most 240, got %g", fps);
  if (!(speed >= 0.25 && speed <= 4)) return mt_fail(e, MT_EINPUT, "render: --speed: must be within 0.25..4, got %g", speed);
  if (!(span >= 5 && span <= 100000)) return mt_fail(e, MT_EINPUT, "render: --span: must be within 5..100000 m, got %g", span);
  a->fps = fps, a->speed = speed;
  const char* hud = cli_str(c, "hud", "on");
  if (strcmp(hud, "on") && strcmp(hud, "off")) return mt_fail(e, MT_EINPUT, "render: --hud: expected on or off, got '%s'", hud);
  a->o = (rr_opts){cli_str(c, "view", "side"), cli_str(c, "grid", NULL), span, !strcmp(hud, "on"), cli_str(c, "camera", NULL), 0, 0, cli_str(c, "plot", NULL), NULL, NULL};
  if (cli_set(c, "grid") && strcmp(a->o.view, "grid")) return mt_fail(e, MT_EINPUT, "render: --grid needs --view grid");
  a->o.captions = cli_str(c, "captions", NULL);   /* read and checked with the take (rr_open) */
  a->o.overlays = cli_str(c, "overlays", NULL);
  return MT_OK;
}

/* A time given on the command line at or past the take's end by at most one step is the end:
 * the take's clock stops one step short of its nominal length (a 12 s take at 1 ms ends at
 * 11.999 s), so `--to 12` means "to the end". Further past the end is refused. */
static int clamp_to_end(double* t, double dur, double dt) {
  if (*t > dur && *t <= dur + dt + 1e-9) *t = dur;
  return *t <= dur + 1e-9;
}

/* The frames to draw: one at --at T, or n from --from to --to (the take's whole length by
 * default) at fps frames a second of video showing speed seconds of take each. */
static int frame_range(const cli* c, const render_args* a, double dur, double dt, double* t0, double* t1, long* n, mt_err* e) {
  if (cli_set(c, "at")) {
    if (cli_set(c, "from") || cli_set(c, "to")) return mt_fail(e, MT_EINPUT, "render: --at T is one frame: give it without --from/--to");
    if (cli_double(c, "at", 0, -1e300, 1e300, t0, e)) return e->code;
    if (*t0 < 0 || !clamp_to_end(t0, dur, dt))
      return mt_fail(e, MT_EINPUT, "render: --at %g is outside the take (0 .. %.3f s, or its end + one step of %g s)", *t0, dur, dt);
    *t1 = *t0;
    *n = 1;
  } else {
    if (cli_double(c, "from", 0, -1e300, 1e300, t0, e) || cli_double(c, "to", dur, -1e300, 1e300, t1, e)) return e->code;
    double to = *t1;
    if (*t0 < 0 || !clamp_to_end(t1, dur, dt) || *t0 >= *t1)
      return mt_fail(e, MT_EINPUT, "render: --from %g --to %g is not a range within the take (0 .. %.3f s; --to up to one step of %g s past the end is the end)",
                     *t0, to, dur, dt);
    *n = (long)ceil((*t1 - *t0) * a->fps / a->speed - 1e-9);
  }
  if (a->kind == FO_PNG_ONE && *n != 1)
    return mt_fail(e, MT_EINPUT, "render: -o %s is one picture but the range has %ld frames: use --at T or a %%05d pattern", a->out,
                   *n);
  return MT_OK;
}


int cmd_render_lesson(int argc, char** argv);   /* app/lesson_cmd.c */

int cmd_render(int argc, char** argv) {
  for (int i = 0; i < argc; i++)   /* --lesson NAME: a lesson's preset instead of a take (docs/render.md, Lessons) */
    if (!strcmp(argv[i], "--lesson") || !strncmp(argv[i], "--lesson=", 9)) return cmd_render_lesson(argc, argv);
  cli c;
  mt_err e = {0};
  cli_init(&c, "render");
  const char* args[] = {"o", "view", "grid", "fps", "size", "from", "to", "at", "speed", "hud", "span", "camera", "compare", "plot",
                        "engine", "samples", "captions", "overlays", "threads"};
  for (size_t i = 0; i < MT_ARRAY_LEN(args); i++) cli_arg(&c, args[i]);
  cli_flag(&c, "quiet");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  render_args a;
  if (render_args_read(&c, &a, &e)) return cli_report(&e);
  const char* engine = cli_str(&c, "engine", "cairo");
  rb_job bj = {.take = c.pos[0], .quiet = cli_set(&c, "quiet"), .stop = &g_stop};
  int blender = !strcmp(engine, "blender");
  if (!blender && strcmp(engine, "cairo")) mt_fail(&e, MT_EINPUT, "render: --engine: expected cairo or blender, got '%s'", engine);
  else if (!blender && cli_set(&c, "samples")) mt_fail(&e, MT_EINPUT, "render: --samples is for --engine blender");
  else if (blender && cli_set(&c, "overlays")) mt_fail(&e, MT_EINPUT, "render: --overlays belongs to the Cairo views (captions work with --engine blender)");
  else if (blender) rb_check_args(&c, &a.o, a.fps, a.speed, &bj, &e);
  int threads = rp_auto_threads();
  if (!e.code && cli_set(&c, "threads")) {
    if (blender) mt_fail(&e, MT_EINPUT, "render: --threads is for the Cairo views (Blender uses its own)");
    else {
      long v = 0;
      if (!cli_int(&c, "threads", threads, 1, RP_MAX_THREADS, &v, &e)) threads = (int)v;
    }
  }
  if (e.code) return cli_report(&e);
  const char* out = a.out;
  int W = a.W, H = a.H;
  double fps = a.fps, speed = a.speed;
  /* from here an interruption is handled (the process ends when the command returns) */
  g_stop = 0;
  mt_stop_saved old_sig;
  mt_stop_catch(on_signal, &old_sig);
  rr_ctx rc_;
  if (rr_open(&rc_, c.pos[0], cli_str(&c, "compare", NULL), &a.o, W, H, &e)) return cli_report(&e);
  double dur = rc_.k.duration, t0 = 0, t1 = 0;
  long n = 0;
  if (frame_range(&c, &a, dur, rc_.k.dt, &t0, &t1, &n, &e)) {
    rr_close(&rc_);
    return cli_report(&e);
  }
  rc_.o.t0 = 0;   /* the timeline's overview bar shows the whole take */
  rc_.o.t1 = dur;
  fo_sink* sink = fo_open_ring(out, W, H, fps, blender ? 2 : rp_ring(threads), &e);
  if (!sink) {
    rr_close(&rc_);
    return cli_report(&e);
  }
  fprog prog;   /* on a terminal or with MOTOTAKE_PROGRESS set (base/progress.h) */
  fprog_start(&prog, n, !cli_set(&c, "quiet") && !blender);   /* Blender's render has its own two */
  double start = now(), busy = 0;
  int rc = MT_OK;
  if (blender) {
    rr_view_area(&rc_, &bj.W, &bj.H);
    bj.t0 = t0, bj.dur = dur, bj.n = n;
    rc = rb_render(&rc_, sink, &bj, &e);
  } else {
    rp_job pj = {c.pos[0], cli_str(&c, "compare", NULL), t0, speed / fps, n, 0, n, threads, out, &g_stop, &prog};
    rc = rp_render(&rc_, sink, &pj, &e);
  }
  rc = fo_close(sink, !rc, &busy, &e) || rc;
  mt_stop_release(&old_sig);
  double el = now() - start;
  fprog_end(&prog);
  rr_close(&rc_);
  if (rc) return cli_report(&e);
  char view[96];
  snprintf(view, sizeof view, blender ? "blender, camera %s" : "%s", blender ? bj.camera : a.o.view);
  if (!cli_set(&c, "quiet"))
    printf("%s: %ld frame%s %dx%d at %g fps (%.3f s of video, take %.3f..%.3f s, speed %g), view %s; %.2f s, %.1f frames/s, "
           "encoder busy %.0f%%\n",
           out, n, n == 1 ? "" : "s", W, H, fps, n / fps, t0, t0 + (n - 1) * speed / fps, speed, view, el, n / el,
           el > 0 ? 100 * busy / el : 0);
  return 0;
}
