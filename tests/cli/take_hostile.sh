# take_hostile.sh — a take file is untrusted input (issue 11 part A, docs/hardening.md).
# A corpus of hostile takes is made from fresh ones by tests/take_hostile.py (crafted counts,
# schemas, views, triggers, metadata, forged chunks with recomputed checksums, missing
# sources); every command must refuse each with one line naming the file and the field, exit 2
# (or, for verify on forged data, report the divergence and exit 1) — never crash, never hang
# past a bound, never say "bit-exact" about damaged data. Then: stale and hot journals, and a
# reader that must not break a take being recorded.
G="$TMP/good.take"
expect_exit hostile_record 0 "$MT" run "$ROOT/takes/wobble.lua" -o "$G" --quiet
expect_exit hostile_good_verifies 0 "$MT" take verify "$G"
# a take that stores every stream, and a donor of chunks for it (issue 29: swapped chunks)
expect_exit hostile_record_stored 0 "$MT" run "$ROOT/takes/wobble.lua" -o "$TMP/stored.take" --store-channels --quiet
expect_exit hostile_record_donor 0 "$MT" run "$ROOT/takes/wobble.lua" -o "$TMP/donor.take" --store-channels --quiet \
  --set bodies.steering.joints.steer.spring.c=0.6
echo '[[0, "grab", 500, 300], [1500, "move", 520, 300]]' > "$TMP/ride_ev.json"
expect_exit hostile_record_ride 0 "$MT" ride --events "$TMP/ride_ev.json" --duration 4 -o "$TMP/ride.take" --track straight --start 50
# a ride over laguna_seca's start/finish line (lap 0 -> 1 at step 1652) and a restart at step 2500
# (lap back to 0): verify re-derives lap and distance through both, and a cut after the line (row 0
# on lap 1) keeps lap 1 from its row 0
echo '[[0, "grab", 500, 300], [2500, "restart", 0, 0]]' > "$TMP/lap_ev.json"
expect_exit hostile_record_ride_lap 0 "$MT" ride --events "$TMP/lap_ev.json" --duration 4 -o "$TMP/lap.take" --start -40 --speed 25
expect_exit ride_lap_restart_verifies 0 "$MT" take verify "$TMP/lap.take"
expect_match ride_lap_restart_bit_exact 'bit-exact: 3999 steps' "$TMP/out"
expect_exit hostile_cut_ride_lap 0 "$MT" take cut "$TMP/lap.take" --from 2 --to 2.4 -o "$TMP/lapcut.take"
expect_exit ride_lap_cut_verifies 0 "$MT" take verify "$TMP/lapcut.take"
expect_match ride_lap_cut_bit_exact 'bit-exact: 399 steps' "$TMP/out"
# a run with a stunt (takes/wheelie.lua: the script's event starts the wheelie at 0.5 s, the
# loop lands it by itself after the event at 3 s asks it to): verify follows the loop and
# compares its stunt after every step; a cut from before the stunt re-derives it as well, a cut
# during it cannot (the loop's state before the cut is not in the take) and says so
W="$TMP/wheelie.take"
expect_exit hostile_record_wheelie 0 "$MT" run "$ROOT/takes/wheelie.lua" -o "$W" --quiet
expect_exit stunt_run_verifies 0 "$MT" take verify "$W"
expect_match stunt_run_bit_exact 'bit-exact: 5999 steps' "$TMP/out"
expect_exit hostile_cut_wheelie_before 0 "$MT" take cut "$W" --from 0.2 --to 1 -o "$TMP/wcut0.take"
expect_exit stunt_cut_before_verifies 0 "$MT" take verify "$TMP/wcut0.take"
if grep -q 'not re-derived' "$TMP/out"; then bad stunt_cut_before_rederived "$(cat "$TMP/out")"; else ok stunt_cut_before_rederived; fi
expect_exit hostile_cut_wheelie_during 0 "$MT" take cut "$W" --from 2 --to 2.4 -o "$TMP/wcut1.take"
expect_exit stunt_cut_during_verifies 0 "$MT" take verify "$TMP/wcut1.take"
expect_match stunt_cut_during_said 'the stunt channel is the recording.s, not re-derived: the take was cut during a stunt' "$TMP/out"
python3 "$ROOT/tests/take_hostile.py" "$G" "$TMP/corpus" "$TMP/stored.take" "$TMP/donor.take" "$TMP/ride.take" "$W" > "$TMP/gen.out" 2>&1 ||
  bad hostile_corpus "$(head -c 300 "$TMP/gen.out")"
