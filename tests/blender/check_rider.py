# check_rider.py — the rider's skeleton as an animator gets it (issue 32): an `export --armature`
# GLB and a BVH of the same take and range, imported with Blender's stock importers.
#
#   blender -b --factory-startup --python tests/blender/check_rider.py -- ARM.glb|ARM.fbx RIDER.bvh FPS TAG [knee]
#
# Checks (ok/FAIL lines named blender_rider_TAG_...):
#   - bones: the 21 humanoid bones by their Mixamo names in the armature, with the Mixamo tree
#     (written out below, not read from the program), Hips under the rider_pelvis bone;
#   - skin: one skinned mesh with a vertex group per humanoid bone; every vertex's weights sum to 1
#     over at most 4 groups;
#   - hands_on_grips: at EVERY frame, each hand's grip point (45 % of the hand's length from the
#     wrist along the hand bone, scene/skel_pose.c) within 5 mm of its loc_grip locator;
#     feet_on_pegs: each foot's ball (the ToeBase bone's head, the foot's tail) within 5 mm of its
#     loc_footpeg locator. A glTF file has no bone lengths (Blender's importer guesses the tails), so
#     the hand's length is read from the BVH's text: its End Site offset, the rest tail;
#   - bvh_round_trip: the BVH through bpy.ops.import_anim.bvh with its defaults: every bone's world
#     head within 1 mm of the GLB armature's at every 5th frame (both start at frame 1);
#   - knee (with "knee"; the export must carry the road): over the frames, the inside knee joint's
#     height above the road (a ray cast down onto the road mesh) comes within the knee slider's
#     reach, 0.03 × rider height (scene/skel_pose.c, SLIDER_OUT) + 5 mm, and never below the road.
import sys

import numpy
numpy.bool = bool   # Blender 3.4's glTF importer uses np.bool, removed in numpy 1.24

import bpy
from mathutils import Vector

args = sys.argv[sys.argv.index("--") + 1:]
GLB, BVH, FPS, TAG = args[0], args[1], int(args[2]), args[3]
KNEE = len(args) > 4 and args[4] == "knee"
failures = 0

MIXAMO = {"Hips": None, "Spine": "Hips", "Spine1": "Spine", "Neck": "Spine1", "Head": "Neck",
          "LeftShoulder": "Spine1", "LeftArm": "LeftShoulder", "LeftForeArm": "LeftArm", "LeftHand": "LeftForeArm",
          "RightShoulder": "Spine1", "RightArm": "RightShoulder", "RightForeArm": "RightArm", "RightHand": "RightForeArm",
          "LeftUpLeg": "Hips", "LeftLeg": "LeftUpLeg", "LeftFoot": "LeftLeg", "LeftToeBase": "LeftFoot",
          "RightUpLeg": "Hips", "RightLeg": "RightUpLeg", "RightFoot": "RightLeg", "RightToeBase": "RightFoot"}
GRIP_FRAC = 0.45
SLIDER_OUT = 0.03


def ok(name):
    print("ok blender_rider_%s_%s" % (TAG, name))


def fail(name, why):
    global failures
    failures += 1
    print("FAIL blender_rider_%s_%s: %s" % (TAG, name, why))


def end_site_length(path, joint):
    """The length of a leaf joint's End Site offset in a BVH file (the bone's rest length)."""
    words = open(path).read().split()
    i = words.index(joint)
    j = words.index("End", i)
    k = words.index("OFFSET", j)
    return Vector([float(w) for w in words[k + 1:k + 4]]).length


HAND_LEN = {s: end_site_length(BVH, s + "Hand") for s in ("Left", "Right")}
scene = bpy.context.scene
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps, scene.render.fps_base = FPS, 1.0
if GLB.lower().endswith(".fbx"):
    bpy.ops.import_scene.fbx(filepath=GLB)   # the defaults
