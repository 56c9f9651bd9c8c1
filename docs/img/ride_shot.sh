#!/bin/sh
# ride_shot.sh — the screenshots of docs/ride.md: a ride under Xvfb driven by xdotool, F12 snapshots.
# Run from the project root after make: sh docs/img/ride_shot.sh
MT=${MT:-bin/mototake}
OUT=$(mktemp -d /tmp/mototake-shot-XXXXXX)
xvfb-run -a -s "-screen 0 1280x800x24" sh -c "
  $MT ride -o $OUT/s.take --snapshot $OUT/a.png --track laguna_seca --start 0 --speed 25 > /dev/null 2> $OUT/err &
  P=\$!
  for i in \$(seq 300); do grep -q 'window shown' $OUT/err && break; sleep 0.1; done
  for i in \$(seq 300); do W=\$(xdotool search --onlyvisible --name '^mototake ride\$' | head -1); [ -n \"\$W\" ] && break; sleep 0.1; done
  xdotool mousemove --window \$W 430 330; sleep 0.3; xdotool click 2
  for i in \$(seq 200); do grep -q 'the ride started' $OUT/err && break; sleep 0.1; done
  xdotool mousemove --window \$W 460 260; sleep 1.5
  xdotool key F12; sleep 0.5; cp $OUT/a.png docs/img/ride_band.png
  xdotool key 2; xdotool mousemove --window \$W 430 400; sleep 0.3
  xdotool key F12; sleep 0.5; cp $OUT/a.png docs/img/ride_brake_plan.png
  kill -INT \$P; wait \$P
"
rm -rf "$OUT"
