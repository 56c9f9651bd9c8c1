# valgrind.sh — every command of `mototake help`, on a short input, under valgrind memcheck: no
# invalid access, no use of uninitialised memory, no definite leak (tests/valgrind.supp holds
# fontconfig's cache). A command listed by `mototake help` with no line below fails the test,
# so a new command must be given one. (Not in the ASan pass: valgrind runs only the plain build.)
case $MT in *_asan) skip valgrind "valgrind runs only the plain build, not $MT"; return 0 2>/dev/null || exit 0;; esac
V="$TMP/vg"; mkdir -p "$V"
# valgrind must be able to run the program at all: on some virtual machines the CPU executes
# RDTSCP but its CPUID does not advertise it, and valgrind 3.19 then stops every program linked
# with libhwy (FFmpeg -> libjxl) at its start with SIGILL, inside that system library, before any
# code of ours runs. Such a machine cannot run these checks: each is counted as skipped, never as
# passed. An illegal instruction anywhere else (in our code) is still a failure below.
valgrind -q --log-file="$V/probe" "$MT" version > /dev/null 2>&1 < /dev/null
if grep -q 'Illegal opcode' "$V/probe" && sed -n '/Illegal opcode/{n;p;q}' "$V/probe" | grep -q 'in /usr/lib/'; then
  why="valgrind $(valgrind --version | sed 's/valgrind-//') cannot run programs here: $(sed -n '/Illegal opcode/{n;p;q}' "$V/probe" | sed 's/^==[0-9]*== *//')"
  # shellcheck disable=SC2046
  skip_each "$why" $(sed -n 's/^\(LINES="\)\{0,1\}\([a-z -]*\)|.*/valgrind_\2/p' "$0" | tr ' -' '__') valgrind_serve
  return 0 2>/dev/null || exit 0
fi
cat > "$V/short.lua" <<'LUA'
return { rig = "sport1000", track = "straight", start = { station = 50, speed = 20 }, duration = 0.3,
  rider = { line = "centre", speed = 20 } }
LUA
"$MT" run "$V/short.lua" -o "$V/s.take" --quiet > /dev/null 2>&1 || bad valgrind_setup "cannot record a take"
echo '[[0, "grab", 300, 200], [20, "move", 290, 180], [150, "shift", 1, 0], [250, "restart", 0, 0]]' > "$V/ride.json"
# NAME|ARGS (NAME as `mototake help` lists it)
LINES="help|help
version|version
track info|track info laguna_seca
track plan|track plan straight -o $V/p.png --size 200x150
tyre|tyre sport1000 --wheel rear --fz 1500 --kappa 0.05 --alpha 0.02 --camber 0.3
plot tyre|plot tyre sport1000 -o $V/t.png --size 200x150
plot engine|plot engine engine_gsxr1000 -o $V/e.png --size 200x150
engine|engine engine_gsxr1000 --rpm 9000 --throttle 1
rig info|rig info sport1000
rig draw|rig draw sport1000 -o $V/r.png --size 200x150
trim|trim sport1000 --speed 20 --lean 20
modes|modes sport1000 --speed 20 --max-hz 5
bode|bode sport1000 --speed 20 --input steer_torque --output steer_angle --points 20 -o $V/b.png --json
modes|modes sport1000 --speeds 20:30:10 -o $V/l.png --json
spectrum|spectrum $V/s.take --channel steer_rate -o $V/sp.png
run|run $V/short.lua -o $V/r.take --quiet
ride|ride --events $V/ride.json --duration 0.3 --track straight --start 50 -o $V/ride.take
take info|take info $V/s.take
take verify|take verify $V/s.take
take channels|take channels $V/s.take -o $V/s.csv --rate 100
take cut|take cut $V/s.take --from 0 --to 0.2 -o $V/c.take
take band|take band $V/s.take
take shifts|take shifts $V/s.take
export|export $V/s.take -o $V/s.gltf --fps 10
export armature|export $V/s.take -o $V/s.fbx --fps 10 --armature
export bvh|export $V/s.take -o $V/s.bvh --fps 10
export-demo|export-demo -o $V/d.glb --fps 10
blender-addon|blender-addon -o $V/a.zip
lapsim|lapsim sport1000 skidpad50 --json
render|render $V/s.take -o $V/f.png --at 0.1 --size 320x180 --view grid
slip|slip $V/s.take --truth-only --json -o $V/sl.png --size 320x240 --csv $V/sl.csv
take channels|take channels $V/s.take -o $V/sh.csv --rate 100 --simhub
sweep|sweep $V/short.lua --vary payload.mass=0:10:2 --jobs 2 -o $V/sw
sweep index|sweep index $V/sw
sweep report|sweep report $V/sw -o $V/sw.png --size 320x200"
"$MT" help | sed -n 's/^  \([a-z-]*\( [a-z-]*\)\?\)  .*/\1/p' | sed 's/ *$//' > "$V/commands"
while read -r c; do
  printf '%s\nserve|(below)\n' "$LINES" | grep -q "^$c|" || bad "valgrind_covers_$(echo "$c" | tr ' -' '__')" "no valgrind line for '$c' in tests/cli/valgrind.sh"
