#!/bin/sh
# take recording, size and replay speed
T=$(mktemp -d)
out=$(bin/mototake run takes/wobble.lua -o "$T/w.take" 2>&1 | head -1)
echo "take record (wobble, 6 s): $out"
bin/mototake take info "$T/w.take" | grep 'file '
s=$(date +%s.%N); bin/mototake take verify "$T/w.take" > /dev/null; e=$(date +%s.%N)
echo "take verify: 6 s of take re-simulated in $(awk -v a="$s" -v b="$e" 'BEGIN{printf "%.3f", b - a}') s"
rm -rf "$T"
