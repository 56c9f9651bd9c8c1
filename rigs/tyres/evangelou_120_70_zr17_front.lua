-- evangelou_120_70_zr17_front — Magic Formula (MF-MC) set for the 120/70 ZR17 front tyre.
-- Source: S. Evangelou, PhD thesis (Imperial College 2004) ch. 9, Tables 9.1–9.3 and 9.5, as
-- transcribed in ../shared/data/magic_formula_params.json (secondary; see docs/tyre.md).
-- R0 is an estimate from the size designation; radial stiffness from SEL 2004
-- (sharp_motorcycle.json); crown radius: the 2004 data has none — Techne's/autonomousim's values.
return {
  R0 = 0.3, crown = 0.06, k_radial = 130000, c_radial = 1500,
  sigma_x = 0.15,          -- m, longitudinal relaxation length (our choice, docs/tyre.md)
  rolling = 0.015,         -- rolling-resistance coefficient
  -- Pacejka's scaling factor of the residual (camber twisting) moment. The transcribed qDz8–qDz11
  -- give ~70 N·m of twisting torque at 26° of lean on the front tyre; with the full value a
  -- steady turn is dynamically unstable at 20 m/s (a growing oscillation a few seconds after
  -- any disturbance), with 0.5 it is stable and the steady bar torque drops to ~35 N·m. Until the
  -- coefficients are checked against the thesis we ship 0.5 (docs/tyre.md).
  lambda_mzr = 0.5,
  Fz0 = 1100, pCx1 = 1.6064, pDx1 = 1.3806, pDx2 = -0.041429, pEx1 = 0.0263, pEx2 = 0.27056,
  pEx3 = -0.076882, pEx4 = 1.1268, pKx1 = 25.939, pKx2 = -4.2327, pKx3 = 0.33686, pCy1 = 0.83266,
  pDy1 = 1.3, pDy2 = 0.0, pDy3 = 0.0, pEy1 = -1.2556, pEy2 = -3.2068, pEy4 = -3.9975,
  pKy1 = 22.841, pKy2 = 2.1578, pKy3 = 2.5058, pKy4 = -0.08088, pKy5 = -0.22882, pCy2 = 0.86765,
  pKy6 = 0.69677, pKy7 = -0.03077, pEy5 = -15.815, qHz3 = -0.0037886, qHz4 = -0.01557,
  qBz1 = 10.486, qBz2 = -0.0011536, qBz5 = -0.68973, qBz6 = 1.0411, qCz1 = 1.0917, qDz1 = 0.19796,
  qDz2 = 0.065629, qDz3 = 0.2199, qDz4 = 0.21866, qEz1 = -0.91586, qEz2 = 0.11625,
  qEz3 = -0.0024085, qEz5 = 1.4387, qBz9 = 27.445, qBz10 = -1.0792, qDz8 = 0.3682, qDz9 = 0.1218,
  qDz10 = 0.25439, qDz11 = -0.17873, rBx1 = 13.476, rBx2 = 11.354, rCx1 = 1.1231, rBy1 = 7.7856,
  rBy2 = 8.1697, rBy3 = -0.05914, rCy1 = 1.0533, c1Rel = 8.633e-06, c2Rel = 3.725e-08,
  c3Rel = 8.389e-10,
}
