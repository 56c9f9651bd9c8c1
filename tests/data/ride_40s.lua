-- ride_40s — forty seconds round the 100 m skidpad at 15 m/s: long enough for readers
-- (take info, take channels) to open the take many times while it is being recorded.
return {
  rig = "sport1000",
  track = "skidpad100",
  start = { station = 0, speed = 15 },
  duration = 40,
  rider = { line = "centre", speed = 15 },
}
