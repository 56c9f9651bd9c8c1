-- captions of the racing-line lesson's first part (takes/laguna_race.lua, the flying lap from
-- 6.158 s, track view at 4x); figures from the take's channels speed and lean. Short lines: the
-- track view's keys sit at the bottom right.
return {
  { t0 = 6.158, t1 = 13.39, style = "title", text = "The racing line", line = "a flying lap of Laguna Seca, 4 times real speed" },
  { t0 = 13.39, t1 = 22.17, style = "subtitle", text = "Outside, apex, outside" },
  { t0 = 22.17, t1 = 31.60, style = "subtitle", text = "T3: 53.6° of lean" },
  { t0 = 31.60, t1 = 50.71, style = "subtitle", text = "The colour is the speed" },
  { t0 = 79.93, t1 = 93.77, style = "subtitle", text = "T11, the slowest: 55 km/h" },
  { t0 = 93.77, t1 = 102.092, style = "subtitle", text = "280 km/h. Lap 1:35.934" },
}
