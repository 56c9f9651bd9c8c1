#!/bin/sh
# The track map of the shipped circuit.
bin/mototake track info laguna_seca
bin/mototake track plan laguna_seca -o out/laguna_seca_plan.png
bin/mototake rig draw sport1000 -o out/sport1000_side.png
