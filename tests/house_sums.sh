#!/bin/sh
# house_sums.sh — the SHA-256 of what mototake makes, command by command, so that a change meant
# to move code and not behaviour (issue 30, docs/architecture.md) can be shown to change no byte:
#
#   sh tests/house_sums.sh OUT_DIR [MOTOTAKE]      (default bin/mototake)
#
# (RESUM=1 REV=1d6a5aa0f3c2 sh tests/house_sums.sh OUT_DIR: blank and sum again the products
# OUT_DIR holds, made by the build of that revision; without REV, the revision is MOTOTAKE's.)
#
# writes OUT_DIR/sums.txt (one "sha256  name" line per product, sorted) and leaves the products
# beside it. Run it on the code before and after, then `diff before/sums.txt after/sums.txt`:
# no line may differ. It covers every shipped take script's channels (the whole take, full
# rate), a take's info, verify, cut, band and shifts reports, its exports (GLB, glTF, FBX, the
# demo scene), stills of every render view and a short MP4, and every plot and table command.
# Lines that name the build (git revision, platform, timing) are left out of the text products.
# It takes a few minutes on two cores; it is a tool, not part of `make test` (the sums are
# this machine's: another CPU may round differently, so no sums are committed).
set -u
OUT=${1:?usage: sh tests/house_sums.sh OUT_DIR [MOTOTAKE]}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MT=${2:-$ROOT/bin/mototake}
mkdir -p "$OUT"
cd "$OUT"
# the build's revision as products record it (blanked below): "(git 1d6a5aa0f3c2+)" of `version`
REV=${REV:-$("$MT" version | sed -n 's/.*(git \([0-9a-f+]*\)).*/\1/p')}
log() { printf '  %s\n' "$*" >&2; }
# a build of a tree with changes not committed records "REV+", one byte longer, and that shifts the
# binary products: compare builds of committed trees (or make GIT_REV=SAME for both)
case $REV in *+) log "warning: $MT is a build of uncommitted changes (git $REV): the GLB, FBX and .m sums will differ";; esac
if [ "${RESUM:-}" = "" ]; then
rm -f status.txt
# a product-making command: its exit status goes into status.txt (a command that starts failing
# shows as a changed line there)
mk() { name=$1; shift; "$MT" "$@" > /dev/null 2>&1; echo "$name exit $?" >> status.txt; }
# text output of a command, less the lines that name the build or the clock
txt() { name=$1; shift; { "$MT" "$@" 2>&1; echo "exit $?"; } | grep -Ev 'git_revision|platform|program_version|compiler|recorded_at|created|wall|real-time|steps/s|CPU|[0-9.]+ s elapsed| ms|x real time' > "$name" || true; }

