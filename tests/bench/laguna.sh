#!/bin/sh
# sport1000 on Laguna Seca: the whole recorded ride (rider, recorder, take writer) and the bare
# vehicle (bin/mt_bench vehicle) — see docs/vehicle.md.
T=$(mktemp -d)
s=$(date +%s.%N)
line=$(bin/mototake run takes/laguna_lap.lua -o "$T/lap.take" 2>&1 | head -1)
e=$(date +%s.%N)
sim=$(echo "$line" | sed -n 's/.*: \([0-9.]*\) s simulated.*/\1/p')
awk -v s="$s" -v e="$e" -v sim="$sim" 'BEGIN { printf "sport1000 laguna 1 kHz, recorded take (rider, recorder, writer, incl. setup): %.0fx real time (%.1f s simulated in %.2f s)\n", sim / (e - s), sim, e - s }'
bin/mototake take info "$T/lap.take" | grep 'file '
rm -rf "$T"
