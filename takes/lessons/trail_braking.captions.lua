-- captions of the trail-braking lesson (takes/laguna_race.lua, 77.5-84 s: the braking into T10);
-- figures from the take's channels front_brake, lean, speed, front_fx and front_fy.
return {
  { t0 = 77.5, t1 = 78.6, style = "title", text = "Trail braking", line = "ease off the brake as the lean builds" },
  { t0 = 78.6, t1 = 79.6, style = "lower", text = "Into T10, Laguna Seca", line = "the racing lap, at half speed" },
  { t0 = 78.6, t1 = 80.0, style = "subtitle", text = "Braking hard, upright, from 219 km/h: front brake at 37 %" },
  { t0 = 80.0, t1 = 81.0, style = "subtitle", text = "Turning in with the brake still on: lean 8°, then 22°" },
  { t0 = 80.3, t1 = 81.3, style = "callout", text = "braking and cornering", at = "front_contact" },
  { t0 = 81.0, t1 = 82.4, style = "subtitle", text = "Releasing as it leans: brake 30 % at 22°, 5 % at 37°" },
  { t0 = 82.4, t1 = 84.0, style = "subtitle", text = "The front tyre's force has turned from braking to cornering" },
}
