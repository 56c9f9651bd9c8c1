-- captions of the weave lesson (weave_payload.lua); figures from its lean channel: the largest
-- swing from the mean in each half second after the nudge.
return {
  { t0 = 0.5, t1 = 1.7, style = "title", text = "The weave at speed", line = "200 km/h, 60 kg of luggage on the back seat" },
  { t0 = 1.7, t1 = 2.6, style = "lower", text = "Weave: roll, yaw and steer together", line = "no hands on the bars: the machine alone" },
  { t0 = 1.7, t1 = 2.0, style = "subtitle", text = "Watch the whole machine, not just the front wheel" },
  { mark = "steer torque pulse", t0 = 0, t1 = 0.5, style = "subtitle", text = "A small nudge on the bars: 5 N·m for a tenth of a second" },
  { mark = "steer torque pulse", t0 = 0.5, t1 = 1.5, style = "subtitle", text = "It rolls and yaws from side to side, about 3 times a second" },
  { mark = "steer torque pulse", t0 = 1.5, t1 = 2.0, style = "subtitle", text = "Lean ±0.7°, then ±1.9°, then ±4.8°: each cycle bigger" },
  { mark = "steer torque pulse", t0 = 2.0, t1 = 2.6, style = "subtitle", text = "Two seconds after the nudge it has thrown itself down" },
}
