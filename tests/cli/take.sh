# take.sh — record, describe, verify, export channels, cut; damaged and foreign files; kill -9.
T="$TMP/w.take"
expect_exit run_wobble 0 "$MT" run "$ROOT/takes/wobble.lua" -o "$T" --quiet
# a finished take has no -journal beside it (the journal kept while recording goes at the close),
# and is written with 8 KiB pages (fewer page writes per chunk than the default 4 KiB)
[ ! -e "$T-journal" ] && ok run_no_journal_left || bad run_no_journal_left "$(ls -l "$T-journal")"
[ "$(sqlite3 "$T" 'PRAGMA page_size')" = 8192 ] && ok run_page_size_8k || bad run_page_size_8k "page size $(sqlite3 "$T" 'PRAGMA page_size')"
expect_exit take_info 0 "$MT" take info "$T"
expect_match take_info_complete 'complete — duration reached' "$TMP/out"
expect_match take_info_steps '6000 steps of 0.001 s' "$TMP/out"
expect_exit take_info_json 0 "$MT" take info "$T" --json
expect_match take_info_json_bodies '"bodies":13' "$TMP/out"
# take format 5 (4 with codec 6 for the state): what is stored and what readers rebuild
expect_match take_info_json_format5 '"format_version":5' "$TMP/out"
expect_match take_info_json_channels_rebuilt '"channels_stored":false' "$TMP/out"
expect_exit take_info_again 0 "$MT" take info "$T"
expect_match take_info_streams_rebuilt 'poses of 13 bodies \(rebuilt from the state\), 121 channels \(rebuilt from the state, inputs and 8 context values\)' "$TMP/out"
expect_exit take_info_format2 0 "$MT" take info "$ROOT/tests/data/stoppie_format2.take" --json
expect_match take_info_format2_stored '"channels_stored":true,"poses_stored":true' "$TMP/out"
# text from a stranger's take reaches the terminal without its control characters, and JSON stays valid
cp "$T" "$TMP/esc.take"
sqlite3 "$TMP/esc.take" "update meta set value = 'evil' || char(27) || '[2J' || char(200) where key = 'rig'"
"$MT" take info "$TMP/esc.take" > "$TMP/escinfo" 2>&1
if grep -q "$(printf '\033')" "$TMP/escinfo"; then bad take_info_no_escape "an ESC byte reached the terminal"
else grep -q 'evil\\x1b\[2J' "$TMP/escinfo" && ok take_info_no_escape || bad take_info_no_escape "$(grep rig "$TMP/escinfo")"; fi
"$MT" take info "$TMP/esc.take" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["rig"].startswith("evil\x1b[2J"), d["rig"]' \
  && ok take_info_json_untrusted || bad take_info_json_untrusted "JSON not valid or rig text lost"
expect_exit verify_wobble 0 "$MT" take verify "$T"
expect_match verify_bit_exact 'bit-exact: 5999 steps' "$TMP/out"
# another build: the take names an older revision. Same physics: bit-exact, said so. Physics that
# rounds differently (simulated by a changed embedded rig, 9.99 -> 9.995 kg of steering head): the
# divergence is reported as recorded-by/replayed-by with the drift over the whole take, exit 1.
# With this build's own revision, the same change is a plain divergence (a changed take).
# (Step 0 samples the recorded start state, so the poses agree there; the forces and accelerations do not.)
cp "$T" "$TMP/old.take"
sqlite3 "$TMP/old.take" "update meta set value = '0123456789ab' where key = 'git_revision'"
expect_exit verify_other_build_exact 0 "$MT" take verify "$TMP/old.take"
expect_match verify_other_build_named 'recorded by mototake [^ ]+ \(git 0123456789ab\), replayed by mototake .*bit-exact across builds' "$TMP/out"
sqlite3 "$TMP/old.take" "update sources set text = replace(text, 'mass = 9.99,', 'mass = 9.995,') where kind = 'rig'"
expect_exit verify_other_build_drift 1 "$MT" take verify "$TMP/old.take"
expect_match verify_other_build_first 'first divergence at step 0 ' "$TMP/out"
expect_match verify_other_build_whole 're-simulated all 6000 steps' "$TMP/out"
expect_match verify_other_build_largest 'largest differences over the take: x [0-9.e-]+ m .*steer_angle [0-9.e-]+ deg' "$TMP/out"
cp "$T" "$TMP/changed.take"
sqlite3 "$TMP/changed.take" "update sources set text = replace(text, 'mass = 9.99,', 'mass = 9.995,') where kind = 'rig'"
expect_exit verify_same_build_changed 1 "$MT" take verify "$TMP/changed.take"
expect_match verify_same_build_plain 'DIVERGES at step 0: channel' "$TMP/out"

