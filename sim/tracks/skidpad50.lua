-- skidpad50 — a closed constant-radius circle of 50 m (anticlockwise), 10 m wide, level.
local R = 50
return {
  name = "skidpad50",
  closed = true,
  segments = {
    { length = 2 * math.pi * R, left_half_width = 5, right_half_width = 5,
      curvature = 1 / R, slope = 0, superelevation = 0 },
  },
}
