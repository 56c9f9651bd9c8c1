-- sweeper — a closed constant-radius circle of 400 m (anticlockwise), 14 m wide, banked 3 %
-- into the turn: high-speed, high-lean cornering (the chatter test: 216 km/h at ~53°).
local R = 400
return {
  name = "sweeper",
  closed = true,
  segments = {
    { length = 2 * math.pi * R, left_half_width = 7, right_half_width = 7,
      curvature = 1 / R, slope = 0, superelevation = -0.03 },
  },
}
