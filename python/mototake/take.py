"""Take: one take file opened through libmototake's hardened reader (api/mototake.h, "takes").

Arrays are allocated here with numpy and filled in place by one C call each (no per-value calls,
no Python lists in between): channels column-major (each channel a contiguous array), poses and
the state row-major. Everything a take refuses raises Error with the CLI's line.
"""
import json

import numpy as np

from ._lib import Error, lib, text, arg, fail, check, dptr, nan
import ctypes


class Take:
    """An open take. Use as a context manager, or call close()."""

    def __init__(self, path):
        self.path = str(path)
        h = lib.mtk_take_open(arg(path))
        if not h:
            fail(lib.mtk_last_code())
        self._h = h
        self._names()

    # ---- what the take holds ----
    def _names(self):
        h = self._h
        k, v = ctypes.c_char_p(), ctypes.c_char_p()
        meta = {}
        for i in range(lib.mtk_take_nmeta(h)):
            lib.mtk_take_meta_at(h, i, ctypes.byref(k), ctypes.byref(v))
            meta[text(k.value)] = text(v.value)
        self.meta = meta
        self.nsteps = lib.mtk_take_nsteps(h)
        self.timestep = lib.mtk_take_timestep(h)
        self.duration = self.nsteps * self.timestep
        self.complete = bool(lib.mtk_take_complete(h, None))
        nc = lib.mtk_take_nchannels(h)
        allnames = [text(lib.mtk_take_channel_name(h, i)) for i in range(nc)]
        self._index = {n: i for i, n in enumerate(allnames)}    # the last of equal names, as the CLI
        # the columns `take channels` writes: time first (the index here), then every other channel
        self.channel_names = [n for n in allnames if n != "time"]
        self.units = {"time": "s"}
        for i, n in enumerate(allnames):
            if n != "time":
                self.units[n] = text(lib.mtk_take_channel_units(h, i))
        self.bodies = [text(lib.mtk_take_body_name(h, i)) for i in range(lib.mtk_take_nbodies(h))]
        self.state_names = [text(lib.mtk_take_state_name(h, i)) for i in range(lib.mtk_take_nstate(h))]

    def _live(self):
        if not self._h:
            raise ValueError("mototake: %s: the take is closed" % self.path)
        return self._h

    # ---- channels ----
    def channels(self, names=None, rate=None, start=None, end=None, frame=True):
        """Channels over [start, end] s at full rate (rate None) or resampled at rate Hz, as
        `take channels --channels … --rate … --from … --to …` computes them. frame=True: a pandas
        DataFrame indexed by "time", df.attrs["units"]; frame=False: dict name → float64 array
        and "time"."""
        h = self._live()
        if isinstance(names, str):
            names = [names]
        names = self.channel_names if names is None else [n for n in names if n != "time"]
        idx = np.empty(len(names), dtype=np.intc)
        for k, n in enumerate(names):
            i = lib.mtk_take_channel_index(h, arg(n))
            if i < 0:
                fail(2)
            idx[k] = i
        # None: full rate (the C call's 0); an explicit 0 is refused as `--rate 0` is (NaN: "given, not > 0")
        r = 0.0 if rate is None else (float(rate) if rate != 0 else float("nan"))
        t0, t1 = nan(start), nan(end)
        rows = lib.mtk_take_channel_rows(h, r, t0, t1)
        if rows < 0:
            fail(2)
        out = np.empty((len(names), rows))
        time = np.empty(rows)
        check(lib.mtk_take_channels(h, idx.ctypes.data_as(ctypes.POINTER(ctypes.c_int)), len(names), r, t0, t1,
                                    dptr(time), dptr(out), rows))
        units = {n: self.units[n] for n in names}
        if not frame:
            d = {"time": time}
            d.update((n, out[k]) for k, n in enumerate(names))
            return d
        import pandas as pd
        df = pd.DataFrame(out.T, index=pd.Index(time, name="time"), columns=list(names), copy=False)
        df.attrs["units"] = units
        return df

    # ---- poses, state, events ----
    def poses(self, body, start=None, end=None, frame=True):
        """Body `body`'s pose at every step of [start, end]: x y z (m) qw qx qy qz."""
        h = self._live()
        if body not in self.bodies:
            raise Error("%s: no body '%s' (the take's bodies: %s)" % (self.path, body, " ".join(self.bodies)), 2)
        t0, t1 = nan(start), nan(end)
        rows = lib.mtk_take_rows(h, t0, t1)
        if rows < 0:
            fail(2)
        out = np.empty((rows, 7))
        time = np.empty(rows)
        check(lib.mtk_take_poses(h, self.bodies.index(body), t0, t1, dptr(time), dptr(out), rows))
        if not frame:
            return out
        import pandas as pd
        return pd.DataFrame(out, index=pd.Index(time, name="time"), columns=["x", "y", "z", "qw", "qx", "qy", "qz"],
                            copy=False)

    def state(self, start=None, end=None):
        """The stored state stream over [start, end], bit for bit: (steps, len(state_names))."""
        h = self._live()
        t0, t1 = nan(start), nan(end)
        rows = lib.mtk_take_rows(h, t0, t1)
        if rows < 0:
            fail(2)
        out = np.empty((rows, len(self.state_names)))
        check(lib.mtk_take_state(h, t0, t1, dptr(out), rows))
        return out

    @property
    def events(self):
        """The take's events: [{"step", "time", "kind", "data"}] (data: the event's JSON)."""
        h = self._live()
        step, kind, js = ctypes.c_long(), ctypes.c_char_p(), ctypes.c_char_p()
        evs = []
        for i in range(lib.mtk_take_nevents(h)):
            check(lib.mtk_take_event_at(h, i, ctypes.byref(step), ctypes.byref(kind), ctypes.byref(js)))
            try:
                data = json.loads(text(js.value) or "null")
            except ValueError:
                raise Error("%s: event %d: its data is not JSON" % (self.path, i), 2) from None
            evs.append({"step": step.value, "time": step.value * self.timestep, "kind": text(kind.value), "data": data})
        return evs

    # ---- verify ----
    def verify(self):
        """`take verify`: {"ok", "message" (what the CLI prints), "first_bad", "checked",
        "resimulated", "other_build"}. A divergence is ok False; a take that cannot be verified
        at all raises Error."""
        h = self._live()
        ok, t = ctypes.c_int(), ctypes.c_char_p()
        fb, ck, rs, ob = ctypes.c_long(), ctypes.c_long(), ctypes.c_long(), ctypes.c_int()
        check(lib.mtk_take_verify(h, ctypes.byref(ok), ctypes.byref(t), ctypes.byref(fb), ctypes.byref(ck),
                                  ctypes.byref(rs), ctypes.byref(ob)))
        return {"ok": bool(ok.value), "message": text(t.value).rstrip("\n"), "first_bad": fb.value,
                "checked": ck.value, "resimulated": rs.value, "other_build": bool(ob.value)}

    # ---- lifetime ----
    def close(self):
        if getattr(self, "_h", None):
            lib.mtk_take_close(self._h)
            self._h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def __repr__(self):
        return "<mototake.Take %s: %d steps of %g s%s>" % (self.path, self.nsteps, self.timestep,
                                                          "" if self.complete else ", INCOMPLETE")


def open(path):
    """Open a take file (through the hardened reader): a Take, or Error with the CLI's line."""
    return Take(path)

