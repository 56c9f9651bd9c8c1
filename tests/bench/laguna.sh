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
rm -rf "$T"
