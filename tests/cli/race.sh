# race.sh — the racing lap (issue 31 item 4): the machine's minimum lap (`mototake lapsim`, a QSS
# lap simulation; its physics against closed forms in tests/unit/test_lapsim.c) and the race
# profile's lap (takes/laguna_race.lua, ridden once, a dry run: about 14 s of CPU, 11.4 s of them
# the racer's 5 practice laps).
#
# What the lap is held to: within 3 % of the minimum along the line, as issue 31 asks (it is
# +1.94 %), braking at ≥ 90 % of the lesser of grip and the stoppie limit as the machine dives
# (94 %), lean within 2° of the machine's own steady-turn limit in the fast corners (T1, T6, T9,
# T10; and T3, T8) after practice, and the other figures it reaches today, as floors
# (docs/takes.md, The racing lap). The rev limiter is used: upright, the racer
# upshifts as its fuel cut begins (13 500 rpm), leaned past 7.5° 200 rpm short (asserted below).

# the minimum lap, as text and JSON, the same figure both ways
expect_exit lapsim_text 0 "$MT" lapsim sport1000 laguna_seca
expect_match lapsim_text_line '^minimum lap 1:[0-9]{2}\.[0-9]{3}  sport1000 on Laguna Seca, racing line, 100 % of the tyres' "$TMP/out"
min_txt=$(sed -n 's/^minimum lap \([0-9]*:[0-9.]*\) .*/\1/p' "$TMP/out")
cp "$TMP/out" "$TMP/lapsim_txt"
expect_exit lapsim_json 0 "$MT" lapsim sport1000 laguna_seca --json
cp "$TMP/out" "$TMP/lapsim_json"
# Two checks of lapsim's text against its JSON, each a verdict line "ok|bad<TAB>name<TAB>detail":
# - lapsim_on_springs (sim/brake_lift.h, sim/trim.h; docs/lapsim.md): where the rear lifts falls
#   with speed (the air's lift) and stays below the rigid stoppie limit; the steady turn's fold lies
#   below the point-mass lean and does not rise with speed; text and JSON give the same figures;
# - lapsim_steady_turns (sim/lapsim.h lapsim_machine_turns; docs/lapsim.md): the lap within the
#   machine's own steady turns is slower than the point mass's, the turn's hold below μy·n·g at
#   every speed and falling with speed from 54 km/h (the air's lift and drag), text and JSON the same
python3 - "$TMP/lapsim_txt" "$TMP/lapsim_json" > "$TMP/lapsim_checks" 2>&1 <<'PY'
import json, re, sys
txt = open(sys.argv[1]).read()
j = json.loads(open(sys.argv[2]).read())

def line(pattern, what):
    m = re.search(pattern, txt, re.M)
    if not m:
        raise AssertionError("no '%s' line: %r" % (what, [l for l in txt.splitlines() if what in l]))
    return m

def springs():
    m = line(r"^  on springs    at ([0-9 /]+) km/h the rear lifts braking at ([0-9. /]+) g and the steady turn "
             r"saturates a tyre beyond ([0-9. /]+) deg", "on springs")
    kmh, lift, fold = ([float(x) for x in g.split("/")] for g in m.groups())
    assert kmh == j["ridden_kmh"] == [54, 108, 162, 216], kmh
    assert all(abs(a - b) <= 0.0005 for a, b in zip(lift, j["lift_g"])) and all(abs(a - b) <= 0.05 for a, b in zip(fold, j["fold_deg"])), (lift, fold, j)
    assert all(1.0 < x < j["stoppie_g"] for x in lift) and all(a > b for a, b in zip(lift, lift[1:])), lift
    assert all(55 < x < j["lean_limit_deg"] for x in fold) and all(a >= b for a, b in zip(fold, fold[1:])), fold
    return "lift %s g, fold %s deg at %s km/h" % (lift, fold, kmh)

