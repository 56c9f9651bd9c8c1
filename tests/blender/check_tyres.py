# check_tyres.py — do the tyres touch the exported road in every frame?
#
#   blender -b --factory-startup --python tests/blender/check_tyres.py -- TAKE.glb FPS [ADDON.zip]
#
# TAKE.glb is a `mototake export` of a take with its track (the set: exporters/set.h) and its
# tyres apart from the wheels (front_tyre, rear_tyre: exporters/tyres.h). The road's parts
# (road, road_lines, kerbs_red, kerbs_white) are static: one BVH tree of their world triangles.
# At every frame of the range, each tyre's clearance is the least distance, along the road's
# normal where a vertical ray from it meets the road, over the vertices of the tyre's lower half
# (negative: sunk). The tyres must neither sink nor float by more than 3 mm in any frame:
#   tyres_touch_road — |clearance| <= 3 mm for both tyres in every frame;
# and an "info" line gives the worst sink and float and where. That is the file as any glTF
# client sees it: the tyre lifted up its wheel plane (exporters/tyres.h).
# With ADDON.zip (`mototake blender-addon`), the same file is then imported again through the
# add-on, which puts each tyre back round its rim and flattens its contact patch (a
# geometry-nodes modifier: blender/mototake_io/tyres.py), and at every frame the evaluated
# tyres are measured:
#   patch_touches_road — |clearance| <= 3 mm for both tyres in every frame (as above);
#   patch_concentric — the tyre's farthest vertex from its axle is the tyre's outer radius
#     within 0.5 mm (the lift undone: lifted, it is the radius plus the lift, 4-14 mm here);
#   patch_length — in every frame where the rigid torus reaches >= 3 mm below the road, the
#     vertices lying on the road (within 0.3 mm) span, along the tyre's heading, the chord the
#     road cuts off the circle the tyre touches it with: 2 sqrt(2 rho e - e^2), rho = R + r cos g
#     (R, r the torus's radii, g the camber against the road's normal) and e the depth in the
#     wheel plane (the exporter's lift), within 20 % (the mesh's rows are 8-10 mm apart);
#     before the add-on flattened them the patches were points (no vertex on the road).
# Prints "ok NAME" / "FAIL NAME: why" lines and exits 1 on any failure.
import math
import sys

import numpy
numpy.bool = bool   # Blender 3.4's glTF importer uses np.bool, removed in numpy 1.24

import bpy
from mathutils import Vector
from mathutils.bvhtree import BVHTree

args = sys.argv[sys.argv.index("--") + 1:]
GLB, FPS = args[0], float(args[1])
ADDON = args[2] if len(args) > 2 else None
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
def lowest_gaps(obj, tree, mesh):
    """World positions of the mesh's vertices within 30 mm (world z) of its lowest one, and their
    clearance along the road's normal where a vertical ray meets the road (None: missed)."""
    co = numpy.empty(3 * len(mesh.vertices))
    mesh.vertices.foreach_get("co", co)
    m = numpy.array(obj.matrix_world)
    p = co.reshape(-1, 3) @ m[:3, :3].T + m[:3, 3]
    low = p[p[:, 2] < p[:, 2].min() + 0.03]
    out = []
    for q in low:
        v = Vector(q)
        hit, normal, _, _ = tree.ray_cast(v + Vector((0, 0, 1)), Vector((0, 0, -1)), 3.0)
        out.append((v, None if hit is None else (v - hit).dot(normal), normal))
    return out


def measure(obj, ax, dg, radii):
    """One evaluated tyre at the current frame: (how far its farthest vertex is from the outer
    radius about its axle, its least clearance or None, and when the exporter lifted it >= 3 mm
    (the rigid torus that deep in the road) (patch length / chord, patch length, chord), else
    None)."""
    r_out, tube = radii
    ev = obj.evaluated_get(dg)
    me = ev.to_mesh()
    centre = ax.matrix_world.translation
    co = numpy.empty(3 * len(me.vertices))
    me.vertices.foreach_get("co", co)
    m = numpy.array(ev.matrix_world)
    world = co.reshape(-1, 3) @ m[:3, :3].T + m[:3, 3]
    off = abs(float(numpy.max(numpy.linalg.norm(world - numpy.array(centre), axis=1))) - r_out)
    hits = [(v, g, n) for v, g, n in lowest_gaps(ev, tree, me) if g is not None]
    ev.to_mesh_clear()
    gap = min(h[1] for h in hits) if hits else None
    e = (obj.matrix_world.translation - centre).length   # the exporter's lift: depth in the wheel plane
    if e < 0.003 or not hits:
        return off, gap, None
    w = (obj.matrix_world.to_3x3() @ Vector((0, 1, 0))).normalized()
    x = (obj.matrix_world.to_3x3() @ Vector((1, 0, 0))).normalized()
    on = [v.dot(x) for v, g, n in hits if abs(g) < 0.0003]
    cosg = math.sqrt(max(0.0, 1 - w.dot(hits[0][2]) ** 2))
    rho = (r_out - tube) + tube * cosg
    want = 2 * math.sqrt(max(0.0, 2 * rho * e - e * e))
    got = (max(on) - min(on)) if len(on) > 1 else 0.0
    return off, gap, (got / want, got, want)


