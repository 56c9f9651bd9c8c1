-- skidpad_steady — a steady turn on the 100 m skidpad with a slow speed ramp, for reading slip
-- angles from telemetry (docs/slip.md). The rider holds the centre circle while the speed
-- rises from 8 m/s (v²/R = 0.07 g, about 1° of steer) to 28 m/s (0.80 g) over 70 s: the slow
-- start gives the low-lateral-acceleration samples the centre-of-gravity estimate needs, the
-- rest the slip angles' climb toward the tyres' optimum.
return {
  rig = "sport1000",
  track = "skidpad100",
  start = { station = 0, speed = 8 },
  duration = 80,
  rider = { line = "centre", speed = { by = "time", points = { { 0, 8 }, { 10, 8 }, { 80, 28 } } } },
  events = {
    { at = 10, mark = "speed ramp begins" },
  },
}
