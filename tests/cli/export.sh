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
# 31 nodes: the root, road, road lines, 13 bodies, 10 locators and 5 rider parts; one mesh per
# object that has geometry (13 bodies, 5 parts, road, lines): no body split into "-mesh" children
expect_match take_glb_nodes '31 nodes, 20 meshes' "$TMP/out"
for loc in loc_steer_axis loc_contact_front loc_contact_rear loc_grip_left loc_grip_right loc_footpeg_left \
           loc_footpeg_right loc_seat loc_rear_axle rider_head rider_arm_left rider_leg_right; do
  grep -aq "\"name\":\"[^\"]*$loc\"" "$TMP/w.glb" && ok "take_glb_has_$loc" || bad "take_glb_has_$loc" "no node $loc"
done
expect_exit take_fbx_same_scene 0 "$MT" export "$TMP/w.take" -o "$TMP/w1.fbx" --to 1
expect_match take_fbx_nodes '31 nodes, 20 meshes' "$TMP/out"
# FBX keeps z-up by default (declared in GlobalSettings: UpAxis 2), as `--up z` would
up=$(python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); i = d.find(b"UpAxisS\x03\0\0\0intS\x07\0\0\0IntegerS\0\0\0\0I"); print(d[i + 32] if i >= 0 else "none")' "$TMP/w1.fbx")
[ "$up" = 2 ] && ok "take_fbx_default_up_z" || bad take_fbx_default_up_z "GlobalSettings UpAxis $up, wanted 2 (z)"
# no scale keys: of the animation curves only translation and rotation (3 + 3 per animated node,
# 15 nodes) hold keys; Assimp still declares empty scale curves
keyed=$(python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
n, i = 0, d.find(b"KeyValueFloatf")
while i >= 0:
    n += struct.unpack("<I", d[i + 14:i + 18])[0] > 0
    i = d.find(b"KeyValueFloatf", i + 1)
print(n)' "$TMP/w1.fbx")
[ "$keyed" = 90 ] && ok "take_fbx_no_scale_keys (90 keyed curves)" || bad take_fbx_no_scale_keys "$keyed keyed curves, wanted 90 (T and R of 15 nodes)"
if [ "$HAVE_VALIDATOR" = 1 ]; then
  if node "$VALIDATE" "$TMP/w.glb" > "$TMP/val" 2>&1 && grep -q 'errors 0 warnings 0' "$TMP/val"; then ok validator_take_glb
  else bad validator_take_glb "$(cat "$TMP/val")"; fi
fi
# --armature: the bodies become bones of one skinned mesh (32 nodes: the 31 and the skin's; 8
# meshes: the skin, 5 rider parts, road and lines); the validator's only remark is that the skinned node is not a scene root
# (the root is identity, so nothing moves it)
expect_exit take_glb_armature 0 "$MT" export "$TMP/w.take" -o "$TMP/wa.glb" --to 1 --armature
expect_match take_glb_armature_nodes '32 nodes, 8 meshes' "$TMP/out"
if [ "$HAVE_VALIDATOR" = 1 ]; then
  node "$VALIDATE" "$TMP/wa.glb" > "$TMP/val" 2>&1
  if grep -q 'errors 0 warnings 1 ' "$TMP/val" && grep -q 'NODE_SKINNED_MESH_NON_ROOT' "$TMP/val"; then ok validator_take_glb_armature
  else bad validator_take_glb_armature "$(cat "$TMP/val")"; fi
fi
grep -aq '"skins"' "$TMP/wa.glb" && grep -aq '"JOINTS_0"' "$TMP/wa.glb" && ok take_glb_armature_skin || bad take_glb_armature_skin "no skins/JOINTS_0 in the GLB"
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
