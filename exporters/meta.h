/* meta.h — what an exported file says about its take, for animators and the Blender add-on
 * (blender/mototake_io; docs/export.md, "What the file carries").
 *
 * ex_meta_build() makes one JSON object (jansson) from an open take, the export range and the
 * frame rate: program version, take id (CRC-32 of the .take file's bytes, 8 hex digits), name,
 * rig, track, fps, first frame, frame count, duration, the channel list with units, the take's
 * events in the range (time, frame, kind, label) and, sampled at every frame k (take time
 * from + k/fps, Blender frame first_frame + k):
 *   - the chosen channels: linear interpolation between the recorded steps; gear (a step
 *     signal) holds the value of the last step at or before the frame time;
 *   - every camera rig of rigs/cameras.lua (scene/cameras.h): eye position and orientation as
 *     a Blender camera (world z-up, looking down local -Z with +Y up; quaternion w x y z) and
 *     the vertical field of view in degrees, as the chase view places them. The take's poses
 *     are read once for all the cameras (one scene/motion.h motion, the camera switched over
 *     it; no shapes are built), not at all when the caller hands over the poses it read
 *     (ex_meta_opts.poses).
 * ex_meta_inject_gltf() writes that object into a .glb's JSON chunk or a .gltf's JSON: whole
 * at the document's top-level extras.mototake, and its scalar fields on the root node's extras
 * (which Blender's stock glTF importer turns into custom properties of the root object). */
#ifndef EX_META_H
#define EX_META_H

#include <stddef.h>

#include "base/mt.h"
#include "takes/takefile.h"

/* The channels exported by default (names as in `mototake take info`), comma-separated. */
#define EX_META_CHANNELS \
  "speed,rpm,throttle,front_brake,rear_brake,gear,lean,steer_torque,front_slip_ratio,rear_slip_ratio,front_slip_angle,rear_slip_angle"

typedef struct ex_meta_opts {
  const char* take_path;   /* for the take id (CRC-32 of the file) */
  const char* name;        /* the take's name in the file (node prefix, collection) */
  double from, to, fps;    /* exported range (s) and integer frame rate */
  int first_frame;         /* Blender frame of the first key (1) */
  const char* channels;    /* comma-separated channel names; NULL: EX_META_CHANNELS */
  int cameras;             /* 1: sample the camera rigs */
  const double* poses;     /* NULL, or the take's poses already read (every step's TAKE_POSE row): the
                            * camera rigs use them instead of reading the take again */
} ex_meta_opts;

/* The metadata as compact JSON text (malloc'd; free it), or NULL with e set (an unknown channel
 * name is MT_EINPUT naming it). */
char* ex_meta_build(take_reader* r, const ex_meta_opts* o, mt_err* e);

/* The take's name in an export: want (checked: 1..n-1 of [A-Za-z0-9_.-], else MT_EINPUT) or,
 * when NULL, the take file's name without folder and ".take" (other characters become '_'). */
int ex_take_name(const char* take_path, const char* want, char* out, size_t n, mt_err* e);

/* Put meta_json (an object) into a glTF document held in memory: glb (1) or .gltf text (0).
 * Returns a new malloc'd buffer (length *nout) or NULL if the document is not understood. */
unsigned char* ex_meta_inject_gltf(const unsigned char* doc, size_t n, int glb, const char* meta_json, size_t* nout);

/* The same metadata as FBX user properties (flag "U"; strings as KString, numbers as double,
 * each named mototake_KEY: what ex_meta_inject_gltf puts on the root node's extras) in the
 * Properties70 of the Model named model (else model2, may be NULL; else the first Model) of a
 * well-formed binary FBX
 * 7500 (after ex_fbx_repair). Blender's FBX importer makes them custom properties of that
 * object. Returns a new malloc'd stream or NULL if the stream is not understood. */
unsigned char* ex_meta_inject_fbx(const unsigned char* d, size_t n, const char* model, const char* model2, const char* meta_json,
                                  size_t* nout);

#endif
