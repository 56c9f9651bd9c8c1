-- laguna_lap — a flying lap of Laguna Seca on the sport1000, ridden by the virtual rider on the
-- minimum-curvature racing line with a speed profile that keeps within 90 % of the tyres' grip.
-- Starts 300 m before the start/finish line at speed; the lap is timed from line to line.
local L = 3602   -- m, nominal; the track file's own length is used for stations
return {
  rig = "sport1000",
  track = "laguna_seca",
  start = { station = -300, speed = 30, gear = -1 },   -- negative stations count back from the line
  duration = 200,
  rider = { line = "racing", preview = 0.5, speed = "auto", grip = 0.8, top_speed = 45, auto_gear = true },
  events = {
    { when = function(c) return c.lap >= 1 end, mark = "start/finish: lap begins" },
    { when = function(c) return c.lap >= 2 end, stop = "flying lap complete" },
  },
}
