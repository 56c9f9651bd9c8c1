# progress.sh — the one progress bar (base/progress.h) of the long commands: on a terminal (a
# pseudo-terminal from util-linux `script`) each draws it to its end; in a pipe, and with --quiet
# on a terminal, nothing on stderr. The take: a 3 s run, then the same commands on a 2 s ride.
sed 's/^  duration = 40,/  duration = 3,/' "$ROOT/tests/data/ride_40s.lua" > "$TMP/r3.lua"
"$MT" run "$TMP/r3.lua" -o "$TMP/r.take" --quiet > /dev/null 2>&1 || bad progress_take "run failed"
# pty NAME CMD...: CMD on a pseudo-terminal; its merged stdout and stderr, \r as new lines, in
# $TMP/NAME.tty; its exit status in pty_rc
pty() {
  pty_n=$1; shift
  script -qec "$*" /dev/null < /dev/null > "$TMP/$pty_n.raw"; pty_rc=$?
  tr '\r' '\n' < "$TMP/$pty_n.raw" > "$TMP/$pty_n.tty"
}
# bar NAME LAST CMD...: a bar on a terminal ending in LAST; none in a pipe; none with --quiet
bar() {
  n=$1; last=$2; shift 2
  pty "$n" "$@"
  expect_match "progress_${n}_terminal" "^\[#{30}\] $last" "$TMP/$n.tty"
  "$@" > /dev/null 2> "$TMP/$n.err"
  [ ! -s "$TMP/$n.err" ] && ok "progress_${n}_pipe_silent" || bad "progress_${n}_pipe_silent" "$(head -c 200 "$TMP/$n.err")"
  pty "$n.q" "$@" --quiet
  if [ "$pty_rc" != 0 ]; then bad "progress_${n}_quiet" "exit $pty_rc: $(head -c 200 "$TMP/$n.q.tty")"
  elif grep -q '^\[[#.]*\]' "$TMP/$n.q.tty"; then bad "progress_${n}_quiet" "$(grep -m1 '^\[' "$TMP/$n.q.tty")"
  else ok "progress_${n}_quiet"; fi
}
if have script; then
  bar run ' +3\.0 / 3\.0 s  +[0-9]+x real time  ETA 0:00' "$MT" run "$TMP/r3.lua" -o "$TMP/r2.take"
  bar verify 'take verify  100%  ETA 0\.0 s' "$MT" take verify "$TMP/r.take"
  bar channels 'take channels  100%' "$MT" take channels "$TMP/r.take" -o "$TMP/r.csv"
  bar shifts 'take shifts  100%' "$MT" take shifts "$TMP/r.take"
  bar band 'take band  100%' "$MT" take band "$TMP/r.take"
  bar slip 'slip  100%' "$MT" slip "$TMP/r.take" --truth-only
  bar spectrum 'spectrum  100%' "$MT" spectrum "$TMP/r.take" --channel steer_angle
  bar lapsim 'lapsim  100%' "$MT" lapsim sport1000 laguna_seca
  bar export 'export  100%' "$MT" export "$TMP/r.take" -o "$TMP/r.glb"
  bar export_bvh 'export  100%' "$MT" export "$TMP/r.take" -o "$TMP/r.bvh"
  bar ride_events ' +2\.0 / 2\.0 s  +[0-9]+x real time  ETA 0:00' "$MT" ride --events "$ROOT/takes/ride_throttle60.json" --duration 2 --track straight --start 50 --speed 38.89 --gear 3 -o "$TMP/re.take"
  # each of the export's stages named on the way, in order
  if grep -o 'export: [a-zA-Z ,]*' "$TMP/export.tty" | sed 's/ *$//' | uniq | tr '\n' '|' |
     grep -qx 'export: rebuilding the rig and the track|export: reading the poses|export: the set and the metadata|export: sampling the keys|export: building the scene|export: encoding the glTF|'
  then ok progress_export_stages; else bad progress_export_stages "$(grep -o 'export: [a-zA-Z ,]*' "$TMP/export.tty" | uniq | tr '\n' '|')"; fi
  # the bar is on stderr: the CSV and the reports are as without it
  "$MT" take channels "$TMP/r.take" -o "$TMP/p.csv" --quiet
  cmp -s "$TMP/r.csv" "$TMP/p.csv" && ok progress_channels_same_csv || bad progress_channels_same_csv "the CSV differs with the bar"
  "$MT" export "$TMP/r.take" -o "$TMP/q.glb" --quiet > /dev/null
  cmp -s "$TMP/r.glb" "$TMP/q.glb" && ok progress_export_same_glb || bad progress_export_same_glb "the GLB differs with the bar"
else
  for c in run verify channels shifts band slip spectrum lapsim export export_bvh ride_events; do
    skip_each "no util-linux script (a pseudo-terminal) here" "progress_${c}_terminal" "progress_${c}_pipe_silent" "progress_${c}_quiet"
  done
  skip_each "no util-linux script here" progress_channels_same_csv progress_export_stages progress_export_same_glb
fi
