#!/bin/sh
# sweep.sh — sweep throughput (docs/sweep.md): takes per minute of `mototake sweep` over a 6-point
# grid of takes/wobble.lua (6 s takes, each ridden and verified) with --jobs 1 and --jobs 2, and
# the speed-up of two processes over one. On a shared machine the figures vary run to run.
cd "$(dirname "$0")/../.." || exit 1
OUT=$(mktemp -d /tmp/mototake-bench-XXXXXX)
trap 'rm -rf "$OUT"' EXIT
echo "== sweep: 6 takes of takes/wobble.lua (6 s simulated each, run + verify), steer damper 0.5..3 N*m*s/rad"
load=$(cut -d' ' -f1 /proc/loadavg)
for j in 1 2; do
  s=$(date +%s.%N)
  if ! bin/mototake sweep takes/wobble.lua --vary bodies.steering.joints.steer.spring.c=0.5:3:6 --jobs $j \
      -o "$OUT/j$j" --quiet 2> "$OUT/err$j"; then
    echo "sweep --jobs $j: failed: $(tail -1 "$OUT/err$j")"; exit 0; fi
  e=$(date +%s.%N)
  ok=$(sqlite3 "$OUT/j$j/index.sqlite" "SELECT count(*) FROM points WHERE status = 'ok'")
  echo "$j $s $e $ok"
done > "$OUT/t"
awk '{ w[$1] = $3 - $2; n[$1] = $4 }
  END { for (j = 1; j <= 2; j++) printf "sweep --jobs %d: %d takes in %.1f s wall: %.1f takes per minute\n", j, n[j], w[j], 60 * n[j] / w[j];
        printf "sweep speed-up of --jobs 2 over --jobs 1: %.2fx (load average before: %s; other work on the cores lowers it)\n", w[1] / w[2], load }' load="$load" "$OUT/t"