# the take reproduces itself with no project files at all: an empty root, the take copied away
mkdir -p "$TMP/elsewhere/empty"
cp "$T" "$TMP/elsewhere/copy.take"
if (cd "$TMP/elsewhere" && MOTOTAKE_ROOT="$TMP/elsewhere/empty" "$MT" take verify copy.take > out 2> err); then
  grep -q 'bit-exact' "$TMP/elsewhere/out" && ok verify_without_sources || bad verify_without_sources "$(cat "$TMP/elsewhere/out")"
else bad verify_without_sources "$(cat "$TMP/elsewhere/err")"; fi

# readable with the sqlite3 shell alone (make deps installs sqlite3; without it, counted skips)
if have sqlite3; then
  [ "$(sqlite3 "$T" 'PRAGMA integrity_check')" = ok ] && ok sqlite3_integrity || bad sqlite3_integrity "not ok"
  [ "$(sqlite3 "$T" "select value from meta where key='format'")" = "mototake take" ] && ok sqlite3_meta || bad sqlite3_meta "no format row"
  n=$(sqlite3 "$T" "select count(*) from sources where kind in ('rig','track','script','module')")
  [ "$n" -ge 4 ] && ok sqlite3_sources || bad sqlite3_sources "only $n sources"
else
  skip_each "no sqlite3 shell (make deps installs it)" sqlite3_integrity sqlite3_meta sqlite3_sources
fi

# channels: CSV with a units row, resampled, selected; the Python decoder of docs/takefile.md agrees
expect_exit channels_csv 0 "$MT" take channels "$T" -o "$TMP/c.csv" --rate 50 --channels speed,lean,steer_angle
[ "$(sed -n 2p "$TMP/c.csv")" = "s,m/s,deg,deg" ] && ok channels_units_row || bad channels_units_row "$(sed -n 2p "$TMP/c.csv")"
lines=$(wc -l < "$TMP/c.csv")
[ "$lines" = 302 ] && ok channels_rate || bad channels_rate "$lines lines for 6 s at 50 Hz (want 2 + 300)"
expect_error channels_unknown "no channel 'sped' \(nearest: speed" "$MT" take channels "$T" -o "$TMP/x.csv" --channels sped
# -o - : the same CSV on standard output, and no file named "-"; a failed write is one line, exit 2
(cd "$TMP" && "$MT" take channels "$T" -o - --rate 50 --channels speed,lean,steer_angle > "$TMP/c_stdout.csv" 2> "$TMP/c_stdout.err")
if cmp -s "$TMP/c.csv" "$TMP/c_stdout.csv" && [ ! -e "$TMP/-" ]; then ok channels_stdout
else bad channels_stdout "stdout differs from -o c.csv or a file '-' was made: $(head -c 200 "$TMP/c_stdout.err")"; fi
if [ -w /dev/full ]; then
  "$MT" take channels "$T" -o - --channels speed > /dev/full 2> "$TMP/full.err"; rc=$?
  if [ $rc = 2 ] && [ "$(wc -l < "$TMP/full.err")" = 1 ] && grep -q 'standard output: write failed' "$TMP/full.err"; then ok channels_stdout_full
  else bad channels_stdout_full "exit $rc: $(head -c 200 "$TMP/full.err")"; fi
