-- captions of the racing-line lesson's second part (takes/laguna_race.lua, 53.2-65.1 s: T7 and the
-- Corkscrew, plan view); figures from the take's channels speed and lean. Short lines: the
-- plan view's keys sit at the bottom right, beside the subtitles.
return {
  { t0 = 53.2, t1 = 55.2, style = "lower", text = "The Corkscrew, close up", line = "real speed, 150 m across" },
  { t0 = 53.2, t1 = 55.2, style = "subtitle", text = "T7: braking from 195 km/h" },
  { t0 = 55.2, t1 = 58.2, style = "subtitle", text = "Wide in, then the apex" },
  { t0 = 58.2, t1 = 61.2, style = "subtitle", text = "Corkscrew: 54 km/h, 42° left" },
  { t0 = 61.2, t1 = 65.1, style = "subtitle", text = "Flick right: 49°, out wide" },
}
