#!/bin/sh
# export.sh — exporter speed and size: a 60 s ride of 12 bodies at 1 kHz (the demo ride) to
# GLB at 30 and 60 fps, with and without key reduction, and to FBX. Prints one line each:
# export time (ex_export only, not building the motion), file size, keys before/after.
cd "$(dirname "$0")/../.." || exit 1
OUT=$(mktemp -d /tmp/mototake-bench-XXXXXX)
trap 'rm -rf "$OUT"' EXIT
echo "== export: 60 s, 12 bodies, 1 kHz (60001 poses each)"
printf '%-34s %8s %10s %8s %8s %8s\n' case seconds bytes frames keys kept
for c in "30.glb --fps 30" "60.glb --fps 60" "30r.glb --fps 30 --reduce 0.001" "60r.glb --fps 60 --reduce 0.001" \
         "30.gltf --fps 30" "30.fbx --fps 30" "30r.fbx --fps 30 --reduce 0.001"; do
  set -- $c
  f=$1; shift
  if ! bin/mototake export-demo -o "$OUT/$f" --duration 60 --bench --json "$@" > "$OUT/r.json" 2> "$OUT/err"; then
    echo "export $f $*: failed: $(cat "$OUT/err")"; continue; fi
  v() { sed -n "s/.*\"$1\": \([0-9.e+-]*\).*/\1/p" "$OUT/r.json"; }
  printf '%-34s %8.3f %10d %8d %8d %8d\n' "$f $*" "$(v seconds)" "$(v bytes)" "$(v frames)" "$(v keys_before)" "$(v keys_after)"
done
# the same in-process (tests/bench/bench_export.c), GLB only
[ -x bin/mt_bench ] && bin/mt_bench export
