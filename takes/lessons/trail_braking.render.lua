-- trail_braking — braking into the corner and easing off the brake as the lean builds. The ride
-- is takes/laguna_race.lua (the racing lap of Laguna Seca); the lesson is its braking into T10,
-- 77.5-84 s, at half speed in the chase view with the tyre forces against their friction
-- ellipses. The take's channels: full braking upright from 219 km/h at 78.75 s (the front
-- brake at 37 %, the front tyre's braking force 1.97 kN at 80.5 s); turning in with the brake
-- still on (lean 8° at 80.25 s, 22° at 81.0 s with the brake at 30 %); released as the lean
-- grows (5 % at 37.5° and 123 km/h at 82.25 s): the front tyre's force turns from braking
-- (fx −1.97 kN, fy −0.63 kN at 80.5 s) to cornering (fx −0.40, fy −0.79 kN at 82.25 s).
return {
  title = "Trail braking",
  about = "into T10 at Laguna Seca: the front brake eased off as the lean builds, its force turning from braking to cornering",
  parts = {
    { ride = "../laguna_race.lua", captions = "trail_braking.captions.lua", view = "chase", overlays = "forces",
      from = 77.5, to = 84, speed = 0.5, plot = "front_brake,lean,speed,front_fx,front_fy" },
  },
}
