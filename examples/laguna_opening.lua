-- laguna_opening — the first 40 s of takes/laguna_lap.lua (the same cautious rider), for
-- examples/researcher.ipynb: the whole lap takes 142 s of simulation to record, this about a quarter.
--
-- A cautious rider: the centre line, a speed profile that keeps within 70 % of the tyres'
-- grip and never above 33 m/s (119 km/h), one second of look-ahead, the LQR steer loop
-- (sim/rider_lqr.h: the gain-scheduled loop rang the 6–12 Hz wobble band six times as much).
-- (Racing superbikes lap in 1:23–1:25; this rider takes about 2:13.) It starts 300 m before
-- the start/finish line at speed; the lap is timed from line to line.
return {
  rig = "sport1000",
  track = "laguna_seca",
  start = { station = -300, speed = 30, gear = -1 },   -- negative stations count back from the line
  duration = 40,
  rider = { line = "centre", preview = 0.35, speed = "auto", grip = 0.7, top_speed = 33, steer = "lqr", auto_gear = true },
  events = {
    { when = function(c) return c.lap >= 1 end, mark = "start/finish: lap begins" },
  },
}
