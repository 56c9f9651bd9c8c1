-- captions of the trail-braking lesson (takes/laguna_race.lua, 73.02-79.25 s: the braking into T10);
-- figures from the take's channels front_brake, lean, speed, front_fx and front_fy.
return {
  { t0 = 73.02, t1 = 74.10, style = "title", text = "Trail braking", line = "ease off the brake as the lean builds" },
  { t0 = 74.10, t1 = 75.05, style = "lower", text = "Into T10, Laguna Seca", line = "the racing lap, at half speed" },
  { t0 = 74.10, t1 = 75.24, style = "subtitle", text = "Braking hard, upright, from 233 km/h: front brake at 54 %" },
  { t0 = 75.24, t1 = 76.13, style = "subtitle", text = "Turning in with the brake still on: lean 8°, then 20°" },
  { t0 = 75.43, t1 = 76.42, style = "callout", text = "braking and cornering", at = "front_contact" },
  { t0 = 76.13, t1 = 77.34, style = "subtitle", text = "Releasing as it leans: brake 50 % at 20°, 5 % at 42°" },
  { t0 = 77.34, t1 = 79.25, style = "subtitle", text = "The front tyre's force has turned from braking to cornering" },
}
