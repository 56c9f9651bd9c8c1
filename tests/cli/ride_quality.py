#!/usr/bin/env python3
"""ride_quality.py TAKE [--mt BIN]: the bar-torque ripple of a take's steady corners.

Reads time, steer_torque and lean at the take's full rate (`mototake take channels`). A sample
is in a steady corner when |lean| > 25 deg over the whole +-0.5 s around it. Prints the steer
torque's RMS about its 1 s moving mean over those samples (the ripple the rider's hands would
feel; docs/takes.md), and the RMS of its 7-11 Hz band (FFT band-pass of the whole take) there:
  steady corners 21.4 s: bar torque ripple 5.39 N m RMS about the 1 s mean, 7-11 Hz band 2.76 N m
Exit 2 with one line if the take cannot be read or has no steady corner. Needs python3-numpy.
Run from the project root after `make` (or give --mt)."""
import argparse, csv, os, subprocess, sys, tempfile

import numpy as np

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("take")
ap.add_argument("--mt", default=os.environ.get("MT", "bin/mototake"))
a = ap.parse_args()
out = os.path.join(tempfile.mkdtemp(), "r.csv")
p = subprocess.run([a.mt, "take", "channels", a.take, "-o", out, "--channels", "time,steer_torque,lean"],
                   capture_output=True, text=True)
if p.returncode != 0:
    print((p.stderr or p.stdout).strip().splitlines()[-1] if (p.stderr or p.stdout).strip() else
          f"{a.take}: take channels failed", file=sys.stderr)
    sys.exit(2)
rows = list(csv.reader(open(out)))[2:]          # header and units rows
os.remove(out)
d = np.array([[float(x) for x in r] for r in rows])
t, tq, lean = d[:, 0], d[:, 1], d[:, 2]
dt = t[1] - t[0]
n, h, w = len(t), int(round(0.5 / dt)), int(round(1 / dt))
if n < 2 * w + 2:
    print(f"{a.take}: too short for 1 s windows ({n} samples)", file=sys.stderr)
    sys.exit(2)
# steady corner: |lean| > 25 deg over the whole +-0.5 s window around the sample
lo = np.lib.stride_tricks.sliding_window_view(np.abs(lean), 2 * h + 1).min(axis=1)
steady = np.zeros(n, bool)
steady[h:n - h] = lo > 25
if not steady.any():
    print(f"{a.take}: no steady corner (|lean| > 25 deg for 1 s)", file=sys.stderr)
    sys.exit(2)
mean = np.convolve(tq, np.ones(w) / w, mode="same")
X = np.fft.rfft(tq - tq.mean())
f = np.fft.rfftfreq(n, dt)
X[(f < 7) | (f > 11)] = 0
band = np.fft.irfft(X, n)
print(f"steady corners {steady.sum() * dt:.1f} s: bar torque ripple {np.sqrt(np.mean((tq - mean)[steady] ** 2)):.2f} N m "
      f"RMS about the 1 s mean, 7-11 Hz band {np.sqrt(np.mean(band[steady] ** 2)):.2f} N m")
