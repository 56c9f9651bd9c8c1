-- captions of the racing-line lesson's first part (takes/laguna_race.lua, the flying lap from
-- 6.164 s, track view at 4x); figures from the take's channels speed and lean. Short lines: the
-- track view's keys sit at the bottom right.
return {
  { t0 = 6.164, t1 = 13.5, style = "title", text = "The racing line", line = "a flying lap of Laguna Seca, 4 times real speed" },
  { t0 = 13.5, t1 = 22.4, style = "subtitle", text = "Outside, apex, outside" },
  { t0 = 22.4, t1 = 31.9, style = "subtitle", text = "T3: 55.3° of lean" },
  { t0 = 31.9, t1 = 51.3, style = "subtitle", text = "The colour is the speed" },
  { t0 = 80.9, t1 = 94.9, style = "subtitle", text = "T11, the slowest: 53 km/h" },
  { t0 = 94.9, t1 = 103.605, style = "subtitle", text = "281 km/h. Lap 1:37.441" },
}
