# check_frame1.py — the same take as GLB and FBX starts at frame 1 in Blender, and the FBX
# carries the take's metadata as custom properties (docs/export.md, "What the file carries").
#
#   blender -b --factory-startup --python tests/blender/check_frame1.py -- NAME GLB FBX TAKE_ID FPS FRAMES
#
# Both files are `mototake export TAKE --fps FPS` of the same range; NAME is the take's name and
# TAKE_ID the CRC-32 of the .take (8 hex digits). Imports each with Blender's stock importer
# (scene fps set first for the glTF, as the walkthrough says), and checks: every action's
# frame range is 1..FRAMES in both; NAME_frame's world position agrees between the two at frames
# 1, FRAMES/2 and FRAMES (1e-4 m); the FBX object holding the properties has mototake_take_id,
# mototake_fps, mototake_first_frame and mototake_frames right. Prints ok/FAIL lines.
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
NAME, GLB, FBX, TAKE_ID, FPS, FRAMES = args[0], args[1], args[2], args[3], int(args[4]), int(args[5])
failures = 0


def check(name, cond, why):
    global failures
    if cond:
        print("ok blender_frame1_%s" % name)
    else:
        failures += 1
        print("FAIL blender_frame1_%s: %s" % (name, why))


import numpy   # noqa: E402
if "bool" not in numpy.__dict__:
    numpy.bool = bool   # Blender 3.4's glTF importer with numpy >= 1.24
scene = bpy.context.scene
pos = {}
for fmt, path in (("glb", GLB), ("fbx", FBX)):
    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o)
    for a in list(bpy.data.actions):
        bpy.data.actions.remove(a)
    scene.render.fps, scene.render.fps_base = FPS, 1.0
    if fmt == "glb":
        bpy.ops.import_scene.gltf(filepath=path)
    else:
        bpy.ops.import_scene.fbx(filepath=path)
    ranges = {tuple(round(x, 6) for x in o.animation_data.action.frame_range) for o in bpy.data.objects
              if o.animation_data and o.animation_data.action}
    check("range_" + fmt, ranges == {(1.0, float(FRAMES))}, "action frame ranges %s, want 1..%d" % (ranges, FRAMES))
    fr = bpy.data.objects.get(NAME + "_frame")
    pos[fmt] = []
    for f in (1, FRAMES // 2, FRAMES):
        scene.frame_set(f)
        pos[fmt].append(fr.matrix_world.translation.copy() if fr else None)
    if fmt == "fbx":
        holders = [o for o in bpy.data.objects if "mototake_take_id" in o.keys()]
        h = holders[0] if holders else None
        check("fbx_properties", h is not None and h["mototake_take_id"] == TAKE_ID and h["mototake_fps"] == FPS and
              h["mototake_first_frame"] == 1 and h["mototake_frames"] == FRAMES and h["mototake_name"] == NAME,
              "properties %s" % ({k: h[k] for k in h.keys() if k.startswith("mototake")} if h else "missing"))
if all(p is not None for v in pos.values() for p in v):
    worst = max((a - b).length for a, b in zip(pos["glb"], pos["fbx"]))
    check("same_frames_glb_fbx", worst < 1e-4, "%s_frame differs by %.3g m between GLB and FBX" % (NAME, worst))
    print("info GLB and FBX %s_frame at frames 1, %d, %d: worst %.2g m" % (NAME, FRAMES // 2, FRAMES, worst))
else:
    check("same_frames_glb_fbx", False, "no %s_frame object" % NAME)
sys.exit(1 if failures else 0)
