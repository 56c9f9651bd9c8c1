-- lowside — too much front brake in a corner: on the 100 m skidpad at 20 m/s (about 22° of
-- lean), the rider grabs the front brake; the front tyre's grip is used up by braking, it slides,
-- the machine falls to the inside, slides along the road on its pegs, bar end, fairing and the
-- rider's shoulder (the rig's contact spheres) and comes to rest.
return {
  rig = "sport1000",
  track = "skidpad100",
  start = { station = 0, speed = 20, lean = -23 },
  duration = 12,
  rider = { line = "centre", speed = 20 },
  inputs = { { at = 2.0, front_brake = 1, ramp = 0.05, hold = 10 } },
  events = { { at = 2.0, mark = "front brake grabbed" } },
}
