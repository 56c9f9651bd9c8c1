-- wobble — what the steering damper is for. Two rides of the machine alone (no rider's hands on
-- the bars) at 70 km/h, where the wobble is least stable (docs/wobble.md), each knocked by a
-- 20 ms, 40 N·m steering-torque spike at 2 s, shown one after the other at half speed in the
-- chase view with the steer-angle inset: first with the damper nearly removed (0.5 N·m·s/rad),
-- then with the stock damper (6.944). Figures (the takes' steer_angle, the largest swing from
-- the mean in each half second): without the damper 1.46° at 2.5-3 s, 3.86° at 4.5-5 s, 4.69°
-- at 5.5-6 s, about 7.3 Hz; with it 0.89° at 2-2.5 s, 0.11° at 3-3.5 s, 0.01° at 4-4.5 s.
return {
  title = "Wobble, with and without the steering damper",
  about = "the same knock on the bars at 70 km/h: the shake grows without the damper, dies with it",
  parts = {
    { ride = "wobble_undamped.lua", captions = "wobble_undamped.captions.lua", view = "chase", overlays = "bars",
      from = 0.5, to = 6, speed = 0.5, plot = "steer_angle,steer_rate,lean,speed" },
    { ride = "wobble_damped.lua", captions = "wobble_damped.captions.lua", view = "chase", overlays = "bars",
      from = 0.5, to = 5, speed = 0.5, plot = "steer_angle,steer_rate,lean,speed" },
  },
}
