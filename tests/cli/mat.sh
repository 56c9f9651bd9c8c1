# mat.sh — MATLAB .mat files (matio, base/matfile.h): `take channels -o X.mat` against the CSV of
# the same take and options, and a linearisation's NAME.mat against its M-file and JSON, loaded
# by GNU Octave (one start for every check: tests/cli/mat_check.m prints the ok/FAIL lines);
# hostile names, an unwritable path, a write that fails midway (the old file kept).
L=$TMP/lin.take
expect_exit mat_record 0 "$MT" run "$ROOT/takes/linear_200kph.lua" -o "$L" --quiet
# the same rows as CSV and .mat: full rate, all channels; resampled, a range, with --simhub
expect_exit mat_full 0 "$MT" take channels "$L" -o "$TMP/full.mat" --quiet
"$MT" take channels "$L" -o "$TMP/full.csv" --quiet
RATE="--rate 300 --from 0.2 --to 0.9 --channels time,speed,lean,steer_angle,front_fx --simhub"
expect_exit mat_rate 0 "$MT" take channels "$L" -o "$TMP/rate.mat" $RATE --quiet
"$MT" take channels "$L" -o "$TMP/rate.csv" $RATE --quiet
sqlite3 -separator "$(printf '\t')" "$L" "select key, value from meta" > "$TMP/meta.tsv"
"$MT" take info "$L" > "$TMP/info"
expect_match mat_lin_event_records_mat '"mfile":"Linear_200kph_Road_to_Steer.m","json":"Linear_200kph_Road_to_Steer.json","mat":"Linear_200kph_Road_to_Steer.mat"' "$TMP/info"

# hostile channel names (a take with stored channels, renamed): each becomes a MATLAB name, or,
# when two become the same name or one takes the file's own variable's name, the export is refused
H=$TMP/hostile/h.take
mkdir -p "$TMP/hostile"
"$MT" run "$ROOT/takes/linear_200kph.lua" -o "$H" --quiet --store-channels > /dev/null 2>&1
sqlite3 "$H" "update columns set name='front.fx' where stream='chan' and name='front_fx';
  update columns set name='2nd gear' where stream='chan' and name='gear';
  update columns set name='end' where stream='chan' and name='lap';
  update columns set name='units' where stream='chan' and name='lean';
  update columns set name='front_fx' where stream='chan' and name='rear_fx';
  insert into meta values ('a.b', 'one'); insert into meta values ('a_b', 'two')"
expect_error mat_name_collision_refused "h.take: channels 'front.fx' and 'front_fx' are both 'front_fx' as MATLAB names" \
  "$MT" take channels "$H" -o "$TMP/coll.mat" --channels "front.fx,speed,front_fx"
expect_error mat_own_name_refused "h.take: channel 'units' would be the .mat's own variable 'units'" \
  "$MT" take channels "$H" -o "$TMP/own.mat" --channels units
[ ! -e "$TMP/coll.mat" ] && [ ! -e "$TMP/own.mat" ] && ok mat_refused_writes_nothing || bad mat_refused_writes_nothing "$(ls "$TMP")"
expect_exit mat_hostile_names 0 "$MT" take channels "$H" -o "$TMP/names.mat" --channels "front.fx,2nd gear,end,speed" --rate 100
"$MT" take channels "$H" -o "$TMP/names.csv" --channels "front.fx,2nd gear,end,speed" --rate 100

# the output rule: an unwritable path; a write that fails midway (a file size limit: matio does
# not report it, the read-back does) keeps the old file whole and leaves no temporary
expect_error mat_unwritable "/nonexistent/dir/x.mat: cannot write" "$MT" take channels "$L" -o /nonexistent/dir/x.mat
echo "old content" > "$TMP/keep.mat"
(trap '' XFSZ; ulimit -f 64; "$MT" take channels "$L" -o "$TMP/keep.mat" > "$TMP/out" 2> "$TMP/err"); rc=$?
if [ $rc = 2 ] && [ "$(wc -l < "$TMP/err")" = 1 ] && grep -q "keep.mat: write failed (it does not read back" "$TMP/err"; then
  ok mat_short_write_refused
else bad mat_short_write_refused "exit $rc: $(head -c 300 "$TMP/err")"; fi
[ "$(cat "$TMP/keep.mat")" = "old content" ] && ok mat_short_write_keeps_old || bad mat_short_write_keeps_old "keep.mat changed"
ls "$TMP" | grep -q 'keep.mat.tmp' && bad mat_short_write_no_temp "$(ls "$TMP" | grep tmp)" || ok mat_short_write_no_temp

# --help says .mat (text only: the plain pass)
if plain_pass; then
  "$MT" take channels --help > "$TMP/h" 2>&1; "$MT" run --help >> "$TMP/h" 2>&1
  [ "$(grep -c '\.mat' "$TMP/h")" -ge 3 ] && ok mat_help_mentions_mat || bad mat_help_mentions_mat "$(grep -c '\.mat' "$TMP/h") lines name .mat"
fi

OCT_CHECKS="mat_full_variables mat_full_double_columns mat_full_time_exact mat_full_matches_csv mat_units_match_csv
  mat_meta_matches_take mat_rate_variables mat_rate_time_exact mat_rate_matches_csv mat_names_mapped mat_names_struct
  mat_names_match_csv mat_meta_keys_made_distinct mat_lin_abcd_match_mfile mat_lin_names_match_json mat_lin_eigenvalues_match_json
  mat_lin_operating_point_match_json mat_lin_speed_loop_time"
if have octave-cli; then
  (cd "$TMP" && octave-cli --no-gui --norc --quiet --eval "source('$ROOT/tests/cli/mat_check.m')" > "$TMP/oct.out" 2> "$TMP/oct.err")
  grep -E '^(ok|FAIL) ' "$TMP/oct.out"
  for c in $OCT_CHECKS; do
    grep -Eq "^(ok|FAIL) $c( |$|:)" "$TMP/oct.out" || bad "$c" "Octave printed no line for it: $(tail -3 "$TMP/oct.err")"
  done
else
  skip_each "octave-cli is not installed" $OCT_CHECKS
fi
