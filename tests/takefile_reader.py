#!/usr/bin/python3
"""takefile_reader.py: an independent reader of mototake's take files (docs/takefile.md).

Written from docs/takefile.md alone, with Python's sqlite3 and zlib, the `zstandard` module and
numpy: no mototake code, no ctypes, nothing from bin/. It is the proof that an archived take
outlives the program: tests/cli/takefile.sh compares what it decodes with the library's values
bit for bit.

    read_take(path) -> dict: meta, columns, status, events, sources, version
    read_stream(path, stream) -> numpy (nsteps, ncols) float64 (float32 streams widened exactly)

Command line: takefile_reader.py TAKE [STREAM...] prints each stored stream's shape and a digest.
"""
import hashlib
import json
import sqlite3
import sys
import zlib

import numpy as np
import zstandard

CHUNK_STEPS = 1000
WIDTH = {0: 8, 2: 8, 3: 4, 4: 8, 5: 4, 6: 8}   # bytes per stored value, by codec
ZSTD_CODECS = (4, 5, 6)                         # the others are zlib streams (deflate)
# a stream's codecs: 0, its format 1 codec, its format 2 to 5 codec (and 6: the state with state_rates)
STREAM_CODECS = {"state": (0, 2, 4), "input": (0, 2, 4), "pose": (0, 2, 4), "chan": (0, 3, 5), "ctx": (0, 3, 5)}


class TakeError(Exception):
    pass


def _connect(path):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    db.execute("PRAGMA trusted_schema=OFF")
    return db


def read_take(path):
    """Everything but the chunks: meta, the columns of each stream, status, events, sources."""
    db = _connect(path)
    try:
        meta = dict(db.execute("SELECT key, value FROM meta"))
        if meta.get("format") != "mototake take":
            raise TakeError("%s: not a take (meta format is %r)" % (path, meta.get("format")))
        version = int(meta["format_version"])
        uv = db.execute("PRAGMA user_version").fetchone()[0]
        if uv != version:
            raise TakeError("%s: PRAGMA user_version %d disagrees with meta format_version %d" % (path, uv, version))
        columns = {}
        for stream, idx, name, units in db.execute("SELECT stream, idx, name, units FROM columns ORDER BY stream, idx"):
            cols = columns.setdefault(stream, [])
            if idx != len(cols):
                raise TakeError("%s: stream %r: column %d out of order" % (path, stream, idx))
            cols.append((name, units))
        row = db.execute("SELECT complete, reason, nsteps FROM status WHERE id = 1").fetchone()
        status = {"complete": bool(row[0]), "reason": row[1], "nsteps": row[2]}
        events = [{"step": s, "kind": k, "data": json.loads(j)}
                  for s, k, j in db.execute("SELECT step, kind, json FROM events ORDER BY id")]
        sources = [{"kind": k, "name": n, "text": t} for k, n, t in db.execute("SELECT kind, name, text FROM sources ORDER BY id")]
        stored = [s for (s,) in db.execute("SELECT DISTINCT stream FROM chunks")]
    finally:
        db.close()
    return {"path": path, "meta": meta, "version": version, "columns": columns, "status": status,
            "events": events, "sources": sources, "stored": sorted(stored)}


def state_rates(meta):
    """meta state_rates "i:j,…" as a list of (i, j): state value i integrates value j."""
    return [tuple(int(x) for x in p.split(":")) for p in meta.get("state_rates", "").split(",") if p]


def decode_words(blob, codec, ncols, n):
    """A chunk's blob -> its stored words, shape (ncols, n), unsigned integers of the codec's width
    (the values' bit patterns; for codec 6 the rated values' residual words), and the raw bytes'
    CRC input (the little-endian words, column-major)."""
    width = WIDTH[codec]
    nbytes = width * ncols * n
    if codec in ZSTD_CODECS:
        raw = zstandard.ZstdDecompressor().decompress(blob, max_output_size=nbytes)
    else:
        raw = zlib.decompress(blob)
    if len(raw) != nbytes:
        raise TakeError("chunk inflates to %d bytes, not %d" % (len(raw), nbytes))
    udt = np.dtype("<u%d" % width)
    if codec == 0:   # plain little-endian float64, column-major
        return np.frombuffer(raw, udt).reshape(ncols, n).copy()
    # byte planes: plane b holds byte b (least significant first) of every value, column-major
    planes = np.frombuffer(raw, np.uint8).reshape(width, ncols * n)
    d = np.ascontiguousarray(planes.T).view(udt).reshape(ncols, n)
    # second differences, wrapping: w[i] = d[i] + 2 w[i-1] - w[i-2], w[-1] = w[-2] = 0, i.e. the
    # running sum of the running sum (unsigned integer arithmetic wraps modulo 2^(8·width))
    return np.cumsum(np.cumsum(d, axis=1, dtype=udt), axis=1, dtype=udt)


