-- countersteering — to turn right at speed, push the right bar. The ride is takes/countersteer.lua
-- (72 km/h on the straight, no rider in the loop: the machine is self-stable there, so only the
-- two 15 N·m pushes steer it) with its captions, takes/captions/countersteer.lua; the chase view
-- with the bar-push cue, the steer angle and the tyre forces. What the viewer sees (the take's
-- channels at 1 kHz): during the right push the front wheel turns LEFT (+0.78° at most, 0.072 s
-- in), the machine then leans right (7.6° at 3.529 s) and its heading settles 2.9° to the right.
return {
  title = "Countersteering",
  about = "push the right bar to turn right: the front wheel turns left first (chase view, 20 s)",
  parts = {
    { ride = "../countersteer.lua", captions = "../captions/countersteer.lua", view = "chase", overlays = "all",
      from = 0, to = 20, plot = "steer_torque,steer_angle,lean,heading" },
  },
}
