# trim.sh — the steady-state solver from the command line: a high-lean turn connected to
# upright running, a sweep, the yaw-rate mode on a track, and one clear line when no turn exists.
expect_exit trim_15_50 0 "$MT" trim sport1000 --speed 15 --lean 50
expect_match trim_15_50_steer 'steer angle +-0\.0154 rad \(-0\.88 deg' "$TMP/out"
expect_match trim_15_50_slips 'slip angles +front 0\.133 deg, rear -1\.960 deg' "$TMP/out"
expect_match trim_15_50_steps 'solved in [0-9]+ iterations \([0-9]+ continuation steps from upright\)' "$TMP/out"
expect_exit trim_sweep 0 "$MT" trim sport1000 --speed 20 --lean 0:50:10
n=$(grep -c '^ *[0-9]' "$TMP/out")
[ "$n" = 6 ] && ok trim_sweep_rows || bad trim_sweep_rows "$n rows for 0:50:10 (want 6)"
expect_match trim_sweep_50 '^ +50\.00 +-44\.41 ' "$TMP/out"
expect_exit trim_sweep_json 0 "$MT" trim sport1000 --speed 30 --lean 10:20:10 --json
[ "$(grep -c '"slip_angle_rear_deg"' "$TMP/out")" = 2 ] && ok trim_sweep_json_rows || bad trim_sweep_json_rows "$(cat "$TMP/out")"
expect_exit trim_track 0 "$MT" trim sport1000 --speed 24 --track skidpad50 --station 10
expect_match trim_track_lean 'lean -57\.9[0-9] deg' "$TMP/out"
expect_match trim_track_radius 'turn radius +50\.00 m \(left\)' "$TMP/out"
expect_exit trim_radius 0 "$MT" trim sport1000 --speed 24 --radius 50
expect_match trim_radius_lean 'lean -57\.9[0-9] deg' "$TMP/out"
expect_error trim_no_turn_lean 'trim: no steady turn at 20\.00 m/s and 60\.0 deg of lean: the rear tyre saturates .* beyond 59\.[0-9] deg' \
  "$MT" trim sport1000 --speed 20 --lean 60
expect_error trim_no_turn_track 'trim: no steady turn at 28\.00 m/s on a 50\.0 m radius' \
  "$MT" trim sport1000 --speed 28 --track skidpad50 --station 10
expect_error trim_sweep_stops 'no steady turn at 15\.00 m/s and 60\.0 deg' "$MT" trim sport1000 --speed 15 --lean 50:60:5
expect_match trim_sweep_stops_rows '^ +55\.00 ' "$TMP/out"
expect_error trim_bad_range "trim: --lean: expected DEG or FROM:TO:STEP" "$MT" trim sport1000 --speed 20 --lean 0:50:0
expect_error trim_two_modes "trim: give one of --lean, --radius or --track" "$MT" trim sport1000 --speed 20 --lean 5 --radius 40
expect_error trim_station_alone "trim: --station needs --track" "$MT" trim sport1000 --speed 20 --station 5
expect_error trim_small_radius "trim: --radius: expected at least 1 m" "$MT" trim sport1000 --speed 20 --radius 0.5
expect_exit trim_help 0 "$MT" trim --help
expect_match trim_help_radius '--radius R' "$TMP/out"
# a take whose start has no steady turn: one line, exit 2, no blow-up at t = 0
cat > "$TMP/skid28.lua" <<'LUA'
return { rig = "sport1000", track = "skidpad50", duration = 1,
  start = { station = 10, speed = 28 }, rider = { line = "centre", speed = 28 } }
LUA
expect_error run_no_trim 'trim: no steady turn at 28\.00 m/s on a 50\.0 m radius' "$MT" run "$TMP/skid28.lua" -o "$TMP/s.take"
# the commands docs/vehicle.md shows
expect_exit doc_trim_sweep 0 "$MT" trim sport1000 --speed 20 --lean 0:50:10
expect_exit doc_trim_15_50 0 "$MT" trim sport1000 --speed 15 --lean 50
# below about 3.6 m/s first gear locked would turn the crank inside the idle governor's range, where
# a shut throttle still drives too hard: the trim slips the clutch and says so (engagement, slip)
expect_exit trim_slipping_clutch 0 "$MT" trim sport1000 --speed 3 --json
expect_match trim_slipping_clutch_json '"throttle":0,"gear":1,.*"clutch_slipping":true,"clutch_engagement":0\.0[0-9]+,"clutch_slip_rpm":[1-9][0-9]+' "$TMP/out"
# a turn tighter than the steering lock allows (2 m/s at 20 deg: 1.1 m radius) is refused, not
# "held" by the lock stop's spring (52.6 deg of steer against the 28 deg lock, 835 N·m)
expect_error trim_past_the_lock "the steering would be past its lock \([0-9.]+ deg; the lock is 28\.0 deg\)" "$MT" trim sport1000 --speed 2 --lean 20
# just above it the throttle sits a hair above the governor's floor (no longer a refusal)
expect_exit trim_above_governor_floor 0 "$MT" trim sport1000 --speed 4 --json
expect_match trim_above_governor_floor_json '"throttle":0\.00[1-9][0-9]*,"gear":1,' "$TMP/out"
expect_error trim_neutral 'no steady state at 3\.00 m/s in neutral: nothing drives against the drag' "$MT" trim sport1000 --speed 3 --gear 0
# the top speed is the rev limiter in sixth; at 80 m/s the turn's drag and rear slip reach it
expect_error trim_top_speed 'trim: 84\.00 m/s needs more than full throttle in gear 6 \([0-9]+ rpm, on the rev limiter\)' \
  "$MT" trim sport1000 --speed 84
expect_error trim_turn_rev_limit 'no steady turn at 80\.00 m/s and 35\.0 deg of lean: the engine runs out of throttle .*rev limiter.* beyond 34\.[0-9] deg' \
  "$MT" trim sport1000 --speed 80 --lean 35
