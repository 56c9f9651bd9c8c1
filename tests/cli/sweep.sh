# sweep.sh — `mototake sweep`: a grid of takes on a process pool, its SQLite index (read by the
# sqlite3 tool and by Python), reruns that skip done points, a failing point, SIGINT, the
# GNU parallel and SLURM job lists, and `sweep report` (table, CSV, PNG). Takes of 0.5 s.
S="$TMP/short.lua"
cat > "$S" <<'LUA'
return { rig = "sport1000", track = "straight", start = { station = 50, speed = 70 / 3.6 }, duration = 0.5,
  rider = { line = "centre", speed = 70 / 3.6, posture = false },
  inputs = { { at = 0.2, steer_torque = 40, hold = 0.02 } } }
LUA
C=bodies.steering.joints.steer.spring.c
D="$TMP/grid"
q() { sqlite3 "$D/index.sqlite" "$1"; }

# A 3 x 2 grid on 2 processes; payload.mass = -50 is refused by the rig: those points fail, the rest go on.
expect_exit sweep_grid 0 "$MT" sweep "$S" --vary payload.mass=-50:50:3 --vary $C=0.5:6.944:2 --jobs 2 -o "$D"
grep -q "^sweep: \[6/6\] " "$TMP/err" && grep -Eq "^sweep: \[[1-6]/6\] p0005 payload\.mass=50 bodies\.steering\.joints\.steer\.spring\.c=6\.944: ok" "$TMP/err" && ok sweep_progress \
  || bad sweep_progress "$(head -c 400 "$TMP/err")"
n=$(ls "$D"/p000?.take 2>/dev/null | wc -l)
[ "$n" = 4 ] && ok "sweep_takes_in_dir" || bad sweep_takes_in_dir "$n takes, wanted 4 (points 2-5)"
[ "$(q "SELECT count(*) FROM points")" = 6 ] && ok sweep_index_rows || bad sweep_index_rows "$(q 'SELECT count(*) FROM points')"
[ "$(q "SELECT group_concat(point) FROM points WHERE status='failed'")" = "0,1" ] && ok sweep_failed_points_recorded \
  || bad sweep_failed_points_recorded "$(q "SELECT point, status, error FROM points")"
q "SELECT error FROM points WHERE point=0" > "$TMP/e0"
grep -Eq "sport1000\.lua:[0-9]+: payload: field 'mass': must be within \[0, 500\] kg, got -50" "$TMP/e0" && ok sweep_failed_error_names_field \
  || bad sweep_failed_error_names_field "$(cat "$TMP/e0")"
[ "$(q "SELECT count(*) FROM points WHERE status='ok' AND verify='bit-exact' AND complete=1")" = 4 ] && ok sweep_ok_points_verified \
  || bad sweep_ok_points_verified "$(q "SELECT point, status, verify FROM points")"
# each point's log holds what its own commands wrote (they run in forked children of the sweep,
# without exec: nothing of the sweep's own output, once each): the run is quiet, so one line, the
# verification's, naming the point's own take
bad_logs=""
for p in 2 3 4 5; do
  L="$D/p000$p.log"
  [ "$(wc -l < "$L")" = 1 ] && grep -q "^$D/p000$p.take: bit-exact: " "$L" || bad_logs="$bad_logs p000$p: $(head -c 200 "$L")"
