# export.sh — `mototake export-demo`: the exporter end to end on the synthetic ride. Files
# must pass the Khronos glTF validator with 0 errors and 0 warnings, report the expected
# frames and spin sub-keys, reduce keys, and bad input must fail cleanly with no file left.
VALIDATE="$ROOT/tests/gltf/validate.js"
if [ -d "$ROOT/tests/gltf/node_modules/gltf-validator" ]; then HAVE_VALIDATOR=1; else HAVE_VALIDATOR=0; fi

expect_exit demo_glb 0 "$MT" export-demo -o "$TMP/ride.glb" --json
# 2 s at 30 fps: 61 frames; two wheels × 60 intervals × 4 sub-keys (6.67 rad per frame in 5 parts)
expect_match demo_glb_frames '"frames": 61,' "$TMP/out"
expect_match demo_glb_subkeys '"subkeys": 480,' "$TMP/out"
expect_match demo_glb_magic '^glTF' "$TMP/ride.glb"
expect_exit demo_gltf 0 "$MT" export-demo -o "$TMP/ride.gltf" --camera
# the buffer is named after the file (Assimp adds _0 when a node already has that name), and
# its URI is relative to the .gltf, without the folder we passed
uri=$(sed -n 's/.*"uri": "\([^"]*\)".*/\1/p' "$TMP/ride.gltf")
case "$uri" in ride*.bin) [ -s "$TMP/$uri" ] && ok "gltf_bin_beside ($uri)" || bad gltf_bin_beside "no $TMP/$uri";;
  *) bad gltf_bin_beside "buffer uri '$uri'";; esac
expect_exit demo_glb_60fps_zup_reduced 0 "$MT" export-demo -o "$TMP/z.glb" --fps 60 --up z --reduce 0.001 --no-track --json
expect_match reduce_reports_fewer_keys '"keys_before": [0-9]+, "keys_after": [0-9]+' "$TMP/out"
before=$(sed -n 's/.*"keys_before": \([0-9]*\).*/\1/p' "$TMP/out"); after=$(sed -n 's/.*"keys_after": \([0-9]*\).*/\1/p' "$TMP/out")
[ -n "$after" ] && [ "$after" -lt "$before" ] && ok "reduce_drops_keys ($before → $after)" || bad reduce_drops_keys "$before → $after"

if [ "$HAVE_VALIDATOR" = 1 ]; then
  for f in ride.glb ride.gltf z.glb; do
    if node "$VALIDATE" "$TMP/$f" > "$TMP/val" 2>&1 && grep -q 'errors 0 warnings 0' "$TMP/val"; then ok "validator_$f"
    else bad "validator_$f" "$(cat "$TMP/val")"; fi
  done
else
  bad validator "gltf-validator is not installed in tests/gltf/node_modules (run make deps)"
fi

expect_exit demo_fbx 0 "$MT" export-demo -o "$TMP/ride.fbx"
expect_match fbx_is_binary '^Kaydara FBX Binary' "$TMP/ride.fbx"
expect_match fbx_repair_or_fixed_assimp 'repaired|fbx' "$TMP/out"

# bad input: one line, exit 2, nothing left behind
expect_error bad_format "unknown export format '\.obj'" "$MT" export-demo -o "$TMP/bad.obj"
expect_error bad_fps_zero "fps.*must be > 0" "$MT" export-demo -o "$TMP/bad.glb" --fps 0
expect_error bad_fps_negative "fps.*must be > 0" "$MT" export-demo -o "$TMP/bad.glb" --fps -30
expect_error bad_from "from 5 s is outside the motion" "$MT" export-demo -o "$TMP/bad.glb" --from 5
expect_error bad_to "to 9 s is outside the motion" "$MT" export-demo -o "$TMP/bad.glb" --to 9
expect_error bad_range "must be before" "$MT" export-demo -o "$TMP/bad.glb" --from 1.5 --to 1
expect_error bad_dir "cannot write" "$MT" export-demo -o "$TMP/no/such/folder/bad.glb"
expect_error bad_up "up: expected y or z" "$MT" export-demo -o "$TMP/bad.glb" --up x
expect_error missing_output "o FILE is required" "$MT" export-demo
left=$(ls "$TMP" | grep -E '^bad|\.tmp' | tr '\n' ' ')
[ -z "$left" ] && ok no_partial_files || bad no_partial_files "left behind: $left"
expect_exit demo_help 0 "$MT" export-demo --help
expect_match demo_help_usage '^usage: mototake export-demo' "$TMP/out"

