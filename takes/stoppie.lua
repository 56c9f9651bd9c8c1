-- stoppie — from 90 km/h on the straight the rider squeezes the front brake until the rear wheel
-- lifts, then balances the machine on its front wheel at 10° of nose-down pitch with the lever (a
-- pitch balance loop, sim/stunt.h); below 9 m/s (32 km/h) the rider lets the rear down.
return {
  rig = "sport1000",
  track = "straight",
  start = { station = 50, speed = 25 },
  duration = 6,
  rider = { line = "centre", speed = 25 },
  events = {
    { at = 1.0, set = { ["rider.stunt"] = "stoppie", ["rider.pitch"] = 10, ["rider.speed"] = 0 } },
    { when = function(c) return c.rear_contact == 0 end, mark = "rear wheel up" },
    { when = function(c) return c.time > 1.5 and c.stunt == 0 end, stop = "rear wheel down" },
  },
}
