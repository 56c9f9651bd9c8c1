-- captions of the trail-braking lesson (takes/laguna_race.lua, 72.70-78.93 s: the braking into T10);
-- figures from the take's channels front_brake, lean, speed, front_fx and front_fy.
return {
  { t0 = 72.70, t1 = 73.78, style = "title", text = "Trail braking", line = "ease off the brake as the lean builds" },
  { t0 = 73.78, t1 = 74.73, style = "lower", text = "Into T10, Laguna Seca", line = "the racing lap, at half speed" },
  { t0 = 73.78, t1 = 74.92, style = "subtitle", text = "Braking hard, upright, from 233 km/h: front brake at 54 %" },
  { t0 = 74.92, t1 = 75.81, style = "subtitle", text = "Turning in with the brake still on: lean 8°, then 20°" },
  { t0 = 75.11, t1 = 76.10, style = "callout", text = "braking and cornering", at = "front_contact" },
  { t0 = 75.81, t1 = 77.02, style = "subtitle", text = "Releasing as it leans: brake 44 % at 20°, 5 % at 42°" },
  { t0 = 77.02, t1 = 78.93, style = "subtitle", text = "The front tyre's force has turned from braking to cornering" },
}
