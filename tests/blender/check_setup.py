# check_setup.py — the scene the mototake_io add-on sets up on import (a scene that renders with
# no further clicks), in headless Blender.
#
#   BLENDER_USER_SCRIPTS=DIR blender -b --factory-startup --python tests/blender/check_setup.py -- ZIP GLB GLB_END
#
# ZIP is `mototake blender-addon -o ZIP`; GLB a take exported with its track and a few corners
# (run.sh: the Laguna lap, 20..40 s, with its corner boards); GLB_END the same take from its
# last corner to its end, without the track. Into Blender's start-up scene (its cube, light and `Camera`
# kept) it imports GLB with File > Import > mototake take and checks: the take's chase camera is
# the scene's camera; a Nishita sky world and a sun lamp whose light comes from where the sky is
# brightest (a tiny Cycles panorama of the world, looked at); EEVEE with motion blur, a 180-degree
# shutter and steps enough for the wheels' top spin; Filmic colour; markers all inside the frame
# range, corners named after the nearest board at their apexes, apexes at the greatest lean, braking points where the front brake comes on and gear
# changes where the gear changes (read back from the imported channel curves). Then, into a scene
# of the user's own (Cycles, Standard colour, their world and camera), an import with "Set up the
# scene" off (GLB_END) changes none of it, and its end event is marked inside its range. Prints "ok NAME" / "FAIL NAME: why" / "info ..."; exits 1 on a failure.
import math
import re
import os
import struct
import sys
import tempfile
import zlib

import bpy
from mathutils import Vector

ZIP, GLB, GLB_END = sys.argv[sys.argv.index("--") + 1:][:3]
failures = 0


def check(name, cond, why):
    global failures
    if cond:
        print("ok blender_setup_%s" % name)
    else:
        failures += 1
        print("FAIL blender_setup_%s: %s" % (name, why))


bpy.ops.preferences.addon_install(filepath=ZIP)
bpy.ops.preferences.addon_enable(module="mototake_io")
scene = bpy.context.scene
default_cam = scene.camera
r = bpy.ops.import_scene.mototake_take(filepath=GLB)
if r != {"FINISHED"}:
    print("FAIL blender_setup_import: operator returned %s" % r)
    sys.exit(1)
name = [c for c in bpy.data.collections if "mototake_take_id" in c][-1].name
root = bpy.data.objects[name]

# ---- camera ----
check("active_camera", scene.camera is not None and scene.camera.name == name + "_cam_chase" and scene.camera != default_cam,
      "the scene's camera is %s" % (scene.camera and scene.camera.name))

# ---- world and sun ----
world = scene.world
sky = [n for n in world.node_tree.nodes if n.type == "TEX_SKY"] if world and world.use_nodes else []
check("world_sky", len(sky) == 1 and sky[0].sky_type == "NISHITA" and
      any(l.to_node.type == "OUTPUT_WORLD" for l in world.node_tree.links),
      "world %s, sky nodes %s" % (world and world.name, [n.sky_type for n in sky]))
suns = [o for o in scene.objects if o.type == "LIGHT" and o.data.type == "SUN"]
check("sun", len(suns) == 1 and suns[0].data.energy > 0, "sun lamps in the scene: %s" % [o.name for o in suns])


