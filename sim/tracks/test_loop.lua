-- test_loop — a banked, sloped closed loop that exercises every kind of transition: a spiral
-- from straight into a banked left arc, an arc-to-arc spiral (radius 60 → 40 m), a spiral back
-- to straight, a crest (grade +5 % → −5 %), a right–left S with the superelevation reversing
-- through zero, a widening and a narrowing, and a long banked left turn home. Closed by the
-- loader (three lengths and one grade).
return {
  name = "test loop",
  closed = true,
  tessellation = 0.0005,
  close = { lengths = { 14, 3, 16 }, grade = 8 },
  segments = {
    { 150, 5, 5, 0, 0, 0 },                     -- 1 level straight, east
    { 40, 5, 5, 1 / 60, 0.03, -0.05 },          -- 2 spiral into a banked left arc, climbing
    { 30, 5, 5, 1 / 60, 0.05, -0.06 },          -- 3 arc, R 60
    { 40, 6, 6, 1 / 40, 0.05, -0.08 },          -- 4 arc-to-arc spiral, R 60 → 40, widening
    { 39, 6, 6, 1 / 40, 0.05, -0.08 },          -- 5 arc, R 40
    { 40, 5, 5, 0, 0.05, 0 },                   -- 6 spiral out, unbanking
    { 60, 5, 5, 0, 0, 0 },                      -- 7 over the crest (+5 % → 0)
    { 60, 5, 5, 0, -0.05, 0 },                  -- 8 ... and down (0 → −5 %)
    { 30, 5, 5, -1 / 50, -0.04, 0.04 },         -- 9 S-bend: spiral into a right arc
    { 20, 5, 5, -1 / 50, -0.03, 0.04 },         -- 10 right arc
    { 40, 6, 6, 1 / 50, -0.02, -0.04 },         -- 11 spiral right → left, superelevation through zero
    { 20, 6, 6, 1 / 50, -0.01, -0.04 },         -- 12 left arc
    { 30, 5, 5, 0, 0, 0 },                      -- 13 spiral out
    { 100, 7, 7, 0, 0, 0 },                     -- 14 straight west, widening to 14 m
    { 40, 6, 6, 1 / 50, 0, -0.05 },             -- 15 spiral into the home turn
    { 117, 5, 5, 1 / 50, 0, -0.06 },            -- 16 banked left arc, narrowing
    { 40, 5, 5, 0, 0, 0 },                      -- 17 spiral out, east
    { 100, 5, 5, 0, 0, 0 },                     -- 18 straight back to the start
  },
}
