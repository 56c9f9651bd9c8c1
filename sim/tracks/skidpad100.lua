-- skidpad100 — a closed constant-radius circle of 100 m (anticlockwise), 12 m wide, level:
-- steady-turn tests. One segment: a circle of curvature 1/100 and length 2π·100.
local R = 100
return {
  name = "skidpad100",
  closed = true,
  segments = {
    { length = 2 * math.pi * R, left_half_width = 6, right_half_width = 6,
      curvature = 1 / R, slope = 0, superelevation = 0 },
  },
}