# a real take: the recorded wobble ride, into GLB and FBX
"$MT" run "$ROOT/takes/wobble.lua" -o "$TMP/w.take" --quiet > /dev/null 2>&1
expect_exit take_glb 0 "$MT" export "$TMP/w.take" -o "$TMP/w.glb" --fps 25
expect_match take_glb_frames '150 frames at 25 fps \(5.960 s\)' "$TMP/out"   # 6000 steps: last pose at 5.999 s
# 34 nodes: the root, the set's road, road lines and grass (the straight has no kerbs or corner
# boards), 13 bodies, 10 locators, 5 rider parts and 2 tyres; one mesh per object that has
# geometry (13 bodies, 5 parts, 2 tyres, road, lines, grass): no body split into "-mesh" children
expect_match take_glb_nodes '34 nodes, 23 meshes' "$TMP/out"
for loc in loc_steer_axis loc_contact_front loc_contact_rear loc_grip_left loc_grip_right loc_footpeg_left \
           loc_footpeg_right loc_seat loc_rear_axle rider_head rider_arm_left rider_leg_right; do
  grep -aEq "\"name\": *\"w_$loc\"" "$TMP/w.glb" && ok "take_glb_has_$loc" || bad "take_glb_has_$loc" "no node $loc"
done
expect_exit take_fbx_same_scene 0 "$MT" export "$TMP/w.take" -o "$TMP/w1.fbx" --to 1
expect_match take_fbx_nodes '34 nodes, 23 meshes' "$TMP/out"
# FBX keeps z-up by default (declared in GlobalSettings: UpAxis 2), as `--up z` would
up=$(python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); i = d.find(b"UpAxisS\x03\0\0\0intS\x07\0\0\0IntegerS\0\0\0\0I"); print(d[i + 32] if i >= 0 else "none")' "$TMP/w1.fbx")
[ "$up" = 2 ] && ok "take_fbx_default_up_z" || bad take_fbx_default_up_z "GlobalSettings UpAxis $up, wanted 2 (z)"
# no scale keys: of the animation curves only translation and rotation (3 + 3 per animated node,
# 17 nodes: 13 bodies, 2 contact patches, 2 tyres) hold keys; Assimp still declares empty scale curves
keyed=$(python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
n, i = 0, d.find(b"KeyValueFloatf")
while i >= 0:
    n += struct.unpack("<I", d[i + 14:i + 18])[0] > 0
    i = d.find(b"KeyValueFloatf", i + 1)
print(n)' "$TMP/w1.fbx")
[ "$keyed" = 102 ] && ok "take_fbx_no_scale_keys (102 keyed curves)" || bad take_fbx_no_scale_keys "$keyed keyed curves, wanted 102 (T and R of 17 nodes)"
if [ "$HAVE_VALIDATOR" = 1 ]; then
  if node "$VALIDATE" "$TMP/w.glb" > "$TMP/val" 2>&1 && grep -q 'errors 0 warnings 0' "$TMP/val"; then ok validator_take_glb
  else bad validator_take_glb "$(cat "$TMP/val")"; fi
else skip validator_take_glb "gltf-validator is not installed in tests/gltf/node_modules (make deps)"; fi
# --armature: the bodies become bones of one skinned mesh (35 nodes: the 34 and the skin's; 11
# meshes: the skin, 5 rider parts, 2 tyres, road, lines and grass); the validator's only remark is that the skinned node is not a scene root
# (the root is identity, so nothing moves it)
expect_exit take_glb_armature 0 "$MT" export "$TMP/w.take" -o "$TMP/wa.glb" --to 1 --armature
expect_match take_glb_armature_nodes '35 nodes, 11 meshes' "$TMP/out"
if [ "$HAVE_VALIDATOR" = 1 ]; then
  node "$VALIDATE" "$TMP/wa.glb" > "$TMP/val" 2>&1
  if grep -q 'errors 0 warnings 1 ' "$TMP/val" && grep -q 'NODE_SKINNED_MESH_NON_ROOT' "$TMP/val"; then ok validator_take_glb_armature
  else bad validator_take_glb_armature "$(cat "$TMP/val")"; fi
else skip validator_take_glb_armature "gltf-validator is not installed in tests/gltf/node_modules (make deps)"; fi
grep -aq '"skins"' "$TMP/wa.glb" && grep -aq '"JOINTS_0"' "$TMP/wa.glb" && ok take_glb_armature_skin || bad take_glb_armature_skin "no skins/JOINTS_0 in the GLB"
# issue 14: names, metadata, channels, events and camera rigs in the file; keys from frame 1
"$MT" take channels "$TMP/w.take" -o "$TMP/w25.csv" --rate 25 > /dev/null 2>&1
"$MT" take info "$TMP/w.take" > "$TMP/w.info" 2>&1
if python3 - "$TMP/w.glb" "$TMP/w.take" "$TMP/w25.csv" "$TMP/w.info" > "$TMP/meta.out" 2>&1 <<'PY'
import csv, json, re, struct, sys, zlib
glb, take, csvp, info = sys.argv[1:5]
d = open(glb, "rb").read()
n = struct.unpack("<I", d[12:16])[0]
doc = json.loads(d[20:20 + n])
m = doc["extras"]["mototake"]
names = [x["name"] for x in doc["nodes"]]
root = doc["nodes"][doc["scenes"][0]["nodes"][0]]
problems = []
def want(c, why):
    if not c: problems.append(why)
want(root["name"] == "w" and all(x == "w" or x.startswith("w_") for x in names), "names not prefixed by the take's name: %s" % names)
want(doc["animations"][0]["name"] == "w_take", "animation %s" % doc["animations"][0]["name"])
want(m["take_id"] == "%08x" % (zlib.crc32(open(take, "rb").read()) & 0xffffffff), "take_id %s is not the take's CRC-32" % m["take_id"])
want((m["rig"], m["track"], m["fps"], m["first_frame"], m["frames"], m["last_frame"]) == ("sport1000", "straight", 25, 1, 150, 150),
     "rig/track/fps/frames %s" % [m[k] for k in ("rig", "track", "fps", "first_frame", "frames", "last_frame")])
want(abs(m["duration"] - 149 / 25) < 1e-9 and m["program_version"] and m["exported_by"], "duration/version %s" % m["duration"])
want(root["extras"]["take_id"] == m["take_id"] and root["extras"]["fps"] == 25, "root node extras %s" % root.get("extras"))
ev = [(float(a), k) for a, k in re.findall(r"t =\s+([0-9.]+) s\s+(\S+)", open(info).read())]
want([(e["frame"], e["kind"]) for e in m["events"]] == [(1 + round(t * 25), k) for t, k in ev] and ev,
     "events %s, take %s" % ([(e["frame"], e["kind"]) for e in m["events"]], ev))
# every animation time input starts one frame in (Blender's glTF importer: frame 1)
t0 = {round(doc["accessors"][s["input"]]["min"][0], 6) for a in doc["animations"] for s in a["samplers"]}
want(t0 == {0.04}, "first key times %s, want 1/25" % t0)
rows = list(csv.reader(open(csvp)))
col = {h: i for i, h in enumerate(rows[0])}
worst = 0
for ch in ("speed", "rpm", "throttle", "lean", "steer_torque", "front_slip_angle"):
    for k, r in enumerate(rows[2:]):
        a, b = m["samples"][ch][k], float(r[col[ch]])
        worst = max(worst, abs(a - b) / (1 + abs(b)))
want(worst < 1e-8 and len(m["samples"]["speed"]) == 150, "channels differ from take channels --rate 25 by %.3g" % worst)
cams = {c["name"]: c for c in m["cameras"]}
want(sorted(cams) == ["chase", "onboard", "trackside"] and all(len(c["fov_deg"]) == 150 and len(c["location"]) == 450
     and len(c["rotation"]) == 600 for c in cams.values()), "cameras %s" % sorted(cams))
want(set(cams["chase"]["fov_deg"]) == {50} and set(cams["onboard"]["fov_deg"]) == {70}, "camera fov")
print("\n".join(problems) or "fine: %d events, channels within %.2g" % (len(ev), worst))
sys.exit(1 if problems else 0)
PY
then ok take_glb_metadata; else bad take_glb_metadata "$(cat "$TMP/meta.out")"; fi
expect_exit take_glb_name 0 "$MT" export "$TMP/w.take" -o "$TMP/n.gltf" --name ride7 --fps 30 --to 1 --no-track
if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); n=[x['name'] for x in d['nodes']]; \
sys.exit(not (n[0]=='ride7' and all(x.startswith('ride7_') for x in n[1:]) and d['extras']['mototake']['frames']==31))" "$TMP/n.gltf"
then ok take_gltf_name_override; else bad take_gltf_name_override "$(head -c 300 "$TMP/n.gltf")"; fi
expect_error take_fps_not_whole "--fps: 29.97 is not a whole number of frames per second" "$MT" export "$TMP/w.take" -o "$TMP/x.glb" --fps 29.97
expect_error demo_fps_not_whole "--fps: 23.976 is not a whole number" "$MT" export-demo -o "$TMP/x.glb" --fps 23.976
expect_error take_bad_name "--name: 'a b' must be" "$MT" export "$TMP/w.take" -o "$TMP/x.glb" --name "a b"
expect_error take_bad_channel "has no channel 'nosuch'" "$MT" export "$TMP/w.take" -o "$TMP/x.glb" --channels speed,nosuch
# the Blender add-on's zip: the repository's files, and the program that wrote it
expect_exit addon_zip 0 "$MT" blender-addon -o "$TMP/addon.zip"
if unzip -t "$TMP/addon.zip" > /dev/null 2>&1 && unzip -p "$TMP/addon.zip" mototake_io/__init__.py | cmp -s - "$ROOT/blender/mototake_io/__init__.py" &&
   unzip -p "$TMP/addon.zip" mototake_io/_config.py | grep -q "^MOTOTAKE = \"/.*mototake[a-z_]*\"$"; then ok addon_zip_content
