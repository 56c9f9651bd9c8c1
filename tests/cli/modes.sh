# modes.sh — `mototake modes` series (speed and lateral acceleration), named modes, JSON, the
# root-locus plot, mode animations, and `mototake spectrum` against the linearisation (docs/wobble.md).

# 1. straight running over speed: the memo's picture (weave rising to ~3.6 Hz and unstable at
#    the top, wobble 6–10 Hz least damped near 70–80 km/h)
expect_exit modes_sweep 0 "$MT" modes sport1000 --speeds 20:200:10 --unit kmh -o "$TMP/locus.png"
expect_match modes_sweep_header 'weave Hz +zeta \| +wobble Hz +zeta \| +capsize \| chatter Hz +zeta' "$TMP/out"
expect_match modes_sweep_70 '^ +70 +0\.0 \| +1\.72 +0\.499 \| +7\.35 +0\.043 \| +-1\.387 \| +46\.8[0-9] ' "$TMP/out"
expect_match modes_sweep_200 '^ +200 +0\.0 \| +3\.57 +-0\.048 \| +9\.29 +0\.253 \| ' "$TMP/out"
expect_match modes_sweep_progress '19 of 19 points trimmed and linearised' "$TMP/err"
if [ "$(head -c 8 "$TMP/locus.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && [ "$(wc -c < "$TMP/locus.png")" -gt 50000 ]; then
  ok modes_locus_png; else bad modes_locus_png "no PNG at $TMP/locus.png"; fi

# 2. JSON: per point each mode's name, eigenvalue, Hz and damping; the names agree with the table
expect_exit modes_sweep_json 0 "$MT" modes sport1000 --speeds 20:200:20 --unit kmh --json --quiet
if python3 - "$TMP/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pts = d["points"]
assert d["series"] == "speed" and len(pts) == 10, len(pts)
for p in pts:
    assert p["ok"]
    names = [m["name"] for m in p["modes"]]
    for n in ("weave", "wobble", "capsize", "chatter"):
        assert names.count(n) == 1, (p["speed_kmh"], n, names)
    for m in p["modes"]:
        assert set(m) >= {"name", "re", "im", "hz", "zeta", "shares"}
        assert abs(m["hz"] - m["im"] / 6.283185307179586) < 1e-8 * (1 + m["hz"])   # (10 significant digits)
        s = abs(complex(m["re"], m["im"]))
        assert abs(m["zeta"] + m["re"] / s) < 1e-8
w = [next(m for m in p["modes"] if m["name"] == "weave") for p in pts]
assert all(b["hz"] > a["hz"] for a, b in zip(w, w[1:]))      # weave frequency rises with speed
assert w[-1]["zeta"] < 0 < w[4]["zeta"]                        # and it is unstable at 200 km/h
PY
then ok modes_json_fields; else bad modes_json_fields "the JSON does not hold the named modes"; fi

# 3. steady turns at one speed over lateral acceleration (the memo's 216 km/h series), soft frame:
#    the chatter mode near 25 Hz, lightly damped at 1 g
SOFT="--set bodies.steering.joints.twist.spring.k=10000 --set bodies.steering.joints.twist.spring.c=20 --set bodies.fork_bend.joint.spring.k=10000 --set bodies.fork_bend.joint.spring.c=5 --set bodies.steering.joints.steer.spring.c=2"
# shellcheck disable=SC2086
expect_exit modes_ay_sweep 0 "$MT" modes sport1000 --speed 216 --unit kmh --ay 0:1.1:0.1 $SOFT -o "$TMP/ay.png"
expect_match modes_ay_header '^ +ay g +lean \|' "$TMP/out"
expect_match modes_ay_1g '^ +1 +-55\.[0-9] \| .* \| +24\.[0-9][0-9] +0\.06[0-9]$' "$TMP/out"
[ -s "$TMP/ay.png" ] && ok modes_ay_png || bad modes_ay_png "no plot"
# a lean series too
expect_exit modes_lean_sweep 0 "$MT" modes sport1000 --speed 30 --lean 0:40:10 --quiet
expect_match modes_lean_rows '^ +40 +40\.0 \|' "$TMP/out"

# 4. a point that cannot be trimmed is named and skipped; all untrimmable is an error
# (3 km/h: below 1 m/s the trim picks neutral, and nothing drives against the drag)
expect_exit modes_skip_point 0 "$MT" modes sport1000 --speeds 3:23:10 --unit kmh
expect_match modes_skip_point_says 'point 1 \(3 km/h, lean 0 deg\) not trimmed: trim: .*in neutral' "$TMP/err"
expect_match modes_skip_point_row '^ +3 +- \| not trimmed: ' "$TMP/out"
expect_match modes_skip_point_rest '^ +23 +0\.0 \|' "$TMP/out"
# 10 km/h in first: the trim slips the clutch, and the header says so and by how much
expect_exit modes_slipping_clutch 0 "$MT" modes sport1000 --speed 10 --unit kmh
expect_match modes_slipping_clutch_says '^  the clutch slips: engagement 0\.0[0-9]+, slip [1-9][0-9]+ rpm' "$TMP/out"
expect_exit modes_none_trimmed 2 "$MT" modes sport1000 --speed 20 --ay 2:2.4:0.2 --quiet
expect_match modes_none_trimmed_each 'point 3 \(20 m/s, ay 2\.4 g\) not trimmed' "$TMP/err"
if [ "$(tail -n 1 "$TMP/err")" = "mototake: modes: no point of the series could be trimmed" ]; then ok modes_none_trimmed_last
else bad modes_none_trimmed_last "$(tail -n 1 "$TMP/err")"; fi
expect_error modes_single_untrimmable '^mototake: trim: ' "$MT" modes sport1000 --speed 20 --ay 2.2

# 5. the single point keeps its old form, and names its modes
expect_exit modes_single 0 "$MT" modes sport1000 --speed 30
expect_match modes_single_weave '^ +2\.90 +-3\.187 +0\.172 .* weave$' "$TMP/out"
expect_match modes_single_wobble '^ +8\.03 .* wobble$' "$TMP/out"

# 6. bad input: one line, exit 2
expect_error modes_bad_range "modes: --speeds: '10:5:1': the step must be nonzero" "$MT" modes sport1000 --speeds 10:5:1
expect_error modes_bad_range_syntax "modes: --speeds: '10:x:1' is not a number or FROM:TO:STEP" "$MT" modes sport1000 --speeds 10:x:1
expect_error modes_too_many "modes: --speeds: '1:100:0.01' gives more than 200 points" "$MT" modes sport1000 --speeds 1:100:0.01
expect_error modes_speed_range "modes: speed 500 km/h is out of range" "$MT" modes sport1000 --speeds 100:500:100 --unit kmh
expect_error modes_two_sweeps "modes: sweep either the speed" "$MT" modes sport1000 --speeds 10:20:5 --lean 0:10:5
expect_error modes_lean_and_ay "modes: give --lean or --ay, not both" "$MT" modes sport1000 --speed 20 --lean 5 --ay 0.1
expect_error modes_bad_unit "modes: --unit: expected kmh or mps, got 'mph'" "$MT" modes sport1000 --speeds 10:20:5 --unit mph
expect_error modes_plot_png "modes: -o .*x\.jpg: the plot is a \.png" "$MT" modes sport1000 --speeds 10:20:5 -o "$TMP/x.jpg"
expect_error modes_plot_needs_sweep "modes: -o needs a sweep" "$MT" modes sport1000 --speed 20 -o "$TMP/x.png"
expect_error modes_anim_unknown "modes: --animate: unknown mode 'wibble' \(weave, wobble, capsize or chatter\)" \
  "$MT" modes sport1000 --speed 20 --animate wibble -o "$TMP/m.glb"
expect_error modes_anim_sweep "modes: --animate needs one point" "$MT" modes sport1000 --speeds 10:20:5 --animate weave -o "$TMP/m.glb"
expect_error modes_anim_ext "modes: --animate: -o .*m\.png: use \.glb, \.gltf or \.mp4" "$MT" modes sport1000 --speed 20 --animate weave -o "$TMP/m.png"
expect_error modes_anim_needs_o "modes: --animate needs -o" "$MT" modes sport1000 --speed 20 --animate weave
[ ! -e "$TMP/x.jpg" ] && [ ! -e "$TMP/m.glb" ] && ok modes_bad_input_writes_nothing || bad modes_bad_input_writes_nothing "a file was left"

# 7. the spectrum of the wobble take (the memo's first method) against the linearisation.
#    The take's rider holds the bars: its steering loops add Kδ = 1200·sqrt(V/20) N·m/rad and
#    10 N·m·s/rad (sim/rider.h) to the steer joint, 1183 N·m/rad at 70 km/h; with those on the
#    steer spring-damper the linearised wobble must sit within 5 % of the steer-rate peak.
"$MT" run "$ROOT/takes/wobble.lua" -o "$TMP/w.take" --quiet > /dev/null 2>&1 || bad modes_wobble_take "cannot record takes/wobble.lua"
expect_exit spectrum_wobble 0 "$MT" spectrum "$TMP/w.take" --channel steer_rate --from 2.05 --to 5.999 -o "$TMP/spec.png" --json
peak=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["peaks"][0]["hz"])' "$TMP/out")
expect_exit modes_wobble_rider 0 "$MT" modes sport1000 --speed 70 --unit kmh --max-hz 12 --json \
  --set bodies.steering.joints.steer.spring.c=10.5 --set bodies.steering.joints.steer.spring.k=1183
