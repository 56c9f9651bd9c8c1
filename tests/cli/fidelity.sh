# fidelity.sh — model-fidelity checks (issue 10) on the command line.

# 5. every parameter, presets and defaults included, is listed and settable
expect_exit params_list 0 "$MT" rig info sport1000 --params
expect_match params_preset 'wheels\.front\.tyre\.lambda_mzr +[0-9.]+ +1$' "$TMP/out"
expect_match params_unit 'bodies\.steering\.joints\.twist\.spring\.k +34100 +N·m/rad' "$TMP/out"
if grep -q ' ?$' "$TMP/out"; then bad params_units "a parameter without unit: $(grep ' ?$' "$TMP/out" | head -1)"; else ok params_units; fi
expect_exit set_preset_lambda 0 "$MT" rig info sport1000 --params --set wheels.front.tyre.lambda_mzr=1 --set wheels.rear.tyre.pDy1=1.1
expect_match set_preset_lambda_value 'wheels\.front\.tyre\.lambda_mzr +1 ' "$TMP/out"
expect_match set_preset_pdy1_value 'wheels\.rear\.tyre\.pDy1 +1\.1 ' "$TMP/out"
expect_exit set_default_field 0 "$MT" rig info sport1000 --params --set engine.gas_constant=290
expect_match set_default_value 'engine\.gas_constant +290 +J/\(kg·K\)' "$TMP/out"
expect_error set_preset_typo "no such numeric parameter \(near: wheels\.front\.tyre\.lambda_mzr" \
  "$MT" rig info sport1000 --set wheels.front.tyre.lambda_mz=1

# 4. closed throttle: overrun holds the manifold near 20 kPa and cuts the fuel
expect_exit engine_overrun 0 "$MT" engine sport1000 --rpm 9500 --throttle 0
expect_match engine_overrun_map 'manifold pressure +20\.0[0-9]* kPa' "$TMP/out"
expect_match engine_overrun_fuel 'fuel fraction 0\.000' "$TMP/out"
expect_match engine_overrun_torque 'brake torque +-17\.2[0-9] N m' "$TMP/out"

# 1. chatter: the softened frame rings at 20-30 Hz in the steer rate; the stock frame does not
STOCK="--set bodies.steering.joints.twist.spring.k=34100 --set bodies.steering.joints.twist.spring.c=99.7 --set bodies.fork_bend.joint.spring.k=38000 --set bodies.fork_bend.joint.spring.c=24 --set bodies.steering.joints.steer.spring.c=6.944"
expect_exit chatter_soft 0 "$MT" run "$ROOT/takes/chatter.lua" -o "$TMP/ch.take" --quiet
expect_exit chatter_stock 0 "$MT" run "$ROOT/takes/chatter.lua" -o "$TMP/chs.take" --quiet $STOCK
expect_exit chatter_verify 0 "$MT" take verify "$TMP/ch.take"
"$MT" take channels "$TMP/ch.take" -o "$TMP/ch.csv" --channels steer_rate > /dev/null 2>&1
"$MT" take channels "$TMP/chs.take" -o "$TMP/chs.csv" --channels steer_rate > /dev/null 2>&1
# the tap on the bars comes at 2.5 s: the spectrum of the ringing after it. The softened frame
# rings at a peak inside 20-30 Hz; the stock frame's response there is less than 1/1.5 of it (the
# low modes' leakage, not a ringing of its own)
soft=$(python3 "$ROOT/tests/ref/spectrum.py" "$TMP/ch.csv" 2.5 3.4 20 30)
stock=$(python3 "$ROOT/tests/ref/spectrum.py" "$TMP/chs.csv" 2.5 3.4 20 30)
sf=$(echo "$soft" | awk '{print $4}'); sa=$(echo "$soft" | awk '{print $5}'); ka=$(echo "$stock" | awk '{print $5}')
# the ringing is the linearised chatter mode: the soft frame's strongest steer-rate peak inside
# 20-29.5 Hz (mototake spectrum) lies within 5 % of the chatter root that `mototake modes` finds
# for the take's steady turn (60 m/s, 53 deg, the same softened frame)
SOFT="--set bodies.steering.joints.twist.spring.k=10000 --set bodies.steering.joints.twist.spring.c=20 --set bodies.fork_bend.joint.spring.k=10000 --set bodies.fork_bend.joint.spring.c=5 --set bodies.steering.joints.steer.spring.c=2"
"$MT" spectrum "$TMP/ch.take" --channel steer_rate --from 2.5 --to 3.399 --min-hz 20 --max-hz 29.5 --json > "$TMP/chspec.json" 2>&1
"$MT" modes sport1000 --speed 60 --lean 53 --json $SOFT > "$TMP/chmodes.json" 2>&1
if python3 - "$TMP/chspec.json" "$TMP/chmodes.json" > "$TMP/chcmp" 2>&1 <<'PY'
import json, sys
pk = json.load(open(sys.argv[1]))["peaks"]
md = [m for m in json.load(open(sys.argv[2]))["modes"] if m.get("name") == "chatter"]
f = pk[0]["hz"] if pk else float("nan")
c = md[0]["hz"] if md else float("nan")
print("# chatter: spectrum peak %.2f Hz, linearised %.2f Hz (%+.1f %%)" % (f, c, 100 * (f / c - 1)))
sys.exit(0 if abs(f / c - 1) < 0.05 else 1)
PY
then ok chatter_peak_is_the_linear_mode; cat "$TMP/chcmp"; else bad chatter_peak_is_the_linear_mode "$(cat "$TMP/chcmp")"; fi
if awk -v s="$sa" -v k="$ka" 'BEGIN { exit !(s > 1.5 * k) }'; then ok chatter_stock_damped; else bad chatter_stock_damped "20-30 Hz: soft $sa, stock $ka deg/s"; fi

