#!/bin/sh
# race.sh — the racing lap (takes/laguna_race.lua, the race profile) against the machine's own
# minimum lap on the same line (`mototake lapsim`, sim/lapsim.h), and the margins to its limits.
# Issue 31 asks for the lap within 3 % of the minimum (docs/takes.md, The racing lap). The racer
# practises first (rider.practice: whole dry rides; the practice line says how many).
out=$(bin/mototake run takes/laguna_race.lua --dry-run 2>&1)
echo "race laguna_race: $(echo "$out" | grep -o 'lap [0-9:.]*, minimum lap [0-9:.]* ([^)]*), [-+0-9.]* %\|end: [a-z ]*' | tr '\n' ' ')"
echo "race laguna_race, $(echo "$out" | sed -n 's/^  margins: //p')"
echo "race laguna_race, $(echo "$out" | sed -n 's/^  engine: //p')"
echo "race laguna_race, upshifts: $(echo "$out" | sed -n 's/^  upshifts: //p')"
echo "race laguna_race, steady turns: $(echo "$out" | sed -n 's/^  steady turns: //p')"
echo "race laguna_race, corners $(echo "$out" | sed -n 's/^  corners //p')"
echo "race laguna_race, practice: $(echo "$out" | sed -n 's/^  practice: //p')"
echo "race $(bin/mototake lapsim sport1000 laguna_seca | sed -n 's/^  peaks *//p' | sed 's/^/minimum lap peaks: /')"
