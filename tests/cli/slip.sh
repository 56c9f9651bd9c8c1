# slip.sh — `mototake slip`: the telemetry estimate of the CG distances a and b and of the slip
# angles on the steady skidpad take, against the rig's and the tyre model's truth; the refusal on
# a take with no low-acceleration data; the CSV, JSON and PNG outputs; bad input.
if "$MT" run "$ROOT/takes/skidpad_steady.lua" -o "$TMP/skid.take" --quiet > "$TMP/out" 2> "$TMP/err"; then
  ok skidpad_steady_runs
else
  bad skidpad_steady_runs "$(head -c 300 "$TMP/err")"
fi
if "$MT" take verify "$TMP/skid.take" > "$TMP/out" 2>&1 && grep -q bit-exact "$TMP/out"; then ok skidpad_steady_verifies
else bad skidpad_steady_verifies "$(head -c 300 "$TMP/out")"; fi
expect_exit slip_text 0 "$MT" slip "$TMP/skid.take"
expect_match slip_text_a_line '^a = 0\.[0-9]{3} m \(rig 0\.[0-9]{3} m, [+-][0-9]+\.[0-9] %\)$' "$TMP/out"
expect_match slip_text_b_line '^b = 0\.[0-9]{3} m \(rig 0\.[0-9]{3} m, [+-][0-9]+\.[0-9] %\)$' "$TMP/out"
expect_exit slip_json 0 "$MT" slip "$TMP/skid.take" --json -o "$TMP/skid.png" --csv "$TMP/skid.csv"
cp "$TMP/out" "$TMP/skid.json"
# a and b within 5 % of the rig's (CG of machine and rider at the take's start, from MuJoCo's
# bodies); the estimated slip angles within 0.5 deg of the tyre model's in the linear region;
# the wheelbase from the rig's contacts is the sport1000's (1.40-1.44 m)
python3 - "$TMP/skid.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); e = j["estimate"]
def check(name, cond, why):
    print(("ok %s" % name) if cond else ("FAIL %s: %s" % (name, why)))
check("slip_rig_wheelbase", 1.40 < j["rig_a_m"] + j["rig_b_m"] < 1.44, "a + b = %.3f" % (j["rig_a_m"] + j["rig_b_m"]))
check("slip_a_within_5pct", e["ok"] and abs(e["a_error_pct"]) < 5, "a = %s m (rig %.3f): %s %%" % (e.get("a_m"), j["rig_a_m"], e.get("a_error_pct")))
check("slip_b_within_5pct", e["ok"] and abs(e["b_error_pct"]) < 5, "b = %s m (rig %.3f): %s %%" % (e.get("b_m"), j["rig_b_m"], e.get("b_error_pct")))
check("slip_used_most_candidates", e["used"] >= 200 and e["used"] <= e["candidates"], "%d of %d" % (e["used"], e["candidates"]))
check("slip_linear_samples", e["linear_samples"] > 3000, "%d" % e["linear_samples"])
check("slip_front_tracks_truth", e["front_max_deg"] < 0.5, "max |error| %.3f deg" % e["front_max_deg"])
check("slip_rear_tracks_truth", e["rear_max_deg"] < 0.5, "max |error| %.3f deg" % e["rear_max_deg"])
# the ramp reaches 0.8 g: the rear slips more than the front (the front's camber does more), and
# its slip grows with the lateral acceleration
check("slip_rear_climbs", j["rear_max_deg"] > 1.0 and j["front_max_deg"] < j["rear_max_deg"], "front %.2f, rear %.2f" % (j["front_max_deg"], j["rear_max_deg"]))
check("slip_one_segment", len(j["segments"]) == 1 and abs(j["segments"][0]["time_s"] - 80) < 0.05, str(j["segments"])[:200])
# zero slip taken at low a_y (the note's median) misses b by far more: the rear slip is not zero there
check("slip_median_biased", abs(e["b_median_m"] - j["rig_b_m"]) > 3 * abs(e["b_m"] - j["rig_b_m"]), "median b %.3f, intercept b %.3f, rig %.3f" % (e["b_median_m"], e["b_m"], j["rig_b_m"]))
PY
python3 - "$TMP/skid.csv" "$TMP/skid.png" <<'PY'
import csv, struct, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
w = len(rows[0]); ok = all(len(r) == w for r in rows) and rows[1][0] == "s" and len(rows) == 8002
print("ok slip_csv_shape" if ok else "FAIL slip_csv_shape: %d rows, widths %s" % (len(rows), sorted(set(map(len, rows)))))
h = rows[0]; i = h.index("rear_slip_angle"); k = h.index("rear_estimate")
err = max(abs(float(r[i]) - float(r[k])) for r in rows[2:] if float(r[h.index("ay")]) < 4.9 and r[k] != "nan")
print("ok slip_csv_estimate" if err < 0.5 else "FAIL slip_csv_estimate: %.3f" % err)
b = open(sys.argv[2], "rb").read(24)
wd, ht = struct.unpack(">II", b[16:24])
print("ok slip_png" if b[:8] == b"\x89PNG\r\n\x1a\n" and (wd, ht) == (1600, 1100) else "FAIL slip_png: %r %dx%d" % (b[:8], wd, ht))
PY
# no low-acceleration data (0.82 g on the 50 m pad): refused in one line, exit 2, nothing written
printf 'return { rig = "sport1000", track = "skidpad50", start = { station = 0, speed = 20 }, duration = 3,\n  rider = { line = "centre", speed = 20 } }\n' > "$TMP/hard.lua"
"$MT" run "$TMP/hard.lua" -o "$TMP/hard.take" --quiet > /dev/null 2>&1
expect_error slip_refuses_no_low_ay "slip: .*hard.take: no usable low-acceleration data: 0 samples" "$MT" slip "$TMP/hard.take" -o "$TMP/hard.png"
[ ! -e "$TMP/hard.png" ] && ok slip_refusal_writes_nothing || bad slip_refusal_writes_nothing "hard.png written"
expect_exit slip_truth_only 0 "$MT" slip "$TMP/hard.take" --truth-only --json
expect_match slip_truth_only_json '"ok":false' "$TMP/out"
expect_exit slip_given_ab 0 "$MT" slip "$TMP/hard.take" --ab 0.76,0.66
expect_match slip_given_ab_line '^a = 0\.760 m, b = 0\.660 m given' "$TMP/out"
# bad input
expect_error slip_no_take "nothing.take: cannot open" "$MT" slip "$TMP/nothing.take"
expect_error slip_bad_ab "slip: --ab: expected A,B in metres" "$MT" slip "$TMP/skid.take" --ab 0.7
expect_error slip_bad_size "slip: --size: expected WxH" "$MT" slip "$TMP/skid.take" --size 5x5 -o "$TMP/x.png"
expect_error slip_bad_ay "ay-max" "$MT" slip "$TMP/skid.take" --ay-max nan
# the motion under SimHub's names (take channels --simhub): in the skidpad's last 10 s (0.7-0.8 g,
# slowly accelerating) the sway is the centripetal v_x·r, the heave is nil on the level pad, the
# yaw velocity is the yaw's rate, SpeedKmh is 3.6 speed, GlobalAccelerationG is −surge/g
expect_exit simhub_export 0 "$MT" take channels "$TMP/skid.take" -o "$TMP/sh.csv" --rate 100 --from 70 --to 80 --channels speed --simhub
python3 - "$TMP/sh.csv" <<'PY'
import csv, math, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
h = rows[0]; u = dict(zip(h, rows[1])); R = [[float(x) for x in r] for r in rows[2:]]
c = lambda n: [r[h.index(n)] for r in R]
def check(name, cond, why):
    print(("ok %s" % name) if cond else ("FAIL %s: %s" % (name, why)))
