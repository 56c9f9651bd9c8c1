-- trail_braking — braking into the corner and easing off the brake as the lean builds. The ride
-- is takes/laguna_race.lua (the racing lap of Laguna Seca); the lesson is its braking into T10,
-- 75.4-81.9 s, at half speed in the chase view with the tyre forces against their friction
-- ellipses. The take's channels: full braking upright from 228 km/h at 76.6 s (the front
-- brake at 47 %, the front tyre's braking force 2.50 kN at 78.0 s); turning in with the brake
-- still on (lean 8° at 77.75 s, 19° at 78.5 s with the brake at 39 %); released as the lean
-- grows (6 % at 36° and 126 km/h at 79.75 s): the front tyre's force turns from braking
-- (fx −2.50 kN, fy −0.47 kN at 78.0 s) to cornering (fx −0.14, fy −0.85 kN at 80.0 s).
return {
  title = "Trail braking",
  about = "into T10 at Laguna Seca: the front brake eased off as the lean builds, its force turning from braking to cornering",
  parts = {
    { ride = "../laguna_race.lua", captions = "trail_braking.captions.lua", view = "chase", overlays = "forces",
      from = 75.4, to = 81.9, speed = 0.5, plot = "front_brake,lean,speed,front_fx,front_fy" },
  },
}