else skip channels_stdout_full "no /dev/full"; fi
expect_exit channels_full 0 "$MT" take channels "$T" -o "$TMP/full.csv" --channels speed
# a stored channel (run --store-channels) and a context value (every take of format 4) against our CSV
expect_exit channels_full_station 0 "$MT" take channels "$T" -o "$TMP/full_st.csv" --channels station
# and a state value of format 5's codec 6 (x12, the steering angle, stored as its residual from
# x12 + dt·x29): in degrees against the steer_angle channel
expect_exit channels_full_steer 0 "$MT" take channels "$T" -o "$TMP/full_steer.csv" --channels steer_angle
printf '%s\n' "wsc.take chan speed full.csv 1" "w.take ctx station full_st.csv 1" "w.take state x12 full_steer.csv 57.29577951308232" > "$TMP/pairs"
if have python3; then
  sed -n '/^```python/,/^```/p' "$ROOT/docs/takefile.md" | sed '1d;$d' > "$TMP/decode.py"
  "$MT" run "$ROOT/takes/wobble.lua" -o "$TMP/wsc.take" --quiet --store-channels > /dev/null 2>&1
  while read -r pt ps pn pc sc; do
    if python3 "$TMP/decode.py" "$TMP/$pt" "$ps" "$pn" > "$TMP/py.txt" 2> "$TMP/py.err"; then
      # compare the first 1000 samples with our CSV (float32 channels: same decimal to 6 digits)
      tail -n +3 "$TMP/$pc" | head -1000 | cut -d, -f2 > "$TMP/ours.txt"
      head -1000 "$TMP/py.txt" > "$TMP/theirs.txt"
      if python3 -c "
import sys
a=[float(x) for x in open('$TMP/ours.txt')]; b=[$sc*float(x) for x in open('$TMP/theirs.txt')]
sys.exit(0 if len(a)==len(b)==1000 and all(abs(x-y)<=1e-6*max(1,abs(x)) for x,y in zip(a,b)) else 1)"; then ok "python_decoder_${ps}_$pn"
      else bad "python_decoder_${ps}_$pn" "values differ"; fi
    else bad "python_decoder_${ps}_$pn" "$(head -c 300 "$TMP/py.err")"; fi
  done < "$TMP/pairs"
else
  while read -r pt ps pn pc sc; do skip "python_decoder_${ps}_$pn" "no python3 (make deps installs it)"; done < "$TMP/pairs"
fi

# cut: a self-contained part that still verifies
expect_exit cut 0 "$MT" take cut "$T" --from 1.5 --to 3.5 -o "$TMP/part.take"
expect_exit cut_verifies 0 "$MT" take verify "$TMP/part.take"
expect_match cut_bit_exact 'bit-exact: 1999 steps' "$TMP/out"
expect_error cut_bad_range "is not a range within the take" "$MT" take cut "$T" --from 4 --to 2 -o "$TMP/bad.take"
expect_error cut_outside "is not a range within the take" "$MT" take cut "$T" --from 0 --to 60 -o "$TMP/bad.take"
[ ! -e "$TMP/bad.take" ] && ok cut_no_partial_file || bad cut_no_partial_file "left $TMP/bad.take"

