-- captions of the racing-line lesson's second part (takes/laguna_race.lua, 55-67 s: T7 and the
-- Corkscrew, plan view); figures from the take's channels speed and lean. Short lines: the
-- plan view's keys sit at the bottom right, beside the subtitles.
return {
  { t0 = 55, t1 = 57, style = "lower", text = "The Corkscrew, close up", line = "real speed, 150 m across" },
  { t0 = 55, t1 = 57, style = "subtitle", text = "T7: braking from 188 km/h" },
  { t0 = 57, t1 = 60, style = "subtitle", text = "Wide in, then the apex" },
  { t0 = 60, t1 = 63, style = "subtitle", text = "Corkscrew: 55 km/h, 38° left" },
  { t0 = 63, t1 = 67, style = "subtitle", text = "Flick right: 45°, out wide" },
}
