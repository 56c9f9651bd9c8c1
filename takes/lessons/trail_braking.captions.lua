-- captions of the trail-braking lesson (takes/laguna_race.lua, 75.4-81.9 s: the braking into T10);
-- figures from the take's channels front_brake, lean, speed, front_fx and front_fy.
return {
  { t0 = 75.4, t1 = 76.5, style = "title", text = "Trail braking", line = "ease off the brake as the lean builds" },
  { t0 = 76.5, t1 = 77.5, style = "lower", text = "Into T10, Laguna Seca", line = "the racing lap, at half speed" },
  { t0 = 76.5, t1 = 77.7, style = "subtitle", text = "Braking hard, upright, from 228 km/h: front brake at 47 %" },
  { t0 = 77.7, t1 = 78.6, style = "subtitle", text = "Turning in with the brake still on: lean 8°, then 19°" },
  { t0 = 77.9, t1 = 78.9, style = "callout", text = "braking and cornering", at = "front_contact" },
  { t0 = 78.6, t1 = 79.9, style = "subtitle", text = "Releasing as it leans: brake 39 % at 19°, 6 % at 36°" },
  { t0 = 79.9, t1 = 81.9, style = "subtitle", text = "The front tyre's force has turned from braking to cornering" },
}
