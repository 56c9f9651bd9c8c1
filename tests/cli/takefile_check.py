"""takefile_check.py TMP ROOT: tests/takefile_reader.py (the independent reader of docs/takefile.md)
against mototake's own values, bit for bit. Run by tests/cli/takefile.sh, which records the takes
and writes `take channels` CSVs first. Prints ok/FAIL/skip lines.

The library's values: the Python package's Take.state() (python/mototake over bin/libmototake.so)
for the state, the exact stream; `mototake take channels` (%.9g, which reads back to the same
float32) for the channels, the context and the inputs. Takes: a wobble (format 5, codec 6), the
same with --store-channels, a hand-ridden take (tests/data/ride_format1.take), a format-2 take
(tests/data/stoppie_format2.take: codecs 4 and 5, stored poses and channels, the CRC of the raw
values), and the wobble with residuals put into its state so that codec 6's prediction fails."""
import os
import shutil
import sqlite3
import subprocess
import sys
import zlib

import numpy as np
import zstandard

TMP, ROOT = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "tests"))
import takefile_reader as R  # noqa: E402


def ok(n):
    print("ok " + n)


def bad(n, why):
    print("FAIL %s: %s" % (n, why))


def skip(n, why):
    print("skip %s: %s" % (n, why))


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def first_diff(a, b):
    if a.shape != b.shape:
        return "shapes %s and %s" % (a.shape, b.shape)
    k = np.argwhere(a.view(np.uint8 if a.dtype.itemsize == 1 else "u%d" % a.dtype.itemsize) !=
                    b.view("u%d" % b.dtype.itemsize))[0]
    return "first at %s: %r != %r" % (tuple(k), a[tuple(k)], b[tuple(k)])


TAKES = {"wobble": TMP + "/w.take", "wobble_ch": TMP + "/wc.take",
         "ridden": ROOT + "/tests/data/ride_format1.take", "format2": ROOT + "/tests/data/stoppie_format2.take"}


# A take whose state prediction fails: chunk 2 of the wobble's state with residual words put into
# three rated values (one low bit, one exponent bit, one at the chunk's last step), re-encoded as
# the doc says (second differences, byte planes, Zstandard; the CRC of the blob). The library reads
# it as any take (only `take verify` would find the physics changed).
def planes_of(words):
    """The doc's transform of (ncols, n) unsigned words: second differences (wrapping), byte planes."""
    W = words.dtype.itemsize
    d = words.copy()
    d[:, 1:] -= 2 * words[:, :-1]
    d[:, 2:] += words[:, :-2]
    return np.ascontiguousarray(d.view(np.uint8).reshape(d.shape[0], d.shape[1], W).transpose(2, 0, 1)).tobytes()


def encode_words(words):
    return zstandard.ZstdCompressor(level=1).compress(planes_of(words))


# A format-1 take, made from the format-2 sample: every chunk's words deflated (codecs 2 and 3)
# instead of Zstandard, the CRC (of the raw values in formats 1 to 3) unchanged; and the wobble
# with its state's chunk 3 in codec 0 (plain float64, column-major, deflated; the CRC of the blob).
def as_format1(src, dst):
    shutil.copy(src, dst)
    db = sqlite3.connect(dst)
    rows = db.execute("SELECT stream, chunk, nsteps, ncols, codec, data FROM chunks").fetchall()
    for stream, chunk, n, nc, codec, blob in rows:
        nb = zlib.compress(planes_of(R.decode_words(blob, codec, nc, n)), 1)
        db.execute("UPDATE chunks SET codec=?, data=? WHERE stream=? AND chunk=?", (codec - 2, nb, stream, chunk))
    db.execute("UPDATE meta SET value='1' WHERE key='format_version'")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()


def with_codec0(src, dst):
    shutil.copy(src, dst)
    x = R.read_stream(src, "state")[3000:4000]
    nb = zlib.compress(np.ascontiguousarray(x.T).astype("<f8").tobytes(), 1)
    db = sqlite3.connect(dst)
    db.execute("UPDATE chunks SET codec=0, data=?, crc32=? WHERE stream='state' AND chunk=3", (nb, zlib.crc32(nb)))
    db.commit()
    db.close()


PUT = [(12, 2500, 1), (0, 2700, 1 << 60), (17, 2999, 0x8000)]   # (state value, step, residual word)


def perturbed(src, dst):
    shutil.copy(src, dst)
    db = sqlite3.connect(dst)
    n, nc, blob = db.execute("SELECT nsteps, ncols, data FROM chunks WHERE stream='state' AND chunk=2").fetchone()
    w = R.decode_words(blob, 6, nc, n)
    for i, t, r in PUT:
        w[i, t - 2000] ^= np.uint64(r)
    nb = encode_words(w)
    db.execute("UPDATE chunks SET data=?, crc32=? WHERE stream='state' AND chunk=2", (nb, zlib.crc32(nb)))
    db.commit()
    db.close()


