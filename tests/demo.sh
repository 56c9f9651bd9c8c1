#!/bin/sh
# make demo: the main job on shipped defaults. Outputs go to out/.
set -e
cd "$(dirname "$0")/.."
export MOTOTAKE_ROOT=$(pwd)
mkdir -p out
for d in tests/demo/*.sh; do
  [ -f "$d" ] && sh "$d"
done
echo "demo outputs in out/:"; ls -l out/
