#!/bin/sh
# make deps: install every Debian package mototake needs (clang and libclang-rt-14-dev for make
# fuzz, valgrind for tests/cli/valgrind.sh). Idempotent: does nothing when all
# are present, so `make test` and `make demo` can call it first every time.
# `sh tests/deps.sh blender` (make test-blender) also installs Blender and the numpy its glTF
# importer needs (~550 MB): only that target asks for them.
# `sh tests/deps.sh check` installs nothing: it names what make deps would install and exits 1
# if anything is missing (tests/run.sh: a make-deps tool missing fails make test).
set -e
cd "$(dirname "$0")/.."
PKGS="build-essential pkg-config liblua5.4-dev libcairo2-dev libpng-dev libassimp-dev
 libavcodec-dev libavformat-dev libswscale-dev libavutil-dev libmujoco-dev libsqlite3-dev
 sqlite3 liblapacke-dev libsdl2-dev zlib1g-dev ffmpeg fonts-dejavu-core python3 python3-matplotlib nodejs npm
 clang libclang-rt-14-dev valgrind
 libjansson-dev libfftw3-dev libmicrohttpd-dev octave xvfb xauth xdotool parallel
 chromium curl
 libzstd-dev zstd
 libmatio-dev python3-numpy python3-pandas python3-zstandard jupyter-nbconvert python3-ipykernel"
[ "$1" = blender ] && PKGS="$PKGS blender python3-numpy"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# node/npm may come from outside Debian on some machines: accept any working node+npm.
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  missing=$(echo "$missing" | tr ' ' '\n' | grep -vx -e nodejs -e npm | tr '\n' ' ')
fi
validator=tests/gltf/node_modules/gltf-validator/package.json
if [ "$1" = check ]; then
  [ -f "$validator" ] || missing="$missing gltf-validator(npm,tests/gltf)"
  if [ -n "$(echo $missing)" ]; then echo "missing (make deps installs them):$missing"; exit 1; fi
  echo "make deps: all present"; exit 0
fi
if [ -n "$(echo $missing)" ]; then
  echo "make deps: installing$missing"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
else
  echo "make deps: all Debian packages present"
fi

# The Khronos glTF validator (npm, one package, no dependencies) for tests/cli/export.sh,
# into the project-local tests/gltf/node_modules at the version pinned in its package-lock.
if [ ! -f "$validator" ]; then
  echo "make deps: installing gltf-validator into tests/gltf/node_modules"
  (cd tests/gltf && npm ci --no-audit --no-fund --loglevel=error)
fi
