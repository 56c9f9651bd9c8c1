-- layout_marks — a short ride round the 50 m skidpad with a crowd of events for the timeline's
-- names (tests/unit/test_layout.c): twenty "nudge" marks 20 ms apart (as a ridden take's inputs
-- come), then "apex" and "exit" 10 ms apart, too close for their names to sit side by side.
local events = {}
for i = 0, 19 do events[#events + 1] = { at = 0.2 + 0.02 * i, mark = "nudge" } end
events[#events + 1] = { at = 0.62, mark = "apex" }
events[#events + 1] = { at = 0.63, mark = "exit" }
return {
  rig = "sport1000",
  track = "skidpad50",
  start = { station = 10, speed = 15 },
  duration = 1.0,
  rider = { line = "centre", speed = 15 },
  events = events,
}
