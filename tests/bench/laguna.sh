#!/bin/sh
# sport1000 on Laguna Seca at 1 kHz: the flying lap with the virtual rider, recorded into a take
# and not recorded (--dry-run); the bare vehicle's figure is in bin/mt_bench vehicle.
T=$(mktemp -d)
rtf() {   # rtf LABEL ARGS...: time a run, print simulated seconds per wall second
  label=$1; shift
  s=$(date +%s.%N)
  line=$(bin/mototake run takes/laguna_lap.lua "$@" 2>&1 | head -1)
  e=$(date +%s.%N)
  sim=$(echo "$line" | sed -n 's/.*: \([0-9.]*\) s simulated.*/\1/p')
  awk -v s="$s" -v e="$e" -v sim="$sim" -v l="$label" 'BEGIN { printf "sport1000 laguna 1 kHz, %s: %.0fx real time (%.1f s simulated in %.2f s, incl. setup)\n", l, sim / (e - s), sim, e - s }'
}
rtf "rider, not recorded" --dry-run
rtf "rider, recorded" -o "$T/lap.take"
bin/mototake take info "$T/lap.take" | grep 'file '
# riding quality of the same lap: the wobble-band steering (as ../shared/tools/steer_band.py)
# and what the gear changes did (docs/drivetrain.md, Gear changes)
echo "sport1000 laguna lap, $(bin/mototake take band "$T/lap.take")"
bin/mototake take shifts "$T/lap.take" | awk 'NR > 1 && $2 ~ /->/ { n++; if ($15 > a) a = $15; if ($14 > b) b = $14;
    if ($10 < s) s = $10; if ($11 > c) c = $11; if ($12 > j) j = $12; if (n == 1 || $9 < f) f = $9 }
  END { printf "sport1000 laguna lap, %d gear changes: 6-12 Hz steer RMS up to %.2f deg in the 0.5 s after a shift (%.2f before); front load >= %.0f N, rear slip >= %.3f, chain <= %.0f N, ax jump <= %.2f g\n", n, a, b, f, s, c, j }'
# the bar torque's ripple in the steady corners (tests/cli/ride_quality.py; needs numpy)
for PY in python3 /usr/bin/python3; do "$PY" -c 'import numpy' 2>/dev/null && break; done
echo "sport1000 laguna lap, $("$PY" tests/cli/ride_quality.py "$T/lap.take" 2>&1)"
rm -rf "$T"