# EVERY: each command that reads a take (what take_open refuses, all of them refuse alike). The
# plain pass runs every command on every hostile take; the sanitizer pass (a process start costs
# ~0.3 s there) runs each take through every third of its commands, rotating with the take's
# line, so every command still meets a third of the corpus under the sanitizers.
EVERY="info verify channels mat export cut render slip spectrum band shifts"
nchk=0; line=0
while IFS='|' read -r name cmds want re; do
  [ -n "$name" ] || continue
  line=$((line + 1)); k=0
  f="$TMP/corpus/$name.take"
  [ "$cmds" = EVERY ] && cmds=$EVERY
  for cmd in $cmds; do
    k=$((k + 1))
    plain_pass || [ $(( (line + k) % 3 )) = 0 ] || continue
    case "$cmd" in
      info) set -- take info "$f" ;;
      verify) set -- take verify "$f" ;;
      channels) set -- take channels "$f" -o "$TMP/h.csv" --channels speed ;;
      mat) set -- take channels "$f" -o "$TMP/h.mat" --channels speed ;;   # the .mat writer (issue 35)
      export) set -- export "$f" -o "$TMP/h.glb" ;;
      cut) set -- take cut "$f" --from 0 --to 1 -o "$TMP/h.take" ;;
      render) set -- render "$f" -o "$TMP/h.png" --at 0.5 --size 64x64 --view side ;;
      slip) set -- slip "$f" -o "$TMP/h_slip.png" ;;
      spectrum) set -- spectrum "$f" --channel steer_angle ;;
      band) set -- take band "$f" ;;
      shifts) set -- take shifts "$f" ;;
    esac
    nchk=$((nchk + 1))
    timeout 20 "$MT" "$@" > "$TMP/out" 2> "$TMP/err"; got=$?
    if [ "$want" = 1 ]; then where="$TMP/out"; else where="$TMP/err"; fi
    if [ "$got" != "$want" ]; then bad "hostile_${name}_$cmd" "exit $got, wanted $want: $(head -c 300 "$TMP/err") $(head -c 200 "$TMP/out")"
    elif grep -q 'bit-exact' "$TMP/out"; then bad "hostile_${name}_$cmd" "said bit-exact"
    elif [ "$want" = 2 ] && [ "$(wc -l < "$TMP/err")" != 1 ]; then bad "hostile_${name}_$cmd" "stderr not one line: $(head -c 300 "$TMP/err")"
    elif ! grep -Eq -- "$re" "$where"; then bad "hostile_${name}_$cmd" "'$(head -c 300 "$where")' does not match /$re/"
    elif [ "$want" = 2 ] && ! grep -q "$name.take" "$TMP/err"; then bad "hostile_${name}_$cmd" "does not name the file: $(cat "$TMP/err")"
    else ok "hostile_${name}_$cmd"; fi
  done
done < "$TMP/corpus/manifest.txt"
if plain_pass; then least=250; else least=80; fi
[ "$nchk" -ge $least ] && ok "hostile_corpus_${nchk}_checks" || bad hostile_corpus "only $nchk checks"

# a stale journal (not hot: zeroed header, e.g. a run killed while starting a transaction) is
# removed on the next open; the take still verifies
cp "$G" "$TMP/stale.take"
head -c 4096 /dev/zero > "$TMP/stale.take-journal"
expect_exit journal_stale_info 0 "$MT" take info "$TMP/stale.take"
[ ! -e "$TMP/stale.take-journal" ] && ok journal_stale_removed || bad journal_stale_removed "the -journal is still there"
# a hot journal (a transaction cut off after some pages reached the file) is rolled back by
# SQLite, not deleted: the take comes back exactly as before the transaction. It is made as the
# writer makes its transactions: the take's own application_id set first, so the journal's first
# page is page 1 with the take's identity (takes/takejournal.h)
python3 - "$G" "$TMP/hot.take" <<'PY'
import shutil, sqlite3, sys
good, hot = sys.argv[1], sys.argv[2]
shutil.copy(good, hot + ".src")
db = sqlite3.connect(hot + ".src", isolation_level=None)
db.execute("pragma cache_size=1")           # spill changed pages into the file before commit
appid = db.execute("pragma application_id").fetchone()[0]
assert appid != 0, "the writer gives every take an application_id"
db.execute("begin")
db.execute("pragma application_id=%d" % appid)
db.execute("update chunks set data = zeroblob(length(data))")
db.execute("update status set complete = 0, nsteps = 1")
shutil.copy(hot + ".src", hot)             # the file and its journal as a kill -9 leaves them
shutil.copy(hot + ".src-journal", hot + "-journal")
shutil.copy(hot + ".src-journal", hot + "-journal.kept")   # for the foreign journal below
db.execute("rollback")
PY
if [ -s "$TMP/hot.take-journal" ] && ! cmp -s "$G" "$TMP/hot.take"; then ok journal_hot_made; else bad journal_hot_made "no hot journal"; fi
expect_exit journal_hot_verifies 0 "$MT" take verify "$TMP/hot.take"
expect_match journal_hot_bit_exact 'bit-exact: 5999 steps' "$TMP/out"
[ ! -e "$TMP/hot.take-journal" ] && ok journal_hot_rolled_back || bad journal_hot_rolled_back "the -journal is still there"
# the same hot journal beside another take (issue 29: a killed run's journal beside the take a
# later run renamed to its path) is not that take's: every reader refuses it with one line naming
# it, applies nothing and leaves it for a human; with it moved away the take reads
"$MT" run "$ROOT/takes/wobble.lua" -o "$TMP/other.take" --quiet > /dev/null 2>&1
cp "$TMP/other.take" "$TMP/other.orig"
cp "$TMP/hot.take-journal.kept" "$TMP/other.take-journal"
for c in info verify; do
  expect_error "journal_foreign_refused_by_$c" "other\.take: .*other\.take-journal is not this take's journal \(its page 1 has application id [0-9a-f]{8}, the take's is [0-9a-f]{8}\); not applied" \
    "$MT" take "$c" "$TMP/other.take"
