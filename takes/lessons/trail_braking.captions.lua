-- captions of the trail-braking lesson (takes/laguna_race.lua, 72.21-78.44 s: the braking into T10);
-- figures from the take's channels front_brake, lean, speed, front_fx and front_fy.
return {
  { t0 = 72.21, t1 = 73.29, style = "title", text = "Trail braking", line = "ease off the brake as the lean builds" },
  { t0 = 73.29, t1 = 74.24, style = "lower", text = "Into T10, Laguna Seca", line = "the racing lap, at half speed" },
  { t0 = 73.29, t1 = 74.43, style = "subtitle", text = "Braking hard, upright, from 233 km/h: front brake at 54 %" },
  { t0 = 74.43, t1 = 75.32, style = "subtitle", text = "Turning in with the brake still on: lean 8°, then 20°" },
  { t0 = 74.62, t1 = 75.61, style = "callout", text = "braking and cornering", at = "front_contact" },
  { t0 = 75.32, t1 = 76.53, style = "subtitle", text = "Releasing as it leans: brake 45 % at 20°, 5 % at 42°" },
  { t0 = 76.53, t1 = 78.44, style = "subtitle", text = "The front tyre's force has turned from braking to cornering" },
}
