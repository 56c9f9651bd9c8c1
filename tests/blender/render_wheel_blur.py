# render_wheel_blur.py — the wheel-blur picture in docs/render.md: a take's GLB imported with the
# add-on's scene set up, seen from a camera 3 m beside the machine and riding with its frame (so
# only the wheels' spin blurs), one EEVEE frame with the add-on's motion blur, or without it.
#
#   blender -b --factory-startup --python tests/blender/render_wheel_blur.py -- ADDON_DIR GLB OUT.png FRAME [noblur]
#
# ADDON_DIR holds mototake_io/ (unzip the `mototake blender-addon` zip there).
import math
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
sys.path.insert(0, args[0])
import mototake_io   # noqa: E402

for o in list(bpy.data.objects):
    bpy.data.objects.remove(o)
coll = mototake_io.import_glb(bpy.context, args[1])
scene = bpy.context.scene
cam = bpy.data.objects.new("side", bpy.data.cameras.new("side"))
scene.collection.objects.link(cam)
cam.parent = bpy.data.objects[coll.name + "_frame"]
cam.location, cam.rotation_euler, cam.data.lens = (0.0, -3.0, 0.3), (math.pi / 2, 0, 0), 30
scene.camera = cam
scene.render.resolution_x, scene.render.resolution_y = 640, 360
scene.frame_set(int(args[3]))
print("motion blur steps %d, shutter %.2f" % (scene.eevee.motion_blur_steps, scene.eevee.motion_blur_shutter))
scene.eevee.use_motion_blur = len(args) < 5
scene.render.filepath = args[2]
bpy.ops.render.render(write_still=True)