def turns():
    m = line(r"^  steady turns  minimum lap ([0-9]+):([0-9.]+) cornering within the machine's own steady turn "
             r"\(sim/trim\.h\), which holds ([0-9. /]+) g at ([0-9 /]+) km/h, against mu_y·n·g ([0-9. /]+) g$", "steady turns")
    t = 60 * int(m.group(1)) + float(m.group(2))
    held, kmh, pm = ([float(x) for x in g.split("/")] for g in m.groups()[2:])
    assert abs(t - j["lap_time_turns_s"]) < 0.0005 and t > j["lap_time_s"] + 0.3, (t, j["lap_time_turns_s"], j["lap_time_s"])
    ay = dict(zip(j["turn_kmh"], j["turn_ay_g"]))
    assert all(abs(ay[k] - h) <= 0.0005 for k, h in zip(kmh, held)), (held, ay)
    assert None not in j["turn_ay_g"] and all(0.8 * p < h < p for h, p in zip(held, pm)), (held, pm)
    tail = [a for k, a in zip(j["turn_kmh"], j["turn_ay_g"]) if k >= 54]
    assert all(a > b for a, b in zip(tail, tail[1:])), j["turn_ay_g"]
    return "%.3f s against %.3f s; %s g at %s km/h (the point mass %s g)" % (t, j["lap_time_s"], held, kmh, pm)

for name, check in (("lapsim_on_springs", springs), ("lapsim_steady_turns", turns)):
    try:
        print("ok\t%s\t%s" % (name, check()))
    except Exception as ex:
        print("bad\t%s\t%s: %s" % (name, type(ex).__name__, ex))
PY
for name in lapsim_on_springs lapsim_steady_turns; do
  v=$(grep "	$name	" "$TMP/lapsim_checks")
  case $v in
    ok*) ok "$name ($(echo "$v" | cut -f3))";;
    bad*) bad "$name" "$(echo "$v" | cut -f3)";;
    *) bad "$name" "no verdict: $(tail -1 "$TMP/lapsim_checks")";;
  esac
done
min_s=$(sed -n 's/.*"lap_time_s":\([0-9.]*\).*/\1/p' "$TMP/lapsim_json")
awk -v s="$min_s" -v t="$min_txt" 'BEGIN { split(t, a, ":"); exit !(s != "" && sprintf("%.3f", a[1] * 60 + a[2]) == sprintf("%.3f", s)) }' \
  && ok lapsim_text_is_json || bad lapsim_text_is_json "text $min_txt, json $min_s"
# less grip, a slower lap; the centre line, slower than the racing line
"$MT" lapsim sport1000 laguna_seca --json --grip 0.8 > "$TMP/g08" 2>&1
"$MT" lapsim sport1000 laguna_seca --json --line centre > "$TMP/ctr" 2>&1
g08=$(sed -n 's/.*"lap_time_s":\([0-9.]*\).*/\1/p' "$TMP/g08"); ctr=$(sed -n 's/.*"lap_time_s":\([0-9.]*\).*/\1/p' "$TMP/ctr")
awk -v a="$min_s" -v b="$g08" -v c="$ctr" 'BEGIN { exit !(a > 0 && b > a && c > a) }' \
  && ok lapsim_orders || bad lapsim_orders "100 %: $min_s s, 80 %: $g08 s, centre line: $ctr s"
expect_exit lapsim_help 0 "$MT" lapsim --help
expect_match lapsim_help_grip '--grip G' "$TMP/out"
expect_error lapsim_bad_line 'lapsim: --line: expected "racing" or "centre", got "fast"' "$MT" lapsim sport1000 laguna_seca --line fast
expect_error lapsim_bad_grip 'lapsim: --grip: 0 is outside \[0\.1, 1\.5\]' "$MT" lapsim sport1000 laguna_seca --grip 0
expect_error lapsim_no_track 'nowhere\.lua: cannot open' "$MT" lapsim sport1000 nowhere
# a lap needs a closed track: the straight's ends never meet (its profile would be the rev limit
# end to end, "minimum lap 0:22.852"); the race profile refuses it the same way, naming the field
expect_error lapsim_open_track 'lapsim: track straight is open \(its ends 2000 m apart along it\): a lap needs a closed track' \
  "$MT" lapsim sport1000 straight

# the script's profile field: what it refuses
cat > "$TMP/bad_profile.lua" <<'LUA'
return { rig = "sport1000", track = "laguna_seca", duration = 1, start = { station = 0, speed = 30 },
  rider = { line = "racing", profile = "fast" } }