lin=$(python3 -c 'import json,sys; print([m["hz"] for m in json.load(open(sys.argv[1]))["modes"] if m["name"]=="wobble"][0])' "$TMP/out")
if python3 -c 'import sys; p, l = map(float, sys.argv[1:]); sys.exit(0 if abs(p - l) <= 0.05 * l else 1)' "$peak" "$lin"; then
  ok "spectrum_wobble_matches_linear (peak $peak Hz, linearised $lin Hz)"
else bad spectrum_wobble_matches_linear "steer-rate peak $peak Hz, linearised wobble $lin Hz"; fi
[ -s "$TMP/spec.png" ] && ok spectrum_png || bad spectrum_png "no plot"
expect_exit spectrum_table 0 "$MT" spectrum "$TMP/w.take" --channel steer_rate --from 2.05 --peaks 3
expect_match spectrum_table_peak '^ +1 +9\.1[0-9]+ ' "$TMP/out"
expect_error spectrum_no_channel "spectrum: --channel: no channel 'steer_rat' in .*w\.take \(nearest: steer_rate" \
  "$MT" spectrum "$TMP/w.take" --channel steer_rat
expect_error spectrum_needs_channel "spectrum: --channel NAME is required" "$MT" spectrum "$TMP/w.take"
expect_error spectrum_bad_range "spectrum: --from 5 --to 3 is not a range within the take" "$MT" spectrum "$TMP/w.take" --channel steer_rate --from 5 --to 3
expect_error spectrum_short "spectrum: 2\.000000?\.\.2\.005 s holds 6 samples, too few|spectrum: 2\.\.2\.005 s holds 6 samples, too few" \
  "$MT" spectrum "$TMP/w.take" --channel steer_rate --from 2 --to 2.005
