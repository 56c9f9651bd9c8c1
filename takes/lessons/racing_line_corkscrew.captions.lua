-- captions of the racing-line lesson's second part (takes/laguna_race.lua, 51.82-63.35 s: T7 and the
-- Corkscrew, plan view); figures from the take's channels speed and lean. Short lines: the
-- plan view's keys sit at the bottom right, beside the subtitles.
return {
  { t0 = 51.82, t1 = 53.84, style = "lower", text = "The Corkscrew, close up", line = "real speed, 150 m across" },
  { t0 = 51.82, t1 = 53.84, style = "subtitle", text = "T7: braking from 195 km/h" },
  { t0 = 53.84, t1 = 56.74, style = "subtitle", text = "Wide in, then the apex" },
  { t0 = 56.74, t1 = 59.70, style = "subtitle", text = "Corkscrew: 56 km/h, 46° left" },
  { t0 = 59.70, t1 = 63.35, style = "subtitle", text = "Flick right: 54°, out wide" },
}
