-- wobble_undamped — the lesson "wobble" (takes/lessons/wobble.render.lua), its first half: the
-- machine alone (rider = false: no rider's loops or arms on the bars, which would damp the
-- wobble) at 70 km/h on the straight with the steering damper nearly removed (0.5 N·m·s/rad,
-- stock 6.944), kicked by a 20 ms, 40 N·m steering-torque spike at 2 s. 70 km/h is where the
-- wobble is least stable (docs/wobble.md), and the weave and capsize modes are well damped
-- there, so the only motion that grows is the front end's shake.
return {
  rig = "sport1000",
  track = "straight",
  overrides = { ["bodies.steering.joints.steer.spring.c"] = 0.5 },   -- N·m·s/rad (stock 6.944)
  start = { station = 50, speed = 70 / 3.6 },
  duration = 6,
  rider = false,
  inputs = { { at = 2.0, steer_torque = 40, hold = 0.02 } },
  events = { { at = 2.0, mark = "kick" } },
}
