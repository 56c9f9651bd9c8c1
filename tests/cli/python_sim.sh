# python_sim.sh — python/mototake's run, trim and modes (api/mtk_sim.c) give what the commands
# give: the same roots and names as `modes --json`, the same A, B, C, D as `modes --abcd` (bit
# for bit), the same dict as `trim --json`, the same take as `run` (states and channels equal,
# verified), and each refusal as the same one line with code 2, hostile rigs and scripts included
# (tests/cli/python_sim.py does the Python side in one process). In the sanitizer pass the
# package loads bin/libmototake_asan.so (pkg_python, tests/cli/lib.sh).
# modes --abcd (the CLI twin of Modes.A..D): one point of the open loop, written as .json or .m
expect_error pysim_cli_abcd_series "modes: --abcd needs one point \(--speed V\) of the open loop" \
  "$MT" modes sport1000 --speeds 10:20:5 --abcd "$TMP/s.json"
expect_error pysim_cli_abcd_ext "modes: --abcd $TMP/s\.txt: the model is written as \.json or \.m" \
  "$MT" modes sport1000 --speed 20 --abcd "$TMP/s.txt"
[ ! -e "$TMP/s.json" ] && [ ! -e "$TMP/s.txt" ] && ok pysim_cli_abcd_refused_writes_nothing ||
  bad pysim_cli_abcd_refused_writes_nothing "$(ls "$TMP")"
PY=/usr/bin/python3
H="$ROOT/tests/data/hostile"
# what the commands write for the inputs the Python side then gives the package
"$MT" modes sport1000 --speed 20 --lean 10 --json --abcd "$TMP/abcd.json" > "$TMP/modes.json" 2> "$TMP/modes.err" ||
  bad pysim_cli_modes "$(cat "$TMP/modes.err")"
"$MT" modes sport1000 --speed 30 --ay 0.3 --json > "$TMP/modes_ay.json" 2> "$TMP/modes_ay.err" ||
  bad pysim_cli_modes_ay "$(cat "$TMP/modes_ay.err")"
"$MT" trim sport1000 --speed 20 --lean 10 --json --set payload.mass=20 > "$TMP/trim.json" 2> "$TMP/trim.err" ||
  bad pysim_cli_trim "$(cat "$TMP/trim.err")"
"$MT" run "$ROOT/takes/wobble.lua" -o "$TMP/cli.take" --set payload.mass=20 --quiet 2> "$TMP/run.err" ||
  bad pysim_cli_run "$(cat "$TMP/run.err")"
printf 'return {\n  rig = "sport1000",\n  duration = 1 + {},\n}\n' > "$TMP/lua_error.lua"
printf 'return { rig = "sport1000", track = "straight", start = { station = 50, speed = 20 }, duration = 0.05, rider = false }\n' \
  > "$TMP/short.lua"
# each refusal's line (NAME.err), for the same call through the package
"$MT" run "$ROOT/takes/wobble.lua" -o "$TMP/e.take" --set no.such=1 --quiet 2> "$TMP/run_bad_override.err"
"$MT" run "$TMP/lua_error.lua" -o "$TMP/e.take" --quiet 2> "$TMP/run_lua_error.err"
"$MT" modes "$TMP/no_rig.lua" --speed 20 2> "$TMP/modes_missing_rig.err"
"$MT" trim "$TMP/no_rig.lua" --speed 20 2> "$TMP/trim_missing_rig.err"
"$MT" modes sport1000 --speed 200 2> "$TMP/modes_speed_range.err"
"$MT" modes sport1000 --speed 20 --lean 70 2> "$TMP/modes_lean_range.err"
"$MT" trim sport1000 --speed 20 --lean 99 2> "$TMP/trim_lean_range.err"
printf 'return { rig = "sport1000", track = "straight", start = { station = 50, speed = 20 }, duration = 0.05, rider = false,\n  linear = { outputs = { "no_such" } }, events = { { at = 0.01, linearise = "x" } } }\n' > "$TMP/bad_output.lua"
"$MT" run "$TMP/bad_output.lua" -o "$TMP/e.take" --quiet 2> "$TMP/modes_bad_output.err"
for f in index_error index_loop len_error pattern_q; do
  timeout 20 "$MT" modes "$H/$f.lua" --speed 20 > /dev/null 2> "$TMP/hostile_modes_$f.err"
done
timeout 20 "$MT" trim "$H/index_loop.lua" --speed 20 2> "$TMP/hostile_trim_index_loop.err"
for f in when_loop index_error; do
  timeout 20 "$MT" run "$H/$f.lua" -o "$TMP/h.take" --quiet 2> "$TMP/hostile_run_$f.err"
done
rm -f "$TMP/h.take"   # when_loop's, written in place: the package's run then starts as the command's did
pkg_python "$ROOT/tests/cli/python_sim.py" "$TMP" "$ROOT" > "$TMP/py.out" 2> "$TMP/py.err"
rc=$?
cat "$TMP/py.out"
[ $rc = 0 ] || bad pysim_process "python exited $rc: $(tail -c 400 "$TMP/py.err")"
# the library prints nothing (api/mototake.h): the process's only output is the checks' lines
if [ $rc = 0 ] && [ ! -s "$TMP/py.err" ] && ! grep -Evq '^(ok|FAIL) ' "$TMP/py.out"; then ok pysim_library_silent
else bad pysim_library_silent "$(grep -Ev '^(ok|FAIL) ' "$TMP/py.out" | head -c 200) $(head -c 200 "$TMP/py.err")"; fi
# the rig by name from another folder, without $MOTOTAKE_ROOT: found beside the library's bin/
# (in a Python process /proc/self/exe is python3), as the command finds it beside its own
(cd "$TMP" && unset MOTOTAKE_ROOT && pkg_python -c '
import json, mototake
print(json.dumps(mototake.trim("sport1000", speed=20, lean=10, overrides={"payload.mass": 20})))' > "$TMP/root.json" 2>&1)
if "$PY" -c 'import json, sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
     "$TMP/root.json" "$TMP/trim.json" 2> /dev/null; then ok pysim_root_by_library
else bad pysim_root_by_library "$(head -c 300 "$TMP/root.json")"; fi
