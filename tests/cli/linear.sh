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
# a dry run writes nothing: not the M-files and JSON of its linearisations, in the current folder or
# next to the script (run_linear.h); the ride still linearises (same summary as the recorded run)
mkdir -p "$TMP/dry" && cp "$TMP/lin.lua" "$TMP/dry/lin.lua"
(cd "$TMP/dry" && "$MT" run lin.lua --dry-run) > "$TMP/dry.out" 2> "$TMP/dry.err"
[ $? = 0 ] && [ "$(ls -A "$TMP/dry")" = "lin.lua" ] && ok lin_dry_run_writes_nothing \
  || bad lin_dry_run_writes_nothing "folder holds: $(ls -A "$TMP/dry" | tr '\n' ' '); $(head -c 200 "$TMP/dry.err")"
expect_match lin_dry_run_rode '^\(dry run\): 1\.60 s simulated' "$TMP/dry.out"
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
cat > "$TMP/bad7.lua" <<'LUA'
return { rig = "sport1000", track = "straight", start = { station = 50, speed = 20 }, duration = 0.5,
  rider = { line = "centre", speed = 20 },
  linear = { state = { "q.steer" } } }
LUA
expect_error lin_misspelt_field "bad7\.lua:3: field 'linear': expects \{ states = \{\.\.\.\}, inputs = \{\.\.\.\}, outputs = \{\.\.\.\} \}" \
  "$MT" run "$TMP/bad7.lua" -o "$TMP/x.take"
expect_match lin_m_title_no_folders '^% lin\.lua: event 1, rig sport1000, t = 1\.00[0-9]+ s$' "$M"
# bode: the steer torque to steer angle response at 20 m/s peaks at the lightly damped wobble
# mode that `mototake modes` finds from the one-step Jacobian (independently)
expect_exit bode_steer 0 "$MT" bode sport1000 --speed 20 --input steer_torque --output steer_angle -o "$TMP/b.png"
expect_match bode_steer_units 'gain in deg/N\*m' "$TMP/out"
top=$(awk '/resonances/ {getline; getline; print $1; exit}' "$TMP/out")
"$MT" modes sport1000 --speed 20 > "$TMP/modes"
wob=$(awk '$1 + 0 > 5 && $1 + 0 < 15 && ($3 + 0 < 0.05 && $3 + 0 > -0.05) {print $1; exit}' "$TMP/modes")
awk -v a="$top" -v b="$wob" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d < 0.02 * b) }' \
  && ok "bode_peak_is_the_wobble_mode ($top Hz, modes: $wob Hz)" || bad bode_peak_is_the_wobble_mode "bode $top Hz, modes $wob Hz"
[ -s "$TMP/b.png" ] && ok bode_png || bad bode_png "no PNG"
# the memo's road-to-steer response at 200 km/h and 15 deg, wheelbase delay: resonances listed, JSON
expect_exit bode_road 0 "$MT" bode sport1000 --speed 55.56 --lean 15 --wheelbase-delay --output steer_angle
expect_match bode_road_delay 'input road \(road_front \+ road_rear 1\.4[0-9]+ m / 55\.56 m/s = 2[0-9]\.[0-9] ms later\)' "$TMP/out"
expect_exit bode_json 0 "$MT" bode sport1000 --speed 55.56 --lean 15 --wheelbase-delay --output steer_angle --points 50 --json
python3 - "$TMP/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["points"]
ok = len(p) == 50 and abs(p[0]["hz"] - 1) < 1e-9 and abs(p[-1]["hz"] - 100) < 1e-6 and d["gain_units"] == "deg/m" \
     and 1.3 < d["wheelbase_m"] < 1.6 and all(abs(q["phase_deg"]) <= 180 for q in p) and d["peaks"]
print("ok bode_json_points" if ok else "FAIL bode_json_points: %r" % {k: d[k] for k in d if k != "points"})
PY
# --json into a stream that cannot take it (a full disk: /dev/full) is an error (exit 1, one
# line), not a success that printed nothing (base/jsonout.h)
if [ -w /dev/full ]; then
  "$MT" bode sport1000 --speed 20 --input steer_torque --output steer_angle --points 10 --json > /dev/full 2> "$TMP/full.err"
  rc=$?
  if [ $rc = 1 ] && [ "$(wc -l < "$TMP/full.err")" = 1 ] && grep -q 'bode: cannot write the JSON' "$TMP/full.err"; then
    ok bode_json_write_failure
  else bad bode_json_write_failure "exit $rc: $(head -c 300 "$TMP/full.err")"; fi
