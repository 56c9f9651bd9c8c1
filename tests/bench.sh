#!/bin/sh
# make bench: speed figures (never asserted in tests). Each section prints its own lines.
cd "$(dirname "$0")/.." || exit 1
export MOTOTAKE_ROOT=$(pwd)
for b in tests/bench/*.sh; do
  [ -f "$b" ] && sh "$b"
done
[ -x bin/unit_tests ] || exit 0
