# check_tyres.py — do the tyres touch the exported road in every frame?
#
#   blender -b --factory-startup --python tests/blender/check_tyres.py -- TAKE.glb FPS
#
# TAKE.glb is a `mototake export` of a take with its track (the set: exporters/set.h) and its
# tyres apart from the wheels (front_tyre, rear_tyre: exporters/tyres.h). The road's parts
# (road, road_lines, kerbs_red, kerbs_white) are static: one BVH tree of their world triangles.
# At every frame of the range, each tyre's clearance is the least distance, along the road's
# normal where a vertical ray from it meets the road, over the vertices of the tyre's lower half
# (negative: sunk). The tyres must neither sink nor float by more than 3 mm in any frame:
#   tyres_touch_road — |clearance| <= 3 mm for both tyres in every frame;
# and an "info" line gives the worst sink and float and where. Prints "ok NAME" / "FAIL NAME:
# why" lines and exits 1 on any failure.
import sys

import numpy
numpy.bool = bool   # Blender 3.4's glTF importer uses np.bool, removed in numpy 1.24

import bpy
from mathutils import Vector
from mathutils.bvhtree import BVHTree

args = sys.argv[sys.argv.index("--") + 1:]
GLB, FPS = args[0], float(args[1])
LIMIT = 0.003
failures = 0


def ok(name):
    print("ok blender_%s" % name)


def fail(name, why):
    global failures
    failures += 1
    print("FAIL blender_%s: %s" % (name, why))


def named(suffix):
    return [o for o in bpy.data.objects if o.name == suffix or o.name.endswith("_" + suffix)]


bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps, scene.render.fps_base = int(round(FPS)), 1.0
bpy.ops.import_scene.gltf(filepath=GLB)

verts, polys = [], []
for part in ("road", "road_lines", "kerbs_red", "kerbs_white"):
    for o in named(part):
        if o.type != "MESH":
            continue
        base = len(verts)
        verts += [o.matrix_world @ v.co for v in o.data.vertices]
        polys += [[base + i for i in p.vertices] for p in o.data.polygons]
tyres = {n: named(n) for n in ("front_tyre", "rear_tyre")}
if not polys or any(len(t) != 1 for t in tyres.values()):
    fail("tyres_setup", "road triangles %d, tyres %s" % (len(polys), {k: len(v) for k, v in tyres.items()}))
    sys.exit(1)
tree = BVHTree.FromPolygons(verts, polys)
print("info road: %d triangles" % len(polys))

starts = [o.animation_data.action.frame_range for o in bpy.data.objects if o.animation_data and o.animation_data.action]
f0, f1 = int(min(s[0] for s in starts)), int(max(s[1] for s in starts))
worst = {"sink": (0.0, ""), "float": (0.0, "")}
misses = 0
for f in range(f0, f1 + 1):
    scene.frame_set(f)
    for name, (obj,) in tyres.items():
        m = obj.matrix_world
        centre = m.translation
        best = None
        for v in obj.data.vertices:
            p = m @ v.co
            if p.z > centre.z:
                continue
            hit, normal, _, _ = tree.ray_cast(p + Vector((0, 0, 1)), Vector((0, 0, -1)), 3.0)
            if hit is None:
                misses += 1
                continue
            gap = (p - hit).dot(normal)
            best = gap if best is None or gap < best else best
        if best is None:
            continue
        where = "%s at frame %d (%.3f s)" % (name, f, (f - f0) / FPS)
        if -best > worst["sink"][0]:
            worst["sink"] = (-best, where)
        if best > worst["float"][0]:
            worst["float"] = (best, where)
print("info frames %d..%d: worst sink %.2f mm (%s), worst float %.2f mm (%s); %d vertex rays missed the road" %
      (f0, f1, worst["sink"][0] * 1e3, worst["sink"][1], worst["float"][0] * 1e3, worst["float"][1], misses))
if worst["sink"][0] <= LIMIT and worst["float"][0] <= LIMIT:
    ok("tyres_touch_road (%d frames, sink <= %.2f mm, float <= %.2f mm)" %
       (f1 - f0 + 1, worst["sink"][0] * 1e3, worst["float"][0] * 1e3))
else:
    fail("tyres_touch_road", "sunk %.2f mm (%s), floating %.2f mm (%s): more than %.0f mm" %
         (worst["sink"][0] * 1e3, worst["sink"][1], worst["float"][0] * 1e3, worst["float"][1], LIMIT * 1e3))
sys.exit(1 if failures else 0)