done
[ -z "$bad_logs" ] && ok sweep_point_logs_hold_their_commands_only || bad sweep_point_logs_hold_their_commands_only "$bad_logs"
# each take carries its point's parameters as overrides (after the script's own)
"$MT" take info "$D/p0004.take" > "$TMP/info" 2>&1
expect_match sweep_take_has_overrides "overrides +\[\"payload\.mass=50\",\"$C=0\.5\"\]" "$TMP/info"
# the index's metrics agree with what `mototake run` itself reports for the same point (its summary:
# speeds in km/h and the lean to 0.1)
"$MT" run "$S" -o "$TMP/same.take" --set payload.mass=50 --set $C=0.5 > "$TMP/run" 2>&1
want=$(sed -n 's/.*speed \([0-9.]*\)–\([0-9.]*\) km\/h, max lean \([0-9.]*\) deg.*/\1 \2 \3/p' "$TMP/run")
got=$(q "SELECT printf('%.1f %.1f %.1f', min_speed*3.6, max_speed*3.6, max_lean) FROM points WHERE point=4")
[ -n "$want" ] && [ "$want" = "$got" ] && ok "sweep_metrics_match_run ($got)" || bad sweep_metrics_match_run "index '$got', run '$want'"
# ... and with a computation independent of both (issue 37): `take channels` writes every step of
# point 4's speed, lean and offset; Python takes their extremes and the step count, which the index
# must hold to the CSV's precision (the channels are 32-bit floats, printed to 9 digits)
"$MT" take channels "$D/p0004.take" -o "$TMP/p4.csv" --channels speed,lean,offset > /dev/null 2>&1
q "SELECT min_speed, max_speed, max_lean, max_offset, duration FROM points WHERE point=4" > "$TMP/p4.idx"
python3 - "$TMP/p4.csv" "$TMP/p4.idx" > "$TMP/py" 2>&1 <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))[1:]   # the first row after the header holds the units
col = lambda k: [float(r[k]) for r in rows]
t, sp = col("time"), col("speed")
want = {"min_speed": min(sp), "max_speed": max(sp), "max_lean": max(map(abs, col("lean"))),
        "max_offset": max(map(abs, col("offset"))), "duration": len(rows) * (t[1] - t[0])}
got = dict(zip(want, map(float, open(sys.argv[2]).read().strip().split("|"))))
off = {k: (got[k], w) for k, w in want.items() if abs(got[k] - w) > 1e-6 * max(abs(w), 1e-3)}
print("metrics ok" if len(rows) == 500 and not off else "index vs channels: %s (%d rows)" % (off, len(rows)))
PY
expect_match sweep_metrics_match_channels '^metrics ok$' "$TMP/py"
# the view has one column per varied key, and Python's sqlite3 reads it
python3 - "$D/index.sqlite" > "$TMP/py" 2>&1 <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
cols = [d[0] for d in db.execute("SELECT * FROM results").description]
assert cols[:3] == ["payload.mass", "bodies.steering.joints.steer.spring.c", "point"], cols
rows = db.execute('SELECT "payload.mass", "bodies.steering.joints.steer.spring.c", status FROM results ORDER BY point').fetchall()
assert [(r[0], r[1]) for r in rows] == [(-50, 0.5), (-50, 6.944), (0, 0.5), (0, 6.944), (50, 0.5), (50, 6.944)], rows
assert [r[2] for r in rows] == ["failed"] * 2 + ["ok"] * 4, rows
n = db.execute("SELECT count(*) FROM params").fetchone()[0]
assert n == 12, n
print("python ok", len(rows))
PY
expect_match sweep_python_reads_index '^python ok 6$' "$TMP/py"

# Rerun: nothing is run again; a point removed from the index is done again, alone.
before=$(q "SELECT group_concat(finished) FROM points")
expect_exit sweep_rerun 0 "$MT" sweep "$S" --vary payload.mass=-50:50:3 --vary $C=0.5:6.944:2 --jobs 2 -o "$D"
expect_match sweep_rerun_skips '6 in the index already, 0 to run' "$TMP/err"
[ "$(q "SELECT group_concat(finished) FROM points")" = "$before" ] && ok sweep_rerun_keeps_rows || bad sweep_rerun_keeps_rows "rows changed"
q "DELETE FROM points WHERE point=3"
expect_exit sweep_continue 0 "$MT" sweep "$S" --vary payload.mass=-50:50:3 --vary $C=0.5:6.944:2 --jobs 2 -o "$D"
expect_match sweep_continue_runs_one '5 in the index already, 1 to run' "$TMP/err"
[ "$(q "SELECT status || verify FROM points WHERE point=3")" = "okbit-exact" ] && ok sweep_continue_point_done || bad sweep_continue_point_done "$(q 'SELECT * FROM points WHERE point=3')"
expect_error sweep_other_grid_same_dir "holds a different sweep" "$MT" sweep "$S" --vary payload.mass=0:50:3 -o "$D"

