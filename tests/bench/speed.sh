#!/bin/sh
# speed.sh — issue 18: vehicle alone vs bare MuJoCo, the ridden Laguna lap not recorded / recorded /
# recorded beside a busy loop, the ratios, take MB per simulated minute, and the per-stage breakdown
# (tests/bench/bench_speed.c; rates in CPU time, medians of MT_BENCH_REPS micro-runs).
bin/mt_bench speed
