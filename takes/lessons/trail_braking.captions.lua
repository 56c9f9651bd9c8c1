-- captions of the trail-braking lesson (takes/laguna_race.lua, 73.33-79.60 s: the braking into T10);
-- figures from the take's channels front_brake, lean, speed, front_fx and front_fy.
return {
  { t0 = 73.33, t1 = 74.42, style = "title", text = "Trail braking", line = "ease off the brake as the lean builds" },
  { t0 = 74.42, t1 = 75.37, style = "lower", text = "Into T10, Laguna Seca", line = "the racing lap, at half speed" },
  { t0 = 74.42, t1 = 75.56, style = "subtitle", text = "Braking hard, upright, from 232 km/h: front brake at 53 %" },
  { t0 = 75.56, t1 = 76.46, style = "subtitle", text = "Turning in with the brake still on: lean 9°, then 20°" },
  { t0 = 75.76, t1 = 76.75, style = "callout", text = "braking and cornering", at = "front_contact" },
  { t0 = 76.46, t1 = 77.68, style = "subtitle", text = "Releasing as it leans: brake 49 % at 20°, 5 % at 42°" },
  { t0 = 77.68, t1 = 79.60, style = "subtitle", text = "The front tyre's force has turned from braking to cornering" },
}
