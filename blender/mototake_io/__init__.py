# mototake_io — Blender add-on: File > Import > mototake take (.glb/.gltf, or .take via the CLI).
#
# Installed from the zip that `mototake blender-addon -o mototake_blender.zip` writes (Edit >
# Preferences > Add-ons > Install...). What one import does (docs/export.md is the walkthrough):
#   - a .take is first exported by the mototake program (`mototake export TAKE -o TMP.glb --fps N
#     --name NAME`; the program is the one that wrote the zip, or the add-on preference, or
#     $MOTOTAKE, or `mototake` on PATH);
#   - the file's extras.mototake (exporters/meta.h) gives the take's name, fps, frame range,
#     events, channels and camera rigs;
#   - the scene's frame rate is set to the take's (whole) fps before the stock glTF importer
#     runs (it converts seconds with the scene's current rate), and the frame range to the
#     take's first..last frame (the union when takes are already in the scene);
#   - everything imported goes into a new collection named after the take;
#   - one camera per camera rig (NAME_cam_chase, NAME_cam_trackside, NAME_cam_onboard), keyed
#     at every frame: location, orientation, and lens for the rig's vertical field of view;
#   - a timeline marker per event ("NAME: label") at the event's frame;
#   - each tyre round its rim with its contact patch flattened onto the road (tyres.py);
#   - the channels (speed, rpm, throttle, brakes, gear, lean, steer torque, slips) as custom
#     properties of the take's root object, keyed at every frame (LINEAR; gear CONSTANT);
#   - Blender 3.4's glTF importer uses numpy.bool, which numpy 1.24 removed (Debian 12 ships
#     numpy 1.24 with Blender 3.4): when numpy has no `bool`, the add-on restores the alias
#     before importing.
import json
import math
import os
import re
import shutil
import struct
import subprocess
import tempfile

import bpy
from mathutils import Vector
from bpy.props import BoolProperty, FloatProperty, IntProperty, StringProperty
from bpy_extras.io_utils import ImportHelper

bl_info = {
    "name": "mototake takes",
    "author": "mototake",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import > mototake take (.glb/.take)",
    "description": "Import a mototake ride: fps and frame range, a collection per take, cameras, "
                   "event markers and data channels",
    "category": "Import-Export",
}

from . import tyres

try:
    from . import _config
    DEFAULT_MOTOTAKE = _config.MOTOTAKE
except ImportError:
    DEFAULT_MOTOTAKE = "mototake"


class MototakeError(Exception):
    pass


def numpy_bool_workaround():
    """Blender 3.4's glTF importer calls numpy.bool, which numpy >= 1.24 removed. Returns True
    when the alias had to be restored."""
    try:
        import numpy
    except ImportError:
        return False
    import warnings
    with warnings.catch_warnings():   # numpy 1.24 warns when asked for the removed alias
        warnings.simplefilter("ignore")
        if hasattr(numpy, "bool"):
            return False
    numpy.bool = bool
    return True


def read_meta(path):
    """extras.mototake of a .glb or .gltf file, or None for a glTF without it."""
    with open(path, "rb") as f:
        head = f.read(20)
        if head[:4] == b"glTF":
            length, ctype = struct.unpack("<I4s", head[12:20])
            if ctype != b"JSON":
                raise MototakeError("%s: the first GLB chunk is not JSON" % path)
            doc = json.loads(f.read(length).decode("utf-8"))
        else:
            f.seek(0)
            doc = json.loads(f.read().decode("utf-8"))
    return (doc.get("extras") or {}).get("mototake")


def mototake_program(prefs=None):
    if prefs is not None and prefs.mototake_path:
        return prefs.mototake_path
    return os.environ.get("MOTOTAKE") or DEFAULT_MOTOTAKE