else:
    bpy.ops.import_scene.gltf(filepath=GLB)   # the defaults, as the add-on imports
arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
if len(arms) != 1:
    fail("one_armature", "%d armature objects" % len(arms))
    sys.exit(1)
arm = arms[0]
bones = arm.data.bones
act = arm.animation_data.action if arm.animation_data else None
if not act:
    fail("action_on_armature", "the armature has no action")
    sys.exit(1)
f0, f1 = int(round(act.frame_range[0])), int(round(act.frame_range[1]))

# ---- names and hierarchy ----
missing = [n for n in MIXAMO if n not in bones]
wrong = [n for n, p in MIXAMO.items() if n in bones and p and (bones[n].parent is None or bones[n].parent.name != p)]
hips_parent = bones["Hips"].parent.name if "Hips" in bones and bones["Hips"].parent else None
if missing or wrong or not (hips_parent or "").endswith("rider_pelvis"):
    fail("bones", "missing %s; wrong parent %s; Hips under %s" % (missing, wrong, hips_parent))
else:
    ok("bones (%d Mixamo bones, Mixamo tree, Hips under %s; %d bones in all)" % (len(MIXAMO), hips_parent, len(bones)))

# ---- the skin ----
skinned = [o for o in bpy.data.objects if o.type == "MESH" and any(m.type == "ARMATURE" for m in o.modifiers)]
if len(skinned) != 1:
    fail("skin", "%d skinned meshes" % len(skinned))
else:
    sk = skinned[0]
    names = set(g.name for g in sk.vertex_groups)
    nogroup = [n for n in MIXAMO if n not in names]
    bad = [v.index for v in sk.data.vertices if len(v.groups) > 4 or abs(sum(g.weight for g in v.groups) - 1) > 1e-4]
    blended = sum(1 for v in sk.data.vertices if len(v.groups) >= 2)
    if nogroup or bad or blended == 0:
        fail("skin", "no group for %s; %d vertices with > 4 groups or weights not summing to 1; %d blended"
             % (nogroup, len(bad), blended))
    else:
        ok("skin (%d vertices, %d of them shared by 2-4 bones, weights sum to 1)" % (len(sk.data.vertices), blended))


def locator(suffix):
    c = [o for o in bpy.data.objects if o.name.endswith(suffix)]
    return c[0] if c else None


grips = [locator("loc_grip_left"), locator("loc_grip_right")]
pegs = [locator("loc_footpeg_left"), locator("loc_footpeg_right")]
if None in grips or None in pegs:
    fail("locators", "grip and footpeg locators: %s %s" % (grips, pegs))
    sys.exit(1)

road = [o for o in bpy.data.objects if o.type == "MESH" and o.name.endswith("road")]
# the frame loop reads bones and locators only: the other meshes (the skin's deformation above all)
# need not be evaluated at every frame, so they leave the view layer's evaluation
for o in bpy.data.objects:
    if o.type == "MESH" and o not in road:
        o.hide_viewport = True
pb = arm.pose.bones
hand_worst = foot_worst = (0.0, None)
heads = {}
knee_low, knee_frame = 1e9, None
for f in range(f0, f1 + 1):
    scene.frame_set(f)
    M = arm.matrix_world
    for s, side in enumerate(("Left", "Right")):
        h = pb[side + "Hand"]
        gp = M @ (h.head + GRIP_FRAC * HAND_LEN[side] * (h.tail - h.head).normalized())
        d = (gp - grips[s].matrix_world.translation).length
        if d > hand_worst[0]:
            hand_worst = (d, f)
        d = (M @ pb[side + "ToeBase"].head - pegs[s].matrix_world.translation).length
        if d > foot_worst[0]:
            foot_worst = (d, f)
    if (f - f0) % 5 == 0:
        heads[f] = {n: M @ pb[n].head for n in MIXAMO}
    if KNEE and road:   # a ray down onto the road mesh alone, in its own coordinates
        Ri = road[0].matrix_world.inverted()
        for side in ("Left", "Right"):
            k = M @ pb[side + "Leg"].head
            o, d = Ri @ (k + Vector((0, 0, 2))), (Ri.to_3x3() @ Vector((0, 0, -1))).normalized()
            hit, loc, _, _ = road[0].ray_cast(o, d)
            if hit:
                hgt = k.z - (road[0].matrix_world @ loc).z
                if hgt < knee_low:
                    knee_low, knee_frame = hgt, f
