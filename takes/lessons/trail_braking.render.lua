-- trail_braking — braking into the corner and easing off the brake as the lean builds. The ride
-- is takes/laguna_race.lua (the racing lap of Laguna Seca); the lesson is its braking into T10,
-- 73.02-79.25 s, at half speed in the chase view with the tyre forces against their friction
-- ellipses. The take's channels: full braking upright from 233 km/h at 74.33 s (the front
-- brake up to 54 %, the front tyre's braking force up to 2.69 kN at 75.55 s); turning in with the
-- brake still on (lean 8° at 75.26 s, 20° at 75.52 s with the brake at 50 %); released as the lean
-- grows (5 % at 42° and 141 km/h at 77.02 s): the front tyre's force turns from braking
-- (fx −2.69 kN, fy −0.27 kN at 75.55 s) to cornering (fx −0.15, fy −1.00 kN at 77.49 s).
return {
  title = "Trail braking",
  about = "into T10 at Laguna Seca: the front brake eased off as the lean builds, its force turning from braking to cornering",
  parts = {
    { ride = "../laguna_race.lua", captions = "trail_braking.captions.lua", view = "chase", overlays = "forces",
      from = 73.02, to = 79.25, speed = 0.5, plot = "front_brake,lean,speed,front_fx,front_fy" },
  },
}
