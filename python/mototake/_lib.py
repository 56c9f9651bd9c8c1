"""The ctypes door to bin/libmototake.so (api/mototake.h): loading it, declaring its calls, and
turning a failed call into mototake.Error with the library's one-line message.

The library is found relative to this package (<repo>/bin/libmototake.so, what `make` builds) or
at $MOTOTAKE_LIB. Every declaration below mirrors api/mototake.h; argtypes are set so a wrong
Python type raises ctypes.ArgumentError here instead of passing garbage to C.
"""
import ctypes
import os

import numpy as np

c_double_p = ctypes.POINTER(ctypes.c_double)
c_int_p = ctypes.POINTER(ctypes.c_int)
c_long_p = ctypes.POINTER(ctypes.c_long)
c_char_pp = ctypes.POINTER(ctypes.c_char_p)


class Error(Exception):
    """A refusal or failure of libmototake: str(e) is the one line the CLI prints after
    "mototake: " on stderr; .code is 2 (the input is wrong: the CLI's exit 2) or 1 (internal)."""

    def __init__(self, message, code=2):
        super().__init__(message)
        self.code = code


def _path():
    env = os.environ.get("MOTOTAKE_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "..", "bin", "libmototake.so")


def _declare(lib, name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


def _load():
    path = _path()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise ImportError("mototake: cannot load %s (run `make` first, or set MOTOTAKE_LIB): %s" % (path, e)) from None
    P, I, L, D, S = ctypes.c_void_p, ctypes.c_int, ctypes.c_long, ctypes.c_double, ctypes.c_char_p
    for name, res, args in [
        ("mtk_version", S, ()), ("mtk_git_revision", S, ()), ("mtk_last_error", S, ()), ("mtk_last_code", I, ()),
        ("mtk_take_open", P, (S,)), ("mtk_take_close", None, (P,)),
        ("mtk_take_nmeta", I, (P,)), ("mtk_take_meta_at", I, (P, I, c_char_pp, c_char_pp)),
        ("mtk_take_nsteps", L, (P,)), ("mtk_take_timestep", D, (P,)), ("mtk_take_complete", I, (P, c_char_pp)),
        ("mtk_take_nchannels", I, (P,)), ("mtk_take_channel_name", S, (P, I)), ("mtk_take_channel_units", S, (P, I)),
        ("mtk_take_channel_index", I, (P, S)),
        ("mtk_take_nbodies", I, (P,)), ("mtk_take_body_name", S, (P, I)),
        ("mtk_take_nstate", I, (P,)), ("mtk_take_state_name", S, (P, I)),
        ("mtk_take_channel_rows", L, (P, D, D, D)),
        ("mtk_take_channels", I, (P, c_int_p, I, D, D, D, c_double_p, c_double_p, L)),
        ("mtk_take_rows", L, (P, D, D)),
        ("mtk_take_poses", I, (P, I, D, D, c_double_p, c_double_p, L)),
        ("mtk_take_state", I, (P, D, D, c_double_p, L)),
        ("mtk_take_nevents", I, (P,)), ("mtk_take_event_at", I, (P, I, c_long_p, c_char_pp, c_char_pp)),
        ("mtk_take_verify", I, (P, c_int_p, c_char_pp, c_long_p, c_long_p, c_long_p, c_int_p)),
    ]:
        _declare(lib, name, res, *args)
    return lib


lib = _load()


def text(b):
    """A C string from the library (a take's own text: not always UTF-8) as str."""
    return None if b is None else b.decode("utf-8", "surrogateescape")


def arg(s):
    """A str argument (a path, a name) as the C string the library takes."""
    return os.fsencode(s) if not isinstance(s, bytes) else s


def fail(code):
    """Raise Error for a failed call's code with the library's last message."""
    raise Error(text(lib.mtk_last_error()) or "internal error", code if code in (1, 2) else 1)


def check(code):
    if code != 0:
        fail(code)


def dptr(a):
    """The data pointer of a C-contiguous float64 numpy array (filled in place by the library)."""
    assert a.dtype == np.float64 and a.flags.c_contiguous
    return a.ctypes.data_as(c_double_p)


def nan(x):
    """None (the take's start or end) as the NaN the C calls take."""
    return float("nan") if x is None else float(x)
