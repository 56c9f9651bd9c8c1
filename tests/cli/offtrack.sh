# offtrack.sh — leaving the track and falling are not silent (issue 34): the surfaces beyond the
# tarmac (docs/tracks.md "Beyond the tarmac") carry the tyres with their own rolling resistance and
# grip, the take records "off track" with time and place, run's summary and take info say so, a
# ride's R puts the machine back on the track (a "recover" event that take verify re-rides), and the
# ride window shows a banner (under Xvfb). A few seconds of simulated riding in all.
TOOLS="$ROOT/tests/cli/ride_tools.py"

csvcheck() {   # $1 the CSV (channels by name), the Python check on stdin
  python3 -c '
import csv, math, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]; R = [dict(zip(h, map(float, r))) for r in rows[2:]]
exec(sys.stdin.read())' "$1"
}

#---- the track's surfaces: validated, refused alike by every command ----
cat > "$TMP/bad.lua" <<'EOF'
return {
  name = "bad verge",
  segments = { { 300, 6, 6, 0, 0, 0 } },
  surfaces = { grass = { width = 8, grip = 0 } },
}
EOF
cat > "$TMP/bad_take.lua" <<EOF
return { rig = "sport1000", track = "$TMP/bad.lua", start = { station = 50, speed = 20 }, duration = 1 }
EOF
want="bad.lua:4: surface grass: field 'grip': must be within \(0, 1.5\], got 0"
expect_error offtrack_bad_surface_info "$want" "$MT" track info "$TMP/bad.lua"
expect_error offtrack_bad_surface_run "$want" "$MT" run "$TMP/bad_take.lua" -o "$TMP/x.take"
expect_error offtrack_bad_surface_ride "$want" "$MT" ride --track "$TMP/bad.lua" -o "$TMP/x.take" --events /dev/null
[ ! -e "$TMP/x.take" ] && ok offtrack_bad_surface_writes_nothing || bad offtrack_bad_surface_writes_nothing "x.take exists"
expect_exit offtrack_track_info 0 "$MT" track info straight
expect_match offtrack_track_info_surfaces 'beyond the edge kerb 1.0 m \(grip 0.90, rolling 0.020\) where listed, 0 kerbs; grass 10.0 m \(grip 0.50, rolling 0.080\); gravel beyond \(grip 0.45, rolling 0.300\)' "$TMP/out"

#---- a scripted take onto the grass of the straight (edge at 6 m) ----
cat > "$TMP/grass.lua" <<'EOF'
-- the rider's line jumps to 11 m left at 0.5 s: the machine crosses the edge at about 2.8 s
return {
  rig = "sport1000",
  track = "straight",
  start = { station = 50, offset = 4, speed = 20 },
  duration = 3.2,
  rider = { line = "centre", speed = 20 },
  events = { { at = 0.5, set = { ["rider.offset"] = 11 } } },
}
EOF
expect_exit offtrack_run 0 "$MT" run "$TMP/grass.lua" -o "$TMP/g.take"
expect_match offtrack_run_summary '^  off track 1 time: first at t = 2\.[0-9]+ s, station [0-9]+ m, offset \+6\.[0-9] m \(grass\)' "$TMP/out"
expect_exit offtrack_info 0 "$MT" take info "$TMP/g.take"
cp "$TMP/out" "$TMP/ginfo"
expect_match offtrack_info_incidents '^  incidents +off track at 2\.[0-9]+ s \(station [0-9]+ m, grass\)$' "$TMP/ginfo"
expect_match offtrack_info_mark '"label":"off track","time":2\.[0-9]+,"station":[0-9.]+,"offset":6\.[0-9]+,"front":"grass","rear":"grass"' "$TMP/ginfo"
expect_exit offtrack_verify 0 "$MT" take verify "$TMP/g.take"
expect_match offtrack_verify_bit_exact 'bit-exact' "$TMP/out"
# on the grass the tyres still carry the machine (before: no load, μ 0.00, the wheels under the
# road) and roll with the grass's resistance: the free-rolling front's fx/Fz is the surface's
# rolling coefficient, 0.08, against the tyre's own 0.015 on the tarmac
t_off=$(sed -n 's/.*"label":"off track","time":\([0-9.]*\).*/\1/p' "$TMP/ginfo" | head -1)
"$MT" take channels "$TMP/g.take" -o "$TMP/g.csv" --channels front_load,rear_load,front_fx,front_fy,rear_fx,rear_fy,front_contact,rear_contact > /dev/null
if T_OFF=${t_off:-99} csvcheck "$TMP/g.csv" > "$TMP/chk" 2>&1 <<'EOF'
import os
t0 = float(os.environ["T_OFF"])
g = [r for r in R if r["time"] > t0 + 0.02]
a = [r for r in R if r["time"] < 0.5]
mu = lambda r, w: math.hypot(r[w + "_fx"], r[w + "_fy"]) / r[w + "_load"]
bad = []
if len(g) < 100: bad.append("only %d rows on the grass" % len(g))
else:
  lo = min(min(r["front_load"], r["rear_load"]) for r in g)
  if lo < 300 or any(r["front_contact"] != 1 or r["rear_contact"] != 1 for r in g): bad.append("a wheel off the ground on the grass (least load %.0f N)" % lo)
  else:
    rg = sum(-r["front_fx"] / r["front_load"] for r in g) / len(g); ra = sum(-r["front_fx"] / r["front_load"] for r in a) / len(a)
    if not (0.07 < rg < 0.09 and 0.012 < ra < 0.02): bad.append("front fx/Fz %.4f on the grass, %.4f on the tarmac" % (rg, ra))
