"""modal_fit.py — the recorded oscillation of a take against the roots of its linear models
(tests/cli/closedloop.sh; docs/linear.md, the shipped memo scripts' table).

  modal_fit.py peaks CSV FROM TO
      CSV: `mototake take channels --channels time,CHANNEL` of one take. The oscillation's
      frequency and growth rate from its half-cycle extrema in [FROM, TO): the window peaks of
      tests/cli/fidelity.sh's weave check, one per half cycle (each refined by a parabola through
      its three samples): frequency = half-cycles / 2 / their span, growth rate sigma = the slope
      of ln|extremum| against time (least squares). Needs one dominant mode in the window.
  modal_fit.py fit CSV CSV0 FROM TO HZ...
      The response to a disturbance, CSV minus CSV0 (the same take without it: what the
      disturbance alone did), fitted over [FROM, TO) by least squares (scipy) with one decaying
      or growing sinusoid per HZ (the starting guesses) plus a straight line; needs numpy/scipy.
      For a fast, strongly damped mode beside a slower, longer one (the chatter take's tap: in
      steer rate the 24.9 Hz ring decays e-fold in 75 ms, the 10.5 Hz steer mode lasts longer)
      the extrema are mostly the slower mode's; the fit separates them. Reports the mode nearest HZ[-1].
  modal_fit.py compare HZ SIGMA TOL OPEN.json CLOSED.json LO HI
      The root of each model's one-step map (its JSON's "step_roots") in LO..HI Hz nearest the
      recorded root (SIGMA + j 2 pi HZ, in the complex plane); prints both, exits 0 when the closed loop's frequency and growth rate are both
      within TOL (relative) of the recorded ones.

Each command prints one line; exit 2 with one line on unreadable input."""
import csv
import json
import math
import sys


def read(path):
    rows = list(csv.reader(open(path)))[2:]
    return [float(r[0]) for r in rows], [float(r[1]) for r in rows]


def peaks(path, a, b):
    t, y = read(path)
    ext = []
    for i in range(1, len(y) - 1):
        if not a <= t[i] < b:
            continue
        up = y[i] > 0 and y[i] >= y[i - 1] and y[i] > y[i + 1]
        dn = y[i] < 0 and y[i] <= y[i - 1] and y[i] < y[i + 1]
        if up or dn:
            y0, y1, y2 = y[i - 1], y[i], y[i + 1]
            d = 0.5 * (y0 - y2) / (y0 - 2 * y1 + y2)
            ext.append((t[i] + d * (t[i + 1] - t[i]), abs(y1 - 0.25 * (y0 - y2) * d)))
    if len(ext) < 4:
        raise ValueError("fewer than 4 half-cycle extrema in %g..%g s" % (a, b))
    n = len(ext)
    tm = sum(p[0] for p in ext) / n
    lm = sum(math.log(p[1]) for p in ext) / n
    sig = sum((p[0] - tm) * (math.log(p[1]) - lm) for p in ext) / sum((p[0] - tm) ** 2 for p in ext)
    hz = (n - 1) / 2 / (ext[-1][0] - ext[0][0])
    return hz, sig, n


def fit(path, path0, a, b, guess):
    import numpy as np
    from scipy.optimize import least_squares
    t, y = read(path)
    t0, y0 = read(path0)
    if t != t0:
        raise ValueError("the two takes' samples differ in time")
    t, y = np.array(t), np.array(y) - np.array(y0)
    sel = (t >= a) & (t < b)
    t, y = t[sel] - a, y[sel]

    def model(p):
        out = p[0] + p[1] * t
        for k in range(len(guess)):
            s, w, c, d = p[2 + 4 * k: 6 + 4 * k]
            out = out + np.exp(s * t) * (c * np.cos(w * t) + d * np.sin(w * t))
        return out
    p0 = [0.0, 0.0]
    for g in guess:
        p0 += [-5.0, 2 * math.pi * g, float(np.std(y)), float(np.std(y))]
    r = least_squares(lambda p: model(p) - y, p0)
    k = len(guess) - 1
    return abs(r.x[3 + 4 * k]) / 2 / math.pi, r.x[2 + 4 * k], float(np.sqrt(np.mean(r.fun ** 2)) / np.std(y))


def nearest(path, hz, sig, lo, hi):
    """The root in lo..hi Hz nearest the recorded one in the complex plane (s = sigma + j 2 pi hz)."""
    roots = [z for z in json.load(open(path))["step_roots"] if lo <= z["hz"] <= hi]
    if not roots:
        raise ValueError("%s: no root in %g..%g Hz" % (path, lo, hi))
    return min(roots, key=lambda z: math.hypot(z["re"] - sig, z["im"] - 2 * math.pi * hz))


def main(argv):
    cmd = argv[1]
    if cmd == "peaks":
        hz, sig, n = peaks(argv[2], float(argv[3]), float(argv[4]))
        print("%.4f %.4f %d" % (hz, sig, n))
        return 0
    if cmd == "fit":
        hz, sig, res = fit(argv[2], argv[3], float(argv[4]), float(argv[5]), [float(x) for x in argv[6:]])
        print("%.4f %.4f %.4f" % (hz, sig, res))
        return 0
    hz, sig, tol = float(argv[2]), float(argv[3]), float(argv[4])
    lo, hi = float(argv[7]), float(argv[8])
    o, c = nearest(argv[5], hz, sig, lo, hi), nearest(argv[6], hz, sig, lo, hi)
    df, ds = c["hz"] / hz - 1, c["re"] / sig - 1
    print("recorded %.3f Hz, sigma %+.3f 1/s; closed loop %.3f Hz (%+.1f %%), %+.3f 1/s (%+.1f %%); "
          "open loop %.3f Hz (%+.1f %%), %+.3f 1/s (%+.1f %%)"
          % (hz, sig, c["hz"], 100 * df, c["re"], 100 * ds, o["hz"], 100 * (o["hz"] / hz - 1), o["re"],
             100 * (o["re"] / sig - 1)))
    return 0 if abs(df) <= tol and abs(ds) <= tol else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (OSError, ValueError, KeyError, IndexError) as ex:
        print("modal_fit.py: %s" % ex)
        sys.exit(2)