done
cmp -s "$TMP/other.take" "$TMP/other.orig" && [ -s "$TMP/other.take-journal" ] && ok journal_foreign_left_alone \
  || bad journal_foreign_left_alone "the take changed or the journal is gone"
mv "$TMP/other.take-journal" "$TMP/other.moved"
expect_exit journal_foreign_moved_away_reads 0 "$MT" take verify "$TMP/other.take"

# readers on a take being recorded never break the recording (busy timeouts on both sides); the
# sanitizer pass records 12 s of the same ride (slower there, it still gives the readers dozens
# of openings)
if plain_pass; then RIDE="$ROOT/tests/data/ride_40s.lua"; RSTEPS=39999
else sed 's/^  duration = 40,/  duration = 12,/' "$ROOT/tests/data/ride_40s.lua" > "$TMP/ride_12s.lua"; RIDE="$TMP/ride_12s.lua"; RSTEPS=11999; fi
"$MT" run "$RIDE" -o "$TMP/live.take" --quiet > "$TMP/live.out" 2>&1 &
pid=$!
i=0; w=0; refused=0
while kill -0 $pid 2>/dev/null && [ $w -lt 3000 ]; do
  w=$((w + 1))
  if [ -s "$TMP/live.take" ]; then
    timeout 20 "$MT" take verify "$TMP/live.take" > /dev/null 2> "$TMP/live.err"
    grep -q 'live.take: still being recorded by another mototake run' "$TMP/live.err" && refused=$((refused + 1))
    timeout 20 "$MT" take channels "$TMP/live.take" -o "$TMP/live.csv" --channels speed > /dev/null 2>&1
    i=$((i + 1))
  else sleep 0.05; fi
done
wait $pid; rc=$?
if [ "$rc" = 0 ] && "$MT" take info "$TMP/live.take" > "$TMP/out" 2>&1 && grep -q 'complete — ' "$TMP/out"; then
  ok "reader_never_breaks_writer_${i}_reads"
else bad reader_never_breaks_writer "run exit $rc after $i reads: $(head -c 200 "$TMP/live.out") $(head -2 "$TMP/out")"; fi
[ "$refused" -ge 1 ] && ok verify_refuses_a_take_being_recorded || bad verify_refuses_a_take_being_recorded "$(cat "$TMP/live.err")"

# two runs to the same take: the first one writing it wins, the second says why and leaves it alone
"$MT" run "$RIDE" -o "$TMP/two.take" --quiet > "$TMP/a.out" 2>&1 &
pid=$!
w=0
while [ ! -s "$TMP/two.take" ] && [ $w -lt 600 ] && kill -0 $pid 2>/dev/null; do sleep 0.05; w=$((w + 1)); done
expect_error two_writers_second_refused "two.take: another mototake run is writing this take; left alone" \
  "$MT" run "$RIDE" -o "$TMP/two.take" --quiet
wait $pid; rc=$?
[ "$rc" = 0 ] && ok two_writers_first_wins || bad two_writers_first_wins "first run exit $rc: $(head -c 200 "$TMP/a.out")"
expect_exit two_writers_take_verifies 0 "$MT" take verify "$TMP/two.take"
expect_match two_writers_bit_exact "bit-exact: $RSTEPS steps" "$TMP/out"

# take info --json stays JSON whatever text a take carries (quotes, backslashes, control characters)
cp "$G" "$TMP/json.take"
sqlite3 "$TMP/json.take" "update meta set value='a \"quoted\" \\ rig' || char(10) || char(27) || '[31m' where key='rig'; update sources set name='x\"y' where kind='track'"
if "$MT" take info "$TMP/json.take" --json > "$TMP/out" 2> "$TMP/err" && python3 -c "
import json, sys
d = json.load(open('$TMP/out'))
sys.exit(0 if d['rig'] == 'a \"quoted\" \\\\ rig\n\x1b[31m' and d['sources'][-1]['name'] == 'x\"y' else 1)"; then ok info_json_escapes_take_text
else bad info_json_escapes_take_text "$(head -c 300 "$TMP/out") $(head -c 200 "$TMP/err")"; fi
