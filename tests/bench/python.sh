#!/bin/sh
# issue 35 item 5: every channel of the 142 s Laguna lap at full rate into numpy through
# python/mototake, against the C reader alone (bin/mt_bench chanread, tests/bench/bench_chanread.c).
# Both: thread CPU seconds, best of 3, opening the take included. The aim: Python ≤ 1.5× C.
T=$(mktemp -d)
bin/mototake run takes/laguna_lap.lua -o "$T/lap.take" --quiet > /dev/null 2>&1 || { echo "python: recording the lap failed"; rm -rf "$T"; exit 0; }
cline=$(MT_BENCH_TAKE="$T/lap.take" bin/mt_bench chanread)
echo "python: $cline"
c=$(echo "$cline" | sed -n 's/.*C reader: \([0-9.]*\) s.*/\1/p')
PYTHONPATH=python /usr/bin/python3 - "$T/lap.take" "$c" <<'PY'
import sys, time
import mototake
path, c = sys.argv[1], float(sys.argv[2] or "nan")

def best(fn, reps=3):
    b = float("inf")
    for _ in range(reps):
        t0 = time.thread_time()
        out = fn()
        b = min(b, time.thread_time() - t0)
        del out
    return b

def arrays():
    with mototake.open(path) as t:
        return t.channels(frame=False)

def frame():
    with mototake.open(path) as t:
        return t.channels()

with mototake.open(path) as t:
    n, nc = t.nsteps, len(t.channel_names)
a, f = best(arrays), best(frame)
print("python: mototake.open(lap).channels(frame=False), %d channels x %d steps into numpy: %.3f s CPU, %.2fx the C reader" % (nc, n, a, a / c))
print("python: mototake.open(lap).channels() as a pandas DataFrame: %.3f s CPU, %.2fx the C reader" % (f, f / c))
PY
rm -rf "$T"