LUA
expect_error race_bad_profile "bad_profile\.lua.*profile.*expected \"cautious\" or \"race\", got \"fast\"" "$MT" run "$TMP/bad_profile.lua" --dry-run
# rider.practice (takes/practice.h): a whole number of laps up to 20, and only for the race profile
for bad in "2.5:must be a whole number of laps within \[0, 20\], got 2.5" "21:must be a whole number of laps within \[0, 20\], got 21" \
           "-1:must be a whole number of laps within \[0, 20\], got -1"; do
  printf 'return { rig = "sport1000", track = "laguna_seca", duration = 1, start = { station = 0, speed = 30 },\n  rider = { line = "racing", profile = "race",\n    practice = %s } }\n' "${bad%%:*}" > "$TMP/bad_practice.lua"
  expect_error "race_bad_practice_${bad%%:*}" "bad_practice\.lua:3: rider: field .practice.: ${bad#*:}" "$MT" run "$TMP/bad_practice.lua" --dry-run
done
printf 'return { rig = "sport1000", track = "laguna_seca", duration = 1, start = { station = 0, speed = 30 },\n  rider = { line = "racing", practice = 3 } }\n' > "$TMP/cautious_practice.lua"
expect_error race_practice_not_cautious 'cautious_practice\.lua:2: rider: field .practice.: only with profile = "race"' "$MT" run "$TMP/cautious_practice.lua" --dry-run
cat > "$TMP/capped.lua" <<'LUA'
return { rig = "sport1000", track = "laguna_seca", duration = 1, start = { station = 0, speed = 30 },
  rider = { line = "racing", profile = "race", top_speed = 50 } }
LUA
expect_error race_no_cap "capped\.lua.*top_speed.*not with profile = \"race\"" "$MT" run "$TMP/capped.lua" --dry-run
cat > "$TMP/open.lua" <<'LUA'
return { rig = "sport1000", track = "straight", duration = 1, start = { station = 50, speed = 30 },
  rider = { line = "racing",
    profile = "race" } }
LUA
expect_error race_open_track 'open\.lua:3: rider: field .profile.: "race" rides the machine.s minimum lap, which needs a closed track; straight is open' \
  "$MT" run "$TMP/open.lua" -o "$TMP/open.take"
[ ! -e "$TMP/open.take" ] && ok race_open_track_no_file || bad race_open_track_no_file "a take was left"

# the racing lap, once
expect_exit race_lap_runs 0 "$MT" run "$ROOT/takes/laguna_race.lua" --dry-run
cp "$TMP/out" "$TMP/race"
expect_match race_lap_complete 'end: flying lap complete' "$TMP/race"
# on its wheels and on the tarmac the whole way (a lap with a trip over the grass is no racing lap)
grep -q 'fell at\|LEFT THE TRACK\|off track' "$TMP/race" && bad race_lap_clean "$(grep 'fell\|LEFT\|off track' "$TMP/race")" || ok race_lap_clean
lap=$(sed -n 's/^  race: lap \([0-9]*\):\([0-9.]*\), .*/\1 \2/p' "$TMP/race")
rmin=$(sed -n 's/^  race: .*minimum lap \([0-9]*:[0-9.]*\) .*/\1/p' "$TMP/race")
[ "$rmin" = "$min_txt" ] && ok race_minimum_is_lapsim || bad race_minimum_is_lapsim "run says $rmin, lapsim says $min_txt"
# today's lap (1:35.441, +1.94 % of the minimum along the line, 1:33.622; 1:35.934, +2.47 %, without
# practice; 98.5 % of the grip, braking within
# 90 % of the stoppie limit, upshifts on the limiter upright): faster than the cautious fast lap
# (1:44.473) and within 3 %, as the issue asks (round three's 1:36.713, +3.30 %, at 97 % within 88 % of
# the stoppie limit and 500 rpm short, fails it; at 98.5 % with round three's 88 % and 500 rpm the
# racer falls at 61.80 s in the Corkscrew)
echo "$lap" | awk -v m="$min_s" '{ t = $1 * 60 + $2; exit !(t > m && t < 104.473 && t < 1.03 * m) }' \
  && ok race_lap_time || bad race_lap_time "lap '$lap' against the minimum $min_s s"
# full throttle for 20 s and more (21.8 s; 12.9 s at 76 %), the shift point reached, every gear up to 6th, no speed cap (> 250 km/h)
sed -n 's/^  engine: throttle up to \([0-9.]*\) (\([0-9.]*\) s full), \([0-9]*\) rpm, .* gears up to \([0-9]*\)$/\1 \2 \3 \4/p' "$TMP/race" |
  awk '{ ok = ($1 >= 0.999 && $2 >= 20 && $3 >= 13200 && $4 == 6) } END { exit !(NR == 1 && ok) }' && ok race_engine || bad race_engine "$(grep engine: "$TMP/race")"
