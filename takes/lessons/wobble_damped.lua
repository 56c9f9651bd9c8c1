-- wobble_damped — the lesson "wobble" (takes/lessons/wobble.render.lua), its second half:
-- wobble_undamped.lua's ride with the stock steering damper (6.944 N·m·s/rad): the machine alone
-- (rider = false) at 70 km/h on the straight, the same 20 ms, 40 N·m knock on the bars at 2 s.
-- The shake it starts dies away within a second.
return {
  rig = "sport1000",
  track = "straight",
  start = { station = 50, speed = 70 / 3.6 },
  duration = 6,
  rider = false,
  inputs = { { at = 2.0, steer_torque = 40, hold = 0.02 } },
  events = { { at = 2.0, mark = "kick" } },
}
