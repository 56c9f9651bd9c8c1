# engine.sh — `mototake engine` and `mototake plot engine`: readings, figures, and bad input
# (one located line on stderr, exit 2, no output file).

expect_exit engine_wot 0 "$MT" engine engine_gsxr1000 --rpm 9000 --throttle 1
expect_match engine_wot_torque 'brake torque +11[0-9]\.[0-9]+ N m' "$TMP/out"
expect_match engine_wot_subsonic 'subsonic throttle' "$TMP/out"
expect_exit engine_closed 0 "$MT" engine "$ROOT/rigs/engine_gsxr1000.lua" --rpm 6000 --throttle 0
expect_match engine_closed_brakes 'brake torque +-[0-9]+\.[0-9]+ N m' "$TMP/out"
expect_match engine_closed_choked 'choked throttle' "$TMP/out"
expect_exit engine_json 0 "$MT" engine engine_gsxr1000 --rpm 12000 --throttle 1 --json
expect_match engine_json_power '"power": 13[0-9]{4}\.' "$TMP/out"
expect_exit engine_bench 0 "$MT" engine engine_gsxr1000 --bench 1000
expect_match engine_bench_line 'evaluations/s' "$TMP/out"

# command-line errors
expect_error throttle_above_one "engine: --throttle: 1.5 is outside \[0, 1\]" "$MT" engine engine_gsxr1000 --rpm 5000 --throttle 1.5
expect_error throttle_negative "engine: --throttle: -0.1 is outside \[0, 1\]" "$MT" engine engine_gsxr1000 --rpm 5000 --throttle -0.1
expect_error throttle_nan "engine: --throttle: expected a finite number, got 'nan'" "$MT" engine engine_gsxr1000 --rpm 5000 --throttle nan
expect_error rpm_text "engine: --rpm: expected a finite number, got 'fast'" "$MT" engine engine_gsxr1000 --rpm fast --throttle 1
expect_error rpm_missing "engine: --rpm is required" "$MT" engine engine_gsxr1000 --throttle 1
expect_error rig_missing "no_such_rig.lua: cannot open" "$MT" engine no_such_rig.lua --rpm 5000 --throttle 1

# a good file, then one broken thing at a time (line numbers are asserted)
cat > "$TMP/good.lua" <<'LUA'
return {
  engine = {
    displacement = units.cc(999),
    cylinders = 4,
    inertia = 0.05,
    throttle_diameter = units.mm(44),
    volumetric = { 0.156, 1.6047e-3, -7.5498e-7, 1.0e-6 },
    thermal = { 0.28, 2.9709e-4, -1.5761e-7 },
    pumping = { 0.9e5, 0.9 },
    friction = { 4.0e4, 75.121, 0.028216 },
    idle_speed = units.rpm(1200),
    rev_limit = units.rpm(13500),
  },
  drivetrain = {
    primary = 1.553,
    gears = { 2.562, 2.052, 1.714, 1.500, 1.360, 1.269 },
    chain = { pitch = units.inch(5 / 8), teeth_output = 17, teeth_rear = 44,
              output_sprocket = { 0.615, 0, 0.365 }, rear_sprocket = { 0, 0, 0.297 } },
    clutch = { capacity = 180 },
    brakes = { front = 1600, rear = 600 },
  },
}
LUA
expect_exit good_file 0 "$MT" engine "$TMP/good.lua" --rpm 9000 --throttle 1

broken() {  # broken NAME SED-EXPRESSION: a copy of good.lua with one edit
  sed "$2" "$TMP/good.lua" > "$TMP/$1.lua"
}
broken nodisp '/displacement/d'
expect_error file_missing_field "nodisp.lua:2: engine: field 'displacement': missing" "$MT" engine "$TMP/nodisp.lua" --rpm 5000 --throttle 1
broken negdisp 's/units.cc(999)/-999e-6/'
expect_error file_negative_displacement "negdisp.lua:3: engine: field 'displacement': must be > 0" "$MT" engine "$TMP/negdisp.lua" --rpm 5000 --throttle 1
broken textdisp 's/units.cc(999)/"big"/'
expect_error file_non_numeric "textdisp.lua:3: engine: field 'displacement': expected a number, got string" "$MT" engine "$TMP/textdisp.lua" --rpm 5000 --throttle 1
broken nandisp 's/units.cc(999)/0\/0/'
expect_error file_nan "nandisp.lua:3: engine: field 'displacement': must be finite" "$MT" engine "$TMP/nandisp.lua" --rpm 5000 --throttle 1
broken badvol 's/1.6047e-3/"x"/'
expect_error file_map_element "badvol.lua:7: engine: field 'volumetric': element 2: expected a number, got string" "$MT" engine "$TMP/badvol.lua" --rpm 5000 --throttle 1
broken badgear 's/1.714/-1.714/'
expect_error file_gear_not_positive "badgear.lua:16: drivetrain: field 'gears': element 3: gear ratio must be > 0" "$MT" engine "$TMP/badgear.lua" --rpm 5000 --throttle 1
broken zerogear 's/2.562, /0, /'
expect_error file_gear_zero "zerogear.lua:16: drivetrain: field 'gears': element 1: gear ratio must be > 0" "$MT" engine "$TMP/zerogear.lua" --rpm 5000 --throttle 1
broken typo 's/rev_limit/revlimit/'
expect_error file_unknown_field "typo.lua:12: engine: field 'revlimit': unknown field" "$MT" engine "$TMP/typo.lua" --rpm 5000 --throttle 1
broken syntax 's/cylinders = 4,/cylinders = = 4,/'
expect_error file_syntax "syntax.lua:4:" "$MT" engine "$TMP/syntax.lua" --rpm 5000 --throttle 1
echo 'return 42' > "$TMP/number.lua"
expect_error file_not_table "number.lua: must return a table" "$MT" engine "$TMP/number.lua" --rpm 5000 --throttle 1

# figures
expect_exit plot_curves 0 "$MT" plot engine engine_gsxr1000 -o "$TMP/e.png"
if head -c 8 "$TMP/e.png" | od -An -c | grep -q 'P   N   G'; then ok plot_curves_png; else bad plot_curves_png "not a PNG"; fi
expect_exit plot_gears 0 "$MT" plot engine engine_gsxr1000 --kind gears -o "$TMP/g.png" --size 800x500
expect_exit plot_chain 0 "$MT" plot engine engine_gsxr1000 --kind chain -o "$TMP/c.png"
[ -s "$TMP/g.png" ] && [ -s "$TMP/c.png" ] && ok plot_files_written || bad plot_files_written "missing output"
expect_error plot_no_output "plot engine: -o FILE.png is required" "$MT" plot engine engine_gsxr1000
expect_error plot_bad_kind "plot engine: --kind: expected curves, gears or chain" "$MT" plot engine engine_gsxr1000 --kind torque -o "$TMP/x.png"
expect_error plot_bad_size "plot engine: --size" "$MT" plot engine engine_gsxr1000 --size 10x10 -o "$TMP/x.png"
expect_error plot_bad_file "badgear.lua:16:" "$MT" plot engine "$TMP/badgear.lua" -o "$TMP/bad.png"
[ ! -e "$TMP/bad.png" ] && [ ! -e "$TMP/x.png" ] && ok plot_no_partial_output || bad plot_no_partial_output "a file was written"
