-- laguna_piece — the first 24 s of takes/laguna_race.lua (the same rider, at 76 % of the grip), for the rider's skeleton
-- (tests/unit/test_skeleton.c): the straight, braking into Turn 2, hanging off through it (lean up
-- to about 45 degrees) and out; the whole lap takes 4 s to record, this 1 s.
return {
  rig = "sport1000",
  track = "laguna_seca",
  start = { station = -300, speed = 30, gear = -1 },   -- negative stations count back from the line
  duration = 24,
  rider = { line = "racing", preview = 0.3, preview_span = 0.3, lateral = 0.8, speed = "auto", grip = 0.76,
            profile = "race", steer = "lqr", auto_gear = true },
}