print("; ".join(bad) if bad else "%d rows on the grass: least load %.0f N, front/rear mu %.2f/%.2f at the end, front fx/Fz %.3f (tarmac %.3f)" % (len(g), lo, mu(g[-1], "front"), mu(g[-1], "rear"), rg, ra))
sys.exit(1 if bad else 0)
EOF
then ok "offtrack_grass_telemetry: $(cat "$TMP/chk")"; else bad offtrack_grass_telemetry "$(cat "$TMP/chk")"; fi

# the grass's grip scales the tyres' peak friction: on a verge of grip 0.05 the rider, turning back
# at 2.9 s, gets no more than about 0.05 × the tyres' peak (1.3–1.5) from either tyre
sed -e "s|track = \"straight\"|track = \"$TMP/slick.lua\"|" -e 's/duration = 3.2/duration = 3.5/' \
    -e 's/events = { \(.*\) },$/events = { \1, { at = 2.9, set = { ["rider.offset"] = 0 } } },/' "$TMP/grass.lua" > "$TMP/slick_take.lua"
cat > "$TMP/slick.lua" <<'EOF'
return { name = "slick verge", segments = { { 600, 6, 6, 0, 0, 0 } }, surfaces = { grass = { grip = 0.05 } } }
EOF
expect_exit offtrack_slick_run 0 "$MT" run "$TMP/slick_take.lua" -o "$TMP/s.take" --quiet
"$MT" take channels "$TMP/s.take" -o "$TMP/s.csv" --channels offset,lean,front_load,rear_load,front_fx,front_fy,rear_fx,rear_fy > /dev/null
if csvcheck "$TMP/s.csv" > "$TMP/chk" 2>&1 <<'EOF'
g = [r for r in R if r["time"] > 2.95]
mu = max(math.hypot(r[w + "_fx"], r[w + "_fy"]) / r[w + "_load"] if r[w + "_load"] > 0 else 0 for r in g for w in ("front", "rear"))
if min(min(r["front_load"], r["rear_load"]) for r in g) < 300: print("a wheel off the ground on the verge"); sys.exit(1)
lean = max(abs(r["lean"]) for r in g)
print("largest tyre mu on the 0.05 verge %.3f (asked for a %.0f deg lean)" % (mu, lean)); sys.exit(not (len(g) > 400 and mu < 0.1 and lean > 15))
EOF
then ok "offtrack_grass_grip: $(cat "$TMP/chk")"; else bad offtrack_grass_grip "$(cat "$TMP/chk")"; fi

