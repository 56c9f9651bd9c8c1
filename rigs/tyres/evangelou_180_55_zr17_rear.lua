-- evangelou_180_55_zr17_rear — Magic Formula (MF-MC) set for the 180/55 ZR17 rear tyre.
-- Source: S. Evangelou, PhD thesis (Imperial College 2004) ch. 9, Tables 9.1–9.3 and 9.5, as
-- transcribed in ../shared/data/magic_formula_params.json (secondary; see docs/tyre.md).
-- R0 is an estimate from the size designation; radial stiffness from SEL 2004
-- (sharp_motorcycle.json); crown radius: the 2004 data has none — Techne's/autonomousim's values.
return {
  R0 = 0.315, crown = 0.09, k_radial = 141000, c_radial = 1500,
  sigma_x = 0.15,          -- m, longitudinal relaxation length (our choice, docs/tyre.md)
  rolling = 0.015,         -- rolling-resistance coefficient
  -- Pacejka's scaling factor of the residual (camber twisting) moment. The transcribed qDz8–qDz11
  -- give ~70 N·m of twisting torque at 26° of lean on the front tyre; with the full value a
  -- steady turn is dynamically unstable at 20 m/s (a growing oscillation a few seconds after
  -- any disturbance), with 0.5 it is stable and the steady bar torque drops to ~35 N·m. Until the
  -- coefficients are checked against the thesis we ship 0.5 (docs/tyre.md).
  lambda_mzr = 0.5,
  Fz0 = 1600, pCx1 = 1.6064, pDx1 = 1.3548, pDx2 = -0.060295, pEx1 = 0.0263, pEx2 = 0.27056,
  pEx3 = -0.076882, pEx4 = 1.1268, pKx1 = 25.939, pKx2 = -4.2327, pKx3 = 0.33686, pCy1 = 0.9,
  pDy1 = 1.3, pDy2 = 0.0, pDy3 = 0.0, pEy1 = -2.2227, pEy2 = -1.669, pEy4 = -4.288, pKy1 = 15.791,
  pKy2 = 1.6935, pKy3 = 1.4604, pKy4 = 0.669, pKy5 = 0.18708, pCy2 = 0.61397, pKy6 = 0.45512,
  pKy7 = 0.013293, pEy5 = -19.99, qHz3 = -0.028448, qHz4 = -0.0098618, qBz1 = 10.041,
  qBz2 = -1.6065e-08, qBz5 = -0.76784, qBz6 = 0.73422, qCz1 = 1.3153, qDz1 = 0.26331,
  qDz2 = 0.030987, qDz3 = -0.62013, qDz4 = 0.98524, qEz1 = -0.19924, qEz2 = -0.017638, qEz3 = 0.0,
  qEz5 = 3.6511, qBz9 = 16.39, qBz10 = -0.35549, qDz8 = 0.50453, qDz9 = 0.36312, qDz10 = -0.19168,
  qDz11 = -0.40709, rBx1 = 13.476, rBx2 = 11.354, rCx1 = 1.1231, rBy1 = 7.7856, rBy2 = 8.1697,
  rBy3 = -0.05914, rCy1 = 1.0533, c1Rel = 9.694e-06, c2Rel = -1.333e-08, c3Rel = 1.898e-09,
}
