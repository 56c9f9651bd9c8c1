-- wobble_pulse — the stock machine and rider running straight at 70 km/h (tests/cli/arms.sh
-- rides copies at 60, 70 and 80), hands on the bars, and a 20 ms 100 N·m bar-torque pulse at
-- 1 s. The pulse lifts the 6–12 Hz steer band above 0.2° (`take band`); with the rider's arms
-- (rigs/sport1000.lua rider.arms, docs/rider_arms.md) it decays: `take band --from 2` is what
-- is left a second later.
return {
  rig = "sport1000",
  track = "straight",
  start = { station = 50, speed = 70 / 3.6 },
  duration = 3.5,
  rider = { line = "centre", speed = 70 / 3.6 },
  inputs = { { at = 1.0, steer_torque = 100, hold = 0.02 } },  -- N·m on top of the rider's, 20 ms
  events = { { at = 1.0, mark = "bar torque pulse" } },
}