# damaged and foreign files: one clear line, exit 2, never a crash
printf 'not a database at all, just text\n' > "$TMP/text.take"
expect_error not_sqlite "not a take \(not an SQLite database\)" "$MT" take info "$TMP/text.take"
sqlite3 "$TMP/other.db" "create table t(x); insert into t values(1);" 2>/dev/null
expect_error foreign_sqlite "not a take" "$MT" take info "$TMP/other.db"
head -c 20000 "$T" > "$TMP/trunc.take"
"$MT" take verify "$TMP/trunc.take" > "$TMP/out" 2> "$TMP/err"; rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l < "$TMP/err")" = 1 ]; then ok truncated_take; else bad truncated_take "exit $rc: $(head -c 200 "$TMP/err")"; fi
cp "$T" "$TMP/flip.take"
# flip one bit inside the largest chunk blob (its offset found through sqlite3)
python3 - "$TMP/flip.take" <<'PY'
import sqlite3, sys
p = sys.argv[1]
db = sqlite3.connect(p)
row = db.execute("select rowid, data from chunks where stream='state' order by chunk limit 1 offset 2").fetchone()
data = bytearray(row[1]); data[len(data) // 2] ^= 0x10
db.execute("update chunks set data = ? where rowid = ?", (bytes(data), row[0])); db.commit()
PY
expect_error bit_flip "chunk 2 of stream state: (checksum mismatch|cannot be decompressed)" "$MT" take verify "$TMP/flip.take"
sqlite3 "$TMP/future.take" "select 1" 2>/dev/null; cp "$T" "$TMP/future.take"
sqlite3 "$TMP/future.take" "update meta set value='99' where key='format_version'"
expect_error future_version "written by a newer mototake \(format 99\)" "$MT" take info "$TMP/future.take"
expect_error run_needs_o "run: -o OUT.take is required \(or --dry-run" "$MT" run "$ROOT/takes/wobble.lua"
expect_error run_bad_script "nosuch.lua: cannot open" "$MT" run "$TMP/nosuch.lua" -o "$TMP/n.take"

# kill -9 in the middle of a long ride: the take is readable, marked incomplete, at most 1 s lost
"$MT" run "$ROOT/tests/data/long_ride.lua" -o "$TMP/killed.take" --quiet > /dev/null 2>&1 &
pid=$!
# kill once it has recorded two seconds or more (polled: the start, with the rider's table of
# trims, takes 0.5 s plainly and several seconds under ASan)
n=0
while [ $n -lt 240 ]; do
  sleep 0.25; n=$((n + 1))
  s=$("$MT" take info "$TMP/killed.take" 2>/dev/null | sed -n 's/^  \([0-9]*\) steps.*/\1/p')
  [ "${s:-0}" -ge 2000 ] && break
done
# while recording, the rollback journal is kept between commits (journal_mode=PERSIST: its
# header zeroed between commits, hot inside one). A reader removes one that is not hot (take
# info above did), so
# wait, without reading, for the next commit to bring it back, then kill: the killed run leaves
# it. (With journal_mode=DELETE it exists only inside a commit, a few ms a second.)
n=0
while [ $n -lt 100 ] && [ ! -e "$TMP/killed.take-journal" ]; do sleep 0.1; n=$((n + 1)); done
sleep 0.3
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
[ -e "$TMP/killed.take-journal" ] && ok kill9_journal_kept || bad kill9_journal_kept "no -journal after the kill"
if "$MT" take info "$TMP/killed.take" > "$TMP/out" 2> "$TMP/err"; then
  grep -q 'INCOMPLETE' "$TMP/out" && ok kill9_marked_incomplete || bad kill9_marked_incomplete "$(head -2 "$TMP/out")"
  steps=$(sed -n 's/^  \([0-9]*\) steps.*/\1/p' "$TMP/out")
  [ "${steps:-0}" -ge 1000 ] && ok kill9_kept_seconds || bad kill9_kept_seconds "only ${steps:-0} steps"
  [ "$(sqlite3 "$TMP/killed.take" 'PRAGMA integrity_check')" = ok ] && ok kill9_integrity || bad kill9_integrity "not ok"
  "$MT" take verify "$TMP/killed.take" > "$TMP/out" 2>&1 && ok kill9_verifies || bad kill9_verifies "$(head -c 200 "$TMP/out")"
  # the journal the killed run left is gone once the take was read (rolled back or removed)
  [ ! -e "$TMP/killed.take-journal" ] && ok kill9_journal_cleared || bad kill9_journal_cleared "$(ls -l "$TMP/killed.take-journal")"
else bad kill9_readable "$(cat "$TMP/err")"; fi

# every shipped script replays bit for bit from its take; its summary is kept ($TMP/NAME.out) for
# the lap checks below. The laps (laguna_*: 90-145 s of riding each) run in the plain pass only:
# under the sanitizers the shorter scripts go through the same code.
for s in "$ROOT"/takes/*.lua; do
  n=$(basename "$s" .lua)
  case $n in laguna_*) plain_pass || continue;; esac
  "$MT" run "$s" -o "$TMP/$n.take" > "$TMP/$n.out" 2> "$TMP/err"
  if [ ! -s "$TMP/$n.take" ]; then bad "replay_$n" "no take: $(head -c 200 "$TMP/err")"; continue; fi
  if "$MT" take verify "$TMP/$n.take" > "$TMP/out" 2>&1 && grep -q bit-exact "$TMP/out"; then ok "replay_$n"
  else bad "replay_$n" "$(head -c 300 "$TMP/out")"; fi
done

# From here on, the laps and long runs: the plain pass only (see the replay loop above).
plain_pass || return 0
# the flying lap of Laguna Seca (recorded by the replay loop above): finishes, on the track, in a
# plausible time for a cautious rider
mv "$TMP/laguna_lap.take" "$TMP/lap.take"; mv "$TMP/laguna_lap.out" "$TMP/lap.out"
if grep -q 'end: flying lap complete' "$TMP/lap.out" && ! grep -q 'LEFT THE TRACK' "$TMP/lap.out"; then ok laguna_lap_completes
else bad laguna_lap_completes "$(grep -E 'end:|speed' "$TMP/lap.out" | tr '\n' ' ')"; fi
lt=$(sed -n 's/.*lap time \([0-9]*\):\([0-9.]*\).*/\1 \2/p' "$TMP/lap.out")
lts=$(echo "$lt" | tr ' ' ':')
if [ -n "$lt" ] && awk -v m="${lt% *}" -v s="${lt#* }" 'BEGIN { t = 60 * m + s; exit !(t > 84 && t < 200) }'; then
  ok "laguna_lap_time_$lts"
else bad laguna_lap_time "lap time '$lts' not within 1:24–3:20"; fi
# one statement about laps: the flying lap is one lap timed between two crossings of the line
# (main said "laps 2" under "end: flying lap complete")
expect_match run_laps_one_statement '^  1 lap timed line to line \(the line crossed 2 times\), lap time [0-9]:[0-9.]+$' "$TMP/lap.out"
if grep -q '^  laps ' "$TMP/lap.out"; then bad run_laps_no_counter "$(grep '^  laps ' "$TMP/lap.out")"; else ok run_laps_no_counter; fi

# the cautious lap keeps the promise its speed profile makes: achieved a_y, braking and drive
# (the tyres' friction forces over the mass) within 3 % of the planned peaks (main before the
# drive limit: drive 0.64 g against 0.32 g planned)
promise() {   # promise NAME FILE FACTOR: each achieved peak <= FACTOR x its planned peak
  sed -n 's/.*planned peak a_y \([0-9.]*\) g, braking \([0-9.]*\) g, drive \([0-9.]*\) g; achieved a_y \([0-9.]*\) g, braking \([0-9.]*\) g, drive \([0-9.]*\) g.*/\1 \2 \3 \4 \5 \6/p' "$2" > "$TMP/promise"
  if [ -s "$TMP/promise" ] && awk -v f="$3" '{ exit !($4 <= f * $1 && $5 <= f * $2 && $6 <= f * $3) }' "$TMP/promise"; then ok "$1_$(tr ' ' _ < "$TMP/promise")"
  else bad "$1" "planned a_y/braking/drive, achieved a_y/braking/drive: '$(cat "$TMP/promise")' (want achieved <= $3 x planned)"; fi
}
promise laguna_lap_within_its_promise "$TMP/lap.out" 1.03
# the cautious lap rides the LQR steer loop too: its worst 1 s 6–12 Hz steer RMS stays under
# 0.5° (0.257° measured; 1.212° with the gain-scheduled loop of main before it)
lb=$("$MT" take band "$TMP/lap.take" 2>&1 | sed -n 's/.*worst \([0-9.]*\) deg.*/\1/p')
if [ -n "$lb" ] && awk -v b="$lb" 'BEGIN { exit !(b < 0.5) }'; then ok "laguna_lap_wobble_band_${lb}deg"
else bad laguna_lap_wobble_band "worst 1 s 6-12 Hz steer RMS '$lb' deg not under 0.5"; fi

# the lap's channel plot of docs/takes.md (python3 with matplotlib: Debian's python3-matplotlib)
expect_exit doc_lap_channels_csv 0 "$MT" take channels "$TMP/lap.take" -o "$TMP/laguna_full.csv" --channels time,speed,lean,ay,steer_angle
# take format 4 stores the context, not the channels: the lap's channels rebuilt from the state,
# inputs and context are those the loop samples when asked to store them (run --store-channels),
# on the track's road, through gear shifts and the lap count (the CSV prints 9 significant digits)
"$MT" run "$ROOT/takes/laguna_lap.lua" -o "$TMP/lap_sc.take" --quiet --store-channels > /dev/null 2>&1
CH=time,station,offset,distance,lap,ax,ay,gear,clutch,rpm,clutch_torque,engine_torque,chain_force,rear_fx,front_fy,front_load,steer_joint_fx,rear_axle_body_fz,com_ay,contacts,torso_lean
if "$MT" take channels "$TMP/lap_sc.take" -o "$TMP/lap_sc.csv" --channels $CH > /dev/null 2>&1 &&
   "$MT" take channels "$TMP/lap.take" -o "$TMP/lap_re.csv" --channels $CH > /dev/null 2>&1 && cmp -s "$TMP/lap_sc.csv" "$TMP/lap_re.csv" &&
   [ "$(wc -l < "$TMP/lap_re.csv")" -gt 140000 ]; then ok "format4_lap_channels_rebuilt_as_stored_$(($(wc -l < "$TMP/lap_re.csv") - 2))_rows"
else bad format4_lap_channels_rebuilt_as_stored "$(cmp "$TMP/lap_sc.csv" "$TMP/lap_re.csv" 2>&1 | head -c 200)"; fi
ls1=$(stat -c %s "$TMP/lap.take"); ls2=$(stat -c %s "$TMP/lap_sc.take")
[ "$ls1" -lt "$ls2" ] && ok "format4_lap_take_${ls1}_bytes_against_${ls2}_storing_channels" || bad format4_lap_take_smaller "$ls1 vs $ls2"
PY=""
for p in python3 /usr/bin/python3; do "$p" -c 'import matplotlib, numpy' 2>/dev/null && { PY=$p; break; }; done
if [ -z "$PY" ]; then bad doc_lap_channels_plot "no python3 with matplotlib (make deps installs python3-matplotlib)"
elif "$PY" "$ROOT/docs/img/lap_channels.py" "$TMP/laguna_full.csv" "$TMP/lap.png" > "$TMP/plot.out" 2>&1 && [ -s "$TMP/lap.png" ]; then
  ok doc_lap_channels_plot
else bad doc_lap_channels_plot "$(head -c 300 "$TMP/plot.out")"; fi
# the bar torque's ripple in the lap's steady corners (|lean| > 25° for 1 s; RMS about the 1 s
# mean, tests/cli/ride_quality.py): under 6 N·m with the LQR loop (5.94 measured with the rider's
# arms, 5.39 before them; 10.43 with
# the gain-scheduled loop of main before it, whose steer-angle stiffness answered the wobble band)
if [ -n "$PY" ] && "$PY" "$ROOT/tests/cli/ride_quality.py" "$TMP/lap.take" --mt "$MT" > "$TMP/ripple.out" 2>&1; then
  rp=$(sed -n 's/.*bar torque ripple \([0-9.]*\) N m.*/\1/p' "$TMP/ripple.out")
  if [ -n "$rp" ] && awk -v r="$rp" 'BEGIN { exit !(r < 6) }'; then ok "laguna_lap_bar_torque_ripple_${rp}Nm"
  else bad laguna_lap_bar_torque_ripple "ripple '$rp' N m not under 6: $(cat "$TMP/ripple.out")"; fi
else bad laguna_lap_bar_torque_ripple "$(head -c 300 "$TMP/ripple.out" 2>/dev/null)"; fi

# the faster lap on the racing line (82 % grip, 55 m/s, the LQR loop about the machine's own steady
# turn, sim/rider_lqr_ref.h): completes in at most 1:45 (the issue's goal; 1:44.473 measured, main
# before: 1:57.171 at 70 %/42 m/s, and 80 %/50 m/s left the track at 2124 m), on the road (both
# tyres in contact at every 10 ms sample, upright at the end), and its achieved
# lateral, braking and drive accelerations are within 3 % over the plan's peaks
# (recorded by the replay loop above, which also verified it bit for bit: replay_laguna_fast)
mv "$TMP/laguna_fast.take" "$TMP/fast.take"; mv "$TMP/laguna_fast.out" "$TMP/fast.out"
if grep -q 'end: flying lap complete' "$TMP/fast.out" && ! grep -q 'LEFT THE TRACK' "$TMP/fast.out"; then ok laguna_fast_completes_on_the_road
else bad laguna_fast_completes_on_the_road "$(grep -E 'end:|speed' "$TMP/fast.out" | tr '\n' ' ')"; fi
ft=$(sed -n 's/.*lap time \([0-9]*\):\([0-9.]*\).*/\1 \2/p' "$TMP/fast.out")
if [ -n "$ft" ] && awk -v m="${ft% *}" -v s="${ft#* }" 'BEGIN { exit !(60 * m + s <= 105) }'; then ok "laguna_fast_lap_$(echo "$ft" | tr ' ' ':')"
else bad laguna_fast_lap "lap time '$ft' not within 1:45"; fi
"$MT" take channels "$TMP/fast.take" -o "$TMP/fast_contact.csv" --rate 100 --channels time,front_contact,rear_contact,lean > /dev/null 2>&1
fc=$(awk -F, 'NR > 2 { n++; if ($2 < 0.5 || $3 < 0.5) off++; last = $4 } END { printf "%d %d %.1f\n", n, off, last }' "$TMP/fast_contact.csv")
if echo "$fc" | awk '{ exit !($1 > 10000 && $2 == 0 && $3 < 10 && $3 > -10) }'; then ok "laguna_fast_wheels_on_the_road_upright_at_the_end_$(echo "$fc" | tr ' ' _)"
else bad laguna_fast_wheels_on_the_road "samples, samples with a wheel off, final lean: '$fc'"; fi
sed -n 's/.*planned peak a_y \([0-9.]*\) g, braking \([0-9.]*\) g, drive \([0-9.]*\) g; achieved a_y \([0-9.]*\) g, braking \([0-9.]*\) g, drive \([0-9.]*\) g.*/\1 \2 \3 \4 \5 \6/p' "$TMP/fast.out" > "$TMP/fast_acc"
if [ -s "$TMP/fast_acc" ] && awk '{ exit !($4 <= 1.03 * $1 && $5 <= 1.03 * $2 && $6 <= 1.03 * $3) }' "$TMP/fast_acc"; then ok "laguna_fast_within_plan_$(tr ' ' _ < "$TMP/fast_acc")"
else bad laguna_fast_within_plan "planned a_y, braking, drive; achieved: '$(cat "$TMP/fast_acc")'"; fi
# rider.preview_span and rider.lateral out of range: one line naming the file, line and field, exit 2
for kv in "preview_span = 0.3/preview_span = -1" "lateral = 0.8/lateral = 0"; do
  f=${kv%%/*}; sed "s/$kv/" "$ROOT/takes/laguna_fast.lua" > "$TMP/badopt.lua"
  "$MT" run "$TMP/badopt.lua" -o "$TMP/badopt.take" > "$TMP/badopt.out" 2>&1; rc=$?
  if [ $rc -eq 2 ] && grep -q "badopt.lua:[0-9]*.*${f%% *}.*must be within" "$TMP/badopt.out" && [ "$(wc -l < "$TMP/badopt.out")" -le 2 ]; then ok "rider_${f%% *}_bad_value_rejected"
  else bad "rider_${f%% *}_bad_value_rejected" "exit $rc: $(head -c 300 "$TMP/badopt.out")"; fi
done
# with the LQR steer loop (rider.steer = "lqr", sim/rider_lqr.h) the fast lap's worst 1 s 6–12 Hz
# steer RMS stays under 0.5° (0.257° measured at 82 %/55 m/s; 0.202° at 70 %/42 m/s before; the
# gain-scheduled loop: 1.197°)
fb=$("$MT" take band "$TMP/fast.take" 2>&1 | sed -n 's/.*worst \([0-9.]*\) deg.*/\1/p')
if [ -n "$fb" ] && awk -v b="$fb" 'BEGIN { exit !(b < 0.5) }'; then ok "laguna_fast_wobble_band_${fb}deg"
else bad laguna_fast_wobble_band "worst 1 s 6-12 Hz steer RMS '$fb' deg not under 0.5"; fi
# a steer loop that is neither "gains" nor "lqr": one line naming the file, line and field, exit 2
sed 's/steer = "lqr"/steer = "pid"/' "$ROOT/takes/laguna_fast.lua" > "$TMP/badsteer.lua"
"$MT" run "$TMP/badsteer.lua" -o "$TMP/badsteer.take" > "$TMP/badsteer.out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q 'badsteer.lua:[0-9]*.*steer.*"gains" or "lqr"' "$TMP/badsteer.out" && [ "$(wc -l < "$TMP/badsteer.out")" -le 2 ]; then ok rider_steer_bad_value_rejected
else bad rider_steer_bad_value_rejected "exit $rc: $(head -c 300 "$TMP/badsteer.out")"; fi

# the rider's posture over the flying lap (sim/posture.h): in the turns (|lean| > 5°) the hips
# are on the inside (same sign as the lean) most of the time and reach 0.08 m or more; on the
# fast straights (> 30 m/s, |lean| < 10°) the torso tucks (mean pitch > 15° forward); under
# braking (front lever > 0.1) it sits up (mean pitch < −3°). Old main's rider: a statue.
if "$MT" take channels "$TMP/lap.take" -o "$TMP/lap_posture.csv" --rate 100 \
     --channels lean,hip_shift,torso_pitch,front_brake,speed,lap > "$TMP/out" 2>&1; then
  post=$(awk -F, 'NR > 2 && $7 >= 1 {
      if ($2 > 5 || $2 < -5) { turn++; if ($2 * $3 > 0) inside++; h = $2 > 0 ? $3 : -$3; if (h > hmax) hmax = h }
      if ($6 > 30 && $2 < 10 && $2 > -10) { fast++; tuck += $4 }
      if ($5 > 0.1) { brk++; up += $4 } }
    END { if (!turn || !fast || !brk) { print "none"; exit }
          printf "%.1f %.3f %.1f %.1f\n", 100 * inside / turn, hmax, tuck / fast, up / brk }' "$TMP/lap_posture.csv")
  set -- $post
  if [ $# = 4 ] && awk -v i="$1" -v h="$2" 'BEGIN { exit !(i >= 80 && h >= 0.08) }'; then ok "laguna_hang_off_inside_${1}pct_max_${2}m"
  else bad laguna_hang_off "hips inside ${1:-?} % of the turning time (want ≥ 80), at most ${2:-?} m (want ≥ 0.08)"; fi
  if [ $# = 4 ] && awk -v t="$3" 'BEGIN { exit !(t > 15) }'; then ok "laguna_tuck_on_straights_${3}deg"
  else bad laguna_tuck "mean torso pitch on the fast straights ${3:-?} deg (want > 15)"; fi
  if [ $# = 4 ] && awk -v b="$4" 'BEGIN { exit !(b < -3) }'; then ok "laguna_sit_up_braking_${4}deg"
  else bad laguna_sit_up "mean torso pitch under braking ${4:-?} deg (want < −3)"; fi
else bad laguna_posture_channels "$(head -c 300 "$TMP/out")"; fi
# docs/takes.md's hang-off figure: the turn-2 window of the lap, with the chase camera
expect_exit laguna_turn2_export 0 "$MT" export "$TMP/lap.take" -o "$TMP/turn2.glb" --camera --from 58 --to 62

# the rider does not sustain a weave at speed: on the straight at 48 and 55 m/s, after a 20 N·m
# tap on the bars for 0.1 s at 2 s, the lean's peak to peak over 6-8 s is under 0.5° with either
# steer loop (with the heading loop unfiltered at speed: a 2-2.5 Hz limit cycle, 5.0-7.3° and
# 91-123 N·m peak to peak; sim/rider.c, docs/takes.md)
for v in 48 55; do for st in lqr gains; do
cat > "$TMP/straight_$v$st.lua" <<LUA
return {
  rig = "sport1000", track = "straight", start = { station = 50, speed = $v }, duration = 8,
  rider = { line = "centre", speed = $v, steer = "$st" },
  inputs = { { steer_torque = 20, at = 2, hold = 0.1 } },
}
LUA
"$MT" run "$TMP/straight_$v$st.lua" -o "$TMP/straight_$v$st.take" > /dev/null 2>&1
"$MT" take channels "$TMP/straight_$v$st.take" -o "$TMP/straight.csv" --channels time,lean --from 6 --to 7.999 > /dev/null 2>&1
pp=$(awk -F, 'NR > 2 { if (mn == "" || $2 < mn) mn = $2; if (mx == "" || $2 > mx) mx = $2 } END { if (mn != "") printf "%.3f", mx - mn }' "$TMP/straight.csv")
if [ -n "$pp" ] && awk -v p="$pp" 'BEGIN { exit !(p < 0.5) }'; then ok "straight_${v}ms_${st}_no_weave_${pp}deg"
else bad "straight_${v}ms_${st}_no_weave" "lean peak to peak over 6-8 s '$pp' deg not under 0.5"; fi
done; done
