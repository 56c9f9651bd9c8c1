-- wobble_pulse — the stock machine and rider running straight at 70 km/h (`--set` the speed:
-- tests/cli/wobble.sh rides 60, 70 and 80), hands on the bars, and a 20 ms 40 N·m bar-torque
-- pulse at 1 s. With the rider's arms (rigs/sport1000.lua rider.arms, docs/rider_arms.md) the
-- 6–12 Hz steer band it starts decays: `take band --from 2` is what is left a second later.
return {
  rig = "sport1000",
  track = "straight",
  start = { station = 50, speed = 70 / 3.6 },
  duration = 3.5,
  rider = { line = "centre", speed = 70 / 3.6 },
  inputs = { { at = 1.0, steer_torque = 40, hold = 0.02 } },   -- N·m on top of the rider's, 20 ms
  events = { { at = 1.0, mark = "bar torque pulse" } },
}
