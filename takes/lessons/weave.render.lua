-- weave — the weave at speed: 200 km/h with 60 kg of luggage on the back seat (weave_payload.lua,
-- the memo's weave machine), the machine alone, nudged at 2 s by 5 N·m on the bars for 0.1 s.
-- The chase view at half speed shows roll, yaw and steer swinging together; the take's lean
-- (largest swing from the mean in each half second): ±0.23° at 2-2.5 s, ±0.70°, ±1.90°, ±4.83° at
-- 3.5-4 s, about 3.2 Hz; past 45° of lean at 4.52 s: it falls. At 200 km/h the wobble is well
-- damped, so the weave is the only thing that grows (docs/wobble.md).
return {
  title = "The weave at speed",
  about = "200 km/h with luggage: a small nudge, and roll, yaw and steer swing wider every cycle",
  parts = {
    { ride = "weave_payload.lua", captions = "weave.captions.lua", view = "chase", overlays = "bars",
      from = 0.5, to = 4.6, speed = 0.5, plot = "lean,yaw_rate,steer_angle,speed" },
  },
}
