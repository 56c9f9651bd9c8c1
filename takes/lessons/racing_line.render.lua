-- racing_line — the racing line of Laguna Seca: takes/laguna_race.lua's flying lap (from the line
-- at 6.162 s to 102.488 s: 1:36.326), first on the track view at four times real speed (the last
-- 10 s of the line drawn behind the machine, coloured by speed), then the Corkscrew (51.62-63.05 s) in
-- the plan view following the machine, 150 m across, at real speed: the line between the road's
-- edges. The take's channels over the lap: 281 km/h at 102.0 s (the front straight), 54 km/h
-- at 87.0 s (T11, the slowest corner), 55.1° of lean at 26.7 s (T3); in the Corkscrew 196 km/h
-- at 51.62 s braking for T7, 57 km/h at 57.7 s, lean 46.5° left at 58.4 s and 54.0° right at 60.5 s.
return {
  title = "The racing line",
  about = "a flying lap of Laguna Seca on the track view, the line coloured by speed (1:36.3), then the Corkscrew close up",
  parts = {
    { ride = "../laguna_race.lua", captions = "racing_line.captions.lua", view = "track",
      from = 6.162, to = 102.488, speed = 4, plot = "speed,lean,throttle,front_brake" },
    { ride = "../laguna_race.lua", captions = "racing_line_corkscrew.captions.lua", view = "plan", span = 150,
      from = 51.62, to = 63.05, speed = 1, plot = "speed,lean,throttle,front_brake" },
  },
}
