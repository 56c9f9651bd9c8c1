-- trail_braking — braking into the corner and easing off the brake as the lean builds. The ride
-- is takes/laguna_race.lua (the racing lap of Laguna Seca); the lesson is its braking into T10,
-- 73.85-80.2 s, at half speed in the chase view with the tyre forces against their friction
-- ellipses. The take's channels: full braking upright from 231 km/h at 75.09 s (the front
-- brake up to 53 %, the front tyre's braking force 2.62 kN at 76.4 s); turning in with the brake
-- still on (lean 9° at 76.15 s, 20° at 76.9 s with the brake at 39 %); released as the lean
-- grows (5 % at 38° and 129 km/h at 78.1 s): the front tyre's force turns from braking
-- (fx −2.62 kN, fy −0.53 kN at 76.4 s) to cornering (fx −0.15, fy −0.85 kN at 78.4 s).
return {
  title = "Trail braking",
  about = "into T10 at Laguna Seca: the front brake eased off as the lean builds, its force turning from braking to cornering",
  parts = {
    { ride = "../laguna_race.lua", captions = "trail_braking.captions.lua", view = "chase", overlays = "forces",
      from = 73.85, to = 80.2, speed = 0.5, plot = "front_brake,lean,speed,front_fx,front_fy" },
  },
}
