-- wobble — the linear-analysis memo's wobble test: 70 km/h in a straight line with the steering
-- damper nearly removed, and a short steering-torque spike at 2 s. The front assembly should
-- oscillate about the steering axis near 8–12 Hz (the memo: ~12 Hz, least stable near 70 km/h).
return {
  rig = "sport1000",
  track = "straight",
  overrides = { ["bodies.steering.joints.steer.spring.c"] = 0.5 },   -- N·m·s/rad (stock 6.944)
  start = { station = 50, speed = 70 / 3.6 },
  duration = 6,
  rider = { line = "centre", speed = 70 / 3.6, posture = false },   -- the memo's rider sits still (its analysis assumes a fixed rider)
  inputs = { { at = 2.0, steer_torque = 40, hold = 0.02 } },            -- N·m spike, 20 ms
  -- the linear models of the running machine just before the spike, about the straight run: the
  -- machine alone (open loop: wobble_lin1) and the machine with the rider's loops (closed:
  -- wobble_lin2, the one the recorded wobble follows; docs/linear.md)
  events = { { at = 1.9, linearise = { loop = "open" } }, { at = 1.9, linearise = { loop = "closed" } },
             { at = 2.0, mark = "steer torque spike" } },
}
