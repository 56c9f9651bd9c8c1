-- captions of the wobble lesson's second part (wobble_damped.lua); figures from its steer_angle
-- channel: the largest swing from the mean in each half second after the knock.
return {
  { t0 = 0.5, t1 = 1.7, style = "title", text = "The same knock, with the damper", line = "the stock steering damper: 6.9 N·m·s/rad" },
  { t0 = 1.7, t1 = 2.6, style = "lower", text = "Stock damper, 70 km/h", line = "no hands on the bars: the machine alone" },
  { mark = "kick", t0 = -0.1, t1 = 0.3, style = "callout", text = "the same knock", at = "bars" },
  { mark = "kick", t0 = 0, t1 = 1.0, style = "subtitle", text = "±0.9° in the first half second, ±0.1° a second later" },
  { mark = "kick", t0 = 1.0, t1 = 3.0, style = "subtitle", text = "Gone: the damper turns the shake into heat" },
}