expect_error spectrum_not_a_take "spectrum|take|not" "$MT" spectrum "$ROOT/README.md" --channel steer_rate
expect_exit spectrum_help 0 "$MT" spectrum --help
expect_match spectrum_help_usage '^usage: mototake spectrum TAKE --channel NAME' "$TMP/out"

# 8. mode animations: the whole rig through the exporter (validated) and the renderer's views (MP4)
expect_exit modes_anim_glb 0 "$MT" modes sport1000 --speed 70 --unit kmh --animate wobble -o "$TMP/wobble.glb"
expect_match modes_anim_glb_says 'wobble\.glb: 14 nodes, 135 frames at 30 fps' "$TMP/out"
expect_match modes_anim_glb_line 'wobble at 70\.0 km/h, lean 0\.0 deg: 7\.35 Hz, damping 0\.043 \(steer, 3\.0 deg\), slowed, 3 cycles of 1\.500 s \(slow motion\)' "$TMP/out"
expect_exit modes_anim_gltf 0 "$MT" modes sport1000 --speed 216 --unit kmh --ay 1 --animate chatter -o "$TMP/chatter.gltf" $SOFT
expect_match modes_anim_chatter_says 'chatter at 216\.0 km/h, lean -55\.[0-9] deg: 24\.[0-9]+ Hz' "$TMP/out"
if [ -d "$ROOT/tests/gltf/node_modules/gltf-validator" ]; then
  for f in wobble.glb chatter.gltf; do
    if node "$ROOT/tests/gltf/validate.js" "$TMP/$f" > "$TMP/val" 2>&1 && grep -q 'errors 0 warnings 0' "$TMP/val"; then ok "modes_anim_validator_$f"
    else bad "modes_anim_validator_$f" "$(cat "$TMP/val")"; fi
  done
else
  bad modes_anim_validator "gltf-validator is not installed in tests/gltf/node_modules (run make deps)"
fi
expect_exit modes_anim_mp4 0 env MOTOTAKE_PROGRESS=1 "$MT" modes sport1000 --speed 200 --unit kmh --animate weave -o "$TMP/weave.mp4"
# the frame progress bar on stderr (with MOTOTAKE_PROGRESS; on a terminal by itself), up to the last frame
tr '\r' '\n' < "$TMP/err" > "$TMP/prog"
expect_match modes_anim_mp4_progress '^\[#{30}\] 135/135 frames  [0-9.]+ frames/s  ETA 0\.0 s $' "$TMP/prog"
expect_exit modes_anim_mp4_quiet 0 env MOTOTAKE_PROGRESS=1 "$MT" modes sport1000 --speed 200 --unit kmh --animate weave \
  -o "$TMP/weave_q.mp4" --fps 5 --cycles 1 --quiet
[ ! -s "$TMP/err" ] && ok modes_anim_mp4_quiet_silent || bad modes_anim_mp4_quiet_silent "$(head -c 200 "$TMP/err")"
if ffprobe -v error -show_entries stream=codec_name,width,height,nb_frames,avg_frame_rate -of compact "$TMP/weave.mp4" > "$TMP/probe" 2>&1 &&
   grep -q 'codec_name=h264|width=1280|height=720|avg_frame_rate=30/1|nb_frames=135' "$TMP/probe"; then ok modes_anim_mp4_probe
else bad modes_anim_mp4_probe "$(cat "$TMP/probe")"; fi
expect_exit modes_anim_capsize 0 "$MT" modes sport1000 --speed 30 --animate capsize -o "$TMP/capsize.glb" --cycles 2 --amplitude 8
expect_match modes_anim_capsize_says 'capsize at 108\.0 km/h.*\(roll, 8\.0 deg\).*2 cycles of 1\.500 s' "$TMP/out"
expect_error modes_anim_absent "modes: no chatter mode found at 5 m/s" "$MT" modes sport1000 --speed 5 --max-hz 10 --animate chatter -o "$TMP/none.glb" --set bodies.fork_bend.joint.spring.k=1e9
