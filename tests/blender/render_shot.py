# render_shot.py — the screenshot in docs/export.md: import an exported ride exactly as the
# walkthrough says (scene fps first, then File › Import › glTF 2.0 with default settings),
# look through a camera parented to the exported chase_camera rig, render one frame with the
# Workbench engine.
#
#   blender -b --factory-startup --python tests/blender/render_shot.py -- RIDE.glb FPS FRAME OUT.png [side|chase]
#
# side (default): a camera beside the road, tracking the chassis; chase: through the exported
# chase_camera rig (export with --camera).
import sys

import numpy
numpy.bool = bool   # Blender 3.4's glTF importer uses np.bool, removed in numpy 1.24

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
path, fps, frame, out = args[0], int(args[1]), int(args[2]), args[3]
view = args[4] if len(args) > 4 else "side"
tracked = args[5] if len(args) > 5 else "chassis"   # the body the side camera follows
scene = bpy.context.scene
for o in list(bpy.data.objects):
    bpy.data.objects.remove(o)
scene.render.fps, scene.render.fps_base = fps, 1.0
bpy.ops.import_scene.gltf(filepath=path)
# a take's export names its nodes NAME_body, NAME being the root's, which carries the take's
# metadata (docs/export.md, "What the file carries"); export-demo's are unprefixed
roots = [o.name for o in bpy.data.objects if o.parent is None and "take_id" in o.keys()]
P = roots[0] + "_" if roots else ""

cam_data = bpy.data.cameras.new("shot")
cam_data.lens = 35
cam = bpy.data.objects.new("shot", cam_data)
scene.collection.objects.link(cam)
scene.camera = cam
if view == "chase":
    # parent to the rig with an identity local transform: the rig is already a camera frame
    # (looking down -Z, +Y up)
    cam.parent = bpy.data.objects[P + "chase_camera"]
else:
    scene.frame_set(frame)
    chassis = bpy.data.objects[P + tracked] if P + tracked in bpy.data.objects else bpy.data.objects[tracked]
    x = chassis.matrix_world.translation.x
    cam.location = (x + 3.2, -4.2, 1.4)
    track = cam.constraints.new("TRACK_TO")
    track.target = chassis
    track.track_axis, track.up_axis = "TRACK_NEGATIVE_Z", "UP_Y"

# Bodies of several colours carry them as vertex colours (the material is white and multiplies
# them, docs/export.md): Workbench shows either material or vertex colours, so give every other
# mesh its material's colour as a vertex colour and show those.
for o in bpy.data.objects:
    if o.type != "MESH" or o.data.color_attributes:
        continue
    c = o.active_material.diffuse_color if o.active_material else (0.8, 0.8, 0.8, 1)
    attr = o.data.color_attributes.new("Col", "FLOAT_COLOR", "POINT")
    for d in attr.data:
        d.color = c

scene.render.engine = "BLENDER_WORKBENCH"
shading = scene.display.shading
shading.light = "STUDIO"
shading.color_type = "VERTEX"
shading.show_shadows = True
shading.show_cavity = True
shading.background_type = "WORLD"
world = scene.world or bpy.data.worlds.new("World")
scene.world = world
world.color = (0.55, 0.68, 0.85)
scene.render.resolution_x, scene.render.resolution_y = 1280, 720
scene.render.film_transparent = False
scene.frame_set(frame)
scene.render.filepath = out
bpy.ops.render.render(write_still=True)
