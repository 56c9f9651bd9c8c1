-- figure8 — a figure of eight of two 40 m loops, crossing itself at the start (level, flat
-- crossing), 10 m wide. Loops are entered and left through 15 m spirals; the loader adjusts
-- the two straights and one arc so the eight closes exactly.
local R = 40
local w = 5
return {
  name = "figure eight",
  closed = true,
  start = { heading = math.rad(45) },
  close = { lengths = { 1, 5, 3 } },
  segments = {
    { R, w, w, 0, 0, 0 },                       -- 1 out of the crossing, north-east
    { 15, w, w, 1 / R, 0, -0.03 },              -- 2 spiral into the left loop
    { 173.5, w, w, 1 / R, 0, -0.03 },           -- 3 the left loop
    { 15, w, w, 0, 0, 0 },                      -- 4 spiral out
    { 2 * R, w, w, 0, 0, 0 },                   -- 5 through the crossing, south-east
    { 15, w, w, -1 / R, 0, 0.03 },              -- 6 spiral into the right loop
    { 173.5, w, w, -1 / R, 0, 0.03 },           -- 7 the right loop
    { 15, w, w, 0, 0, 0 },                      -- 8 spiral out
    { R, w, w, 0, 0, 0 },                       -- 9 back to the crossing
  },
}
