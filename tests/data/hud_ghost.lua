-- hud_ghost — the ghost for hud_gauges (tests/unit/test_hud.c, the plan view's "gap to ghost"):
-- the same ride and inputs from the same station, started at 13 m/s instead of 15, so that at
-- every step the test draws the ghost is a few hundredths of a second behind on the road.
return {
  rig = "sport1000",
  track = "skidpad50",
  start = { station = 10, speed = 13 },
  duration = 0.6,
  rider = { line = "centre", speed = 13 },
  inputs = { { at = 0.05, throttle = 0.6, ramp = 0.05, hold = 0.25 },
             { at = 0.3, front_brake = 0.5, ramp = 0.05, hold = 0 },
             { at = 0.3, rear_brake = 0.2, ramp = 0.05, hold = 0 } },
}
