/* render_blender.h — `mototake render --engine blender` (module prefix rb_): the take's frames
 * rendered photoreal by Blender (EEVEE, headless) through the add-on, mototake's instruments laid
 * over them and encoded by the renderer's own sink (render/frames.h) like any other render.
 *
 * Contract:
 *   rb_check_args — the options the Blender engine takes (called before the take is opened):
 *     refuses the Cairo-only ones (--view, --grid, --compare, --span, --speed other than 1), a
 *     frame rate that is not whole (the export's keys are whole frames), an unknown --camera
 *     (rigs/cameras.lua) and --samples outside 1..256; finds Blender: $MOTOTAKE_BLENDER, else
 *     `blender` on PATH. Each refusal is MT_EINPUT with one line; so is Blender missing.
 *   rb_render — exports the take's range (this program's `export`, GLB) into a private
 *     temporary folder, runs Blender on it (mototake_io.render_cli: import with the scene set up,
 *     the chosen camera, EEVEE at rr_view_area's size), then draws every frame with
 *     rr_draw_picture into the sink. Progress on stderr (base/progress.h): Blender's frames,
 *     then the encoding. The temporary folder is removed whatever happens; the sink's output is
 *     the caller's (fo_close(ok = 0) deletes it on failure). Blender refusing the file is
 *     MT_EINPUT, Blender failing otherwise MT_EINTERNAL, each with Blender's last line. */
#ifndef RENDER_BLENDER_H
#define RENDER_BLENDER_H

#include <limits.h>
#include <signal.h>

#include "base/cli.h"
#include "render/frames.h"
#include "render/render.h"

typedef struct rb_job {
  char blender[PATH_MAX];   /* the Blender program (rb_check_args) */
  const char* take;
  const char* camera;       /* camera rig (default chase) */
  int samples;              /* EEVEE samples a pixel */
  int fps;                  /* whole frames a second */
  int W, H;                 /* Blender's picture: rr_view_area */
  double t0, dur;           /* take time of the first frame; the take's length */
  long n;                   /* frames */
  int quiet;
  volatile sig_atomic_t* stop;   /* set by SIGINT/SIGTERM: the render stops, nothing is left */
} rb_job;

/* c: the parsed `render` options; o: its rr_opts (camera is moved into j and cleared: the
 * Cairo views do not draw); fps, speed: the checked --fps and --speed. */
int rb_check_args(const cli* c, rr_opts* o, double fps, double speed, rb_job* j, mt_err* e);
int rb_render(rr_ctx* rc, fo_sink* sink, const rb_job* j, mt_err* e);

#endif
