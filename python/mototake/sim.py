"""Running, trimming and linearising (api/mototake.h, "running and linearising"; api/mtk_sim.c).

Each call is one C call into the same code as the command it names (`mototake run`, `trim --json`,
`modes --json`, `modes --abcd`): the same checks, the same numbers, the same one-line errors
(mototake.Error). Arrays are allocated here with numpy and filled in place by the library.
"""
import ctypes
import json
import os
import shutil
import tempfile

import numpy as np

from ._lib import Error, lib, text, arg, fail, check, dptr, _declare

_P, _I, _D, _S = ctypes.c_void_p, ctypes.c_int, ctypes.c_double, ctypes.c_char_p
_SS = ctypes.POINTER(ctypes.c_char_p)
_DP = ctypes.POINTER(ctypes.c_double)
_IP = ctypes.POINTER(ctypes.c_int)
for _name, _res, _args in [
    ("mtk_run", _I, (_S, _SS, _I, _S)),
    ("mtk_trim_json", _I, (_S, _SS, _I, _D, _D, _I, ctypes.c_char_p, ctypes.c_size_t)),
    ("mtk_modes_new", _P, (_S, _SS, _I, _D, _D, _I, _SS, _I, _SS, _I)),
    ("mtk_modes_free", None, (_P,)),
    ("mtk_modes_point", None, (_P, _DP)),
    ("mtk_modes_count", _I, (_P,)),
    ("mtk_modes_roots", None, (_P, _DP, _DP, _DP, _DP)),
    ("mtk_modes_name", _S, (_P, _I)),
    ("mtk_modes_size", None, (_P, _IP, _IP, _IP)),
    ("mtk_modes_var", _S, (_P, _I, _I)),
    ("mtk_modes_units", _S, (_P, _I, _I)),
    ("mtk_modes_abcd", None, (_P, _DP, _DP, _DP, _DP)),
]:
    _declare(lib, _name, _res, *_args)

_TRIM_JSON_SIZE = 1024          # MTK_TRIM_JSON_SIZE
_STATE, _INPUT, _OUTPUT = 0, 1, 2
DEFAULT_RIG = "rigs/sport1000.lua"


def _rig(rig):
    """The rig argument for the library: the default names the project's own sport1000 from any
    folder (as a relative path it would be looked for in the current one, as the CLI does)."""
    if rig == DEFAULT_RIG and not os.path.exists(rig):
        return arg("sport1000")
    return arg(os.fspath(rig))


def _strings(items):
    """A list of str as (char** array, count) for the library; None → (None, 0)."""
    if not items:
        return None, 0
    enc = [s.encode("utf-8", "surrogateescape") if isinstance(s, str) else bytes(s) for s in items]
    return (ctypes.c_char_p * len(enc))(*enc), len(enc)


def _sets(overrides):
    """overrides as `--set` takes them: a dict {key: value} or a list of "key=value" strings."""
    if overrides is None:
        return []
    if isinstance(overrides, dict):
        return ["%s=%s" % (k, repr(v) if isinstance(v, float) else v) for k, v in overrides.items()]
    if isinstance(overrides, str):
        return [overrides]
    return [str(s) for s in overrides]


def _required(value, command, message):
    if value is None:
        raise Error("%s: %s" % (command, message), 2)
    return float(value)


# ---- run ----

_temporary_cls = None


def _temporary_take():
    """Take whose close() also removes the temporary folder its file was written in (made once,
    lazily, so that this module imports without the take side)."""
    global _temporary_cls
    if _temporary_cls is None:
        from .take import Take

        class TemporaryTake(Take):
            """A take run into a temporary folder: closing it removes the folder (the take and any
            linearise event's .m/.json beside it)."""

            def close(self):
                super().close()
                d = self.__dict__.pop("_tmpdir", None)
                if d:
                    shutil.rmtree(d, ignore_errors=True)

        _temporary_cls = TemporaryTake
    return _temporary_cls


def run(script, overrides=None, out=None):
    """Ride the take script and record it, as `mototake run SCRIPT -o OUT --set KEY=VALUE ...`
    (quietly): an open Take of the recorded take. overrides: {key: value} or ["key=value", ...]
    (after the script's own). out: the take's path; None: a temporary file, removed with its
    folder when the Take is closed. Error (the CLI's line) when the script, the rig or an
    override is refused or the ride fails."""
    sets, n = _strings(_sets(overrides))
    tmp = None
    if out is None:
        tmp = tempfile.mkdtemp(prefix="mototake-run-")
        base = os.path.basename(str(script))
        stem = base[:-4] if base.endswith(".lua") else base
        path = os.path.join(tmp, (stem or "run") + ".take")
    else:
        path = os.fspath(out)
    try:
        check(lib.mtk_run(arg(os.fspath(script)), sets, n, arg(path)))
        if tmp is None:
            from .take import open as _open
            return _open(path)
        take = _temporary_take()(path)
        take._tmpdir = tmp
        tmp = None
        return take
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


