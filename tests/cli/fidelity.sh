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
