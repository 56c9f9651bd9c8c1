-- shifts_sweeper — gear changes while leaned (test data for tests/unit/test_shift.c): on the
-- 400 m sweeper the rider accelerates from 43 to 144 km/h (1->2->3 at 9500 rpm at 14.5 and 22.1 deg of lean),
-- holds it, then slows gently back (3->2->1 below 5000 rpm). The 6-12 Hz steer band around
-- every shift shows whether the shift excites the wobble.
return {
  rig = "sport1000",
  track = "sweeper",
  start = { station = 20, speed = 12, gear = 1 },
  duration = 32,
  rider = { line = "centre", auto_gear = true, preview = 1.0,
            speed = { by = "time", points = { { 0, 12 }, { 1, 12 }, { 8, 40 }, { 10, 40 }, { 30, 12 }, { 32, 12 } } } },
}