else bad addon_zip_content "$(unzip -l "$TMP/addon.zip" 2>&1 | head -8)"; fi
prog='/opt/a "b" \c/mototake'   # a quote and a backslash survive into the Python literal
printf '%s' "$prog" > "$TMP/prog.txt"
expect_exit addon_zip_program 0 "$MT" blender-addon -o "$TMP/addon2.zip" --program "$prog"
unzip -p "$TMP/addon2.zip" mototake_io/_config.py > "$TMP/cfg.py" 2>&1
if python3 -c "import sys; ns={}; exec(open(sys.argv[1]).read(), ns); sys.exit(ns['MOTOTAKE'] != open(sys.argv[2]).read())" "$TMP/cfg.py" "$TMP/prog.txt"
then ok addon_zip_program_quoted; else bad addon_zip_program_quoted "$(cat "$TMP/cfg.py")"; fi
expect_error addon_not_zip "the add-on is a .zip" "$MT" blender-addon -o "$TMP/addon.tar"
expect_error addon_no_output "-o FILE.zip is required" "$MT" blender-addon
expect_exit take_fbx_reduced 0 "$MT" export "$TMP/w.take" -o "$TMP/w.fbx" --from 1 --to 3 --reduce 0.001 --no-track
expect_match take_fbx_reduced_keys 'after reduction' "$TMP/out"
expect_error take_unknown_format "unknown format \(use .glb, .gltf or .fbx\)" "$MT" export "$TMP/w.take" -o "$TMP/w.obj"
expect_error take_bad_fps "--fps: must be > 0" "$MT" export "$TMP/w.take" -o "$TMP/x.glb" --fps 0
expect_error take_bad_range "not a range within the take" "$MT" export "$TMP/w.take" -o "$TMP/x.glb" --from 2 --to 60
expect_error take_unwritable "cannot|could not" "$MT" export "$TMP/w.take" -o /nonexistent/dir/x.glb
[ ! -e "$TMP/x.glb" ] && ok take_export_no_partial_file || bad take_export_no_partial_file "left x.glb"
cp "$TMP/w.take" "$TMP/inc.take"
sqlite3 "$TMP/inc.take" "update status set complete = 0, reason = 'killed'"
expect_error take_incomplete "is an incomplete take \(killed\)" "$MT" export "$TMP/inc.take" -o "$TMP/x.glb"
# the camera rigs (rigs/cameras.lua) cannot be read: one line and exit 2, not a file without cameras
mkdir -p "$TMP/noroot"
rm -f "$TMP/x.glb"
expect_error take_cameras_unreadable "cameras.lua: cannot open" env MOTOTAKE_ROOT="$TMP/noroot" "$MT" export "$TMP/w.take" -o "$TMP/x.glb"
[ ! -e "$TMP/x.glb" ] && ok take_cameras_unreadable_no_file || bad take_cameras_unreadable_no_file "left x.glb"
# issue 37: the exported motion against the take's own channels, read back from the GLB's bytes
# (its JSON and BIN chunks) without the exporter's code. Every animation channel has a key at
# every frame time 1/25 … 150/25 s (the wheels' spin sub-keys between them); at every frame key
# the frame node's translation and rotation (y-up back to z-up) give the take's x, y, z, heading,
# pitch and lean (the channels' own definitions, takes/recorder.c), the steering's local
# rotation its twist and steer angles and the swingarm's its angle, from `take channels --rate 25`.
# A key dropped, shifted or swapped between bodies fails it.
if command -v python3 > /dev/null 2>&1; then
  "$MT" take channels "$TMP/w.take" -o "$TMP/wpose.csv" --rate 25 \
    --channels time,x,y,z,lean,pitch,heading,steer_angle,frame_twist,swingarm_angle > /dev/null 2>&1
  if python3 - "$TMP/w.glb" "$TMP/wpose.csv" > "$TMP/motion.out" 2>&1 <<'PY'
