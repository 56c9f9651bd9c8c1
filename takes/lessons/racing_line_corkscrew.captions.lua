-- captions of the racing-line lesson's second part (takes/laguna_race.lua, 51.62-63.05 s: T7 and the
-- Corkscrew, plan view); figures from the take's channels speed and lean. Short lines: the
-- plan view's keys sit at the bottom right, beside the subtitles.
return {
  { t0 = 51.62, t1 = 53.62, style = "lower", text = "The Corkscrew, close up", line = "real speed, 150 m across" },
  { t0 = 51.62, t1 = 53.62, style = "subtitle", text = "T7: braking from 201 km/h" },
  { t0 = 53.62, t1 = 56.48, style = "subtitle", text = "Wide in, then the apex" },
  { t0 = 56.48, t1 = 59.40, style = "subtitle", text = "Corkscrew: 58 km/h, 47° left" },
  { t0 = 59.40, t1 = 63.05, style = "subtitle", text = "Flick right: 54°, out wide" },
}
