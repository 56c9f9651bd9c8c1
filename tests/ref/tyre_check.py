#!/usr/bin/env python3
"""tyre_check.py — compare `mototake tyre` with the independent transcription in tyre_mf.py.

Usage: tyre_check.py MOTOTAKE PARAMS_JSON SCRATCH_DIR
Prints one "ok"/"FAIL" line per operating point and quantity. The rig used sets lambda_mzr = 1
(the shipped presets halve the residual moment, docs/tyre.md) so that the formula is compared as
transcribed. Sign mapping (docs/tyre.md): Mz(ours) = -Mz(formula); Fx, Fy, trail unchanged.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tyre_mf  # noqa: E402

mt, params, tmp = sys.argv[1:4]
sets = json.load(open(params))["parameter_sets"]
rig = os.path.join(tmp, "full_mzr.lua")
with open(rig, "w") as f:
    f.write('return {\n'
            '  front = { preset = "evangelou_120_70_zr17_front", lambda_mzr = 1 },\n'
            '  rear = { preset = "evangelou_180_55_zr17_rear", lambda_mzr = 1 },\n}\n')
for i, (w, fz, k, a, g) in enumerate(tyre_mf.POINTS):
    fx, fy, mz, trail, _ = tyre_mf.mf(sets[w], fz, k, a, g)
    out = subprocess.run([mt, "tyre", rig, "--wheel", w, "--fz", repr(fz), "--kappa", repr(k),
                          "--alpha", repr(a), "--camber", repr(g), "--json"],
                         capture_output=True, text=True)
    name = "tyre_reference_%d_%s" % (i, w)
    if out.returncode != 0:
        print("FAIL %s: exit %d: %s" % (name, out.returncode, out.stderr.strip()))
        continue
    got = json.loads(out.stdout)
    for q, want, have in (("fx", fx, got["fx_N"]), ("fy", fy, got["fy_N"]),
                          ("mz", -mz, got["mz_Nm"]), ("trail", trail, got["trail_m"])):
        # The command prints 9 significant digits; the formula is evaluated in double both sides.
        tol = 1e-7 * max(1.0, abs(want))
        if abs(have - want) <= tol:
            print("ok %s_%s" % (name, q))
        else:
            print("FAIL %s_%s: mototake %.10g, reference %.10g" % (name, q, have, want))
