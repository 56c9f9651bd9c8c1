-- captions of the lowside lesson (takes/lowside.lua), in the take's seconds (both parts); figures
-- from its channels front_fx, front_fy, front_load, lean and speed.
return {
  { t0 = 1.0, t1 = 1.5, style = "title", text = "Lowside", line = "too much front brake in a corner" },
  { t0 = 1.5, t1 = 2.0, style = "lower", text = "72 km/h, 23° of lean", line = "a steady left turn on the skidpad" },
  { t0 = 1.5, t1 = 2.0, style = "subtitle", text = "Watch the front tyre's forces against its grip (the ellipse)" },
  { mark = "front brake grabbed", t0 = -0.05, t1 = 0.2, style = "callout", text = "front brake grabbed", at = "front_contact" },
  { mark = "front brake grabbed", t0 = 0, t1 = 0.2, style = "subtitle", text = "The brake grabbed: 1.7 kN of braking on 1.8 kN of load" },
  { mark = "front brake grabbed", t0 = 0.2, t1 = 0.5, style = "subtitle", text = "Its side force drops from 0.44 to 0.23 kN: the front slides out, it falls to the inside" },
  { mark = "front brake grabbed", t0 = 0.5, t1 = 1.0, style = "subtitle", text = "On its side half a second after the grab" },
  { t0 = 3.0, t1 = 6.5, style = "subtitle", text = "It slides on its pegs, bar end and fairing, and stops at 6 s" },
}
