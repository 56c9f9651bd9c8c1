-- chatter — the memo's chatter test: 216 km/h at 53° of lean (about 1.1 g... of lateral
-- acceleration at the effective lean) with a softened frame (twist stiffness halved), on a
-- constant-radius sweeper. Chatter shows as ~20–25 Hz oscillation of the front assembly.
return {
  rig = "sport1000",
  track = "sweeper",
  overrides = { ["bodies.steering.joints.twist.spring.k"] = 17050 },   -- N·m/rad (stock 34100)
  start = { station = 100, speed = 60, gear = 5 },  -- trimmed to the 400 m sweeper: about 53° of lean
  duration = 6,
  rider = { line = "centre", speed = 60, posture = false },   -- the memo's rider sits still (its analysis assumes a fixed rider)
  events = { { at = 3.0, linearise = true, mark = "steady cornering" } },
}
