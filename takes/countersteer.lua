-- countersteer — to turn right at speed, push the right bar: 20 s on the straight at 72 km/h with
-- no rider in the loop (rider = false: the machine alone, self-stable at this speed, so only the
-- pushes steer it), starting 3 m left of the centre line. At 3 s a 15 N·m push on the right
-- grip for 0.4 s (steer_torque > 0: the front wheel turns LEFT for a moment,
-- docs/conventions.md), and the machine leans right and turns about 3 degrees RIGHT; at 8 s the
-- same push on the left grip turns it back. After each push it rights itself (the weave and
-- capsize modes are stable at 20 m/s). docs/render.md renders it.
return {
  rig = "sport1000",
  track = "straight",
  start = { station = 10, offset = 3, speed = 20 },
  duration = 20,
  rider = false,
  inputs = {
    { at = 3.0, steer_torque = 15, hold = 0.4 },
    { at = 8.0, steer_torque = -15, hold = 0.4 },
  },
  events = {
    { at = 3.0, mark = "push right" },
    { at = 8.0, mark = "push left" },
  },
}