def export_take(take, out, fps, program, name=None, t_from=None, t_to=None, armature=False):
    """Run `mototake export` on a .take; raises MototakeError with the program's message."""
    cmd = [program, "export", take, "-o", out, "--fps", str(int(fps))]
    if armature:
        cmd += ["--armature"]
    if name:
        cmd += ["--name", name]
    if t_from is not None:
        cmd += ["--from", repr(t_from)]
    if t_to is not None:
        cmd += ["--to", repr(t_to)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as ex:
        raise MototakeError("cannot run %s: %s (set the program in the add-on's preferences)" % (program, ex))
    if p.returncode != 0:
        raise MototakeError((p.stderr or p.stdout).strip() or "%s exited %d" % (program, p.returncode))


def _fcurve(action, path, index, frames, values, interpolation="LINEAR", group=None):
    fc = action.fcurves.new(data_path=path, index=index, action_group=group or "")
    kp = fc.keyframe_points
    kp.add(len(frames))
    co = []
    for f, v in zip(frames, values):
        co += [f, v]
    kp.foreach_set("co", co)
    for k in kp:
        k.interpolation = interpolation
    fc.update()
    return fc


def _action_for(idblock, name):
    if idblock.animation_data is None:
        idblock.animation_data_create()
    if idblock.animation_data.action is None:
        idblock.animation_data.action = bpy.data.actions.new(name)
    return idblock.animation_data.action


def add_channels(root, meta, frames):
    samples = meta.get("samples") or {}
    units = dict(zip(meta.get("channels", []), meta.get("channel_units", [])))
    action = _action_for(root, meta["name"] + "_channels")
    for ch in meta.get("channels", []):
        vals = [0.0 if v is None else float(v) for v in samples.get(ch, [])]
        if not vals:
            continue
        root[ch] = vals[0]
        try:
            root.id_properties_ui(ch).update(description="mototake channel %s [%s]" % (ch, units.get(ch, "")))
        except (AttributeError, TypeError):
            pass
        _fcurve(action, '["%s"]' % ch, 0, frames, vals, "CONSTANT" if ch == "gear" else "LINEAR", "mototake channels")


def add_cameras(meta, frames, coll, scene):
    made = []
    for cam in meta.get("cameras", []):
        nm = "%s_cam_%s" % (meta["name"], cam["name"])
        data = bpy.data.cameras.new(nm)
        data.sensor_fit = "VERTICAL"
        data.clip_start, data.clip_end = 0.05, 2000.0
        obj = bpy.data.objects.new(nm, data)
        coll.objects.link(obj)
        obj.rotation_mode = "QUATERNION"
        loc, rot, fov = cam["location"], cam["rotation"], cam["fov_deg"]
        n = len(frames)
        q = [rot[4 * k:4 * k + 4] for k in range(n)]
        for k in range(1, n):   # sign continuity: the keys interpolate the short way
            if sum(a * b for a, b in zip(q[k - 1], q[k])) < 0:
                q[k] = [-c for c in q[k]]
        act = _action_for(obj, nm + "_action")
        for i in range(3):
            _fcurve(act, "location", i, frames, [loc[3 * k + i] for k in range(n)])
        for i in range(4):
            _fcurve(act, "rotation_quaternion", i, frames, [q[k][i] for k in range(n)])
        # lens for the vertical field of view on the camera's sensor height (sensor_fit VERTICAL)
        lens = [data.sensor_height / (2 * math.tan(math.radians(a) / 2)) for a in fov]
        _fcurve(_action_for(data, nm + "_lens"), "lens", 0, frames, lens)
        obj.location = loc[0:3]
        obj.rotation_quaternion = q[0]
        data.lens = lens[0]
        made.append(obj)
    if made and scene.camera is None:
        scene.camera = made[0]
    return made


# ---- markers: the take's events, and its corners, braking points, apexes and gear changes ----
# A corner is a run of frames leaning more than CORNER_LEAN the same way (lean is the path's
# curvature seen by the rider: tan(lean) ~ v^2 k / g), runs of one sign closer than half a second
# merged. Its name is the track's: that of the corner board (NAME_board_T8_Corkscrew, from the
# track file's `corners`, exporters/set.h) nearest the machine at the apex (the onboard camera's
# place); without boards (--no-track, or a track without corners) T1..Tn in the order met.
CORNER_LEAN = 15.0     # deg
BRAKE_ON = 0.10        # front_brake (0..1) above which the rider is braking


def corner_runs(lean, fps):
    """Corners as [start, end, apex] sample indices (end exclusive; see CORNER_LEAN)."""
    runs, cur = [], None   # cur: [start, end, sign] of the run being read
    for i, v in enumerate(lean + [0.0]):
        sign = 1 if v > CORNER_LEAN else -1 if v < -CORNER_LEAN else 0
        if cur and sign != cur[2]:
            cur[1] = i
            if runs and runs[-1][2] == cur[2] and cur[0] - runs[-1][1] < fps / 2:
                runs[-1][1] = i   # the same corner after a short straightening
            else:
                runs.append(cur)
            cur = None
        if sign and cur is None:
            cur = [i, i, sign]
    return [[a, b, max(range(a, b), key=lambda i: abs(lean[i]))] for a, b, _ in runs]


def corner_boards(objects, take):
    """[(name, title, (x, y, z))] of the take's corner boards among objects."""
    out = []
    for o in objects:
        m = re.fullmatch(re.escape(take) + r"_board_([^_]+)_?(.*?)(\.\d{3})?", o.name)
        if m:
            out.append((m.group(1), m.group(2).replace("_", " "), tuple(o.matrix_world.translation)))
    return out


def corner_name(meta, boards, frame_index, k):
    """(name, title) of the corner whose apex is at sample frame_index: the nearest board to the
    onboard camera there, else ("Tk", "")."""
    cam = [c for c in meta.get("cameras", []) if c["name"] == "onboard"]
    if not boards or not cam or 3 * frame_index + 2 >= len(cam[0]["location"]):
        return "T%d" % k, ""
    p = cam[0]["location"][3 * frame_index:3 * frame_index + 3]
    name, title, _ = min(boards, key=lambda b: sum((b[2][i] - p[i]) ** 2 for i in range(3)))
    return name, title


def take_markers(meta, boards=()):
    """The take's markers as sorted (frame, label) pairs, every frame within first..last: the
    events (one at or past the range's end lands on its last frame), and from the channels
    sampled at every frame, for each corner (named "T8 Corkscrew" from the boards, else "Tk"):
    "NAME TITLE" where it begins, "NAME apex" at its greatest lean, "NAME braking" where the
    front brake comes on between the previous corner and this apex; "gear A>B" at each change."""
    first, last, fps = int(meta["first_frame"]), int(meta["last_frame"]), int(meta["fps"])
    out = [(min(max(int(ev["frame"]), first), last), ev["label"]) for ev in meta.get("events", [])]
    smp = meta.get("samples") or {}
    col = lambda ch: [0.0 if v is None else float(v) for v in smp.get(ch, [])]
    lean, brake, gear = col("lean"), col("front_brake"), col("gear")
    n = min(len(lean), last - first + 1)
    prev_end = 0
    for k, (a, b, apex) in enumerate(corner_runs(lean[:n], fps), 1):
        name, title = corner_name(meta, boards, apex, k)
        out += [(first + a, (name + " " + title).strip()), (first + apex, name + " apex")]
        for i in range(max(prev_end, 1), min(apex, len(brake) - 1) + 1):
            if brake[i] > BRAKE_ON >= brake[i - 1]:
                out.append((first + i, name + " braking"))
                break
        prev_end = b
    for i in range(1, min(n, len(gear))):
        if round(gear[i]) != round(gear[i - 1]):
            out.append((first + i, "gear %d>%d" % (round(gear[i - 1]), round(gear[i]))))
    return sorted(out)


def add_markers(scene, meta, objects):
    bpy.context.view_layer.update()   # the boards' matrix_world
    for frame, label in take_markers(meta, corner_boards(objects, meta["name"])):
        scene.timeline_markers.new("%s: %s" % (meta["name"], label), frame=frame)


# ---- the scene dressed for rendering (import_glb(setup=True)) ----
SUN_ELEVATION, SUN_ROTATION = 38.0, 150.0   # deg: an afternoon sun, in the sky texture's terms
SUN_STRENGTH = 4.0        # W/m^2 of the sun lamp: daylight under Filmic at exposure 0
SKY_STRENGTH = 0.35       # the Nishita sky's light, scaled to sit under that sun
SPIN_PER_STEP = 20.0      # deg: most a wheel turns in one motion-blur step (more strobes)


def sun_direction(elevation, rotation):
    """Unit vector towards the Nishita sky's sun: rotation 0 puts it towards +Y, 90 deg towards
    +X (measured: tests/blender/check_setup.py finds the sky brightest there)."""
    e, r = math.radians(elevation), math.radians(rotation)
    return (math.cos(e) * math.sin(r), math.cos(e) * math.cos(r), math.sin(e))


def setup_world(scene):
    """A Nishita sky world (reused when an earlier import made it); its sun disc is off: the
    sun lamp (setup_sun) is the sun, so shadows and sky agree."""
    world = bpy.data.worlds.get("mototake_sky") or bpy.data.worlds.new("mototake_sky")
    world.use_nodes = True
    nt = world.node_tree
    nt.nodes.clear()
    sky = nt.nodes.new("ShaderNodeTexSky")
    sky.sky_type = "NISHITA"
    sky.sun_disc = False
    sky.sun_elevation, sky.sun_rotation = math.radians(SUN_ELEVATION), math.radians(SUN_ROTATION)
    sky.altitude, sky.air_density, sky.dust_density = 100.0, 1.0, 1.5
    bg = nt.nodes.new("ShaderNodeBackground")
    bg.inputs["Strength"].default_value = SKY_STRENGTH
    out = nt.nodes.new("ShaderNodeOutputWorld")
    nt.links.new(sky.outputs["Color"], bg.inputs["Color"])
    nt.links.new(bg.outputs["Background"], out.inputs["Surface"])
    scene.world = world
    return world


def setup_sun(scene):
    """The sun lamp along the sky's sun direction, soft-edged (1 deg), shadows to 250 m."""
    obj = bpy.data.objects.get("mototake_sun")
    if obj is None or obj.type != "LIGHT":
        obj = bpy.data.objects.new("mototake_sun", bpy.data.lights.new("mototake_sun", "SUN"))
    if scene.collection not in obj.users_collection:
        scene.collection.objects.link(obj)
    light = obj.data
    light.energy, light.angle = SUN_STRENGTH, math.radians(1.0)
    light.shadow_cascade_max_distance, light.shadow_cascade_count = 250.0, 4
    obj.rotation_mode = "QUATERNION"   # a sun lamp shines down its local -Z
    obj.rotation_quaternion = Vector(sun_direction(SUN_ELEVATION, SUN_ROTATION)).to_track_quat("Z", "Y")
    obj.location = (0.0, 0.0, 50.0)
    return obj


def wheel_blur_steps(meta, objects):
    """EEVEE motion-blur steps so a wheel turns at most SPIN_PER_STEP within one step at the
    take's top speed (its blur is straight between steps: a wheel turning more strobes)."""
    speed = [float(v) for v in (meta.get("samples") or {}).get("speed", []) if v is not None]
    radius = max([max(o.dimensions) / 2 for o in objects if o.type == "MESH" and o.name.endswith(("_wheel", "_tyre"))] or [0.3])
    spin = math.degrees(max(speed or [0.0]) / max(radius, 0.05) / int(meta["fps"])) * 0.5
    return max(1, min(32, int(math.ceil(spin / SPIN_PER_STEP))))


def setup_render(scene, steps):
    """EEVEE: 180-degree shutter, soft shadows, ambient occlusion, no bloom; Filmic colour."""
    scene.render.engine = "BLENDER_EEVEE"
    ee = scene.eevee
    ee.taa_render_samples, ee.taa_samples = 32, 16
    ee.use_soft_shadows, ee.use_gtao, ee.gtao_distance = True, True, 1.0
    ee.use_bloom, ee.use_ssr = False, False
    ee.shadow_cascade_size, ee.shadow_cube_size = "2048", "1024"
    ee.use_motion_blur, ee.motion_blur_shutter, ee.motion_blur_steps = True, 0.5, steps
    scene.render.use_motion_blur, scene.render.motion_blur_shutter = True, 0.5   # Cycles: the same shutter
    vs = scene.view_settings
    vs.view_transform, vs.look, vs.exposure, vs.gamma = "Filmic", "Medium Contrast", 0.0, 1.0


def setup_scene(scene, meta, cams, objects):
    """Everything a render of the take needs with no further clicks: sky, sun, the take's chase
    camera as the scene's camera, motion blur, colour and EEVEE settings."""
    setup_world(scene)
    setup_sun(scene)
    chase = [c for c in cams if c.name.endswith("_cam_chase")] or cams
    if chase:
        scene.camera = chase[0]
    setup_render(scene, wheel_blur_steps(meta, objects))


def import_glb(context, path, meta=None, setup=True):
    """Import one exported file (with its extras.mototake) into the scene. Returns the take's
    collection. setup: also dress the scene for rendering (setup_scene); False leaves the
    user's world, lights, active camera and render settings as they were."""
    scene = context.scene
    meta = meta or read_meta(path)
    if not meta:
        raise MototakeError("%s has no mototake metadata (export it with `mototake export`)" % path)
    fps = int(meta["fps"])
    first, last = int(meta["first_frame"]), int(meta["last_frame"])
    others = [c for c in bpy.data.collections if "mototake_take_id" in c]
    # the stock importer maps seconds to frames with the scene's current rate
    if others and (scene.render.fps != fps or scene.render.fps_base != 1.0):
        raise MototakeError("the scene already holds takes at %g fps; this one is at %d fps" %
                            (scene.render.fps / scene.render.fps_base, fps))
    scene.render.fps, scene.render.fps_base = fps, 1.0
    numpy_bool_workaround()
    before = set(bpy.data.objects)
    r = bpy.ops.import_scene.gltf(filepath=path)
    if "FINISHED" not in r:
        raise MototakeError("the glTF importer failed on %s" % path)
    new = [o for o in bpy.data.objects if o not in before]
    coll = bpy.data.collections.new(meta["name"])
    scene.collection.children.link(coll)
    coll["mototake_take_id"] = meta.get("take_id", "")
    for k in ("rig", "track", "program_version", "fps", "duration"):
        if k in meta:
            coll["mototake_" + k] = meta[k]
    for o in new:
        for c in list(o.users_collection):
            c.objects.unlink(o)
        coll.objects.link(o)
    # the root is named after the take (NAME.001 if the scene already had a NAME)
    roots = [o for o in new if o.parent is None and re.fullmatch(re.escape(meta["name"]) + r"(\.\d{3})?", o.name)]
    root = roots[0] if roots else next((o for o in new if o.parent is None), None)
    n = int(meta["frames"])
    frames = [float(first + k) for k in range(n)]
    if root is not None:
        add_channels(root, meta, frames)
    cams = add_cameras(meta, frames, coll, scene)
    add_markers(scene, meta, new)
    tyres.flatten_tyres(new)
    if others:
        scene.frame_start, scene.frame_end = min(scene.frame_start, first), max(scene.frame_end, last)
    else:
        scene.frame_start, scene.frame_end = first, last
    if setup:
        setup_scene(scene, meta, cams, new)
    scene.frame_set(first)
    return coll


def import_take(context, path, fps=30, program=None, name=None, t_from=None, t_to=None, armature=False, setup=True):
    """Export a .take with the CLI into a temporary .glb and import that."""
    tmp = tempfile.mkdtemp(prefix="mototake-")
    try:
        out = os.path.join(tmp, "take.glb")
        if name is None:
            base = os.path.basename(path)
            name = "".join(ch if ch.isalnum() or ch in "_.-" else "_" for ch in
                           (base[:-5] if base.endswith(".take") else base)) or "take"
        export_take(path, out, fps, program or mototake_program(), name, t_from, t_to, armature)
        return import_glb(context, out, setup=setup)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def render_frames(glb, camera, width, height, frame0, frame1, samples, pattern):
    """`mototake render --engine blender`'s Blender side (app/render_blender.c runs it in
    `blender -b --factory-startup`): empty the start-up scene, import GLB with the scene set up
    (setup_scene), look through the take's CAMERA rig and render frames frame0..frame1 with EEVEE
    at width x height and `samples` samples into PNGs named by pattern (Blender's # digits)."""
    for o in list(bpy.data.objects):   # the start-up cube, light and camera
        bpy.data.objects.remove(o)
    scene = bpy.context.scene
    coll = import_glb(bpy.context, glb)
    cam = bpy.data.objects.get("%s_cam_%s" % (coll.name, camera))
    if cam is None or cam.type != "CAMERA":
        raise MototakeError("%s has no camera rig %s" % (glb, camera))
    scene.camera = cam
    r = scene.render
    r.resolution_x, r.resolution_y, r.resolution_percentage = width, height, 100
    r.image_settings.file_format, r.image_settings.color_mode, r.image_settings.color_depth = "PNG", "RGB", "8"
    r.image_settings.compression = 15
    r.use_file_extension, r.filepath = True, pattern
    scene.eevee.taa_render_samples = samples
    scene.frame_start, scene.frame_end = frame0, frame1

    def saved(scene, *_):   # Blender's own "Saved:" lines are block-buffered into a pipe
        print("mototake-frame %d" % scene.frame_current, flush=True)
    bpy.app.handlers.render_write.append(saved)
    bpy.ops.render.render(animation=True)


def render_cli(argv):
    """render_frames from command-line words: GLB CAMERA W H FRAME0 FRAME1 SAMPLES PATTERN. A
    refusal prints one "mototake: ..." line and exits 2."""
    import sys
    try:
        glb, camera, w, h, f0, f1, smp, pattern = argv
        render_frames(glb, camera, int(w), int(h), int(f0), int(f1), int(smp), pattern)
    except (MototakeError, OSError, ValueError, KeyError) as ex:
        print("mototake: %s" % ex, flush=True)
        sys.exit(2)


class MototakePreferences(bpy.types.AddonPreferences):
    bl_idname = __name__
    mototake_path: StringProperty(name="mototake program", subtype="FILE_PATH", default="",
                                  description="The mototake program used to export .take files "
                                              "(empty: the one that wrote this add-on, $MOTOTAKE, or PATH)")

    def draw(self, context):
        self.layout.prop(self, "mototake_path")


class IMPORT_SCENE_OT_mototake_take(bpy.types.Operator, ImportHelper):
    """Import a mototake take (.glb/.gltf from `mototake export`, or a .take through the CLI)"""
    bl_idname = "import_scene.mototake_take"
    bl_label = "Import mototake take"
    bl_options = {"REGISTER", "UNDO"}
    filename_ext = ".glb"
    filter_glob: StringProperty(default="*.glb;*.gltf;*.take", options={"HIDDEN"})
    fps: IntProperty(name="Frame rate (.take)", default=30, min=1, max=1000,
                     description="Frames per second of the export of a .take (a .glb keeps its own)")
    name: StringProperty(name="Name (.take)", default="",
                         description="The take's name in the scene (empty: the file's name)")
    use_range: BoolProperty(name="Time range (.take)", default=False)
    armature: BoolProperty(name="Armature (.take)", default=False,
                           description="The machine as one armature and the rider as a humanoid skeleton "
                                       "(Mixamo bone names, Hips root) ready to retarget (mototake export --armature)")
    t_from: FloatProperty(name="From (s)", default=0.0, min=0.0)
    t_to: FloatProperty(name="To (s)", default=10.0, min=0.0)
    setup_scene: BoolProperty(name="Set up the scene", default=True,
                              description="Sky world, sun, the take's chase camera as the active camera, motion "
                                          "blur, Filmic colour and an EEVEE preset (off: keep the scene's own)")

    def execute(self, context):
        try:
            if self.filepath.lower().endswith(".take"):
                prefs = context.preferences.addons[__name__].preferences if __name__ in context.preferences.addons else None
                coll = import_take(context, self.filepath, self.fps, mototake_program(prefs), self.name or None,
                                   self.t_from if self.use_range else None, self.t_to if self.use_range else None,
                                   self.armature, self.setup_scene)
            else:
                coll = import_glb(context, self.filepath, setup=self.setup_scene)
        except (MototakeError, OSError, ValueError, KeyError) as ex:
            self.report({"ERROR"}, str(ex))
            return {"CANCELLED"}
        self.report({"INFO"}, "imported take %s (frames %d-%d at %d fps)" %
                    (coll.name, context.scene.frame_start, context.scene.frame_end, context.scene.render.fps))
        return {"FINISHED"}


def menu_func_import(self, context):
    self.layout.operator(IMPORT_SCENE_OT_mototake_take.bl_idname, text="mototake take (.glb/.take)")


classes = (MototakePreferences, IMPORT_SCENE_OT_mototake_take)


def register():
    for c in classes:
        bpy.utils.register_class(c)
    bpy.types.TOPBAR_MT_file_import.append(menu_func_import)


def unregister():
    bpy.types.TOPBAR_MT_file_import.remove(menu_func_import)
    for c in reversed(classes):
        bpy.utils.unregister_class(c)