# Bad input: one line, exit 2, nothing started.
expect_error sweep_vary_syntax "--vary 'payload\.mass=0:50': expected KEY=A:B:N" "$MT" sweep "$S" --vary payload.mass=0:50 -o "$TMP/bad"
expect_error sweep_vary_not_number "--vary 'payload\.mass=a:50:3': A and B must be plain decimal" "$MT" sweep "$S" --vary payload.mass=a:50:3 -o "$TMP/bad"
expect_error sweep_vary_n_zero "N must be a whole number in 1\.\.10000" "$MT" sweep "$S" --vary payload.mass=0:50:0 -o "$TMP/bad"
expect_error sweep_vary_unknown_key "--vary payload\.mas: no such numeric parameter of rig" "$MT" sweep "$S" --vary payload.mas=0:50:3 -o "$TMP/bad"
expect_error sweep_vary_twice "--vary payload\.mass is given twice" "$MT" sweep "$S" --vary payload.mass=0:1:2 --vary payload.mass=0:1:2 -o "$TMP/bad"
expect_error sweep_huge_grid "more than 100000 points" "$MT" sweep "$S" --vary payload.mass=0:1:10000 --vary payload.x=0:1:10000 -o "$TMP/bad"
expect_error sweep_needs_o "-o DIR is required" "$MT" sweep "$S" --vary payload.mass=0:1:2
expect_error sweep_no_script "nope\.lua" "$MT" sweep "$TMP/nope.lua" --vary payload.mass=0:1:2 -o "$TMP/bad"
[ ! -e "$TMP/bad" ] && ok sweep_bad_input_makes_nothing || bad sweep_bad_input_makes_nothing "$TMP/bad exists"

# A folder of someone else's files (issue 29 finding 4): without an index there, a p0000.take in it
# is not the sweep's. The sweep (and --emit, for a README.txt) refuses by name, exit 2, and the
# folder stays as it was.
F="$TMP/theirs"; mkdir -p "$F"; echo "someone's take" > "$F/p0000.take"; cp "$F/p0000.take" "$TMP/theirs.take"
expect_error sweep_refuses_foreign_take "theirs/p0000\.take is not from a sweep .*refusing to overwrite it" \
  "$MT" sweep "$S" --vary payload.mass=0:50:2 --jobs 1 -o "$F"
cmp -s "$F/p0000.take" "$TMP/theirs.take" && [ "$(ls "$F")" = p0000.take ] \
  && ok sweep_foreign_take_untouched || bad sweep_foreign_take_untouched "now holds: $(ls "$F" | tr '\n' ' ')"
F="$TMP/theirs2"; mkdir -p "$F"; echo "someone's notes" > "$F/README.txt"; cp "$F/README.txt" "$TMP/theirs.txt"
expect_error sweep_emit_refuses_foreign_readme "theirs2/README\.txt is not from a sweep .*refusing to overwrite it" \
  "$MT" sweep "$S" --vary payload.mass=0:50:2 -o "$F" --emit gnu-parallel
cmp -s "$F/README.txt" "$TMP/theirs.txt" && [ "$(ls "$F")" = README.txt ] \
  && ok sweep_foreign_readme_untouched || bad sweep_foreign_readme_untouched "now holds: $(ls "$F" | tr '\n' ' ')"

# SIGINT: the running take is stopped, the index stays consistent, a rerun finishes the grid.
I="$TMP/int"
"$MT" sweep "$S" --vary payload.mass=0:50:6 --jobs 1 --no-verify -o "$I" 2> "$TMP/int.err" &
pid=$!
k=0
while [ $k -lt 600 ]; do
  [ "$(sqlite3 "$I/index.sqlite" "SELECT count(*) FROM points" 2>/dev/null)" -ge 1 ] 2>/dev/null && break
  sleep 0.1; k=$((k + 1))
