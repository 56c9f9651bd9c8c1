/* motion.h — the exporter's input (a motion: bodies, shapes, full-rate world poses, an
 * optional road) and its one entry point, ex_export(), which writes glTF 2.0 (.glb, .gltf) or
 * FBX (.fbx) through Assimp for Blender and other DCC tools.
 *
 * The motion is whatever the simulator recorded: every body's WORLD pose at every step (z up,
 * x east, y north, metres, unit quaternions w x y z). The exporter turns that into a node tree
 * that follows the body tree, with local transforms T_local = T_parent⁻¹ · T_world keyed at
 * exact frame times, meshes from the visual shapes, one material per colour, and the road.
 * docs/export.md is the user's guide; the choices (axis conversion, spin sub-keys, key
 * reduction, the FBX repair) are explained there and in the files that implement them. */
#ifndef EX_MOTION_H
#define EX_MOTION_H

#include "scene/shapes.h"   /* ex_shape, ex_body: the bodies' visual shapes */
#include "base/mt.h"
#include "base/progress.h"
#include "exporters/character.h"
#include "sim/road.h"    /* the road function a tyre locator touches */

/* A locator: an empty (optionally with shapes: a named part) fixed to a body, or a tyre's
 * contact patch, which moves against the body that carries the wheel (exporters/locators.h). */
typedef struct ex_locator {
  const char* name;              /* node name, e.g. "loc_steer_axis", "rider_head" */
  int body;                      /* the body it is parented to */
  double local[7];               /* fixed: pose in that body's frame (x y z qw qx qy qz) */
  int wheel;                     /* >= 0: a contact patch of this wheel body (local is unused) */
  double wheel_centre[3];        /*   the tyre torus's centre and unit axis in the wheel's frame, */
  double wheel_axis[3];          /*   its outer radius r0 and crown radius (exporters/locators.h) */
  double r0, crown;
  const ex_shape* shapes;        /* drawn with the locator's node (body frame of the locator) */
  int nshape;
  int tyre;                      /* with wheel >= 0: 1 for the tyre itself (exporters/tyres.h): the
                                    wheel's centre, turned with its carrier, not spinning, lifted
                                    out of road by the tyre's deflection (uses road, may be NULL) */
  const road* road;
} ex_locator;

/* A static part of the set (exporters/set.h): a node at a fixed world pose with one or two meshes,
 * each of its own material (named, of a colour). */
typedef struct ex_part {
  const char* name;              /* node name */
  double pose[7];                /* the node's world pose, z up (x y z qw qx qy qz) */
  int nmesh;                     /* 1 or 2 */
  ex_mesh mesh[2];               /* in the node's frame, z up */
  const char* material[2];
  double rgba[2][4];
} ex_part;

typedef struct ex_motion {
  const char* name;              /* scene and animation name; NULL: "ride" */
  int nbody;
  const ex_body* body;
  double dt;                     /* seconds between poses (0.001 at 1 kHz) */
  long nsteps;                   /* poses per body, at t = i*dt, i = 0..nsteps-1 */
  const double* pose;            /* nsteps × nbody × 7: x y z qw qx qy qz, WORLD frame, z up */
  /* optional road: a triangle mesh (world, z up), may be NULL */
  int nvert;
  const double* vert;            /* nvert × 3 */
  int ntri;
  const int* tri;                /* ntri × 3 vertex indices */
  /* optional painted lines on the road (edges, centre line): polylines drawn as flat white
   * ribbons EX_LINE_WIDTH wide, lifted EX_LINE_LIFT above the points; may be NULL */
  int nline;
  const int* line_len;           /* points in each polyline */
  const double* line_pts;        /* all points, 3 doubles each, polylines one after another */
  /* optional locators and named parts, exported after the bodies as children of theirs */
  int nlocator;
  const ex_locator* locator;
  /* optional: a humanoid character whose bones are the motion's LAST bodies, from
   * character->first_body on (exporters/character.h). Their nodes keep their names (no prefix);
   * with armature they rest in the character's rest pose and one mesh skinned smoothly to them
   * is added; they carry no shapes of their own. NULL: none. */
  const ex_character* character;
  /* optional set parts (exporters/set.h), static nodes exported with the road (--no-track: none) */
  int npart;
  const ex_part* part;
} ex_motion;

#define EX_LINE_WIDTH 0.12
#define EX_LINE_LIFT 0.005

typedef struct ex_options {
  double fps;                    /* key rate (frames per second), > 0 */
  double from, to;               /* exported time range (s) within the motion; to < 0: its end */
  double reduce_tol_pos;         /* key reduction bounds: metres and radians; both <= 0: none */
  double reduce_tol_ang;
  int up_y;                      /* 1: convert to y-up; 0: keep z-up; -1 (default): the format's
                                    own — y-up glTF, z-up FBX — so Blender shows the same axes */
  int with_track;                /* include the road mesh and lines when the motion has them */
  int with_camera;               /* include "chase_camera", an animated chase-camera rig node */
  double spin_limit;             /* largest rotation between consecutive keys (rad); 0: π/2 */
  int armature;                  /* 1: the bodies as one armature, one mesh skinned to it (armature.h) */
  /* issue 14 (exporters/meta.h): all default to off */
  const char* prefix;            /* non-NULL: every node, mesh and the animation named PREFIX_... */
  int frame1;                    /* glTF keys at time (t − from) + 1/fps, so that Blender's glTF
                                    importer puts the first at frame 1, as its FBX importer does */
  const char* extras_json;       /* glTF: a JSON object put in extras (ex_meta_inject_gltf) */
  fprog* prog;                   /* NULL, or a FPROG_WORK bar: ex_export names each of its stages
                                    on it and counts them from prog_base (EX_STAGES of them) */
  int prog_base;
} ex_options;
/* The stages ex_export reports on ex_options.prog: the nodes planned and their keys sampled, the
 * scene built, Assimp's encoding and the files written. */
#define EX_STAGES 3

typedef struct ex_report {
  const char* format;            /* Assimp export id used: "glb2", "gltf2" or "fbx" */
  long frames;                   /* frame keys per node: t = from + k/fps, k = 0..frames-1 */
  double duration;               /* seconds from the first to the last key */
  int nodes, meshes, materials, channels;
  long subkeys;                  /* keys added between frames for fast rotations */
  long keys_before;              /* keys over all channels (frame keys + sub-keys) */
  long keys_after;               /* after reduction (= keys_before without reduction) */
  double max_err_pos;            /* largest error of a dropped key (m, rad) */
  double max_err_ang;
  int fbx_repaired;              /* 1: the Assimp 5.2 FBX sentinel defect was found and repaired */
  long bytes;                    /* bytes written (all files) */
} ex_report;

/* Fill o with the defaults: 30 fps, the whole motion, no reduction, the format's up axis, with
 * track, no camera. */
void ex_options_default(ex_options* o);
/* The Assimp export id for a path's extension (.glb, .gltf, .fbx; any case), or NULL. */
const char* ex_format_for_path(const char* path);
/* Export motion m to path (format from the extension). Bad motion or options → MT_EINPUT with
 * one line naming the item and field; no file is left behind on any failure. report may be NULL. */
int ex_export(const ex_motion* m, const ex_options* o, const char* path, ex_report* report, mt_err* e);

#endif