#---- a ride: off the track, then R puts it back (without a window: a list of events) ----
cat > "$TMP/bend.lua" <<'EOF'
-- a narrow left-hand circle (radius 60 m, tarmac 1.5 m each side of the centre line): a machine
-- ridden upright with no bar torque runs straight on and leaves it on the right within a second
return {
  name = "narrow bend",
  closed = true,
  segments = { { length = 2 * math.pi * 60, left_half_width = 1.5, right_half_width = 1.5,
                 curvature = 1 / 60, slope = 0, superelevation = 0 } },
}
EOF
echo '[[0, "axis", 0, 0], [1500, "recover", 5, 0]]' > "$TMP/rec.json"
expect_exit offtrack_ride_events 0 "$MT" ride --track "$TMP/bend.lua" --start 0 --speed 15 --events "$TMP/rec.json" --duration 2.2 -o "$TMP/r.take"
expect_match offtrack_ride_summary '^  off track 1 time: first at t = 0\.[0-9]+ s, station [0-9]+ m, offset -1\.[0-9] m \(grass\)' "$TMP/out"
expect_match offtrack_ride_summary_back '^  put back on the track 1 time \(R\)' "$TMP/out"
expect_exit offtrack_ride_verify 0 "$MT" take verify "$TMP/r.take"
expect_match offtrack_ride_verify_bit_exact 'bit-exact: 2199 steps' "$TMP/out"
"$MT" take info "$TMP/r.take" > "$TMP/info" 2>&1
expect_match offtrack_ride_info 'incidents +off track at 0\.[0-9]+ s \(station [0-9]+ m, grass\); restarted at 1\.50 s at station 5 m' "$TMP/info"
"$MT" take channels "$TMP/r.take" -o "$TMP/r.csv" --channels station,offset,lean,speed > /dev/null
if csvcheck "$TMP/r.csv" > "$TMP/chk" 2>&1 <<'EOF'
# the rows of the steps before and after the recover event; the frame (whose station the channel
# gives) stands as far ahead of station 5 as it stood ahead of the start's station 0
b, a = R[1499], R[1500]
ok = abs(b["offset"]) > 1.5 and abs(a["station"] - R[0]["station"] - 5) < 1e-3 and abs(a["offset"] - R[0]["offset"]) < 1e-4 and abs(a["lean"]) < 0.1 and abs(a["speed"] - 15) < 0.1
print("before: station %.2f offset %+.2f; after: station %.4f (start %.4f) offset %+.4f (start %+.4f) lean %+.3f speed %.2f" % (b["station"], b["offset"], a["station"], R[0]["station"], a["offset"], R[0]["offset"], a["lean"], a["speed"]))
sys.exit(not ok)
EOF
then ok "offtrack_ride_recover_place: $(cat "$TMP/chk")"; else bad offtrack_ride_recover_place "$(cat "$TMP/chk")"; fi

# a fall: the bars held pushed (full stick) until the machine is down; the take's "fell" mark, once
echo '[[0, "axis", 0, 1]]' > "$TMP/fall.json"
expect_exit offtrack_ride_fall 0 "$MT" ride --track straight --start 50 --speed 20 --events "$TMP/fall.json" --duration 5 -o "$TMP/f.take"
expect_match offtrack_ride_fall_summary '^  fell 1 time: first at t = 3\.[0-9]+ s$' "$TMP/out"
"$MT" take info "$TMP/f.take" > "$TMP/info" 2>&1
expect_match offtrack_ride_fall_info 'incidents +off track at 2\.[0-9]+ s \(station [0-9]+ m, grass\); fell at 3\.[0-9]+ s$' "$TMP/info"

#---- the ride window under Xvfb: the banner, R ----
if ! have Xvfb xdotool; then
  skip_each "Xvfb and xdotool are needed (tests/deps.sh)" offtrack_window_banner offtrack_window_recover offtrack_window_take \
    offtrack_window_fell_banner offtrack_window_fell_recover offtrack_window_fell_summary offtrack_window_fell_verify \
    offtrack_window_fell_bit_exact
  return 0 2> /dev/null || exit 0
