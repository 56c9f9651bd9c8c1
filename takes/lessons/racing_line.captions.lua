-- captions of the racing-line lesson's first part (takes/laguna_race.lua, the flying lap from
-- 6.163 s, track view at 4x); figures from the take's channels speed and lean. Short lines: the
-- track view's keys sit at the bottom right.
return {
  { t0 = 6.163, t1 = 13.43, style = "title", text = "The racing line", line = "a flying lap of Laguna Seca, 4 times real speed" },
  { t0 = 13.43, t1 = 22.23, style = "subtitle", text = "Outside, apex, outside" },
  { t0 = 22.23, t1 = 31.71, style = "subtitle", text = "T3: 55.0° of lean" },
  { t0 = 31.71, t1 = 50.91, style = "subtitle", text = "The colour is the speed" },
  { t0 = 80.29, t1 = 94.18, style = "subtitle", text = "T11, the slowest: 54 km/h" },
  { t0 = 94.18, t1 = 102.876, style = "subtitle", text = "282 km/h. Lap 1:36.713" },
}
