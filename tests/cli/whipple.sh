# whipple.sh — the Whipple bicycle benchmark rig (docs/whipple.md), the "rolling" tyre model and
# the rig payload (docs/rig.md): figures from the command line, the docs' plot, bad input.
# The benchmark's own checks (critical speeds, eigenvalues) are unit tests: tests/unit/test_whipple.c.
expect_exit whipple_info 0 "$MT" rig info whipple_benchmark
expect_match whipple_info_mass 'total mass +94.00 kg' "$TMP/out"
expect_match whipple_info_rake 'rake \(caster\) +18.00 deg' "$TMP/out"
expect_match whipple_info_trail 'trail +0.0800 m' "$TMP/out"
expect_match whipple_info_wheelbase 'wheelbase +1.0200 m' "$TMP/out"

# docs/whipple.md: the roots at 5 m/s (benchmark: castering −14.078, capsize −0.323, weave
# −0.775 ± 4.465i = 0.711 Hz)
expect_exit whipple_modes_5 0 "$MT" modes whipple_benchmark --speed 5 --max-hz 5
expect_match whipple_modes_5_castor '^ +0\.00 +-14\.111 +1\.000 +1\.00 ' "$TMP/out"
expect_match whipple_modes_5_capsize '^ +0\.00 +-0\.316 +1\.000 +1\.00 ' "$TMP/out"
expect_match whipple_modes_5_weave '^ +0\.71 +-0\.772 +0\.170 +1\.00 ' "$TMP/out"
# below the weave speed the weave grows, above the capsize speed the capsize root is positive
expect_exit whipple_modes_4 0 "$MT" modes whipple_benchmark --speed 4 --max-hz 5
expect_match whipple_modes_4_weave_unstable '^ +0\.49 +0\.41[0-9] +-0\.13[0-9] ' "$TMP/out"
expect_exit whipple_modes_7 0 "$MT" modes whipple_benchmark --speed 7 --max-hz 5
expect_match whipple_modes_7_capsize_unstable '^ +0\.00 +0\.106 ' "$TMP/out"

# the docs' figure
PY=""
for p in python3 /usr/bin/python3; do "$p" -c 'import matplotlib, numpy' 2>/dev/null && { PY=$p; break; }; done
if [ -z "$PY" ]; then bad doc_whipple_roots_plot "no python3 with matplotlib (make deps installs python3-matplotlib)"
elif "$PY" "$ROOT/docs/img/whipple_roots.py" "$MT" "$TMP/whipple_roots.png" > "$TMP/plot.out" 2>&1 && [ -s "$TMP/whipple_roots.png" ]; then
  ok doc_whipple_roots_plot
  expect_match doc_whipple_roots_5 '^ 5\.00 m/s  ours: -14\.1109\+0\.0000i -0\.7722\+4\.4689i -0\.3156\+0\.0000i' "$TMP/plot.out"
else bad doc_whipple_roots_plot "$(head -c 300 "$TMP/plot.out")"; fi

# the payload: 60 kg on sport1000's pillion seat (docs/rig.md)
expect_exit payload_info 0 "$MT" rig info sport1000 --set payload.mass=60
expect_match payload_info_mass 'total mass +310.65 kg' "$TMP/out"
expect_match payload_info_cg 'centre of gravity +x 0.5627  z 0.6330 m' "$TMP/out"
expect_exit payload_weave_60 0 "$MT" modes sport1000 --speed 60 --max-hz 5 --set payload.mass=60
expect_match payload_weave_60_unstable '^ +3\.33 +2\.035 +-0\.097 ' "$TMP/out"
expect_error payload_negative "payload: field 'mass': must be within \[0, 500\] kg, got -5" "$MT" rig info sport1000 --set payload.mass=-5
W="$ROOT/rigs/whipple_benchmark.lua"
sed 's/payload = { mass = 0, x = 0.15,/payload = { mass = 0, xx = 0.15,/' "$ROOT/rigs/sport1000.lua" > "$TMP/payload_typo.lua"
expect_error payload_unknown_key "payload_typo.lua:[0-9]+: payload: field 'xx': unknown field" "$MT" rig info "$TMP/payload_typo.lua"

# the tyre model switch: an unknown model, a rolling tyre without its slip stiffness
sed 's/model = "rolling", R0 = rF/model = "knife", R0 = rF/' "$W" > "$TMP/bad_model.lua"
expect_error tyre_model_unknown "bad_model.lua:[0-9]+: front wheel: field 'model': unknown tyre model 'knife' \(magic_formula, rolling\)" \
  "$MT" rig info "$TMP/bad_model.lua"
sed 's/, k_slip = 2e5 } },/ } },/' "$W" > "$TMP/no_kslip.lua"
expect_error tyre_rolling_needs_kslip "no_kslip.lua:[0-9]+: front wheel: .*k_slip" "$MT" rig info "$TMP/no_kslip.lua"
expect_error tyre_rolling_kslip_positive "field 'k_slip': must be > 0, got -1" "$MT" rig info whipple_benchmark --set wheels.rear.tyre.k_slip=-1

# the other command lines of docs/whipple.md and docs/vehicle.md "Modes of sport1000"
expect_exit whipple_modes_6_json 0 "$MT" modes whipple_benchmark --speed 6 --json
expect_match whipple_modes_6_castor '"re":-16\.14' "$TMP/out"
expect_exit sport_damper_weave_60 0 "$MT" modes sport1000 --speed 60 --max-hz 12 --set bodies.steering.joints.steer.spring.c=2
expect_match sport_damper_weave_60_less_unstable '^ +3\.69 +1\.172 +-0\.050 ' "$TMP/out"
expect_exit sport_chatter_stock_53 0 "$MT" modes sport1000 --speed 60 --lean 53
expect_match sport_chatter_stock_53_44Hz '^ +44\.44 .* 0\.135 ' "$TMP/out"
SOFT="--set bodies.steering.joints.twist.spring.k=10000 --set bodies.steering.joints.twist.spring.c=20 --set bodies.fork_bend.joint.spring.k=10000 --set bodies.fork_bend.joint.spring.c=5 --set bodies.steering.joints.steer.spring.c=2"
expect_exit sport_chatter_soft_0 0 "$MT" modes sport1000 --speed 60 $SOFT
expect_match sport_chatter_soft_0_25Hz '^ +25\.23 .* 0\.086 ' "$TMP/out"
expect_exit sport_chatter_soft_30 0 "$MT" modes sport1000 --speed 60 --lean 30 $SOFT
expect_match sport_chatter_soft_30_25Hz '^ +25\.11 .* 0\.092 ' "$TMP/out"

# the rolling model through the tyre command: linear in the slips, no moment (sim/tyre.h)
expect_exit tyre_rolling_forces 0 "$MT" tyre whipple_benchmark --wheel rear --fz 600 --kappa 0.001 --alpha 0.002 --camber 0.3
expect_match tyre_rolling_fx '^  Fx +200\.00 N' "$TMP/out"
expect_match tyre_rolling_fy '^  Fy +400\.00 N' "$TMP/out"
expect_match tyre_rolling_mz '^  Mz +0\.000 N' "$TMP/out"
expect_exit whipple_draw 0 "$MT" rig draw whipple_benchmark -o "$TMP/whipple_side.png"
if head -c 8 "$TMP/whipple_side.png" | od -An -c | grep -q 'P   N   G'; then ok whipple_draw_png; else bad whipple_draw_png "not a PNG"; fi
