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
#include <strings.h>

#include "base/progress.h"
#include "exporters/dress.h"
#include "exporters/meta.h"
#include "exporters/set.h"
#include "exporters/tyres.h"
#include "exporters/motion.h"
#include "exporters/rider.h"
#include "scene/motion.h"
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

/* --armature: the rider as a humanoid character (exporters/character.h); a take without a rider
 * (no rider_pelvis body) gets none (ra->nbody stays 0). Its bones follow the
 * take's bodies (Hips under rider_pelvis, which keeps the physics' hang-off and tuck), their poses
 * follow the bodies' at every step; the rider's rigid parts (rider_head, rider_arm_*, rider_leg_*)
 * and the shapes of rider_pelvis and rider_torso give way to the one skinned character mesh. */
typedef struct rider_add {
  ex_rider rd;
  ex_character ch;
  ex_body* body;
  double* pose;
  ex_locator* loc;
  int nbody, nloc;
} rider_add;

/* The motion and the rig of take r, whose poses (take_read's) are `pose`, as the Cairo views
 * rebuild them (scene/motion.h), for posing the rider (exporters/rider.h). */
static int rider_motion(take_reader* r, const double* pose, sc_motion* mo, rig** rg, mt_err* e) {
  memset(mo, 0, sizeof *mo);
  *rg = NULL;
  int rc = sc_motion_begin(mo, r, e);
  if (!rc) rc = sc_motion_rebuild(mo, r, rg, e);
  if (!rc) rc = sc_motion_read_poses(mo, r, pose, e);
  return rc;
}

static const double* body_colour(const ex_take_bodies* tb, const char* name, int type) {
  for (int b = 0; b < tb->nbody; b++)
    if (tb->body[b].name && !strcmp(tb->body[b].name, name))
      for (int k = 0; k < tb->body[b].nshape; k++)
        if (!type || tb->body[b].shapes[k].type == type) return tb->body[b].shapes[k].rgba;
  static const double grey[4] = {0.3, 0.3, 0.35, 1};
  return grey;
}

static int rider_add_build(take_reader* r, const ex_take_bodies* tb, const ex_dress* dr, const double* pose,
                           const ex_options* o, rider_add* ra, mt_err* e) {
  const take_schema* s = take_schema_of(r);
  int nb = s->nbody;
  long n = take_nsteps(r);
  int riderless = 1;   /* a machine without a rider (whipple_benchmark): its armature alone, as before */
  for (int b = 0; b < nb; b++) riderless &= strcmp(s->body_names[b], "rider_pelvis") != 0;
  if (riderless) return MT_OK;
  sc_motion mo;
  rig* rg;
  int rc = rider_motion(r, pose, &mo, &rg, e);
  if (!rc) rc = ex_rider_build(rg, &mo, o->from, o->to, &ra->rd, e);
  rig_free(rg);
  sc_motion_free(&mo);
  if (rc) return rc;
  int nk = ra->rd.nbone;
  ex_rider_character(&ra->rd, nb, body_colour(tb, "rider_pelvis", 0), body_colour(tb, "rider_torso", EX_SPHERE), &ra->ch);
  ra->nbody = nb + nk;
  ra->body = mt_alloc(sizeof(ex_body) * (size_t)ra->nbody);
  memcpy(ra->body, dr->body, sizeof(ex_body) * (size_t)nb);
  for (int b = 0; b < nb; b++)
    if (b == ra->rd.body[SK_BODY_PELVIS] || b == ra->rd.body[SK_BODY_TORSO]) ra->body[b].nshape = 0;
  for (int k = 0; k < nk; k++)
    ra->body[nb + k] = (ex_body){ra->ch.bone[k].name, ra->ch.bone[k].parent < 0 ? ra->rd.body[SK_BODY_PELVIS] : nb + ra->ch.bone[k].parent,
                                 NULL, 0};
  ra->pose = mt_alloc(sizeof(double) * 7 * (size_t)ra->nbody * (size_t)n);
  for (long i = 0; i < n; i++) {
    memcpy(ra->pose + 7 * (size_t)ra->nbody * i, pose + 7 * (size_t)nb * i, sizeof(double) * 7 * (size_t)nb);
    memcpy(ra->pose + 7 * ((size_t)ra->nbody * i + nb), ra->rd.pose + 7 * (size_t)nk * i, sizeof(double) * 7 * (size_t)nk);
  }
  ex_rider_free(&ra->rd);   /* copied: its poses need not stay (a lap's are 167 MB) */
  ra->loc = mt_alloc(sizeof(ex_locator) * (size_t)(dr->nloc + 1));
  for (int l = 0; l < dr->nloc; l++)
    if (strncmp(dr->loc[l].name, "rider_", 6)) ra->loc[ra->nloc++] = dr->loc[l];
  return MT_OK;
}

