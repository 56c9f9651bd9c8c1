#!/usr/bin/env python3
"""python_take.py TMP FORGED — the checks of tests/cli/python.sh in one process (see there).

TMP holds what python.sh made with the CLI: w.take, its CSVs, info, verify text, glTF, the CLI's
stderr lines (err_*.txt, cli_lines.txt) and the hostile corpus (corpus/, manifest.txt); FORGED
names a corpus take verify reports diverging. Prints ok/FAIL lines; exits 0 unless the process
itself breaks (what python.sh then reports as a crash, a hang or an uncaught exception).
"""
import csv
import json
import os
import re
import signal
import sys

import numpy as np

import mototake

TMP, FORGED = sys.argv[1], sys.argv[2]
W = os.path.join(TMP, "w.take")


def ok(name):
    print("ok " + name, flush=True)


def bad(name, why):
    print("FAIL %s: %s" % (name, str(why)[:400]), flush=True)


def check(name, cond, why=""):
    ok(name) if cond else bad(name, why)


def cli_line(fname):
    """The CLI's stderr line (without "mototake: "), from a file python.sh wrote."""
    with open(os.path.join(TMP, fname)) as f:
        return f.read().strip().removeprefix("mototake: ")


def read_csv(fname):
    """(header, units, rows as float64) of a `take channels` CSV, and the values' text."""
    with open(os.path.join(TMP, fname), newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1], rows[2:]


def same_as_csv(name, cols, text_rows, time, values):
    """Every value printed as the CSV prints it (%.9g) equals the CSV's text, the time too."""
    want = np.array(text_rows, dtype=object)
    for k, col in enumerate(cols):
        got = [("%.9g" % v) for v in (time if col == "time" else values[col])]
        if len(got) != len(want) or got != list(want[:, k]):
            diff = next((i for i in range(min(len(got), len(want))) if got[i] != want[i, k]), None)
            return bad(name, "%s: %d rows vs the CSV's %d; first difference at row %s: %s vs %s" % (
                col, len(got), len(want), diff, got[diff] if diff is not None else "",
                want[diff, k] if diff is not None else ""))
    ok(name)


def expect_error(name, want_line, fn):
    try:
        fn()
    except mototake.Error as e:
        return check(name, e.code == 2 and str(e) == want_line, "code %s, '%s' vs the CLI's '%s'" % (e.code, e, want_line))
    except Exception as e:   # noqa: BLE001 — any other kind is the defect this checks
        return bad(name, "raised %s: %s, not mototake.Error" % (type(e).__name__, e))
    bad(name, "no error; the CLI said '%s'" % want_line)


def good_take():
    t = mototake.open(W)
    check("py_open_wobble", t.nsteps == 6000 and t.timestep == 0.001 and t.complete and t.duration == 6.0
          and t.meta["format"] == "mototake take" and "frame" in t.bodies and len(t.state_names) == int(t.meta["nstate"]),
          "%d steps of %g s" % (t.nsteps, t.timestep))
    return t


def channels_full(t):
    head, units, rows = read_csv("full.csv")
    check("py_channel_names_are_csv_columns", ["time"] + t.channel_names == head, head[:5])
    check("py_units_are_csv_units_row", [t.units[c] for c in head] == units, units[:5])
    d = t.channels(frame=False)
    same_as_csv("py_channels_full_rate_equal_csv", head, rows, d["time"], d)
    df = t.channels(["speed", "lean"])
    check("py_channels_frame", list(df.columns) == ["speed", "lean"] and df.index.name == "time"
          and df.attrs["units"] == {"speed": t.units["speed"], "lean": t.units["lean"]}
          and np.array_equal(df["lean"].to_numpy(), d["lean"]) and len(df) == 6000, df.head())