import csv, json, math, struct, sys
glb, csvp = sys.argv[1:3]
d = open(glb, "rb").read()
jlen = struct.unpack("<I", d[12:16])[0]
doc = json.loads(d[20:20 + jlen])
b0 = 20 + jlen
blen, btype = struct.unpack("<I4s", d[b0:b0 + 8])
assert btype == b"BIN\0", btype
binc = d[b0 + 8:b0 + 8 + blen]
NCOMP = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}
def accessor(i):   # float32 accessors, tightly packed: a list of tuples
    a = doc["accessors"][i]
    v = doc["bufferViews"][a["bufferView"]]
    assert a["componentType"] == 5126 and v.get("byteStride", 0) in (0, 4 * NCOMP[a["type"]]), a
    nc, off = NCOMP[a["type"]], v.get("byteOffset", 0) + a.get("byteOffset", 0)
    f = struct.unpack_from("<%df" % (nc * a["count"]), binc, off)
    return [f[k * nc:(k + 1) * nc] for k in range(a["count"])]
rows = list(csv.reader(open(csvp)))
col = {h: i for i, h in enumerate(rows[0])}
take = [[float(x) for x in r] for r in rows[2:]]
ch = lambda k, name: take[k][col[name]]
names = [n["name"] for n in doc["nodes"]]
anim = doc["animations"][0]
problems = []
def want(c, why):
    if not c and len(problems) < 12: problems.append(why)
