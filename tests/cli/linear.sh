# linear.sh — the linear analysis (sim/linear.h, docs/linear.md): a take script's `linear`
# selection and `linearise` events write the memo's M-file and JSON; the take still verifies bit
# for bit; GNU Octave loads the M-file and its eig(MatrixA) agrees with ours; bad names, bad
# perturbations and bad file names are one line, exit 2; `mototake bode`.
cat > "$TMP/lin.lua" <<'LUA'
return {
  rig = "sport1000", track = "straight",
  start = { station = 50, speed = 200 / 3.6 }, duration = 1.6,
  rider = { line = "centre", speed = 200 / 3.6, posture = false },
  linear = { inputs = { "road_front", { "road_rear", 0.002 } }, outputs = { "steer_angle", "roll_rate" } },
  events = { { at = 1.0, linearise = "Linear_200kph_Road_to_Steer" },
             { at = 1.5, linear = { states = { "q.steer", { "qd.steer", 0.002 } }, inputs = { "steer_torque" },
                                    outputs = { "steer_rate" } },
               linearise = true } },
}
LUA
expect_exit lin_run 0 "$MT" run "$TMP/lin.lua" -o "$TMP/a.take" --quiet
[ -f "$TMP/Linear_200kph_Road_to_Steer.m" ] && [ -f "$TMP/Linear_200kph_Road_to_Steer.json" ] && ok lin_files_named \
  || bad lin_files_named "$(ls "$TMP")"
[ -f "$TMP/a_lin2.m" ] && [ -f "$TMP/a_lin2.json" ] && ok lin_files_numbered || bad lin_files_numbered "$(ls "$TMP")"
M="$TMP/Linear_200kph_Road_to_Steer.m"
expect_match lin_m_states '^% SV: 38 state variables' "$M"
expect_match lin_m_sv '^%   SV\(12\) q\.steer +\[rad\]  perturbation 0\.001 ' "$M"
expect_match lin_m_tyre_state '^%   SV\(38\) act\.rear_alpha +\[1\]  perturbation 0\.001 ' "$M"
expect_match lin_m_in '^%   IN\(2\) road_rear +\[m\]  perturbation 0\.002 ' "$M"
expect_match lin_m_out '^%   OUT\(1\) steer_angle +\[deg\]' "$M"
expect_match lin_m_matrices '^MatrixD = \[' "$M"
expect_match lin_m_selected '^% SV: 2 state variables' "$TMP/a_lin2.m"
# the events are recorded, and linearising did not disturb the ride: the take verifies bit for bit
expect_exit lin_info 0 "$MT" take info "$TMP/a.take"
expect_match lin_event '"mfile":"Linear_200kph_Road_to_Steer.m".*"states":38,"inputs":2,"outputs":2' "$TMP/out"
expect_exit lin_verify 0 "$MT" take verify "$TMP/a.take"
expect_match lin_verify_exact 'bit-exact' "$TMP/out"
# GNU Octave loads the M-file (by its name, as the memo does) and agrees on eig(MatrixA)
cat > "$TMP/chk.m" <<'OCT'
Linear_200kph_Road_to_Steer
ours = jsondecode(fileread('Linear_200kph_Road_to_Steer.json'));
e = eig(MatrixA);
z = complex([ours.eigenvalues.re], [ours.eigenvalues.im]);
d = 0;
for k = 1:numel(e)
  d = max(d, min(abs(z - e(k))));
end
printf('sizes %d %d %d %d %d %d %d %d\n', size(MatrixA), size(MatrixB), size(MatrixC), size(MatrixD));
printf('eig %d maxdiff %.3g of %.3g\n', numel(e), d, max(abs(e)));
if d < 1e-9 * max(abs(e)) && numel(e) == numel(z), printf('EIG AGREE\n'); end
OCT
(cd "$TMP" && octave-cli --no-gui -q --norc chk.m) > "$TMP/oct" 2>&1
expect_match lin_octave_sizes '^sizes 38 38 38 2 2 38 2 2$' "$TMP/oct"
expect_match lin_octave_eig '^EIG AGREE$' "$TMP/oct"
# bad input: one line naming the script's line and the field, near matches, exit 2
sed 's/"road_front", { "road_rear"/"road_frnt", { "road_rear"/' "$TMP/lin.lua" > "$TMP/bad1.lua"
expect_error lin_bad_input "bad1\.lua:5: field 'linear': linearise: unknown input 'road_frnt' \(near matches: road_front, road_rear\)" \
  "$MT" run "$TMP/bad1.lua" -o "$TMP/x.take"
sed 's/"q.steer", { "qd.steer", 0.002 }/"q.stear", { "qd.steer", 0.002 }/' "$TMP/lin.lua" > "$TMP/bad2.lua"
expect_error lin_bad_state "bad2\.lua:7: event 2: field 'linear': linearise: unknown state 'q\.stear' \(near matches: q\.steer, qd\.steer\)" \
  "$MT" run "$TMP/bad2.lua" -o "$TMP/x.take"
sed 's/"steer_rate" }/"steer_rat" }/' "$TMP/lin.lua" > "$TMP/bad3.lua"
expect_error lin_bad_output "bad3\.lua:7: event 2: field 'linear': linearise: unknown output 'steer_rat' \(near matches: steer_rate\)" \
  "$MT" run "$TMP/bad3.lua" -o "$TMP/x.take"
sed 's/{ "road_rear", 0.002 }/{ "road_rear", 0 }/' "$TMP/lin.lua" > "$TMP/bad4.lua"
expect_error lin_zero_perturbation "bad4\.lua:5: field 'inputs': the perturbation of 'road_rear' must be a number > 0" \
  "$MT" run "$TMP/bad4.lua" -o "$TMP/x.take"
sed 's/{ "road_rear", 0.002 }/{ "qd.front_spin", 1e-30 }/; s/inputs = { "road_front",/states = {/' "$TMP/lin.lua" > "$TMP/bad5.lua"
expect_error lin_singular_perturbation "bad5\.lua:6: event 1: linearise at t = 1\.0010 s: .*perturbation 1e-30 of 'qd\.front_spin' is lost against its value 185\.07.* \(singular: x \+ h == x\)" \
  "$MT" run "$TMP/bad5.lua" -o "$TMP/x.take"
sed 's/linearise = "Linear_200kph_Road_to_Steer"/linearise = "..\/evil"/' "$TMP/lin.lua" > "$TMP/bad6.lua"
expect_error lin_bad_file_name "bad6\.lua:6: event 1: field 'linearise': expected true or a file name for MATLAB" \
  "$MT" run "$TMP/bad6.lua" -o "$TMP/x.take"
[ ! -e "$TMP/../evil.m" ] && ok lin_bad_file_name_nothing_written || bad lin_bad_file_name_nothing_written "evil.m written"