# the rev limiter used: upright the upshift comes on it, as its fuel cut begins (13 500 rpm, the cut
# whole 150 rpm higher), leaned past 7.5° short of it (today 6 and 4: 13 500-13 503 rpm upright,
# 13 301-13 322 rpm leaned; round seven's 5 and 5 at 2.8-6.3° and 7.5-19° of lean). Shifting 200 rpm short at every lean (round
# six's racer) has none on the limiter and fails here.
sed -n 's/^  upshifts: \([0-9]*\) on the rev limiter (\([0-9]*\)-\([0-9]*\) rpm), \([0-9]*\) short of it (\([0-9]*\)-\([0-9]*\) rpm); the racer shifts short only leaned past \([0-9.]*\) deg$/\1 \2 \3 \4 \5 \6 \7/p' "$TMP/race" |
  awk '{ ok = ($1 >= 4 && $2 >= 13500 && $3 < 13650 && $6 < 13500 && $7 > 0) } END { exit !(NR == 1 && ok) }' \
  && ok race_upshifts_on_the_limiter || bad race_upshifts_on_the_limiter "$(grep 'upshifts:' "$TMP/race")"
sed -n 's/^  speed [0-9.]*–\([0-9.]*\) km\/h.*/\1/p' "$TMP/race" | awk '{ ok = ($1 > 250) } END { exit !(NR == 1 && ok) }' \
  && ok race_no_speed_cap || bad race_no_speed_cap "$(grep '^  speed' "$TMP/race")"
# the margins line names the limits: lean against the tyres' (61.4° on the flat), braking against
# min(grip, stoppie) (1.355 g); today's floors: lean ≥ 55°, braking ≥ 1.12 g (55.6°, 1.139 g; round
# three 55.0°, 1.132 g; 54.0°, 1.047 g before the slipper), the rear light (≤ 10 %: 2 %)
sed -n 's/^  margins: lean \([0-9.]*\) deg of \([0-9.]*\) .* braking \([0-9.]*\) g of \([0-9.]*\) g .* rear load down to \([0-9]*\) %.*/\1 \2 \3 \4 \5/p' "$TMP/race" |
  awk '{ ok = ($1 >= 55 && $2 > 60 && $2 < 63 && $3 >= 1.12 && $4 > 1.3 && $4 < 1.4 && $5 <= 10) } END { exit !(NR == 1 && ok) }' \
  && ok race_margins || bad race_margins "$(grep margins: "$TMP/race")"
# the lean limit as the machine has it: lapsim's 61.4° is a point mass's on the rear tyre's crown;
# the machine's own steady turn (sim/trim.h, the rider sitting still) ends where its rear tyre
# saturates, 58.7° at 137 km/h, the speed of the lap's largest seated lean (59.6°, T10): the lap's
# hardest corner is within 2° of it (+0.9). The fast corners one by one: race_lean_by_corner.
sed -n 's/^  margins: lean [0-9.]* deg of \([0-9.]*\) ([-+0-9.]* deg; \([0-9.]*\) deg, [-+0-9.]*, with the rider.s hang-off taken back; the machine.s steady turn saturates its \(rear\|front\) tyre beyond \([0-9.]*\) deg at \([0-9]*\) km\/h: \([-+0-9.]*\)).*/\1 \2 \4 \5 \6/p' "$TMP/race" |
  awk '{ ok = (NF == 5 && $3 > 55 && $3 < $1 && $4 > 30 && ($2 - $3) ^ 2 <= 4 && ($2 - $3 - $5) ^ 2 <= 0.0101) } END { exit !(NR == 1 && ok) }' \
  && ok race_lean_at_the_steady_turn_limit || bad race_lean_at_the_steady_turn_limit "$(grep margins: "$TMP/race")"