# weave: the memo's weave test (takes/weave.lua: 200 km/h, 60 kg on the rear, the fixed rider of
# its analysis = no rider loop, a bar-torque pulse at 2 s). The weave is unstable there (the
# linearised root 3.21 Hz, zeta -0.084), so after the pulse the yaw rate rings at the linearised
# weave frequency (within 5 %, spectrum over 2.2-3.4 s) and grows from one 0.5 s window to the next
# (the root's growth, e^(zeta*omega*0.5 s), is about 2.3 a window) until the machine falls.
# (An active rider loop holds it: with the rider's heading loop unfiltered at this speed it made a
# 2.1 Hz limit cycle, with it filtered it damps the weave: sim/rider.c.)
expect_exit weave_take 0 "$MT" run "$ROOT/takes/weave.lua" -o "$TMP/wv.take"
expect_match weave_take_falls 'fell at t = [345]\.[0-9]+ s' "$TMP/out"
PAY="--set bodies.frame.mass=225.13 --set bodies.frame.com.1=0.5106 --set bodies.frame.com.3=0.5730 --set bodies.frame.inertia.1=17.36 --set bodies.frame.inertia.2=45.64 --set bodies.frame.inertia.3=32.33 --set bodies.frame.inertia.5=-6.743"
"$MT" spectrum "$TMP/wv.take" --channel yaw_rate --from 2.2 --to 3.4 --min-hz 1 --max-hz 15 --json > "$TMP/wvspec.json" 2>&1
"$MT" modes sport1000 --speed 200 --unit kmh --json $PAY > "$TMP/wvmodes.json" 2>&1
"$MT" take channels "$TMP/wv.take" -o "$TMP/wv.csv" --channels time,yaw_rate > /dev/null 2>&1
if python3 - "$TMP/wvspec.json" "$TMP/wvmodes.json" "$TMP/wv.csv" > "$TMP/wvcmp" 2>&1 <<'PY'
import csv, json, sys
pk = json.load(open(sys.argv[1]))["peaks"]
md = [m for m in json.load(open(sys.argv[2]))["modes"] if m.get("name") == "weave"]
f = pk[0]["hz"] if pk else float("nan")
c = md[0]["hz"] if md else float("nan")
rows = list(csv.reader(open(sys.argv[3])))[2:]
def peak(a, b):
    return max(abs(float(r[1])) for r in rows if a <= float(r[0]) < b)
w = [peak(a, a + 0.5) for a in (2.0, 2.5, 3.0)]
print("# weave: spectrum peak %.2f Hz, linearised %.2f Hz (%+.1f %%); yaw rate peaks %.1f, %.1f, %.1f deg/s in 0.5 s windows from 2.0 s"
      % (f, c, 100 * (f / c - 1), w[0], w[1], w[2]))
sys.exit(0 if abs(f / c - 1) < 0.05 and w[1] > 1.5 * w[0] and w[2] > 1.5 * w[1] else 1)
PY
then ok weave_grows_at_the_linear_mode; cat "$TMP/wvcmp"; else bad weave_grows_at_the_linear_mode "$(cat "$TMP/wvcmp")"; fi

# 6. residual moment: the figures of docs/tyre.md
expect_exit tyre_slip_moment 0 "$MT" tyre "$ROOT/rigs/tyres_sport.lua" --wheel front --fz 1100 --alpha 0.02 --json
expect_match tyre_slip_moment_value '"fy_N":364\.67[0-9]*,"mz_Nm":-21\.089' "$TMP/out"
expect_exit tyre_camber_moment 0 "$MT" tyre "$ROOT/rigs/tyres_sport.lua" --wheel front --fz 1100 --camber 0.1 --json
expect_match tyre_camber_moment_value '"mz_Nm":6\.49[0-9]*' "$TMP/out"
expect_exit trim_lambda_half 0 "$MT" trim sport1000 --speed 20 --lean 26 --set wheels.front.tyre.lambda_mzr=0.5 --set wheels.rear.tyre.lambda_mzr=0.5
expect_match trim_lambda_half_torque 'steer torque +31\.408' "$TMP/out"
expect_exit trim_lambda_full 0 "$MT" trim sport1000 --speed 20 --lean 26 --set wheels.front.tyre.lambda_mzr=1 --set wheels.rear.tyre.lambda_mzr=1
expect_match trim_lambda_full_torque 'steer torque +68\.739' "$TMP/out"

