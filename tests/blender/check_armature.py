# check_armature.py — does `mototake export --armature` import into Blender as one armature
# that moves exactly like the plain export?
#
#   blender -b --factory-startup --python tests/blender/check_armature.py -- PLAIN.glb ARMATURE.glb|.fbx FPS NBODY FROM
#
# PLAIN is a plain export of a take from its start; ARMATURE an --armature export of the same take
# from FROM seconds to the same end. Checks:
#   - one ARMATURE object with NBODY bones, named after the bodies, with the body tree as
#     the bone hierarchy; one skinned mesh (armature modifier), every vertex in exactly one
#     vertex group with weight 1 (rigid skinning);
#   - rest pose: each bone's head in the armature's rest space is its body's origin at the take's
#     start (its trim) in the plain import, whatever FROM, within 1e-4 m;
#   - motion: at five frames, every vertex of the evaluated (deformed) skinned mesh lies within
#     1e-4 m of a world vertex of the plain import's body objects and every one of those within
#     1e-4 m of a deformed vertex (nearest-vertex search both ways: importers merge coincident
#     vertices differently, so counts are not compared).
# Prints "ok NAME" / "FAIL NAME: why" lines and exits 1 on any failure.
import sys

import numpy
numpy.bool = bool   # Blender 3.4's glTF importer uses np.bool, removed in numpy 1.24

import bpy
from mathutils import kdtree

args = sys.argv[sys.argv.index("--") + 1:]
PLAIN, ARM, FPS, NBODY = args[0], args[1], float(args[2]), int(args[3])
FROM = float(args[4]) if len(args) > 4 else 0.0
failures = 0


def ok(name):
    print("ok blender_armature_%s" % name)


def fail(name, why):
    global failures
    failures += 1
    print("FAIL blender_armature_%s: %s" % (name, why))


def load(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = int(round(FPS)), 1.0
    if path.lower().endswith(".fbx"):
        bpy.ops.import_scene.fbx(filepath=path)
    else:
        bpy.ops.import_scene.gltf(filepath=path)
    ranges = [o.animation_data.action.frame_range for o in bpy.data.objects
              if o.animation_data and o.animation_data.action]
    return scene, min(r[0] for r in ranges), max(r[1] for r in ranges)


# ---- the plain import: body origins at the first frame, world vertices at five frames ----
scene, f0, f1 = load(PLAIN)
a0 = f0 + round(FROM * FPS)   # the plain import's frame at the armature's first key
frames = [int(round(a0 + (f1 - a0) * k / 4)) for k in range(5)]
bodies = [o.name for o in bpy.data.objects   # the tyres (exporters/tyres.h) are parts, not bodies
          if o.type == "MESH" and o.animation_data and o.animation_data.action and not o.name.endswith("_tyre")]
parents = {n: bpy.data.objects[n].parent.name for n in bodies}
scene.frame_set(int(f0))
origin0 = {n: bpy.data.objects[n].matrix_world.translation.copy() for n in bodies}
nverts = {n: len(bpy.data.objects[n].data.vertices) for n in bodies}
world = []
for f in frames:
    scene.frame_set(f)
    pts = []
    for n in bodies:
        o = bpy.data.objects[n]
        pts += [o.matrix_world @ v.co for v in o.data.vertices]
    world.append(pts)

# ---- the armature import ----
scene, g0, g1 = load(ARM)
arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
if len(arms) != 1:
    fail("one_armature", "%d armature objects" % len(arms))
    sys.exit(1)
arm = arms[0]
bones = arm.data.bones
if len(bones) == NBODY and set(b.name for b in bones) == set(bodies):
    ok("bones (%d, one per body)" % len(bones))
else:
    fail("bones", "%d bones %s, bodies %s" % (len(bones), sorted(b.name for b in bones), sorted(bodies)))
tree = [b.name for b in bones if (b.parent.name if b.parent else None) != (parents.get(b.name) if parents.get(b.name) in bodies else None)]
if tree:
    fail("bone_hierarchy", "wrong parent for %s" % tree)
else:
    ok("bone_hierarchy")
skinned = [o for o in bpy.data.objects if o.type == "MESH" and any(m.type == "ARMATURE" for m in o.modifiers)]
if len(skinned) != 1:
    fail("one_skinned_mesh", "%d skinned meshes" % len(skinned))
    sys.exit(1)
skin = skinned[0]
ok("one_skinned_mesh (%s, %d vertices)" % (skin.name, len(skin.data.vertices)))
groups = {g.index: g.name for g in skin.vertex_groups}
rigid = all(len(v.groups) == 1 and abs(v.groups[0].weight - 1) < 1e-6 for v in skin.data.vertices)
counts = {}
for v in skin.data.vertices:
    if v.groups:
        counts[groups[v.groups[0].group]] = counts.get(groups[v.groups[0].group], 0) + 1
if rigid and all(counts.get(n, 0) > 0 for n in bodies):
    ok("rigid_skinning (each vertex one bone, weight 1; every body has vertices)")
else:
    fail("rigid_skinning", "rigid %s; vertices per bone %s" % (rigid, counts))

worst = max((arm.matrix_world @ bones[n].head_local - origin0[n]).length for n in bodies if n in bones)
if worst <= 1e-4:
    ok("rest_pose_is_the_start (heads within %.1e m)" % worst)
else:
    fail("rest_pose_is_the_start", "a bone head is %.3g m from its body's origin at the take's start" % worst)

worst, at = 0.0, None
for k, f in enumerate(frames):
    scene.frame_set(int(round(g0 + (f - a0))))
    kd = kdtree.KDTree(len(world[k]))
    for i, p in enumerate(world[k]):
        kd.insert(p, i)
    kd.balance()
    dg = bpy.context.evaluated_depsgraph_get()
    ev = skin.evaluated_get(dg)
    me = ev.to_mesh()
    deformed = [ev.matrix_world @ v.co for v in me.vertices]
    ev.to_mesh_clear()
    for p in deformed:
        _, _, d = kd.find(p)
        if d > worst:
            worst, at = d, f
    kd2 = kdtree.KDTree(len(deformed))
    for i, p in enumerate(deformed):
        kd2.insert(p, i)
    kd2.balance()
    for p in world[k]:
        _, _, d = kd2.find(p)
        if d > worst:
            worst, at = d, f
# locators and parts ride on their bones
riders = [o for o in bpy.data.objects
          if ("loc_" in o.name or "rider_" in o.name or o.name.endswith("_tyre")) and o.type != "ARMATURE"]
loose = [o.name for o in riders if not (o.parent == arm and o.parent_type == "BONE" and o.parent_bone in bones)]
if loose or len(riders) < 15:
    fail("locators_on_bones", "%d locators and parts; not parented to a bone: %s" % (len(riders), loose[:5]))
else:
    ok("locators_on_bones (%d)" % len(riders))
print("info armature vs plain import: worst vertex distance %.2e m (frame %s)" % (worst, at))
if worst <= 1e-4:
    ok("skinned_motion_matches_plain_export")
else:
    fail("skinned_motion_matches_plain_export", "a vertex is %.3g m off at frame %s" % (worst, at))
sys.exit(1 if failures else 0)
