#!/bin/sh
# chase.sh — the chase view's drawing speed (render/chase.c, tests/bench/bench_chase.c): frames/s
# of chase_draw alone per camera of rigs/cameras.lua at 1280×720 and 1920×1080, over a lap take.
cd "$(dirname "$0")/../.." || exit 1
OUT=$(mktemp -d /tmp/mototake-bench-XXXXXX)
trap 'rm -rf "$OUT"' EXIT
echo "== chase view: chase_draw per camera, 120 frames spread over the Laguna Seca lap"
if ! bin/mototake run takes/laguna_lap.lua -o "$OUT/lap.take" > "$OUT/log" 2>&1; then
  echo "chase: the lap take failed: $(tail -1 "$OUT/log")"; exit 0; fi
MT_CHASE_TAKE="$OUT/lap.take" bin/mt_bench chase
