-- laguna_seca — WeatherTech Raceway Laguna Seca, Monterey, California: 11 turns, anticlockwise.
--
-- Segments 1–4 are the Slipstream manual's own (§3.2). The rest were built from the public
-- facts in ../shared/data/laguna_seca.md — 3.602 km, turns 1 (a fast left over a crest) to 11,
-- the Andretti hairpin (T2), the infield (T3–T5, T3 and T4 to the right), the climb of T6 and
-- the Rahal straight to the blind crest of T7, the Corkscrew (T8 left, T8A right) falling at
-- 12 % and 18 %, the long downhill Rainey curve (T9), T10 to the right and the slow T11 onto the
-- start/finish straight, about 55 m of elevation change, 30–50 ft wide. Radii and transition
-- lengths are our estimates for a road of this class; the layout is a faithful sketch, not a
-- survey. docs/laguna_seca.md derives every segment.
--
-- Each segment: {length, left half width, right half width, curvature, slope, superelevation},
-- values at the segment's END; positive curvature turns left; negative superelevation banks a
-- left turn. `close` lets the loader adjust three lengths and one grade so the circuit closes
-- exactly in position, heading and height (docs/tracks.md).
local ft = units.feet
local w15, w20, w25 = ft(15), ft(20), ft(25)
local function R(r) return 1 / r end

