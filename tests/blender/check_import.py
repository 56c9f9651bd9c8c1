# check_import.py — does Blender import an exported ride with the right motion?
#
#   blender -b --factory-startup --python tests/blender/check_import.py -- FILE FPS DURATION [FROM]
#
# FILE is a `mototake export-demo` output (.glb, .gltf or .fbx) exported at FPS over DURATION
# seconds of the demo motion, starting at FROM (default 0). The oracle is an independent
# Python copy of the demo's analytic table (exporters/demo.c): for every body, at every
# frame, the world positions of known body-local points (box corners, capsule and sphere poles,
# cylinder cap centres — all exact mesh vertices) must coincide with imported world vertices
# within 1e-4 m. The wheels are also checked between frames, where a wrong-way spin would be
# visible as tens of centimetres (tolerance 5e-3 m: between keys Blender interpolates
# quaternion components linearly, which for keys 90° apart deviates from the true spin by up to
# 0.92°, 2.8 mm at the marker; the other bodies are linearly interpolated there). Structure:
# names, parents, one action per body, key counts (frame keys plus the spin sub-keys), LINEAR
# interpolation, the frame range and unit scale. Prints "ok NAME" / "FAIL NAME: why" lines
# (the test harness counts them) and exits 1 on any failure.
import math
import sys

import numpy
numpy.bool = bool   # Blender 3.4's glTF importer uses np.bool, removed in numpy 1.24

import bpy
from mathutils import Quaternion, Vector

args = sys.argv[sys.argv.index("--") + 1:]
PATH, FPS, DURATION = args[0], float(args[1]), float(args[2])
FROM = float(args[3]) if len(args) > 3 else 0.0
FBX = PATH.lower().endswith(".fbx")
failures = 0


def ok(name):
    print("ok blender_%s" % name)


def fail(name, why):
    global failures
    failures += 1
    print("FAIL blender_%s: %s" % (name, why))


# ---- the oracle: exporters/demo.c's table, re-implemented ----
SPEED, SPIN = 60.0, 200.0
JOINTS = [  # name, parent, offset, axis, a0, a1, f, w
    ("chassis", -1, None, None, 0, 0, 0, 0),
    ("fork", 0, (0.62, 0, 0.12), (-math.sin(math.radians(25)), 0, math.cos(math.radians(25))), 0, 0.2, 0.7, 0),
    ("handlebar", 1, (-0.08, 0, 0.30), (0, 0, 1), 0, 0, 0, 0),
    ("wheel_front", 1, (0.12, 0, -0.42), (0, 1, 0), 0, 0, 0, SPIN),
    ("swingarm", 0, (-0.35, 0, -0.05), (0, 1, 0), -0.5, 0.05, 1.3, 0),
    ("wheel_rear", 4, (-0.5, 0, 0), (0, 1, 0), 0.5, 0, 0, SPIN),
    ("rider_torso", 0, (-0.25, 0, 0.25), (0, 1, 0), 0.5, 0.05, 0.9, 0),
    ("rider_head", 6, (0, 0, 0.55), (0, 0, 1), 0, 0.3, 0.4, 0),
    ("arm_left", 6, (0, 0.2, 0.45), (0, 1, 0), -1.1, 0.05, 1.1, 0),
    ("arm_right", 6, (0, -0.2, 0.45), (0, 1, 0), -1.1, 0.05, 1.1, 0),
    ("leg_left", 0, (-0.3, 0.17, 0.2), (0, 1, 0), 0.6, 0.03, 0.8, 0),
    ("leg_right", 0, (-0.3, -0.17, 0.2), (0, 1, 0), 0.6, 0.03, 0.8, 0),
]


def box(c, s):
    return [Vector((c[0] + sx * s[0] / 2, c[1] + sy * s[1] / 2, c[2] + sz * s[2] / 2))
            for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]


WHEEL = box((0, 0, 0.1), (0.04, 0.03, 0.2)) + box((0, 0, 0.16), (0.05, 0.05, 0.03)) + \
    [Vector((0, -0.06, 0)), Vector((0, 0.06, 0))]                      # hub cap centres