def brightest_sky_direction():
    """The direction of the brightest pixel of a 96x48 equirectangular Cycles render of the world
    alone (the lamp does not show in it), from the PNG's bytes."""
    cam = bpy.data.objects.new("probe", bpy.data.cameras.new("probe"))
    scene.collection.objects.link(cam)
    cam.data.type, cam.data.cycles.panorama_type = "PANO", "EQUIRECTANGULAR"
    cam.rotation_euler = (math.pi / 2, 0, 0)   # looking along +Y: the panorama's centre
    keep = (scene.camera, scene.render.engine, scene.render.resolution_x, scene.render.resolution_y,
            scene.render.filepath, scene.view_settings.view_transform, scene.render.use_motion_blur, scene.view_settings.exposure)
    hidden = [o for o in scene.objects if o.type in ("MESH", "LIGHT") and not o.hide_render]
    for o in hidden:
        o.hide_render = True
    scene.camera, scene.render.engine = cam, "CYCLES"
    scene.cycles.samples, scene.cycles.use_denoising, scene.render.use_motion_blur = 1, False, False
    scene.render.resolution_x, scene.render.resolution_y, scene.render.resolution_percentage = 96, 48, 100
    scene.view_settings.view_transform, scene.view_settings.exposure = "Standard", -6.0   # no pixel clipped at 255
    out = os.path.join(tempfile.mkdtemp(), "sky.png")
    scene.render.filepath = out
    scene.render.image_settings.file_format, scene.render.image_settings.color_mode = "PNG", "BW"
    bpy.ops.render.render(write_still=True)
    for o in hidden:
        o.hide_render = False
    (scene.camera, scene.render.engine, scene.render.resolution_x, scene.render.resolution_y, scene.render.filepath,
     scene.view_settings.view_transform, scene.render.use_motion_blur, scene.view_settings.exposure) = keep
    bpy.data.objects.remove(cam)
    w, h, px = read_gray_png(out)
    i = max(range(w * h), key=lambda k: px[k])
    print("info sky probe: brightest pixel %d of 255, darkest %d" % (px[i], min(px)))
    x, y = i % w, i // w
    # equirectangular looking along +Y: longitude from the centre column, latitude from the middle row
    lon, lat = (x + 0.5 - w / 2) / w * 2 * math.pi, (h / 2 - y - 0.5) / h * math.pi
    fwd, right = Vector((0, 1, 0)), Vector((1, 0, 0))   # the camera's view and right directions
    d = math.cos(lat) * (math.cos(lon) * fwd + math.sin(-lon) * -right) + math.sin(lat) * Vector((0, 0, 1))
    return d.normalized()


