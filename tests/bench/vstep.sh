#!/bin/sh
# vstep.sh — issue 18, the vehicle step: mj_step1/mj_step2 against the staged step (sim/vstep.h)
# and the bare mj_step, interleaved in blocks (tests/bench/bench_vstep.c; CPU time, medians).
bin/mt_bench vstep
