-- captions of the racing-line lesson's second part (takes/laguna_race.lua, 51.32-62.75 s: T7 and the
-- Corkscrew, plan view); figures from the take's channels speed and lean. Short lines: the
-- plan view's keys sit at the bottom right, beside the subtitles.
return {
  { t0 = 51.32, t1 = 53.32, style = "lower", text = "The Corkscrew, close up", line = "real speed, 150 m across" },
  { t0 = 51.32, t1 = 53.32, style = "subtitle", text = "T7: braking from 201 km/h" },
  { t0 = 53.32, t1 = 56.18, style = "subtitle", text = "Wide in, then the apex" },
  { t0 = 56.18, t1 = 59.10, style = "subtitle", text = "Corkscrew: 59 km/h, 47° left" },
  { t0 = 59.10, t1 = 62.75, style = "subtitle", text = "Flick right: 54°, out wide" },
}
