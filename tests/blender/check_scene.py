# check_scene.py — do a take's GLB and FBX exports describe the same scene in Blender, and are
# its locators where the machine's geometry says?
#
#   blender -b --factory-startup --python tests/blender/check_scene.py -- TAKE.glb TAKE.fbx FPS
#
# Both files are `mototake export` outputs of the same take and range at FPS. Each is imported
# into an empty scene (GLB with the scene rate set first, as the walkthrough says); then:
#   parity   — the same object names, types and parents; no object named "*-mesh*"; the root
#              kept; actions "body|take" in FBX (no trailing "|"); and at five times spread over
#              the range every object's world matrix agrees between the two imports: origin
#              within 1e-4 m, each local axis within 1e-4 (so the local axes agree, not only
#              the geometry). Frames are matched by time from each import's first key.
#   locators — on the GLB: each loc_* empty has the parent it must have; loc_front_axle and
#              loc_rear_axle sit on the wheels' origins (their spin centres); loc_steer_axis
#              sits on the steering body's origin (the steering head joint) with its local z
#              along the rake `mototake rig info` reports; the grips are the clip-on bar's end
#              faces 6 cm in (found in the steering mesh's vertices); loc_contact_front/rear
#              are the lowest points of the wheels' tyre tori measured from the tyre meshes
#              (outer radius and crown), each within 1e-4 m at every checked frame.
#   tyres    — front_tyre / rear_tyre (exporters/tyres.h) are children of the wheels' carriers,
#              their axles along the wheels' (1e-4), their centres in the wheels' planes (1e-4 m)
#              and at most 30 mm from the wheels' centres (the deflection they are lifted by).
#   parts    — rider_head and the arms are children of rider_torso, the legs of rider_pelvis;
#              both wheels show their spin (not symmetric under a 15° turn, as a torus is).
# Prints "ok NAME" / "FAIL NAME: why" lines and exits 1 on any failure.
import math
import sys

import numpy
numpy.bool = bool   # Blender 3.4's glTF importer uses np.bool, removed in numpy 1.24

import bpy
from mathutils import Matrix, Vector

args = sys.argv[sys.argv.index("--") + 1:]
GLB, FBX, FPS = args[0], args[1], float(args[2])
RAKE_DEG = float(args[3]) if len(args) > 3 else None
failures = 0


def ok(name):
    print("ok blender_scene_%s" % name)


def fail(name, why):
    global failures
    failures += 1
    print("FAIL blender_scene_%s: %s" % (name, why))


