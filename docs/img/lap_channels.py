#!/usr/bin/env python3
"""lap_channels.py CSV PNG — channel plots of a ridden lap for docs/takes.md.

CSV: `mototake take channels TAKE -o CSV --channels time,speed,lean,ay,steer_angle` at the
take's full rate (no --rate). Draws four panels against time: speed (km/h), lean (deg), lateral
acceleration (g, the frame's, low-passed with a 0.1 s time constant) and the steer angle's
6–12 Hz band (FFT band-pass, deg) with its RMS in 1 s windows. Needs python3-matplotlib."""
import csv, sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

if len(sys.argv) != 3:
    sys.exit(__doc__)
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
data = np.array([[float(x) for x in r] for r in rows[2:]])
col = {name: data[:, i] for i, name in enumerate(head)}
for need in ("time", "speed", "lean", "ay", "steer_angle"):
    if need not in col:
        sys.exit(f"{sys.argv[1]}: no channel '{need}' (export time,speed,lean,ay,steer_angle)")
t = col["time"]
dt = t[1] - t[0]
# lateral acceleration, first-order low-pass (0.1 s)
a = dt / (0.1 + dt)
ay = np.empty_like(col["ay"])
f = 0.0
for i, x in enumerate(col["ay"]):
    f += a * (x - f)
    ay[i] = f
ay /= 9.81
# steer 6–12 Hz band
x = col["steer_angle"]
X = np.fft.rfft(x - x.mean())
fr = np.fft.rfftfreq(len(x), dt)
X[(fr < 6) | (fr > 12)] = 0
band = np.fft.irfft(X, len(x))
w = int(round(1 / dt))
starts = range(0, len(x) - w, w // 2)
rms_t = np.array([t[i + w // 2] for i in starts])
rms = np.array([np.sqrt(np.mean(band[i:i + w] ** 2)) for i in starts])

fig, ax = plt.subplots(4, 1, figsize=(10, 9), sharex=True)
ax[0].plot(t, col["speed"] * 3.6, lw=0.8)
ax[0].set_ylabel("speed, km/h")
ax[1].plot(t, col["lean"], lw=0.8)
ax[1].set_ylabel("lean, deg")
ax[2].plot(t, ay, lw=0.8)
ax[2].set_ylabel("lateral a (0.1 s), g")
ax[3].plot(t, band, lw=0.4, label="6–12 Hz band")
ax[3].plot(rms_t, rms, lw=1.2, label="RMS, 1 s windows")
ax[3].set_ylabel("steer 6–12 Hz, deg")
ax[3].legend(loc="upper right", fontsize=8)
ax[3].set_xlabel("time, s")
for k in ax:
    k.grid(alpha=0.3)
fig.suptitle(f"peak |a_y| {np.max(np.abs(ay)):.2f} g, peak lean {np.max(np.abs(col['lean'])):.1f} deg, "
             f"steer 6–12 Hz RMS worst {rms.max():.2f} deg, {np.mean(rms > 1.0):.0%} of windows above 1 deg")
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=90)
print(f"{sys.argv[2]}: {len(t)} samples, peak |a_y| {np.max(np.abs(ay)):.2f} g, steer band worst {rms.max():.2f} deg")