done < "$V/commands"
# make test runs the lines named in VG_LEAN (serve too if named there): under valgrind each command costs 10-25 s
# on the 2-core machine (9 s of it loading the program), all of them 839 s, past CI's 30 minutes
# (eleven of them took 256 s). The lean set is the numeric core, where uninitialised values hide
# from ASan: the simulation and the take writer (run), the linearisation (modes: valgrind found a
# free of an uninitialised pointer there) and the lap simulation. `make valgrind` (VALGRIND_ALL=1)
# runs every line; the others are printed as skipped here, never as passed.
VG_LEAN=${VG_LEAN:-"run|modes|lapsim"}
echo "$LINES" | while IFS='|' read -r name args; do
  n=$(echo "$name" | tr ' -' '__')
  if [ "${VALGRIND_ALL:-0}" != 1 ] && ! echo "|$VG_LEAN|" | grep -q "|$name|"; then
    skip "valgrind_$n" "make valgrind runs it (make test runs the lines of VG_LEAN: CI's 30 minutes)"
    continue
  fi
  # shellcheck disable=SC2086
  valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --suppressions="$ROOT/tests/valgrind.supp" --log-file="$V/log" "$MT" $args > /dev/null 2> "$V/err" < /dev/null
  rc=$?
  if [ $rc = 0 ]; then ok "valgrind_$n"
  else bad "valgrind_$n" "exit $rc: $(grep -m2 -E 'Invalid|uninitialised|definitely|Syscall' "$V/log" | tr '\n' ' ') $(head -c 200 "$V/err")"; fi
done

if [ "${VALGRIND_ALL:-0}" != 1 ] && ! echo "|$VG_LEAN|" | grep -q "|serve|"; then
  skip valgrind_serve "make valgrind runs it (make test runs the lines of VG_LEAN: CI's 30 minutes)"
  return 0 2>/dev/null || exit 0
fi
# serve runs until stopped: start it under valgrind, make requests (a listing, a take's detail,
# CSV, parameters, a refused traversal, an oversized body), stop it with SIGTERM: exit 0, clean.
VP=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$V/root"; cp "$V/s.take" "$V/root/s.take"
valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
  --suppressions="$ROOT/tests/valgrind.supp" --log-file="$V/slog" "$MT" serve --port "$VP" --root "$V/root" > "$V/sout" 2> "$V/serr" < /dev/null &
VPID=$!
i=0; VT=""
while [ $i -lt 300 ] && [ -z "$VT" ]; do VT=$(sed -n 's/.*?token=\([0-9a-f]*\).*/\1/p' "$V/sout"); sleep 0.1; i=$((i + 1)); done
VB="http://127.0.0.1:$VP"
head -c 70000 /dev/zero > "$V/big"
for u in "api/takes" "api/take/info?path=s.take" "api/take/data?path=s.take&channels=speed&rate=100" \
         "api/rig/params?rig=sport1000&set=rear_shock.k=40000" "api/take/info?path=../s.take" "index.html"; do
  curl -s -o /dev/null "$VB/$u$(case $u in *\?*) echo '&';; *) echo '?';; esac)token=$VT"
done
curl -s -o /dev/null -X POST --data-binary @"$V/big" "$VB/api/run?token=$VT"
kill -TERM $VPID; wait $VPID; rc=$?
if [ -n "$VT" ] && [ $rc = 0 ]; then ok valgrind_serve
else bad valgrind_serve "exit $rc: $(grep -m2 -E 'Invalid|uninitialised|definitely|Syscall' "$V/slog" | tr '\n' ' ') $(head -c 200 "$V/serr")"; fi