# braking at 90 % and more of the lesser of grip and the stoppie limit (issue 31), the stoppie limit
# as the machine has it: lapsim's g·(p − b)/h is a rigid machine's, and on its springs the sport1000
# dives and its rear lifts sooner (sim/brake_lift.h: a slow front-brake ramp on the flat, at the
# speed of the lap's hardest braking; today 1.139 g, 94 % of 1.206 g at 94 km/h, the rear at 2 %)
sed -n 's/^  margins: .* braking \([0-9.]*\) g of \([0-9.]*\) g ([0-9]* %), \([0-9]*\) % of \([0-9.]*\) g where the rear lifts as the machine dives at \([0-9]*\) km\/h, rear load down to \([0-9]*\) %.*/\1 \2 \3 \4 \5 \6/p' "$TMP/race" |
  awk '{ ok = (NF == 6 && $3 >= 90 && $4 > 1.0 && $4 < $2 && $5 > 50 && $6 <= 5 && ($1 / $4 * 100 - $3) ^ 2 <= 0.25) } END { exit !(NR == 1 && ok) }' \
  && ok race_braking_at_the_stoppie_limit || bad race_braking_at_the_stoppie_limit "$(grep margins: "$TMP/race")"
# full throttle out of corners up to the wheelie limit (issue 31), the wheelie limit as the machine
# has it: lapsim's g·b/h is a rigid machine's (1.213 g), and on its springs, with the wheels' and the
# crank's spin and the air, the sport1000's front lifts sooner (sim/drive_lift.h: a slow throttle
# ramp on the flat, at the speed of the lap's hardest drive). Today the lap drives at 96 % of it
# (0.954 g against 0.995 g at 150 km/h), the front light (down to 2 %); the plan drives within 98 %
# of the least of it at 15-40 m/s (takes/run.c RACE_WHEELIE_SHARE; round eight's plan, at the rigid
# limit, drove at 107 % of it, the front in the air). Held: the squatted limit below the rigid one
# and above 0.9 g, the share as printed, the drive at 90 % of it or more, the front light (≤ 5 %),
# and the plan's drive (the grip line's `planned peak ... drive`) within the squatted limit.
sed -n 's/^  margins: .*; drive \([0-9.]*\) g of the wheelie.s \([0-9.]*\) g, \([0-9]*\) % of \([0-9.]*\) g where the front lifts as the machine squats at \([0-9]*\) km\/h, front load down to \([0-9]*\) %$/\1 \2 \3 \4 \5 \6/p' "$TMP/race" |
  awk '{ ok = (NF == 6 && $4 > 0.9 && $4 < $2 && $3 >= 90 && $5 > 30 && $6 <= 5 && ($1 / $4 * 100 - $3) ^ 2 <= 0.25) } END { exit !(NR == 1 && ok) }' \
  && ok race_drive_at_the_wheelie_limit || bad race_drive_at_the_wheelie_limit "$(grep margins: "$TMP/race")"
pdrive=$(sed -n 's/^  grip: .*; planned peak a_y [0-9.]* g, braking [0-9.]* g, drive \([0-9.]*\) g;.*/\1/p' "$TMP/race")
sqlift=$(sed -n 's/^  margins: .* % of \([0-9.]*\) g where the front lifts as the machine squats .*/\1/p' "$TMP/race")
echo "$pdrive $sqlift" | awk '{ ok = (NF == 2 && $1 <= $2 && $1 >= 0.9 * $2) } END { exit !(NR == 1 && ok) }' \
  && ok "race_plan_within_the_squatted_wheelie ($pdrive g of $sqlift g)" \
  || bad race_plan_within_the_squatted_wheelie "planned drive '$pdrive' g, the front lifts at '$sqlift' g"
# the lean with the rider's hang-off taken back (posture_roll_offset, sim/posture.h): the balance a
# rider sitting still would need, against the same limit; the hang-off is worth 3.9° here (55.6°
# leaned, 59.5° seated), and no more than the limit (a seated lean past it would have slid)
sed -n 's/^  margins: lean \([0-9.]*\) deg of \([0-9.]*\) ([-+0-9.]* deg; \([0-9.]*\) deg, [-+0-9.]*, with the rider.s hang-off taken back[;)].*/\1 \2 \3/p' "$TMP/race" |
  awk '{ ok = ($3 >= $1 + 2 && $3 <= $2 + 0.5) } END { exit !(NR == 1 && ok) }' && ok race_lean_seated || bad race_lean_seated "$(grep margins: "$TMP/race")"
