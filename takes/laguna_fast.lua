-- laguna_fast — a faster flying lap of Laguna Seca: the minimum-curvature racing line (within the
-- edges less 2.5 m), a speed profile at 70 % of the tyres' peak friction and at most 42 m/s
-- (151 km/h), 0.3 s of curvature preview, the LQR steer loop (sim/rider_lqr.h). It laps in about 1:57 (the cautious centre-line lap
-- takes 2:12; racing superbikes 1:23–1:25). Faster settings still fall or leave the track
-- (docs/takes.md, What it can ride today).
return {
  rig = "sport1000",
  track = "laguna_seca",
  start = { station = -300, speed = 30, gear = -1 },   -- negative stations count back from the line
  duration = 200,
  rider = { line = "racing", preview = 0.3, preview_span = 0.3, lateral = 0.8, speed = "auto", grip = 0.82, top_speed = 55,
            steer = "lqr", auto_gear = true },
  events = {
    { when = function(c) return c.lap >= 1 end, mark = "start/finish: lap begins" },
    { when = function(c) return c.lap >= 2 end, stop = "flying lap complete" },
  },
}
