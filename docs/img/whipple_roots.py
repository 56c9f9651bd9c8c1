#!/usr/bin/env python3
"""whipple_roots.py MOTOTAKE PNG — real parts of the Whipple bicycle's roots against speed, for
docs/whipple.md: ours (`MOTOTAKE modes whipple_benchmark --speed V --json`, one call per speed, the
lateral roots: steer share above 0.5, |s| < 100 1/s) as dots, and the benchmark's (Meijaard et al.
2007, Table 2's M, C1, K0, K2, g = 9.81) as lines. Prints one line per speed. Needs
python3-matplotlib and python3-numpy."""
import json, subprocess, sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

if len(sys.argv) != 3:
    sys.exit(__doc__)
mt, png = sys.argv[1], sys.argv[2]

M = np.array([[80.81722, 2.31941332208709], [2.31941332208709, 0.29784188199686]])
C1 = np.array([[0, 33.86641391492494], [-0.85035641456978, 1.68540397397560]])
K0 = np.array([[-80.95, -2.59951685249872], [-2.59951685249872, -0.80329488458618]])
K2 = np.array([[0, 76.59734589573222], [0, 2.65431523794604]])


def benchmark(v):
    Mi = np.linalg.inv(M)
    A = np.block([[np.zeros((2, 2)), np.eye(2)], [-Mi @ (9.81 * K0 + v * v * K2), -Mi @ (v * C1)]])
    return np.linalg.eigvals(A)


speeds = np.concatenate(([0.75], np.arange(1.0, 10.01, 0.5)))
ours_v, ours_re, ours_osc = [], [], []
for v in speeds:
    out = subprocess.run([mt, "modes", "whipple_benchmark", "--speed", "%g" % v, "--json", "--max-hz", "5"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("%s modes at %g m/s: %s" % (mt, v, out.stderr.strip()))
    roots = []
    for m in json.loads(out.stdout)["modes"]:
        s = complex(m["re"], 2 * np.pi * m["hz"])
        if m["steer"] > 0.5 and abs(s) < 100:
            roots.append(s)
            ours_v.append(v)
            ours_re.append(s.real)
            ours_osc.append(m["hz"] > 0)
    ref = sorted(benchmark(v), key=lambda z: (z.real, z.imag))
    print("%5.2f m/s  ours: %s  benchmark: %s" % (
        v, " ".join("%+.4f%+.4fi" % (z.real, z.imag) for z in sorted(roots, key=lambda z: z.real)),
        " ".join("%+.4f%+.4fi" % (z.real, z.imag) for z in ref if z.imag >= 0)))

fine = np.linspace(0.0, 10.0, 1001)
ref = np.array([sorted(benchmark(v).real) for v in fine])
fig, ax = plt.subplots(figsize=(8, 5.5), dpi=100)
for k in range(4):
    ax.plot(fine, ref[:, k], color="0.35", lw=1.2, label="benchmark (Meijaard et al. 2007)" if k == 0 else None)
ov, ore, osc = np.array(ours_v), np.array(ours_re), np.array(ours_osc)
ax.plot(ov[osc], ore[osc], "o", ms=5, color="tab:red", label="ours, oscillating (weave)")
ax.plot(ov[~osc], ore[~osc], "s", ms=4, color="tab:blue", label="ours, real (capsize, castering)")
ax.axhline(0, color="black", lw=0.8)
for vc, name, ha in ((4.29238253634111, "weave speed 4.292 ", "right"), (6.02426201538837, " capsize speed 6.024", "left")):
    ax.axvline(vc, color="tab:green", lw=0.8, ls="--")
    ax.text(vc, 4.5, name, color="tab:green", fontsize=9, ha=ha)
ax.set_xlim(0, 10)
ax.set_ylim(-10, 10)
ax.set_xlabel("forward speed v (m/s)")
ax.set_ylabel("real part of the root (1/s)")
ax.set_title("Whipple bicycle: rigs/whipple_benchmark.lua linearised vs the benchmark")
ax.legend(loc="upper right", fontsize=9)
ax.grid(alpha=0.3)
fig.tight_layout()
fig.savefig(png)
