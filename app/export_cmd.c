/* export_cmd.c — `mototake export-demo`: the exporter on the synthetic ride (exporters/demo.h),
 * for tests, benchmarks and trying import settings without a take. The `export TAKE` command
 * reads a take into an ex_motion and calls the same ex_export. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "exporters/demo.h"
#include "exporters/motion.h"
#include "base/cli.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Parse the options shared with `export TAKE` into o; MT_OK or MT_EINPUT naming the option. */
static int read_options(const cli* c, ex_options* o, mt_err* e) {
  ex_options_default(o);
  if (cli_double(c, "fps", 30, -1e300, 1e300, &o->fps, e) ||
      cli_double(c, "from", 0, -1e300, 1e300, &o->from, e) ||
      cli_double(c, "to", -1, -1e300, 1e300, &o->to, e) ||
      cli_double(c, "reduce", 0, 0, 1e3, &o->reduce_tol_pos, e))
    return e->code;
  /* one --reduce TOL bounds positions by TOL metres and rotations by TOL radians (TOL metres
   * at 1 m from a node's origin); --reduce-ang sets the angle separately */
  o->reduce_tol_ang = o->reduce_tol_pos;
  if (cli_double(c, "reduce-ang", o->reduce_tol_ang, 0, 3, &o->reduce_tol_ang, e)) return e->code;
  if (cli_set(c, "fps") && !(o->fps > 0))
    return mt_fail(e, MT_EINPUT, "%s: --fps: %g must be > 0", c->command, o->fps);
  if (fabs(o->fps - round(o->fps)) > 1e-9)   /* Blender's importers ignore fps_base: 29.97 would drift */
    return mt_fail(e, MT_EINPUT, "%s: --fps: %g is not a whole number of frames per second (Blender would drift; "
                   "export at %.0f and retime in the editor)", c->command, o->fps, round(o->fps));
  o->frame1 = 1;   /* glTF keys from frame 1 in Blender, as FBX's (docs/export.md) */
  if (cli_set(c, "to") && o->to < 0)
    return mt_fail(e, MT_EINPUT, "%s: --to: %g s is before the start of the motion", c->command, o->to);
  const char* up = cli_str(c, "up", "y");
  if (strcmp(up, "y") && strcmp(up, "z")) return mt_fail(e, MT_EINPUT, "%s: --up: expected y or z, got '%s'", c->command, up);
  if (cli_set(c, "up")) o->up_y = strcmp(up, "y") == 0;   /* else the format's own (ex_options_default) */
  o->with_track = !cli_set(c, "no-track");
  o->with_camera = cli_set(c, "camera");
  return MT_OK;
}

static void print_report(const ex_report* r, const char* path, double secs, int json) {
  if (json) {
    printf("{\"file\": \"%s\", \"format\": \"%s\", \"bytes\": %ld, \"frames\": %ld, \"duration\": %.6f, "
           "\"nodes\": %d, \"meshes\": %d, \"materials\": %d, \"channels\": %d, \"subkeys\": %ld, "
           "\"keys_before\": %ld, \"keys_after\": %ld, \"max_err_pos\": %.3g, \"max_err_ang\": %.3g, "
           "\"fbx_repaired\": %d, \"seconds\": %.4f}\n",
           path, r->format, r->bytes, r->frames, r->duration, r->nodes, r->meshes, r->materials, r->channels,
           r->subkeys, r->keys_before, r->keys_after, r->max_err_pos, r->max_err_ang, r->fbx_repaired, secs);
    return;
  }
  printf("%s: %s, %ld bytes\n", path, r->format, r->bytes);
  printf("  %ld frames over %.3f s, %d nodes, %d meshes, %d materials, %d animated\n", r->frames, r->duration,
         r->nodes, r->meshes, r->materials, r->channels);
  printf("  keys: %ld (of which %ld spin sub-keys), %ld after reduction (max error %.3g m, %.3g rad)\n",
         r->keys_before, r->subkeys, r->keys_after, r->max_err_pos, r->max_err_ang);
  if (r->fbx_repaired) printf("  FBX: repaired the Assimp 5.2 missing-sentinel defect\n");
  if (secs >= 0) printf("  export time: %.3f s\n", secs);
}

int cmd_export_demo(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "export-demo");
  const char* opts[] = {"o", "fps", "from", "to", "reduce", "reduce-ang", "up", "duration", "rate"};
  for (size_t i = 0; i < MT_ARRAY_LEN(opts); i++) cli_arg(&c, opts[i]);
  cli_flag(&c, "no-track");
  cli_flag(&c, "camera");
  cli_flag(&c, "json");
  cli_flag(&c, "bench");
  if (cli_parse(&c, argc, argv, 0, 0, &e) != MT_OK) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "export-demo: -o FILE is required (.glb, .gltf or .fbx)");
    return cli_report(&e);
  }
  ex_options o;
  double duration, rate;
  if (read_options(&c, &o, &e) || cli_double(&c, "duration", 2, 0.01, 3600, &duration, &e) ||
      cli_double(&c, "rate", 1000, 1, 100000, &rate, &e))
    return cli_report(&e);
  if (!ex_format_for_path(out)) {   /* before the (possibly large) motion is built */
    const char* dot = strrchr(out, '.');
    mt_fail(&e, MT_EINPUT, "%s: unknown export format '%s' (use .glb, .gltf or .fbx)", out,
            dot && !strchr(dot, '/') ? dot : "(no extension)");
    return cli_report(&e);
  }
  ex_demo d;
  ex_demo_build(&d, duration, 1.0 / rate);
  ex_report r;
  double t0 = now();
  ex_export(&d.m, &o, out, &r, &e);
  double secs = now() - t0;
  ex_demo_free(&d);
  if (e.code) return cli_report(&e);
  print_report(&r, out, cli_set(&c, "bench") ? secs : -1, cli_set(&c, "json"));
  return 0;
}
