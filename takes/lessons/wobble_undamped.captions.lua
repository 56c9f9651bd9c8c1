-- captions of the wobble lesson's first part (wobble_undamped.lua); figures from its steer_angle
-- channel: the largest swing from the mean in each half second after the knock.
return {
  { t0 = 0.5, t1 = 1.7, style = "title", text = "Wobble", line = "the steering damper nearly removed: 0.5 N·m·s/rad (stock 6.9)" },
  { t0 = 1.7, t1 = 2.6, style = "lower", text = "No damper, 70 km/h", line = "no hands on the bars: the machine alone" },
  { t0 = 1.7, t1 = 2.0, style = "subtitle", text = "Watch the front wheel in the inset, top right" },
  { mark = "kick", t0 = -0.1, t1 = 0.3, style = "callout", text = "a 20 ms knock on the bars", at = "bars" },
  { mark = "kick", t0 = 0, t1 = 1.0, style = "subtitle", text = "A knock on the bars: the front end shakes, about 7 times a second" },
  { mark = "kick", t0 = 1.0, t1 = 2.5, style = "subtitle", text = "Each swing is bigger than the last: ±1.5° at first, ±3.9° two seconds later" },
  { mark = "kick", t0 = 2.5, t1 = 4.0, style = "subtitle", text = "Still growing, ±4.7° by 5.5 s: nothing in the steering takes the energy out" },
}