for name, path, make, src in (("residuals", "/wr.take", perturbed, "wobble"), ("format1", "/f1.take", as_format1, "format2"),
                               ("codec0", "/c0.take", with_codec0, "wobble")):
    try:   # (made with the reader: a reader that cannot read the source fails here)
        make(TAKES[src], TMP + path)
        TAKES[name] = TMP + path
    except Exception as e:  # noqa: BLE001
        bad("reader_reads_%s" % name, "making it from %s: %s: %s" % (src, type(e).__name__, e))

# --- the reader decodes every stored stream of every take, checking every CRC
data = {}
for name, path in TAKES.items():
    try:
        t = R.read_take(path)
        data[name] = (t, {s: R.read_stream(path, s, t) for s in t["stored"]})
        ok("reader_reads_%s" % name)
    except Exception as e:  # noqa: BLE001 (any failure is the check's)
        bad("reader_reads_%s" % name, "%s: %s" % (type(e).__name__, e))

# the perturbed take really has residuals the reader undid (the prediction failed there)
if "residuals" in data and "wobble" in data:
    a, b = data["wobble"][1]["state"], data["residuals"][1]["state"]
    dif = np.flatnonzero((a != b).any(axis=1))
    if len(dif) and dif[0] == 2500 and a[:2500].tobytes() == b[:2500].tobytes() and a[3000:].tobytes() == b[3000:].tobytes():
        ok("residuals_change_the_state_from_step_2500_only_in_chunk_2")
    else:
        bad("residuals_change_the_state_from_step_2500_only_in_chunk_2", "steps differing: %s" % dif[:5])

# and at each, the value is the doc's prediction XOR the residual put there; the step after it is
# the prediction again (the residuals are the only change)
if "residuals" in data:
    t_, x = data["residuals"][0], data["residuals"][1]["state"]
    h = float(t_["meta"]["timestep"])
    rate = dict(R.state_rates(t_["meta"]))
    wrong = []
    for i, t, r in PUT:
        j = rate[i]
        got, p = np.array([x[t, i]]), np.array([x[t - 1, i] + h * x[t, j]])
        if (got.view(np.uint64) ^ p.view(np.uint64))[0] != r:
            wrong.append("x%d at step %d: %r, predicted %r" % (i, t, got[0], p[0]))
        if (t + 1) % 1000:   # the next step of the same chunk: the prediction holds again
            got, p = np.array([x[t + 1, i]]), np.array([x[t, i] + h * x[t + 1, j]])
            if got.tobytes() != p.tobytes():
                wrong.append("x%d at step %d: %r, predicted %r" % (i, t + 1, got[0], p[0]))
    ok("residuals_are_the_prediction_xor_the_word") if not wrong else bad("residuals_are_the_prediction_xor_the_word", "; ".join(wrong))

# --- the state, bit for bit against the library (the Python package)
sys.path.insert(0, os.path.join(ROOT, "python"))
try:
    import mototake
    have_pkg = hasattr(mototake, "open")
    why = "python/mototake has no open()"
except Exception as e:  # noqa: BLE001
    have_pkg, why = False, "the Python package python/mototake does not import here (%s)" % e
for name, path in TAKES.items():
    check = "state_bit_exact_%s" % name
    if not have_pkg:
        skip(check, why)
        continue
    if name not in data:
        bad(check, "the reader did not read it")
        continue
    try:
        with mototake.open(path) as tk:
            lib = np.asarray(tk.state(), dtype=np.float64)
            ours = data[name][1]["state"]
            if same_bits(ours, lib):
                ok(check)
            else:
                bad(check, first_diff(ours, lib))
            # the package's channels of the wobble (rebuilt from its state, inputs and context)
            # against the channels the same ride stored with --store-channels, float32 bit for bit
            if name == "wobble" and "wobble_ch" in data:
                ch = tk.channels(frame=False)
                names = [n for n, u in data["wobble_ch"][0]["columns"]["chan"]]
                stored = data["wobble_ch"][1]["chan"].astype(np.float32)
                wrong = [n for k, n in enumerate(names) if n not in ch or
                         np.asarray(ch[n], np.float64).astype(np.float32).tobytes() != stored[:, k].tobytes()]
                if not wrong:
                    ok("package_rebuilt_channels_are_the_stored_channels")
                else:
                    bad("package_rebuilt_channels_are_the_stored_channels", "%d of %d differ, first %s" % (len(wrong), len(names), wrong[0]))
            # a format-2 take stores its poses: the package's, every body's, are those bit for bit
            if name == "format2":
                names = [n for n, u in data[name][0]["columns"]["pose"]]
                pose = data[name][1]["pose"]
                wrong = ["%s.%s" % (b, q) for b in tk.bodies for q in ("x", "y", "z", "qw", "qx", "qy", "qz")
                         if tk.poses(b)[q].to_numpy().tobytes() != pose[:, names.index("%s.%s" % (b, q))].tobytes()]
                if not wrong and len(tk.bodies) * 7 == len(names):
                    ok("pose_stored_equals_package_poses_format2")
                else:
                    bad("pose_stored_equals_package_poses_format2", "%d of %d differ: %s" % (len(wrong), len(names), wrong[:3]))
    except Exception as e:  # noqa: BLE001
        bad(check, "%s: %s" % (type(e).__name__, e))