done
kill -INT $pid; wait $pid; rc=$?
[ $rc = 130 ] && ok sweep_sigint_exit || bad sweep_sigint_exit "exit $rc: $(tail -2 "$TMP/int.err")"
expect_match sweep_sigint_says_rerun 'interrupted: [1-5] of 6 points in the index; run the same command again' "$TMP/int.err"
[ "$(sqlite3 "$I/index.sqlite" "PRAGMA integrity_check")" = ok ] && ok sweep_sigint_index_intact || bad sweep_sigint_index_intact "integrity_check failed"
n=$(sqlite3 "$I/index.sqlite" "SELECT count(*) FROM points WHERE status='ok'")
m=$(sqlite3 "$I/index.sqlite" "SELECT count(*) FROM points")
[ "$n" = "$m" ] && [ "$n" -ge 1 ] && [ "$n" -le 5 ] && ok "sweep_sigint_rows_finished ($n)" || bad sweep_sigint_rows_finished "$n ok of $m rows"
expect_exit sweep_sigint_rerun 0 "$MT" sweep "$S" --vary payload.mass=0:50:6 --jobs 1 --no-verify -o "$I"
[ "$(sqlite3 "$I/index.sqlite" "SELECT count(*) FROM points WHERE status='ok' AND verify='skipped'")" = 6 ] && ok sweep_sigint_rerun_completes \
  || bad sweep_sigint_rerun_completes "$(sqlite3 "$I/index.sqlite" "SELECT point, status FROM points")"

# GNU parallel: one command line per point; parallel --dry-run prints them as they are (-k: in the
# input order, which it does not keep by itself with several job slots); one run by the shell then
# `sweep index` indexes it (the rest stay out until their takes exist).
P="$TMP/par"
expect_exit sweep_emit_parallel 0 "$MT" sweep "$S" --vary payload.mass=0:40:3 --vary $C=2:4:2 -o "$P" --emit gnu-parallel
expect_match sweep_emit_parallel_howto "^run: parallel --sshloginfile HOSTS --jobs 1 < .*/jobs\.txt" "$TMP/out"
[ "$(wc -l < "$P/jobs.txt")" = 6 ] && ok sweep_jobs_lines || bad sweep_jobs_lines "$(wc -l < "$P/jobs.txt") lines"
expect_match sweep_jobs_line_form "run .*/short\.lua -o .*/par/p0005\.take --quiet --store-channels --set payload\.mass=40 --set $C=4 > .*/par/p0005\.log 2>&1$" "$P/jobs.txt"
parallel -k --dry-run < "$P/jobs.txt" > "$TMP/dry" 2>&1
cmp -s "$TMP/dry" "$P/jobs.txt" && ok sweep_parallel_dry_run || bad sweep_parallel_dry_run "$(head -c 300 "$TMP/dry")"
sed -n 3p "$P/jobs.txt" | sh
expect_exit sweep_index_parallel 0 "$MT" sweep index "$P" --jobs 2
[ "$(sqlite3 "$P/index.sqlite" "SELECT point || status || verify FROM points")" = "2okbit-exact" ] && ok sweep_index_collects_one \
  || bad sweep_index_collects_one "$(sqlite3 "$P/index.sqlite" "SELECT * FROM points")"
expect_match sweep_index_names_missing '5 points have no finished take yet' "$TMP/err"

# SLURM: a job array script; syntax check, then one task run as SLURM would (SLURM_ARRAY_TASK_ID).
L="$TMP/slurm"
expect_exit sweep_emit_slurm 0 "$MT" sweep "$S" --vary payload.mass=0:40:3 -o "$L" --emit slurm
expect_match sweep_slurm_array '^#SBATCH --array=0-2$' "$L/sweep.slurm"
# the task's limits (main wrote neither, and many clusters refuse such a job): by default the
# script's duration at 5x real time, at least 5 minutes, and 512 MB; --time and --mem set them
expect_match sweep_slurm_time_default '^#SBATCH --time=00:05:00$' "$L/sweep.slurm"
expect_match sweep_slurm_mem_default '^#SBATCH --mem=512M$' "$L/sweep.slurm"
sed 's/^  duration = 40,/  duration = 3600,/' "$ROOT/tests/data/ride_40s.lua" > "$TMP/ride_long.lua"
"$MT" sweep "$TMP/ride_long.lua" --vary payload.mass=0:40:2 -o "$TMP/slong" --emit slurm > /dev/null
expect_match sweep_slurm_time_from_duration '^#SBATCH --time=00:12:00$' "$TMP/slong/sweep.slurm"
expect_exit sweep_slurm_limits 0 "$MT" sweep "$S" --vary payload.mass=0:40:3 -o "$TMP/slim" --emit slurm --time 90 --mem 2048
grep -q '^#SBATCH --time=01:30:00$' "$TMP/slim/sweep.slurm" && grep -q '^#SBATCH --mem=2048M$' "$TMP/slim/sweep.slurm" \
  && ok sweep_slurm_limits_written || bad sweep_slurm_limits_written "$(grep -E 'time|mem' "$TMP/slim/sweep.slurm")"
