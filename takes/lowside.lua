-- lowside — too much front brake in a corner: on the 100 m skidpad at 20 m/s (about 22° of
-- lean), the rider grabs the front brake; the front tyre's grip is used up by braking, it slides
-- and the machine falls to the inside.
return {
  rig = "sport1000",
  track = "skidpad100",
  start = { station = 0, speed = 20, lean = -23 },
  duration = 6,
  rider = { line = "centre", speed = 20 },
  inputs = { { at = 2.0, front_brake = 1, ramp = 0.05, hold = 10 } },
  events = { { at = 2.0, mark = "front brake grabbed" } },
}
