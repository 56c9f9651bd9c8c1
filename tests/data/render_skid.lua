-- render_skid — a short leaned ride round the 50 m skidpad for the renderer's tests
-- (tests/unit/test_render.c, tests/cli/render.sh): 1.2 s at 15 m/s, leaned about 25 degrees.
return {
  rig = "sport1000",
  track = "skidpad50",
  start = { station = 10, speed = 15 },
  duration = 1.2,
  rider = { line = "centre", speed = 15 },
  events = { { at = 0.6, mark = "half way" } },
}