expect_error sweep_slurm_limits_alone "--time and --mem are a SLURM task's limits: they go with --emit slurm" \
  "$MT" sweep "$S" --vary payload.mass=0:40:3 -o "$TMP/slim2" --emit gnu-parallel --mem 100
expect_error sweep_slurm_time_range "--time: 0 is outside" "$MT" sweep "$S" --vary payload.mass=0:40:3 -o "$TMP/slim3" --emit slurm --time 0
bash -n "$L/sweep.slurm" && ok sweep_slurm_syntax || bad sweep_slurm_syntax "bash -n failed"
SLURM_ARRAY_TASK_ID=1 bash "$L/sweep.slurm"; rc=$?
[ $rc = 0 ] && [ -s "$L/p0001.take" ] && ok sweep_slurm_task_runs || bad sweep_slurm_task_runs "exit $rc: $(cat "$L/p0001.log" 2>/dev/null | head -c 300)"
SLURM_ARRAY_TASK_ID=7 bash "$L/sweep.slurm" 2> "$TMP/err"; rc=$?
[ $rc = 2 ] && grep -q 'no point 7 in this sweep' "$TMP/err" && ok sweep_slurm_bad_task || bad sweep_slurm_bad_task "exit $rc"
expect_exit sweep_index_slurm 0 "$MT" sweep index "$L"
[ "$(sqlite3 "$L/index.sqlite" "SELECT point || status || verify FROM points")" = "1okbit-exact" ] && ok sweep_index_slurm_row \
  || bad sweep_index_slurm_row "$(sqlite3 "$L/index.sqlite" "SELECT * FROM points")"
expect_error sweep_index_not_a_sweep "no sweep index here" "$MT" sweep index "$TMP/nothing"
expect_error sweep_emit_bad_kind "--emit make: expected gnu-parallel or slurm" "$MT" sweep "$S" --vary payload.mass=0:40:3 -o "$TMP/e2" --emit make

# Report: the table, CSV (RFC 4180, read back by Python's csv) and a plot.
expect_exit sweep_report_table 0 "$MT" sweep report "$D"
expect_match sweep_report_header '^point +payload\.mass +steer\.spring\.c status' "$TMP/out"
expect_match sweep_report_failed_row '^ +0 +-50 +0\.5 failed .*payload: field' "$TMP/out"
expect_exit sweep_report_csv 0 "$MT" sweep report "$D" -o "$TMP/t.csv"
python3 - "$TMP/t.csv" > "$TMP/py" 2>&1 <<'PY'
import csv, sys
raw = open(sys.argv[1], newline="").read()
assert raw.count("\r\n") == 8 and raw.count("\n") == 8, "CRLF rows"
rows = list(csv.reader(open(sys.argv[1], newline="")))
h = rows[0]
assert h[:3] == ["point", "payload.mass", "bodies.steering.joints.steer.spring.c"], h
assert rows[1][h.index("max_lean")] == "deg", rows[1]
data = rows[2:]
assert len(data) == 6 and all(len(r) == len(h) for r in data)
assert data[0][h.index("status")] == "failed" and "," in data[0][h.index("error")], data[0]
assert float(data[4][h.index("payload.mass")]) == 50 and data[4][h.index("verify")] == "bit-exact"
print("csv ok")
PY
expect_match sweep_report_csv_reads '^csv ok$' "$TMP/py"
expect_exit sweep_report_png 0 "$MT" sweep report "$D" -o "$TMP/p.png" --x payload.mass --y max_ay_g --size 800x500
python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); assert d[:8]==b'\x89PNG\r\n\x1a\n'; print(struct.unpack('>II', d[16:24]))" "$TMP/p.png" > "$TMP/py" 2>&1
expect_match sweep_report_png_size '^\(800, 500\)$' "$TMP/py"
expect_error sweep_report_bad_y "--y speed: not a numeric metric" "$MT" sweep report "$D" -o "$TMP/p.png" --y speed
expect_error sweep_report_bad_x "--x payload\.x: not a varied key" "$MT" sweep report "$D" -o "$TMP/p.png" --x payload.x
expect_error sweep_report_bad_ext "-o .*t\.txt: expected a \.csv or \.png" "$MT" sweep report "$D" -o "$TMP/t.txt"
printf 'SQLite format 3\000garbage' > "$TMP/nothing.sqlite"; mkdir -p "$TMP/fake"; cp "$TMP/nothing.sqlite" "$TMP/fake/index.sqlite"
expect_error sweep_report_not_index "fake/index\.sqlite" "$MT" sweep report "$TMP/fake"

