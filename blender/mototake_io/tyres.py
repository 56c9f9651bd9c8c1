# tyres.py — the tyres' contact patches: each tyre put back round its rim and flattened where
# the rigid torus reaches below the road, by a geometry-nodes modifier evaluated at every frame
# (and at every motion-blur step) from the exported objects alone.
#
# What the file carries (exporters/tyres.h): NAME_front_tyre / NAME_rear_tyre are the wheels'
# tori on the wheels' carriers, not spinning, their local z up the wheel plane (away from the
# contact), and lifted up that z by the depth the rigid torus reaches below the road, so that in
# a client without this add-on the tyre touches the road instead of sinking through it (at the
# price of sitting off-centre on its rim by the deflection, 8-9 mm median on a Laguna lap).
# NAME_loc_front_axle / NAME_loc_rear_axle are empties at the wheel's centre on the same carrier.
#
# The modifier, per tyre (one node group shared by both):
#   1. subdivide the torus twice (48 x 16 faces become 192 x 64: ~10 mm apart round the tread),
#      so that a patch of 100-200 mm is drawn by a dozen rows, not two, and put every new vertex
#      back on the torus (major radius R, tube radius r about the tyre's local y, read from its
#      mesh), so that it shades round rather than in the coarse mesh's facets;
#   2. move it by the axle's position in the tyre's frame (Object Info, relative): the torus is
#      concentric with its wheel again (the lift undone, whatever the exporter chose);
#   3. cast a ray from 0.5 m up the tyre's z above each vertex straight down its -z onto the
#      road's parts (road, lines, kerbs: Object Info, relative, joined; only their vertices
#      within NEAR of the tyre, since the rays' tree is rebuilt at every evaluation); a vertex behind the
#      road's surface there ((hit - p) . n > 0, n the road's normal at the hit) is projected onto
#      that surface along n. The vertices outside the patch do not move.
# So the tyre's lowest points lie on the road (the flat patch) and the rest of it is the rigid
# torus round the rim: its radial deflection is seen as a flattened contact patch, as the tyre
# model (sim/tyre.c) measures it, against the exported road (within 0.71 mm of the road function).
# A floating tyre (the wheel in the air) is not touched. tests/blender/check_tyres.py measures it.
import math

import bpy

RAY_UP = 0.5          # m above each vertex, up the tyre's z, where its ray starts
RAY_LENGTH = 1.0      # m: reaches 0.5 m below the vertex (a tube sinks by centimetres)
NEAR = 8.0            # m: the road's vertices farther than this from the tyre's centre are left out
#                       (any vertex of the triangle under the tyre is nearer: rows are at most
#                       4 m apart, EX_SET_MAX_STEP, and the tarmac's spans across about 3 m)
SUBDIVIDE = 2         # levels of Subdivide Mesh before the projection
ROAD_PARTS = ("road", "road_lines", "kerbs_red", "kerbs_white")
GROUP = "mototake_tyre_patch"


def _named(objects, suffix, kind):
    """The one object of that kind whose name ends in _SUFFIX (or _SUFFIX.NNN), else None."""
    hits = [o for o in objects if o.type == kind and
            (o.name.endswith("_" + suffix) or o.name.rsplit(".", 1)[0].endswith("_" + suffix))]
    return hits[0] if len(hits) == 1 else None


def _socket(group, io, kind, name):
    """A group input/output socket (Blender 3.4's group.inputs / group.outputs)."""
    return (group.inputs if io == "in" else group.outputs).new(kind, name)


def _vmath(g, op, a, b=None):
    """A Vector Math node doing op on sockets (or constant vectors) a and b; returns the node."""
    v = g.nodes.new("ShaderNodeVectorMath")
    v.operation = op
    for i, x in enumerate((a, b)):
        if x is None:
            continue
        if isinstance(x, tuple):
            v.inputs[i].default_value = x
        else:
            g.links.new(x, v.inputs[i])
    return v


