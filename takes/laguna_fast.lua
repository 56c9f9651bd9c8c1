-- laguna_fast — a fast flying lap of Laguna Seca: the minimum-curvature racing line (within the
-- edges less 2.5 m), a speed profile at 82 % of the tyres' peak friction and at most 55 m/s
-- (198 km/h), 0.3 s of curvature preview averaged over ±0.3 s, a lateral crossover of 0.8 rad/s,
-- the LQR steer loop about the machine's own steady turn (sim/rider_lqr.h, rider_lqr_ref.h).
-- Measured: 1:44.473 (planned 1:42.171; the cautious centre-line lap takes 2:13; racing superbikes
-- 1:23–1:25), both tyres on the road throughout; a_y 1.089 g against 1.066 g planned, braking
-- 0.629 g against 0.614 g, drive 0.716 g against 0.739 g; lean at most 49.5°; worst 1 s 6–12 Hz
-- steer RMS 0.259° (docs/takes.md, What it can ride today).
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
