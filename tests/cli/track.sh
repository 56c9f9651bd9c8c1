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

# the dressing (kerbs, corner boards): one bad item at a time, named with its line and field
mkd() { printf '%s\n' "return {" "  name = 'dressed'," "  segments = { { 100, 5, 5, 0, 0, 0 } }," "  $2" "}" > "$TMP/$1.lua"; }
mkd kerb_ok "kerbs = { { from = 10, to = 20, side = 'left' } }, corners = { { at = 5, name = 'T1', title = 'First', side = 'right' } },"
expect_exit kerb_ok 0 "$MT" track info "$TMP/kerb_ok.lua"
mkd kerb_past "kerbs = { { from = 10, to = 20, side = 'left' }, { from = 90, to = 120, side = 'left' } },"
expect_error kerb_beyond_end "kerb_past.lua:4: kerb 2: field 'to': must be a station within the track, 0 to 100.0 m, got 120" "$MT" track info "$TMP/kerb_past.lua"
mkd kerb_back "kerbs = { { from = 50, to = 20, side = 'left' } },"
expect_error kerb_backwards "kerb_back.lua:4: kerb 1: field 'to': must be after from" "$MT" track info "$TMP/kerb_back.lua"
mkd kerb_side "kerbs = { { from = 10, to = 20, side = 'middle' } },"
expect_error kerb_bad_side "kerb_side.lua:4: kerb 1: field 'side': expected \"left\" or \"right\"" "$MT" track info "$TMP/kerb_side.lua"
mkd kerb_style "kerbs = { { from = 10, to = 20, side = 'left', style = 'sausage' } },"
expect_error kerb_bad_style "kerb_style.lua:4: kerb 1: field 'style': expected \"rumble\"" "$MT" track info "$TMP/kerb_style.lua"
mkd kerb_nan "kerbs = { { from = 0/0, to = 20, side = 'left' } },"
expect_error kerb_nan "kerb_nan.lua:4: kerb 1: field 'from': must be finite" "$MT" track info "$TMP/kerb_nan.lua"
mkd kerb_typo "kerbs = { { from = 10, to = 20, sde = 'left' } },"
expect_error kerb_unknown_field "kerb_typo.lua:4: kerb 1: field 'sde': unknown field" "$MT" track info "$TMP/kerb_typo.lua"
mkd kerbs_many "kerbs = (function() local t = {} for i = 1, 2000 do t[i] = { from = 1, to = 2, side = 'left' } end return t end)(),"
expect_error kerbs_too_many "kerbs_many.lua:4: field 'kerbs': at most 1024 entries, got 2000" "$MT" track info "$TMP/kerbs_many.lua"
mkd corner_name "corners = { { at = 5, name = 'T1\\\\n../x', side = 'left' } },"
expect_error corner_bad_name "corner_name.lua:4: corner 1: field 'name': character 3" "$MT" track info "$TMP/corner_name.lua"
mkd corner_long "corners = { { at = 5, name = 'T1', title = string.rep('x', 60), side = 'left' } },"
expect_error corner_long_title "corner_long.lua:4: corner 1: field 'title': must be 1 to 47 characters, got 60" "$MT" track info "$TMP/corner_long.lua"
mkd corner_at "corners = { { at = -1, name = 'T1', side = 'left' } },"
expect_error corner_bad_station "corner_at.lua:4: corner 1: field 'at': must be a station within the track" "$MT" track info "$TMP/corner_at.lua"