def channels_resampled(t):
    for fname, names, kw in (("r100.csv", ["speed", "lean", "steer_angle"], dict(rate=100, start=1, end=3.5)),
                             ("r300.csv", ["steer_angle", "roll_rate", "time", "speed"], dict(rate=300, start=0.5, end=2.25))):
        head, _, rows = read_csv(fname)
        d = t.channels(names, frame=False, **kw)
        same_as_csv("py_channels_rate_%d_equal_csv" % kw["rate"], head, rows, d["time"], d)
    a = t.channels(["speed"], start=1.5, end=2.5, frame=False)
    check("py_channels_from_to_full_rate", len(a["time"]) == 1000 and a["time"][0] == 1.5
          and np.array_equal(a["speed"], t.channels(["speed"], frame=False)["speed"][1500:2500]), len(a["time"]))


def poses(t):
    """The frame's pose against `export`'s glTF keys (50 fps; key i is t = i/50, float32)."""
    gdir = os.path.join(TMP, "gltf")
    g = json.load(open(os.path.join(gdir, "w.gltf")))
    node = next(i for i, n in enumerate(g["nodes"]) if n.get("name") == "w_frame")
    anim = g["animations"][0]

    def acc(i, width):
        a = g["accessors"][i]
        bv = g["bufferViews"][a["bufferView"]]
        raw = open(os.path.join(gdir, g["buffers"][bv["buffer"]]["uri"]), "rb").read()
        off = bv.get("byteOffset", 0) + a.get("byteOffset", 0)
        return np.frombuffer(raw, dtype="<f4", count=a["count"] * width, offset=off).reshape(a["count"], width)

    keys = {}
    for ch in anim["channels"]:
        if ch["target"]["node"] == node:
            s = anim["samplers"][ch["sampler"]]
            w = 3 if ch["target"]["path"] == "translation" else 4
            keys[ch["target"]["path"]] = acc(s["output"], w)
    p = t.poses("frame", frame=False)
    at = p[::20][: len(keys["translation"])]   # 1 kHz steps at 50 fps
    dxyz = np.abs(at[:, :3] - keys["translation"]).max()
    quat = keys["rotation"][:, [3, 0, 1, 2]]   # glTF's x y z w as qw qx qy qz
    dq = np.minimum(np.abs(at[:, 3:] - quat).max(axis=1), np.abs(at[:, 3:] + quat).max(axis=1)).max()
    check("py_poses_frame_equal_gltf_keys", p.shape == (6000, 7) and dxyz < 1e-5 and dq < 1e-6,
          "shape %s, |dxyz| %.3g m, |dq| %.3g over %d keys" % (p.shape, dxyz, dq, len(at)))
    df = t.poses("steering", start=1, end=2)
    check("py_poses_frame_columns", list(df.columns) == ["x", "y", "z", "qw", "qx", "qy", "qz"] and len(df) == 1000
          and df.index[0] == 1.0 and np.allclose((df[["qw", "qx", "qy", "qz"]] ** 2).sum(axis=1), 1), df.head())
    expect_error("py_poses_unknown_body", "%s: no body 'tank' (the take's bodies: %s)" % (W, " ".join(t.bodies)),
                 lambda: t.poses("tank"))


def events_state_verify(t):
    lines = [l for l in open(os.path.join(TMP, "info.txt")) if re.match(r"\s+t = +[0-9.]+ s  ", l)]
    want = []
    for l in lines:
        m = re.match(r"\s+t = +([0-9.]+) s  (\S+)\s+(.*)$", l.rstrip("\n"))
        want.append((m.group(1), m.group(2), json.loads(m.group(3))))
    got = [("%.3f" % e["time"], e["kind"], e["data"]) for e in t.events]
    nj = json.load(open(os.path.join(TMP, "info.json")))["events"]
    check("py_events_equal_take_info", got == want and len(got) == nj and nj > 0, "%s vs %s" % (got[:2], want[:2]))
    st = t.state()
    check("py_state_shape_and_slice", st.shape == (6000, len(t.state_names))
          and np.array_equal(t.state(start=2, end=3).view(np.uint64), st[2000:3000].view(np.uint64)), st.shape)
    v = t.verify()
    check("py_verify_good_ok", v["ok"] and v["first_bad"] == -1 and v["checked"] == 5999
          and v["message"] == open(os.path.join(TMP, "verify.txt")).read().rstrip("\n"), v)
    with mototake.open(os.path.join(TMP, "corpus", FORGED + ".take")) as f:
        v = f.verify()
    check("py_verify_forged_not_ok", not v["ok"] and v["first_bad"] >= 0
          and v["message"] == open(os.path.join(TMP, "verify_forged.txt")).read().rstrip("\n"), v)


