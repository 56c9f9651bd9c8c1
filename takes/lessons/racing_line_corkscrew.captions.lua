-- captions of the racing-line lesson's second part (takes/laguna_race.lua, 52.2-63.8 s: T7 and the
-- Corkscrew, plan view); figures from the take's channels speed and lean. Short lines: the
-- plan view's keys sit at the bottom right, beside the subtitles.
return {
  { t0 = 52.2, t1 = 54.2, style = "lower", text = "The Corkscrew, close up", line = "real speed, 150 m across" },
  { t0 = 52.2, t1 = 54.2, style = "subtitle", text = "T7: braking from 198 km/h" },
  { t0 = 54.2, t1 = 57.1, style = "subtitle", text = "Wide in, then the apex" },
  { t0 = 57.1, t1 = 60.1, style = "subtitle", text = "Corkscrew: 55 km/h, 45° left" },
  { t0 = 60.1, t1 = 63.8, style = "subtitle", text = "Flick right: 53°, out wide" },
}