# linear modes (docs/vehicle.md, docs/tyre.md)
expect_exit modes_help 0 "$MT" modes --help
expect_match modes_help_usage '^usage: mototake modes RIG --speed V' "$TMP/out"
expect_error modes_needs_speed 'modes: --speed is required' "$MT" modes sport1000
expect_exit modes_straight_30 0 "$MT" modes sport1000 --speed 30
expect_match modes_capsize_30 '^ +0\.00 +-0\.752 ' "$TMP/out"
expect_match modes_weave_30 '^ +2\.90 +-3\.187 +0\.172 ' "$TMP/out"
expect_match modes_wobble_30 '^ +8\.03 ' "$TMP/out"
expect_match modes_bend_30 '^ +46\.50 .* 0\.60 ' "$TMP/out"
expect_exit modes_lambda_half 0 "$MT" modes sport1000 --speed 20 --lean 26 --max-hz 4 --set wheels.front.tyre.lambda_mzr=0.5 --set wheels.rear.tyre.lambda_mzr=0.5
expect_match modes_lambda_half_weave '^ +1\.85 +-2\.109 +0\.179 ' "$TMP/out"
expect_exit modes_lambda_full 0 "$MT" modes sport1000 --speed 20 --lean 26 --max-hz 4 --set wheels.front.tyre.lambda_mzr=1 --set wheels.rear.tyre.lambda_mzr=1
expect_match modes_lambda_full_weave '^ +1\.87 +1\.037 +-0\.088 ' "$TMP/out"
expect_exit modes_capsize_lambda0_50 0 "$MT" modes sport1000 --speed 50 --max-hz 1 --set wheels.front.tyre.lambda_mzr=0 --set wheels.rear.tyre.lambda_mzr=0
expect_match modes_capsize_lambda0_50_root '^ +0\.00 +0\.211 ' "$TMP/out"
expect_exit modes_chatter_soft 0 "$MT" modes sport1000 --speed 60 --lean 53 --set bodies.steering.joints.twist.spring.k=10000 --set bodies.steering.joints.twist.spring.c=20 --set bodies.fork_bend.joint.spring.k=10000 --set bodies.fork_bend.joint.spring.c=5 --set bodies.steering.joints.steer.spring.c=2
expect_match modes_chatter_soft_25Hz '^ +24\.8[0-9] .* 0\.068 ' "$TMP/out"
expect_exit engine_overrun_4000 0 "$MT" engine sport1000 --rpm 4000 --throttle 0
expect_match engine_overrun_4000_torque 'brake torque +-11\.94 N m' "$TMP/out"
# 713 since the band's throttle and brake curves (controls.throttle_curve, controls.brake_curve:
# docs/ride.md) joined the rider's height
expect_exit params_count 0 "$MT" rig info sport1000 --params
if [ "$(wc -l < "$TMP/out")" = 713 ]; then ok params_count_713; else bad params_count_713 "$(wc -l < "$TMP/out") parameters"; fi
expect_exit modes_wobble_20 0 "$MT" modes sport1000 --speed 20 --max-hz 15
expect_match modes_wobble_20_bend '^ +7\.39 +-2\.013 +0\.043 ' "$TMP/out"
expect_exit modes_wobble_20_rigid 0 "$MT" modes sport1000 --speed 20 --max-hz 15 --set bodies.fork_bend.joint.spring.k=300000
expect_match modes_wobble_20_rigid_more_damped '^ +7\.57 +-4\.041 +0\.085 ' "$TMP/out"

# 5. a take's overrides reach preset fields and defaults too, and the take replays bit for bit
cat > "$TMP/ov.lua" <<'LUA'
return {
  rig = "sport1000", track = "straight", duration = 0.3,
  overrides = { ["wheels.front.tyre.lambda_mzr"] = 1, ["wheels.rear.tyre.pDy1"] = 1.1, ["engine.overrun_pressure"] = 25000 },
  start = { station = 50, speed = 20 }, rider = { line = "centre", speed = 20 },
}
LUA
expect_exit take_overrides_preset 0 "$MT" run "$TMP/ov.lua" -o "$TMP/ov.take" --quiet
expect_exit take_overrides_verify 0 "$MT" take verify "$TMP/ov.take"
"$MT" take info "$TMP/ov.take" > "$TMP/ovinfo" 2>&1
expect_match take_overrides_listed 'wheels\.front\.tyre\.lambda_mzr=1' "$TMP/ovinfo"
expect_error take_overrides_typo 'no such numeric parameter \(near: wheels\.front\.tyre\.lambda_mzr' \
  "$MT" run "$TMP/ov.lua" -o "$TMP/ov2.take" --set wheels.front.tyre.lambda_mz=1
