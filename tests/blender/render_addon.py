# render_addon.py — the picture in docs/export.md: install the add-on zip, import a take with
# File > Import > mototake take exactly as the walkthrough says, look through one of the take's
# cameras and render one frame with the Workbench engine.
#
#   BLENDER_USER_SCRIPTS=DIR blender -b --factory-startup --python tests/blender/render_addon.py -- \
#       ZIP FILE FRAME OUT.png CAMERA [FPS FROM TO]
#
# FILE is a .glb from `mototake export` or a .take (then exported by the add-on at FPS, default
# 30, over FROM..TO seconds when given). CAMERA is a rig of rigs/cameras.lua (chase, trackside,
# onboard). Prints the take's name, the frame range and the channels at FRAME.
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
zip_path, path, frame, out, camera = args[0], args[1], int(args[2]), args[3], args[4]
fps = int(args[5]) if len(args) > 5 else 30
rng = (float(args[6]), float(args[7])) if len(args) > 7 else None

bpy.ops.preferences.addon_install(filepath=zip_path)
bpy.ops.preferences.addon_enable(module="mototake_io")
scene = bpy.context.scene
for o in list(bpy.data.objects):
    bpy.data.objects.remove(o)
scene.camera = None
kw = {"filepath": path, "fps": fps}
if rng:
    kw.update(use_range=True, t_from=rng[0], t_to=rng[1])
r = bpy.ops.import_scene.mototake_take(**kw)
if r != {"FINISHED"}:
    sys.exit(1)
coll = [c for c in bpy.data.collections if "mototake_take_id" in c][-1]
name = coll.name
scene.camera = bpy.data.objects["%s_cam_%s" % (name, camera)]
scene.frame_set(frame)
root = bpy.data.objects[name]
print("take %s: frames %d..%d at %d fps; frame %d: speed %.1f m/s, rpm %.0f, gear %.0f, lean %.1f deg" %
      (name, scene.frame_start, scene.frame_end, scene.render.fps, frame, root["speed"], root["rpm"], root["gear"],
       root["lean"]))

scene.render.engine = "BLENDER_WORKBENCH"
shading = scene.display.shading
shading.light = "STUDIO"
shading.color_type = "MATERIAL"
shading.show_shadows = True
shading.show_cavity = True
shading.background_type = "WORLD"
world = scene.world or bpy.data.worlds.new("World")
scene.world = world
world.color = (0.55, 0.68, 0.85)
scene.render.resolution_x, scene.render.resolution_y = 1280, 720
scene.render.filepath = out
bpy.ops.render.render(write_still=True)
