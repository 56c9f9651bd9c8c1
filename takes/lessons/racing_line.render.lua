-- racing_line — the racing line of Laguna Seca: takes/laguna_race.lua's flying lap (from the line
-- at 6.219 s to 109.137 s: 1:42.918), first on the track view at four times real speed (the last
-- 10 s of the line drawn behind the machine, coloured by speed), then the Corkscrew (55-67 s) in
-- the plan view following the machine, 150 m across, at real speed: the line between the road's
-- edges. The take's channels over the lap: 275 km/h at 108.1 s (the front straight), 48 km/h
-- at 93.5 s (T11, the slowest corner), 53.7° of lean at 28.7 s (T3); in the Corkscrew 188 km/h
-- at 55 s braking for T7, 55 km/h at 61 s, lean 38.5° left at 62 s and 44.7° right at 64 s.
return {
  title = "The racing line",
  about = "a flying lap of Laguna Seca on the track view, the line coloured by speed (1:42.9), then the Corkscrew close up",
  parts = {
    { ride = "../laguna_race.lua", captions = "racing_line.captions.lua", view = "track",
      from = 6.219, to = 109.137, speed = 4, plot = "speed,lean,throttle,front_brake" },
    { ride = "../laguna_race.lua", captions = "racing_line_corkscrew.captions.lua", view = "plan", span = 150,
      from = 55, to = 67, speed = 1, plot = "speed,lean,throttle,front_brake" },
  },
}