def read_gray_png(path):
    """An 8-bit grayscale, non-interlaced PNG's pixels (zlib only)."""
    data = open(path, "rb").read()
    pos, idat, w, h = 8, b"", 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype == 0, "not 8-bit gray"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, px, prev = zlib.decompress(idat), [], [0] * w
    for y in range(h):
        f, row = raw[y * (w + 1)], list(raw[y * (w + 1) + 1:(y + 1) * (w + 1)])
        for x in range(w):
            a, b, c = row[x - 1] if x else 0, prev[x], prev[x - 1] if x else 0
            if f == 1:
                row[x] = (row[x] + a) & 255
            elif f == 2:
                row[x] = (row[x] + b) & 255
            elif f == 3:
                row[x] = (row[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        px += row
        prev = row
    return w, h, px


if suns and sky:
    lamp_from = suns[0].matrix_world.to_3x3() @ Vector((0, 0, 1))   # a sun shines down its -Z
    seen = brightest_sky_direction()
    ang = math.degrees(lamp_from.angle(seen))
    check("sun_matches_sky", ang < 12, "the lamp's light comes from %s, the sky is brightest towards %s (%.1f deg apart)" %
          (tuple(round(c, 2) for c in lamp_from), tuple(round(c, 2) for c in seen), ang))
    print("info sun: lamp and the sky's brightest pixel %.1f deg apart (pixels of 3.75 deg)" % ang)

# ---- render settings ----
ee = scene.eevee
fps = scene.render.fps
speeds = []
for f in range(scene.frame_start, scene.frame_end + 1, 5):
    scene.frame_set(f)
    speeds.append(root["speed"])
radius = max(max(o.dimensions) / 2 for o in bpy.data.objects if o.name.startswith(name + "_") and o.name.endswith(("_wheel", "_tyre")))
spin = math.degrees(max(speeds) / radius / fps) * ee.motion_blur_shutter   # deg a wheel turns while the shutter is open
check("motion_blur", scene.render.engine == "BLENDER_EEVEE" and ee.use_motion_blur and abs(ee.motion_blur_shutter - 0.5) < 1e-6
      and spin / ee.motion_blur_steps <= 20.0,
      "engine %s, blur %s, shutter %.2f, %d steps for %.0f deg of spin" %
      (scene.render.engine, ee.use_motion_blur, ee.motion_blur_shutter, ee.motion_blur_steps, spin))
print("info wheels: top speed %.1f m/s, radius %.3f m: %.0f deg a frame, %.0f deg in the shutter, %d steps" %
      (max(speeds), radius, spin / ee.motion_blur_shutter, spin, ee.motion_blur_steps))
check("eevee_preset", ee.use_soft_shadows and ee.use_gtao and not ee.use_bloom and 8 <= ee.taa_render_samples <= 128,
      "soft shadows %s, AO %s, bloom %s, samples %d" % (ee.use_soft_shadows, ee.use_gtao, ee.use_bloom, ee.taa_render_samples))
vs = scene.view_settings
check("colour", vs.view_transform == "Filmic" and "Contrast" in vs.look, "view %s, look %s" % (vs.view_transform, vs.look))

# ---- markers ----
marks = [(m.frame, m.name[len(name) + 2:]) for m in scene.timeline_markers if m.name.startswith(name + ": ")]
outside = [m for m in marks if not scene.frame_start <= m[0] <= scene.frame_end]
check("markers_in_range", marks and not outside, "%d markers, outside %d..%d: %s" % (len(marks), scene.frame_start, scene.frame_end, outside))
print("info markers: %s" % ", ".join("%s@%d" % (n, f) for f, n in sorted(marks)))


def channel(ch, f):
    scene.frame_set(f)
    return root[ch]


apex = [(f, n) for f, n in marks if n.endswith(" apex")]
bad = [n for f, n in apex if not all(abs(channel("lean", f)) >= abs(channel("lean", g)) - 1e-6 for g in (f - 3, f - 1, f + 1, f + 3)
                                     if scene.frame_start <= g <= scene.frame_end) or abs(channel("lean", f)) < 15]
check("apexes", apex and not bad, "%d apexes; not at the greatest lean: %s" % (len(apex), bad))
brk = [(f, n) for f, n in marks if n.endswith(" braking")]
bad = [n for f, n in brk if not (channel("front_brake", f) > 0.1 >= channel("front_brake", f - 1))]
check("braking_points", brk and not bad, "%d braking points; not where the brake comes on: %s" % (len(brk), bad))
gears = [(f, n) for f, n in marks if n.startswith("gear ")]
bad = [n for f, n in gears if "%d>%d" % (round(channel("gear", f - 1)), round(channel("gear", f))) != n[5:]]
check("gear_changes", gears and not bad, "%d gear markers; not at a change: %s" % (len(gears), bad))
# corners named from the track's boards: the board nearest the machine's frame at each apex
boards = {o.name[len(name) + 7:].split("_")[0]: o.matrix_world.translation.copy() for o in bpy.data.objects
          if o.name.startswith(name + "_board_")}
wrong = []
for f, n in apex:
    scene.frame_set(f)
    at = bpy.data.objects[name + "_frame"].matrix_world.translation
    near = min(boards, key=lambda b: (boards[b] - at).length) if boards else None
    entry = [m for g, m in marks if g <= f and m.split(" ")[0] == n.split(" ")[0] and not m.endswith((" apex", " braking"))]
    if n.split(" ")[0] != near or not entry:
        wrong.append("%s at %d: nearest board %s, entry markers %s" % (n, f, near, entry))
check("corner_names_from_boards", len(boards) >= 2 and apex and not wrong, "%d boards; %s" % (len(boards), wrong))

# ---- "Set up the scene" off: the user's scene stays as it was ----
bpy.ops.wm.read_factory_settings(use_empty=False)
bpy.ops.preferences.addon_enable(module="mototake_io")
scene = bpy.context.scene
user_world = bpy.data.worlds.new("mine")
scene.world, scene.render.engine, scene.view_settings.view_transform = user_world, "CYCLES", "Standard"
user_cam = scene.camera
r = bpy.ops.import_scene.mototake_take(filepath=GLB_END, setup_scene=False)
check("setup_off_keeps_scene", r == {"FINISHED"} and scene.world == user_world and scene.camera == user_cam and
      scene.render.engine == "CYCLES" and scene.view_settings.view_transform == "Standard" and
      not [o for o in bpy.data.objects if o.type == "LIGHT" and o.data.type == "SUN"],
      "returned %s; world %s, camera %s, engine %s, view %s" % (r, scene.world and scene.world.name, scene.camera and scene.camera.name,
                                                                 scene.render.engine, scene.view_settings.view_transform))
# GLB_END (no track: no boards) names its corners T1..Tn in order, and runs to the take's end:
# its "end" event (at the take's last step, between frames) is marked on the last frame, not past it
marks = [(m.frame, m.name) for m in scene.timeline_markers]
corners = [n.split(": ")[1] for f, n in sorted(marks) if re.fullmatch(r".*: T\d+", n)]
apexes = [n for f, n in marks if n.endswith(" apex")]
check("corner_names_without_boards", corners and corners == ["T%d" % k for k in range(1, len(corners) + 1)] and
      len(apexes) == len(corners), "corners %s, %d apexes" % (corners, len(apexes)))
check("markers_at_take_end", marks and all(scene.frame_start <= f <= scene.frame_end for f, _ in marks) and
      any(n.endswith(": end") and f == scene.frame_end for f, n in marks),
      "markers %s, frames %d..%d" % (marks, scene.frame_start, scene.frame_end))
sys.exit(1 if failures else 0)
