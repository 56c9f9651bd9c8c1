-- captions of the racing-line lesson's first part (takes/laguna_race.lua, the flying lap from
-- 6.158 s, track view at 4x); figures from the take's channels speed and lean. Short lines: the
-- track view's keys sit at the bottom right.
return {
  { t0 = 6.158, t1 = 13.25, style = "title", text = "The racing line", line = "a flying lap of Laguna Seca, 4 times real speed" },
  { t0 = 13.25, t1 = 21.93, style = "subtitle", text = "Outside, apex, outside" },
  { t0 = 21.93, t1 = 31.39, style = "subtitle", text = "T3: 53.5° of lean" },
  { t0 = 31.39, t1 = 50.23, style = "subtitle", text = "The colour is the speed" },
  { t0 = 79.44, t1 = 93.28, style = "subtitle", text = "T11, the slowest: 55 km/h" },
  { t0 = 93.28, t1 = 101.599, style = "subtitle", text = "280 km/h. Lap 1:35.441" },
}
