# render_rider.py — the stills of the rider's skeleton in docs/export.md: an `export --armature`
# GLB imported with Blender's defaults (as the add-on imports), one frame rendered with Workbench
# from a camera beside the machine, aimed at the rider's hips.
#
#   blender -b --factory-startup --python tests/blender/render_rider.py -- ARM.glb FPS FRAME OUT.png [left|right] [AHEAD]
#
# The camera is 4 m to the given side of the machine (default left) and AHEAD m (default 1.5)
# ahead of the hips, 0.3 m above them; the machine's heading is the line from loc_rear_axle to
# loc_front_axle, level.
import sys

import numpy
numpy.bool = bool   # Blender 3.4's glTF importer uses np.bool, removed in numpy 1.24

import bpy
from mathutils import Vector

args = sys.argv[sys.argv.index("--") + 1:]
path, fps, frame, out = args[0], int(args[1]), int(args[2]), args[3]
side = -1.0 if len(args) > 4 and args[4] == "right" else 1.0
ahead = float(args[5]) if len(args) > 5 else 1.5
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps, scene.render.fps_base = fps, 1.0
bpy.ops.import_scene.gltf(filepath=path)
arm = [o for o in bpy.data.objects if o.type == "ARMATURE"][0]
scene.frame_set(frame)


def find(suffix):
    return [o for o in bpy.data.objects if o.name.endswith(suffix)][0]


hips = arm.matrix_world @ arm.pose.bones["Hips"].head
fwd = find("loc_front_axle").matrix_world.translation - find("loc_rear_axle").matrix_world.translation
fwd.z = 0
fwd.normalize()
left = Vector((-fwd.y, fwd.x, 0))
target = bpy.data.objects.new("aim", None)
scene.collection.objects.link(target)
target.location = hips
cam = bpy.data.objects.new("shot", bpy.data.cameras.new("shot"))
cam.data.lens = 40
scene.collection.objects.link(cam)
cam.location = hips + 4.0 * side * left + ahead * fwd + Vector((0, 0, 0.3))
c = cam.constraints.new("TRACK_TO")
c.target = target
c.track_axis, c.up_axis = "TRACK_NEGATIVE_Z", "UP_Y"
scene.camera = cam

# Meshes of one colour carry it in their material; Workbench shows either material or vertex
# colours, so give those meshes their material's colour as vertex colours and show those.
for o in bpy.data.objects:
    if o.type != "MESH" or o.data.color_attributes:
        continue
    col = o.active_material.diffuse_color if o.active_material else (0.8, 0.8, 0.8, 1)
    attr = o.data.color_attributes.new("Col", "FLOAT_COLOR", "POINT")
    for d in attr.data:
        d.color = col
scene.render.engine = "BLENDER_WORKBENCH"
scene.display.shading.color_type = "VERTEX"
scene.display.shading.light = "STUDIO"
scene.display.shading.show_shadows = True
scene.render.resolution_x, scene.render.resolution_y = 960, 540
scene.render.filepath = out
world = bpy.data.worlds.new("sky")
world.color = (0.55, 0.65, 0.8)
scene.world = world
bpy.ops.render.render(write_still=True)
print("info rendered %s: frame %d, hips at (%.2f, %.2f, %.2f)" % (out, frame, hips.x, hips.y, hips.z))