# the same minimum within the machine's own steady turns (sim/lapsim.h lapsim_machine_turns) is
# lapsim's, and the lap's margin to it as printed; the plan's ask against what the turn holds: its
# largest, in the corner named, is the largest of the corners line's (today 108 %, T1, 198 km/h); the
# plan corners at the script's grip of the point mass's μy·n·g, so where it is at that limit it asks
# grip·μy/μt(v) of the turn's hold (lapsim's turn_mu, the load factor the same in both)
grip=$(sed -n 's/.*grip = \([0-9.]*\),.*/\1/p' "$ROOT/takes/laguna_race.lua")
if python3 - "$TMP/race" "$TMP/lapsim_json" "$grip" > "$TMP/rturns" 2>&1 <<'PY'
import json, re, sys
txt = open(sys.argv[1]).read()
j = json.loads(open(sys.argv[2]).read())
m = re.search(r"^  steady turns: the minimum cornering within the machine's own steady turn \(sim/lapsim\.h\) is "
              r"([0-9]+):([0-9.]+), the lap ([-+0-9.]+) %; the plan asks up to ([0-9]+) % of the lateral acceleration "
              r"it holds \((T[0-9]+), ([0-9]+) km/h\)$", txt, re.M)
if not m:
    sys.exit("no 'steady turns' line: %r" % [l for l in txt.splitlines() if "steady turns" in l])
t = 60 * int(m.group(1)) + float(m.group(2))
lap = re.search(r"^  race: lap ([0-9]+):([0-9.]+),", txt, re.M)
lt = 60 * int(lap.group(1)) + float(lap.group(2))
assert abs(t - j["lap_time_turns_s"]) < 0.0005, (t, j["lap_time_turns_s"])
assert abs(100 * (lt / t - 1) - float(m.group(3))) <= 0.006, (lt, t, m.group(3))
asks = dict(re.findall(r"(T\d+) [0-9.]+ \([0-9.]+\) of [0-9.]+ deg at [0-9]+ km/h: [-+0-9.]+ \[plan ([0-9]+) %\]", txt))
assert len(asks) == 11 and all(90 <= int(a) <= 120 for a in asks.values()), asks
worst = max(asks, key=lambda k: int(asks[k]))
assert int(m.group(4)) == int(asks[worst]) and asks[m.group(5)] == m.group(4), (m.groups(), asks)
v, ks, mus = float(m.group(6)), j["turn_kmh"], j["turn_mu"]
k = max(i for i in range(len(ks) - 1) if ks[i] <= v or i == 0)
mut = mus[k] + (min(max(v, ks[0]), ks[-1]) - ks[k]) / (ks[k + 1] - ks[k]) * (mus[k + 1] - mus[k])
want = 100 * float(sys.argv[3]) * j["mu_y"] / mut
assert abs(int(m.group(4)) - want) <= 1.5, (m.group(4), want, v, mut)
print("%.3f s, the lap %s %%; the plan up to %s %% (%s; grip x mu_y/mu_t there %.1f %%)" % (t, m.group(3), m.group(4), m.group(5), want))
PY
then ok "race_steady_turns ($(cat "$TMP/rturns"))"; else bad race_steady_turns "$(tail -1 "$TMP/rturns")"; fi
# the flying lap corner by corner (takes/corners.h): every corner board of the track, in order, its
# largest seated lean (and the machine's own, less by the hang-off) against the machine's steady-turn
# limit at the speed there, the difference as printed; the lap's largest seated lean is the
# margins line's (T10, 59.6°). Issue 31's "lean within 2° of the tyres' limit in the fast corners":
# every corner ridden at 100 km/h or more where the plan asks the grip's limit (the plan's ask at
# 100 % or more of what the machine's steady turn holds: T1, T6, T9 and T10; T7 is a kink the plan
# takes at 93 %) is within 2° of its limit, and so are T3 and T8 (the Corkscrew). Today T1 -0.9,
# T6 -0.4, T9 -1.0, T10 +0.9, T3 -1.6, T8 -1.7, after practice (below). Without practice (the
# script's practice = 0: the plan's own lap, 1:35.934) T1 is 2.5° short and T6 4.2°, and this fails.
# The slower corners are not held: T2 -3.3, T4 -5.3, T5 -4.4, T11 -3.9 (docs/takes.md, round eleven).
if python3 - "$TMP/race" > "$TMP/corners" 2>&1 <<'PY'
import re, sys
txt = open(sys.argv[1]).read()
m = re.search(r"^  corners \(the flying lap; seated lean \(the machine's\) against the steady turn's limit at its speed "
              r"\[the plan's most lateral acceleration against what that turn holds\]\): (.*)$", txt, re.M)
