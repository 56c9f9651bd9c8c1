"""kill_when_hot.py JOURNAL DEADLINE_MS CMD... — start CMD and kill -9 it the moment JOURNAL holds
a hot header (SQLite's journal magic: a transaction under way, pages of the file saved in it),
or at DEADLINE_MS if that never happens. Prints "hot" or "deadline" or "ended" (CMD finished
first). For tests/cli/killloop.sh: a run killed inside a commit, which spread kill moments hit
only by chance."""
import os, signal, subprocess, sys, time

MAGIC = bytes.fromhex("d9d505f920a163d7")
journal, deadline = sys.argv[1], time.monotonic() + int(sys.argv[2]) / 1000
p = subprocess.Popen(sys.argv[3:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
how = "deadline"
while time.monotonic() < deadline:
    if p.poll() is not None:
        how = "ended"
        break
    try:
        with open(journal, "rb") as f:
            if f.read(8) == MAGIC:
                how = "hot"
                break
    except OSError:
        pass
if p.poll() is None:
    p.send_signal(signal.SIGKILL)
p.wait()
print(how)