static void rider_add_free(rider_add* ra) {
  ex_rider_free(&ra->rd);
  free(ra->body);
  free(ra->pose);
  free(ra->loc);
}

/* `export TAKE -o X.bvh`: the rider's skeleton alone (exporters/rider.h, bvh.h). */
static int export_bvh(take_reader* r, const char* out, const ex_options* o, int quiet, mt_err* e) {
  const take_schema* s = take_schema_of(r);
  long n = take_nsteps(r);
  double* pose = mt_alloc(sizeof(double) * 7 * (size_t)s->nbody * (size_t)n);
  sc_motion mo;
  memset(&mo, 0, sizeof mo);
  rig* rg = NULL;
  long frames = 0;
  double miss[2] = {0, 0};
  fprog bar;   /* three stages, each named */
  fprog_start_work(&bar, 3, "export: reading the poses", !quiet);
  fprog_show(&bar, 0);
  int rc = take_read(r, TAKE_POSE, 0, n, pose, e);
  bar.label = "export: the rider's motion";
  fprog_show(&bar, 1);
  if (!rc) rc = rider_motion(r, pose, &mo, &rg, e);
  bar.label = "export: writing the BVH";
  fprog_show(&bar, 2);
  if (!rc) rc = ex_rider_bvh(rg, &mo, o->from, o->to, o->fps, out, &frames, miss, e);
  if (!rc) {
    bar.label = "export";
    fprog_show(&bar, 3);
  }
  fprog_end(&bar);
  if (!rc)
    printf("%s: the rider's %d bones, %ld frames at %g fps (%.3f s), metres, y up; hands within %.1f mm of the grips, "
           "feet within %.1f mm of the pegs at every frame where the IK holds\n", out, SK_NBONE, frames, o->fps,
           (double)(frames - 1) / o->fps, 1e3 * miss[0], 1e3 * miss[1]);
  rig_free(rg);
  sc_motion_free(&mo);
  free(pose);
  return rc;
}

static int is_bvh(const char* path) {
  size_t l = strlen(path);
  return l > 4 && !strcasecmp(path + l - 4, ".bvh");
}

/* The take's scene exported to out (glTF or FBX): the rig and track rebuilt from the take's
 * sources, the bodies dressed, the poses read, the set and the take's metadata built, the rider's
 * character with --armature, then ex_export. Each stage named on o->prog (EXPORT_STAGES). */