print("info %s: frames %d-%d; hand to grip worst %.2f mm (frame %s), foot to peg worst %.2f mm (frame %s)"
      % (TAG, f0, f1, 1e3 * hand_worst[0], hand_worst[1], 1e3 * foot_worst[0], foot_worst[1]))
if hand_worst[0] <= 0.005:
    ok("hands_on_grips (every frame, worst %.2f mm)" % (1e3 * hand_worst[0]))
else:
    fail("hands_on_grips", "a hand's grip point is %.1f mm from its grip at frame %s" % (1e3 * hand_worst[0], hand_worst[1]))
if foot_worst[0] <= 0.005:
    ok("feet_on_pegs (every frame, worst %.2f mm)" % (1e3 * foot_worst[0]))
else:
    fail("feet_on_pegs", "a foot is %.1f mm from its peg at frame %s" % (1e3 * foot_worst[0], foot_worst[1]))

if KNEE:
    reach = SLIDER_OUT * 1.78 + 0.005
    if not road:
        fail("knee_on_road", "the export has no road mesh")
    elif knee_frame is not None and -0.005 < knee_low <= reach:
        ok("knee_on_road (inside knee %.1f mm above the road at frame %d; slider reach %.1f mm)"
           % (1e3 * knee_low, knee_frame, 1e3 * reach))
    else:
        fail("knee_on_road", "lowest knee %.1f mm above the road (frame %s): not within the reach %.1f mm, or "
             "more than 5 mm below the road" % (1e3 * knee_low, knee_frame, 1e3 * reach))

# ---- the BVH through Blender's stock importer ----
# Blender 3.4's importer opens the file with mode "rU", which Python 3.11 (Debian 12's Blender)
# refuses: the importer fails on every BVH there. Map "rU" to "r" (the same meaning since
# Python 3) while it reads; Blender 3.5 and later open with "r" themselves.
import builtins
_open = builtins.open
builtins.open = lambda f, mode="r", *a, **k: _open(f, mode.replace("U", ""), *a, **k)
before = set(bpy.data.objects)
bpy.ops.import_anim.bvh(filepath=BVH, frame_start=f0, update_scene_fps=False, update_scene_duration=False)
builtins.open = _open
new = [o for o in bpy.data.objects if o not in before and o.type == "ARMATURE"]
if len(new) != 1:
    fail("bvh_round_trip", "the BVH import made %d armatures" % len(new))
    sys.exit(1)
barm = new[0]
bmissing = [n for n in MIXAMO if n not in barm.data.bones]
worst, at = 0.0, None
for f, ref in heads.items():
    scene.frame_set(f)
    for n in MIXAMO:
        if n in barm.pose.bones:
            d = (barm.matrix_world @ barm.pose.bones[n].head - ref[n]).length
            if d > worst:
                worst, at = d, (f, n)
print("info %s: BVH vs the armature import: worst bone head %.3f mm at %s over %d frames" % (TAG, 1e3 * worst, at, len(heads)))
if not bmissing and worst <= 0.001:
    ok("bvh_round_trip (%d bones, %d frames, worst %.3f mm)" % (len(MIXAMO), len(heads), 1e3 * worst))
else:
    fail("bvh_round_trip", "missing %s; a bone head %.2f mm from the armature import's at %s" % (bmissing, 1e3 * worst, at))
sys.exit(1 if failures else 0)