if not m:
    sys.exit("no corners line")
rows = re.findall(r"(T\d+) ([0-9.]+) \(([0-9.]+)\) of ([0-9.]+) deg at ([0-9]+) km/h: ([-+0-9.]+) \[plan ([0-9]+) %\]", m.group(1))
names = [r[0] for r in rows]
assert names == ["T%d" % i for i in range(1, 12)], names
c = {r[0]: [float(x) for x in r[1:]] for r in rows}
for n, (seated, lean, fold, kmh, d, plan) in c.items():
    assert 55 < fold < 61.4 and seated >= lean and 30 < kmh < 300, (n, seated, lean, fold, kmh)
    assert abs(seated - fold - d) <= 0.11, (n, seated, fold, d)
mg = re.search(r"^  margins: lean [0-9.]+ deg of [0-9.]+ \([-+0-9.]+ deg; ([0-9.]+) deg", txt, re.M)
assert mg and abs(max(v[0] for v in c.values()) - float(mg.group(1))) <= 0.05, (mg and mg.group(1), c)
fast = [n for n in names if c[n][3] >= 100 and c[n][5] >= 100]
assert {"T1", "T6", "T9", "T10"} <= set(fast), fast
for n in fast + ["T3", "T8"]:
    assert abs(c[n][4]) <= 2, (n, c[n])
print(", ".join("%s %+.1f" % (n, c[n][4]) for n in names) + "; fast: " + " ".join(fast))
PY
then ok "race_lean_by_corner ($(cat "$TMP/corners"))"; else bad race_lean_by_corner "$(tail -1 "$TMP/corners")"; fi
# the racer's practice (rider.practice, takes/practice.h): up to the script's 8 dry laps before the
# take, each changing one fast corner's speed over the plan in its turn; the take rides the last lap
# that lapped and repeats it to the millisecond (the ride is deterministic); the corners it learnt
# are fast ones and the summary's speeds are the last lapped try's. Today 5 laps, all lapped: T6
# +3.00 m/s (-2.4°), T1 +2.20 (-2.1°), T6 +5.90 (-0.4°), T1 +5.20 (-0.9°).
if python3 - "$TMP/race" > "$TMP/practice" 2>&1 <<'PY'
import re, sys
txt = open(sys.argv[1]).read()
m = re.search(r"^  practice: ([0-9]+) laps?, ([0-9]+) lapped \((.*)\); the take rides the last that lapped "
              r"\(([0-9]+):([0-9.]+)\), over the plan in the turn: (.*)$", txt, re.M)
if not m:
    sys.exit("no practice line: %r" % [l for l in txt.splitlines() if "practice" in l])
laps, lapped = int(m.group(1)), int(m.group(2))
tries = m.group(3).split("; ")
assert 2 <= laps <= 8 and 1 <= lapped <= laps and len(tries) == laps and tries[0] == "the plan: lapped", (laps, lapped, tries)
lap = re.search(r"^  race: lap ([0-9]+):([0-9.]+),", txt, re.M)
assert lap.groups() == (m.group(4), m.group(5)), (lap.groups(), m.group(4), m.group(5))
speeds = dict((n, float(v)) for n, v in re.findall(r"(T\d+) ([-+0-9.]+) m/s", m.group(6)))
assert set(speeds) <= {"T1", "T6", "T9", "T10"} and speeds.get("T1", 0) > 0 and speeds.get("T6", 0) > 0, speeds
last = {}
for t in tries[1:]:
    k = re.fullmatch(r"(T\d+) ([-+0-9.]+) m/s: (no lap|[-+0-9.]+ deg)", t)
    assert k, t
    if k.group(3) != "no lap":
        last[k.group(1)] = float(k.group(2))
assert all(abs(last[n] - v) < 0.006 for n, v in speeds.items()), (last, speeds)
print("%d laps, %d lapped; %s" % (laps, lapped, ", ".join("%s %+.2f m/s" % kv for kv in speeds.items())))
PY
then ok "race_practice ($(cat "$TMP/practice"))"; else bad race_practice "$(tail -1 "$TMP/practice")"; fi
