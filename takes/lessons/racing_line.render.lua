-- racing_line — the racing line of Laguna Seca: takes/laguna_race.lua's flying lap (from the line
-- at 6.158 s to 102.092 s: 1:35.934), first on the track view at four times real speed (the last
-- 10 s of the line drawn behind the machine, coloured by speed), then the Corkscrew (51.32-62.75 s) in
-- the plan view following the machine, 150 m across, at real speed: the line between the road's
-- edges. The take's channels over the lap: 280 km/h at 101.7 s (the front straight), 55 km/h
-- at 86.7 s (T11, the slowest corner), 53.6° of lean at 26.5 s (T3); in the Corkscrew 201 km/h
-- at 51.32 s braking for T7, 59 km/h at 57.5 s, lean 47.3° left at 58.1 s and 53.7° right at 60.2 s.
return {
  title = "The racing line",
  about = "a flying lap of Laguna Seca on the track view, the line coloured by speed (1:36.3), then the Corkscrew close up",
  parts = {
    { ride = "../laguna_race.lua", captions = "racing_line.captions.lua", view = "track",
      from = 6.158, to = 102.092, speed = 4, plot = "speed,lean,throttle,front_brake" },
    { ride = "../laguna_race.lua", captions = "racing_line_corkscrew.captions.lua", view = "plan", span = 150,
      from = 51.32, to = 62.75, speed = 1, plot = "speed,lean,throttle,front_brake" },
  },
}
