#!/bin/sh
# sweep.sh — sweep throughput (docs/sweep.md): takes per minute of `mototake sweep` over a 6-point
# grid of takes/wobble.lua (6 s takes, each ridden and verified) with --jobs 1 and --jobs 2, and
# the speed-up of two processes over one; with the CPU seconds per take (user + system of all the
# sweep's processes) and the load average before, since other work on the cores lowers the speed-up.
cd "$(dirname "$0")/../.." || exit 1
OUT=$(mktemp -d /tmp/mototake-bench-XXXXXX)
trap 'rm -rf "$OUT"' EXIT
echo "== sweep: 6 takes of takes/wobble.lua (6 s simulated each, run + verify), steer damper 0.5..3 N*m*s/rad"
load=$(cut -d' ' -f1 /proc/loadavg)
for j in 1 2; do
  s=$(date +%s.%N)
  # `times` in the inner shell: its children's user and system time (the sweep and every take)
  if ! sh -c 'bin/mototake sweep takes/wobble.lua --vary bodies.steering.joints.steer.spring.c=0.5:3:6 --jobs '$j' \
      -o "$1" --quiet && times' sh "$OUT/j$j" > "$OUT/cpu$j" 2> "$OUT/err$j"; then
    echo "sweep --jobs $j: failed: $(tail -1 "$OUT/err$j")"; exit 0; fi
  e=$(date +%s.%N)
  cpu=$(tail -1 "$OUT/cpu$j" | awk '{ n = split($0, a, /[ ms]+/); t = 0; for (i = 1; i + 1 <= n; i += 2) if (a[i] != "") t += 60 * a[i] + a[i + 1]; print t }')
  ok=$(sqlite3 "$OUT/j$j/index.sqlite" "SELECT count(*) FROM points WHERE status = 'ok'")
  echo "$j $s $e $ok $cpu"
done > "$OUT/t"
awk '{ w[$1] = $3 - $2; n[$1] = $4; c[$1] = $5 }
  END { for (j = 1; j <= 2; j++) printf "sweep --jobs %d: %d takes in %.1f s wall: %.1f takes per minute (%.2f CPU s per take)\n", j, n[j], w[j], 60 * n[j] / w[j], c[j] / n[j];
        printf "sweep speed-up of --jobs 2 over --jobs 1: %.2fx (load average before: %s)\n", w[1] / w[2], load }' load="$load" "$OUT/t"
