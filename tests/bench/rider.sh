#!/bin/sh
# rider.sh — the virtual rider: the skidpad sweep's pass count over the full range (both pads,
# 8 m/s to 90 % of the grip-limited speed √(μ_y·g·R), μ_y = 1.30 from the tyres, 2 m/s steps;
# each speed reached in 5 s from 2 m/s below, then 20 s within 1 m of the circle, no fall) and
# the laps' times and worst 1 s 6-12 Hz steer RMS. tests/unit/test_rider.c asserts the same sweep.
T=$(mktemp -d)
n=0; ok=0; failed=""
for pad in "skidpad100 100" "skidpad50 50"; do
  set -- $pad
  vmax=$(awk -v r="$2" 'BEGIN { printf "%d", 0.9 * sqrt(1.30 * 9.81 * r) }')
  v=8
  while [ "$v" -le "$vmax" ]; do
    cat > "$T/sk.lua" <<EOT
return { rig = "sport1000", track = "$1", start = { station = 0, speed = $((v - 2)), gear = -1 }, duration = 25,
  rider = { line = "centre", preview = 0.3, auto_gear = false, speed = { by = "time", points = { {0, $((v - 2))}, {5, $v} } } },
  events = { { when = function(c) return c.time > 5 and math.abs(c.offset) > 1 end, stop = "strayed more than 1 m" } } }
EOT
    n=$((n + 1))
    if bin/mototake run "$T/sk.lua" --dry-run 2>&1 | grep -q "end: duration reached"; then ok=$((ok + 1))
    else failed="$failed $1@$v"; fi
    v=$((v + 2))
  done
done
echo "rider skidpad sweep: $ok of $n speeds held${failed:+ (not held:$failed)}"
for lap in laguna_lap laguna_fast; do
  [ -f "takes/$lap.lua" ] || { echo "rider $lap: no such script"; continue; }
  bin/mototake run takes/$lap.lua -o "$T/$lap.take" > "$T/$lap.out" 2>&1
  # the lap's time and the wobble band: the worst 1 s window's 6-12 Hz steer RMS (mototake take band)
  echo "rider $lap: $(grep -o 'lap time [0-9:.]*\|end: [a-z ]*' "$T/$lap.out" | tr '\n' ' ')$(bin/mototake take band "$T/$lap.take" --limit 1 2>&1 | grep -o 'worst [0-9.]* deg')"
done
rm -rf "$T"