fi
xvfb_start
waitlog() {   # REGEX [TENTHS]: wait until the ride's stderr shows it
  for i in $(seq "${2:-300}"); do grep -Eq "$1" "$TMP/rerr" && return 0; sleep 0.1; done; return 1
}
# ride_hands_on X RIDE-ARGS...: a ride in an 800x500 window (at most 90 s; its pid RPID, its
# window WID, its stderr $TMP/rerr), the hands put on at (X, 250)
ride_hands_on() {
  x=$1; shift
  : > "$TMP/rerr"
  timeout -s INT 90 "$MT" ride --size 800x500 "$@" > "$TMP/rout" 2> "$TMP/rerr" &
  RPID=$!
  waitlog 'window shown'
  WID=""
  for i in $(seq 100); do
    c=$(pgrep -P "$RPID" 2> /dev/null | head -1)
    [ -n "$c" ] && WID=$(xdotool search --onlyvisible --pid "$c" --name '^mototake ride$' 2> /dev/null | tail -1)
    [ -n "$WID" ] && break; sleep 0.1
  done
  for k in 1 2 3; do   # hands on (a click into a window just mapped is sometimes lost under load)
    xdotool mousemove --window "$WID" "$x" 250; sleep 0.3; xdotool click 2
    waitlog 'hands on at' 100 && break
  done
}
ride_hands_on 400 -o "$TMP/w.take" --track "$TMP/bend.lua" --start 0 --speed 15 --snapshot "$TMP/shot.png"
if waitlog 'banner OFF TRACK' 200; then
  sleep 0.3; xdotool key F12; waitlog 'snapshot' 50
  # the amber bar across the top of the views (10 %..90 % of the width), none of it elsewhere
  n=$(python3 "$TOOLS" pixels "$TMP/shot.png" 242 158 0 6 80 80 720 138)
  m=$(python3 "$TOOLS" pixels "$TMP/shot.png" 242 158 0 6 0 140 800 500)
  [ "$n" -gt 20000 ] && [ "$m" = 0 ] && ok "offtrack_window_banner ($n banner pixels; $(grep -m1 'banner OFF' "$TMP/rerr"))" \
    || bad offtrack_window_banner "$n amber pixels in the banner's box, $m below it"
  xdotool key r
  waitlog 'back on the track at station' 50 && waitlog 'banner none' 50 && ok "offtrack_window_recover ($(grep -m1 'back on the track' "$TMP/rerr"))" \
    || bad offtrack_window_recover "$(tail -3 "$TMP/rerr")"
else
  bad offtrack_window_banner "no banner within 20 s: $(tail -3 "$TMP/rerr")"
  bad offtrack_window_recover "no banner to act on"
fi
for i in 1 2 3 4 5; do kill -0 $RPID 2> /dev/null || break; xdotool key q; sleep 1; done
wait $RPID
"$MT" take verify "$TMP/w.take" > "$TMP/v" 2>&1; vrc=$?
n=$(python3 -c "
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
q = lambda w: c.execute('SELECT count(*) FROM events WHERE ' + w).fetchone()[0]
print(q(\"kind = 'input' AND json LIKE '%recover%'\"), q(\"kind = 'mark' AND json LIKE '%off track%'\"))" "$TMP/w.take" 2>&1)
set -- $n
[ $vrc = 0 ] && grep -q bit-exact "$TMP/v" && [ "${1:-0}" -ge 1 ] && [ "${2:-0}" -ge 1 ] && ok "offtrack_window_take ($1 recover, $2 off-track events; bit-exact)" \
  || bad offtrack_window_take "verify exit $vrc: $(head -c 200 "$TMP/v"); recover and off-track events: $n"

# down: on the straight at 8 m/s the bars pushed hard right (the band 320 px long) lay the machine
# down in about 3 s; the red FELL banner, R puts it back on the track and the ride goes on
ride_hands_on 300 -o "$TMP/wf.take" --track straight --start 50 --speed 8 --snapshot "$TMP/fshot.png"
xdotool mousemove --window "$WID" 620 250
if waitlog 'banner FELL' 150; then
  xdotool key F12; waitlog 'snapshot' 50
  n=$(python3 "$TOOLS" pixels "$TMP/fshot.png" 199 20 20 8 80 80 720 138)
  [ "$n" -gt 20000 ] && ok "offtrack_window_fell_banner ($n banner pixels; $(grep -m1 'banner FELL' "$TMP/rerr"))" \
    || bad offtrack_window_fell_banner "$n red pixels in the banner's box"
  xdotool key r
  waitlog 'banner none' 50 && ok "offtrack_window_fell_recover ($(grep -m1 'back on the track' "$TMP/rerr"))" \
    || bad offtrack_window_fell_recover "$(tail -3 "$TMP/rerr")"
else
  bad offtrack_window_fell_banner "no FELL banner within 15 s: $(tail -3 "$TMP/rerr")"
  bad offtrack_window_fell_recover "no banner to act on"
fi
for i in 1 2 3 4 5; do kill -0 $RPID 2> /dev/null || break; xdotool key q; sleep 1; done
wait $RPID
expect_match offtrack_window_fell_summary '^  fell 1 time: first at t = [0-9.]+ s$' "$TMP/rout"
expect_exit offtrack_window_fell_verify 0 "$MT" take verify "$TMP/wf.take"
expect_match offtrack_window_fell_bit_exact 'bit-exact' "$TMP/out"
kill $XPID 2> /dev/null; wait $XPID 2> /dev/null
