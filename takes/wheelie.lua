-- wheelie — full throttle in first gear from 40 km/h (about 3700 rpm): the front wheel lifts.
return {
  rig = "sport1000",
  track = "straight",
  start = { station = 20, speed = 14, gear = 1 },
  duration = 4,
  rider = { line = "centre", speed = 14, auto_gear = false },
  inputs = { { at = 0.5, throttle = 1, ramp = 0.1, hold = 10 } },
  events = {
    { when = function(c) return c.front_contact == 0 end, mark = "front wheel up" },
    { when = function(c) return c.pitch < -35 end, stop = "looping out: the rider shuts off" },
  },
}