need = ["SpeedKmh", "AccelerationSurge", "AccelerationSway", "AccelerationHeave", "GlobalAccelerationG", "OrientationYawVelocity",
        "OrientationYaw", "OrientationPitch", "OrientationRoll", "OrientationRollVelocity", "OrientationPitchVelocity",
        "OrientationYawAcceleration", "OrientationRollAcceleration", "OrientationPitchAcceleration", "LongitudinalVelocity",
        "LateralVelocity", "SteeringAngle"]
check("simhub_names", all(n in h for n in need), "missing %s" % [n for n in need if n not in h])
check("simhub_units", u["SpeedKmh"] == "km/h" and u["AccelerationSway"] == "m/s^2" and u["OrientationYawVelocity"] == "deg/s", str(u)[:200])
mean = lambda x: sum(x) / len(x)
sway = mean(c("AccelerationSway")); cent = mean([v * r * math.pi / 180 for v, r in zip(c("LongitudinalVelocity"), c("OrientationYawVelocity"))])
check("simhub_sway_is_centripetal", abs(sway - cent) < 0.03 * abs(cent) and sway > 6, "sway %.3f, v_x r %.3f" % (sway, cent))
check("simhub_heave_nil", abs(mean(c("AccelerationHeave"))) < 0.05, "%.4f" % mean(c("AccelerationHeave")))
y = c("OrientationYaw"); dy = sum(((b - a + 180) % 360) - 180 for a, b in zip(y, y[1:])) / (len(y) - 1) * 100
check("simhub_yaw_velocity", abs(dy - mean(c("OrientationYawVelocity"))) < 0.01 * abs(dy), "d yaw/dt %.3f, mean %.3f" % (dy, mean(c("OrientationYawVelocity"))))
check("simhub_kmh", max(abs(k - 3.6 * s) for k, s in zip(c("SpeedKmh"), c("speed"))) < 1e-5, "")
check("simhub_global_g", max(abs(g + s / 9.80665) for g, s in zip(c("GlobalAccelerationG"), c("AccelerationSurge"))) < 1e-6, "")
check("simhub_lateral_velocity_small", max(abs(v) for v in c("LateralVelocity")) < 1.5, "%.3f" % max(abs(v) for v in c("LateralVelocity")))
PY
