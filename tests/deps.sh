#!/bin/sh
# make deps: install every Debian package mototake needs. Idempotent: does nothing when all
# are present, so `make test` and `make demo` can call it first every time.
set -e
PKGS="build-essential pkg-config liblua5.4-dev libcairo2-dev libpng-dev libassimp-dev
 libavcodec-dev libavformat-dev libswscale-dev libavutil-dev libmujoco-dev libsqlite3-dev
 sqlite3 liblapacke-dev libsdl2-dev zlib1g-dev ffmpeg fonts-dejavu-core python3 nodejs npm"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# node/npm may come from outside Debian on some machines: accept any working node+npm.
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  missing=$(echo "$missing" | tr ' ' '\n' | grep -vx -e nodejs -e npm | tr '\n' ' ')
fi
if [ -n "$(echo $missing)" ]; then
  echo "make deps: installing$missing"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
else
  echo "make deps: all Debian packages present"
fi
