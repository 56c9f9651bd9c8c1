# track.sh — track commands and bad track files: one line, file:line, segment, field; exit 2.
expect_exit track_info 0 "$MT" track info laguna_seca
expect_match track_info_closed 'closure +gap [0-9.e-]+ m' "$TMP/out"
expect_exit track_info_json 0 "$MT" track info laguna_seca --json
expect_match track_info_json_len '"length_m":36[0-9][0-9]\.' "$TMP/out"
for t in straight skidpad50 skidpad100 figure8 test_loop sweeper; do
  expect_exit "track_info_$t" 0 "$MT" track info "$t"
done
expect_exit track_plan 0 "$MT" track plan laguna_seca -o "$TMP/laguna.png" --size 800x600
if head -c 8 "$TMP/laguna.png" | od -An -c | grep -q 'P   N   G'; then ok track_plan_png; else bad track_plan_png "not a PNG"; fi
expect_error plan_needs_o "track plan: -o FILE.png is required" "$MT" track plan laguna_seca
expect_error plan_bad_size "--size: expected WxH" "$MT" track plan laguna_seca -o "$TMP/x.png" --size huge
expect_error plan_unwritable "cannot write" "$MT" track plan laguna_seca -o /nonexistent/dir/x.png
[ ! -e /nonexistent/dir/x.png ] && ok plan_no_partial_file
expect_error track_missing "nosuch.lua: cannot open" "$MT" track info "$TMP/nosuch.lua"

# one bad segment at a time; the error names the file, the line, the segment and the field
mk() { printf '%s\n' "return {" "  name = 'bad'," "  segments = {" "    { 100, 5, 5, 0, 0, 0 }," "$2" "  }," "}" > "$TMP/$1.lua"; }
mk neglen "    { -5, 5, 5, 0, 0, 0 },"
expect_error negative_length "neglen.lua:5: segment 2: field 'length': must be > 0, got -5" "$MT" track info "$TMP/neglen.lua"
mk zerolen "    { 0, 5, 5, 0, 0, 0 },"
expect_error zero_length "zerolen.lua:5: segment 2: field 'length': must be > 0, got 0" "$MT" track info "$TMP/zerolen.lua"
mk zerow "    { 50, 0, 5, 0, 0, 0 },"
expect_error zero_half_width "zerow.lua:5: segment 2: field 'left_half_width': must be > 0" "$MT" track info "$TMP/zerow.lua"
mk negw "    { 50, 5, -2, 0, 0, 0 },"
expect_error negative_half_width "negw.lua:5: segment 2: field 'right_half_width': must be > 0" "$MT" track info "$TMP/negw.lua"
mk missing "    { 50, 5, 5, 0, 0 },"
expect_error missing_field "missing.lua:5: segment 2: field 'superelevation': missing" "$MT" track info "$TMP/missing.lua"
mk str "    { 50, 5, 5, 'tight', 0, 0 },"
expect_error string_for_number "str.lua:5: segment 2: field 'curvature': expected a number, got string" "$MT" track info "$TMP/str.lua"
mk nan "    { 50, 5, 5, 0, 0/0, 0 },"
expect_error nan_field "nan.lua:5: segment 2: field 'slope': must be finite" "$MT" track info "$TMP/nan.lua"
mk inf "    { length = math.huge, left_half_width = 5, right_half_width = 5, curvature = 0, slope = 0, superelevation = 0 },"
expect_error inf_field "inf.lua:5: segment 2: field 'length': must be finite" "$MT" track info "$TMP/inf.lua"
mk syntax "    { 50, 5 5, 0, 0, 0 },"
expect_error syntax_error "syntax.lua:5: .*expected" "$MT" track info "$TMP/syntax.lua"
mk runtime "    { 50, 5, 5, nosuch.field, 0, 0 },"
expect_error runtime_error "runtime.lua:5: attempt to index a nil value" "$MT" track info "$TMP/runtime.lua"
mk loop "    (function() while true do end end)(),"
expect_error endless_loop "loop.lua:5: script did not finish" "$MT" track info "$TMP/loop.lua"
printf 'return { name = "x", segments = {} }\n' > "$TMP/empty.lua"
expect_error no_segments "empty.lua:1: field 'segments': needs 1 to" "$MT" track info "$TMP/empty.lua"
