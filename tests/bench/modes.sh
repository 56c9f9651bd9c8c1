#!/bin/sh
# modes.sh — a 20-point steady-state series (20–210 km/h), every point trimmed and linearised, and
# a 12-point lateral-acceleration series at 216 km/h (issue 13: the 20 points in under 10 s).
t() { s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); awk -v a="$s" -v b="$e" 'BEGIN{printf "%.2f", b - a}'; }
echo "modes sweep, 20 speeds (trim + linearise + name): $(t bin/mototake modes sport1000 --speeds 20:210:10 --unit kmh --quiet) s"
echo "modes sweep, 12 lateral accelerations at 216 km/h: $(t bin/mototake modes sport1000 --speed 216 --unit kmh --ay 0:1.1:0.1 --quiet) s"
