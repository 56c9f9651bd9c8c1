#!/usr/bin/env python3
"""sigma_y.py — reference lateral relaxation lengths for test_fidelity.c (writes sigma_y.inc).

SEL 2004: sigma_y = Kya(Fz, gamma) * (c1Rel + c2Rel*V + c3Rel*V^2), with the cambered cornering
stiffness of the "Fy0" equation of magic_formula_params.json:
  Kya = pKy1*Fz0*sin(pKy2*atan(Fz/((pKy3 + pKy4*gamma^2)*Fz0))) / (1 + pKy5*gamma^2).
Evaluated here from the JSON, not from sim/tyre.c.  Run: python3 tests/ref/sigma_y.py > tests/ref/sigma_y.inc
"""
import json
import math
import os

here = os.path.dirname(os.path.abspath(__file__))
sets = json.load(open(os.path.join(here, "magic_formula_params.json")))["parameter_sets"]


def sigma_y(P, Fz, gamma, V):
    Fz0 = P["Fz0"]
    Kya = P["pKy1"] * Fz0 * math.sin(P["pKy2"] * math.atan(Fz / ((P["pKy3"] + P["pKy4"] * gamma ** 2) * Fz0))) / (
        1 + P["pKy5"] * gamma ** 2)
    return Kya * (P["c1Rel"] + P["c2Rel"] * V + P["c3Rel"] * V ** 2)


for w, Fz, V in (("front", 1100.0, 30.0), ("rear", 1600.0, 50.0)):
    s0 = sigma_y(sets[w], Fz, 0.0, V)
    for g in (0.0, 0.2, -0.4, 0.6, 0.9):
        s = sigma_y(sets[w], Fz, g, V)
        print('{"%s", %.1f, %.1f, %.2f, %.17g},  /* %+.1f %% against the camber-free value */' % (w, Fz, V, g, s, 100 * (s / s0 - 1)))