return {
  name = "Laguna Seca",
  closed = true,
  tessellation = 0.0005,        -- 1/m of curvature change per arc of a spiral
  close = { lengths = { 38, 46, 44 }, grade = 25 },
  segments = {
    -- start/finish straight and Turn 1 (the manual's four segments)
    { ft(269), w15, w15, 0, 0, 0 },                         -- 1
    { ft(150), w15, w15, 0, -0.045, -0.033 },               -- 2
    { ft(182), w15, w15, 1 / ft(516), -0.045, -0.119 },     -- 3  T1: spiral in
    { ft(239), w20, w20, 0, -0.045, -0.028 },               -- 4  T1: spiral out
    -- down to the Andretti hairpin (T2), a slow double-apex left
    { 220, w20, w20, 0, -0.030, -0.020 },                   -- 5
    { 30, w20, w20, R(22), -0.010, -0.040 },                -- 6  T2 in
    { 30, w20, w20, R(22), -0.005, -0.040 },                -- 7  T2
    { 25, w15, w15, 0, 0.000, -0.010 },                     -- 8  T2 out
    -- the infield: T3 and T4 to the right, T5 left
    { 176, w15, w15, 0, 0.015, 0.000 },                     -- 9
    { 25, w15, w15, R(-35), 0.020, 0.030 },                 -- 10 T3 in
    { 18, w15, w15, R(-35), 0.020, 0.030 },                 -- 11 T3
    { 25, w15, w15, 0, 0.020, 0.000 },                      -- 12 T3 out
    { 100, w15, w15, 0, 0.020, 0.000 },                     -- 13
    { 30, w15, w15, R(-45), 0.020, 0.030 },                 -- 14 T4 in
    { 33, w15, w15, R(-45), 0.025, 0.030 },                 -- 15 T4
    { 30, w15, w15, 0, 0.030, 0.000 },                      -- 16 T4 out
    { 80, w15, w15, 0, 0.030, 0.000 },                     -- 17
    { 25, w15, w15, R(38), 0.040, -0.040 },                 -- 18 T5 in
    { 28, w15, w15, R(38), 0.040, -0.040 },                 -- 19 T5
    { 25, w15, w15, 0, 0.040, -0.010 },                     -- 20 T5 out
    -- up to T6, then the Rahal straight to the crest of T7
    { 100, w15, w15, 0, 0.035, 0.000 },                     -- 21
    { 30, w15, w15, R(50), 0.035, -0.040 },                 -- 22 T6 in
    { 23, w15, w15, R(50), 0.035, -0.040 },                 -- 23 T6
    { 30, w15, w15, 0, 0.040, -0.010 },                     -- 24 T6 out
    { 330, w15, w15, 0, 0.040, 0.000 },                     -- 25 Rahal straight (closure grade)
    { 35, w15, w15, R(120), 0.010, -0.020 },                -- 26 T7 in, over the blind crest
    { 35, w15, w15, 0, 0.000, 0.000 },                      -- 27 T7 out
    { 40, w15, w15, 0, -0.020, 0.000 },                     -- 28 to the Corkscrew
    -- the Corkscrew: T8 left at 12 %, then T8A right at 18 %
    { 15, w15, w15, R(18), -0.120, -0.020 },                -- 29 T8 in
    { 7, w15, w15, R(18), -0.120, -0.020 },                 -- 30 T8
    { 30, w15, w15, R(-20), -0.180, 0.020 },                -- 31 T8 → T8A
    { 13, w15, w15, R(-20), -0.150, 0.020 },                -- 32 T8A
    { 15, w15, w15, 0, -0.100, 0.000 },                     -- 33 T8A out
    { 100, w20, w20, 0, -0.070, 0.000 },                    -- 34
    -- Rainey curve (T9), long, fast, downhill left; T10 right; T11 left onto the straight
    { 40, w20, w20, R(60), -0.060, -0.050 },                -- 35 T9 in
    { 54, w25, w25, R(60), -0.050, -0.050 },                -- 36 T9
    { 40, w25, w25, 0, -0.035, -0.010 },                    -- 37 T9 out
    { 150, w25, w25, 0, -0.015, 0.000 },                    -- 38 (closure)
    { 30, w25, w25, R(-50), -0.020, 0.030 },                -- 39 T10 in
    { 14, w25, w25, R(-50), -0.020, 0.030 },                -- 40 T10
    { 30, w25, w25, 0, -0.020, 0.000 },                     -- 41 T10 out
    { 260, w20, w20, 0, -0.020, 0.000 },                    -- 42
    { 25, w20, w20, R(20), 0.000, -0.030 },                 -- 43 T11 in
    { 20, w20, w20, R(20), 0.000, -0.030 },                 -- 44 T11 (closure)
    { 25, w15, w15, 0, 0.010, 0.000 },                      -- 45 T11 out
    { 400, w15, w15, 0, 0.000, 0.000 },                     -- 46 front straight (closure)
  },
  -- Dressing for the exported set (exporters/set.h; the road function ignores it). Stations in
  -- metres along the closed track (segment starts: `mototake track info`'s figures, docs/tracks.md).
  -- Kerbs at each corner's apex (inside) and exit (outside), as the real circuit has them; their
  -- stations and lengths are our estimates, not a survey.
  kerbs = {
    { from = 150, to = 200, side = "left" },   { from = 200, to = 250, side = "right" },    -- T1
    { from = 480, to = 536, side = "left" },   { from = 530, to = 561, side = "right" },    -- T2
    { from = 745, to = 785, side = "right" },  { from = 775, to = 810, side = "left" },     -- T3
    { from = 915, to = 965, side = "right" },  { from = 960, to = 1000, side = "left" },    -- T4
    { from = 1085, to = 1135, side = "left" }, { from = 1125, to = 1160, side = "right" },  -- T5
    { from = 1265, to = 1310, side = "left" }, { from = 1300, to = 1340, side = "right" },  -- T6
    { from = 1680, to = 1720, side = "left" },                                               -- T7
    { from = 1785, to = 1801, side = "left" }, { from = 1815, to = 1845, side = "right" },  -- T8, T8A
    { from = 1840, to = 1865, side = "left" },
    { from = 1990, to = 2060, side = "left" }, { from = 2050, to = 2100, side = "right" },  -- T9
    { from = 2525, to = 2565, side = "right" }, { from = 2555, to = 2595, side = "left" },  -- T10
    { from = 2860, to = 2905, side = "left" }, { from = 2895, to = 2935, side = "right" },  -- T11
  },
  -- corner boards before each turn, on its outside
  corners = {
    { at = 100, name = "T1", side = "right" },
    { at = 440, name = "T2", title = "Andretti hairpin", side = "right" },
    { at = 707, name = "T3", side = "left" },
    { at = 875, name = "T4", side = "left" },
    { at = 1048, name = "T5", side = "right" },
    { at = 1226, name = "T6", side = "right" },
    { at = 1640, name = "T7", side = "right" },
    { at = 1750, name = "T8", title = "Corkscrew", side = "right" },
    { at = 1930, name = "T9", title = "Rainey curve", side = "right" },
    { at = 2483, name = "T10", side = "left" },
    { at = 2817, name = "T11", side = "right" },
  },
}
