/* take_export.c — `mototake export`: a take's motion into glTF/GLB or FBX (exporters/export.c).
 *
 * Everything comes from the take itself: the body tree and the full-rate poses, the rig (rebuilt
 * from its embedded source) for the bodies' visual shapes, the track (likewise) for the set
 * around the road (exporters/set.h). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/dress.h"
#include "exporters/meta.h"
#include "exporters/set.h"
#include "exporters/tyres.h"
#include "exporters/motion.h"
#include "scene/take_bodies.h"
#include "base/cli.h"
#include "sim/rig.h"
#include "sim/track.h"
#include "takes/replay.h"
#include "takes/takefile.h"

int ex_take_name(const char* take_path, const char* want, char* out, size_t n, mt_err* e) {
  if (want) {
    size_t l = strlen(want);
    if (l == 0 || l >= n || strspn(want, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != l)
      return mt_fail(e, MT_EINPUT, "export: --name: '%s' must be 1 to %zu letters, digits, '_', '.' or '-'", want, n - 1);
    snprintf(out, n, "%s", want);
    return MT_OK;
  }
  /* the take file's name without its folder and its .take */
  const char* b = strrchr(take_path, '/');
  b = b ? b + 1 : take_path;
  size_t l = strlen(b);
  if (l > 5 && !strcmp(b + l - 5, ".take")) l -= 5;
  size_t j = 0;
  for (size_t i = 0; i < l && j < n - 1; i++) {
    char ch = b[i];
    out[j++] = (isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == '-') ? ch : '_';
  }
  out[j] = 0;
  if (!j) snprintf(out, n, "take");
  return MT_OK;
}

