-- captions of the racing-line lesson's second part (takes/laguna_race.lua, 50.84-62.25 s: T7 and the
-- Corkscrew, plan view); figures from the take's channels speed and lean. Short lines: the
-- plan view's keys sit at the bottom right, beside the subtitles.
return {
  { t0 = 50.84, t1 = 52.82, style = "lower", text = "The Corkscrew, close up", line = "real speed, 150 m across" },
  { t0 = 50.84, t1 = 52.82, style = "subtitle", text = "T7: braking from 202 km/h" },
  { t0 = 52.82, t1 = 55.67, style = "subtitle", text = "Wide in, then the apex" },
  { t0 = 55.67, t1 = 58.59, style = "subtitle", text = "Corkscrew: 59 km/h, 47° left" },
  { t0 = 58.59, t1 = 62.25, style = "subtitle", text = "Flick right: 53°, out wide" },
}