ARM = box((0, 0, -0.52), (0.08, 0.06, 0.1)) + [Vector((0, 0, 0.05)), Vector((0, 0, -0.5))]   # capsule poles
LEG = box((0.44, 0, -0.1), (0.1, 0.1, 0.22)) + [Vector((-0.07, 0, 0)), Vector((0.49, 0, 0))]
POINTS = {
    "chassis": box((0, 0, 0.05), (1.1, 0.28, 0.3)) + box((0.25, 0, 0.28), (0.45, 0.3, 0.16)) +
    box((-0.25, 0, 0.24), (0.45, 0.26, 0.08)),
    "fork": box((0, 0, 0.25), (0.08, 0.25, 0.05)) + [Vector((0.12, 0.09, -0.42)), Vector((0, -0.09, 0.25))],
    "handlebar": box((0, 0, 0), (0.06, 0.08, 0.05)) + [Vector((0, -0.35, 0)), Vector((0, 0.35, 0))],
    "wheel_front": WHEEL, "wheel_rear": WHEEL,
    "swingarm": box((-0.25, 0, 0), (0.5, 0.06, 0.05)),
    "rider_torso": box((0, 0, 0.05), (0.25, 0.34, 0.1)) + [Vector((0, 0, -0.04)), Vector((0, 0, 0.56))],
    "rider_head": box((0.1, 0, 0.13), (0.06, 0.18, 0.07)) + [Vector((0, 0, -0.01)), Vector((0, 0, 0.25))],
    "arm_left": ARM, "arm_right": ARM, "leg_left": LEG, "leg_right": LEG,
}


def local_pose(b, t):
    name, parent, off, axis, a0, a1, f, w = JOINTS[b]
    if parent < 0:
        lean = Quaternion((1, 0, 0), 0.3 * math.sin(0.5 * math.pi * t))
        pitch = Quaternion((0, 1, 0), 0.03 * math.sin(2 * math.pi * t))
        return Vector((SPEED * t, 0, 0.6 + 0.02 * math.sin(2 * math.pi * t))), lean @ pitch
    return Vector(off), Quaternion(Vector(axis).normalized(), a0 + a1 * math.sin(2 * math.pi * f * t) + w * t)


def world_pose(b, t):
    p, q = local_pose(b, t)
    parent = JOINTS[b][1]
    if parent < 0:
        return p, q
    pp, pq = world_pose(parent, t)
    return pp + pq @ p, pq @ q


# ---- import ----
scene = bpy.context.scene
if not FBX:
    # the glTF importer maps seconds to frames with the scene's current rate: set it first
    scene.render.fps = int(round(FPS))
    scene.render.fps_base = round(FPS) / FPS
for o in list(bpy.data.objects):
    bpy.data.objects.remove(o)
if FBX:
    bpy.ops.import_scene.fbx(filepath=PATH)
else:
    bpy.ops.import_scene.gltf(filepath=PATH)
F0 = 1.0   # the first key at frame 1 in both (FBX: t = 0 at frame 1; glTF: written at t = 1/fps)
real_fps = scene.render.fps / scene.render.fps_base
if abs(real_fps - FPS) < 1e-6:
    ok("scene_fps")
else:
    fail("scene_fps", "scene runs at %g fps, file was exported at %g" % (real_fps, FPS))

objs = bpy.data.objects
names = [j[0] for j in JOINTS]
missing = [n for n in names if n not in objs]
if missing:
    fail("objects", "missing %s (have %s)" % (missing, sorted(o.name for o in objs)))
    sys.exit(1)
ok("objects")
bad_parent = [n for b, n in enumerate(names) if JOINTS[b][1] >= 0 and
              (objs[n].parent is None or objs[n].parent.name != names[JOINTS[b][1]])]
if bad_parent:
    fail("hierarchy", "wrong parent for %s" % bad_parent)
else:
    ok("hierarchy")

