#!/bin/sh
# 15 s of the lap (out/laguna_lap.take from 20-lap.sh) in the 2x2 grid with the HUD (docs/render.md).
bin/mototake render out/laguna_lap.take -o out/laguna_lap.mp4 --view grid --from 40 --to 55
