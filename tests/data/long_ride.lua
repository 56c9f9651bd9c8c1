-- long_ride — ten minutes round the 100 m skidpad at 15 m/s: a take that is still being
-- written when the kill -9 test stops it.
return {
  rig = "sport1000",
  track = "skidpad100",
  start = { station = 0, speed = 15 },
  duration = 600,
  rider = { line = "centre", speed = 15 },
}
