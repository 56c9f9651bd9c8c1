#!/usr/bin/env python3
"""spectrum.py — amplitude spectrum of one channel of a `mototake take channels` CSV.

usage: spectrum.py FILE.csv T0 T1 [LO HI]
Prints, for the Hann-windowed channel (column 2) between T0 and T1 s, the frequency (Hz) and
amplitude of the largest peak in each band 1-8, 8-15, 15-20, 20-30, 30-60 Hz (0.5 Hz steps),
or in LO..HI only. A direct DFT in the standard library (no numpy needed)."""
import csv
import math
import sys


def spectrum(path, t0, t1, freqs):
    rows = list(csv.reader(open(path)))[2:]
    t = [float(r[0]) for r in rows]
    x = [float(r[1]) for r, ti in zip(rows, t) if t0 <= ti < t1]
    dt = t[1] - t[0]
    n = len(x)
    m = sum(x) / n
    x = [(xi - m) * (0.5 - 0.5 * math.cos(2 * math.pi * i / (n - 1))) for i, xi in enumerate(x)]
    out = []
    for f in freqs:
        w = 2 * math.pi * f * dt
        c = sum(xi * math.cos(w * i) for i, xi in enumerate(x))
        s = sum(xi * math.sin(w * i) for i, xi in enumerate(x))
        out.append((f, 4 * math.hypot(c, s) / n))   # Hann: amplitude of a sine = 4|X|/n
    return out


if __name__ == "__main__":
    path, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    bands = [(1, 8), (8, 15), (15, 20), (20, 30), (30, 60)]
    if len(sys.argv) > 5:
        bands = [(float(sys.argv[4]), float(sys.argv[5]))]
    sp = spectrum(path, t0, t1, [0.5 * k for k in range(2, 121)])
    for lo, hi in bands:
        b = [p for p in sp if lo <= p[0] < hi]
        f, a = max(b, key=lambda p: p[1])
        print("%g-%g Hz: peak %.1f Hz %.4g" % (lo, hi, f, a))
