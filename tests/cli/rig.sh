# rig.sh — rig commands and bad rig files: each error is one line with file:line, the body or
# joint, and the field; exit status 2.
R="$ROOT/rigs/sport1000.lua"
expect_exit rig_info 0 "$MT" rig info sport1000
expect_match rig_info_mass 'total mass +250.65 kg' "$TMP/out"
expect_match rig_info_cg 'centre of gravity +x 0.6614  z 0.5452 m' "$TMP/out"   # SEL's, with the rider in two bodies
expect_exit rig_info_json 0 "$MT" rig info sport1000 --json
expect_match rig_info_json_dof '"dof":17' "$TMP/out"
expect_exit rig_draw 0 "$MT" rig draw sport1000 -o "$TMP/side.png"
if head -c 8 "$TMP/side.png" | od -An -c | grep -q 'P   N   G'; then ok rig_draw_png; else bad rig_draw_png "not a PNG"; fi
expect_exit trim_30 0 "$MT" trim sport1000 --speed 30 --json
expect_match trim_json '"throttle":0\.[0-9]' "$TMP/out"
expect_error trim_needs_speed 'trim: --speed is required' "$MT" trim sport1000
expect_error trim_bad_speed "trim: --speed: expected a finite number, got 'fast'" "$MT" trim sport1000 --speed fast
expect_error set_unknown "no such numeric parameter \(near: rear_shock.k" "$MT" rig info sport1000 --set rear_shok.k=60000
# the near matches in the same order every run (equal distances by name; Lua's table order is seeded per run)
for i in 1 2 3 4 5; do "$MT" rig info sport1000 --set no.such=1 2>&1; done | sort -u > "$TMP/near"
if [ "$(wc -l < "$TMP/near")" = 1 ]; then ok set_unknown_same_line; else bad set_unknown_same_line "$(cat "$TMP/near")"; fi
expect_error set_not_number "--set rear_shock.k: expected a finite number, got 'soft'" "$MT" rig info sport1000 --set rear_shock.k=soft
expect_error rig_missing "nosuch.lua: cannot open" "$MT" rig info "$TMP/nosuch.lua"
expect_error draw_needs_o "rig draw: -o FILE.png is required" "$MT" rig draw sport1000

# variant NAME SED-EXPRESSION: a copy of sport1000 with one edit (the copy's require() still works)
variant() { sed "$2" "$R" > "$TMP/$1.lua"; }
line_of() { grep -n "$1" "$TMP/$2.lua" | head -1 | cut -d: -f1; }

variant not_tree 's/{ name = "rider_torso", parent = "rider_pelvis",/{ name = "rider_torso", parent = "saddle",/'
expect_error not_a_tree "not_tree.lua:$(line_of 'parent = "saddle"' not_tree): body 'rider_torso': field 'parent': 'saddle' is not a body defined before this one" \
  "$MT" rig info "$TMP/not_tree.lua"

# posture joints (docs/rig.md "Rider posture"): a spring's target names a set-point, one joint each
variant bad_target 's/target = "hip_shift"/target = "hips"/'
expect_error posture_unknown_target "bad_target.lua:$(line_of 'target = "hips"' bad_target): body 'rider_pelvis': field 'target': unknown posture set-point 'hips'" \
  "$MT" rig info "$TMP/bad_target.lua"
variant target_travel 's/target = "hip_shift" }/target = "hip_shift", travel = {-0.2, 0.2} }/'
expect_error posture_target_linear "target_travel.lua:[0-9]+: body 'rider_pelvis': field 'target': a posture joint's spring is a linear k, c" \
  "$MT" rig info "$TMP/target_travel.lua"
variant two_leans 's/target = "torso_pitch"/target = "torso_lean"/'
expect_error posture_target_twice "two_leans.lua:[0-9]+: joints 'rider_lean' and 'torso_pitch' both follow the posture set-point 'torso_lean'" \
  "$MT" rig info "$TMP/two_leans.lua"
variant tuck_back 's/tucked = { pitch = math.rad(30)/tucked = { pitch = math.rad(-30)/'
expect_error aero_tuck_backwards "tuck_back.lua:$(line_of 'pitch = math.rad(-30)' tuck_back): aero posture: field 'pitch': must be within \(0, 1.5\) rad" \
  "$MT" rig info "$TMP/tuck_back.lua"

variant no_axis 's/{ type = "hinge", name = "steer", axis = steer_axis, anchor = p2,/{ type = "hinge", name = "steer", anchor = p2,/'
expect_error joint_without_axis "no_axis.lua:[0-9]+: body 'steering': field 'axis': missing" "$MT" rig info "$TMP/no_axis.lua"

variant zero_mass 's/mass = 8.0, com = p14,/mass = 0, com = p14,/'
expect_error zero_mass "zero_mass.lua:$(line_of 'mass = 0, com = p14' zero_mass): body 'swingarm': field 'mass': must be > 0, got 0" \
  "$MT" rig info "$TMP/zero_mass.lua"

variant neg_mass 's/mass = 11.9, com = p6,/mass = -11.9, com = p6,/'
expect_error negative_mass "neg_mass.lua:[0-9]+: body 'front_wheel': field 'mass': must be > 0" "$MT" rig info "$TMP/neg_mass.lua"

variant bad_inertia 's/inertia = { 0.02, 0.259, 0.259, 0, 0, 0 },/inertia = { 0.02, -0.259, 0.259, 0, 0, 0 },/'
expect_error non_pd_inertia "bad_inertia.lua:[0-9]+: body 'swingarm': field 'inertia': not positive definite" "$MT" rig info "$TMP/bad_inertia.lua"

variant triangle 's/inertia = { 0.02, 0.259, 0.259, 0, 0, 0 },/inertia = { 0.02, 0.02, 0.259, 0, 0, 0 },/'
expect_error inertia_triangle "triangle.lua:[0-9]+: body 'swingarm': field 'inertia': .*triangle" "$MT" rig info "$TMP/triangle.lua"

variant open_loop 's/local p20 = {0.4946, 0, 0.1522}/local p20 = {0.488956, 0, 0.2139}/'   # crank and rod in line: a toggle point
expect_error loop_cannot_close "open_loop.lua:[0-9]+: rear_shock: field 'crank_rod': the linkage cannot close" "$MT" rig info "$TMP/open_loop.lua"

variant syntax 's/mass = 9.99, com = p3,/mass = 9.99 com = p3,/'
expect_error rig_syntax_error "syntax.lua:[0-9]+: .*expected" "$MT" rig info "$TMP/syntax.lua"

variant loop 's/^return {/while true do end return {/'
expect_error rig_endless_loop "loop.lua:[0-9]+: script did not finish" "$MT" rig info "$TMP/loop.lua"

variant strmass 's|mass = 5.25, com = {(7.25|mass = "heavy", com = {(7.25|'
expect_error rig_string_for_number "strmass.lua:$(line_of 'mass = "heavy"' strmass): body 'fork': field 'mass': expected a number, got string" \
  "$MT" rig info "$TMP/strmass.lua"
