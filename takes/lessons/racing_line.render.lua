-- racing_line — the racing line of Laguna Seca: takes/laguna_race.lua's flying lap (from the line
-- at 6.164 s to 103.605 s: 1:37.441), first on the track view at four times real speed (the last
-- 10 s of the line drawn behind the machine, coloured by speed), then the Corkscrew (52.2-63.8 s) in
-- the plan view following the machine, 150 m across, at real speed: the line between the road's
-- edges. The take's channels over the lap: 281 km/h at 103.1 s (the front straight), 53 km/h
-- at 88.1 s (T11, the slowest corner), 55.3° of lean at 27.0 s (T3); in the Corkscrew 198 km/h
-- at 52.2 s braking for T7, 55 km/h at 58.3 s, lean 45.1° left at 59.1 s and 52.6° right at 61.2 s.
return {
  title = "The racing line",
  about = "a flying lap of Laguna Seca on the track view, the line coloured by speed (1:37.4), then the Corkscrew close up",
  parts = {
    { ride = "../laguna_race.lua", captions = "racing_line.captions.lua", view = "track",
      from = 6.164, to = 103.605, speed = 4, plot = "speed,lean,throttle,front_brake" },
    { ride = "../laguna_race.lua", captions = "racing_line_corkscrew.captions.lua", view = "plan", span = 150,
      from = 52.2, to = 63.8, speed = 1, plot = "speed,lean,throttle,front_brake" },
  },
}