def patches():
    """The add-on's tyres (see the header): touching, concentric, flattened, at every frame."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.preferences.addon_install(filepath=ADDON)
    bpy.ops.preferences.addon_enable(module="mototake_io")
    sc = bpy.context.scene
    if bpy.ops.import_scene.mototake_take(filepath=GLB, setup_scene=False) != {"FINISHED"}:
        fail("patch_import", "the add-on's import failed")
        return
    tyre = {n: named(n) for n in ("front_tyre", "rear_tyre")}
    axle = {n: named("loc_%s_axle" % n.split("_")[0]) for n in tyre}
    if any(len(t) != 1 or not t[0].modifiers for t in tyre.values()) or any(len(a) != 1 for a in axle.values()):
        fail("patch_setup", "tyres %s with modifiers %s, axles %s" % (
            {k: len(v) for k, v in tyre.items()}, {k: [len(o.modifiers) for o in v] for k, v in tyre.items()},
            {k: len(v) for k, v in axle.items()}))
        return
    radii = {}   # the exported torus (in the tyre's frame, before the modifier): outer radius, tube
    for name, (obj,) in tyre.items():
        c0 = numpy.empty(3 * len(obj.data.vertices))
        obj.data.vertices.foreach_get("co", c0)
        radii[name] = (float(numpy.max(numpy.hypot(c0[0::3], c0[2::3]))), float(numpy.max(numpy.abs(c0[1::3]))))
    gap_worst, centre_worst, ratios, flat_frames, pointlike = (0.0, ""), (0.0, ""), [], 0, []
    for f in range(f0, f1 + 1):
        sc.frame_set(f)
        dg = bpy.context.evaluated_depsgraph_get()
        for name in tyre:
            where = "%s at frame %d" % (name, f)
            off, gap, ratio = measure(tyre[name][0], axle[name][0], dg, radii[name])
            if off > centre_worst[0]:
                centre_worst = (off, where)
            if gap is not None and abs(gap) > gap_worst[0]:
                gap_worst = (abs(gap), where + " (%+.2f mm)" % (gap * 1e3))
            if ratio is not None:
                flat_frames += 1
                ratios.append((ratio[0], where) + ratio[1:])
                if ratio[1] == 0.0:
                    pointlike.append(where)
    print("info add-on's tyres: worst clearance %.3f mm (%s); worst off-centre %.3f mm (%s); %d frames with a patch" %
          (gap_worst[0] * 1e3, gap_worst[1], centre_worst[0] * 1e3, centre_worst[1], flat_frames))
    if gap_worst[0] <= LIMIT:
        ok("patch_touches_road (%d frames, |clearance| <= %.2f mm)" % (f1 - f0 + 1, gap_worst[0] * 1e3))
    else:
        fail("patch_touches_road", "%.2f mm at %s: more than %.0f mm" % (gap_worst[0] * 1e3, gap_worst[1], LIMIT * 1e3))
    if centre_worst[0] <= 0.0005:
        ok("patch_concentric (the farthest vertex within %.3f mm of the outer radius)" % (centre_worst[0] * 1e3))
    else:
        fail("patch_concentric", "off the axle by %.2f mm at %s" % (centre_worst[0] * 1e3, centre_worst[1]))
    if not ratios:
        fail("patch_length", "no frame with the rigid torus 3 mm below the road: nothing measured")
        return
    lo, hi = min(ratios), max(ratios)
    print("info patch length / chord: %.3f (%s: %.1f of %.1f mm) .. %.3f (%s: %.1f of %.1f mm) over %d tyre-frames" %
          (lo[0], lo[1], lo[2] * 1e3, lo[3] * 1e3, hi[0], hi[1], hi[2] * 1e3, hi[3] * 1e3, len(ratios)))
    if not pointlike and 0.8 <= lo[0] and hi[0] <= 1.2:
        ok("patch_length (%d tyre-frames, %.2f..%.2f of the chord)" % (len(ratios), lo[0], hi[0]))
    else:
        fail("patch_length", "patch/chord %.2f at %s, %.2f at %s; %d frames with no patch%s" %
             (lo[0], lo[1], hi[0], hi[1], len(pointlike), (" (first " + pointlike[0] + ")") if pointlike else ""))


if ADDON:
    patches()
sys.exit(1 if failures else 0)
