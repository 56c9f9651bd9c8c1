#!/bin/sh
# engine.sh — engine evaluations per second (the manifold solve included), cold and warm-started.
bin/mototake engine engine_gsxr1000 --bench 5000000