def load(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = int(round(FPS)), 1.0
    if path.lower().endswith(".fbx"):
        bpy.ops.import_scene.fbx(filepath=path)
    else:
        bpy.ops.import_scene.gltf(filepath=path)
    starts = [o.animation_data.action.frame_range for o in bpy.data.objects
              if o.animation_data and o.animation_data.action]
    return scene, min(s[0] for s in starts), max(s[1] for s in starts)


def snapshot(path, times):
    scene, f0, f1 = load(path)
    objs = {}
    for o in bpy.data.objects:
        act = o.animation_data.action.name if o.animation_data and o.animation_data.action else None
        objs[o.name] = {"type": o.type, "parent": o.parent.name if o.parent else None, "action": act}
    poses = []
    for t in times:
        scene.frame_set(int(round(f0 + t * FPS)))
        poses.append({o.name: o.matrix_world.copy() for o in bpy.data.objects})
    return objs, poses, f0, f1


# ---- parity ----
_, g0, g1 = load(GLB)
span = (g1 - g0) / FPS
times = [span * k / 4 for k in range(5)]
times = [round(t * FPS) / FPS for t in times]   # on keys: no interpolation difference
gobj, gpose, _, _ = snapshot(GLB, times)
fobj, fpose, _, _ = snapshot(FBX, times)

if set(gobj) == set(fobj):
    ok("same_objects (%d)" % len(gobj))
else:
    fail("same_objects", "GLB only %s; FBX only %s" % (sorted(set(gobj) - set(fobj)), sorted(set(fobj) - set(gobj))))
mesh_named = [n for n in fobj if "-mesh" in n] + [n for n in gobj if "-mesh" in n]
if mesh_named:
    fail("no_mesh_empties", "%s" % mesh_named)
else:
    ok("no_mesh_empties")
roots = sorted(n for n, v in gobj.items() if v["parent"] is None)
if len(roots) == 1 and roots[0] in fobj and fobj[roots[0]]["parent"] is None and fobj[roots[0]]["type"] == "EMPTY":
    ok("root_kept (%s)" % roots[0])
else:
    fail("root_kept", "GLB roots %s, FBX roots %s" % (roots, sorted(n for n, v in fobj.items() if v["parent"] is None)))
diff = [n for n in gobj if n in fobj and (gobj[n]["type"], gobj[n]["parent"]) != (fobj[n]["type"], fobj[n]["parent"])]
if diff:
    fail("types_and_parents", "; ".join("%s: GLB %s/%s FBX %s/%s" % (n, gobj[n]["type"], gobj[n]["parent"],
                                                                   fobj[n]["type"], fobj[n]["parent"]) for n in diff[:5]))
else:
    ok("types_and_parents")
bad_actions = [v["action"] for v in fobj.values() if v["action"] and (v["action"].endswith("|") or v["action"].count("|") != 1)]
if bad_actions:
    fail("fbx_action_names", "%s" % bad_actions[:3])
else:
    ok("fbx_action_names")

worst_p = worst_a = 0.0
where = ""
for k, t in enumerate(times):
    for n, mg in gpose[k].items():
        mf = fpose[k].get(n)
        if mf is None:
            continue
        dp = (mg.translation - mf.translation).length
        da = max((mg.col[c].xyz - mf.col[c].xyz).length for c in range(3))
        if dp > worst_p or da > worst_a:
            where = "%s at t = %.3f s" % (n, t)
        worst_p, worst_a = max(worst_p, dp), max(worst_a, da)
print("info GLB vs FBX world matrices: origins %.2e m, axes %.2e (worst %s)" % (worst_p, worst_a, where))
if worst_p <= 1e-4 and worst_a <= 1e-4:
    ok("same_world_poses_and_local_axes")
else:
    fail("same_world_poses_and_local_axes", "origins differ by %.3g m, axes by %.3g (%s)" % (worst_p, worst_a, where))

# ---- locators, on the GLB ----
scene, f0, f1 = load(GLB)


class Objects:
    """Objects by name; a name may carry a prefix (the take's name) before a separator."""
    def __getitem__(self, n):
        o = bpy.data.objects.get(n)
        if o is None:
            hits = [x for x in bpy.data.objects if x.name.endswith(n) and x.name[-len(n) - 1] in "_.-:|"]
            o = hits[0] if len(hits) == 1 else None
        if o is None:
            raise KeyError(n)
        return o

    def __contains__(self, n):
        try:
            self[n]
            return True
        except KeyError:
            return False


objs = Objects()
PARENT = {"loc_steer_axis": "steering", "loc_grip_left": "steering", "loc_grip_right": "steering",
          "loc_footpeg_left": "frame", "loc_footpeg_right": "frame", "loc_seat": "frame",
          "loc_front_axle": "fork_bend", "loc_rear_axle": "swingarm",
          "loc_contact_front": "fork_bend", "loc_contact_rear": "swingarm",
          "front_tyre": "fork_bend", "rear_tyre": "swingarm",
          "rider_head": "rider_torso", "rider_arm_left": "rider_torso", "rider_arm_right": "rider_torso",
          "rider_leg_left": "rider_pelvis", "rider_leg_right": "rider_pelvis"}
wrong = ["%s (%s)" % (n, objs[n].parent.name if n in objs and objs[n].parent else "missing")
         for n, p in PARENT.items() if n not in objs or not objs[n].parent or p not in objs or objs[n].parent != objs[p]]
if wrong:
    fail("locator_parents", "%s" % wrong)
    sys.exit(1)
ok("locator_parents (%d)" % len(PARENT))
empties = [n for n in PARENT if n.startswith("loc_") and objs[n].type != "EMPTY"]
tyre_off = []
for t_name, w_name in (("front_tyre", "front_wheel"), ("rear_tyre", "rear_wheel")):
    for t in times:
        scene.frame_set(int(round(f0 + t * FPS)))
        mt, mw = objs[t_name].matrix_world, objs[w_name].matrix_world
        at, aw = mt.to_3x3().col[1].normalized(), mw.to_3x3().col[1].normalized()
        off = mt.translation - mw.translation
        if (at - aw).length > 1e-4 and (at + aw).length > 1e-4 or abs(off.dot(aw)) > 1e-4 or off.length > 0.03:
            tyre_off.append("%s at %.2f s: axle %.2g, out of plane %.2g m, %.4f m from the wheel's centre" %
                            (t_name, t, min((at - aw).length, (at + aw).length), off.dot(aw), off.length))
if tyre_off:
    fail("tyres_on_their_wheels", "; ".join(tyre_off[:3]))
else:
    ok("tyres_on_their_wheels")
if empties:
    fail("locators_are_empties", "%s" % empties)
else:
    ok("locators_are_empties")


def tyre(wheel):
    """Outer radius and crown of a wheel's tyre torus, from its mesh (its frame: y is the axle)."""
    vs = [v.co for v in objs[wheel].data.vertices]
    r0 = max(math.hypot(v.x, v.z) for v in vs)
    crown = max(abs(v.y) for v in vs if math.hypot(v.x, v.z) > 0.7 * r0)
    return r0, crown


def lowest_point(m, r0, crown):
    c, w = m.translation, (m.to_3x3() @ Vector((0, 1, 0))).normalized()
    n = Vector((0, 0, 1))
    d = (-n + n.dot(w) * w).normalized()
    return c + (r0 - crown) * d - crown * n


def grip_points():
    """The clip-on bar's end-face centres, 6 cm in, in the steering object's frame."""
    vs = [v.co for v in objs["steering"].data.vertices]
    ymax = max(abs(v.y) for v in vs)
    out = []
    for sg in (1, -1):
        face = [v for v in vs if abs(v.y - sg * ymax) < 1e-6]
        c = sum((v for v in face), Vector()) / len(face)
        out.append(Vector((c.x, c.y - sg * 0.06, c.z)))
    return out


tyres = {"front_wheel": tyre("front_tyre"), "rear_wheel": tyre("rear_tyre")}
print("info tyres from the meshes: front r0 %.4f crown %.4f, rear r0 %.4f crown %.4f" %
      (tyres["front_wheel"] + tyres["rear_wheel"]))
grips = grip_points()
errs = {}
frames = [int(round(f0 + (f1 - f0) * k / 4)) for k in range(5)]
for f in frames:
    scene.frame_set(f)
    W = {n: objs[n].matrix_world.copy() for n in PARENT.keys() | {"front_wheel", "rear_wheel", "steering", "frame"}}
    checks = {
        "loc_front_axle": W["front_wheel"].translation,
        "loc_rear_axle": W["rear_wheel"].translation,
        "loc_steer_axis": W["steering"].translation,
        "loc_grip_left": W["steering"] @ grips[0],
        "loc_grip_right": W["steering"] @ grips[1],
        "loc_contact_front": lowest_point(W["front_wheel"], *tyres["front_wheel"]),
        "loc_contact_rear": lowest_point(W["rear_wheel"], *tyres["rear_wheel"]),
    }
    for n, want in checks.items():
        errs[n] = max(errs.get(n, 0.0), (W[n].translation - want).length)
    # the footpegs and the seat are fixed to the frame: the same frame-local point every frame
    for n in ("loc_footpeg_left", "loc_footpeg_right", "loc_seat"):
        local = W["frame"].inverted() @ W[n].translation
        errs.setdefault(n + "_local", [])
        errs[n + "_local"].append(local)
for n in list(errs):
    if n.endswith("_local"):
        pts = errs.pop(n)
        errs[n[:-6]] = max((p - pts[0]).length for p in pts)
for n, e in sorted(errs.items()):
    if e <= 1e-4:
        ok("locator_%s (%.1e m)" % (n, e))
    else:
        fail("locator_%s" % n, "%.3g m from the geometry" % e)

# the contact patch frame: level (z up) and x along the wheel's heading
scene.frame_set(frames[2])
cz = objs["loc_contact_rear"].matrix_world.to_3x3() @ Vector((0, 0, 1))
if (cz - Vector((0, 0, 1))).length < 1e-4:
    ok("contact_patch_level")
else:
    fail("contact_patch_level", "z axis %s" % tuple(cz))
if RAKE_DEG is not None:
    ax = objs["frame"].matrix_world.to_3x3().inverted() @ (objs["loc_steer_axis"].matrix_world.to_3x3() @ Vector((0, 0, 1)))
    rake = math.degrees(math.atan2(-ax.x, ax.z))
    if abs(rake - RAKE_DEG) < 0.2 and abs(ax.y) < 0.01:   # the frame's twist joint tilts it slightly
        ok("steer_axis_rake (%.2f deg, rig info %.2f)" % (rake, RAKE_DEG))
    else:
        fail("steer_axis_rake", "%.3f deg vs %.2f, sideways %.3f" % (rake, RAKE_DEG, ax.y))

# spin shows: a plain torus (48 segments) maps onto itself turned 15 degrees about the axle; a
# wheel with spokes does not
for wname in ("front_wheel", "rear_wheel"):
    vs = [v.co.copy() for v in objs[wname].data.vertices]
    key = {(round(v.x, 4), round(v.y, 4), round(v.z, 4)) for v in vs}
    c, s_ = math.cos(math.radians(15)), math.sin(math.radians(15))
    moved = sum((round(c * v.x + s_ * v.z, 4), round(v.y, 4), round(-s_ * v.x + c * v.z, 4)) not in key for v in vs)
    if moved >= 20:
        ok("spin_visible_%s (%d of %d vertices not on the mesh turned 15 deg)" % (wname, moved, len(vs)))
    else:
        fail("spin_visible_%s" % wname, "only %d of %d vertices move off the mesh when turned 15 deg" % (moved, len(vs)))

sys.exit(1 if failures else 0)
