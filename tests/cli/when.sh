# when.sh — `when` conditions at a configurable rate (issue 18 point 2; docs/takes.md, "Events"):
# events_rate = 50 evaluates them on steps 0, 20, 40, ... of the take, so c.time >= 0.503 fires at
# 0.520 s (every step: 0.503 s); an event's `every` overrides the rate; a 4 ms pulse falls between
# two 100 Hz evaluations and is missed; the take replays bit-exact and its embedded script
# re-rides to the same step; bad values are one located line, exit 2.
script() {   # script FILE TOP EVENT: a 1 s ride on the straight with one `when` event
  cat > "$1" <<LUA
return {
  rig = "sport1000", track = "straight",
  start = { station = 50, speed = 20 },
  duration = 1,
  rider = { line = "centre", speed = 20, posture = false },$2
  events = { { when = function(c) return c.time >= 0.503 end,$3 stop = "condition true" } },
}
LUA
}
script "$TMP/r50.lua" "
  events_rate = 50," ""
expect_exit when_rate50_run 0 "$MT" run "$TMP/r50.lua" -o "$TMP/r50.take" --quiet
expect_exit when_rate50_info 0 "$MT" take info "$TMP/r50.take"
expect_match when_rate50_fires_on_the_period 't = +0\.520 s +end +\{"reason":"condition true"\}' "$TMP/out"
expect_match when_rate50_steps '521 steps of 0\.001 s' "$TMP/out"
expect_exit when_rate50_verify 0 "$MT" take verify "$TMP/r50.take"
expect_match when_rate50_bit_exact 'bit-exact: 520 steps' "$TMP/out"
# the script embedded in the take rides again to the same step
sqlite3 "$TMP/r50.take" "select text from sources where kind = 'script'" > "$TMP/embedded.lua"
grep -q 'events_rate = 50' "$TMP/embedded.lua" && ok when_rate_embedded || bad when_rate_embedded "$(head -c 300 "$TMP/embedded.lua")"
"$MT" run "$TMP/embedded.lua" --dry-run > "$TMP/again" 2>&1
expect_match when_rate_rerun_same_step '0\.52 s simulated in 521 steps' "$TMP/again"
# without the field: every step, as before
script "$TMP/r0.lua" "" ""
expect_exit when_default_run 0 "$MT" run "$TMP/r0.lua" -o "$TMP/r0.take" --quiet
expect_exit when_default_info 0 "$MT" take info "$TMP/r0.take"
expect_match when_default_every_step 't = +0\.503 s +end' "$TMP/out"
# an event's own period overrides the script's rate
script "$TMP/every.lua" "
  events_rate = 50," " every = 0.1,"
"$MT" run "$TMP/every.lua" --dry-run > "$TMP/every" 2>&1
expect_match when_every_overrides '0\.60 s simulated in 601 steps' "$TMP/every"
# a transient shorter than the period: a 4 ms bar-torque pulse at 0.305 s (steps 305-308) is seen
# every step and missed at 100 Hz (evaluations at 0.300 and 0.310 s)
pulse() {
  cat > "$1" <<LUA
return {
  rig = "sport1000", track = "straight",
  start = { station = 50, speed = 20 },
  duration = 0.6,
  rider = { line = "centre", speed = 20, posture = false },$2
  inputs = { { at = 0.305, steer_torque = 40, hold = 0.004 } },
  events = { { when = function(c) return c.steer_torque > 30 end, stop = "pulse seen" } },
}
LUA
}
pulse "$TMP/pulse_all.lua" ""
"$MT" run "$TMP/pulse_all.lua" --dry-run > "$TMP/pa" 2>&1
expect_match when_pulse_seen_every_step 'end: pulse seen' "$TMP/pa"
expect_match when_pulse_seen_at_0305 '0\.31 s simulated in 306 steps' "$TMP/pa"
pulse "$TMP/pulse_100.lua" "
  events_rate = 100,"
"$MT" run "$TMP/pulse_100.lua" --dry-run > "$TMP/p100" 2>&1
expect_match when_pulse_missed_at_100hz 'end: duration reached' "$TMP/p100"
# bad values: one line naming the script's line and the field, exit 2
script "$TMP/bad0.lua" "
  events_rate = 0," ""
expect_error when_bad_rate_zero "bad0\.lua:6: field 'events_rate': must be a rate > 0 Hz" "$MT" run "$TMP/bad0.lua" --dry-run
script "$TMP/badfast.lua" "
  events_rate = 2000," ""
expect_error when_bad_rate_above_step "badfast\.lua:6: field 'events_rate': 2000 Hz is faster than the rig's steps \(0\.001 s, 1000 Hz\): at most 1000" \
  "$MT" run "$TMP/badfast.lua" -o "$TMP/badfast.take"
[ ! -e "$TMP/badfast.take" ] && ok when_bad_rate_no_take || bad when_bad_rate_no_take "left $TMP/badfast.take"
script "$TMP/badstr.lua" "
  events_rate = 'often'," ""
expect_error when_bad_rate_string "badstr\.lua:6: field 'events_rate': expected a number, got string" "$MT" run "$TMP/badstr.lua" --dry-run
script "$TMP/badevery.lua" "" " every = 0.0002,"
expect_error when_bad_every_below_step "badevery\.lua:6: event 1: field 'every': 0\.0002 s is shorter than the rig's step \(0\.001 s\)" \
  "$MT" run "$TMP/badevery.lua" --dry-run
script "$TMP/badneg.lua" "" " every = -1,"
expect_error when_bad_every_negative "badneg\.lua:6: event 1: field 'every': must be a period > 0 s" "$MT" run "$TMP/badneg.lua" --dry-run
# a mark's label and a stop's reason are a stranger's text: quotes, a backslash and a tab in them are
# escaped in the events' JSON (they broke it: {"label":"say "hi" \ now"}), bytes that are not UTF-8
# become '?', and a plain label is written as before
script "$TMP/q.lua" "" " mark = 'say \"hi\" \\\\ now\\t\\255',"
sed -i 's/stop = "condition true"/stop = "done \\"x\\""/' "$TMP/q.lua"
expect_exit when_quoted_run 0 "$MT" run "$TMP/q.lua" -o "$TMP/q.take" --quiet
sqlite3 "$TMP/q.take" "select json from events where kind in ('mark', 'end') order by id" > "$TMP/q.json" 2>&1
if python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows[0]["label"] == "say \"hi\" \\ now\t?", rows[0]
assert rows[1]["reason"] == "done \"x\"", rows[1]
' "$TMP/q.json" > "$TMP/q.py" 2>&1; then ok when_event_json_escaped; else bad when_event_json_escaped "$(cat "$TMP/q.json" "$TMP/q.py" | head -c 300)"; fi