#define EXPORT_STAGES 3
static int export_scene(take_reader* r, const char* take, const char* out, const char* name, const char* channels, ex_options* o,
                        ex_report* rep, mt_err* e) {
  const take_schema* s = take_schema_of(r);
  rig* rg = NULL;
  track* tk = NULL;
  if (replay_rebuild(r, 0, &rg, &tk, e)) {
    char why[sizeof e->msg];
    snprintf(why, sizeof why, "%s", e->msg);
    snprintf(e->msg, sizeof e->msg, "%s: rebuilding from the embedded sources: %s", take, why);   /* name the take */
    return e->code;
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
  o->prog->label = "export: reading the poses";
  fprog_show(o->prog, 1);
  double* pose = mt_alloc(sizeof(double) * 7 * nb * n);
  int rc = take_read(r, TAKE_POSE, 0, n, pose, e);
  o->prog->label = o->armature ? "export: the set, the metadata and the rider" : "export: the set and the metadata";
  fprog_show(o->prog, 2);
  ex_set* set = mt_alloc(sizeof *set);   /* the film set: road, lines, kerbs, grass, boards */
  if (!rc && o->with_track) ex_set_build(tk, NULL, set);
  rider_add ra;
  memset(&ra, 0, sizeof ra);
  char* meta = NULL;
  if (!rc) {
    ex_meta_opts mo = {take, name, o->from, o->to, o->fps, 1, channels, 1, pose};
    meta = ex_meta_build(r, &mo, e);
    rc = meta ? MT_OK : e->code;
    o->extras_json = meta;
  }
  if (!rc) {
    ex_motion m = {name, nb, bodies, s->timestep, n, pose, 0, NULL, 0, NULL, 0, NULL, NULL, dr.nloc, dr.loc, NULL, set->npart, set->part};
    if (o->armature) {   /* the rider's skeleton and its skinned character */
      rc = rider_add_build(r, &tb, &dr, pose, o, &ra, e);
      if (!rc && ra.nbody > 0) m.nbody = ra.nbody, m.body = ra.body, m.pose = ra.pose, m.nlocator = ra.nloc, m.locator = ra.loc, m.character = &ra.ch;
    }
    if (!rc) rc = ex_export(&m, o, out, rep, e);
  }
  o->extras_json = NULL;
  free(meta);
  rider_add_free(&ra);
  ex_set_free(set);
  free(set);
  free(pose);
  ex_dress_free(&dr);
  ex_take_bodies_free(&tb);
  rig_free(rg);
  track_free(tk);
  return rc;
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
  cli_flag(&c, "quiet");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "export: -o OUT.glb|OUT.gltf|OUT.fbx|OUT.bvh is required");
    return cli_report(&e);
  }
  if (!ex_format_for_path(out) && !is_bvh(out)) {
    mt_fail(&e, MT_EINPUT, "export: %s: unknown format (use .glb, .gltf, .fbx or .bvh)", out);
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
  if (is_bvh(out)) {   /* the rider's skeleton alone: no meshes, no Assimp */
    int brc = export_bvh(r, out, &o, cli_set(&c, "quiet"), &e);
    take_close(r);
    if (brc) {   /* name the take */
      char why[sizeof e.msg];
      snprintf(why, sizeof why, "%s", e.msg);
      snprintf(e.msg, sizeof e.msg, "export: %s: %s", c.pos[0], why);
    }
    return brc ? cli_report(&e) : 0;
  }
  /* the bar: the command's stages, then ex_export's (exporters/motion.h, EX_STAGES) */
  fprog bar;
  fprog_start_work(&bar, EXPORT_STAGES + EX_STAGES, "export: rebuilding the rig and the track", !cli_set(&c, "quiet"));
  fprog_show(&bar, 0);
  o.prog = &bar, o.prog_base = EXPORT_STAGES;
  ex_report rep;
  memset(&rep, 0, sizeof rep);
  int rc = export_scene(r, c.pos[0], out, name, cli_str(&c, "channels", NULL), &o, &rep, &e);
  if (!rc) {
    bar.label = "export";
    fprog_show(&bar, EXPORT_STAGES + EX_STAGES);
  }
  fprog_end(&bar);
  take_close(r);
  if (!rc)
    printf("%s: %ld frames at %g fps (%.3f s), %d nodes, %d meshes, %d channels; keys %ld (%ld sub-frame for fast spins) → "
           "%ld after reduction%s; %.2f MB%s\n",
           out, rep.frames, o.fps, rep.duration, rep.nodes, rep.meshes, rep.channels, rep.keys_before, rep.subkeys,
           rep.keys_after, reduce > 0 ? "" : " (none asked)", rep.bytes / 1e6,
           rep.fbx_repaired ? "; FBX repaired for Assimp 5.2's missing sentinels" : "");
  return rc ? cli_report(&e) : 0;
}
