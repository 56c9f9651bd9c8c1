-- racing_line — the racing line of Laguna Seca: takes/laguna_race.lua's flying lap (from the line
-- at 6.163 s to 102.876 s: 1:36.713), first on the track view at four times real speed (the last
-- 10 s of the line drawn behind the machine, coloured by speed), then the Corkscrew (51.82-63.35 s) in
-- the plan view following the machine, 150 m across, at real speed: the line between the road's
-- edges. The take's channels over the lap: 282 km/h at 102.4 s (the front straight), 54 km/h
-- at 87.4 s (T11, the slowest corner), 55.0° of lean at 26.8 s (T3); in the Corkscrew 195 km/h
-- at 51.82 s braking for T7, 56 km/h at 57.9 s, lean 46.1° left at 58.7 s and 54.0° right at 60.8 s.
return {
  title = "The racing line",
  about = "a flying lap of Laguna Seca on the track view, the line coloured by speed (1:36.7), then the Corkscrew close up",
  parts = {
    { ride = "../laguna_race.lua", captions = "racing_line.captions.lua", view = "track",
      from = 6.163, to = 102.876, speed = 4, plot = "speed,lean,throttle,front_brake" },
    { ride = "../laguna_race.lua", captions = "racing_line_corkscrew.captions.lua", view = "plan", span = 150,
      from = 51.82, to = 63.35, speed = 1, plot = "speed,lean,throttle,front_brake" },
  },
}
