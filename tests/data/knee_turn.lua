-- knee_turn — a steady turn at racing lean for the rider's knee slider (tests/unit/test_skeleton.c):
-- the 50 m skidpad at 23.55 m/s, about the 53.7 degrees takes/laguna_race.lua leaned at most at 76 % of the grip (54.0 at 88 %).
return {
  rig = "sport1000",
  track = "skidpad50",
  start = { station = 10, speed = 23.55 },
  duration = 1.0,
  rider = { line = "centre", speed = 23.55 },
}
