-- trail_braking — braking into the corner and easing off the brake as the lean builds. The ride
-- is takes/laguna_race.lua (the racing lap of Laguna Seca); the lesson is its braking into T10,
-- 72.21-78.44 s, at half speed in the chase view with the tyre forces against their friction
-- ellipses. The take's channels: full braking upright from 233 km/h at 73.52 s (the front
-- brake up to 54 %, the front tyre's braking force up to 2.68 kN at 74.67 s); turning in with the
-- brake still on (lean 8° at 74.43 s, 20° at 74.70 s with the brake at 45 %); released as the lean
-- grows (5 % at 42° and 143 km/h at 76.32 s): the front tyre's force turns from braking
-- (fx −2.68 kN, fy −0.27 kN at 74.67 s) to cornering (fx −0.18, fy −1.27 kN at 76.68 s).
return {
  title = "Trail braking",
  about = "into T10 at Laguna Seca: the front brake eased off as the lean builds, its force turning from braking to cornering",
  parts = {
    { ride = "../laguna_race.lua", captions = "trail_braking.captions.lua", view = "chase", overlays = "forces",
      from = 72.21, to = 78.44, speed = 0.5, plot = "front_brake,lean,speed,front_fx,front_fy" },
  },
}
