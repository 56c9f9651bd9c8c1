-- racing_line — the racing line of Laguna Seca: takes/laguna_race.lua's flying lap (from the line
-- at 6.161 s to 102.521 s: 1:36.360), first on the track view at four times real speed (the last
-- 10 s of the line drawn behind the machine, coloured by speed), then the Corkscrew (51.62-63.05 s) in
-- the plan view following the machine, 150 m across, at real speed: the line between the road's
-- edges. The take's channels over the lap: 280 km/h at 102.1 s (the front straight), 54 km/h
-- at 86.9 s (T11, the slowest corner), 55.8° of lean at 26.8 s (T3); in the Corkscrew 201 km/h
-- at 51.62 s braking for T7, 58 km/h at 57.7 s, lean 46.7° left at 58.4 s and 53.6° right at 60.5 s.
return {
  title = "The racing line",
  about = "a flying lap of Laguna Seca on the track view, the line coloured by speed (1:36.3), then the Corkscrew close up",
  parts = {
    { ride = "../laguna_race.lua", captions = "racing_line.captions.lua", view = "track",
      from = 6.161, to = 102.521, speed = 4, plot = "speed,lean,throttle,front_brake" },
    { ride = "../laguna_race.lua", captions = "racing_line_corkscrew.captions.lua", view = "plan", span = 150,
      from = 51.62, to = 63.05, speed = 1, plot = "speed,lean,throttle,front_brake" },
  },
}
