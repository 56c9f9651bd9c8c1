-- wheelie — at 50 km/h in first gear the rider opens the throttle, lifts the front wheel and holds
-- it up at 20° of pitch with the throttle (a pitch balance loop, sim/stunt.h), then sets it down.
return {
  rig = "sport1000",
  track = "straight",
  start = { station = 20, speed = 14, gear = 1 },
  duration = 6,
  rider = { line = "centre", speed = 14, auto_gear = false },
  events = {
    { at = 0.5, set = { ["rider.stunt"] = "wheelie", ["rider.pitch"] = -20 } },
    { when = function(c) return c.front_contact == 0 end, mark = "front wheel up" },
    { at = 3.0, set = { ["rider.stunt"] = "none", ["rider.speed"] = 40 } },
    { when = function(c) return c.pitch < -35 end, stop = "looping out" },
  },
}
