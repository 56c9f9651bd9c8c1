#!/bin/sh
# the renderer: frames/s per view at 720p and 1080p, and the ratio to libx264 alone (bench_render.c)
bin/mt_bench render