def argument_errors(t):
    expect_error("py_error_unknown_channel_is_cli_line", cli_line("err_name.txt"), lambda: t.channels(["sped"]))
    expect_error("py_error_rate_above_is_cli_line", cli_line("err_rate.txt"), lambda: t.channels(rate=2000))
    expect_error("py_error_rate_zero_is_cli_line", cli_line("err_rate0.txt"), lambda: t.channels(rate=0))
    expect_error("py_error_range_is_cli_line", cli_line("err_range.txt"), lambda: t.channels(start=4, end=9))
    expect_error("py_error_not_a_take", "%s: not a take (not an SQLite database)" % os.path.join(TMP, "full.csv"),
                 lambda: mototake.open(os.path.join(TMP, "full.csv")))


def through_package(f, cmd):
    """What the package does for the command cmd of the hostile corpus: open, then read or verify."""
    with mototake.open(f) as t:
        if cmd == "channels":
            t.channels(["speed"])
        elif cmd == "verify":
            return t.verify()
    return None


class Hang(Exception):
    pass


def on_alarm(*_):
    raise Hang()


def hostile():
    """Each manifest line for a command the package has (info/EVERY: open; channels; verify)."""
    signal.signal(signal.SIGALRM, on_alarm)
    cli = {}
    for l in open(os.path.join(TMP, "cli_lines.txt")):
        n, c, line = l.rstrip("\n").split("|", 2)
        cli[(n, c)] = line.removeprefix("mototake: ")
    nchk = nbad = nexact = 0
    for l in open(os.path.join(TMP, "corpus", "manifest.txt")):
        name, cmd, want, regex = l.rstrip("\n").split("|", 3)
        if cmd not in ("EVERY", "info", "channels", "verify"):
            continue
        f = os.path.join(TMP, "corpus", name + ".take")
        nchk += 1
        signal.alarm(20)
        why = None
        try:
            v = through_package(f, "info" if cmd == "EVERY" else cmd)
            if want == "1":
                if not v or v["ok"] or not re.search(regex, v["message"]):
                    why = "verify gave %s" % v
            else:
                why = "no error (the CLI exits %s matching /%s/)" % (want, regex)
        except mototake.Error as e:
            m = str(e)
            if want != "2" or e.code != 2:
                why = "Error code %d '%s' (the CLI exits %s)" % (e.code, m, want)
            elif not re.search(regex, m) or name + ".take" not in m or "\n" in m:
                why = "'%s' does not match /%s/ or name the file in one line" % (m, regex)
            elif (name, "info" if cmd == "EVERY" else cmd) in cli:
                nexact += 1
                if m != cli[(name, "info" if cmd == "EVERY" else cmd)]:
                    why = "'%s' is not the CLI's '%s'" % (m, cli[(name, cmd)])
        except Hang:
            why = "no answer in 20 s"
        except Exception as e:   # noqa: BLE001 — any other kind is the defect
            why = "raised %s: %s" % (type(e).__name__, e)
        finally:
            signal.alarm(0)
        if why:
            nbad += 1
            bad("py_hostile_%s_%s" % (name, cmd), why)
    check("py_hostile_corpus_%d_checks_%d_exact" % (nchk, nexact), nchk >= 150 and nbad == 0 and nexact >= 5,
          "%d checks, %d failed, %d compared with the CLI's line" % (nchk, nbad, nexact))


def main():
    t = good_take()
    for part in (channels_full, channels_resampled, poses, events_state_verify, argument_errors):
        try:
            part(t)
        except Exception as e:   # noqa: BLE001 — one part's failure must not hide the others
            bad("py_" + part.__name__, "%s: %s" % (type(e).__name__, e))
    t.close()
    hostile()


main()
