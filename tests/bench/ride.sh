#!/bin/sh
# ride.sh — the ride window's loop run headless under Xvfb (app/ride_win.c, --bench): hands on at
# the window's centre, xdotool moving the pointer 10 times a second (a small band up: throttle, and
# sideways), 10 s of wall time per size; prints the display rate, the real-time factor (physics at
# 1 kHz, never dropping a step) and the input latency from a poll of the events to the physics step
# that uses them (at most one frame).
cd "$(dirname "$0")/../.." || exit 1
echo "== ride window: mototake ride --bench 10 under Xvfb (chase view, Laguna Seca, 25 m/s start)"
if ! command -v Xvfb > /dev/null || ! command -v xdotool > /dev/null; then echo "ride: Xvfb and xdotool needed"; exit 0; fi
OUT=$(mktemp -d /tmp/mototake-bench-XXXXXX)
Xvfb -displayfd 3 -screen 0 1920x1200x24 -nolisten tcp 3> "$OUT/dpy" 2> /dev/null &
XPID=$!
trap 'kill $XPID 2> /dev/null; rm -rf "$OUT"' EXIT
for i in $(seq 50); do [ -s "$OUT/dpy" ] && break; sleep 0.1; done
DISPLAY=:$(head -1 "$OUT/dpy"); export DISPLAY
for size in 1024x640 1600x1000; do
  W=${size%x*}; H=${size#*x}
  bin/mototake ride --bench 10 --size "$size" -o "$OUT/b.take" > "$OUT/out" 2> "$OUT/err" &
  P=$!
  WID=""
  for i in $(seq 300); do grep -q 'window shown' "$OUT/err" && break; sleep 0.1; done
  for i in $(seq 300); do WID=$(xdotool search --onlyvisible --name '^mototake ride$' 2> /dev/null | head -1); [ -n "$WID" ] && break; sleep 0.1; done
  k=0
  while kill -0 $P 2> /dev/null; do
    [ -n "$WID" ] && xdotool mousemove --window "$WID" $((W / 2 + (k % 7) * 3 - 9)) $((H / 2 - 40 - (k % 5) * 4)) 2> /dev/null
    k=$((k + 1)); sleep 0.1
  done
  wait $P
  # the display line by its name: a ride that leaves the track prints its "off track" line first
  echo "ride $size: $(grep -m1 '^ *display ' "$OUT/out" | sed 's/^ *//')"
  grep -m1 '^ *off track ' "$OUT/out" | sed "s/^ */ride $size: /"
done
