-- racing_line — the racing line of Laguna Seca: takes/laguna_race.lua's flying lap (from the line
-- at 6.158 s to 101.599 s: 1:35.441), first on the track view at four times real speed (the last
-- 10 s of the line drawn behind the machine, coloured by speed), then the Corkscrew (50.84-62.25 s) in
-- the plan view following the machine, 150 m across, at real speed: the line between the road's
-- edges. The take's channels over the lap: 280 km/h at 101.2 s (the front straight), 55 km/h
-- at 86.2 s (T11, the slowest corner), 53.5° of lean at 26.3 s (T3); in the Corkscrew 202 km/h
-- at 50.84 s braking for T7, 59 km/h at 57.0 s, lean 47.1° left at 57.6 s and 53.5° right at 59.6 s.
return {
  title = "The racing line",
  about = "a flying lap of Laguna Seca on the track view, the line coloured by speed (1:35.4), then the Corkscrew close up",
  parts = {
    { ride = "../laguna_race.lua", captions = "racing_line.captions.lua", view = "track",
      from = 6.158, to = 101.599, speed = 4, plot = "speed,lean,throttle,front_brake" },
    { ride = "../laguna_race.lua", captions = "racing_line_corkscrew.captions.lua", view = "plan", span = 150,
      from = 50.84, to = 62.25, speed = 1, plot = "speed,lean,throttle,front_brake" },
  },
}
