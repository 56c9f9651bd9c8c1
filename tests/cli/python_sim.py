"""python_sim.py — the checks of tests/cli/python_sim.sh in one Python process: mototake.run,
trim and modes (python/mototake/sim.py over api/mtk_sim.c) against what the commands wrote for the
same input into $TMP (the shell made them first). Prints ok pysim_NAME / FAIL pysim_NAME: why lines.

usage: python_sim.py TMP ROOT"""
import json
import os
import sys

import numpy as np

import mototake

TMP, ROOT = sys.argv[1], sys.argv[2]
H = os.path.join(ROOT, "tests", "data", "hostile")


def ok(name):
    print("ok pysim_" + name, flush=True)


def bad(name, why):
    print("FAIL pysim_%s: %s" % (name, why), flush=True)


def check(name, cond, why):
    ok(name) if cond else bad(name, why)


def cli_line(name, after=None):
    """The command's stderr line as the shell kept it, less the program's "mototake: " prefix
    (after: only what follows that text in it)."""
    with open(os.path.join(TMP, name + ".err")) as f:
        lines = f.read().splitlines()
    if len(lines) != 1 or not lines[0].startswith("mototake: "):
        return repr(lines)
    line = lines[0][len("mototake: "):]
    return line.split(after, 1)[-1] if after else line


def same_error(name, call, after=None):
    """call() must raise mototake.Error with code 2 and the command's line (file NAME.err)."""
    want = cli_line(name, after)
    try:
        call()
    except mototake.Error as e:
        check(name, str(e) == want and e.code == 2, "Error %r (code %d), the CLI said %r" % (str(e), e.code, want))
        return
    except Exception as e:   # a Python exception of another kind is a failure too
        bad(name, "%s: %s, the CLI said %r" % (type(e).__name__, e, want))
        return
    bad(name, "no error, the CLI said %r" % want)


def load(name):
    with open(os.path.join(TMP, name)) as f:
        return json.load(f)


def check_modes():
    cli = load("modes.json")
    m = mototake.modes("sport1000", speed=20, lean=10)
    check("modes_point", m.speed == cli["speed_mps"] and abs(m.lean - cli["lean_deg"]) <= 1e-9 * abs(cli["lean_deg"])
          and abs(m.ay - cli["ay_g"]) <= 1e-9 * abs(cli["ay_g"]), "speed %r lean %r ay %r, the CLI %r %r %r"
          % (m.speed, m.lean, m.ay, cli["speed_mps"], cli["lean_deg"], cli["ay_g"]))
    names = [x["name"] for x in cli["modes"]]
    check("modes_names", m.names == names and "weave" in names and "wobble" in names,
          "%s, the CLI %s" % (m.names, names))
    # the JSON prints 10 significant digits (JSON_REAL_PRECISION(10)): equal to within that
    want = np.array([x["re"] + 1j * x["im"] for x in cli["modes"]])
    got = m.eigenvalues
    close = got.shape == want.shape and bool(np.all(np.abs(got - want) <= 1e-9 * np.maximum(np.abs(want), 1e-3)))
    check("modes_eigenvalues", close, "%d roots %s, the CLI %d %s" % (got.size, got[:4], want.size, want[:4]))
    hz = np.array([x["hz"] for x in cli["modes"]])
    check("modes_hz", m.hz.shape == hz.shape and bool(np.allclose(m.hz, hz, rtol=1e-9, atol=1e-12)), "%s vs %s" % (m.hz, hz))
    ab = load("abcd.json")   # `modes --abcd` at the same point: 17 digits, so equal bit for bit
    shapes = [M.shape for M in (m.A, m.B, m.C, m.D)]
    want_shapes = [np.array(ab[k]).reshape(len(ab[k]), -1).shape for k in "ABCD"]
    check("modes_abcd_shapes", shapes == want_shapes and shapes[0][0] > 30 and shapes[1][1] == 5 and shapes[2][0] == 6,
          "%s, the CLI %s" % (shapes, want_shapes))
    equal = all(np.array_equal(M, np.array(ab[k], dtype=float).reshape(M.shape)) for M, k in zip((m.A, m.B, m.C, m.D), "ABCD"))
    check("modes_abcd_values", shapes == want_shapes and equal, "the matrices differ from modes --abcd's")
    names_ok = (m.states == [v["name"] for v in ab["states"]] and m.inputs == [v["name"] for v in ab["inputs"]]
                and m.outputs == [v["name"] for v in ab["outputs"]]
                and all(m.units[v["name"]] == v["units"] for k in ("states", "inputs", "outputs") for v in ab[k]))
    check("modes_abcd_names", names_ok, "states/inputs/outputs %s %s differ from the CLI's" % (m.inputs, m.outputs))
    sel = mototake.modes("sport1000", speed=20, lean=10, inputs=["steer_torque"], outputs=["steer_angle", "lean"])
    check("modes_selection", sel.B.shape == (m.A.shape[0], 1) and sel.D.shape == (2, 1)
          and np.array_equal(sel.B[:, 0], m.B[:, 0]) and np.array_equal(sel.C[0], m.C[m.outputs.index("steer_angle")]),
          "B %s D %s" % (sel.B.shape, sel.D.shape))


