# tyre.sh — the tyre command and its plot; bad input gives one line naming the place.
expect_exit tyre_point 0 "$MT" tyre tyres_sport --wheel rear --fz 1500 --kappa 0.05 --alpha 0.02 --camber 0.3
expect_match tyre_point_fx 'Fx +1[0-9]{3}\.[0-9]+ N' "$TMP/out"
expect_exit tyre_json 0 "$MT" tyre sport1000 --wheel front --fz 1100 --alpha 0.05 --json
expect_match tyre_json_mz '"mz_Nm":-[0-9]' "$TMP/out"
expect_exit plot_tyre 0 "$MT" plot tyre sport1000 -o "$TMP/t.png"
expect_exit plot_tyre_one 0 "$MT" plot tyre tyres_sport --wheel rear --quantity ellipse -o "$TMP/e.png"
# without --wheel, both tyres (main drew the front alone): the left half is the front's figure and
# the right half the rear's, pixel for pixel, as --wheel draws each on a canvas of that half's size
"$MT" plot tyre sport1000 --quantity fy --size 800x300 -o "$TMP/b.png"
"$MT" plot tyre sport1000 --quantity fy --size 400x300 --wheel front -o "$TMP/bf.png"
"$MT" plot tyre sport1000 --quantity fy --size 400x300 --wheel rear -o "$TMP/br.png"
if have python3; then
  if python3 - "$ROOT/tests/cli" "$TMP/b.png" "$TMP/bf.png" "$TMP/br.png" > "$TMP/chk" 2>&1 <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from ride_tools import read_png   # the PNG reader of ride.sh (no third-party modules)
(bw, bh, bp, b), (_, _, fp, f), (_, _, rp, r) = (read_png(p) for p in sys.argv[2:5])
half = lambda rows, bpp, x0: [bytes(row[x0 * bpp:(x0 + 400) * bpp]) for row in rows]
bad = []
if (bw, bh) != (800, 300): bad.append("size %dx%d, wanted 800x300" % (bw, bh))
elif not (bp == fp == rp): bad.append("pixel formats differ")
elif half(b, bp, 0) != half(f, fp, 0): bad.append("left half is not the front tyre's figure")
elif half(b, bp, 400) != half(r, rp, 0): bad.append("right half is not the rear tyre's figure")
elif half(f, fp, 0) == half(r, rp, 0): bad.append("front and rear figures are the same")
print("; ".join(bad) if bad else "front left, rear right"); sys.exit(1 if bad else 0)
PY
  then ok "plot_tyre_both: $(cat "$TMP/chk")"; else bad plot_tyre_both "$(cat "$TMP/chk")"; fi
else skip plot_tyre_both "python3 missing"; fi
expect_error tyre_needs_fz "tyre: --fz is required" "$MT" tyre sport1000 --wheel rear
expect_error tyre_nan "tyre: --fz: expected a finite number, got 'nan'" "$MT" tyre sport1000 --fz nan
expect_error tyre_negative_load "tyre: --fz: -5 is outside" "$MT" tyre sport1000 --fz -5
expect_error tyre_bad_wheel "--wheel: expected front or rear, got 'middle'" "$MT" tyre sport1000 --wheel middle --fz 1000
expect_error plot_bad_quantity "--quantity: expected fx, fy, mz or ellipse" "$MT" plot tyre sport1000 --quantity grip -o "$TMP/x.png"
printf 'return {\n  front = { preset = "evangelou_120_70_zr17_front",\n    crown = -0.02 },\n}\n' > "$TMP/negcrown.lua"
expect_error tyre_negative_radius "negcrown.lua:3: front tyre: field 'crown': must be within \(0, R0\)" "$MT" tyre "$TMP/negcrown.lua" --fz 1000
printf 'return {\n  front = { preset = "evangelou_120_70_zr17_front",\n    pDy1 = "sticky" },\n}\n' > "$TMP/strcoef.lua"
expect_error tyre_non_numeric "strcoef.lua:[23]: front tyre: field 'pDy1': expected a number, got string" "$MT" tyre "$TMP/strcoef.lua" --fz 1000
printf 'return {\n  front = { R0 = 0.3, crown = 0.06, k_radial = 130000 },\n}\n' > "$TMP/nocoef.lua"
expect_error tyre_missing_coefficient "nocoef.lua:2: front tyre: field 'Fz0': missing" "$MT" tyre "$TMP/nocoef.lua" --fz 1000
printf 'return {\n  front = { preset = "slicks_of_doom" },\n}\n' > "$TMP/nopreset.lua"
expect_error tyre_unknown_preset "nopreset.lua:2: front tyre: field 'preset': no tyre preset 'slicks_of_doom'" "$MT" tyre "$TMP/nopreset.lua" --fz 1000
# The Magic Formula against an independent Python transcription of the JSON equations
# (tests/ref/tyre_mf.py, written without looking at sim/tyre.c), at six combined-slip, cambered
# operating points for both tyres. tests/ref/magic_formula_params.json is a copy of the shared data.
if command -v python3 >/dev/null; then
  python3 "$ROOT/tests/ref/tyre_check.py" "$MT" "$ROOT/tests/ref/magic_formula_params.json" "$TMP"
else
  bad tyre_reference "python3 not found"
fi
