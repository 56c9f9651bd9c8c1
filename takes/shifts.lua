-- shifts — gear changes on the straight: the virtual rider accelerates from 36 km/h through
-- 1st to 4th (quickshifter upshifts at 9500 rpm) to 173 km/h, holds it, then brakes back to
-- 36 km/h down through 4th to 1st (auto-blipped downshifts below 5000 rpm). The shift
-- choreography is sim/shift.c's; docs/drivetrain.md "Gear changes" has the values.
return {
  rig = "sport1000",
  track = "straight",
  start = { station = 20, speed = 10, gear = 1 },
  duration = 26,
  rider = { line = "centre", auto_gear = true,
            speed = { by = "time", points = { { 0, 10 }, { 1, 10 }, { 9, 48 }, { 12, 48 }, { 23, 10 }, { 26, 10 } } } },
}
