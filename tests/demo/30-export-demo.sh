#!/bin/sh
# export.sh — the exporter on the synthetic ride: out/ride.glb (with the chase-camera rig) and
# out/ride.fbx, ready for File › Import in Blender (docs/export.md).
bin/mototake export-demo -o out/ride.glb --camera --duration 4
bin/mototake export-demo -o out/ride.fbx --duration 4