frames = [(k + 1) / 25 for k in range(len(take))]
want(len(take) == 150, "take channels gave %d rows, wanted 150" % len(take))
keys = {}   # (node name, path) -> (times, values)
for c in anim["channels"]:
    s = anim["samplers"][c["sampler"]]
    t = [x[0] for x in accessor(s["input"])]
    keys[(names[c["target"]["node"]], c["target"]["path"])] = (t, accessor(s["output"]))
    at = {round(x * 25, 3) for x in t}
    missing = [k + 1 for k in range(150) if k + 1 not in at]
    want(not missing and all(a < b for a, b in zip(t, t[1:])) and abs(t[-1] - 6.0) < 1e-6,
         "%s %s: %d keys, frame keys missing at frames %s" % (names[c["target"]["node"]], c["target"]["path"], len(t), missing[:5]))
want(len(keys) == 34, "%d animated channels, wanted 34 (translation and rotation of 17 nodes)" % len(keys))
def at_frames(node, path):   # the values at the 150 frame keys, in order
    t, v = keys[(node, path)]
    idx = {round(x * 25, 3): i for i, x in enumerate(t)}
    return [v[idx[k + 1]] if k + 1 in idx else None for k in range(150)]
def zup(q):   # glTF (x, y, z, w) y-up -> (w, x, y, z) z-up: the exporter's (w, x, z, -y) undone
    return (q[3], q[0], -q[2], q[1])