# --- channels, context and inputs against `mototake take channels` (float32: %.9g reads back exactly)
def csv(path):
    head = open(path).readline().strip().split(",")
    return head, np.loadtxt(path, delimiter=",", skiprows=2, dtype=np.float64).astype(np.float32)


def against_csv(check, name, stream, csvpath, want=None, skipcols=()):
    if name not in data or stream not in data[name][1]:
        bad(check, "the reader did not read stream %s of %s" % (stream, name))
        return
    if not os.path.exists(csvpath):
        bad(check, "`mototake take channels` wrote no %s" % os.path.basename(csvpath))
        return
    head, c = csv(csvpath)
    x = data[name][1][stream].astype(np.float32)
    names = [n for n, u in data[name][0]["columns"][stream]]
    shared = [n for n in names if n in head and n not in skipcols]
    if want is not None and len(shared) != want:
        bad(check, "%d of the stream's columns are channels, wanted %d" % (len(shared), want))
        return
    if c.shape[0] != x.shape[0]:
        bad(check, "%d rows in the CSV, %d in the stream" % (c.shape[0], x.shape[0]))
        return
    wrong = [n for n in shared if c[:, head.index(n)].tobytes() != x[:, names.index(n)].tobytes()]
    if wrong:
        k = names.index(wrong[0])
        bad(check, "%d of %d columns differ, first %s: %s" % (len(wrong), len(shared), wrong[0],
                                                              first_diff(x[:, k], c[:, head.index(wrong[0])])))
    else:
        ok(check)


against_csv("chan_stored_equals_take_channels", "wobble_ch", "chan", TMP + "/wc.csv", 121)
against_csv("chan_stored_equals_rebuilt_channels", "wobble_ch", "chan", TMP + "/w.csv", 121)
against_csv("ctx_equals_take_channels", "wobble", "ctx", TMP + "/w.csv", 8)
against_csv("input_equals_take_channels", "wobble", "input", TMP + "/w.csv", 6)
against_csv("ctx_equals_take_channels_ridden", "ridden", "ctx", TMP + "/r.csv", 8)
# (the take is a cut from 1 s: its stored time channel starts at 1, `take channels` counts from 0)
against_csv("chan_stored_equals_take_channels_format2", "format2", "chan", TMP + "/s2.csv", 120, ("time",))

# --- CRCs: a changed byte of a blob (format 5: the blob's CRC) and a changed raw value's CRC
# (format 2: the raw values') are refused
def refused(check, src, sql, want, blobflip=None):
    dst = TMP + "/" + check + ".take"
    shutil.copy(src, dst)
    db = sqlite3.connect(dst)
    if blobflip is not None:   # (stream, chunk, byte): that byte of the blob changed
        b = bytearray(db.execute("SELECT data FROM chunks WHERE stream=? AND chunk=?", blobflip[:2]).fetchone()[0])
        b[blobflip[2]] ^= 0x10
        db.execute("UPDATE chunks SET data=? WHERE stream=? AND chunk=?", (bytes(b),) + blobflip[:2])
    else:
        db.execute(sql)
    db.commit()
    db.close()
    try:
        R.read_stream(dst, "state")
        bad(check, "read without error")
    except R.TakeError as e:
        ok(check) if want in str(e) else bad(check, str(e))
    except Exception as e:  # noqa: BLE001
        bad(check, "%s: %s" % (type(e).__name__, e))


refused("crc_blob_refused", TAKES["wobble"], None, "chunk 1 of stream state: checksum mismatch", ("state", 1, 40))
refused("crc_raw_refused_format2", TAKES["format2"],
        "UPDATE chunks SET crc32 = (crc32 | 1) - (crc32 & 1) WHERE stream='state' AND chunk=0", "chunk 0 of stream state: checksum mismatch")

# --- the doc's standard-library snippet agrees with the reader bit for bit (a codec-6 value)
snip = TMP + "/decode.py"
with open(os.path.join(ROOT, "docs/takefile.md")) as f:
    text = f.read()
code = text.split("```python\n", 1)[1].split("```", 1)[0]
with open(snip, "w") as f:
    f.write(code)
if shutil.which("zstd") is None:
    skip("doc_snippet_equals_reader", "no zstd program (make deps installs it)")
elif "ridden" in data:
    out = subprocess.run([sys.executable, snip, TAKES["ridden"], "state", "x12"], capture_output=True, text=True)
    v = np.array([float(s) for s in out.stdout.split()])
    ours = data["ridden"][1]["state"][:, 12]
    if out.returncode == 0 and same_bits(v, ours):
        ok("doc_snippet_equals_reader_state_x12")
    else:
        bad("doc_snippet_equals_reader", "exit %d, %s" % (out.returncode, out.stderr[:200] or first_diff(v, ours)))
