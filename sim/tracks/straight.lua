-- straight — a 2 km level test strip, 12 m wide: for straight-line tests (stability, braking,
-- wheelies). Not closed.
return {
  name = "straight",
  closed = false,
  segments = {
    { length = 2000, left_half_width = 6, right_half_width = 6, curvature = 0, slope = 0, superelevation = 0 },
  },
}