# ---- keys ----
frames = int(math.floor(DURATION * FPS + 1e-9)) + 1
pieces = max(1, math.ceil(SPIN / FPS / (math.pi / 2) - 1e-9))   # spin sub-keys per frame
for b, n in enumerate(names):
    ad = objs[n].animation_data
    if not ad or not ad.action:
        fail("action_" + n, "no action")
        continue
    fc = ad.action.fcurves
    want_curves = 9 if FBX else 7   # FBX: location, Euler, scale; glTF: location, quaternion
    want_keys = frames + (frames - 1) * (pieces - 1) if JOINTS[b][7] else frames
    counts = {len(c.keyframe_points) for c in fc}
    interp = {k.interpolation for c in fc for k in c.keyframe_points}
    lo, hi = ad.action.frame_range
    want_lo, want_hi = F0, F0 + (frames - 1)
    if len(fc) != want_curves or counts != {want_keys}:
        fail("keys_" + n, "%d curves with %s keys, wanted %d with %d" % (len(fc), counts, want_curves, want_keys))
    elif interp != {"LINEAR"}:
        fail("keys_" + n, "interpolation %s" % interp)
    elif abs(lo - want_lo) > 1e-3 or abs(hi - want_hi) > 1e-3:
        fail("keys_" + n, "frame range %g..%g, wanted %g..%g" % (lo, hi, want_lo, want_hi))
    else:
        ok("keys_" + n)


# ---- motion ----
def body_vertices(n):
    """World vertices of a body's meshes (the body object and mesh-only children)."""
    deps = bpy.context.evaluated_depsgraph_get()
    out = []
    stack = [objs[n]]
    while stack:
        o = stack.pop()
        if o.type == "MESH":
            oe = o.evaluated_get(deps)
            m = numpy.array(oe.matrix_world)
            co = numpy.array([v.co for v in o.data.vertices])
            out.append(co @ m[:3, :3].T + m[:3, 3])
        stack.extend(c for c in o.children if c.name not in names)
    return numpy.concatenate(out) if out else numpy.zeros((0, 3))


def check_frame(frame, subframe, bodies, tol):
    scene.frame_set(frame, subframe=subframe)
    t = FROM + (frame + subframe - F0) / FPS
    worst, where = 0.0, ""
    for b in bodies:
        n = names[b]
        verts = body_vertices(n)
        p, q = world_pose(b, t)
        for pt in POINTS[n]:
            want = numpy.array(p + q @ pt)
            d = float(numpy.min(numpy.linalg.norm(verts - want, axis=1)))
            if d > worst:
                worst, where = d, "%s point %s" % (n, tuple(round(c, 3) for c in pt))
    return worst, where


all_bodies = range(len(names))
worst = (0.0, "", 0)
for k in range(frames):
    w, where = check_frame(int(F0) + k, 0.0, all_bodies, 1e-4)
    if w > worst[0]:
        worst = (w, where, k)
if worst[0] <= 1e-4:
    ok("motion_every_frame (%d frames, worst %.2g m)" % (frames, worst[0]))
else:
    fail("motion_every_frame", "%.4g m at frame %d, %s" % (worst[0], worst[2], worst[1]))
print("info worst error over all frames: %.3g m" % worst[0])

# between frames: the wheels turn ~6.7 rad per frame at 30 fps; a short-way interpolation
# would show them 0.4 rad BACKWARDS, i.e. the marker tens of centimetres off
wheels = [names.index("wheel_front"), names.index("wheel_rear")]
sub_worst = (0.0, "")
for k in (1, frames // 2, frames - 2):
    for sub in (0.25, 0.5, 0.75):
        w, where = check_frame(int(F0) + k, sub, wheels, 5e-3)
        if w > sub_worst[0]:
            sub_worst = (w, "frame %d+%.2f %s" % (k, sub, where))
if sub_worst[0] <= 5e-3:
    ok("wheel_spin_between_frames (worst %.2g m)" % sub_worst[0])
else:
    fail("wheel_spin_between_frames", "%.4g m at %s" % sub_worst)

# unit scale: the FBX centimetre default would show here as 0.01
scales = {round(s, 6) for n in names for s in objs[n].matrix_world.to_scale()}
if scales == {1.0}:
    ok("unit_scale")
else:
    fail("unit_scale", "world scales %s" % scales)

sys.stdout.flush()
sys.exit(1 if failures else 0)
