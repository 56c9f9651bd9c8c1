-- stoppie — hard front brake from 90 km/h on the straight: the rear wheel lifts. The rider
-- squeezes the lever, and once the rear is up eases it to hold the balance instead of going over
-- the bars, as a rider does.
return {
  rig = "sport1000",
  track = "straight",
  start = { station = 50, speed = 25 },
  duration = 5,
  rider = { line = "centre", speed = 25 },
  inputs = {
    { at = 1.0, throttle = 0, hold = 10 },
    { at = 1.0, front_brake = 0.7, ramp = 0.3, hold = 10 },
  },
  events = {
    { when = function(c) return c.rear_contact == 0 end, mark = "rear wheel up",
      set = { ["input.front_brake"] = 0.42 } },
    { when = function(c) return c.speed < 1.5 end, stop = "stopped" },
  },
}