log "take scripts (every one, whole)"
for s in "$ROOT"/takes/*.lua; do
  b=$(basename "$s" .lua)
  "$MT" run "$s" -o "$b.take" --quiet > "$b.run.txt" 2>&1 || echo "exit $?" >> "$b.run.txt"
  [ -f "$b.take" ] && "$MT" take channels "$b.take" -o "$b.csv" > /dev/null 2>&1
done
ls ./*.take > /dev/null
T=wobble.take
log "take reports"
txt info.txt take info $T
txt verify.txt take verify $T
txt band.txt take band $T
txt shifts.txt take shifts shifts.take
mk cut.take take cut laguna_lap.take --from 10 --to 12 -o cut.take
mk cut.csv take channels cut.take -o cut.csv
txt spectrum.txt spectrum $T --channel steer_angle --json
mk spectrum.png spectrum $T --channel steer_angle -o spectrum.png
mk slip.png slip skidpad_steady.take -o slip.png --csv slip.csv
txt slip.json slip skidpad_steady.take --json
log "exports"
mk w.glb export $T -o w.glb
mk w.gltf export $T -o w.gltf
mk lap.fbx export laguna_lap.take -o lap.fbx --from 20 --to 24
mk demo.glb export-demo -o demo.glb
mk addon.zip blender-addon -o addon.zip; unzip -p addon.zip > addon.files 2>/dev/null && rm -f addon.zip
log "render stills and a short video"
for v in side rear plan track chase; do
  mk r_$v.png render laguna_lap.take -o "r_$v.png" --view "$v" --at 30 --size 640x360 --quiet
done
mk r_grid.png render laguna_lap.take -o r_grid.png --view grid --at 30 --compare laguna_fast.take --quiet
mk r_cam.png render wheelie.take -o r_cam.png --view chase --camera trackside --at 3 --size 640x360 --quiet
mk r_clip.mp4 render stoppie.take -o r_clip.mp4 --view grid --from 1 --to 1.5 --size 640x360 --quiet
log "plots and tables"
R=sport1000
mk track.png track plan laguna_seca -o track.png
txt track.txt track info laguna_seca
mk rig.png rig draw $R -o rig.png
txt rig.txt rig info $R
mk tyre_fy.png plot tyre $R --quantity fy -o tyre_fy.png
mk engine.png plot engine $R -o engine.png
txt tyre.txt tyre $R --fz 2000 --alpha 0.05
txt engine.txt engine $R --rpm 9000 --throttle 0.6
txt trim.txt trim $R --speed 30 --lean 20 --json
txt modes.txt modes $R --speed 30 --json
mk locus.png modes $R --speeds 5:60:5 -o locus.png
mk wobble_mode.mp4 modes $R --speed 30 --animate wobble -o wobble_mode.mp4
txt bode.txt bode $R --speed 30 --input steer_torque --output steer_angle --json
mk bode.png bode $R --speed 30 --input steer_torque --output steer_angle -o bode.png
log "sweep"
mk sw sweep "$ROOT/takes/wobble.lua" --vary payload.mass=0:20:2 -o sw --jobs 2 --quiet
mk sweep.csv sweep report sw -o sweep.csv
rm -rf sw
fi
# What names the build, the take or the clock, blanked in place (same length, so a GLB's chunk sizes hold):
# a take's random id and its creation time in the glTF/GLB extras, the sweep's wall-clock columns;
# an FBX's creation stamps (its header and footer: the first 1 KiB and the last 512 bytes) and
# the take's id and time among its properties.
REV=$REV ROOT=$ROOT python3 - << 'PY'
import csv, glob, os, re
for f in glob.glob("*.gl*"):
    b = open(f, "rb").read()
    b = re.sub(rb'"(take_id|created)":\s*"([^"]*)"', lambda m: m.group(0).replace(m.group(2), b"x" * len(m.group(2))), b)
    open(f, "wb").write(b)
for f in glob.glob("*.fbx"):
    b = open(f, "rb").read()
    b = b"\0" * 1024 + b[1024:-512] + b"\0" * 512
    # the take's id and creation time as FBX string properties: S, a 4-byte length, the text
    for key in (rb"mototake_take_id", rb"mototake_created"):
        i = b.find(key)
        while i >= 0:
            j = b.find(b"US", i, i + 64)
            if j > 0:
                n = int.from_bytes(b[j + 2:j + 6], "little")
                b = b[:j + 6] + b"x" * n + b[j + 6 + n:]
            i = b.find(key, i + 1)
    open(f, "wb").write(b)
rev = os.environ["REV"].rstrip("+").encode()   # the build's git revision (12 hex digits), "+" and all
if rev:
    for f in glob.glob("*"):
        if os.path.isfile(f) and not f.endswith(".take"):
            b = open(f, "rb").read()
            if rev in b:
                open(f, "wb").write(re.sub(re.escape(rev) + rb"\+?", lambda m: b"x" * len(m.group(0)), b))
root = os.environ["ROOT"].encode()   # the checkout's path (rig names, the add-on's program path)
for f in glob.glob("*.txt") + glob.glob("*.csv") + glob.glob("*.json") + glob.glob("*.m") + ["addon.files"]:
    if os.path.exists(f):
        b = open(f, "rb").read()
        open(f, "wb").write(b.replace(root, b"ROOT"))
for f in glob.glob("sweep.csv"):
    rows = list(csv.reader(open(f, newline="")))
    drop = [i for i, n in enumerate(rows[0]) if n.startswith("wall_")]
    with open(f, "w", newline="") as o:
        csv.writer(o).writerows([[c for i, c in enumerate(r) if i not in drop] for r in rows])
PY
# sums of everything made (takes excluded: they record the build and the clock)
find . -type f ! -name '*.take' ! -name sums.txt | sort | xargs sha256sum > sums.txt
log "$(wc -l < sums.txt) products: $OUT/sums.txt"
