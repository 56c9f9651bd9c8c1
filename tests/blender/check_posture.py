# check_posture.py — does a real take's rider move in Blender as the take says?
#
#   blender -b --factory-startup --python tests/blender/check_posture.py -- FILE.glb FPS CSV [NAME]
#
# NAME is the export's --name (objects are NAME_frame, ...; default: the name of the root object
# that carries the take's metadata). The first key is at frame 1.
# FILE is `mototake export TAKE -o FILE.glb --fps FPS --from T0 --to T1`; CSV is
# `mototake take channels TAKE --rate FPS --from T0 --to T1 --channels hip_shift,torso_pitch`
# (one row per exported frame). The rider is two objects, rider_pelvis under the frame and
# rider_torso under the pelvis; at every frame the pelvis's offset from the frame, in the
# frame's axes, must be its reference offset (the first frame's, less that frame's hip shift)
# moved by the recorded hip shift to the right, and the torso's rotation relative to the pelvis
# must be the recorded torso pitch, within glTF's float precision (3e-4 m: single-precision world
# matrices some hundreds of metres from the origin; 1e-3 rad). Prints
# "ok NAME" / "FAIL NAME: why" lines and exits 1 on any failure.
import csv
import math
import sys

import numpy
numpy.bool = bool   # Blender 3.4's glTF importer uses np.bool, removed in numpy 1.24

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
PATH, FPS, CSV = args[0], float(args[1]), args[2]
NAME = args[3] if len(args) > 3 else None

failures = 0


def ok(name):
    print("ok blender_%s" % name)


def fail(name, why):
    global failures
    failures += 1
    print("FAIL blender_%s: %s" % (name, why))


rows = list(csv.reader(open(CSV)))
head = rows[0]
data = [[float(x) for x in r] for r in rows[2:]]
hip = [r[head.index("hip_shift")] for r in data]
pitch = [math.radians(r[head.index("torso_pitch")]) for r in data]

scene = bpy.context.scene
scene.render.fps = int(round(FPS))
scene.render.fps_base = round(FPS) / FPS
for o in list(bpy.data.objects):
    bpy.data.objects.remove(o)
bpy.ops.import_scene.gltf(filepath=PATH)
objs = bpy.data.objects
if NAME is None:
    NAME = next((o.name for o in objs if o.parent is None and "take_id" in o.keys()), "")
P = NAME + "_"
objs = {n[len(P):]: o for n, o in objs.items() if n.startswith(P)}
need = ["frame", "rider_pelvis", "rider_torso"]
missing = [n for n in need if n not in objs]
if missing:
    fail("posture_objects", "missing %s (have %s)" % (missing, sorted(bpy.data.objects.keys())))
    sys.exit(1)
if objs["rider_pelvis"].parent is None or objs["rider_pelvis"].parent.name != P + "frame" or \
   objs["rider_torso"].parent is None or objs["rider_torso"].parent.name != P + "rider_pelvis":
    fail("posture_hierarchy", "rider_pelvis under %s, rider_torso under %s" %
         (objs["rider_pelvis"].parent, objs["rider_torso"].parent))
else:
    ok("posture_hierarchy")


def relative(child, parent):
    return objs[parent].matrix_world.inverted() @ objs[child].matrix_world


worst_p, worst_a, ref = 0.0, 0.0, None
lat = []
for k in range(len(data)):
    scene.frame_set(k + 1)   # the first key is at frame 1
    rp = relative("rider_pelvis", "frame").translation
    if ref is None:   # the frame's lateral axis is Blender's y (design y, to the left)
        ref = (rp.x, rp.y + hip[0], rp.z)
    want = (ref[0], ref[1] - hip[k], ref[2])
    worst_p = max(worst_p, max(abs(rp.x - want[0]), abs(rp.y - want[1]), abs(rp.z - want[2])))
    lat.append(rp.y)
    q = relative("rider_torso", "rider_pelvis").to_quaternion()
    worst_a = max(worst_a, abs(q.angle - abs(pitch[k])))
span = max(lat) - min(lat)
if worst_p <= 3e-4 and span >= 0.08:
    ok("posture_hip_shift (%d frames, pelvis moves %.3f m across the seat, worst %.2g m)" % (len(data), span, worst_p))
else:
    fail("posture_hip_shift", "pelvis moves %.3f m across the seat (want >= 0.08), worst error %.3g m" % (span, worst_p))
if worst_a <= 1e-3 and max(pitch) - min(pitch) >= math.radians(15):
    ok("posture_torso_pitch (%.1f deg range, worst %.2g rad)" % (math.degrees(max(pitch) - min(pitch)), worst_a))
else:
    fail("posture_torso_pitch", "range %.1f deg, worst error %.3g rad" % (math.degrees(max(pitch) - min(pitch)), worst_a))
sys.exit(1 if failures else 0)
