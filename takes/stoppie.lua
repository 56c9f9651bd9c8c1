-- stoppie — hard front brake from 90 km/h on the straight: the rear wheel lifts.
return {
  rig = "sport1000",
  track = "straight",
  start = { station = 50, speed = 25 },
  duration = 5,
  rider = { line = "centre", speed = 25 },
  inputs = {
    { at = 1.0, throttle = 0, hold = 10 },
    { at = 1.0, front_brake = 1, ramp = 0.25, hold = 10 },
  },
  events = {
    { when = function(c) return c.rear_contact == 0 end, mark = "rear wheel up" },
    { when = function(c) return c.speed < 1 end, stop = "stopped" },
  },
}
