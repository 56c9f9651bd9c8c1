#!/usr/bin/env python3
"""tyre_mf.py — an independent evaluation of the motorcycle Magic Formula, for test values.

Written straight from the "equations" strings of shared/data/magic_formula_params.json (Sharp,
Evangelou & Limebeer 2004), in the formula's own signs, without looking at sim/tyre.c. It prints
the operating points that tests/unit/test_tyre.c checks against (tyre_mf_matches_reference).
Run:  python3 tests/ref/tyre_mf.py [path/to/magic_formula_params.json]
"""
import json
import math
import os
import sys


def sgn(x):
    return (x > 0) - (x < 0)


def mf(P, Fz, kappa, alpha, gamma):
    g = gamma
    Fz0, R0 = P["Fz0"], P["R0"]
    dfz = (Fz - Fz0) / Fz0
    # Fx0
    Dx = (P["pDx1"] + P["pDx2"] * dfz) * Fz
    Ex = (P["pEx1"] + P["pEx2"] * dfz + P["pEx3"] * dfz ** 2) * (1 - P["pEx4"] * sgn(kappa))
    Kxk = Fz * (P["pKx1"] + P["pKx2"] * dfz) * math.exp(P["pKx3"] * dfz)
    Bx = Kxk / (P["pCx1"] * Dx)
    Fx0 = Dx * math.sin(P["pCx1"] * math.atan(Bx * kappa - Ex * (Bx * kappa - math.atan(Bx * kappa))))
    # Fx
    Bxa = P["rBx1"] * math.cos(math.atan(P["rBx2"] * kappa))
    Fx = math.cos(P["rCx1"] * math.atan(Bxa * alpha)) * Fx0
    # Fy0
    Kya = P["pKy1"] * Fz0 * math.sin(P["pKy2"] * math.atan(Fz / ((P["pKy3"] + P["pKy4"] * g ** 2) * Fz0))) / (1 + P["pKy5"] * g ** 2)
    Dy = Fz * P["pDy1"] * math.exp(P["pDy2"] * dfz) / (1 + P["pDy3"] * g ** 2)
    Ey = P["pEy1"] + P["pEy2"] * g ** 2 + P["pEy4"] * g * sgn(alpha)
    By = Kya / (P["pCy1"] * Dy)
    Kyg = (P["pKy6"] + P["pKy7"] * dfz) * Fz
    Bg = Kyg / (P["pCy2"] * Dy)
    Fy0 = Dy * math.sin(P["pCy1"] * math.atan(By * alpha - Ey * (By * alpha - math.atan(By * alpha)))
                        + P["pCy2"] * math.atan(Bg * g - P["pEy5"] * (Bg * g - math.atan(Bg * g))))
    # Fy
    Byk = P["rBy1"] * math.cos(math.atan(P["rBy2"] * (alpha - P["rBy3"])))
    Fy = math.cos(P["rCy1"] * math.atan(Byk * kappa)) * Fy0
    # Mz
    Dy0 = Fz * P["pDy1"] * math.exp(P["pDy2"] * dfz)
    Kya0 = P["pKy1"] * Fz0 * math.sin(P["pKy2"] * math.atan(Fz / (P["pKy3"] * Fz0)))
    By0 = Kya0 / (P["pCy1"] * Dy0)
    Fy00 = Dy0 * math.sin(P["pCy1"] * math.atan(By0 * alpha - P["pEy1"] * (By0 * alpha - math.atan(By0 * alpha))))
    Fy_for_Mz = math.cos(P["rCy1"] * math.atan(Byk * kappa)) * Fy00
    SHr = (P["qHz3"] + P["qHz4"] * dfz) * g
    Bt = (P["qBz1"] + P["qBz2"] * dfz) * (1 + P["qBz5"] * abs(g) + P["qBz6"] * g ** 2)
    Dt = Fz * (R0 / Fz0) * (P["qDz1"] + P["qDz2"] * dfz) * (1 + P["qDz3"] * abs(g) + P["qDz4"] * g ** 2)
    Et = (P["qEz1"] + P["qEz2"] * dfz + P["qEz3"] * dfz ** 2) * (1 + P["qEz5"] * g * (2 / math.pi) * math.atan(Bt * P["qCz1"] * alpha))
    Br = P["qBz9"] + P["qBz10"] * By0 * P["pCy1"]
    Dr = Fz * R0 * ((P["qDz8"] + P["qDz9"] * dfz) * g + (P["qDz10"] + P["qDz11"] * dfz) * g * abs(g)) / math.sqrt(1 + alpha ** 2)
    r = Kxk * kappa / Kya0
    a_t = math.sqrt(alpha ** 2 + r ** 2) * sgn(alpha)
    a_r = math.sqrt((alpha + SHr) ** 2 + r ** 2) * sgn(alpha + SHr)
    trail = Dt * math.cos(P["qCz1"] * math.atan(Bt * a_t - Et * (Bt * a_t - math.atan(Bt * a_t)))) / math.sqrt(1 + alpha ** 2)
    Mzr = Dr * math.cos(math.atan(Br * a_r))
    Mz = trail * Fy_for_Mz - Mzr
    return Fx, Fy, Mz, trail, Mzr


POINTS = [  # wheel, Fz, kappa, alpha, gamma
    ("front", 1100.0, 0.05, 0.03, 0.0),
    ("front", 1650.0, -0.08, -0.05, 0.4),
    ("front", 700.0, 0.02, 0.1, -0.6),
    ("rear", 1600.0, 0.1, 0.02, 0.3),
    ("rear", 2400.0, -0.15, -0.08, -0.5),
    ("rear", 900.0, 0.0, 0.04, 0.8),
]

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "magic_formula_params.json")
    sets = json.load(open(path))["parameter_sets"]
    print("/* wheel, Fz, kappa, alpha, gamma, Fx, Fy, Mz (Sharp's sign), trail, Mzr */")
    for w, Fz, k, a, g in POINTS:
        Fx, Fy, Mz, t, Mzr = mf(sets[w], Fz, k, a, g)
        print('{"%s", %.1f, %.3f, %.3f, %.3f, %.10g, %.10g, %.10g, %.10g, %.10g},' % (w, Fz, k, a, g, Fx, Fy, Mz, t, Mzr))
