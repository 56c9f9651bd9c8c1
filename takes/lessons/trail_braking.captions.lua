-- captions of the trail-braking lesson (takes/laguna_race.lua, 73.85-80.2 s: the braking into T10);
-- figures from the take's channels front_brake, lean, speed, front_fx and front_fy.
return {
  { t0 = 73.85, t1 = 74.95, style = "title", text = "Trail braking", line = "ease off the brake as the lean builds" },
  { t0 = 74.95, t1 = 75.9, style = "lower", text = "Into T10, Laguna Seca", line = "the racing lap, at half speed" },
  { t0 = 74.95, t1 = 76.1, style = "subtitle", text = "Braking hard, upright, from 231 km/h: front brake at 53 %" },
  { t0 = 76.1, t1 = 77.0, style = "subtitle", text = "Turning in with the brake still on: lean 9°, then 20°" },
  { t0 = 76.3, t1 = 77.3, style = "callout", text = "braking and cornering", at = "front_contact" },
  { t0 = 77.0, t1 = 78.25, style = "subtitle", text = "Releasing as it leans: brake 39 % at 20°, 5 % at 38°" },
  { t0 = 78.25, t1 = 80.2, style = "subtitle", text = "The front tyre's force has turned from braking to cornering" },
}
