# python.sh — the take side of python/mototake (issue 35; docs/python.md): a take read through
# the package gives what the commands give. One Python process (tests/cli/python_take.py) makes
# every check against files the CLI wrote here: channels against `take channels` CSVs (full rate,
# resampled), the frame's pose against `export`'s glTF keys, events against `take info`, verify
# against `take verify`, Error's message against the CLI's stderr line for the same bad file, and
# the hostile-take corpus (tests/take_hostile.py) through the package: each take the commands
# refuse raises mototake.Error (code 2) with their line; never a crash, a hang or another kind of
# exception. In the sanitizer pass the package loads bin/libmototake_asan.so (pkg_python,
# lib.sh), so every library call these checks make runs under ASan/UBSan, the hostile corpus
# included. Python writes no __pycache__ under $ROOT (a job writes nothing there, tests/cli_job.sh).
if ! /usr/bin/python3 -c 'import numpy, pandas' 2> /dev/null; then
  skip python_take "python3 numpy/pandas missing (tests/deps.sh)"
else
  W="$TMP/w.take"
  # the recordings the hostile corpus is made from (as tests/cli/take_hostile.sh makes them)
  (cd "$TMP" && "$MT" run "$ROOT/takes/wobble.lua" -o "$W" --quiet &&
    "$MT" run "$ROOT/takes/wobble.lua" -o stored.take --store-channels --quiet &&
    "$MT" run "$ROOT/takes/wobble.lua" -o donor.take --store-channels --quiet --set bodies.steering.joints.steer.spring.c=0.6 &&
    echo '[[0, "grab", 500, 300], [1500, "move", 520, 300]]' > ride_ev.json &&
    "$MT" ride --events ride_ev.json --duration 4 -o ride.take --track straight --start 50 &&
    "$MT" run "$ROOT/takes/wheelie.lua" -o wheelie.take --quiet) > "$TMP/rec.out" 2>&1 || bad python_record "$(tail -c 300 "$TMP/rec.out")"
  /usr/bin/python3 "$ROOT/tests/take_hostile.py" "$W" "$TMP/corpus" "$TMP/stored.take" "$TMP/donor.take" "$TMP/ride.take" \
    "$TMP/wheelie.take" > "$TMP/gen.out" 2>&1 || bad python_corpus "$(head -c 300 "$TMP/gen.out")"
  # what the commands say about the good take
  "$MT" take channels "$W" -o "$TMP/full.csv" --quiet
  "$MT" take channels "$W" -o "$TMP/r100.csv" --rate 100 --from 1 --to 3.5 --channels speed,lean,steer_angle --quiet
  "$MT" take channels "$W" -o "$TMP/r300.csv" --rate 300 --from 0.5 --to 2.25 --channels steer_angle,roll_rate,time,speed --quiet
  "$MT" take info "$W" > "$TMP/info.txt"
  "$MT" take info "$W" --json > "$TMP/info.json"
  "$MT" take verify "$W" > "$TMP/verify.txt"
  "$MT" export "$W" -o "$TMP/gltf/w.gltf" --fps 50 --up z --no-track > /dev/null 2>&1 || { mkdir -p "$TMP/gltf" &&
    "$MT" export "$W" -o "$TMP/gltf/w.gltf" --fps 50 --up z --no-track > /dev/null 2>&1; }
  # the CLI's lines for bad arguments and for a few hostile takes, one per (file, command)
  "$MT" take channels "$W" -o "$TMP/x.csv" --channels sped 2> "$TMP/err_name.txt"
  "$MT" take channels "$W" -o "$TMP/x.csv" --rate 2000 2> "$TMP/err_rate.txt"
  "$MT" take channels "$W" -o "$TMP/x.csv" --rate 0 2> "$TMP/err_rate0.txt"
  "$MT" take channels "$W" -o "$TMP/x.csv" --from 4 --to 9 2> "$TMP/err_range.txt"
  : > "$TMP/cli_lines.txt"
  for c in overrides_unclosed:info rig_source_broken:info module_missing:info pose_chunk_present:channels \
           chunk_missing:verify input_cols_gap:verify; do
    n=${c%:*}; cmd=${c#*:}
    case $cmd in
      info) "$MT" take info "$TMP/corpus/$n.take" > /dev/null 2> "$TMP/e" ;;
      channels) "$MT" take channels "$TMP/corpus/$n.take" -o "$TMP/x.csv" --channels speed > /dev/null 2> "$TMP/e" ;;
      verify) "$MT" take verify "$TMP/corpus/$n.take" > /dev/null 2> "$TMP/e" ;;
    esac
    printf '%s|%s|%s\n' "$n" "$cmd" "$(cat "$TMP/e")" >> "$TMP/cli_lines.txt"
  done
  # a forged take verify finds diverging (exit 1): its stdout, for verify()'s message
  forged=$(awk -F'|' '$2 == "verify" && $3 == 1 { print $1; exit }' "$TMP/corpus/manifest.txt")
  "$MT" take verify "$TMP/corpus/$forged.take" > "$TMP/verify_forged.txt" 2>&1
  pkg_python "$ROOT/tests/cli/python_take.py" "$TMP" "$forged" > "$TMP/py.out" 2>&1
  rc=$?
  cat "$TMP/py.out" | grep -E '^(ok|FAIL|skip) '
  [ $rc = 0 ] || bad python_take_process "exit $rc (a crash, a hang or an uncaught exception): $(grep -vE '^(ok|FAIL|skip) ' "$TMP/py.out" | tail -c 400)"
fi