# ---- trim ----

def trim(rig=DEFAULT_RIG, speed=None, overrides=None, lean=0.0, gear=None):
    """The steady state of rig at speed m/s and lean degrees (ISO roll, positive right), in gear
    (None: the command's choice): the dict `mototake trim RIG --speed V --lean DEG --json` prints."""
    v = _required(speed, "trim", "--speed is required (m/s)")
    sets, n = _strings(_sets(overrides))
    buf = ctypes.create_string_buffer(_TRIM_JSON_SIZE)
    g = -1 if gear is None else int(gear)
    check(lib.mtk_trim_json(_rig(rig), sets, n, v, float(lean), g, buf, _TRIM_JSON_SIZE))
    return json.loads(buf.value.decode("utf-8"))


# ---- modes ----

class Modes:
    """The rig trimmed and linearised at one point (`mototake modes RIG --speed V --json` and
    `--abcd`), open loop:
      speed (m/s), lean (deg), ay (g): the point as trimmed;
      eigenvalues: complex roots (1/s), one of each conjugate pair, of the modes listed up to
        60 Hz; names: each one's name (weave, wobble, capsize, chatter, other); hz, zeta;
      A, B, C, D: the continuous model about the same trim (numpy, n×n, n×r, p×n, p×r);
      states, inputs, outputs: their names; units: {name: units} of all three."""

    def __init__(self, h):
        pt = (ctypes.c_double * 3)()
        lib.mtk_modes_point(h, pt)
        self.speed, self.lean, self.ay = pt[0], pt[1], pt[2]
        k = lib.mtk_modes_count(h)
        re, im, hz, zeta = (np.empty(k) for _ in range(4))
        lib.mtk_modes_roots(h, dptr(re), dptr(im), dptr(hz), dptr(zeta))
        self.eigenvalues = re + 1j * im
        self.hz, self.zeta = hz, zeta
        self.names = [text(lib.mtk_modes_name(h, i)) for i in range(k)]
        n, r, p = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        lib.mtk_modes_size(h, ctypes.byref(n), ctypes.byref(r), ctypes.byref(p))
        n, r, p = n.value, r.value, p.value
        self.A, self.B, self.C, self.D = np.zeros((n, n)), np.zeros((n, r)), np.zeros((p, n)), np.zeros((p, r))
        lib.mtk_modes_abcd(h, *(dptr(M) for M in (self.A, self.B, self.C, self.D)))
        self.states, self.inputs, self.outputs = ([text(lib.mtk_modes_var(h, kind, i)) for i in range(cnt)]
                                                  for kind, cnt in ((_STATE, n), (_INPUT, r), (_OUTPUT, p)))
        self.units = {}
        for kind, cnt in ((_STATE, n), (_INPUT, r), (_OUTPUT, p)):
            for i in range(cnt):
                self.units[text(lib.mtk_modes_var(h, kind, i))] = text(lib.mtk_modes_units(h, kind, i))

    def mode(self, name):
        """The eigenvalue of the mode named name ("weave", ...), or None when none has that name."""
        for s, nm in zip(self.eigenvalues, self.names):
            if nm == name:
                return s
        return None

    def __repr__(self):
        named = ", ".join("%s %.2f Hz" % (nm, abs(s.imag) / (2 * np.pi)) for s, nm in zip(self.eigenvalues, self.names)
                          if nm != "other")
        return "<mototake.Modes %.2f m/s, lean %.1f deg: %s; A %dx%d>" % (self.speed, self.lean, named or "no named mode",
                                                                          *self.A.shape)


def modes(rig=DEFAULT_RIG, speed=None, overrides=None, lean=None, ay=None, inputs=None, outputs=None):
    """The modes and the continuous model of rig at speed m/s, upright or at lean degrees or a
    lateral acceleration of ay g (not both), as `mototake modes RIG --speed V [--lean DEG | --ay G]
    --json` and `--abcd`. inputs/outputs: the model's (a take script's `linear` names); None: the
    default selection `modes --abcd` writes. A Modes, or Error with the CLI's line."""
    v = _required(speed, "modes", "--speed is required (m/s, or --unit kmh), or --speeds FROM:TO:STEP")
    if lean is not None and ay is not None:
        raise Error("modes: give --lean or --ay, not both", 2)
    sets, n = _strings(_sets(overrides))
    ins, nin = _strings(inputs)
    outs, nout = _strings(outputs)
    h = lib.mtk_modes_new(_rig(rig), sets, n, v, float(ay if ay is not None else (lean or 0.0)),
                          int(ay is not None), ins, nin if inputs is not None else -1, outs,
                          nout if outputs is not None else -1)
    if not h:
        fail(lib.mtk_last_code())
    try:
        return Modes(h)
    finally:
        lib.mtk_modes_free(h)