else skip bode_json_write_failure "no writable /dev/full here"; fi
# the combination is the memo's: G = G_front + G_rear e^(-j w L/V), point by point
cp "$TMP/out" "$TMP/both.json"
"$MT" bode sport1000 --speed 55.56 --lean 15 --input road_front --output steer_angle --points 50 --json > "$TMP/front.json"
"$MT" bode sport1000 --speed 55.56 --lean 15 --input road_rear --output steer_angle --points 50 --json > "$TMP/rear.json"
python3 - "$TMP/both.json" "$TMP/front.json" "$TMP/rear.json" <<'PY'
import cmath, json, math, sys
b, f, r = (json.load(open(a)) for a in sys.argv[1:4])
tau, err = b["delay_s"], 0.0
for pb, pf, pr in zip(b["points"], f["points"], r["points"]):
    w = 2 * math.pi * pb["hz"]
    g = complex(pf["re"], pf["im"]) + complex(pr["re"], pr["im"]) * cmath.exp(-1j * w * tau)
    err = max(err, abs(g - complex(pb["re"], pb["im"])) / abs(g))
print(("ok" if err < 1e-8 else "FAIL") + " bode_wheelbase_combination (max relative difference %.2g)" % err)
PY
expect_error bode_delay_input "bode: --wheelbase-delay takes the road under both tyres: --input road \(or none\), not 'steer_torque'" \
  "$MT" bode sport1000 --speed 20 --wheelbase-delay --input steer_torque --output steer_angle
expect_error bode_road_needs_delay "bode: --input road needs --wheelbase-delay" "$MT" bode sport1000 --speed 20 --input road --output steer_angle
# --help says what bode_road above runs: with --wheelbase-delay, --input may be left out (main's
# one usage line marked --input NAME required beside [--wheelbase-delay])
"$MT" bode --help | sed '/^$/q' > "$TMP/bode_usage"
if ! grep -q -- '--wheelbase-delay' "$TMP/bode_usage"; then bad bode_help_input_optional "no --wheelbase-delay in the usage"
elif grep -- '--wheelbase-delay' "$TMP/bode_usage" | grep -qv -- '--wheelbase-delay \[--input road\]'; then
  bad bode_help_input_optional "$(grep -- '--wheelbase-delay' "$TMP/bode_usage" | head -1)"
else ok bode_help_input_optional; fi
expect_error bode_bad_output "linearise: unknown output 'steer_angel' \(near matches: steer_angle" \
  "$MT" bode sport1000 --speed 20 --input steer_torque --output steer_angel
expect_error bode_range "bode: --to \(2 Hz\) must be above --from \(5 Hz\)" \
  "$MT" bode sport1000 --speed 20 --input steer_torque --output steer_angle --from 5 --to 2
expect_exit bode_help 0 "$MT" bode --help
expect_match bode_help_usage 'usage: mototake bode RIG --speed V' "$TMP/out"
# the memo's road-to-steer run as a take: Octave's Bode of its M-file (the memo's Figure 15
# without the Control System Toolbox) peaks where `mototake bode` does from the trim
expect_exit lin_200kph_run 0 "$MT" run "$ROOT/takes/linear_200kph.lua" -o "$TMP/l200.take" --quiet
expect_exit lin_200kph_verify 0 "$MT" take verify "$TMP/l200.take"
"$MT" bode sport1000 --speed 55.56 --lean 15 --wheelbase-delay --output steer_angle --json > "$TMP/b200.json"
wb=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["wheelbase_m"])' "$TMP/b200.json")
pk=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["peaks"][0]["hz"])' "$TMP/b200.json")
cat > "$TMP/bd.m" <<OCT
Linear_200kph_Road_to_Steer
f = logspace(0, 2, 2000); n = rows(MatrixA); g = zeros(size(f));
for k = 1:numel(f)
  w = 2 * pi * f(k); X = (1i * w * eye(n) - MatrixA) \ MatrixB; G = MatrixC * X + MatrixD;
  g(k) = abs(G(1) + G(2) * exp(-1i * w * $wb / (200 / 3.6)));
end
[~, i] = max(g); printf('PEAK %.4f\n', f(i));
OCT
(cd "$TMP" && octave-cli --no-gui -q --norc bd.m) > "$TMP/oct2" 2>&1
op=$(sed -n 's/^PEAK //p' "$TMP/oct2")
awk -v a="$op" -v b="$pk" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d < 0.01 * b) }' \
  && ok "lin_octave_bode_peak ($op Hz from the take's M-file, $pk Hz from mototake bode)" \
  || bad lin_octave_bode_peak "Octave '$op' Hz, bode '$pk' Hz: $(head -c 300 "$TMP/oct2")"