def matrix(w, x, y, z):
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
def angdiff(a, b):
    return abs((a - b + 180) % 360 - 180)
worst = {"pos": 0, "ang": 0}
def close(kind, k, what, got, exp, tol):
    e = angdiff(got, exp) if kind == "ang" else abs(got - exp)
    worst[kind] = max(worst[kind], e)
    want(e <= tol, "frame %d: %s %.7g, the take's %.7g" % (k + 1, what, got, exp))
R2D = 180 / math.pi
# the sport1000 rig's hinge axes in the frame (rigs/sport1000.lua: caster 0.4189 rad)
CASTER = 0.4189
TWIST, STEER = (math.cos(CASTER), 0, math.sin(CASTER)), (-math.sin(CASTER), 0, math.cos(CASTER))
def qaxis(a, ang):
    return (math.cos(ang / 2),) + tuple(math.sin(ang / 2) * c for c in a)
def qmul(p, q):
    return (p[0] * q[0] - p[1] * q[1] - p[2] * q[2] - p[3] * q[3], p[0] * q[1] + p[1] * q[0] + p[2] * q[3] - p[3] * q[2],
            p[0] * q[2] - p[1] * q[3] + p[2] * q[0] + p[3] * q[1], p[0] * q[3] + p[1] * q[2] - p[2] * q[1] + p[3] * q[0])
try:
    ft, fr = at_frames("w_frame", "translation"), at_frames("w_frame", "rotation")
    st, sa = at_frames("w_steering", "rotation"), at_frames("w_swingarm", "rotation")
    for k in range(min(150, len(take))):
        if None in (ft[k], fr[k], st[k], sa[k]):
            want(False, "frame %d: no key" % (k + 1)); continue
        p = (ft[k][0], -ft[k][2], ft[k][1])
        for i, n in enumerate("xyz"):
            close("pos", k, "frame " + n, p[i], ch(k, n), 2e-4)   # float32 at 200 m: 1.5e-5
        R = matrix(*zup(fr[k]))
        close("ang", k, "frame heading", math.atan2(R[1][0], R[0][0]) * R2D, ch(k, "heading"), 1e-3)
        close("ang", k, "frame pitch", -math.asin(max(-1, min(1, R[2][0]))) * R2D, ch(k, "pitch"), 1e-3)
        close("ang", k, "frame lean", math.asin(max(-1, min(1, R[2][1]))) * R2D, ch(k, "lean"), 1e-3)
        # the steering turns on two hinges from its rest pose (identity): twist, then steer
        exp = qmul(qaxis(TWIST, ch(k, "frame_twist") / R2D), qaxis(STEER, ch(k, "steer_angle") / R2D))
        rel = qmul((exp[0], -exp[1], -exp[2], -exp[3]), zup(st[k]))   # what is left: its angle (atan2, not acos: float32)
        close("ang", k, "steering's turn beyond the take's twist and steer",
              2 * math.atan2(math.sqrt(sum(c * c for c in rel[1:])), abs(rel[0])) * R2D, 0, 1e-3)
        w, x, y, z = zup(sa[k])   # a turn about the frame's y axis (left): positive lifts the axle
        close("ang", k, "swingarm angle", 2 * math.atan2(y, w) * R2D, ch(k, "swingarm_angle"), 1e-3)
except KeyError as e:
    want(False, "no animation channel %s" % (e,))
print("\n".join(problems) or "fine: 150 frame keys of 30 channels; frame, steering and swingarm within %.2g m, %.2g deg"
      % (worst["pos"], worst["ang"]))
sys.exit(1 if problems else 0)
PY
  then ok "take_glb_motion_matches_take_channels ($(cat "$TMP/motion.out"))"; else bad take_glb_motion_matches_take_channels "$(cat "$TMP/motion.out")"; fi
else
  echo "skip take_glb_motion_matches_take_channels: python3 missing"
fi