def _on_torus(g, gin):
    """Set Position putting each vertex p on the torus about local y: the ring point
    c = R (p.x, 0, p.z) / |(p.x, 0, p.z)|, then c + r (p - c) / |p - c|."""
    pos = g.nodes.new("GeometryNodeInputPosition").outputs["Position"]
    flat = _vmath(g, "MULTIPLY", pos, (1.0, 0.0, 1.0))
    ring = _vmath(g, "NORMALIZE", flat.outputs["Vector"])
    c = _vmath(g, "SCALE", ring.outputs["Vector"])
    g.links.new(gin.outputs["Major"], c.inputs["Scale"])
    out = _vmath(g, "SUBTRACT", pos, c.outputs["Vector"])
    tube = _vmath(g, "NORMALIZE", out.outputs["Vector"])
    rt = _vmath(g, "SCALE", tube.outputs["Vector"])
    g.links.new(gin.outputs["Tube"], rt.inputs["Scale"])
    p = _vmath(g, "ADD", c.outputs["Vector"], rt.outputs["Vector"])
    setp = g.nodes.new("GeometryNodeSetPosition")
    g.links.new(p.outputs["Vector"], setp.inputs["Position"])
    return setp


def _torus_radii(mesh):
    """(R, r) of the torus about local y that the mesh's vertices lie on: the tube's outer circle
    and its half-width are vertices of the exporter's tessellation (scene/shapes.c)."""
    outer = max(math.hypot(v.co.x, v.co.z) for v in mesh.vertices)
    tube = max(abs(v.co.y) for v in mesh.vertices)
    return outer - tube, tube


def _greater(g, a, b):
    """A Compare node: float socket a > constant b; returns its Result socket."""
    c = g.nodes.new("FunctionNodeCompare")
    c.data_type, c.operation = "FLOAT", "GREATER_THAN"
    g.links.new(a, c.inputs["A"])
    c.inputs["B"].default_value = b
    return c.outputs["Result"]


def _road_near(g, gin, nroad):
    """The road's parts in the tyre's frame (Object Info, relative, joined), without their
    vertices farther than NEAR: the rays' tree is rebuilt at every evaluation."""
    join = g.nodes.new("GeometryNodeJoinGeometry")
    for i in range(nroad):
        info = g.nodes.new("GeometryNodeObjectInfo")
        info.transform_space = "RELATIVE"
        g.links.new(gin.outputs["Road %d" % (i + 1)], info.inputs["Object"])
        g.links.new(info.outputs["Geometry"], join.inputs["Geometry"])
    here = g.nodes.new("GeometryNodeInputPosition").outputs["Position"]
    dist = _vmath(g, "LENGTH", here)
    near = g.nodes.new("GeometryNodeDeleteGeometry")
    near.domain = "POINT"
    g.links.new(join.outputs["Geometry"], near.inputs["Geometry"])
    g.links.new(_greater(g, dist.outputs["Value"], NEAR), near.inputs["Selection"])
    return near.outputs["Geometry"]


def _onto_road(g, road):
    """Set Position projecting each vertex p behind the road onto it: a ray from RAY_UP up the
    tyre's z straight down meets the road at h with normal n; depth = (h - p) . n; where the
    ray hits and depth > 0, p + depth n lies on the road's surface."""
    pos = g.nodes.new("GeometryNodeInputPosition").outputs["Position"]
    up = _vmath(g, "ADD", pos, (0.0, 0.0, RAY_UP))
    ray = g.nodes.new("GeometryNodeRaycast")
    g.links.new(road, ray.inputs["Target Geometry"])
    g.links.new(up.outputs["Vector"], ray.inputs["Source Position"])
    ray.inputs["Ray Direction"].default_value = (0.0, 0.0, -1.0)
    ray.inputs["Ray Length"].default_value = RAY_LENGTH
    gap = _vmath(g, "SUBTRACT", ray.outputs["Hit Position"], pos)
    depth = _vmath(g, "DOT_PRODUCT", gap.outputs["Vector"], ray.outputs["Hit Normal"])
    sel = g.nodes.new("FunctionNodeBooleanMath")
    sel.operation = "AND"
    g.links.new(ray.outputs["Is Hit"], sel.inputs[0])
    g.links.new(_greater(g, depth.outputs["Value"], 0.0), sel.inputs[1])
    push = _vmath(g, "SCALE", ray.outputs["Hit Normal"])
    g.links.new(depth.outputs["Value"], push.inputs["Scale"])
    flat = g.nodes.new("GeometryNodeSetPosition")
    g.links.new(sel.outputs["Boolean"], flat.inputs["Selection"])
    g.links.new(push.outputs["Vector"], flat.inputs["Offset"])
    return flat


