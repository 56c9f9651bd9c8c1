-- captions of the racing-line lesson's first part (takes/laguna_race.lua, the flying lap from
-- 6.167 s, track view at 4x); figures from the take's channels speed and lean. Short lines: the
-- track view's keys sit at the bottom right.
return {
  { t0 = 6.167, t1 = 13.7, style = "title", text = "The racing line", line = "a flying lap of Laguna Seca, 4 times real speed" },
  { t0 = 13.7, t1 = 22.8, style = "subtitle", text = "Outside, apex, outside" },
  { t0 = 22.8, t1 = 32.5, style = "subtitle", text = "T3: 54.0° of lean" },
  { t0 = 32.5, t1 = 52.3, style = "subtitle", text = "The colour is the speed" },
  { t0 = 82.6, t1 = 96.9, style = "subtitle", text = "T11, the slowest: 51 km/h" },
  { t0 = 96.9, t1 = 105.652, style = "subtitle", text = "280 km/h. Lap 1:39.485" },
}
