-- hud_gauges — a short leaned ride round the 50 m skidpad, first on the throttle and then on
-- both brakes at different levels, so that every instrument of the HUD shows a value of its own
-- (tests/unit/test_hud.c): 0.6 s at 15 m/s; throttle 0.6 from 0.05 s to 0.3 s, then the
-- front lever at 0.5 and the rear at 0.2.
return {
  rig = "sport1000",
  track = "skidpad50",
  start = { station = 10, speed = 15 },
  duration = 0.6,
  rider = { line = "centre", speed = 15 },
  inputs = { { at = 0.05, throttle = 0.6, ramp = 0.05, hold = 0.25 },
             { at = 0.3, front_brake = 0.5, ramp = 0.05, hold = 0 },
             { at = 0.3, rear_brake = 0.2, ramp = 0.05, hold = 0 } },
}