def check_modes_ay():
    """A steady turn given by its lateral acceleration (--ay): the same point and roots."""
    cli = load("modes_ay.json")
    m = mototake.modes("sport1000", speed=30, ay=0.3)
    want = np.array([x["re"] + 1j * x["im"] for x in cli["modes"]])
    same = (m.names == [x["name"] for x in cli["modes"]] and m.eigenvalues.shape == want.shape
            and bool(np.all(np.abs(m.eigenvalues - want) <= 1e-9 * np.maximum(np.abs(want), 1e-3)))
            and abs(m.lean - cli["lean_deg"]) <= 1e-9 * abs(cli["lean_deg"]) and abs(m.ay - 0.3) < 1e-6)
    check("modes_ay", same, "lean %r ay %r %s, the CLI %r %r %s" % (m.lean, m.ay, m.names[:8], cli["lean_deg"], cli["ay_g"],
                                                                     [x["name"] for x in cli["modes"]][:8]))


def check_trim():
    with open(os.path.join(TMP, "trim.json")) as f:
        want = json.loads(f.read())
    got = mototake.trim("sport1000", speed=20, lean=10, overrides={"payload.mass": 20})
    check("trim_json", got == want and got["lean_deg"] == 10, "%s, the CLI %s" % (got, want))


def check_run():
    script = os.path.join(ROOT, "takes", "wobble.lua")
    out = os.path.join(TMP, "py.take")
    with mototake.run(script, {"payload.mass": 20}, out=out) as t, mototake.open(os.path.join(TMP, "cli.take")) as c:
        v = t.verify()
        check("run_verify", v["ok"] and t.complete, "verify %s" % v)
        check("run_overrides", '"payload.mass=20"' in t.meta.get("overrides", ""), "overrides %r" % t.meta.get("overrides"))
        same_state = t.nsteps == c.nsteps and np.array_equal(t.state(), c.state())
        check("run_state_equal", same_state, "%d steps vs the CLI's %d, or states differ" % (t.nsteps, c.nsteps))
        a, b = t.channels(frame=False), c.channels(frame=False)
        diff = [k for k in b if k not in a or not np.array_equal(a[k], b[k], equal_nan=True)]
        check("run_channels_equal", a.keys() == b.keys() and not diff and len(a) > 50, "channels differ: %s" % diff[:5])
    tmp = mototake.run(os.path.join(TMP, "short.lua"))
    p = tmp.path
    there = os.path.exists(p)
    tmp.close()
    check("run_temporary", there and not os.path.exists(p) and not os.path.exists(os.path.dirname(p)),
          "%s: there while open %s, after close %s" % (p, there, os.path.exists(p)))


def check_errors():
    wob = os.path.join(ROOT, "takes", "wobble.lua")
    same_error("run_bad_override", lambda: mototake.run(wob, ["no.such=1"], out=os.path.join(TMP, "e.take")))
    same_error("run_lua_error", lambda: mototake.run(os.path.join(TMP, "lua_error.lua"), out=os.path.join(TMP, "e.take")))
    same_error("modes_missing_rig", lambda: mototake.modes(os.path.join(TMP, "no_rig.lua"), speed=20))
    same_error("trim_missing_rig", lambda: mototake.trim(os.path.join(TMP, "no_rig.lua"), speed=20))
    same_error("modes_speed_range", lambda: mototake.modes("sport1000", speed=200))
    same_error("modes_lean_range", lambda: mototake.modes("sport1000", speed=20, lean=70))
    same_error("trim_lean_range", lambda: mototake.trim("sport1000", speed=20, lean=99))
    # no command chooses the outputs of a trimmed point: a take script's `linear` table does, and
    # its line ends with the same words after the script's place
    same_error("modes_bad_output", lambda: mototake.modes("sport1000", speed=20, outputs=["no_such"]),
               after="field 'linear': ")


def check_c_lists():
    """A C caller's list with a NULL entry (the package never passes one): refused, no crash."""
    import ctypes
    from mototake._lib import lib
    lst = (ctypes.c_char_p * 2)(b"payload.mass=1", None)
    buf = ctypes.create_string_buffer(1024)
    h = lib.mtk_modes_new(b"sport1000", lst, 2, 20.0, 0.0, 0, None, -1, None, -1)
    code_m = lib.mtk_last_code()
    h2 = lib.mtk_modes_new(b"sport1000", None, 0, 20.0, 0.0, 0, lst, 2, None, -1)
    code_o = lib.mtk_last_code()
    rc_t = lib.mtk_trim_json(b"sport1000", lst, 2, 20.0, 0.0, -1, buf, 1024)
    rc_r = lib.mtk_run(os.path.join(ROOT, "takes", "wobble.lua").encode(), lst, 2, os.path.join(TMP, "n.take").encode())
    check("c_null_entries_refused", not h and not h2 and (code_m, code_o, rc_t, rc_r) == (2, 2, 2, 2)
          and not os.path.exists(os.path.join(TMP, "n.take")), "codes %s" % ((code_m, code_o, rc_t, rc_r),))


def check_hostile():
    """Hostile rigs and scripts (tests/data/hostile): the CLI's line, never a crash (a crash ends
    this process: the shell reports its exit status)."""
    for f in ("index_error", "index_loop", "len_error", "pattern_q"):
        same_error("hostile_modes_" + f, lambda: mototake.modes(os.path.join(H, f + ".lua"), speed=20))
    same_error("hostile_trim_index_loop", lambda: mototake.trim(os.path.join(H, "index_loop.lua"), speed=20))
    for f in ("when_loop", "index_error"):
        same_error("hostile_run_" + f, lambda: mototake.run(os.path.join(H, f + ".lua"), out=os.path.join(TMP, "h.take")))


for part in (check_modes, check_modes_ay, check_trim, check_run, check_errors, check_c_lists, check_hostile):
    try:
        part()
    except Exception as e:   # one part's surprise must not hide the others' results
        bad(part.__name__, "%s: %s" % (type(e).__name__, e))