int cmd_export(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "export");
  const char* args[] = {"o", "fps", "from", "to", "reduce", "up", "name", "channels"};
  for (size_t i = 0; i < MT_ARRAY_LEN(args); i++) cli_arg(&c, args[i]);
  cli_flag(&c, "no-track");
  cli_flag(&c, "camera");
  cli_flag(&c, "armature");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "export: -o OUT.glb|OUT.gltf|OUT.fbx is required");
    return cli_report(&e);
  }
  if (!ex_format_for_path(out)) {
    mt_fail(&e, MT_EINPUT, "export: %s: unknown format (use .glb, .gltf or .fbx)", out);
    return cli_report(&e);
  }
  ex_options o;
  ex_options_default(&o);
  double reduce = 0;
  if (cli_double(&c, "fps", 30, -1e9, 1e9, &o.fps, &e) || cli_double(&c, "reduce", 0, 0, 10, &reduce, &e))
    return cli_report(&e);
  if (!(o.fps > 0) || o.fps > 10000) {
    mt_fail(&e, MT_EINPUT, "export: --fps: must be > 0 (and at most 10000), got %g", o.fps);
    return cli_report(&e);
  }
  if (fabs(o.fps - round(o.fps)) > 1e-9) {
    /* Blender's importers ignore fps_base: 29.97 would be played at 30 and drift a frame in 33 s */
    mt_fail(&e, MT_EINPUT, "export: --fps: %g is not a whole number of frames per second (Blender would drift; "
            "export at %.0f and retime in the editor)", o.fps, round(o.fps));
    return cli_report(&e);
  }
  char name[64];
  if (ex_take_name(c.pos[0], cli_str(&c, "name", NULL), name, sizeof name, &e)) return cli_report(&e);
  o.prefix = name;
  o.frame1 = 1;
  const char* up = cli_str(&c, "up", "y");
  if (strcmp(up, "y") && strcmp(up, "z")) {
    mt_fail(&e, MT_EINPUT, "export: --up: expected y or z, got '%s'", up);
    return cli_report(&e);
  }
  if (cli_set(&c, "up")) o.up_y = !strcmp(up, "y");   /* else the format's own: y glTF, z FBX */
  o.with_track = !cli_set(&c, "no-track");
  o.with_camera = cli_set(&c, "camera");
  o.armature = cli_set(&c, "armature");
  /* --reduce TOL: TOL metres for positions and TOL/0.3 rad for rotations (a point 0.3 m from a
   * body's origin — a wheel's rim — moves by at most about TOL) */
  o.reduce_tol_pos = reduce;
  o.reduce_tol_ang = reduce / 0.3;
  take_reader* r = take_open(c.pos[0], &e);
  if (!r) return cli_report(&e);
  const char* reason;
  if (!take_complete(r, &reason)) {
    mt_fail(&e, MT_EINPUT, "export: %s is an incomplete take (%s): export a cut of its good part (mototake take cut)", c.pos[0],
            reason);
    take_close(r);
    return cli_report(&e);
  }
  const take_schema* s = take_schema_of(r);
  double dur = (take_nsteps(r) - 1) * s->timestep;
  if (cli_double(&c, "from", 0, -1e9, 1e9, &o.from, &e) || cli_double(&c, "to", dur, -1e9, 1e9, &o.to, &e)) {
    take_close(r);
    return cli_report(&e);
  }
  if (o.from < 0 || o.to > dur + 1e-9 || o.from >= o.to) {
    mt_fail(&e, MT_EINPUT, "export: --from %g --to %g is not a range within the take (0 .. %.3f s)", o.from, o.to, dur);
    take_close(r);
    return cli_report(&e);
  }
  /* rebuild the rig (its shapes) and the track (the road) from the take's sources */
  rig* rg = NULL;
  track* tk = NULL;
  if (replay_rebuild(r, 0, &rg, &tk, &e)) {
    char why[sizeof e.msg];
    snprintf(why, sizeof why, "%s", e.msg);
    snprintf(e.msg, sizeof e.msg, "%s: rebuilding from the embedded sources: %s", c.pos[0], why);   /* name the take */
    take_close(r);
    return cli_report(&e);
  }
  /* bodies: the rig's (shapes moved into each body's frame) and the linkage parts */
  int nb = s->nbody;
  ex_take_bodies tb;
  ex_take_bodies_build(s, rg, &tb);
  ex_dress dr;   /* spokes, bodywork, the rider's parts and the locators (exporters/dress.h) */
  ex_dress_build(&tb, rg, &dr);
  road rd = track_road(tk);
  ex_tyres tyres;   /* the tyres apart from the spinning wheels, touching the road (exporters/tyres.h) */
  ex_tyres_split(&dr, &rd, &tyres);
  ex_body* bodies = dr.body;
  long n = take_nsteps(r);
  double* pose = mt_alloc(sizeof(double) * 7 * nb * n);
  int rc = take_read(r, TAKE_POSE, 0, n, pose, &e);
  ex_set* set = mt_alloc(sizeof *set);   /* the film set: road, lines, kerbs, grass, boards */
  if (!rc && o.with_track) ex_set_build(tk, NULL, set);
  ex_report rep;
  memset(&rep, 0, sizeof rep);
  char* meta = NULL;
  if (!rc) {
    ex_meta_opts mo = {c.pos[0], name, o.from, o.to, o.fps, 1, cli_str(&c, "channels", NULL), 1, pose};
    meta = ex_meta_build(r, &mo, &e);
    rc = meta ? MT_OK : e.code;
    o.extras_json = meta;
  }
  if (!rc) {
    ex_motion m = {name, nb, bodies, s->timestep, n, pose, 0, NULL, 0, NULL, 0, NULL, NULL, dr.nloc, dr.loc, set->npart, set->part};
    rc = ex_export(&m, &o, out, &rep, &e);
  }
  if (!rc)
    printf("%s: %ld frames at %g fps (%.3f s), %d nodes, %d meshes, %d channels; keys %ld (%ld sub-frame for fast spins) → "
           "%ld after reduction%s; %.2f MB%s\n",
           out, rep.frames, o.fps, rep.duration, rep.nodes, rep.meshes, rep.channels, rep.keys_before, rep.subkeys,
           rep.keys_after, reduce > 0 ? "" : " (none asked)", rep.bytes / 1e6,
           rep.fbx_repaired ? "; FBX repaired for Assimp 5.2's missing sentinels" : "");
  free(meta);
  ex_set_free(set);
  free(set);
  free(pose);
  ex_dress_free(&dr);
  ex_take_bodies_free(&tb);
  rig_free(rg);
  track_free(tk);
  take_close(r);
  return rc ? cli_report(&e) : 0;
}
