-- countersteer captions — for takes/countersteer.lua (docs/render.md, "Captions, callouts and
-- teaching overlays"): `mototake render cs.take -o cs.mp4 --view chase --overlays all
-- --captions takes/captions/countersteer.lua`. Times are the take's seconds, or, with `mark`,
-- seconds from the script's mark of that name (re-time the push in the script and these follow).
-- The figures are the take's (`mototake take channels`: the steer angle peaks at +0.76 degrees
-- 0.08 s into the push, the lean at +7.6 degrees at 3.52 s, the heading settles 2.9 degrees to
-- the right).
return {
  { t0 = 0.0, t1 = 2.5, style = "title", text = "Countersteering", line = "to turn right at speed, push the right bar" },
  { t0 = 2.5, t1 = 7.5, style = "lower", text = "Push right", line = "15 N·m on the right grip for 0.4 s, at 72 km/h" },
  { mark = "push right", t0 = -0.4, t1 = 0.4, style = "callout", text = "push here", at = "right_grip" },
  { mark = "push right", t0 = -0.4, t1 = 0.3, style = "subtitle", text = "Watch the front wheel: it turns LEFT, under a degree, for a quarter of a second" },
  { mark = "push right", t0 = 0.3, t1 = 2.5, style = "subtitle", text = "The tyres run out to the left from under the machine: it leans right, and turns right" },
  { t0 = 5.5, t1 = 7.5, style = "subtitle", text = "Upright again, heading 3 degrees to the right" },
  { t0 = 7.5, t1 = 12.5, style = "lower", text = "Push left", line = "the same push on the left grip" },
  { mark = "push left", t0 = -0.4, t1 = 0.4, style = "callout", text = "push here", at = "left_grip" },
  { mark = "push left", t0 = 0, t1 = 2, style = "subtitle", text = "The mirror image: it leans left and turns back" },
  { t0 = 12.5, t1 = 20.0, style = "subtitle", text = "No push, no turn: at 72 km/h the machine holds itself upright" },
}
