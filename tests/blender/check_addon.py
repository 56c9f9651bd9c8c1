# check_addon.py — the mototake_io add-on in headless Blender, as an animator uses it.
#
#   BLENDER_USER_SCRIPTS=DIR blender -b --factory-startup --python tests/blender/check_addon.py -- \
#       ZIP GLB NAME_GLB TAKE CSV INFO
#
# ZIP is `mototake blender-addon -o ZIP`; GLB is `mototake export TAKE -o GLB --fps 30 --name
# NAME_GLB`; CSV is `mototake take channels TAKE -o CSV` (every step) and INFO the text of
# `mototake take info TAKE`. Installs and enables the zip, imports GLB and then TAKE itself (the
# add-on runs the CLI) with File > Import > mototake take, and checks, for both takes: the scene's
# fps and frame range, a collection per take named after it holding its objects, identical motion
# through both paths, one real camera per camera rig with the rig's field of view, looking at the
# machine, a timeline marker at every event's frame, and the channels as custom properties of the
# root equal to the take's channels (interpolated at the frame times; gear held); then the take again
# with Armature ticked: one armature, the rider's Mixamo bones by name, every one animated by the
# armature's action, the rest pose the skeleton's (joint offsets kept by the motion). The add-on's
# own numpy.bool workaround is what lets the stock glTF importer run here (this script sets none).
# Prints "ok NAME" / "FAIL NAME: why" / "info ..." lines; exits 1 on any failure.
import bisect
import csv
import math
import re
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
ZIP, GLB, NAME_A, TAKE, CSV, INFO = args[:6]
NAME_B = TAKE.rsplit("/", 1)[-1][:-5]
FPS = 30
failures = 0


def ok(name):
    print("ok blender_addon_%s" % name)


def fail(name, why):
    global failures
    failures += 1
    print("FAIL blender_addon_%s: %s" % (name, why))


def check(name, cond, why):
    (ok if cond else lambda n: fail(n, why))(name)


# ---- the take's own data: channels at every step, events ----
rows = list(csv.reader(open(CSV)))
head, data = rows[0], [[float(x) for x in r] for r in rows[2:]]
col = {h: i for i, h in enumerate(head)}
times = [r[col["time"]] for r in data]
events = []   # (time, kind, json text)
for line in open(INFO):
    m = re.match(r"\s+t =\s+([0-9.]+) s\s+(\S+)\s+(.*)$", line)
    if m:
        events.append((float(m.group(1)), m.group(2), m.group(3)))
CHANNELS = ["speed", "rpm", "throttle", "front_brake", "rear_brake", "gear", "lean", "steer_torque",
            "front_slip_ratio", "rear_slip_ratio", "front_slip_angle", "rear_slip_angle"]


def channel_at(name, t):
    """The take's channel at time t: linear between steps; gear holds the step's value."""
    i = bisect.bisect_right(times, t + 1e-9) - 1
    a = data[i][col[name]]
    if name == "gear" or i + 1 >= len(data):
        return a
    u = (t - times[i]) / (times[i + 1] - times[i])
    return a + u * (data[i + 1][col[name]] - a)


duration = times[-1]
frames = int(math.floor(duration * FPS + 1e-9)) + 1

# ---- install ----
import numpy   # noqa: E402
print("info numpy %s, numpy.bool %s before the add-on" % (numpy.__version__, "present" if "bool" in numpy.__dict__ else "absent"))
bpy.ops.preferences.addon_install(filepath=ZIP)
bpy.ops.preferences.addon_enable(module="mototake_io")
check("install", hasattr(bpy.ops.import_scene, "mototake_take") and "mototake_io" in bpy.context.preferences.addons,
      "the zip did not install an import_scene.mototake_take operator")
import mototake_io   # noqa: E402
menu = [f for f in getattr(bpy.types.TOPBAR_MT_file_import.draw, "_draw_funcs", []) if f.__module__.startswith("mototake_io")]
check("menu_entry", len(menu) == 1, "File > Import has %d mototake entries" % len(menu))

scene = bpy.context.scene
for o in list(bpy.data.objects):
    bpy.data.objects.remove(o)
scene.camera = None
scene.render.fps = 24   # Blender's default: the add-on must set the take's rate itself

r1 = bpy.ops.import_scene.mototake_take(filepath=GLB)
check("import_glb", r1 == {"FINISHED"}, "operator returned %s" % r1)
check("scene_fps", scene.render.fps == FPS and scene.render.fps_base == 1.0,
      "scene at %d/%g fps" % (scene.render.fps, scene.render.fps_base))
check("frame_range", (scene.frame_start, scene.frame_end) == (1, frames),
      "frames %d..%d, want 1..%d" % (scene.frame_start, scene.frame_end, frames))
r2 = bpy.ops.import_scene.mototake_take(filepath=TAKE, fps=FPS)
check("import_take", r2 == {"FINISHED"}, "operator returned %s" % r2)
if r1 != {"FINISHED"} or r2 != {"FINISHED"}:
    sys.exit(1)