# Physics through the index: the memo's wobble take (6 s, a steer-torque spike at 70 km/h) with the
# steering damper nearly removed (0.5 N*m*s/rad) wobbles more in the 6-12 Hz band than with the
# stock damper (6.944): the worst 1 s band RMS, measured 0.246 deg against 0.144 deg. (Before the
# rider's arms were in the model, issue 31, the nearly undamped take grew: 2.8 deg against 0.2,
# and this asked for 5 times and 1.5 deg; with the arms' damping it decays in both.)
W="$TMP/wob"
expect_exit sweep_wobble 0 "$MT" sweep "$ROOT/takes/wobble.lua" --vary $C=0.5:6.944:2 --jobs 2 --no-verify -o "$W"
r=$(sqlite3 "$W/index.sqlite" "SELECT (SELECT band_max FROM points WHERE point=0) > 1.5 * (SELECT band_max FROM points WHERE point=1)
  AND (SELECT band_max FROM points WHERE point=0) > 0.2")
[ "$r" = 1 ] && ok sweep_wobble_band_falls_with_damping || bad sweep_wobble_band_falls_with_damping "$(sqlite3 "$W/index.sqlite" "SELECT point, band_max FROM points")"

# SIGKILL of the sweep itself: its rider dies with it (no orphan keeps writing into DIR), the
# index stays readable, and a rerun finishes the grid.
K="$TMP/kill"
cat > "$TMP/long.lua" <<'LUA'
return { rig = "sport1000", track = "straight", start = { station = 50, speed = 20 }, duration = 30,
  rider = { line = "centre", speed = 20 } }
LUA
"$MT" sweep "$TMP/long.lua" --vary payload.mass=0:10:2 --jobs 1 --no-verify -o "$K" 2> /dev/null &
pid=$!
k=0
while [ $k -lt 300 ] && [ ! -s "$K/p0000.take" ]; do sleep 0.1; k=$((k + 1)); done
kill -KILL $pid; wait $pid 2> /dev/null
sleep 2
left=$(grep -l "kill/p0000[.]take" /proc/[0-9]*/cmdline 2> /dev/null | wc -l)   # (the pattern does not match its own grep)
[ -s "$K/p0000.take" ] && [ "$left" = 0 ] && ok sweep_sigkill_no_orphans || bad sweep_sigkill_no_orphans "take made: $([ -s "$K/p0000.take" ] && echo yes), $left processes still riding"
[ "$(sqlite3 "$K/index.sqlite" "PRAGMA integrity_check")" = ok ] && [ "$(sqlite3 "$K/index.sqlite" "SELECT count(*) FROM points")" = 0 ] \
  && ok sweep_sigkill_index_readable || bad sweep_sigkill_index_readable "$(sqlite3 "$K/index.sqlite" "SELECT count(*) FROM points" 2>&1)"
"$MT" take info "$K/p0000.take" > "$TMP/info" 2>&1
expect_match sweep_sigkill_take_incomplete "INCOMPLETE" "$TMP/info"