def _patch_group(nroad):
    """The node group: Geometry, Axle (object), Major, Tube (m), Road 1..nroad (objects) ->
    Geometry: the stages 1-3 of the header, then smooth shading."""
    name = "%s_%d" % (GROUP, nroad)
    if name in bpy.data.node_groups:
        return bpy.data.node_groups[name]
    g = bpy.data.node_groups.new(name, "GeometryNodeTree")
    _socket(g, "in", "NodeSocketGeometry", "Geometry")
    _socket(g, "in", "NodeSocketObject", "Axle")
    _socket(g, "in", "NodeSocketFloat", "Major")
    _socket(g, "in", "NodeSocketFloat", "Tube")
    for i in range(nroad):
        _socket(g, "in", "NodeSocketObject", "Road %d" % (i + 1))
    _socket(g, "out", "NodeSocketGeometry", "Geometry")
    n, link = g.nodes, g.links.new
    gin, gout = n.new("NodeGroupInput"), n.new("NodeGroupOutput")
    # 1. finer, on the torus
    sub = n.new("GeometryNodeSubdivideMesh")
    sub.inputs["Level"].default_value = SUBDIVIDE
    link(gin.outputs["Geometry"], sub.inputs["Mesh"])
    ontorus = _on_torus(g, gin)
    link(sub.outputs["Mesh"], ontorus.inputs["Geometry"])
    # 2. concentric: moved by the axle's place in the tyre's frame
    axle = n.new("GeometryNodeObjectInfo")
    axle.transform_space = "RELATIVE"
    link(gin.outputs["Axle"], axle.inputs["Object"])
    centre = n.new("GeometryNodeSetPosition")
    link(ontorus.outputs["Geometry"], centre.inputs["Geometry"])
    link(axle.outputs["Location"], centre.inputs["Offset"])
    # 3. flattened onto the road, then shaded round (not in the coarse mesh's facets)
    flat = _onto_road(g, _road_near(g, gin, nroad))
    link(centre.outputs["Geometry"], flat.inputs["Geometry"])
    smooth = n.new("GeometryNodeSetShadeSmooth")
    link(flat.outputs["Geometry"], smooth.inputs["Geometry"])
    link(smooth.outputs["Geometry"], gout.inputs["Geometry"])
    return g


def flatten_tyres(objects):
    """Give each exported tyre among objects (one take's import) its contact patch. Returns the
    tyres given one; a take without a road or without axle locators (an export with --no-track,
    an old file) keeps its tyres as they were."""
    road = [o for o in (_named(objects, p, "MESH") for p in ROAD_PARTS) if o is not None]
    done = []
    if not road:
        return done
    for side in ("front", "rear"):
        tyre = _named(objects, side + "_tyre", "MESH")
        axle = _named(objects, "loc_%s_axle" % side, "EMPTY")
        if tyre is None or axle is None:
            continue
        mod = tyre.modifiers.new("mototake contact patch", "NODES")
        mod.node_group = _patch_group(len(road))
        # the modifier's inputs by their identifiers (Input_2, ...), in the group's order
        ids = [s.identifier for s in mod.node_group.inputs][1:]
        mod[ids[0]] = axle
        mod[ids[1]], mod[ids[2]] = _torus_radii(tyre.data)
        for i, o in enumerate(road):
            mod[ids[3 + i]] = o
        tyre.data.use_auto_smooth = False   # normals from the flattened faces, not the torus's
        done.append(tyre)
    return done
