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


def import_glb(context, path, meta=None):
    """Import one exported file (with its extras.mototake) into the scene. Returns the take's
    collection."""
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
    add_cameras(meta, frames, coll, scene)
    for ev in meta.get("events", []):
        scene.timeline_markers.new("%s: %s" % (meta["name"], ev["label"]), frame=int(ev["frame"]))
    if others:
        scene.frame_start, scene.frame_end = min(scene.frame_start, first), max(scene.frame_end, last)
    else:
        scene.frame_start, scene.frame_end = first, last
    scene.frame_set(first)
    return coll


def import_take(context, path, fps=30, program=None, name=None, t_from=None, t_to=None, armature=False):
    """Export a .take with the CLI into a temporary .glb and import that."""
    tmp = tempfile.mkdtemp(prefix="mototake-")
    try:
        out = os.path.join(tmp, "take.glb")
        if name is None:
            base = os.path.basename(path)
            name = "".join(ch if ch.isalnum() or ch in "_.-" else "_" for ch in
                           (base[:-5] if base.endswith(".take") else base)) or "take"
        export_take(path, out, fps, program or mototake_program(), name, t_from, t_to, armature)
        return import_glb(context, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


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

    def execute(self, context):
        try:
            if self.filepath.lower().endswith(".take"):
                prefs = context.preferences.addons[__name__].preferences if __name__ in context.preferences.addons else None
                coll = import_take(context, self.filepath, self.fps, mototake_program(prefs), self.name or None,
                                   self.t_from if self.use_range else None, self.t_to if self.use_range else None,
                                   self.armature)
            else:
                coll = import_glb(context, self.filepath)
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
