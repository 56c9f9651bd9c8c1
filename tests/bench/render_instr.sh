#!/bin/sh
# The renderer's cost in instructions (issue 36, item 4), which no load on the machine moves:
# `mototake render` of the countersteering take with its captions and every overlay, 60 frames
# from 2.5 s, under callgrind, per view and size: the drawing (rr_draw, inclusive) and the
# encoder (every thread the process started: the sink's worker, BGRA→YUV and libx264's own
# threads) a frame, and (drawing + encoder) / encoder, the ratio the aim of 1.3 is about.
# MT_BENCH_INSTR_VIEWS (default grid,chase) and MT_BENCH_INSTR_SIZES (default 1280x720,1920x1080)
# choose the lines; each takes one to three minutes. Skipped without valgrind.
command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1 || {
  echo "render instructions: skipped (no valgrind)"
  exit 0
}
d=$(mktemp -d) || exit 0
trap 'rm -rf "$d"' EXIT
if ! bin/mototake run takes/countersteer.lua -o "$d/cs.take" --quiet; then
  echo "render instructions: the countersteering take did not run"
  exit 0
fi
for v in $(echo "${MT_BENCH_INSTR_VIEWS:-grid,chase}" | tr ',' ' '); do
  for z in $(echo "${MT_BENCH_INSTR_SIZES:-1280x720,1920x1080}" | tr ',' ' '); do
    valgrind --tool=callgrind --callgrind-out-file="$d/cg" bin/mototake render "$d/cs.take" -o "$d/out.mp4" --view "$v" \
      --size "$z" --from 2.5 --to 4.5 --captions takes/captions/countersteer.lua --overlays all --quiet >/dev/null 2>&1 || {
      echo "render instructions $v $z: the render failed under valgrind"
      continue
    }
    callgrind_annotate --inclusive=yes "$d/cg" 2>/dev/null | awk -v v="$v" -v z="$z" '
      /render\.c:rr_draw \[/ { gsub(",", "", $1); d = $1 }
      /pthread_create\.c:start_thread \[/ { gsub(",", "", $1); x = $1 }
      END {
        if (d > 0 && x > 0)
          printf "render instructions %-5s %-9s teach on : drawing %.2f M a frame, encoder %.2f M a frame: (drawing + encoder) / encoder %.3f (aim <= 1.3)\n", v, z, d / 60e6, x / 60e6, (d + x) / x
        else print "render instructions " v " " z ": no rr_draw or thread totals in the profile"
      }'
  done
done