check("frame_range_two_takes", (scene.frame_start, scene.frame_end) == (1, frames),
      "frames %d..%d after the second take, want 1..%d" % (scene.frame_start, scene.frame_end, frames))

# ---- collections and names ----
objs = bpy.data.objects
for name in (NAME_A, NAME_B):
    coll = bpy.data.collections.get(name)
    if coll is None:
        fail("collection_" + name, "no collection %s (have %s)" % (name, [c.name for c in bpy.data.collections]))
        continue
    mine = [o for o in objs if o.name == name or o.name.startswith(name + "_")]
    outside = [o.name for o in mine if coll not in o.users_collection or len(o.users_collection) != 1]
    check("collection_" + name, len(mine) >= 15 and not outside and set(coll.objects) == set(mine),
          "%d objects named %s_*, %d in the collection, outside it: %s" % (len(mine), name, len(coll.objects), outside))
dup = [o.name for o in objs if re.search(r"\.\d\d\d$", o.name)]
check("distinct_names", not dup and NAME_A != NAME_B, "renamed duplicates: %s" % dup[:5])

# ---- the same motion through the .glb and the .take paths ----
worst = 0.0
for f in (1, frames // 2, frames):
    scene.frame_set(f)
    for body in ("frame", "front_wheel", "rear_wheel", "rider_torso"):
        a, b = objs[NAME_A + "_" + body].matrix_world, objs[NAME_B + "_" + body].matrix_world
        worst = max(worst, max(abs(a[i][j] - b[i][j]) for i in range(3) for j in range(4)))
check("same_motion_glb_and_take", worst < 1e-5, "world matrices differ by %.3g" % worst)

# ---- cameras ----
want_fov = {"chase": 50.0, "onboard": 70.0}   # rigs/cameras.lua
for name in (NAME_A, NAME_B):
    for cam in ("chase", "trackside", "onboard"):
        o = objs.get("%s_cam_%s" % (name, cam))
        if o is None or o.type != "CAMERA":
            fail("camera_%s_%s" % (name, cam), "no camera object (%s)" % (o and o.type))
            continue
        fovs = []
        for f in (1, frames // 3, frames):
            scene.frame_set(f)
            fovs.append(math.degrees(o.data.angle_y))
        if cam in want_fov:
            check("camera_%s_%s" % (name, cam), o.data.sensor_fit == "VERTICAL" and
                  all(abs(v - want_fov[cam]) < 1e-3 for v in fovs),
                  "vertical fov %s deg, want %g" % (fovs, want_fov[cam]))
        else:   # trackside zooms within fov_min..fov_max = 4..45 deg
            check("camera_%s_%s" % (name, cam), all(4 - 1e-3 <= v <= 45 + 1e-3 for v in fovs) and max(fovs) - min(fovs) > 1,
                  "vertical fov %s deg, want a zoom within 4..45" % fovs)
    # the chase camera looks at the machine: 5.5 m behind, 1.9 m above the frame's origin, aimed
    # 0.4 m above it (rigs/cameras.lua); checked at mid-take on the straight
    scene.frame_set(frames // 2)
    cam = objs["%s_cam_chase" % name].matrix_world
    fr = objs["%s_frame" % name].matrix_world.translation
    eye = cam.translation
    look = -(cam.to_3x3().col[2])
    tgt = fr.copy()
    tgt.z += 0.4
    d = tgt - eye
    ang = math.degrees(look.angle(d))
    back = math.hypot(fr.x - eye.x, fr.y - eye.y)
    check("chase_aim_" + name, ang < 0.5 and abs(back - 5.5) < 0.3 and abs(eye.z - fr.z - 1.9) < 0.05,
          "aim off by %.3g deg, %.3f m behind, %.3f m above" % (ang, back, eye.z - fr.z))
    print("info %s chase camera: %.3f m behind, %.3f m above, aim error %.2g deg" % (name, back, eye.z - fr.z, ang))

# ---- markers ----
for name in (NAME_A, NAME_B):
    # the events' markers (the add-on's corner, apex, braking and gear markers: check_setup.py)
    got = sorted(m.frame for m in scene.timeline_markers if m.name.startswith(name + ": ") and
                 not re.fullmatch(r"T\d+( apex| braking)?|gear \d+>\d+", m.name[len(name) + 2:]))
    want = sorted(1 + round(t * FPS) for t, _, _ in events)
    check("markers_" + name, got == want and len(want) > 0, "marker frames %s, want %s" % (got, want))
    marks = [(t, j) for t, k, j in events if k == "mark"]
    for t, j in marks:
        label = re.search(r'"label":"([^"]*)"', j).group(1)
        hit = [m for m in scene.timeline_markers if m.name == "%s: %s" % (name, label)]
        check("mark_%s_%s" % (name, label.replace(" ", "_")), len(hit) == 1 and hit[0].frame == 1 + round(t * FPS),
              "marker %r at %s, want frame %d" % (label, [m.frame for m in hit], 1 + round(t * FPS)))

# ---- channels as custom properties of the root ----
for name in (NAME_A, NAME_B):
    root = objs[name]
    missing = [c for c in CHANNELS if c not in root.keys()]
    fcs = {fc.data_path for fc in root.animation_data.action.fcurves} if root.animation_data and root.animation_data.action else set()
    if missing or any('["%s"]' % c not in fcs for c in CHANNELS):
        fail("channels_" + name, "missing properties %s or their curves (%s)" % (missing, sorted(fcs)))
        continue
    worst, where, span = 0.0, "", {}
    for f in sorted({1, 2, 16, 19, frames // 2, frames - 1, frames}):
        scene.frame_set(f)
        t = (f - 1) / FPS
        for c in CHANNELS:
            want = channel_at(c, t)
            err = abs(root[c] - want) / (1 + abs(want))
            span.setdefault(c, []).append(want)
            if err > worst:
                worst, where = err, "%s at frame %d: %r, take %r" % (c, f, root[c], want)
    moving = [c for c in ("speed", "rpm", "throttle") if max(span[c]) - min(span[c]) > 0.01 * (1 + abs(max(span[c])))]
    check("channels_" + name, worst < 2e-6 and len(moving) == 3,
          "worst relative error %.3g (%s); varying: %s" % (worst, where, moving))
    print("info %s channels: worst relative error %.2g over 12 channels at 7 frames" % (name, worst))
    keys = {len(fc.keyframe_points) for fc in root.animation_data.action.fcurves if fc.data_path.startswith('["')}
    check("channel_keys_" + name, keys == {frames}, "key counts %s, want %d (one per frame)" % (keys, frames))

# ---- the armature through the add-on (Armature ticked): ready to retarget ----
MIXAMO = ["Hips", "Spine", "Spine1", "Neck", "Head", "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand",
          "RightShoulder", "RightArm", "RightForeArm", "RightHand", "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase",
          "RightUpLeg", "RightLeg", "RightFoot", "RightToeBase"]
r5 = bpy.ops.import_scene.mototake_take(filepath=TAKE, fps=FPS, name="warm", armature=True)
coll = bpy.data.collections.get("warm")
arms = [o for o in coll.objects if o.type == "ARMATURE"] if coll else []
check("armature_import", r5 == {"FINISHED"} and len(arms) == 1, "returned %s, %d armatures in 'warm'" % (r5, len(arms)))
if arms:
    arm = arms[0]
    bones = arm.data.bones
    act = arm.animation_data.action if arm.animation_data else None
    animated = {fc.data_path.split('"')[1] for fc in act.fcurves if fc.data_path.startswith("pose.bones")} if act else set()
    missing = [n for n in MIXAMO if n not in bones]
    still = [n for n in MIXAMO if n not in animated]
    check("armature_names_and_action", not missing and not still and bones["Hips"].parent.name == "warm_rider_pelvis",
          "bones missing %s; not animated by the armature's action %s; Hips under %s"
          % (missing, still, bones["Hips"].parent.name if "Hips" in bones and bones["Hips"].parent else None))
    # the rest pose is the skeleton's: every joint's rest offset from its parent's head is the one
    # the motion keeps (the rider's bones move rigidly), at the first and the last frame
    worst = 0.0
    for f in (scene.frame_start, scene.frame_end):
        scene.frame_set(f)
        for n in MIXAMO[1:]:
            b, pb = bones[n], arm.pose.bones[n]
            rest = (b.head_local - b.parent.head_local).length
            now = (pb.head - pb.parent.head).length
            worst = max(worst, abs(rest - now))
    check("armature_rest_pose", worst < 1e-3, "a joint's offset from its parent differs by %.2f mm from the rest pose's"
          % (1e3 * worst))
    print("info armature through the add-on: %d bones, rest offsets kept within %.3f mm" % (len(bones), 1e3 * worst))

# ---- a take at another frame rate: refused (Blender would play one of them at the wrong speed) ----
n_before = len(bpy.data.objects)
try:
    r4, msg = bpy.ops.import_scene.mototake_take(filepath=TAKE, fps=25, name="w25"), ""
except RuntimeError as ex:
    r4, msg = {"CANCELLED"}, str(ex)
check("other_fps_refused", r4 == {"CANCELLED"} and "25 fps" in msg and len(bpy.data.objects) == n_before and
      scene.render.fps == FPS and "w25" not in bpy.data.collections,
      "returned %s, message %r, scene at %d fps" % (r4, msg, scene.render.fps))

# ---- a file that is not a take: one clear error, nothing imported ----
bad = INFO + ".take"
open(bad, "w").write("not a take\n")
n_before = len(bpy.data.objects)
try:
    r3 = bpy.ops.import_scene.mototake_take(filepath=bad)
    msg = ""
except RuntimeError as ex:   # a reported ERROR raises in background mode
    r3, msg = {"CANCELLED"}, str(ex)
check("bad_take_refused", r3 == {"CANCELLED"} and "mototake" in msg and len(bpy.data.objects) == n_before,
      "returned %s, message %r, %d new objects" % (r3, msg, len(bpy.data.objects) - n_before))
print("info bad take: %s" % msg.strip().splitlines()[-1] if msg else "info bad take: no message")

sys.exit(1 if failures else 0)