def undo_rates(x, rates, h):
    """Codec 6: x (n, ncols) float64 where each rated column i holds, at t > 0, its bits XOR those
    of the prediction x_i[t-1] + h·x_j[t] (two roundings). In place. Between nonzero residuals the
    recurrence is a running sum, which numpy's add.accumulate computes in order, one rounding per
    addition, exactly as the writer's x + h·v."""
    n = x.shape[0]
    for i, j in rates:
        res = x[1:, i].copy().view(np.uint64)
        hv = h * x[:, j]   # one rounding each
        breaks = (np.flatnonzero(res) + 1).tolist() + [n]
        start = 0
        for b in breaks:
            if b > start + 1:   # steps start+1 … b-1: the prediction held
                a = hv[start:b].copy()
                a[0] = x[start, i]
                x[start:b, i] = np.add.accumulate(a)
            if b < n:           # step b: a residual, XOR the prediction
                p = np.array([x[b - 1, i] + hv[b]]).view(np.uint64)
                x[b, i] = (p ^ res[b - 1:b]).view(np.float64)[0]
            start = b
    return x


def read_stream(path, stream, take=None):
    """Every stored chunk of a stream, decoded and checked, as (nsteps, ncols) float64."""
    take = take or read_take(path)
    version, meta = take["version"], take["meta"]
    ncols = len(take["columns"].get(stream, []))
    rates = state_rates(meta) if stream == "state" else []
    h = float(meta["timestep"])
    db = _connect(path)
    parts = []
    try:
        rows = db.execute("SELECT chunk, step0, nsteps, ncols, codec, raw_bytes, crc32, data FROM chunks "
                          "WHERE stream = ? ORDER BY chunk", (stream,)).fetchall()
    finally:
        db.close()
    if not rows:
        raise TakeError("%s: stream %r is not stored" % (path, stream))
    for k, (chunk, step0, n, nc, codec, raw_bytes, crc, blob) in enumerate(rows):
        where = "%s: chunk %d of stream %s" % (path, chunk, stream)
        if chunk != k or step0 != CHUNK_STEPS * k or nc != ncols:
            raise TakeError("%s: bad header (step0 %d, ncols %d)" % (where, step0, nc))
        if codec not in STREAM_CODECS.get(stream, ()) + ((6,) if stream == "state" and rates else ()):
            raise TakeError("%s: codec %d is not one of this stream's" % (where, codec))
        if raw_bytes != WIDTH[codec] * nc * n or not (0 < n <= CHUNK_STEPS) or (k < len(rows) - 1 and n != CHUNK_STEPS):
            raise TakeError("%s: bad size" % where)
        if version >= 4 and zlib.crc32(blob) != crc:   # format 4 on: the CRC of the blob, before inflating
            raise TakeError("%s: checksum mismatch (crc 0x%08x != 0x%08x)" % (where, zlib.crc32(blob), crc))
        words = decode_words(blob, codec, nc, n)
        if version < 4 and zlib.crc32(words.tobytes()) != crc:   # formats 1-3: the raw values'
            raise TakeError("%s: checksum mismatch (crc 0x%08x != 0x%08x)" % (where, zlib.crc32(words.tobytes()), crc))
        vals = words.view(np.float32 if WIDTH[codec] == 4 else np.float64).astype(np.float64).T.copy()
        if codec == 6:
            undo_rates(vals, rates, h)
        parts.append(vals)
    return np.concatenate(parts)


def main(argv):
    if len(argv) < 2:
        print("usage: takefile_reader.py TAKE [STREAM...]", file=sys.stderr)
        return 2
    try:
        take = read_take(argv[1])
        for s in argv[2:] or take["stored"]:
            x = read_stream(argv[1], s, take)
            print("%s %d x %d sha256 %s" % (s, x.shape[0], x.shape[1], hashlib.sha256(x.tobytes()).hexdigest()[:16]))
    except (TakeError, sqlite3.Error, zstandard.ZstdError, zlib.error, KeyError, ValueError) as e:
        print("%s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
