-- captions of the racing-line lesson's first part (takes/laguna_race.lua, the flying lap from
-- 6.219 s, track view at 4x); figures from the take's channels speed and lean. Short lines: the
-- track view's keys sit at the bottom right.
return {
  { t0 = 6.219, t1 = 14.2, style = "title", text = "The racing line", line = "a flying lap of Laguna Seca, 4 times real speed" },
  { t0 = 14.2, t1 = 24, style = "subtitle", text = "Outside, apex, outside" },
  { t0 = 24, t1 = 34, style = "subtitle", text = "T3: 53.7° of lean" },
  { t0 = 34, t1 = 54, style = "subtitle", text = "The colour is the speed" },
  { t0 = 85, t1 = 100, style = "subtitle", text = "T11, the slowest: 48 km/h" },
  { t0 = 100, t1 = 109.137, style = "subtitle", text = "275 km/h. Lap 1:42.918" },
}
