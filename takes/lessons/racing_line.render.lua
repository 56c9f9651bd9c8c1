-- racing_line — the racing line of Laguna Seca: takes/laguna_race.lua's flying lap (from the line
-- at 6.167 s to 105.652 s: 1:39.485), first on the track view at four times real speed (the last
-- 10 s of the line drawn behind the machine, coloured by speed), then the Corkscrew (53.2-65.1 s) in
-- the plan view following the machine, 150 m across, at real speed: the line between the road's
-- edges. The take's channels over the lap: 280 km/h at 105.0 s (the front straight), 51 km/h
-- at 90.1 s (T11, the slowest corner), 54.0° of lean at 27.4 s (T3); in the Corkscrew 195 km/h
-- at 53.2 s braking for T7, 54 km/h at 59.4 s, lean 42.4° left at 60.2 s and 49.4° right at 62.3 s.
return {
  title = "The racing line",
  about = "a flying lap of Laguna Seca on the track view, the line coloured by speed (1:39.5), then the Corkscrew close up",
  parts = {
    { ride = "../laguna_race.lua", captions = "racing_line.captions.lua", view = "track",
      from = 6.167, to = 105.652, speed = 4, plot = "speed,lean,throttle,front_brake" },
    { ride = "../laguna_race.lua", captions = "racing_line_corkscrew.captions.lua", view = "plan", span = 150,
      from = 53.2, to = 65.1, speed = 1, plot = "speed,lean,throttle,front_brake" },
  },
}
